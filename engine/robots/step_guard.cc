#include "engine/robots/step_guard.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "swarm/core/text.h"
#include "swarm/kernels/base/lanes_copy.h"

namespace swarm {
namespace {

void CopyArrays(const ConstLanesView& from, const LanesView& to, size_t begin, size_t count) {
  for (size_t a = 0; a < from.arrays; ++a) {
    std::copy_n(from.Array(a) + begin, count, to.Array(a) + begin);
  }
}

// Whether any of values[0, count) is NaN or infinite, i.e. has every exponent bit set. An integer
// OR over the run: the compiler vectorizes it (a float sum would be a serial chain of dependent
// adds, which it may not reorder), so the check costs about as much as reading the values.
bool AnyNonFinite(const float* values, size_t count) {
  constexpr uint32_t kExponent = 0x7f800000u;
  uint32_t any = 0;
  for (size_t i = 0; i < count; ++i) {
    uint32_t bits;
    std::memcpy(&bits, values + i, sizeof(bits));
    any |= static_cast<uint32_t>((bits & kExponent) == kExponent);
  }
  return any != 0;
}

}  // namespace

void SaveStepStart(const ConstLanesView& state, const LanesView& saved, size_t begin,
                   size_t count) {
  const bool streamed = state.arrays * saved.stride * sizeof(float) >= kStreamOutputBytes;
  CopyLanes(state.Slice(begin, count), saved.Slice(begin, count), streamed);
}

void RestoreStepStart(const ConstLanesView& saved, const LanesView& state) {
  CopyArrays(saved, state, 0, state.count);
}

void CheckStepState(const ConstLanesView& state, size_t begin, size_t count,
                    std::atomic<size_t>* first_bad_robot) {
  bool any = false;
  for (size_t a = 0; a < state.arrays && !any; ++a) {
    any = AnyNonFinite(state.Array(a) + begin, count);
  }
  if (!any) return;
  // Only a tile that failed pays for finding its robot.
  size_t robot = begin + count;
  for (size_t a = 0; a < state.arrays; ++a) {
    const float* values = state.Array(a);
    for (size_t r = begin; r < robot; ++r) {
      if (!std::isfinite(values[r])) {
        robot = r;
        break;
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
        const std::vector<std::string>* columns = outputs[o].columns;
        const std::string what =
            columns != nullptr && a < columns->size() ? " (" + (*columns)[a] + ")" : "";
        return std::string(outputs[o].name) + " of robot " + std::to_string(robot) + ", column " +
               std::to_string(a) + what + " is " + NumberText(value);
      }
    }
  }
  return "robot " + std::to_string(robot) + " is finite";
}

}  // namespace swarm
