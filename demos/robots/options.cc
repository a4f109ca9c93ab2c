// swarm-robots' commands: which one argv names, and the overview --help prints.
#include "demos/robots/options.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "demos/command_line/flags.h"
#include "demos/command_line/runtime_flags.h"
#include "demos/robots/option_parsing.h"
#include "swarm/core/simd.h"
#include "swarm/core/text.h"

namespace swarm {

Result<CommandLine> ParseCommand(int argc, const char* const* argv) {
  CommandLine line;
  if (argc < 2) return line;
  const std::string_view word = argv[1];
  if (word.starts_with("-")) {
    if ((word == "--help" || word == "-h") && argc == 2) line.command = RobotsCommand::kHelp;
    return line;
  }
  line.first_argument = 2;
  if (word == "run") {
    line.command = RobotsCommand::kRun;
  } else if (word == "info") {
    line.command = RobotsCommand::kInfo;
  } else if (word == "fk") {
    line.command = RobotsCommand::kFk;
  } else if (word == "dynamics") {
    line.command = RobotsCommand::kDynamics;
  } else if (word == "help") {
    line.command = RobotsCommand::kHelp;
  } else {
    return InvalidArgument("unknown command '" + std::string(word) +
                           "' (expected run, info, fk or dynamics; see swarm-robots --help)");
  }
  return line;
}

std::string CommandsUsage() {
  return "usage: swarm-robots [run] --urdf F [flags]   step R robots of a URDF model in lockstep\n"
         "       swarm-robots info --urdf F [--json]   joints (q order) and links (pose order)\n"
         "       swarm-robots fk --urdf F --q q.npy --out poses.npy\n"
         "                                             world pose of every link for each q row\n"
         "       swarm-robots dynamics --urdf F --q q.npy --qd qd.npy [--mass M.npy] [--bias "
         "h.npy]\n"
         "                             [--tau tau.npy --qdd qdd.npy]\n"
         "                                             mass matrix, bias and forward dynamics\n"
         "Every command reads the robot from --urdf F (with --floating-base for a free root) or\n"
         "from --mjcf F (a MuJoCo XML model, e.g. of the MuJoCo Menagerie).\n"
         "'swarm-robots <command> --help' lists a command's flags.\n";
}

}  // namespace swarm
