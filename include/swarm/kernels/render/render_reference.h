// Plain scalar references for the particle rendering kernels (swarm/kernels/render/render.h): one
// element at a time with ordinary C++ arithmetic and conversions. Tests require the SIMD kernels to
// match them bitwise (same correctly rounded operations in the same order, -ffp-contract=off).
#pragma once

#include <cstddef>
#include <cstdint>
#include <glm/vec4.hpp>
#include <span>

#include "swarm/kernels/render/render.h"

namespace swarm::reference {

float SpeedFraction(const glm::vec4& velocity, float inverse_full_speed);
float AgeFraction(float age, float lifetime);
// screen[i] = (x, y, ., .) pixels; adds into the counts of `target`.
void SplatPoints(std::span<const glm::vec4> screen, std::span<const uint8_t> visible,
                 std::span<const float> t, const SplatTarget& target);
// One channel of one pixel: the counts of every accumulator summed, converted and scaled.
// One channel of one pixel: the counts of every accumulator summed, converted and scaled.
float ResolveSplat(std::span<const uint32_t> counts, float scale);
float InterpolateAt(const float* src, int32_t index, float weight);
uint32_t ComposePixel(const float radiance[3], const float glow_top[3], const float glow_bottom[3],
                      float glow_weight, float glow_strength);

}  // namespace swarm::reference
