#include "bench/mjcf_compat.h"

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace swarm::bench {
namespace {

namespace fs = std::filesystem;

class Editor {
 public:
  Editor(std::string text, std::string file, std::vector<std::string>& log)
      : text_(std::move(text)), file_(std::move(file)), log_(log) {}

  void Replace(const std::string& pattern, const std::string& replacement, const char* why) {
    const std::regex re(pattern);
    const auto count =
        std::distance(std::sregex_iterator(text_.begin(), text_.end(), re), std::sregex_iterator());
    if (count == 0) return;
    text_ = std::regex_replace(text_, re, replacement);
    log_.push_back(file_ + ": " + std::to_string(count) + "x " + why);
  }

  // Replaces each match of `pattern` by fn(match).
  template <class Fn>
  void Rewrite(const std::string& pattern, const Fn& fn, const char* why) {
    const std::regex re(pattern);
    std::string out;
    size_t last = 0, count = 0;
    for (auto it = std::sregex_iterator(text_.begin(), text_.end(), re);
         it != std::sregex_iterator(); ++it) {
      out.append(text_, last, static_cast<size_t>(it->position()) - last);
      out += fn(*it);
      last = static_cast<size_t>(it->position() + it->length());
      ++count;
    }
    if (count == 0) return;
    out.append(text_, last, std::string::npos);
    text_ = std::move(out);
    log_.push_back(file_ + ": " + std::to_string(count) + "x " + why);
  }

  const std::string& text() const { return text_; }

 private:
  std::string text_;
  std::string file_;
  std::vector<std::string>& log_;
};

std::string Attribute(const std::string& element, const std::string& name) {
  std::smatch m;
  if (std::regex_search(element, m, std::regex("\\b" + name + "=\"([^\"]*)\""))) return m[1];
  return "";
}

std::string WithoutAttribute(std::string element, const std::string& name) {
  return std::regex_replace(element, std::regex("\\s+" + name + "=\"[^\"]*\""), "");
}

// <position ... kp="K" kv="V" .../> (an actuator or a default) as a general actuator.
std::string PositionAsGeneral(const std::string& element) {
  const std::string kp = Attribute(element, "kp"), kv = Attribute(element, "kv");
  std::string out =
      WithoutAttribute(WithoutAttribute(WithoutAttribute(element, "kp"), "kv"), "inheritrange");
  out.replace(out.find("<position"), 9, "<general");
  out.replace(
      out.rfind("/>"), 2,
      " gainprm=\"" + kp + " 0 0\" biasprm=\"0 -" + kp + " -" + kv + "\" biastype=\"affine\"/>");
  return out;
}

void Common(Editor& e) {
  e.Replace("\\s+ls_iterations=\"[^\"]*\"", "", "deleted option ls_iterations (MuJoCo 3)");
  e.Replace("\\n\\s*<flag eulerdamp=\"disable\"/>", "", "deleted flag eulerdamp (MuJoCo 3)");
  e.Replace("integrator=\"implicitfast\"", "integrator=\"implicit\"",
            "integrator implicitfast (MuJoCo 2.3.3) -> implicit");
  e.Rewrite(
      "\\b(qpos|ctrl)=\"([^\"]*)\"",
      [](const std::smatch& m) {
        std::istringstream in(m[2].str());
        std::string word, joined;
        while (in >> word) joined += (joined.empty() ? "" : " ") + word;
        return m[1].str() + "=\"" + joined + "\"";
      },
      "keyframe lists without outer whitespace (2.2.2 repeats a trailing number)");
  e.Rewrite(
      "<compiler\\b[^>]*/>",
      [](const std::smatch& m) {
        const std::string element = m[0];
        if (element.find("autolimits") != std::string::npos) return element;
        return element.substr(0, element.size() - 2) + " autolimits=\"true\"/>";
      },
      "compiler autolimits=\"true\" (MuJoCo 3's default)");
  e.Rewrite(
      "(<joint [^>]*?)\\s+actuatorfrcrange=\"([^\"]*)\"([^>]*/>)",
      [](const std::smatch& m) {
        return m[1].str() + m[3].str() + "\n<general forcerange=\"" + m[2].str() + "\"/>";
      },
      "joint actuatorfrcrange (MuJoCo 3) -> general forcerange in its class");
  e.Rewrite(
      "<position\\b[^>]*\\bkv=\"[^\"]*\"[^>]*/>",
      [](const std::smatch& m) { return PositionAsGeneral(m[0]); },
      "position kp kv (kv: MuJoCo 3.1) -> general gainprm biasprm affine");
  e.Replace("\\n[ \\t]*<geom\\b[^>]*\\bmesh=\"[^\"]*\"[^>]*/>", "", "deleted mesh geoms");
  e.Replace("\\n[ \\t]*<mesh\\b[^>]*/>", "", "deleted mesh assets (files absent)");
  std::vector<std::string> textures;
  const std::string text = e.text();
  const std::regex texture("<texture\\b[^>]*\\bname=\"([^\"]*)\"[^>]*\\bfile=");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), texture);
       it != std::sregex_iterator(); ++it) {
    textures.push_back((*it)[1]);
  }
  e.Replace("\\n[ \\t]*<texture\\b[^>]*\\bfile=\"[^\"]*\"[^>]*/>", "",
            "deleted file textures (files absent)");
  for (const std::string& name : textures) {
    e.Replace("(<material\\b[^>]*?)\\s+texture=\"" + name + "\"", "$1",
              "deleted material textures of deleted files");
  }
}

}  // namespace

std::vector<std::string> WriteMujoco222Copies(const std::string& source_folder,
                                              const std::string& target_folder,
                                              JointRangeLookup joint_range) {
  std::vector<std::string> log;
  fs::create_directories(target_folder);
  std::vector<fs::path> files;
  for (const fs::directory_entry& entry : fs::directory_iterator(source_folder)) {
    if (entry.path().extension() == ".xml") files.push_back(entry.path());
  }
  std::vector<std::pair<std::string, std::string>> inherited;  // (copy, its text) to finish
  for (const fs::path& file : files) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    Editor e(text.str(), file.filename().string(), log);
    Common(e);
    const std::string target = (fs::path(target_folder) / file.filename()).string();
    std::ofstream(target) << e.text();
    if (e.text().find("<position") != std::string::npos &&
        std::regex_search(text.str(), std::regex("inheritrange"))) {
      inherited.emplace_back(target, e.text());
    }
  }
  // Second pass: the class's <position> actuators inherit their joints' ranges, which MuJoCo
  // has now compiled from the first copy (actuators without a ctrlrange are unlimited there).
  for (auto& [target, text] : inherited) {
    Editor e(text, fs::path(target).filename().string(), log);
    e.Rewrite(
        "<position\\b[^>]*\\bjoint=\"[^\"]*\"[^>]*/>",
        [&, path = target](const std::smatch& m) {
          const std::string element = m[0];
          const std::vector<double> range = joint_range(path, Attribute(element, "joint"));
          std::ostringstream out;
          out.precision(17);
          out << element.substr(0, element.size() - 2) << " ctrlrange=\"" << range.at(0) << " "
              << range.at(1) << "\"/>";
          std::string general = out.str();
          general.replace(general.find("<position"), 9, "<general");
          return general;
        },
        "position actuators of an inheritrange class -> general with their joint's range");
    std::ofstream(target) << e.text();
  }
  return log;
}

}  // namespace swarm::bench
