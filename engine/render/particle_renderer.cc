#include "swarm/render/particle_renderer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <span>
#include <string>
#include <utility>

#include "swarm/kernels/geometry/transform.h"
#include "swarm/kernels/vision/vision_filter.h"
#include "swarm/vision/png.h"

namespace swarm {
namespace {

// Particles per tile of the fused transform + splat stage: 4096 projected vectors (64 KB), their
// flags and colour fractions stay in L2 between the two kernels.
constexpr size_t kTileParticles = 4096;
constexpr size_t kGlowLevels = 2;  // the glow is blurred at 1/4 resolution

using Clock = std::chrono::steady_clock;

double Milliseconds(Clock::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

size_t Halved(size_t size) { return (size + 1) / 2; }

// cv::getGaussianKernel's own choice of size for a sigma, for float images: odd, about +-4 sigma.
size_t GlowKernelSize(float sigma) {
  return static_cast<size_t>(std::lround(sigma * 4.0f * 2.0f + 1.0f)) | 1;
}

Status BadSetting(const std::string& name, const std::string& expected, double got) {
  return InvalidArgument("render setting " + name + " must be " + expected + ", got " +
                         std::to_string(got));
}

// Linear interpolation from `from` samples to `to` samples with pixel centres aligned (the
// mapping of cv::resize INTER_LINEAR): sample x of the output reads src[index] and
// src[index + 1] with weight. Both must lie inside the row (a row whose width is a multiple of
// the vector has no padding after its last element), so the right edge uses index from - 2 with
// weight 1; a one-sample row reads its padding with weight 0.
void InterpolationTable(size_t from, size_t to, int32_t* index, float* weight) {
  const double ratio = static_cast<double>(from) / static_cast<double>(to);
  for (size_t x = 0; x < to; ++x) {
    if (from == 1) {
      index[x] = 0;
      weight[x] = 0.0f;
      continue;
    }
    double position = (static_cast<double>(x) + 0.5) * ratio - 0.5;
    position = std::clamp(position, 0.0, static_cast<double>(from - 1));
    const size_t left = std::min(static_cast<size_t>(position), from - 2);
    index[x] = static_cast<int32_t>(left);
    weight[x] = static_cast<float>(position - static_cast<double>(left));
  }
}

}  // namespace

Status ValidateRenderSettings(const RenderSettings& settings) {
  const std::string size_range =
      "in [" + std::to_string(kMinFrameSize) + ", " + std::to_string(kMaxFrameSize) + "] pixels";
  if (settings.width < kMinFrameSize || settings.width > kMaxFrameSize) {
    return BadSetting("width", size_range, static_cast<double>(settings.width));
  }
  if (settings.height < kMinFrameSize || settings.height > kMaxFrameSize) {
    return BadSetting("height", size_range, static_cast<double>(settings.height));
  }
  if (settings.coloring != ParticleColoring::kSpeed &&
      settings.coloring != ParticleColoring::kAge) {
    return BadSetting("coloring", "kSpeed or kAge", static_cast<double>(settings.coloring));
  }
  if (!(std::isfinite(settings.full_color_speed) && settings.full_color_speed > 0)) {
    return BadSetting("full_color_speed", "finite and > 0", settings.full_color_speed);
  }
  if (!(std::isfinite(settings.exposure) && settings.exposure > 0)) {
    return BadSetting("exposure", "finite and > 0", settings.exposure);
  }
  if (!(std::isfinite(settings.glow_strength) && settings.glow_strength >= 0)) {
    return BadSetting("glow_strength", "finite and >= 0", settings.glow_strength);
  }
  if (!(std::isfinite(settings.glow_sigma) && settings.glow_sigma > 0 &&
        settings.glow_sigma <= 32)) {
    return BadSetting("glow_sigma", "in (0, 32]", settings.glow_sigma);
  }
  return {};
}

Result<ParticleRenderer> ParticleRenderer::Create(MemoryAccountant& accountant,
                                                  const RenderSettings& settings,
                                                  size_t max_threads) {
  if (Status s = ValidateRenderSettings(settings); !s.ok()) return s;
  if (max_threads < 1 || max_threads > 256) {
    return InvalidArgument("renderer threads must be in [1, 256], got " +
                           std::to_string(max_threads));
  }
  ParticleRenderer renderer;
  if (Status s = renderer.Allocate(accountant, settings, max_threads); !s.ok()) {
    return Status(s.code(), "particle renderer of " + std::to_string(settings.width) + " x " +
                                std::to_string(settings.height) + " pixels for " +
                                std::to_string(max_threads) + " thread(s): " + s.message());
  }
  return renderer;
}

Status ParticleRenderer::Allocate(MemoryAccountant& accountant, const RenderSettings& settings,
                                  size_t max_threads) {
  accountant_ = &accountant;
  settings_ = settings;
  const size_t width = settings.width;
  const size_t height = settings.height;
  const size_t pixels = RoundUpToVector<uint32_t>(width) * height;
  constexpr MemoryCategory kImages = MemoryCategory::kImages;
  for (size_t t = 0; t < max_threads; ++t) {
    LaneStorage<uint32_t, 1> counts(accountant, kImages);
    if (Status s = counts.Resize(4 * pixels); !s.ok()) return s;
    accumulators_.push_back(std::move(counts));
    Result<Vec4Buffer> screen = Vec4Buffer::Create(accountant, kTileParticles, kImages);
    if (!screen.ok()) return screen.status();
    tile_screen_.push_back(std::move(screen).value());
    Result<ByteArray> visible = ByteArray::Create(accountant, kTileParticles, kImages);
    if (!visible.ok()) return visible.status();
    tile_visible_.push_back(std::move(visible).value());
    Result<FloatArray> color = FloatArray::Create(accountant, kTileParticles, kImages);
    if (!color.ok()) return color.status();
    tile_color_.push_back(std::move(color).value());
  }
  const size_t half_width = Halved(width), half_height = Halved(height);
  const size_t quarter_width = Halved(half_width), quarter_height = Halved(half_height);
  const auto make = [&](ImageF32& image, size_t w, size_t h) {
    Result<ImageF32> created = ImageF32::Create(accountant, w, h);
    if (created.ok()) image = std::move(created).value();
    return created.status();
  };
  for (size_t c = 0; c < 3; ++c) {
    for (Status s : {make(radiance_[c], width, height), make(half_[c], half_width, half_height),
                     make(quarter_[c], quarter_width, quarter_height),
                     make(glow_[c], quarter_width, quarter_height),
                     make(glow_wide_[c], width, quarter_height)}) {
      if (!s.ok()) return s;
    }
  }
  upsample_index_ = LaneStorage<int32_t, 1>(accountant, kImages);
  upsample_weight_ = LaneStorage<float, 1>(accountant, kImages);
  frame_ = LaneStorage<uint32_t, 1>(accountant, kImages);
  for (Status s : {upsample_index_.Resize(width), upsample_weight_.Resize(width),
                   frame_.Resize(RoundUpToVector<uint32_t>(width) * height)}) {
    if (!s.ok()) return s;
  }
  InterpolationTable(quarter_width, width, upsample_index_.lane(0), upsample_weight_.lane(0));
  // Reserve the vision scratch now, so that Render never allocates.
  workspace_ = std::make_unique<VisionWorkspace>(accountant);
  const size_t scratch =
      std::max(PyramidDownScratchElements(width),
               GaussianScratchElements(quarter_width, GlowKernelSize(settings.glow_sigma)));
  return workspace_->Reserve(max_threads, scratch, 0);
}

Status ParticleRenderer::Configure(const RenderSettings& settings) {
  if (Status s = ValidateRenderSettings(settings); !s.ok()) return s;
  if (accountant_ == nullptr) return InvalidArgument("renderer was not created");
  if (settings.width == settings_.width && settings.height == settings_.height &&
      settings.glow_sigma == settings_.glow_sigma) {
    settings_ = settings;
    return {};
  }
  Result<ParticleRenderer> resized = Create(*accountant_, settings, max_threads());
  if (!resized.ok()) return resized.status();
  *this = std::move(resized).value();
  return {};
}

Status ParticleRenderer::Render(ThreadPool& pool, const glm::mat4& view_projection,
                                const ParticleSystem& particles) {
  return Render(pool, view_projection,
                ParticleViews{particles.positions().view(), particles.velocities().view(),
                              particles.ages().view(), particles.lifetimes().view()});
}

Status ParticleRenderer::Render(ThreadPool& pool, const glm::mat4& view_projection,
                                const ParticleViews& particles) {
  if (accountant_ == nullptr) return InvalidArgument("renderer was not created");
  const size_t count = particles.positions.count;
  if (particles.velocities.count != count || particles.ages.count != count ||
      particles.lifetimes.count != count) {
    return InvalidArgument("particle arrays of unequal counts: positions " + std::to_string(count) +
                           ", velocities " + std::to_string(particles.velocities.count) +
                           ", ages " + std::to_string(particles.ages.count) + ", lifetimes " +
                           std::to_string(particles.lifetimes.count));
  }
  if (pool.num_threads() > max_threads()) {
    return InvalidArgument("thread pool of " + std::to_string(pool.num_threads()) +
                           " threads is larger than the renderer's " +
                           std::to_string(max_threads()) + " (ParticleRenderer::Create)");
  }
  const size_t width = settings_.width;
  const size_t height = settings_.height;
  const size_t row_stride = RoundUpToVector<uint32_t>(width);
  const CameraParams camera{view_projection, static_cast<float>(width), static_cast<float>(height)};
  const float inverse_full_speed = 1.0f / settings_.full_color_speed;

  // Transform + splat, fused per tile. Thread t splats its contiguous share of the tiles into
  // accumulator t; the integer sums make the result independent of the split.
  const size_t tiles = (count + kTileParticles - 1) / kTileParticles;
  const size_t splatters = std::max<size_t>(1, std::min(pool.num_threads(), tiles));
  Clock::duration caller_transform{}, caller_splat{};
  const Clock::time_point splat_start = Clock::now();
  pool.ParallelFor(splatters, [&](size_t thread) {
    const Vec4View screen_tile = tile_screen_[thread].view();
    const ByteView visible_tile = tile_visible_[thread].view();
    const FloatView color_tile = tile_color_[thread].view();
    const SplatTarget target{accumulators_[thread].lane(0), width, height, row_stride};
    for (size_t tile = tiles * thread / splatters; tile < tiles * (thread + 1) / splatters;
         ++tile) {
      const size_t begin = tile * kTileParticles;
      const size_t n = std::min(kTileParticles, count - begin);
      const Clock::time_point t0 = Clock::now();
      const Vec4View screen{screen_tile.data, n, screen_tile.lane_stride};
      const ByteView visible = visible_tile.Slice(0, n);
      const FloatView color = color_tile.Slice(0, n);
      CameraProject(camera, particles.positions.Slice(begin, n), screen, visible);
      const Clock::time_point t1 = Clock::now();
      if (settings_.coloring == ParticleColoring::kSpeed) {
        SpeedFraction(particles.velocities.Slice(begin, n), inverse_full_speed, color);
      } else {
        AgeFraction(particles.ages.Slice(begin, n), particles.lifetimes.Slice(begin, n), color);
      }
      SplatPoints(screen, visible, color, target);
      if (thread == 0) {
        const Clock::time_point t2 = Clock::now();
        caller_transform += t1 - t0;
        caller_splat += t2 - t1;
      }
    }
  });
  const double fused_ms = Milliseconds(Clock::now() - splat_start);
  const double caller_ms = Milliseconds(caller_transform) + Milliseconds(caller_splat);
  const double transform_share = caller_ms > 0 ? Milliseconds(caller_transform) / caller_ms : 0.5;
  timings_.transform_ms = fused_ms * transform_share;
  timings_.splat_ms = fused_ms - timings_.transform_ms;

  // Resolve the accumulators into radiance (zeroing them for the next frame), then the glow.
  const Clock::time_point glow_start = Clock::now();
  // A count of 255 (one particle's full channel) is `exposure` radiance.
  const float scale = settings_.exposure / 255.0f;
  pool.ParallelFor(height, [&](size_t y) {
    uint32_t* rows[256];
    for (size_t t = 0; t < splatters; ++t) rows[t] = accumulators_[t].lane(0) + 4 * y * row_stride;
    ResolveSplats(rows, splatters, row_stride, scale, radiance_[0].view().Row(y),
                  radiance_[1].view().Row(y), radiance_[2].view().Row(y));
  });
  const bool glow = settings_.glow_strength > 0;
  if (glow) {
    const size_t ksize = GlowKernelSize(settings_.glow_sigma);
    for (size_t c = 0; c < 3; ++c) {
      for (Status s : {PyramidDown(*workspace_, pool, radiance_[c].view(), half_[c].view()),
                       PyramidDown(*workspace_, pool, half_[c].view(), quarter_[c].view()),
                       GaussianBlur(*workspace_, pool, quarter_[c].view(), glow_[c].view(), ksize,
                                    settings_.glow_sigma)}) {
        if (!s.ok()) return s;  // sizes are fixed at Create; an error here is a bug
      }
    }
    const size_t quarter_height = glow_[0].height();
    pool.ParallelFor(quarter_height, [&](size_t y) {
      for (size_t c = 0; c < 3; ++c) {
        InterpolateRow(glow_[c].view().Row(y), upsample_index_.lane(0), upsample_weight_.lane(0),
                       width, glow_wide_[c].view().Row(y));
      }
    });
  }
  timings_.glow_ms = Milliseconds(Clock::now() - glow_start);

  // Tone map radiance + glow (interpolated vertically here) into the frame.
  const Clock::time_point tonemap_start = Clock::now();
  const size_t quarter_height = glow_[0].height();
  const double ratio = static_cast<double>(quarter_height) / static_cast<double>(height);
  pool.ParallelFor(height, [&](size_t y) {
    double position = (static_cast<double>(y) + 0.5) * ratio - 0.5;
    position = std::clamp(position, 0.0, static_cast<double>(quarter_height - 1));
    const size_t top = std::min(static_cast<size_t>(position), quarter_height - 1);
    const size_t bottom = std::min(top + 1, quarter_height - 1);
    ComposeRowInputs inputs;
    for (size_t c = 0; c < 3; ++c) {
      inputs.radiance[c] = radiance_[c].view().Row(y);
      inputs.glow_top[c] = glow_wide_[c].view().Row(top);
      inputs.glow_bottom[c] = glow_wide_[c].view().Row(bottom);
    }
    inputs.glow_weight = static_cast<float>(position - static_cast<double>(top));
    inputs.glow_strength = glow ? settings_.glow_strength : 0.0f;
    ComposeRow(inputs, width, frame_.lane(0) + y * row_stride);
  });
  timings_.tonemap_ms = Milliseconds(Clock::now() - tonemap_start);
  return {};
}

Status SaveArgbPng(MemoryAccountant& accountant, const std::string& path, const uint32_t* pixels,
                   size_t width, size_t height, size_t row_stride) {
  return SavePngRows(accountant, path, width, height, 3, [&](size_t y, std::span<uint8_t> rgb) {
    const uint32_t* row = pixels + y * row_stride;
    for (size_t x = 0; x < width; ++x) {
      rgb[3 * x + 0] = static_cast<uint8_t>(row[x] >> 16);
      rgb[3 * x + 1] = static_cast<uint8_t>(row[x] >> 8);
      rgb[3 * x + 2] = static_cast<uint8_t>(row[x]);
    }
  });
}

Status ParticleRenderer::SaveFramePng(const std::string& path) const {
  if (accountant_ == nullptr) return InvalidArgument("renderer was not created");
  return SaveArgbPng(*accountant_, path, frame(), settings_.width, settings_.height,
                     frame_row_stride());
}

}  // namespace swarm
