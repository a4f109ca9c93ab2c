#include "demos/particles/headless.h"

#include <chrono>
#include <cstdio>
#include <string>
#include <utility>

#include "demos/particles/frame_timings.h"
#include "demos/particles/orbit_camera.h"
#include "demos/particles/particle_demo.h"
#include "demos/particles/run_report.h"

namespace swarm {
namespace {

double MillisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

}  // namespace

int RunHeadless(const DemoOptions& options, MemoryAccountant& memory, ThreadPool& pool) {
  Result<ParticleDemo> created = ParticleDemo::Create(
      memory, pool,
      {options.particles, options.scene, options.seed, options.width, options.height});
  if (!created.ok()) return FailSetup(InStage("setting up the scene", created.status()), options);
  ParticleDemo& demo = created.value();
  // Saving the last frame comes after every frame has run: its memory is reserved now, so a
  // budget too small for it fails before the work rather than after.
  MemoryReservation save_memory;
  if (!options.out_path.empty()) {
    Result<MemoryReservation> reserved =
        memory.Reserve(MemoryCategory::kScratch, demo.renderer().SaveFramePngBytes());
    if (!reserved.ok()) {
      return FailSetup(InStage("reserving memory to save " + options.out_path, reserved.status()),
                       options);
    }
    save_memory = std::move(reserved).value();
  }
  PrintRunHeader("headless", options, demo, pool.num_threads());

  const uint64_t frames = options.frames > 0 ? options.frames : kHeadlessDefaultFrames;
  const OrbitCamera camera = SceneStartCamera(options.scene);
  const glm::mat4 view_projection =
      camera.ViewProjection(static_cast<float>(options.width), static_cast<float>(options.height));
  FrameTimingLog timings(frames);
  for (uint64_t frame = 0; frame < frames; ++frame) {
    const auto frame_start = std::chrono::steady_clock::now();
    FrameTimes times;
    if (Status s = demo.Step(); !s.ok()) {
      return FailSetup(InStage("frame " + std::to_string(frame) + ", physics step", s), options);
    }
    times[FrameStage::kPhysics] = MillisecondsSince(frame_start);
    if (Status s = demo.Render(view_projection); !s.ok()) {
      return FailSetup(InStage("frame " + std::to_string(frame) + ", render", s), options);
    }
    const RenderTimings& render = demo.renderer().timings();
    times[FrameStage::kTransform] = render.transform_ms;
    times[FrameStage::kSplat] = render.splat_ms;
    times[FrameStage::kGlow] = render.glow_ms;
    times[FrameStage::kTonemap] = render.tonemap_ms;
    times[FrameStage::kFrame] = MillisecondsSince(frame_start);
    timings.Record(times);
  }
  PrintRunSummary(timings, demo, memory, /*with_upload=*/false);
  if (!options.out_path.empty()) {
    save_memory.Release();
    if (Status s = demo.renderer().SaveFramePng(options.out_path); !s.ok()) {
      return FailSetup(InStage("saving the last frame", s), options);
    }
    std::printf("wrote %s\n", options.out_path.c_str());
  }
  return 0;
}

}  // namespace swarm
