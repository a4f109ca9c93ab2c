// ParticleRenderer (swarm/render/particle_renderer.h): particles land on the pixels glm's own
// projection puts them on, with the palette colour and tone map the kernels promise; frames are
// bitwise identical on every SIMD target and thread count; the glow spreads light a bounded
// distance; bad settings and pools are refused with a message and change nothing; rendering
// allocates nothing.
#include "swarm/render/particle_renderer.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/mat4x4.hpp>
#include <string>
#include <vector>

#include "swarm/core/buffer.h"
#include "swarm/core/memory.h"
#include "swarm/core/state_hash.h"
#include "swarm/core/thread_pool.h"
#include "swarm/kernels/render/render_reference.h"
#include "swarm/particles/particle_system.h"
#include "swarm/vision/png.h"
#include "tests/support/for_each_target.h"
#include "tests/support/golden.h"

namespace swarm {
namespace {

constexpr size_t kWidth = 160;
constexpr size_t kHeight = 96;

glm::mat4 Perspective() {
  return glm::perspective(glm::radians(60.0f), float{kWidth} / float{kHeight}, 0.1f, 100.0f);
}
glm::mat4 View() {
  return glm::lookAt(glm::vec3(3.0f, 4.0f, 12.0f), glm::vec3(0.0f, 2.0f, 0.0f),
                     glm::vec3(0.0f, 1.0f, 0.0f));
}

// Particles as the renderer reads them, set one by one.
struct Cloud {
  Cloud(MemoryAccountant& memory, size_t count)
      : positions(Vec4Buffer::Create(memory, count).value()),
        velocities(Vec4Buffer::Create(memory, count).value()),
        ages(FloatArray::Create(memory, count).value()),
        lifetimes(FloatArray::Create(memory, count).value()) {}
  ParticleViews views() const {
    return {positions.view(), velocities.view(), ages.view(), lifetimes.view()};
  }
  Vec4Buffer positions, velocities;
  FloatArray ages, lifetimes;
};

RenderSettings SmallSettings() {
  RenderSettings settings;
  settings.width = kWidth;
  settings.height = kHeight;
  return settings;
}

uint32_t Pixel(const ParticleRenderer& renderer, size_t x, size_t y) {
  return renderer.frame()[y * renderer.frame_row_stride() + x];
}

std::vector<uint32_t> FrameCopy(const ParticleRenderer& renderer) {
  const size_t stride = renderer.frame_row_stride();
  return {renderer.frame(), renderer.frame() + stride * renderer.settings().height};
}

// The visible pixels of a FrameCopy, row by row: the row padding differs between architectures
// (swarm/kernels/base/views.h), so golden digests must not see it.
std::vector<uint32_t> VisiblePixels(const ParticleRenderer& renderer,
                                    const std::vector<uint32_t>& frame) {
  const size_t stride = renderer.frame_row_stride();
  const size_t width = renderer.settings().width;
  std::vector<uint32_t> pixels;
  for (size_t y = 0; y < renderer.settings().height; ++y) {
    pixels.insert(pixels.end(), frame.begin() + y * stride, frame.begin() + y * stride + width);
  }
  return pixels;
}

TEST_CASE("Particles land on the pixels glm::unProject says, in the palette colour") {
  MemoryAccountant memory;
  ThreadPool pool(1);
  RenderSettings settings = SmallSettings();
  settings.glow_strength = 0;  // single pixels, no halo
  ParticleRenderer renderer = ParticleRenderer::Create(memory, settings, 1).value();

  // World points on the rays through chosen pixel centres (double precision, independent of the
  // kernels), at various depths.
  const std::vector<glm::ivec2> pixels = {{10, 10}, {80, 48}, {150, 90}, {3, 70}, {120, 5}};
  const glm::dmat4 view(View()), projection(Perspective());
  Cloud cloud(memory, pixels.size());
  for (size_t i = 0; i < pixels.size(); ++i) {
    const glm::dvec3 window(pixels[i].x + 0.5, double{kHeight} - (pixels[i].y + 0.5),
                            0.90 + 0.02 * static_cast<double>(i));
    const glm::dvec3 world =
        glm::unProject(window, view, projection, glm::dvec4(0, 0, kWidth, kHeight));
    cloud.positions.Set(i, glm::vec4(glm::vec3(world), 1.0f));
    cloud.lifetimes[i] = 1.0f;
  }
  REQUIRE(renderer.Render(pool, Perspective() * View(), cloud.views()).ok());

  // Speed 0 picks palette entry 0; one particle gives radiance exposure * colour / 255.
  const PaletteEntry color = PaletteColor(0);
  const float scale = settings.exposure / 255.0f;
  const float radiance[3] = {color.red * scale, color.green * scale, color.blue * scale};
  const float zero[3] = {0, 0, 0};
  const uint32_t lit = reference::ComposePixel(radiance, zero, zero, 0.0f, 0.0f);
  size_t lit_pixels = 0;
  for (size_t y = 0; y < kHeight; ++y) {
    for (size_t x = 0; x < kWidth; ++x) {
      const bool expected_lit = std::count(pixels.begin(), pixels.end(),
                                           glm::ivec2(static_cast<int>(x), static_cast<int>(y)));
      INFO("pixel " << x << ", " << y);
      REQUIRE(Pixel(renderer, x, y) == (expected_lit ? lit : 0xFF000000u));
      lit_pixels += expected_lit;
    }
  }
  CHECK(lit_pixels == pixels.size());
}

TEST_CASE("Particles behind the camera or outside the frustum leave the frame black") {
  MemoryAccountant memory;
  ThreadPool pool(1);
  ParticleRenderer renderer = ParticleRenderer::Create(memory, SmallSettings(), 1).value();
  Cloud cloud(memory, 3);
  cloud.positions.Set(0, {3.0f, 4.0f, 30.0f, 1.0f});    // behind the eye
  cloud.positions.Set(1, {500.0f, 2.0f, 0.0f, 1.0f});   // far to the side
  cloud.positions.Set(2, {0.0f, 2.0f, -500.0f, 1.0f});  // beyond the far plane
  REQUIRE(renderer.Render(pool, Perspective() * View(), cloud.views()).ok());
  for (uint32_t pixel : FrameCopy(renderer)) {
    if (pixel != 0) REQUIRE(pixel == 0xFF000000u);  // padding pixels stay 0
  }
}

TEST_CASE("The glow spreads a particle's light a bounded distance") {
  MemoryAccountant memory;
  ThreadPool pool(1);
  RenderSettings settings = SmallSettings();
  settings.exposure = 5000.0f;
  ParticleRenderer renderer = ParticleRenderer::Create(memory, settings, 1).value();
  Cloud cloud(memory, 1);
  const glm::dvec3 world =
      glm::unProject(glm::dvec3(80.5, 48.5, 0.95), glm::dmat4(View()), glm::dmat4(Perspective()),
                     glm::dvec4(0, 0, kWidth, kHeight));
  cloud.positions.Set(0, glm::vec4(glm::vec3(world), 1.0f));
  REQUIRE(renderer.Render(pool, Perspective() * View(), cloud.views()).ok());
  const auto blue = [&](size_t x, size_t y) { return Pixel(renderer, x, y) & 0xFFu; };
  // The particle sits at the centre of pixel (80, 47): window y 48.5 is row 96 - 48.5 = 47.5.
  CHECK(blue(80, 47) >= 250);  // one particle at exposure 5000 is nearly white
  CHECK(blue(84, 47) > 0);     // lit only by the glow
  CHECK(blue(80, 43) > 0);
  CHECK(blue(80 + 40, 47) == 0);  // the glow is a few quarter-resolution sigmas wide
  CHECK(blue(80, 47 + 40) == 0);
}

TEST_CASE("Frames are bitwise identical and golden on every SIMD target and thread count") {
  MemoryAccountant memory;
  ParticleConfig config;
  config.emitter.center = {0.0f, 2.0f, 0.0f};
  config.emitter.velocity = {0.0f, 8.0f, 0.0f};
  config.emitter.velocity_spread = {4.0f, 3.0f, 4.0f};
  ParticleSystem particles = ParticleSystem::Create(memory, 30001, config).value();
  ThreadPool stepper(1);
  for (int step = 0; step < 20; ++step) REQUIRE(particles.Step(1.0f / 60.0f, stepper).ok());

  for (ParticleColoring coloring : {ParticleColoring::kSpeed, ParticleColoring::kAge}) {
    RenderSettings settings = SmallSettings();
    settings.coloring = coloring;
    settings.exposure = 20.0f;
    ParticleRenderer renderer = ParticleRenderer::Create(memory, settings, 3).value();
    std::vector<uint32_t> first;
    size_t nonblack = 0;
    test::ForEachTarget([&](const test::TargetUnderTest& target) {
      for (size_t threads : {1, 2, 3}) {
        ThreadPool pool(threads);
        INFO("target " << target.name << " threads " << threads);
        REQUIRE(renderer.Render(pool, Perspective() * View(), particles).ok());
        const std::vector<uint32_t> frame = FrameCopy(renderer);
        if (first.empty()) {
          first = frame;
          for (uint32_t pixel : frame) nonblack += (pixel & 0xFFFFFFu) != 0;
        }
        REQUIRE(frame == first);
      }
    });
    CHECK(nonblack > 500);  // the fountain is in view
    const std::vector<uint32_t> visible = VisiblePixels(renderer, first);
    test::CheckGolden(
        std::string("render.fountain_30001.") +
            (coloring == ParticleColoring::kSpeed ? "speed" : "age"),
        StateHasher().AddBytes(visible.data(), visible.size() * sizeof(uint32_t)).Digest());
  }
}

TEST_CASE("Rendering allocates nothing once created") {
  MemoryAccountant memory;
  ParticleSystem particles = ParticleSystem::Create(memory, 10000, {}).value();
  ParticleRenderer renderer = ParticleRenderer::Create(memory, SmallSettings(), 2).value();
  ThreadPool pool(2);
  const uint64_t before = memory.Total().allocations;
  for (int frame = 0; frame < 5; ++frame) {
    REQUIRE(renderer.Render(pool, Perspective() * View(), particles).ok());
  }
  CHECK(memory.Total().allocations == before);
  CHECK(memory.Stats(MemoryCategory::kImages).bytes_in_use > 0);
}

TEST_CASE("Bad settings are refused with a message naming them") {
  MemoryAccountant memory;
  const auto refused = [&](RenderSettings settings, const std::string& needle) {
    Result<ParticleRenderer> created = ParticleRenderer::Create(memory, settings, 1);
    REQUIRE_FALSE(created.ok());
    INFO(created.status().message());
    CHECK(created.status().message().find(needle) != std::string::npos);
  };
  RenderSettings settings = SmallSettings();
  settings.width = 0;
  refused(settings, "width must be in [8, 16384]");
  settings = SmallSettings();
  settings.height = 100000;
  refused(settings, "height");
  settings = SmallSettings();
  settings.exposure = std::numeric_limits<float>::quiet_NaN();
  refused(settings, "exposure must be finite and > 0");
  settings = SmallSettings();
  settings.glow_sigma = 0;
  refused(settings, "glow_sigma");
  settings = SmallSettings();
  settings.glow_strength = -1;
  refused(settings, "glow_strength");
  settings = SmallSettings();
  settings.full_color_speed = std::numeric_limits<float>::infinity();
  refused(settings, "full_color_speed");
  Result<ParticleRenderer> no_threads = ParticleRenderer::Create(memory, SmallSettings(), 0);
  REQUIRE_FALSE(no_threads.ok());
  CHECK(no_threads.status().message().find("threads") != std::string::npos);
  CHECK(memory.Total().bytes_in_use == 0);
}

TEST_CASE("A refused render, resize or budget leaves the renderer and its frame as they were") {
  MemoryAccountant memory;
  Cloud cloud(memory, 100);
  for (size_t i = 0; i < 100; ++i) cloud.positions.Set(i, {0.05f * i - 2.5f, 2.0f, 0.0f, 1.0f});
  ParticleRenderer renderer = ParticleRenderer::Create(memory, SmallSettings(), 1).value();
  ThreadPool one(1);
  REQUIRE(renderer.Render(one, Perspective() * View(), cloud.views()).ok());
  const std::vector<uint32_t> frame = FrameCopy(renderer);

  ThreadPool three(3);
  const Status too_many = renderer.Render(three, Perspective() * View(), cloud.views());
  REQUIRE_FALSE(too_many.ok());
  CHECK(too_many.message().find("thread pool of 3 threads is larger than the renderer's 1") !=
        std::string::npos);
  CHECK(FrameCopy(renderer) == frame);

  Cloud shorter(memory, 10);
  ParticleViews mismatched = cloud.views();
  mismatched.ages = shorter.ages.view();
  const Status unequal = renderer.Render(one, Perspective() * View(), mismatched);
  REQUIRE_FALSE(unequal.ok());
  CHECK(unequal.message().find("unequal counts") != std::string::npos);
  CHECK(FrameCopy(renderer) == frame);

  memory.SetBudget(memory.Total().bytes_in_use + 1024);
  RenderSettings bigger = SmallSettings();
  bigger.width = 1920;
  bigger.height = 1080;
  const Status over = renderer.Configure(bigger);
  REQUIRE(over.code() == ErrorCode::kOverBudget);
  CHECK(over.message().find("particle renderer of 1920 x 1080 pixels") != std::string::npos);
  CHECK(over.message().find("images") != std::string::npos);
  CHECK(renderer.settings().width == kWidth);
  CHECK(FrameCopy(renderer) == frame);
  REQUIRE(renderer.Render(one, Perspective() * View(), cloud.views()).ok());
  CHECK(FrameCopy(renderer) == frame);
}

TEST_CASE("A resized renderer renders at its new size") {
  MemoryAccountant memory;
  ParticleSystem particles = ParticleSystem::Create(memory, 5000, {}).value();
  ParticleRenderer renderer = ParticleRenderer::Create(memory, SmallSettings(), 1).value();
  RenderSettings wide = SmallSettings();
  wide.width = 333;
  wide.height = 77;
  REQUIRE(renderer.Configure(wide).ok());
  ThreadPool pool(1);
  REQUIRE(renderer.Render(pool, Perspective() * View(), particles).ok());
  CHECK(renderer.settings().width == 333);
  CHECK(renderer.frame_row_stride() >= 333);
}

TEST_CASE("SaveFramePng writes the frame's RGB bytes") {
  MemoryAccountant memory;
  ParticleSystem particles = ParticleSystem::Create(memory, 20000, {}).value();
  RenderSettings settings = SmallSettings();
  settings.exposure = 40.0f;
  ParticleRenderer renderer = ParticleRenderer::Create(memory, settings, 1).value();
  ThreadPool pool(1);
  REQUIRE(renderer.Render(pool, Perspective() * View(), particles).ok());
  const std::string path = "particle_renderer_test_frame.png";
  REQUIRE(renderer.SaveFramePng(path).ok());
  Result<PlanarImage> loaded = LoadPng(memory, path);
  REQUIRE(loaded.ok());
  REQUIRE(loaded->channels() == 3);
  REQUIRE(loaded->width() == kWidth);
  REQUIRE(loaded->height() == kHeight);
  for (size_t y = 0; y < kHeight; ++y) {
    for (size_t x = 0; x < kWidth; ++x) {
      const uint32_t pixel = Pixel(renderer, x, y);
      REQUIRE(loaded->planes[0].Get(x, y) == ((pixel >> 16) & 0xFF));
      REQUIRE(loaded->planes[1].Get(x, y) == ((pixel >> 8) & 0xFF));
      REQUIRE(loaded->planes[2].Get(x, y) == (pixel & 0xFF));
    }
  }
  std::remove(path.c_str());
  CHECK(renderer.SaveFramePng("/nonexistent-directory/frame.png")
            .message()
            .find("/nonexistent-directory/frame.png") != std::string::npos);
}

}  // namespace
}  // namespace swarm
