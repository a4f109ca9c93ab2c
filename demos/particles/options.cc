#include "demos/particles/options.h"

#include "demos/command_line/flags.h"
#include "demos/command_line/runtime_flags.h"
#include "swarm/core/simd.h"
#include "swarm/render/particle_renderer.h"

namespace swarm {

Result<DemoOptions> ParseDemoOptions(int argc, const char* const* argv) {
  DemoOptions options;
  options.threads = DefaultThreads();
  std::string simd = "auto";
  std::string scene = SceneName(options.scene);
  FlagSet flags("swarm-particles",
                "Simulates and renders particles with swarm's kernels in an SDL2 window, or "
                "headless\n(--headless, or when there is no display) writing a PNG and timings.\n"
                "Keys: 1-8 scene, space pause, R restart, T next SIMD target, +/- double/halve "
                "the particles,\nC colour by speed/age, H HUD, Esc/Q quit. Mouse: left attracts, "
                "right repels, middle drag\norbits, the wheel zooms.");
  // Unset (0), each scene starts with its own count, also when the keys switch scenes.
  flags.AddCount("particles", &options.particles, 1, kMaxParticles,
                 "number of particles (the scene's own: 1e6; fluid 1e5, granular 2e5, flock "
                 "2.5e5)");
  AddThreadsFlag(flags, &options.threads);
  AddSimdFlag(flags, &simd);
  flags.AddString("scene", &scene, SceneNames());
  AddMemoryLimitFlag(flags, &options.memory_limit);
  flags.AddCount("seed", &options.seed, 0, UINT64_MAX, "random seed of the scene");
  flags.AddCount("width", &options.width, kMinFrameSize, kMaxFrameSize, "frame width in pixels");
  flags.AddCount("height", &options.height, kMinFrameSize, kMaxFrameSize, "frame height in pixels");
  flags.AddString("font", &options.font_path, "TrueType font of the HUD");
  flags.AddCount("frames", &options.frames, 0, 1'000'000'000,
                 "quit after this many frames (0: the window runs until closed, headless 300)");
  flags.AddString("out", &options.out_path,
                  "PNG of the last frame (headless: the rendered frame; window: a read-back)");
  bool no_hud = false;
  flags.AddSwitch("no-hud", &no_hud, "start with the HUD hidden");
  flags.AddSwitch("headless", &options.headless, "render without a window");
  if (Status s = flags.Parse(argc, argv); !s.ok()) return s;
  options.help = flags.help_requested();
  options.usage = flags.Usage();
  options.hud = !no_hud;
  if (options.help) return options;
  Result<SimdTarget> target = ParseSimdTarget(simd);
  if (!target.ok()) return target.status();
  options.simd = target.value();
  Result<SceneKind> scene_kind = ParseSceneName(scene);
  if (!scene_kind.ok()) return scene_kind.status();
  options.scene = scene_kind.value();
  if (options.font_path.empty()) return InvalidArgument("--font: expected a path, got ''");
  return options;
}

}  // namespace swarm
