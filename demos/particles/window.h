// The interactive mode: an SDL2 window showing the particle demo, with the orbit camera, the
// pointer's force, the HUD and the keys of window_input.h. The simulation advances on a fixed
// 60 Hz step (fixed_step_clock.h), whatever the frame rate.
#pragma once

#include "demos/particles/options.h"
#include "swarm/core/memory.h"
#include "swarm/core/status.h"
#include "swarm/core/thread_pool.h"

namespace swarm {

// Runs until the window closes, Esc/Q, or --frames frames; prints the run summary and writes
// --out (a read-back of the last frame, HUD included if shown). Returns the exit status, or
// a kUnavailable error, having printed nothing, if SDL cannot open a window (no display): the
// caller then runs headless.
Result<int> RunWindow(const DemoOptions& options, MemoryAccountant& memory, ThreadPool& pool);

}  // namespace swarm
