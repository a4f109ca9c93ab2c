// The window's fixed-timestep clock (G. Fiedler, "Fix Your Timestep!", 2004): wall-clock time
// accumulates and is spent in whole simulation steps, so the physics always advances by the same
// dt whatever the frame rate. A slow frame may take at most max_steps_per_frame steps; the time
// beyond that is dropped (the simulation slows down instead of spiralling: each extra step would
// make the next frame slower still).
#pragma once

#include <cstdint>

namespace swarm {

class FixedStepClock {
 public:
  FixedStepClock(double step_seconds, uint32_t max_steps_per_frame);

  // Adds the wall-clock time since the previous frame and returns how many steps to take now.
  // The first frame always takes one step, so frame k of a run shows at least k steps' worth of
  // simulation like the headless mode's frames do. A negative or NaN elapsed time counts as 0.
  uint32_t Advance(double elapsed_seconds);

  // Forgets the accumulated time (after a pause, so resuming does not fast-forward).
  void Reset();

  double step_seconds() const { return step_seconds_; }
  // Time accumulated but not yet stepped, in [0, step_seconds).
  double pending_seconds() const { return pending_seconds_; }

 private:
  double step_seconds_;
  uint32_t max_steps_per_frame_;
  double pending_seconds_ = 0;
  bool first_frame_ = true;
};

}  // namespace swarm
