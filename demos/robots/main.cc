// swarm-robots: URDF robots stepped in lockstep by swarm's batched kernels (16 robots per AVX-512
// register), headless, for reinforcement-learning and planning workloads.
//
//   swarm-robots [run] --urdf assets/robots/ur5.urdf --robots 100000 --steps 1000 --dt 0.002
//       --task reach|track|random --seed S --threads N --simd X --out run.npy
//   mpirun -np N swarm-robots run ...   (built with MPI: the robots split over N ranks)
//   swarm-robots info --urdf X [--json] [--floating-base]
//   swarm-robots fk --urdf X --q q.npy --out poses.npy [--floating-base] [--threads N]
//   swarm-robots dynamics --urdf X --q q.npy --qd qd.npy [--mass M.npy] [--bias h.npy]
//       [--tau tau.npy --qdd qdd.npy] [--gravity gx,gy,gz] [--floating-base]
//
// Each command's --help lists its flags (demos/robots/options.h). Bad flags, files or values print
// one message naming them and exit with status 2.
#include <cstdio>

#include "demos/command_line/program_start.h"
#include "demos/robots/cli_common.h"
#include "demos/robots/dynamics_command.h"
#include "demos/robots/fk_command.h"
#include "demos/robots/info_command.h"
#include "demos/robots/options.h"
#include "demos/robots/rank_group.h"
#include "demos/robots/run_command.h"

namespace {

template <typename Options>
bool PrintedHelp(const Options& options) {
  if (options.help) std::fputs(options.usage.c_str(), stdout);
  return options.help;
}

int RunCommand(int argc, char** argv) {
  // Under mpirun (a build with MPI) the ranks of the run; otherwise this process alone.
  swarm::RankGroup ranks(&argc, &argv);
  // Every early exit goes through an agreement: MPMD launches (`mpirun -np 1 a : -np 2 b`) may
  // give the ranks different command lines, and a rank that left alone would leave the others
  // waiting for it.
  swarm::Result<swarm::CommandLine> line = swarm::ParseCommand(argc, argv);
  swarm::Status command = line.status();
  if (command.ok() && line->command != swarm::RobotsCommand::kRun && ranks.size() > 1) {
    command = swarm::InvalidArgument(
        "only 'run' shards its robots over MPI ranks; start the other commands as one process "
        "(mpirun -np 1, or without mpirun)");
  }
  if (swarm::Status s = ranks.Agree(command); !s.ok()) return swarm::FailAgreed(ranks, s);
  const int first = line->first_argument;
  switch (line->command) {
    case swarm::RobotsCommand::kHelp:
      std::fputs(swarm::CommandsUsage().c_str(), stdout);
      return 0;
    case swarm::RobotsCommand::kRun: {
      swarm::Result<swarm::RunOptions> options = swarm::ParseRunOptions(argc, argv, first);
      if (swarm::Status s = ranks.Agree(options.status()); !s.ok())
        return swarm::FailAgreed(ranks, s);
      if (ranks.AnyOf(options->help)) {
        if (ranks.is_root()) std::fputs(options->usage.c_str(), stdout);
        return 0;
      }
      return swarm::RunRobots(options.value(), ranks);
    }
    case swarm::RobotsCommand::kInfo: {
      swarm::Result<swarm::InfoOptions> options = swarm::ParseInfoOptions(argc, argv, first);
      if (!options.ok()) return swarm::Fail(swarm::kProgram, options.status());
      if (PrintedHelp(options.value())) return 0;
      return swarm::PrintRobotInfo(options.value());
    }
    case swarm::RobotsCommand::kFk: {
      swarm::Result<swarm::FkOptions> options = swarm::ParseFkOptions(argc, argv, first);
      if (!options.ok()) return swarm::Fail(swarm::kProgram, options.status());
      if (PrintedHelp(options.value())) return 0;
      return swarm::RunForwardKinematics(options.value());
    }
    case swarm::RobotsCommand::kDynamics: {
      swarm::Result<swarm::DynamicsCommandOptions> options =
          swarm::ParseDynamicsOptions(argc, argv, first);
      if (!options.ok()) return swarm::Fail(swarm::kProgram, options.status());
      if (PrintedHelp(options.value())) return 0;
      return swarm::RunDynamics(options.value());
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return swarm::RunProgram(swarm::kProgram, RunCommand, argc, argv);
}
