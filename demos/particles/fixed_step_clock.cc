#include "demos/particles/fixed_step_clock.h"

#include <algorithm>
#include <cmath>

namespace swarm {

FixedStepClock::FixedStepClock(double step_seconds, uint32_t max_steps_per_frame)
    : step_seconds_(step_seconds),
      max_steps_per_frame_(std::max<uint32_t>(max_steps_per_frame, 1)) {}

uint32_t FixedStepClock::Advance(double elapsed_seconds) {
  if (first_frame_) {
    first_frame_ = false;
    pending_seconds_ = 0;
    return 1;
  }
  if (elapsed_seconds > 0) pending_seconds_ += elapsed_seconds;
  uint32_t steps = 0;
  while (pending_seconds_ >= step_seconds_ && steps < max_steps_per_frame_) {
    pending_seconds_ -= step_seconds_;
    ++steps;
  }
  // Whatever the step limit left over is dropped, keeping only the phase within a step.
  if (pending_seconds_ >= step_seconds_) {
    pending_seconds_ = std::fmod(pending_seconds_, step_seconds_);
  }
  return steps;
}

void FixedStepClock::Reset() { pending_seconds_ = 0; }

}  // namespace swarm
