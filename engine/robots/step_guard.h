// The guard around a robot batch's step (RobotBatch::ControlStep and TorqueStep): a step either
// advances every robot to finite values or changes nothing and says what overflowed. Finite
// inputs can still overflow (a state near float32's limit, torques that accelerate a light link
// past it), and a non-finite state would otherwise be found only by the next step, with no hint
// of its cause, and spread to every quantity derived from it.
//
// The state a step changes is [q | base velocity | qd], contiguous in the batch's storage. Before
// the step's stages each tile saves its robots' state (SaveStepStart); after them it checks it
// (CheckStepState), which any overflow reaches within the step (a non-finite torque or
// acceleration is integrated into it). A failed step restores every robot (RestoreStepStart),
// recomputes the link poses from the restored q, and names the first non-finite value of the
// lowest robot that has one (DescribeNonFinite, its torques and accelerations first: they name the
// cause), the same at any thread or tile count. Save and check touch only these few arrays of a
// tile the step has in cache anyway (the saved copy goes past the caches for large batches).
// Internal to engine/robots.
#pragma once

#include <atomic>
#include <cstddef>
#include <string>
#include <vector>

#include "swarm/kernels/base/views.h"

namespace swarm {

// An array named in a failed step's message.
struct StepOutput {
  const char* name;  // as the C API and Python name the array: "torque", "qdd", "qd", ...
  ConstLanesView view;
  // What each column is ("joint 'panda_joint3'", "base vx", "contact 'FL_FOOT' x"), or nullptr.
  const std::vector<std::string>* columns = nullptr;
};

// saved = state for the tile's robots [begin, begin + count). Once the saved state is far larger
// than the caches (kStreamOutputBytes for the batch) it is streamed past them (CopyLanes): nothing
// reads it unless the step fails.
void SaveStepStart(const ConstLanesView& state, const LanesView& saved, size_t begin, size_t count);
// state = saved for every robot.
void RestoreStepStart(const ConstLanesView& saved, const LanesView& state);

// Lowers *first_bad_robot to the lowest robot of the tile with a non-finite value in `state`
// (threads checking other tiles lower it too; the lowest wins whatever their order).
void CheckStepState(const ConstLanesView& state, size_t begin, size_t count,
                    std::atomic<size_t>* first_bad_robot);

// "qd of robot 3, column 2 (joint 'elbow') is inf": the first non-finite value of `robot` in
// output order.
std::string DescribeNonFinite(const StepOutput* outputs, size_t output_count, size_t robot);

}  // namespace swarm
