#include "engine/robots/step_guard.h"

#include <algorithm>
#include <cmath>

#include "swarm/core/text.h"

namespace swarm {
namespace {

void CopyArrays(const ConstLanesView& from, const LanesView& to, size_t begin, size_t count) {
  for (size_t a = 0; a < from.arrays; ++a) {
    std::copy_n(from.Array(a) + begin, count, to.Array(a) + begin);
  }
}

// Whether any of values[0, count) is NaN or infinite: x - x is 0 for every finite x and NaN
// otherwise, so one sum answers for the whole run (a loop the compiler vectorizes, unlike a
// branch per value).
bool AnyNonFinite(const float* values, size_t count) {
  float sum = 0.0f;
  for (size_t i = 0; i < count; ++i) sum += values[i] - values[i];
  return sum != 0.0f;  // NaN compares unequal to everything
}

}  // namespace

void SaveStepStart(const SavedArrays* arrays, size_t array_count, size_t begin, size_t count) {
  for (size_t i = 0; i < array_count; ++i) {
    CopyArrays(arrays[i].live, arrays[i].saved, begin, count);
  }
}

void RestoreStepStart(const SavedArrays* arrays, size_t array_count) {
  for (size_t i = 0; i < array_count; ++i) {
    CopyArrays(arrays[i].saved, arrays[i].live, 0, arrays[i].live.count);
  }
}

void CheckStepOutputs(const StepOutput* outputs, size_t output_count, size_t begin, size_t count,
                      std::atomic<size_t>* first_bad_robot) {
  bool any = false;
  for (size_t o = 0; o < output_count && !any; ++o) {
    for (size_t a = 0; a < outputs[o].view.arrays && !any; ++a) {
      any = AnyNonFinite(outputs[o].view.Array(a) + begin, count);
    }
  }
  if (!any) return;
  // Only a tile that failed pays for finding its robot.
  size_t robot = begin + count;
  for (size_t o = 0; o < output_count; ++o) {
    for (size_t a = 0; a < outputs[o].view.arrays; ++a) {
      const float* values = outputs[o].view.Array(a);
      for (size_t r = begin; r < robot; ++r) {
        if (!std::isfinite(values[r])) {
          robot = r;
          break;
        }
      }
    }
  }
  size_t seen = first_bad_robot->load();
  while (robot < seen && !first_bad_robot->compare_exchange_weak(seen, robot)) {
  }
}

std::string DescribeNonFinite(const StepOutput* outputs, size_t output_count, size_t robot) {
  for (size_t o = 0; o < output_count; ++o) {
    for (size_t a = 0; a < outputs[o].view.arrays; ++a) {
      const float value = outputs[o].view.Array(a)[robot];
      if (!std::isfinite(value)) {
        return std::string(outputs[o].name) + " of robot " + std::to_string(robot) + ", column " +
               std::to_string(a) + " is " + NumberText(value);
      }
    }
  }
  return "robot " + std::to_string(robot) + " is finite";
}

}  // namespace swarm
