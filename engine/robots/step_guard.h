// The guard around a robot batch's step (RobotBatch::ControlStep and TorqueStep): a step either
// advances every robot to finite values or changes nothing and says what overflowed. Finite
// inputs can still overflow (a state near float32's limit, torques that accelerate a light link
// past it), and a non-finite state would otherwise be found only by the next step, with no hint
// of its cause, and spread to every quantity derived from it.
//
// Before the step's stages each tile saves the state the step changes (SaveStepStart: q and the
// velocities); after them it checks the same arrays (CheckStepOutputs), which
// any overflow reaches within the step (a non-finite torque or acceleration is integrated into
// them). A failed step restores every robot from the saved arrays (RestoreStepStart), recomputes
// the link poses from the restored q, and reports the first non-finite value of the lowest robot
// that has one (its torques and accelerations first: they name the cause), the same at any
// thread or tile count. Save and check read and write only these few arrays of a tile that the
// step has in cache anyway. Internal to engine/robots.
#pragma once

#include <atomic>
#include <cstddef>
#include <string>

#include "swarm/kernels/base/views.h"

namespace swarm {

// An array a step must leave finite (or, when naming the failure, one that shows its cause).
struct StepOutput {
  const char* name;  // as the C API and Python name the array: "torque", "qdd", "qd", ...
  ConstLanesView view;
};

// Arrays a step writes, and where their values at the step's start are kept.
struct SavedArrays {
  LanesView live;   // q, the velocities, the torques, ...
  LanesView saved;  // as many arrays, in the batch's storage
};

// saved = live for the tile's robots [begin, begin + count), for every pair.
void SaveStepStart(const SavedArrays* arrays, size_t array_count, size_t begin, size_t count);
// live = saved for every robot and pair.
void RestoreStepStart(const SavedArrays* arrays, size_t array_count);

// Lowers *first_bad_robot to the lowest robot of the tile with a non-finite value in any of the
// outputs (threads checking other tiles lower it too; the lowest wins whatever their order).
void CheckStepOutputs(const StepOutput* outputs, size_t output_count, size_t begin, size_t count,
                      std::atomic<size_t>* first_bad_robot);

// "qd of robot 3, column 2 is inf": the first non-finite value of `robot` in output order.
std::string DescribeNonFinite(const StepOutput* outputs, size_t output_count, size_t robot);

}  // namespace swarm
