// Tests of the particle demo's view and loop parts that need no display
// (demos/particles/orbit_camera.h, fixed_step_clock.h, frame_timings.h, hud_text.h,
// options.h): the camera's pointer plane against glm::project, the fixed-step accumulator,
// timing statistics, the HUD's lines and the command line's values and errors.
#include <catch2/catch.hpp>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <string>
#include <vector>

#include "demos/particles/fixed_step_clock.h"
#include "demos/particles/frame_timings.h"
#include "demos/particles/hud_text.h"
#include "demos/particles/options.h"
#include "demos/particles/orbit_camera.h"

namespace swarm {
namespace {

Result<DemoOptions> Parse(std::vector<const char*> args) {
  args.insert(args.begin(), "swarm-particles");
  return ParseDemoOptions(static_cast<int>(args.size()), args.data());
}

TEST_CASE("the pointer's plane point projects back under the pointer") {
  const glm::vec3 target(0.0f, 10.0f, 0.0f);
  OrbitCamera camera(target, 0.6f, 0.35f, 36.0f);
  const float width = 1280.0f;
  const float height = 720.0f;
  // The frame's centre looks at the target.
  const std::optional<glm::vec3> centre =
      camera.PointOnFocalPlane(width / 2 - 0.5f, height / 2 - 0.5f, width, height);
  REQUIRE(centre.has_value());
  CHECK(glm::distance(*centre, target) < 1e-3f);

  const glm::mat4 view = glm::lookAt(camera.Eye(), target, glm::vec3(0.0f, 1.0f, 0.0f));
  const glm::mat4 projection =
      glm::perspective(glm::radians(OrbitCamera::kFieldOfViewDegrees), width / height,
                       OrbitCamera::kNear, OrbitCamera::kFar);
  CHECK(camera.ViewProjection(width, height) == projection * view);
  const glm::vec3 normal = glm::normalize(target - camera.Eye());
  for (const glm::vec2 pixel :
       {glm::vec2(10.0f, 20.0f), glm::vec2(1000.0f, 700.0f), glm::vec2(640.0f, 100.0f)}) {
    INFO("pixel " << pixel.x << ", " << pixel.y);
    const std::optional<glm::vec3> point =
        camera.PointOnFocalPlane(pixel.x, pixel.y, width, height);
    REQUIRE(point.has_value());
    // On the plane through the target facing the camera...
    CHECK(std::abs(glm::dot(*point - target, normal)) < 1e-3f);
    // ...and under the pointer: glm::project's window y grows upwards, SDL's downwards.
    const glm::vec3 window =
        glm::project(*point, view, projection, glm::vec4(0.0f, 0.0f, width, height));
    CHECK(window.x == Approx(pixel.x + 0.5f).margin(0.01));
    CHECK(height - window.y == Approx(pixel.y + 0.5f).margin(0.01));
  }
  CHECK_FALSE(camera.PointOnFocalPlane(1.0f, 1.0f, 0.0f, 720.0f).has_value());
}

TEST_CASE("orbiting and zooming keep the camera within its limits") {
  const glm::vec3 target(1.0f, 2.0f, 3.0f);
  OrbitCamera camera(target, 0.0f, 0.0f, 10.0f);
  // Azimuth 0 puts the eye on +z of the target.
  CHECK(glm::distance(camera.Eye(), target + glm::vec3(0.0f, 0.0f, 10.0f)) < 1e-5f);
  camera.Orbit(0.0f, 1e6f);
  CHECK(camera.Eye().y - target.y == Approx(10.0f * std::sin(OrbitCamera::kMaxElevation)));
  camera.Orbit(0.0f, -1e6f);
  CHECK(camera.Eye().y - target.y == Approx(-10.0f * std::sin(OrbitCamera::kMaxElevation)));
  camera.Orbit(1e5f, 0.0f);
  CHECK(glm::distance(camera.Eye(), target) == Approx(10.0f));
  camera.Zoom(1.0f);
  CHECK(camera.distance() == Approx(9.0f));
  camera.Zoom(-1.0f);
  CHECK(camera.distance() == Approx(10.0f));
  camera.Zoom(1000.0f);
  CHECK(camera.distance() == OrbitCamera::kMinDistance);
  camera.Zoom(-1000.0f);
  CHECK(camera.distance() == OrbitCamera::kMaxDistance);
  CHECK(OrbitCamera(target, 0.0f, 9.0f, 1e9f).distance() == OrbitCamera::kMaxDistance);
}

TEST_CASE("the fixed-step clock spends whole steps, at most the limit per frame") {
  const double step = 1.0 / 60.0;
  FixedStepClock clock(step, 4);
  CHECK(clock.Advance(123.0) == 1);  // the first frame: one step, whatever the time
  CHECK(clock.pending_seconds() == 0.0);
  CHECK(clock.Advance(0.5 * step) == 0);
  CHECK(clock.Advance(0.6 * step) == 1);
  CHECK(clock.pending_seconds() == Approx(0.1 * step));
  CHECK(clock.Advance(2.0 * step) == 2);
  CHECK(clock.Advance(-1.0) == 0);
  CHECK(clock.Advance(std::nan("")) == 0);
  // A very slow frame takes four steps and drops the rest, keeping the phase within a step.
  CHECK(clock.Advance(10.5 * step) == 4);
  CHECK(clock.pending_seconds() >= 0.0);
  CHECK(clock.pending_seconds() < step);
  CHECK(clock.Advance(0.0) == 0);
  clock.Reset();
  CHECK(clock.pending_seconds() == 0.0);
  CHECK(clock.Advance(0.99 * step) == 0);
}

TEST_CASE("frame timings: mean and median over the kept frames, a smoothed average") {
  FrameTimingLog log(4);
  CHECK(log.Summarize(FrameStage::kPhysics).mean_ms == 0.0);
  for (double ms : {1.0, 2.0, 3.0, 10.0, 20.0, 30.0}) {
    FrameTimes times;
    times[FrameStage::kPhysics] = ms;
    times[FrameStage::kFrame] = 2 * ms;
    log.Record(times);
    if (ms == 1.0) CHECK(log.smoothed()[FrameStage::kPhysics] == 1.0);
  }
  CHECK(log.frames_recorded() == 6);
  CHECK(log.frames_kept() == 4);
  const StageSummary physics = log.Summarize(FrameStage::kPhysics);  // 3, 10, 20, 30
  CHECK(physics.mean_ms == Approx(15.75));
  CHECK(physics.median_ms == Approx(15.0));
  CHECK(log.Summarize(FrameStage::kFrame).median_ms == Approx(30.0));
  const double smoothed = log.smoothed()[FrameStage::kPhysics];
  CHECK(smoothed > 1.0);
  CHECK(smoothed < 30.0);
  CHECK(std::string(FrameStageName(FrameStage::kUpload)) == "upload");
}

TEST_CASE("the HUD lists rates, stage times, what runs, the memory report and the message") {
  HudState state;
  state.smoothed[FrameStage::kFrame] = 20.0;
  state.smoothed[FrameStage::kSplat] = 3.25;
  state.scene = SceneKind::kGalaxy;
  state.particles = 1234567;
  state.threads = 2;
  state.simd = "avx2 (AVX2)";
  state.coloring = ParticleColoring::kAge;
  state.paused = true;
  state.memory_report = "swarm memory\n  particles  1 MiB\n";
  state.message = "particle count stays 1,234,567: over budget";
  const std::vector<std::string> lines = HudLines(state);
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  CHECK(text.find("FPS 50.0") != std::string::npos);
  CHECK(text.find("[paused]") != std::string::npos);
  CHECK(text.find("scene galaxy") != std::string::npos);
  CHECK(text.find("particles 1,234,567") != std::string::npos);
  CHECK(text.find("threads 2") != std::string::npos);
  CHECK(text.find("SIMD avx2 (AVX2)") != std::string::npos);
  CHECK(text.find("splat 3.25") != std::string::npos);
  CHECK(text.find("colour by age") != std::string::npos);
  CHECK(text.find("swarm memory\n  particles  1 MiB\n") != std::string::npos);
  CHECK(lines.back() == state.message);
  // A long message is broken between words.
  state.message = std::string(60, 'a') + " " + std::string(60, 'b') + " c";
  const std::vector<std::string> wrapped = HudLines(state);
  REQUIRE(wrapped.size() == lines.size() + 1);
  CHECK(wrapped[wrapped.size() - 2] == std::string(60, 'a'));
  CHECK(wrapped.back() == std::string(60, 'b') + " c");
  CHECK(GroupThousands(0) == "0");
  CHECK(GroupThousands(999) == "999");
  CHECK(GroupThousands(1000) == "1,000");
  CHECK(GroupThousands(1000000) == "1,000,000");
}

TEST_CASE("the command line: defaults, values and one message per bad flag") {
  Result<DemoOptions> defaults = Parse({});
  REQUIRE(defaults.ok());
  CHECK(defaults->particles == 0);  // unset: each scene's own count
  CHECK(defaults->scene == SceneKind::kFountain);
  CHECK(defaults->width == 1280);
  CHECK(defaults->height == 720);
  CHECK(defaults->frames == 0);
  CHECK(defaults->hud);
  CHECK_FALSE(defaults->headless);
  CHECK(defaults->simd.bits == 0);
  CHECK(defaults->font_path == kDefaultFontPath);
  CHECK(defaults->memory_limit == kNoBudget);

  Result<DemoOptions> set = Parse({"--scene",
                                   "snow",
                                   "--particles=2e4",
                                   "--threads",
                                   "3",
                                   "--simd=scalar",
                                   "--memory-limit",
                                   "64M",
                                   "--seed",
                                   "9",
                                   "--width",
                                   "320",
                                   "--height=180",
                                   "--frames",
                                   "30",
                                   "--out",
                                   "x.png",
                                   "--no-hud",
                                   "--headless",
                                   "--font",
                                   "f.ttf"});
  REQUIRE(set.ok());
  CHECK(set->scene == SceneKind::kSnow);
  CHECK(set->particles == 20000);
  CHECK(set->threads == 3);
  CHECK(set->simd.name == "scalar");
  CHECK(set->memory_limit == 64u << 20);
  CHECK(set->seed == 9);
  CHECK(set->width == 320);
  CHECK(set->height == 180);
  CHECK(set->frames == 30);
  CHECK(set->out_path == "x.png");
  CHECK_FALSE(set->hud);
  CHECK(set->headless);
  CHECK(set->font_path == "f.ttf");

  struct BadCase {
    std::vector<const char*> args;
    std::string message;
  };
  const BadCase bad_cases[] = {
      {{"--scene", "volcano"}, "--scene: unknown scene 'volcano'"},
      {{"--simd=bogus"}, "--simd=bogus: unknown SIMD target"},
      {{"--threads", "0"}, "--threads: '0' is out of range [1, 256]"},
      {{"--width", "0"}, "--width: '0' is out of range [8, 16384]"},
      {{"--height", "7"}, "--height: '7' is out of range [8, 16384]"},
      {{"--particles", "0"}, "--particles: '0' is out of range"},
      {{"--memory-limit", "12Q"}, "--memory-limit: unknown size unit 'Q'"},
      {{"--frames"}, "--frames needs a value"},
      {{"--frobnicate"}, "unknown flag --frobnicate"},
      {{"--font="}, "--font: expected a path"},
      {{"--headless=yes"}, "--headless takes no value"},
  };
  for (const BadCase& bad : bad_cases) {
    INFO(bad.message);
    Result<DemoOptions> parsed = Parse(bad.args);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.status().message().find(bad.message) != std::string::npos);
  }
  Result<DemoOptions> help = Parse({"--help"});
  REQUIRE(help.ok());
  CHECK(help->help);
  CHECK(help->usage.find("--scene") != std::string::npos);
  CHECK(help->usage.find("fountain, explosion, ring, galaxy, snow") != std::string::npos);
}

}  // namespace
}  // namespace swarm
