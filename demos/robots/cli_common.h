// What every swarm-robots command shares: how errors leave the program (one line on stderr,
// exit status 2) and how the robot model is loaded from --urdf.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "demos/command_line/program_exit.h"
#include "demos/robots/rank_group.h"
#include "swarm/core/memory.h"
#include "swarm/core/status.h"
#include "swarm/kernels/base/views.h"
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

// Loads --urdf (which must be given) with or without a floating base.
Result<RobotModel> LoadRobotModel(const std::string& urdf_path, bool floating_base,
                                  size_t max_urdf_bytes);

}  // namespace swarm
