// Particle rendering kernels: colour, additive splat, resolve, glow upsampling and tone mapping.
// swarm/render/particle_renderer.h strings them into a frame; this header states each step
// exactly.
//
// Deterministic like every swarm kernel: each output element comes from the same sequence of
// correctly rounded operations on every target (no FMA contraction, exact Div and Sqrt), and
// splats add 32-bit integers, whose sum does not depend on the order.
// Reference implementations for tests: swarm/kernels/render/render_reference.h.
#pragma once

#include <cstddef>
#include <cstdint>

#include "swarm/kernels/base/views.h"

namespace swarm {

// What picks a particle's colour: its speed |v| (lanes x, y, z) or its age / lifetime.
enum class ParticleColoring : uint8_t { kSpeed, kAge };

// t[i] in [0, 1]: min(|v[i]| * inverse_full_speed, 1) (kSpeed), or min(age[i] / lifetime[i], 1)
// (kAge, lifetime > 0). NaN becomes 0. `out` has the count of the inputs.
void SpeedFraction(const ConstVec4View& velocities, float inverse_full_speed, const FloatView& out);
void AgeFraction(const ConstFloatView& ages, const ConstFloatView& lifetimes, const FloatView& out);

// The palette: t in [0, 1] -> 8-bit RGB, linear between five stops (deep blue, cyan, green-yellow,
// orange, white) at t = 0, 1/4, 1/2, 3/4, 1; entry k of the table is the colour at t = k / 255.
inline constexpr size_t kPaletteSize = 256;
struct PaletteEntry {
  uint8_t red, green, blue;
};
PaletteEntry PaletteColor(size_t index);

// An accumulation image of 32-bit counts, four per pixel (red, green, blue, unused: one splat
// touches one 16-byte slot, so one cache line, instead of three planes), `height` rows of
// `row_stride` pixels; pixel (x, y) starts at pixels[4 * (y * row_stride + x)].
struct SplatTarget {
  uint32_t* pixels = nullptr;
  size_t width = 0;
  size_t height = 0;
  size_t row_stride = 0;  // >= width
};

// For every i with visible[i] != 0 (screen lanes x, y in pixels as CameraProject writes them,
// inside [0, width] x [0, height]): pixel (min(floor(x), width - 1), min(floor(y), height - 1))
// gains the palette colour of entry floor(t[i] * 255) in its red, green and blue counts. Invisible
// elements are skipped whatever their screen values. A pixel overflows after 2^32 / 255 (16.8
// million) particles. Views have equal counts.
void SplatPoints(const ConstVec4View& screen, const ConstByteView& visible, const ConstFloatView& t,
                 const SplatTarget& target);

// For pixels p < pixel_count of accumulation images laid out as SplatTarget's:
//   red[p] = float(sum over k < accumulator_count of accumulators[k][4 p]) * scale
// (green from 4 p + 1, blue from 4 p + 2), then zeroes the accumulators' 4 * pixel_count counts.
// The sum is exact below 2^32 (wrapping above) and the conversion is correctly rounded. Arrays are
// vector-aligned and pixel_count is a multiple of kPadFloats (callers pass whole padded rows).
void ResolveSplats(uint32_t* const* accumulators, size_t accumulator_count, size_t pixel_count,
                   float scale, float* red, float* green, float* blue);

// Horizontal linear interpolation through a table: out[x] = a + w[x] * (b - a) with a =
// src[index[x]], b = src[index[x] + 1], for x < count. Every index[x] + 1 is a valid element of
// src: callers keep index + 1 inside the row. Arrays are vector-aligned.
void InterpolateRow(const float* src, const int32_t* index, const float* weight, size_t count,
                    float* out);

// One row of the final frame. For each x < width and each channel c (red, green, blue):
//   glow = glow_top[c][x] + glow_weight * (glow_bottom[c][x] - glow_top[c][x])
//   v = radiance[c][x] + glow_strength * glow          (v < 0 or NaN taken as 0)
//   level = sqrt(v / (1 + v))                           (x/(1+x) tone map, then gamma 1/2)
//   byte = floor(level * 255 + 0.5)
// and frame[x] = 0xFF000000 | red << 16 | green << 8 | blue. Arrays are vector-aligned.
struct ComposeRowInputs {
  const float* radiance[3];
  const float* glow_top[3];
  const float* glow_bottom[3];
  float glow_weight = 0;    // in [0, 1]
  float glow_strength = 0;  // >= 0
};
void ComposeRow(const ComposeRowInputs& inputs, size_t width, uint32_t* frame);

}  // namespace swarm
