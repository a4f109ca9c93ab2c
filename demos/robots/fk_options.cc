// The fk command's options (swarm-robots fk).
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

Result<FkOptions> ParseFkOptions(int argc, const char* const* argv, int first) {
  FkOptions options;
  options.threads = DefaultThreads();
  std::string simd = "auto";
  FlagSet flags(
      "swarm-robots fk",
      "Forward kinematics of every link for each row of q: reads q.npy as float32 or\n"
      "float64 [R, q_count] (q order of 'swarm-robots info') and writes every link's\n"
      "world pose as float32 [R, links, 7] (px py pz qw qx qy qz, links in info's order).");
  AddRobotSourceFlags(flags, options.source,
                      "--urdf: the root link moves freely: q starts with x y z qw qx qy qz");
  flags.AddString("q", &options.q_path, "input .npy of joint values (required)");
  flags.AddString("out", &options.out, "output .npy of link poses (required)");
  AddThreadsFlag(flags, &options.threads);
  AddSimdFlag(flags, &simd);
  AddMemoryLimitFlag(flags, &options.memory_limit);
  if (Status s = ParseFrom(flags, argc, argv, first); !s.ok()) return s;
  options.help = flags.help_requested();
  options.usage = flags.Usage();
  if (options.help) return options;
  Result<SimdTarget> target = ParseSimdTarget(simd);
  if (!target.ok()) return target.status();
  options.simd = target.value();
  if (Status s = CheckRobotSource(options.source); !s.ok()) return s;
  if (options.q_path.empty()) {
    return InvalidArgument("--q: expected the path of a .npy file of joint values, got none");
  }
  if (options.out.empty()) {
    return InvalidArgument("--out: expected the path of the .npy file to write, got none");
  }
  return options;
}

}  // namespace swarm
