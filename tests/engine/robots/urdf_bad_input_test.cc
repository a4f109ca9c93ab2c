// Tests for swarm/robots/robot_model.h on bad input: one case per kind of broken URDF (structure,
// joint types, numbers, mimics, XML syntax, files), each asserting that loading fails with a
// message naming the source, the joint or link at fault and the problem.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "swarm/robots/robot_model.h"

namespace swarm {
namespace {

using Catch::Contains;

std::string ErrorOf(const std::string& xml) {
  Result<RobotModel> model = LoadUrdfString(xml, {}, "bad.urdf");
  REQUIRE(!model.ok());
  CHECK(model.status().code() == ErrorCode::kInvalidArgument);
  CHECK_THAT(model.status().message(), Catch::StartsWith("bad.urdf"));
  return model.status().message();
}

const std::string kLimit = "<limit lower=\"-1\" upper=\"1\" effort=\"5\" velocity=\"2\"/>";

// Links a, b, c and the given joints.
std::string Robot(const std::string& joints) {
  return "<robot name=\"r\"><link name=\"a\"/><link name=\"b\"/><link name=\"c\"/>" + joints +
         "</robot>";
}
std::string Joint(const std::string& name, const std::string& type, const std::string& parent,
                  const std::string& child, const std::string& body = "") {
  return "<joint name=\"" + name + "\" type=\"" + type + "\"><parent link=\"" + parent +
         "\"/><child link=\"" + child + "\"/>" + body + "</joint>";
}
// a -- j1 --> b -- j2 --> c with j2 carrying `body`.
std::string Chain(const std::string& type, const std::string& body) {
  return Robot(Joint("j1", "fixed", "a", "b") + Joint("j2", type, "b", "c", body));
}

TEST_CASE("a joint whose parent link does not exist", "[urdf][bad]") {
  const std::string message =
      ErrorOf(Robot(Joint("j1", "fixed", "a", "b") + Joint("j2", "fixed", "ghost", "c")));
  CHECK_THAT(message, Contains("not a valid URDF") && Contains("[ghost]") && Contains("[j2]"));
}

TEST_CASE("a joint without a parent element", "[urdf][bad]") {
  const std::string message =
      ErrorOf(Robot(Joint("j1", "fixed", "a", "b") +
                    "<joint name=\"j2\" type=\"fixed\"><child link=\"c\"/></joint>"));
  CHECK_THAT(message, Contains("[j2]") && Contains("parent"));
}

TEST_CASE("a link that is the child of two joints", "[urdf][bad]") {
  const std::string message =
      ErrorOf(Robot(Joint("j1", "fixed", "a", "b") + Joint("j2", "fixed", "b", "c") +
                    Joint("j3", "fixed", "c", "b")));
  CHECK_THAT(message, Contains("link 'b' is the child of two joints") && Contains("'j1'") &&
                          Contains("'j3'") && Contains("tree"));
}

TEST_CASE("joints that form a cycle away from the root", "[urdf][bad]") {
  // a is the only link without a parent, so urdfdom finds a root; b and c hang off each other.
  const std::string message =
      ErrorOf(Robot(Joint("j2", "fixed", "b", "c") + Joint("j3", "fixed", "c", "b")));
  CHECK_THAT(message, Contains("cycle") && Contains("b -> c -> b") && Contains("tree"));
}

TEST_CASE("joints that leave no root link", "[urdf][bad]") {
  const std::string message =
      ErrorOf(Robot(Joint("j1", "fixed", "a", "b") + Joint("j2", "fixed", "b", "c") +
                    Joint("j3", "fixed", "c", "a")));
  CHECK_THAT(message, Contains("no root link") && Contains("cycle"));
}

TEST_CASE("two root links", "[urdf][bad]") {
  const std::string message = ErrorOf(Robot(Joint("j1", "fixed", "a", "b")));
  CHECK_THAT(message, Contains("[a]") && Contains("[c]") && Contains("root"));
}

TEST_CASE("an unknown joint type", "[urdf][bad]") {
  const std::string message = ErrorOf(Chain("hinge", ""));
  CHECK_THAT(message, Contains("[j2]") && Contains("[hinge]"));
}

TEST_CASE("a joint named like a floating-base coordinate, with a floating base", "[urdf][bad]") {
  // Every name the floating base puts before the joints (q and velocity names) would otherwise be
  // listed twice by QNames or VelocityNames.
  for (const char* name : {"base_x", "base_qz", "base_vx", "base_wz"}) {
    const std::string xml = Robot(Joint(name, "revolute", "a", "b", kLimit) +
                                  Joint("j2", "revolute", "b", "c", kLimit));
    UrdfOptions floating;
    floating.floating_base = true;
    Result<RobotModel> model = LoadUrdfString(xml, floating, "bad.urdf");
    REQUIRE_FALSE(model.ok());
    INFO(model.status().message());
    CHECK_THAT(model.status().message(), Contains(std::string("joint '") + name +
                                                  "' has the name of a floating-base coordinate") &&
                                             Contains("bad.urdf:1:"));
    // Without a floating base the name means nothing special.
    Result<RobotModel> fixed = LoadUrdfString(xml, {}, "bad.urdf");
    REQUIRE(fixed.ok());
    CHECK(fixed->QNames() == std::vector<std::string>{name, "j2"});
  }
}

TEST_CASE("planar and floating joints are unsupported", "[urdf][bad]") {
  for (const char* type : {"planar", "floating"}) {
    const std::string message = ErrorOf(Chain(type, ""));
    INFO(message);
    CHECK_THAT(message, Contains(std::string("joint 'j2' has type ") + type +
                                 ", which swarm does not support"));
    CHECK_THAT(message, Contains("floating_base"));
    CHECK_THAT(message, Contains("bad.urdf:1:"));  // the joint's line
  }
}

TEST_CASE("non-finite numbers in origins, axes and limits", "[urdf][bad]") {
  struct Case {
    std::string body, value, attribute;
  };
  const Case cases[] = {
      {"<origin xyz=\"0 nan 0\"/>" + kLimit, "[nan]", "origin"},
      {"<origin xyz=\"0 0 0\" rpy=\"inf 0 0\"/>" + kLimit, "[inf]", "origin"},
      {"<origin xyz=\"1e999 0 0\"/>" + kLimit, "[1e999]", "origin"},
      {"<axis xyz=\"0 -inf 1\"/>" + kLimit, "[-inf]", "axis"},
      {"<limit lower=\"nan\" upper=\"1\" effort=\"1\" velocity=\"1\"/>", "(nan)", "lower"},
      {"<limit lower=\"-1\" upper=\"inf\" effort=\"1\" velocity=\"1\"/>", "(inf)", "upper"},
      {"<limit lower=\"-1\" upper=\"1\" effort=\"NaN\" velocity=\"1\"/>", "NaN", "effort"},
      {"<limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"-inf\"/>", "-inf", "velocity"},
  };
  for (const Case& test_case : cases) {
    const std::string message = ErrorOf(Chain("revolute", test_case.body));
    INFO(test_case.body);
    CHECK_THAT(message,
               Contains("[j2]") && Contains(test_case.value) && Contains(test_case.attribute));
  }
}

TEST_CASE("a zero axis", "[urdf][bad]") {
  for (const char* type : {"revolute", "prismatic", "continuous"}) {
    const std::string message = ErrorOf(Chain(type, "<axis xyz=\"0 0 0\"/>" + kLimit));
    CHECK_THAT(message, Contains("bad.urdf:1: joint 'j2' has a zero axis (0 0 0)"));
  }
}

TEST_CASE("limits out of order or negative", "[urdf][bad]") {
  CHECK_THAT(
      ErrorOf(Chain("revolute", "<limit lower=\"1\" upper=\"-1\" effort=\"1\" velocity=\"1\"/>")),
      Contains("joint 'j2' has limit lower 1 > upper -1"));
  CHECK_THAT(
      ErrorOf(Chain("prismatic", "<limit lower=\"0\" upper=\"1\" effort=\"-3\" velocity=\"1\"/>")),
      Contains("joint 'j2' has a negative limit (effort -3"));
}

TEST_CASE("a revolute joint without limits", "[urdf][bad]") {
  CHECK_THAT(ErrorOf(Chain("revolute", "")), Contains("[j2]") && Contains("limits"));
}

TEST_CASE("mimics of missing or fixed joints and mimic cycles", "[urdf][bad]") {
  CHECK_THAT(ErrorOf(Chain("continuous", "<mimic joint=\"nope\"/>")),
             Contains("joint 'j2' mimics joint 'nope', which does not exist"));
  CHECK_THAT(ErrorOf(Chain("continuous", "<mimic joint=\"j1\"/>")),
             Contains("joint 'j2' mimics joint 'j1', which is fixed"));
  CHECK_THAT(ErrorOf(Chain("continuous", "<mimic joint=\"j2\"/>")),
             Contains("joint 'j2' is part of a mimic cycle: 'j2' -> 'j2'"));
  const std::string cycle =
      ErrorOf(Robot(Joint("j1", "continuous", "a", "b", "<mimic joint=\"j2\"/>") +
                    Joint("j2", "continuous", "b", "c", "<mimic joint=\"j1\"/>")));
  CHECK_THAT(cycle, Contains("mimic cycle") && Contains("'j1' -> 'j2' -> 'j1'"));
  // Through a chain: j3 -> j2 -> nope.
  const std::string chain = ErrorOf(
      "<robot name=\"r\"><link name=\"a\"/><link name=\"b\"/><link name=\"c\"/><link name=\"d\"/>" +
      Joint("j1", "continuous", "a", "b") +
      Joint("j2", "continuous", "b", "c", "<mimic joint=\"nope\"/>") +
      Joint("j3", "continuous", "c", "d", "<mimic joint=\"j2\"/>") + "</robot>");
  CHECK_THAT(chain, Contains("mimics joint 'nope'") && Contains("does not exist"));
}

TEST_CASE("duplicate link and joint names", "[urdf][bad]") {
  CHECK_THAT(ErrorOf(Robot("<link name=\"a\"/>")), Contains("'a'") && Contains("not unique"));
  CHECK_THAT(ErrorOf(Robot(Joint("j", "fixed", "a", "b") + Joint("j", "fixed", "a", "c"))),
             Contains("'j'") && Contains("not unique"));
}

TEST_CASE("truncated XML says where the text ends", "[urdf][bad]") {
  const std::string message = ErrorOf(
      "<robot name=\"r\">\n  <link name=\"a\"/>\n  <link name=\"b\"/>\n"
      "  <joint name=\"elbow\" type=\"revolute\">\n    <parent link=\"a\"/>\n    <child li");
  CHECK_THAT(message, Contains("not a valid URDF") && Contains("the text ends at line 6") &&
                          Contains("<joint name=\"elbow\"> opened at line 4") &&
                          Contains("<robot name=\"r\"> opened at line 1"));

  // A shipped robot cut in half, as an interrupted download leaves it.
  std::ifstream file(SWARM_ROBOT_ASSETS_DIR "/ur5.urdf");
  const std::string whole((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  REQUIRE(whole.size() > 1000);
  const std::string half = ErrorOf(whole.substr(0, whole.size() / 2));
  CHECK_THAT(half, Contains("not a valid URDF") && Contains("the text ends at line") &&
                       Contains("<robot name=\"ur5\"> opened at line"));
}

TEST_CASE("every truncation of a real file is rejected cleanly", "[urdf][bad]") {
  // The CRLF file too: a cut between '\r' and '\n' must not confuse the line count.
  for (const char* path :
       {SWARM_ROBOT_ASSETS_DIR "/quadruped.urdf", SWARM_SHARED_URDF_DIR "/so100.urdf"}) {
    INFO(path);
    std::ifstream file(path, std::ios::binary);
    const std::string whole((std::istreambuf_iterator<char>(file)),
                            std::istreambuf_iterator<char>());
    const size_t end = whole.rfind("</robot>");
    REQUIRE(end != std::string::npos);
    for (size_t length = 0; length < end; length += 7) {
      Result<RobotModel> model =
          LoadUrdfString(std::string_view(whole).substr(0, length), {}, "cut.urdf");
      INFO("first " << length << " bytes");
      REQUIRE(!model.ok());
      REQUIRE_THAT(model.status().message(), Catch::StartsWith("cut.urdf: not a valid URDF: "));
    }
  }
}

TEST_CASE("malformed XML and documents that are not robots", "[urdf][bad]") {
  CHECK_THAT(ErrorOf("<robot name=\"r\"><link name=\"a\"></robot>"), Contains("not a valid URDF"));
  CHECK_THAT(ErrorOf("<!-- a comment that never ends <robot name=\"r\"/>"),
             Contains("inside a comment opened at line 1"));
  CHECK_THAT(ErrorOf("<model name=\"m\"/>"), Contains("not a valid URDF") && Contains("robot"));
  CHECK_THAT(ErrorOf("just text"),
             Contains("not a valid URDF") && Contains("no XML element in the text"));
}

TEST_CASE("empty text and text with a NUL byte", "[urdf][bad]") {
  CHECK_THAT(ErrorOf(""), Contains("bad.urdf: not a valid URDF: the text is empty"));
  CHECK_THAT(ErrorOf(" \r\n\t\n"), Contains("the text is empty"));
  CHECK_THAT(ErrorOf(std::string("<robot name=\"r\">\0<link name=\"a\"/></robot>", 41)),
             Contains("NUL byte at offset 16"));
}

TEST_CASE("files that are missing, empty or not files", "[urdf][bad]") {
  const std::string missing = "/nonexistent/dir/robot.urdf";
  Result<RobotModel> no_file = LoadUrdfFile(missing);
  REQUIRE(!no_file.ok());
  CHECK_THAT(no_file.status().message(),
             Contains("URDF file '" + missing + "': cannot open: No such file"));

  const std::filesystem::path empty = std::filesystem::temp_directory_path() /
                                      ("swarm_empty_" + std::to_string(getpid()) + ".urdf");
  { std::ofstream touch(empty); }
  Result<RobotModel> empty_file = LoadUrdfFile(empty.string());
  std::filesystem::remove(empty);
  REQUIRE(!empty_file.ok());
  CHECK_THAT(empty_file.status().message(),
             Contains(empty.string() + ": not a valid URDF: the file is empty"));

  Result<RobotModel> directory = LoadUrdfFile(SWARM_ROBOT_ASSETS_DIR);
  REQUIRE(!directory.ok());
  CHECK_THAT(directory.status().message(),
             Contains(std::string("URDF file '") + SWARM_ROBOT_ASSETS_DIR + "': is a directory"));

  // A device that never ends is read only up to the limit.
  UrdfOptions small;
  small.max_bytes = 4096;
  Result<RobotModel> zero = LoadUrdfFile("/dev/zero", small);
  REQUIRE(!zero.ok());
  CHECK_THAT(zero.status().message(),
             Contains("URDF file '/dev/zero': the stream (more than 4096 bytes) is larger than "
                      "the limit of 4.00 KiB"));
}

TEST_CASE("hostile XML is refused before urdfdom parses it", "[urdf][bad]") {
  const std::string link = "<link name=\"a\"/>";
  std::string deep = "<robot name=\"r\">" + link;
  for (size_t i = 0; i < kUrdfMaxDepth; ++i) deep += "<x>";
  for (size_t i = 0; i < kUrdfMaxDepth; ++i) deep += "</x>";
  CHECK_THAT(ErrorOf(deep + "</robot>"),
             Contains("bad.urdf: not a valid URDF: line 1, column") &&
                 Contains("<x> is nested 65 elements deep, more than the limit of 64"));
  // One level less loads (the <x> elements are ignored by urdfdom).
  std::string shallow = "<robot name=\"r\">" + link;
  for (size_t i = 0; i + 1 < kUrdfMaxDepth; ++i) shallow += "<x>";
  for (size_t i = 0; i + 1 < kUrdfMaxDepth; ++i) shallow += "</x>";
  CHECK(LoadUrdfString(shallow + "</robot>").ok());

  std::string wide = "<robot name=\"r\"><link name=\"a\"";
  for (size_t i = 0; i < kUrdfMaxAttributesPerElement; ++i)
    wide += " a" + std::to_string(i) + "=\"1\"";
  CHECK_THAT(ErrorOf(wide + "/></robot>"),
             Contains("<link> has 33 attributes, more than the limit of 32 per element"));

  CHECK_THAT(ErrorOf("<!DOCTYPE robot [<!ENTITY e \"x\">]><robot name=\"r\">" + link + "</robot>"),
             Contains("a DOCTYPE declaration (<!DOCTYPE robot>)"));
  CHECK_THAT(ErrorOf("<?php echo 1; ?><robot name=\"r\">" + link + "</robot>"),
             Contains("a processing instruction (<?php ...?>)"));
  CHECK(LoadUrdfString("<?xml version=\"1.0\" encoding=\"UTF-8\"?><robot name=\"r\">" + link +
                       "</robot>")
            .ok());
  CHECK_THAT(ErrorOf("<robot name=\"r\"><link name=\"\xff\"/></robot>"),
             Contains("line 1, column 29: malformed XML (not well-formed (invalid token))"));

  UrdfOptions small;
  small.max_bytes = 64;
  Result<RobotModel> long_text =
      LoadUrdfString(Robot("<!--" + std::string(100, ' ') + "-->"), small, "long.urdf");
  REQUIRE_FALSE(long_text.ok());
  CHECK_THAT(long_text.status().message(),
             Contains("long.urdf: not a valid URDF: ") &&
                 Contains(" bytes is larger than the limit of 64 (UrdfOptions::max_bytes"));
}

TEST_CASE("joints that would loop urdfdom's links are refused before it links them",
          "[urdf][bad]") {
  // A joint from a link to itself beside a misspelt <child>: urdfdom linked a shared_ptr cycle,
  // then failed and leaked it (the sanitizer build checks no leak is left).
  const std::string self_loop = Robot(
      "<joint name=\"self\" type=\"fixed\"><parent link=\"b\"/><child link=\"b\"/></joint>"
      "<joint name=\"typo\" type=\"fixed\"><parent link=\"a\"/><chld link=\"b\"/></joint>");
  CHECK_THAT(ErrorOf(self_loop), Contains("bad.urdf:1: joint 'self' connects link 'b' to itself"));
  // A loop through a link with two parents, next to a second root.
  const std::string two_parents =
      Robot("<link name=\"d\"/>" + Joint("j1", "fixed", "a", "b") + Joint("j2", "fixed", "b", "c") +
            Joint("j3", "fixed", "c", "b"));
  CHECK_THAT(ErrorOf(two_parents), Contains("link 'b' is the child of two joints, 'j1' and 'j3'"));
}

TEST_CASE("numbers beyond float range or any robot's size name the joint", "[urdf][bad]") {
  const std::string limit = "<limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/>";
  CHECK_THAT(ErrorOf(Chain("revolute", "<axis xyz=\"1e308 1e308 0\"/>" + limit)),
             Contains("joint 'j2' has axis 1e+308, beyond float range (+-3.4e38)"));
  CHECK_THAT(ErrorOf(Chain("revolute", "<origin xyz=\"0 0 1e39\"/>" + limit)),
             Contains("joint 'j2' has origin xyz 1e+39, beyond +-1e+09"));
  CHECK_THAT(ErrorOf(Chain("revolute",
                           "<limit lower=\"-1e300\" upper=\"1\" effort=\"1\" velocity=\"1\"/>")),
             Contains("joint 'j2' has limit -1e+300, beyond +-1e+09"));
  CHECK_THAT(ErrorOf(Chain("revolute",
                           "<limit lower=\"-1\" upper=\"1\" effort=\"1e39\" velocity=\"1\"/>")),
             Contains("joint 'j2' has limit 1e+39, beyond float range"));
  // An axis within float range is a direction like any other, however long.
  Result<RobotModel> long_axis =
      LoadUrdfString(Chain("revolute", "<axis xyz=\"3e37 4e37 0\"/>" + limit));
  REQUIRE(long_axis.ok());
  CHECK(long_axis->joints[1].axis[0] == Approx(0.6).epsilon(1e-12));
  CHECK(long_axis->joints[1].axis[1] == Approx(0.8).epsilon(1e-12));
}

TEST_CASE("errors in files name the file and the joint's line", "[urdf][bad]") {
  const std::filesystem::path path = std::filesystem::temp_directory_path() /
                                     ("swarm_planar_" + std::to_string(getpid()) + ".urdf");
  {
    std::ofstream out(path);
    out << "<robot name=\"r\">\n<link name=\"a\"/>\n<link name=\"b\"/>\n\n"
           "<joint name=\"slider\" type=\"planar\">\n<parent link=\"a\"/><child link=\"b\"/>\n"
           "</joint>\n</robot>\n";
  }
  Result<RobotModel> model = LoadUrdfFile(path.string());
  std::filesystem::remove(path);
  REQUIRE(!model.ok());
  CHECK_THAT(model.status().message(),
             Contains(path.string() + ":5: joint 'slider' has type planar"));
}

}  // namespace
}  // namespace swarm

namespace swarm {
namespace {

TEST_CASE("every URDF regression input loads or fails with a message", "[urdf][bad]") {
  size_t inputs = 0, loaded = 0;
  for (const auto& entry : std::filesystem::directory_iterator(SWARM_URDF_REGRESSIONS_DIR)) {
    if (entry.path().extension() != ".urdf") continue;
    const std::string path = entry.path().string();
    INFO(path);
    const auto start = std::chrono::steady_clock::now();
    Result<RobotModel> model = LoadUrdfFile(path);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK(seconds < 5.0);  // generous: these take milliseconds; the unfixed cases took minutes
    ++inputs;
    if (model.ok()) {
      ++loaded;
      CHECK(entry.path().filename().string().starts_with("valid-"));
      CHECK(model->links.size() == model->joints.size() + 1);
    } else {
      CHECK_FALSE(entry.path().filename().string().starts_with("valid-"));
      CHECK_THAT(model.status().message(), Contains(path));
    }
  }
  CHECK(inputs >= 10);
  CHECK(loaded >= 1);
}

}  // namespace
}  // namespace swarm
