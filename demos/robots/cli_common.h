// What every swarm-robots command shares: how errors leave the program (one line on stderr,
// exit status 2) and how the robot is loaded from --urdf or --mjcf.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "demos/command_line/file_roles.h"
#include "demos/command_line/program_exit.h"
#include "demos/robots/options.h"
#include "demos/robots/rank_group.h"
#include "swarm/core/memory.h"
#include "swarm/core/status.h"
#include "swarm/kernels/base/views.h"
#include "swarm/robots/mjcf_robot.h"
#include "swarm/robots/robot_model.h"

namespace swarm {

// The program's name in its messages (Fail, demos/command_line/program_exit.h).
inline constexpr std::string_view kProgram = "swarm-robots";
// For an error every rank agreed on (RankGroup::Agree): Fail on rank 0, so that it is printed
// once; kExitBadInput on every rank.
int FailAgreed(const RankGroup& ranks, const Status& status);
// Fail(kProgram, BudgetError(...)): an allocation's error, naming --memory-limit when the budget
// refused it.
int FailAllocation(const Status& status, size_t memory_limit, const std::string& what);

// OK, or an error naming `flag`, the robot and the column of the first value of `lanes` that is
// not finite: "--qdd: robot 3, column 1 is nan: <what> overflowed from finite inputs; nothing
// was written". Outputs are checked before any is written, so a failed command leaves every
// output file as it was.
Status CheckFiniteOutput(std::string_view flag, const ConstLanesView& lanes, std::string_view what);

// The robot of --urdf or --mjcf, with what an MJCF file adds (armature, actuators, keyframes,
// gravity) and every file it was read from (an MJCF's includes too).
struct LoadedRobot {
  RobotModel model;
  std::optional<MjcfRobot> mjcf;
  std::vector<std::string> files;
};
Result<LoadedRobot> LoadRobot(const RobotSource& source);

// CheckDistinctFiles for `uses` and every file of the robot as an input of source.flag(): an
// output on an MJCF model's include is refused like one on the main file.
Status CheckDistinctFromModel(const RobotSource& source, const LoadedRobot& robot,
                              std::span<const FileUse> uses);

}  // namespace swarm
