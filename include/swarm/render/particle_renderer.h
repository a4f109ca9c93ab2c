// Renders a ParticleSystem into an ARGB frame with swarm's kernels, in four stages:
//
//   transform  CameraProject (swarm/kernels/geometry/transform.h): world positions -> pixel x, y
//   and a
//              visibility mask, one tile of particles at a time;
//   splat      each visible particle adds its colour (a palette entry chosen by speed or age) to
//              one pixel of an integer accumulation image; fused with `transform` per tile, so
//              the projected positions never leave L1/L2;
//   glow       the accumulation image resolved to float radiance, two PyramidDown levels and a
//              GaussianBlur there (swarm/vision/vision_ops.h): the soft halo around dense regions;
//   tonemap    radiance + upsampled glow -> x / (1 + x) -> sqrt (a gamma of 1/2) -> 8-bit ARGB.
//
// Determinism: the frame is bitwise identical for every SIMD target and thread count. Splats
// accumulate in 32-bit integers, whose sums do not depend on their order: each thread splats its
// static share of the particles into its own accumulation image and the resolve adds them up.
// Every float stage is elementwise or a vision filter, which are deterministic themselves.
//
// Memory: the images (accumulators per thread, radiance, glow levels, the frame) are accounted
// under kImages and allocated by Create and Resize only; Render allocates nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <glm/mat4x4.hpp>
#include <memory>
#include <string>
#include <vector>

#include "swarm/core/lane_storage.h"
#include "swarm/core/memory.h"
#include "swarm/core/status.h"
#include "swarm/core/thread_pool.h"
#include "swarm/kernels/render/render.h"
#include "swarm/particles/particle_system.h"
#include "swarm/vision/image.h"
#include "swarm/vision/png.h"
#include "swarm/vision/vision_ops.h"

namespace swarm {

// The frame sizes the renderer accepts, in pixels per side: the glow's quarter-resolution
// pyramid level needs at least 2 x 2 pixels, and 16384 keeps every image under 2^31 bytes.
inline constexpr size_t kMinFrameSize = 8;
inline constexpr size_t kMaxFrameSize = 16384;

struct RenderSettings {
  size_t width = 1280;  // pixels, in [kMinFrameSize, kMaxFrameSize]
  size_t height = 720;  // pixels, in [kMinFrameSize, kMaxFrameSize]
  ParticleColoring coloring = ParticleColoring::kSpeed;
  float full_color_speed = 20.0f;  // m/s at the palette's end (kSpeed), > 0
  float exposure = 0.15f;          // radiance of one white particle on one pixel, > 0
  float glow_strength = 0.8f;      // weight of the glow added to the radiance, >= 0
  float glow_sigma = 1.5f;         // Gaussian sigma in quarter-resolution pixels, > 0
};

// Wall-clock milliseconds of the last Render, per stage (transform and splat are timed per tile
// on the calling thread and scaled to its share, so they add up to the fused stage's time).
struct RenderTimings {
  double transform_ms = 0;
  double splat_ms = 0;
  double glow_ms = 0;
  double tonemap_ms = 0;
};

// The particle arrays Render reads (equal counts): positions and velocities use lanes x, y, z.
struct ParticleViews {
  ConstVec4View positions;
  ConstVec4View velocities;
  ConstFloatView ages;
  ConstFloatView lifetimes;
};

// width x height pixels 0xAARRGGBB (the renderer's frame, or a window read back), rows of
// `row_stride` pixels, as an 8-bit RGB PNG: alpha is dropped, rows are converted one at a time
// (PngSaveBytes(width, 3) of kScratch, no full-size copy). File errors as SavePng.
Status SaveArgbPng(MemoryAccountant& accountant, const std::string& path, const uint32_t* pixels,
                   size_t width, size_t height, size_t row_stride);

class ParticleRenderer {
 public:
  // Allocates every image for `settings` and for up to `max_threads` threads (a pool with more
  // threads is refused by Render). Errors: sizes or settings out of range (named), the budget.
  static Result<ParticleRenderer> Create(MemoryAccountant& accountant,
                                         const RenderSettings& settings, size_t max_threads);
  ParticleRenderer() = default;

  // New settings; reallocates only if the size changed. On error nothing changes.
  Status Configure(const RenderSettings& settings);

  // Renders `particles` as seen through `view_projection` (a glm perspective * lookAt) into
  // frame(). Errors (the frame is left as it was): a pool with more than max_threads threads,
  // arrays of unequal counts.
  Status Render(ThreadPool& pool, const glm::mat4& view_projection, const ParticleViews& particles);
  Status Render(ThreadPool& pool, const glm::mat4& view_projection,
                const ParticleSystem& particles);

  const RenderSettings& settings() const { return settings_; }
  size_t max_threads() const { return accumulators_.size(); }
  const RenderTimings& timings() const { return timings_; }

  // The last frame: width x height pixels 0xAARRGGBB (SDL_PIXELFORMAT_ARGB8888 on little-endian
  // machines), rows of frame_row_stride() pixels; alpha is 255.
  const uint32_t* frame() const { return frame_.lane(0); }
  size_t frame_row_stride() const { return RoundUpToVector<uint32_t>(settings_.width); }

  // Writes the last frame as an 8-bit RGB PNG (SaveArgbPng below).
  Status SaveFramePng(const std::string& path) const;
  // The kScratch bytes SaveFramePng needs, for a run that reserves them up front.
  size_t SaveFramePngBytes() const { return PngSaveBytes(settings_.width, 3); }

 private:
  Status Allocate(MemoryAccountant& accountant, const RenderSettings& settings, size_t max_threads);

  MemoryAccountant* accountant_ = nullptr;
  RenderSettings settings_;
  // Per thread: an accumulation image (swarm/kernels/render/render.h SplatTarget: 4 counts per
  // pixel, rows of frame_row_stride() pixels).
  std::vector<LaneStorage<uint32_t, 1>> accumulators_;
  // Per thread: a tile of projected positions and visibility flags (kernels never allocate).
  std::vector<Vec4Buffer> tile_screen_;
  std::vector<ByteArray> tile_visible_;
  std::vector<FloatArray> tile_color_;
  ImageF32 radiance_[3];
  ImageF32 half_[3];
  ImageF32 quarter_[3];
  ImageF32 glow_[3];
  ImageF32 glow_wide_[3];  // glow rows upsampled to full width (quarter height)
  LaneStorage<int32_t, 1> upsample_index_;
  LaneStorage<float, 1> upsample_weight_;
  LaneStorage<uint32_t, 1> frame_;
  std::unique_ptr<VisionWorkspace> workspace_;  // not movable itself
  RenderTimings timings_;
};

Status ValidateRenderSettings(const RenderSettings& settings);

}  // namespace swarm
