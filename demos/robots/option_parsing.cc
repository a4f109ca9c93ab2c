#include "demos/robots/option_parsing.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "swarm/core/text.h"

namespace swarm {

std::vector<std::string> SplitCommas(const std::string& text) {
  std::vector<std::string> parts;
  if (text.empty()) return parts;
  for (size_t start = 0;;) {
    const size_t comma = text.find(',', start);
    parts.push_back(text.substr(start, comma == std::string::npos ? comma : comma - start));
    if (comma == std::string::npos) return parts;
    start = comma + 1;
  }
}

Status ParseFrom(FlagSet& flags, int argc, const char* const* argv, int first) {
  return flags.Parse(argc - first + 1, argv + first - 1);
}

Result<std::vector<double>> ParseNumberList(const std::string& text, double max_magnitude) {
  std::vector<double> values;
  for (const std::string& part : SplitCommas(text)) {
    char* end = nullptr;
    const double value = std::strtod(part.c_str(), &end);
    if (part.empty() || end != part.c_str() + part.size() || !std::isfinite(value) ||
        std::fabs(value) > max_magnitude) {
      return InvalidArgument("expected comma-separated finite numbers (|x| <= " +
                             NumberText(max_magnitude) + "), got '" + part + "' in '" + text + "'");
    }
    values.push_back(value);
  }
  return values;
}

Status ParseVector3(const std::string& text, double out[3]) {
  Result<std::vector<double>> values = ParseNumberList(text, 1e6);
  if (!values.ok()) return values.status();
  if (values->size() != 3) {
    return InvalidArgument("expected three numbers gx,gy,gz, got '" + text + "'");
  }
  std::copy(values->begin(), values->end(), out);
  return {};
}

void AddRobotSourceFlags(FlagSet& flags, RobotSource& source, const char* floating_help) {
  flags.AddString("urdf", &source.urdf, "URDF file of the robot (this or --mjcf)");
  flags.AddString("mjcf", &source.mjcf,
                  "MJCF (MuJoCo XML) file of the robot, e.g. a MuJoCo Menagerie model (this or "
                  "--urdf)");
  flags.AddBytes("max-urdf-bytes", &source.max_urdf_bytes, "refuse larger URDF files");
  flags.AddBytes("max-mjcf-bytes", &source.max_mjcf_bytes,
                 "refuse larger MJCF models (the file and its includes together)");
  flags.AddSwitch("floating-base", &source.floating_base, floating_help);
}

Status CheckRobotSource(const RobotSource& source) {
  if (source.urdf.empty() && source.mjcf.empty()) {
    return InvalidArgument(
        "--urdf or --mjcf: expected the path of a robot file (e.g. --urdf "
        "assets/robots/ur5.urdf), got none");
  }
  if (!source.urdf.empty() && !source.mjcf.empty()) {
    return InvalidArgument("--urdf and --mjcf: expected one robot file, got both");
  }
  if (!source.mjcf.empty() && source.floating_base) {
    return InvalidArgument(
        "--floating-base: an MJCF file says itself whether its base floats (a free joint); "
        "the flag is for --urdf");
  }
  return {};
}

}  // namespace swarm
