#include "demos/particles/window.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "demos/particles/fixed_step_clock.h"
#include "demos/particles/frame_timings.h"
#include "demos/particles/hud.h"
#include "demos/particles/hud_text.h"
#include "demos/particles/orbit_camera.h"
#include "demos/particles/particle_demo.h"
#include "demos/particles/run_report.h"
#include "demos/particles/sdl_display.h"
#include "demos/particles/window_input.h"
#include "swarm/core/simd.h"
#include "swarm/render/particle_renderer.h"

namespace swarm {
namespace {

using Clock = std::chrono::steady_clock;

// A frame slower than four steps (66 ms) slows the simulation down rather than spiralling.
constexpr uint32_t kMaxStepsPerFrame = 4;
constexpr double kHudRefreshSeconds = 0.25;
constexpr double kMessageSeconds = 5.0;
// The window frame timings kept for the summary when --frames does not bound the run.
constexpr uint64_t kKeptWindowFrames = 600;

double Seconds(Clock::duration duration) { return std::chrono::duration<double>(duration).count(); }

double Milliseconds(Clock::duration duration) {
  return std::chrono::duration<double, std::milli>(duration).count();
}

std::string TargetLabel(const SimdTarget& target) {
  return target.name + " (" + target.hwy_name + ")";
}

class InteractiveDemo {
 public:
  InteractiveDemo(const DemoOptions& options, MemoryAccountant& memory, ThreadPool& pool,
                  std::unique_ptr<SdlDisplay> display, ParticleDemo demo)
      : options_(options),
        memory_(memory),
        pool_(pool),
        display_(std::move(display)),
        demo_(std::move(demo)),
        camera_(SceneStartCamera(demo_.scene())),
        clock_(kStepSeconds, kMaxStepsPerFrame),
        timings_(options.frames > 0 ? options.frames : kKeptWindowFrames),
        hud_visible_(options.hud) {
    hud_ = Hud::Create(display_->renderer(), options.font_path);
  }

  int Run();

 private:
  // An error means the demo cannot go on.
  Status Apply(const FrameInput& input);
  void ApplyWindowSize();
  void ChangeParticleCount(int doublings);
  void NextSimdTarget();
  void SetPointer(const FrameInput& input);
  void RefreshHud(Clock::time_point now, bool force);
  void ShowMessage(std::string message);
  int Finish();

  const DemoOptions& options_;
  MemoryAccountant& memory_;
  ThreadPool& pool_;
  std::unique_ptr<SdlDisplay> display_;
  ParticleDemo demo_;
  OrbitCamera camera_;
  FixedStepClock clock_;
  FrameTimingLog timings_;
  std::unique_ptr<Hud> hud_;
  bool hud_visible_;
  bool paused_ = false;
  Clock::time_point last_hud_refresh_{};
  std::string message_;
  Clock::time_point message_until_{};
  std::vector<uint32_t> read_back_;
  size_t read_back_width_ = 0;
  size_t read_back_height_ = 0;
};

int InteractiveDemo::Run() {
  PrintRunHeader("window", options_, demo_, pool_.num_threads());
  Clock::time_point previous_start = Clock::now();
  for (uint64_t frame = 0; options_.frames == 0 || frame < options_.frames; ++frame) {
    const Clock::time_point start = Clock::now();
    const double elapsed = Seconds(start - previous_start);
    previous_start = start;
    const FrameInput input = PollFrameInput();
    if (Status s = Apply(input); !s.ok()) return Fail(kProgram, s);
    // Quitting draws one more frame, so that --out gets the window as it was left.
    const bool last_frame = input.quit || (options_.frames > 0 && frame + 1 == options_.frames);

    FrameTimes times;
    const uint32_t steps = paused_ ? 0 : clock_.Advance(elapsed);
    if (paused_) clock_.Reset();
    const Clock::time_point physics_start = Clock::now();
    for (uint32_t step = 0; step < steps; ++step) {
      if (Status s = demo_.Step(); !s.ok()) return Fail(kProgram, s);
    }
    times[FrameStage::kPhysics] = Milliseconds(Clock::now() - physics_start);

    const RenderSettings& settings = demo_.renderer().settings();
    const glm::mat4 view_projection = camera_.ViewProjection(static_cast<float>(settings.width),
                                                             static_cast<float>(settings.height));
    if (Status s = demo_.Render(view_projection); !s.ok()) return Fail(kProgram, s);
    const RenderTimings& render = demo_.renderer().timings();
    times[FrameStage::kTransform] = render.transform_ms;
    times[FrameStage::kSplat] = render.splat_ms;
    times[FrameStage::kGlow] = render.glow_ms;
    times[FrameStage::kTonemap] = render.tonemap_ms;

    const Clock::time_point upload_start = Clock::now();
    if (Status s = display_->Upload(demo_.renderer().frame(), demo_.renderer().frame_row_stride());
        !s.ok()) {
      return Fail(kProgram, s);
    }
    times[FrameStage::kUpload] = Milliseconds(Clock::now() - upload_start);
    display_->DrawFrame();
    if (hud_visible_) {
      RefreshHud(Clock::now(), /*force=*/frame == 0);
      if (hud_ != nullptr) hud_->Draw();
    }
    if (last_frame && !options_.out_path.empty()) {
      // Read before presenting: after SDL_RenderPresent the back buffer is undefined.
      if (Status s = display_->ReadPixels(&read_back_, &read_back_width_, &read_back_height_);
          !s.ok()) {
        return Fail(kProgram, s);
      }
    }
    display_->Present();
    times[FrameStage::kFrame] = Milliseconds(Clock::now() - start);
    timings_.Record(times);
    if (last_frame) break;
  }
  return Finish();
}

Status InteractiveDemo::Apply(const FrameInput& input) {
  if (input.window_resized) ApplyWindowSize();
  if (input.toggle_pause) paused_ = !paused_;
  if (input.toggle_hud) {
    hud_visible_ = !hud_visible_;
    if (hud_visible_) RefreshHud(Clock::now(), /*force=*/true);
  }
  if (input.cycle_coloring) demo_.CycleColoring();
  if (input.next_simd_target) NextSimdTarget();
  if (input.restart || input.scene_index.has_value()) {
    const SceneKind scene =
        input.scene_index.has_value() ? SceneAt(*input.scene_index) : demo_.scene();
    // A new scene starts from its own view; R keeps the view the user chose.
    if (scene != demo_.scene()) camera_ = SceneStartCamera(scene);
    if (Status s = demo_.Restart(scene); !s.ok()) return s;
    clock_ = FixedStepClock(kStepSeconds, kMaxStepsPerFrame);
    ShowMessage(std::string("scene ") + SceneName(scene));
  }
  if (input.particle_doublings != 0) ChangeParticleCount(input.particle_doublings);
  camera_.Orbit(input.orbit_dx_pixels, input.orbit_dy_pixels);
  camera_.Zoom(input.zoom_steps);
  SetPointer(input);
  return {};
}

void InteractiveDemo::ApplyWindowSize() {
  size_t width = 0;
  size_t height = 0;
  display_->OutputSize(&width, &height);
  width = std::max(width, kMinFrameSize);
  height = std::max(height, kMinFrameSize);
  if (Status s = demo_.SetFrameSize(width, height); !s.ok()) {
    ShowMessage("frame stays " + std::to_string(demo_.renderer().settings().width) + "x" +
                std::to_string(demo_.renderer().settings().height) + ": " + s.message());
    return;
  }
  if (Status s = display_->SetFrameSize(width, height); !s.ok()) ShowMessage(s.message());
}

void InteractiveDemo::ChangeParticleCount(int doublings) {
  const size_t current = demo_.particles();
  uint64_t wanted = current;
  for (int i = 0; i < doublings && wanted <= kMaxParticles; ++i) wanted *= 2;
  for (int i = 0; i > doublings; --i) wanted = std::max<uint64_t>(wanted / 2, 1);
  if (wanted == current) return;
  const std::string keeps = "particle count stays " + GroupThousands(current) + ": ";
  if (wanted > kMaxParticles) {
    ShowMessage(keeps + GroupThousands(wanted) + " is above the maximum of " +
                GroupThousands(kMaxParticles));
    return;
  }
  if (Status s = demo_.Resize(wanted); !s.ok()) {
    ShowMessage(keeps + s.message());
    return;
  }
  ShowMessage("particles: " + GroupThousands(wanted));
}

void InteractiveDemo::NextSimdTarget() {
  const std::vector<SimdTarget> targets = SupportedTargets();
  const SimdTarget active = ActiveSimdTarget();
  size_t index = 0;
  while (index < targets.size() && targets[index].bits != active.bits) ++index;
  const SimdTarget& next = targets[(index + 1) % targets.size()];
  if (Status s = ForceSimdTarget(next); !s.ok()) {
    ShowMessage(s.message());
    return;
  }
  ShowMessage("SIMD target " + TargetLabel(ActiveSimdTarget()));
}

void InteractiveDemo::SetPointer(const FrameInput& input) {
  if (!input.attract && !input.repel) {
    demo_.SetPointer(std::nullopt);
    return;
  }
  // Mouse coordinates are in window units; the frame may have more pixels (high DPI) or, after
  // a refused resize, fewer.
  int window_width = 0;
  int window_height = 0;
  SDL_GetWindowSize(SDL_RenderGetWindow(display_->renderer()), &window_width, &window_height);
  const RenderSettings& settings = demo_.renderer().settings();
  const float frame_width = static_cast<float>(settings.width);
  const float frame_height = static_cast<float>(settings.height);
  const float x = input.mouse_x * frame_width / static_cast<float>(std::max(window_width, 1));
  const float y = input.mouse_y * frame_height / static_cast<float>(std::max(window_height, 1));
  const std::optional<glm::vec3> point = camera_.PointOnFocalPlane(x, y, frame_width, frame_height);
  if (!point.has_value()) {
    demo_.SetPointer(std::nullopt);
    return;
  }
  demo_.SetPointer(PointerForce{*point, input.repel});
}

void InteractiveDemo::RefreshHud(Clock::time_point now, bool force) {
  if (hud_ == nullptr) return;
  if (!force && Seconds(now - last_hud_refresh_) < kHudRefreshSeconds) return;
  last_hud_refresh_ = now;
  if (!message_.empty() && now > message_until_) message_.clear();
  HudState state;
  state.smoothed = timings_.smoothed();
  state.scene = demo_.scene();
  state.particles = demo_.particles();
  state.threads = pool_.num_threads();
  state.simd = TargetLabel(ActiveSimdTarget());
  state.coloring = demo_.renderer().settings().coloring;
  state.paused = paused_;
  const ParticleSystem& system = demo_.system();
  state.interacting = system.interacting();
  if (state.interacting) {
    const InteractionStats& stats = system.interactions().stats();
    state.neighbor_ms = stats.neighbor_seconds * 1e3;
    state.interaction_ms = stats.interaction_seconds * 1e3;
    state.average_neighbors = stats.average_neighbors;
  }
  state.memory_report = memory_.Report();
  state.message = message_;
  hud_->SetLines(HudLines(state));
}

void InteractiveDemo::ShowMessage(std::string message) {
  std::fprintf(stderr, "swarm-particles: %s\n", message.c_str());
  message_ = std::move(message);
  message_until_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                      std::chrono::duration<double>(kMessageSeconds));
  if (hud_visible_) RefreshHud(Clock::now(), /*force=*/true);
}

int InteractiveDemo::Finish() {
  PrintRunSummary(timings_, demo_, memory_, /*with_upload=*/true);
  if (!options_.out_path.empty() && !read_back_.empty()) {
    if (Status s = SaveArgbPng(memory_, options_.out_path, read_back_.data(), read_back_width_,
                               read_back_height_, read_back_width_);
        !s.ok()) {
      return FailSetup(InStage("saving the last frame", s), options_);
    }
    std::printf("wrote %s\n", options_.out_path.c_str());
  }
  return 0;
}

}  // namespace

Result<int> RunWindow(const DemoOptions& options, MemoryAccountant& memory, ThreadPool& pool) {
  Result<std::unique_ptr<SdlDisplay>> display =
      SdlDisplay::Open("swarm particles", options.width, options.height);
  if (!display.ok()) return display.status();
  // The drawable may differ from the requested size (high DPI, a window manager's constraints):
  // the frame follows the drawable.
  DemoOptions sized = options;
  size_t width = 0;
  size_t height = 0;
  display.value()->OutputSize(&width, &height);
  sized.width = std::max(width, kMinFrameSize);
  sized.height = std::max(height, kMinFrameSize);
  Result<ParticleDemo> demo = ParticleDemo::Create(
      memory, pool, {sized.particles, sized.scene, sized.seed, sized.width, sized.height});
  if (!demo.ok()) return FailSetup(demo.status(), sized);
  if (Status s = display.value()->SetFrameSize(sized.width, sized.height); !s.ok()) {
    return Fail(kProgram, s);
  }
  InteractiveDemo interactive(sized, memory, pool, std::move(display).value(),
                              std::move(demo).value());
  return interactive.Run();
}

}  // namespace swarm
