// swarm-particles: a million particles simulated and rendered by swarm's kernels, in an SDL2
// window with a HUD, or headless (--headless, or when there is no display) writing a PNG of the
// last frame and a timing summary.
//
//   swarm-particles [--scene fountain|explosion|ring|galaxy|snow] [--particles 1e6]
//       [--threads N] [--simd auto|avx512|...|neon|sve|scalar] [--memory-limit 256M]
//       [--seed S] [--width 1280 --height 720] [--font PATH] [--frames N] [--out frame.png]
//       [--no-hud] [--headless]
//
// Bad flags print one message naming the flag and exit with status 2.
#include <cstdio>

#include "demos/command_line/file_roles.h"
#include "demos/command_line/program_start.h"
#include "demos/particles/headless.h"
#include "demos/particles/options.h"
#include "demos/particles/run_report.h"
#include "demos/particles/window.h"
#include "swarm/core/memory.h"
#include "swarm/core/simd.h"
#include "swarm/core/thread_pool.h"

namespace {

int RunDemo(int argc, char** argv) {
  swarm::Result<swarm::DemoOptions> parsed = swarm::ParseDemoOptions(argc, argv);
  if (!parsed.ok()) return swarm::Fail(swarm::kProgram, parsed.status());
  const swarm::DemoOptions& options = parsed.value();
  if (options.help) {
    std::fputs(options.usage.c_str(), stdout);
    return 0;
  }
  const swarm::FileUse files[] = {{"--font", options.font_path, swarm::FileRole::kInput},
                                  {"--out", options.out_path, swarm::FileRole::kOutput}};
  if (swarm::Status s = swarm::CheckDistinctFiles(files); !s.ok())
    return swarm::Fail(swarm::kProgram, s);
  if (swarm::Status s = swarm::ForceSimdTarget(options.simd); !s.ok())
    return swarm::Fail(swarm::kProgram, s);

  swarm::MemoryAccountant memory(options.memory_limit);
  swarm::ThreadPool pool(options.threads);
  if (!options.headless) {
    swarm::Result<int> windowed = swarm::RunWindow(options, memory, pool);
    if (windowed.ok()) return windowed.value();
    std::printf("swarm-particles: no window (%s); running headless\n",
                windowed.status().message().c_str());
  }
  return swarm::RunHeadless(options, memory, pool);
}

}  // namespace

int main(int argc, char** argv) { return swarm::RunProgram(swarm::kProgram, RunDemo, argc, argv); }
