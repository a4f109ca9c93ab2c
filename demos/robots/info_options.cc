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
  FlagSet flags("swarm-robots info",
                "Prints a URDF model's independent joints in q order (a floating base first as\n"
                "base_x base_y base_z base_qw base_qx base_qy base_qz) and its links in pose\n"
                "order: a table, or one JSON object {\"name\", \"joints\", \"links\", \"dof\",\n"
                "\"floating_base\"} with --json.");
  flags.AddString("urdf", &options.urdf, "URDF file of the robot (required)");
  flags.AddBytes("max-urdf-bytes", &options.max_urdf_bytes, "refuse larger URDF files");
  flags.AddSwitch("floating-base", &options.floating_base, "add the 7 floating-base values");
  flags.AddSwitch("json", &options.json, "one line of JSON instead of the table");
  if (Status s = ParseFrom(flags, argc, argv, first); !s.ok()) return s;
  options.help = flags.help_requested();
  options.usage = flags.Usage();
  if (!options.help && options.urdf.empty()) {
    return InvalidArgument("--urdf: expected the path of a URDF file, got none");
  }
  return options;
}

}  // namespace swarm
