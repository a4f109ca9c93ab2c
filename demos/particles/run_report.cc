#include "demos/particles/run_report.h"

#include <cstdio>

#include "swarm/core/simd.h"

namespace swarm {

int FailSetup(const Status& status, const DemoOptions& options) {
  if (status.code() == ErrorCode::kOverBudget) {
    std::fprintf(stderr,
                 "swarm-particles: --memory-limit=%s is too small for %llu particles and a "
                 "%llux%llu frame\n",
                 FormatBytes(options.memory_limit).c_str(),
                 static_cast<unsigned long long>(options.particles > 0
                                                     ? options.particles
                                                     : SceneDefaultParticles(options.scene)),
                 static_cast<unsigned long long>(options.width),
                 static_cast<unsigned long long>(options.height));
  }
  return Fail(kProgram, status);
}

Status InStage(const std::string& stage, const Status& status) {
  return {status.code(), stage + ": " + status.message()};
}

void PrintRunHeader(const char* mode, const DemoOptions& options, const ParticleDemo& demo,
                    size_t threads) {
  const SimdTarget target = ActiveSimdTarget();
  std::printf(
      "swarm-particles: %s, scene %s, %zu particles, %llux%llu, %zu thread(s), "
      "SIMD %s (%s)\n",
      mode, SceneName(demo.scene()), demo.particles(),
      static_cast<unsigned long long>(options.width),
      static_cast<unsigned long long>(options.height), threads, target.name.c_str(),
      target.hwy_name.c_str());
  std::printf("SIMD targets this CPU supports: %s\n", TargetNames(SupportedTargets()).c_str());
}

void PrintRunSummary(const FrameTimingLog& timings, const ParticleDemo& demo,
                     const MemoryAccountant& memory, bool with_upload) {
  std::printf("%-10s %10s %10s   (last %zu frames)\n", "stage", "mean ms", "median ms",
              timings.frames_kept());
  for (size_t index = 0; index < kFrameStageCount; ++index) {
    const FrameStage stage = static_cast<FrameStage>(index);
    if (stage == FrameStage::kUpload && !with_upload) continue;
    const StageSummary summary = timings.Summarize(stage);
    std::printf("%-10s %10.3f %10.3f\n", FrameStageName(stage), summary.mean_ms, summary.median_ms);
  }
  const StageSummary frame = timings.Summarize(FrameStage::kFrame);
  std::printf("frame %.3f ms mean, %.3f ms median: %.1f FPS equivalent at %zu particles\n",
              frame.mean_ms, frame.median_ms, frame.median_ms > 0 ? 1000.0 / frame.median_ms : 0,
              demo.particles());
  std::printf("%zu frames, %llu steps\n", timings.frames_recorded(),
              static_cast<unsigned long long>(demo.steps()));
  if (demo.system().interacting()) {
    const InteractionStats& stats = demo.system().interactions().stats();
    std::printf(
        "last substep: neighbours %.3f ms, interactions %.3f ms, %.1f neighbours per "
        "particle; %llu grid builds in all\n",
        stats.neighbor_seconds * 1e3, stats.interaction_seconds * 1e3, stats.average_neighbors,
        static_cast<unsigned long long>(stats.grid_builds));
  }
  std::printf("state hash %016llx after %llu steps\n",
              static_cast<unsigned long long>(demo.system().StateHash()),
              static_cast<unsigned long long>(demo.steps()));
  std::fputs(memory.Report().c_str(), stdout);
}

}  // namespace swarm
