// The headless mode: the window's frames without a window. Every frame takes one simulation step
// and renders it through the same camera the window starts with, so the last frame equals the
// window's after the same number of steps. Prints the run summary and writes --out.
#pragma once

#include "demos/particles/options.h"
#include "swarm/core/memory.h"
#include "swarm/core/thread_pool.h"

namespace swarm {

// Returns the process exit status: 0, or kExitBadInput after printing why.
int RunHeadless(const DemoOptions& options, MemoryAccountant& memory, ThreadPool& pool);

}  // namespace swarm
