// swarm-particles' command line: every flag parsed and checked before anything runs, so a bad
// command line yields one message naming the flag (the program prints it and exits with 2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "demos/particles/scene.h"
#include "swarm/core/memory.h"
#include "swarm/core/simd.h"
#include "swarm/core/status.h"

namespace swarm {

inline constexpr uint64_t kHeadlessDefaultFrames = 300;
inline constexpr uint64_t kMaxParticles = uint64_t{1} << 30;
inline constexpr const char* kDefaultFontPath =
    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";

struct DemoOptions {
  uint64_t particles = 0;  // unset: each scene's default (SceneDefaultParticles)
  uint64_t threads = 1;
  SimdTarget simd{0, "auto", "auto"};
  SceneKind scene = SceneKind::kFountain;
  size_t memory_limit = kNoBudget;
  uint64_t seed = 1;
  uint64_t width = 1280;
  uint64_t height = 720;
  std::string font_path = kDefaultFontPath;
  uint64_t frames = 0;   // 0: the window runs until closed, headless runs kHeadlessDefaultFrames
  std::string out_path;  // empty: no PNG
  bool hud = true;
  bool headless = false;
  bool help = false;
  std::string usage;  // the --help text
};

// Parses argv. Errors name the flag and the value.
Result<DemoOptions> ParseDemoOptions(int argc, const char* const* argv);

}  // namespace swarm
