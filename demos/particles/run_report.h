// What swarm-particles prints: errors (one line, exit status 2) and the summary at the end of a
// run (stage timings, SIMD target, threads, state hash, memory report), the same for the headless
// mode and the window.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "demos/command_line/program_exit.h"
#include "demos/particles/frame_timings.h"
#include "demos/particles/options.h"
#include "demos/particles/particle_demo.h"
#include "swarm/core/memory.h"
#include "swarm/core/status.h"

namespace swarm {

// The program's name in its messages (Fail, demos/command_line/program_exit.h).
inline constexpr std::string_view kProgram = "swarm-particles";
// As Fail, first naming --memory-limit when the budget refused the request.
int FailSetup(const Status& status, const DemoOptions& options);
// `status` with the stage of the run that met it in front ("frame 12, physics step: ..."), its
// code kept, so every error (a budget one above all) says which stage asked.
Status InStage(const std::string& stage, const Status& status);

// One line: mode, scene, particles, frame size, threads, SIMD target that runs and the targets
// this CPU supports.
void PrintRunHeader(const char* mode, const DemoOptions& options, const ParticleDemo& demo,
                    size_t threads);

// Per-stage mean and median, frame time and its FPS equivalent, frames and steps, state hash and
// the memory report.
void PrintRunSummary(const FrameTimingLog& timings, const ParticleDemo& demo,
                     const MemoryAccountant& memory, bool with_upload);

}  // namespace swarm
