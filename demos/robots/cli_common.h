// What every swarm-robots command shares: how errors leave the program (one line on stderr,
// exit status 2) and how the robot model is loaded from --urdf.
#pragma once

#include <cstddef>
#include <string>

#include "demos/robots/rank_group.h"
#include "swarm/core/memory.h"
#include "swarm/core/status.h"
#include "swarm/robots/robot_model.h"

namespace swarm {

inline constexpr int kExitBadInput = 2;

// Prints "swarm-robots: <message>" to stderr and returns kExitBadInput.
int Fail(const Status& status);
// For an error every rank agreed on (RankGroup::Agree): Fail on rank 0, so that it is printed
// once; kExitBadInput on every rank.
int FailAgreed(const RankGroup& ranks, const Status& status);
// An allocation's error, prefixed "--memory-limit=X is too small for <what>: " when the budget
// refused it.
Status AllocationError(const Status& status, size_t memory_limit, const std::string& what);
// Fail(AllocationError(...)).
int FailAllocation(const Status& status, size_t memory_limit, const std::string& what);

// Loads --urdf (which must be given) with or without a floating base.
Result<RobotModel> LoadRobotModel(const std::string& urdf_path, bool floating_base,
                                  size_t max_urdf_bytes);

}  // namespace swarm
