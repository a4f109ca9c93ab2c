#include "swarm/kernels/render/render_reference.h"

#include <algorithm>
#include <cmath>

#include "kernels/render/palette.h"

namespace swarm::reference {
namespace {

// [0, 1] with NaN -> 0 (render-inl.h's ClampUnit).
float ClampUnit(float v) {
  if (!(v > 0.0f)) return 0.0f;
  return v < 1.0f ? v : 1.0f;
}

}  // namespace

float SpeedFraction(const glm::vec4& velocity, float inverse_full_speed) {
  const float squared = velocity.x * velocity.x + velocity.y * velocity.y + velocity.z * velocity.z;
  return ClampUnit(std::sqrt(squared) * inverse_full_speed);
}

float AgeFraction(float age, float lifetime) { return ClampUnit(age / lifetime); }

void SplatPoints(std::span<const glm::vec4> screen, std::span<const uint8_t> visible,
                 std::span<const float> t, const SplatTarget& target) {
  for (size_t i = 0; i < screen.size(); ++i) {
    if (visible[i] == 0) continue;
    const size_t column = std::min(static_cast<size_t>(std::floor(screen[i].x)), target.width - 1);
    const size_t row = std::min(static_cast<size_t>(std::floor(screen[i].y)), target.height - 1);
    const size_t entry = std::min(static_cast<size_t>(ClampUnit(t[i]) * 255.0f), size_t{255});
    const PaletteEntry color = kPalette[entry];
    uint32_t* counts = target.pixels + 4 * (row * target.row_stride + column);
    counts[0] += color.red;
    counts[1] += color.green;
    counts[2] += color.blue;
  }
}

float ResolveSplat(std::span<const uint32_t> counts, float scale) {
  uint32_t sum = 0;
  for (uint32_t count : counts) sum += count;
  return static_cast<float>(sum) * scale;
}

float InterpolateAt(const float* src, int32_t index, float weight) {
  const float a = src[index];
  const float b = src[index + 1];
  return a + weight * (b - a);
}

uint32_t ComposePixel(const float radiance[3], const float glow_top[3], const float glow_bottom[3],
                      float glow_weight, float glow_strength) {
  uint32_t pixel = 0xFF000000u;
  for (int c = 0; c < 3; ++c) {
    const float glow = glow_top[c] + glow_weight * (glow_bottom[c] - glow_top[c]);
    float v = radiance[c] + glow_strength * glow;
    if (!(v > 0.0f)) v = 0.0f;
    v = std::min(v, 1e30f);
    const float level = std::sqrt(v / (1.0f + v));
    const uint32_t byte = static_cast<uint32_t>(level * 255.0f + 0.5f);
    pixel |= byte << (16 - 8 * c);
  }
  return pixel;
}

}  // namespace swarm::reference
