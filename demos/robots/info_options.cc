// The info command's options (swarm-robots info).
#include <algorithm>
#include <cmath>
#include <string>

#include "demos/command_line/flags.h"
#include "demos/command_line/runtime_flags.h"
#include "demos/robots/option_parsing.h"
#include "demos/robots/options.h"
#include "swarm/core/simd.h"
#include "swarm/core/text.h"

namespace swarm {

Result<InfoOptions> ParseInfoOptions(int argc, const char* const* argv, int first) {
  InfoOptions options;
  FlagSet flags(
      "swarm-robots info",
      "Prints a URDF or MJCF model's independent joints in q order (a floating base first as\n"
      "base_x base_y base_z base_qw base_qx base_qy base_qz) and its links in pose\n"
      "order: a table, or one JSON object {\"name\", \"joints\", \"links\", \"dof\",\n"
      "\"floating_base\"} with --json.");
  AddRobotSourceFlags(flags, options.source, "--urdf: add the 7 floating-base values");
  flags.AddSwitch("json", &options.json, "one line of JSON instead of the table");
  if (Status s = ParseFrom(flags, argc, argv, first); !s.ok()) return s;
  options.help = flags.help_requested();
  options.usage = flags.Usage();
  if (!options.help) {
    if (Status s = CheckRobotSource(options.source); !s.ok()) return s;
  }
  return options;
}

}  // namespace swarm
