// Storage types narrower than f32: IEEE binary16 (Float16, numpy's float16), bfloat16 (BFloat16,
// the upper half of an f32) and one-byte booleans (Bool). They are stored as their bits and
// computed with as f32: every Float16 and BFloat16 value is exactly an f32, so widening is exact,
// and narrowing rounds once, to the nearest value with ties to even (IEEE's default rounding,
// numpy's astype), overflowing to infinity. A NaN narrows to the one quiet NaN of the type
// (0x7e00, 0x7fc0), as every NaN result in swarm is canonical (swarm/kernels/tensor/row_kernels.h).
// A Bool is true when its byte is not zero, and stores 1 for true.
//
// The functions here are the scalar definitions; the SIMD conversions of
// swarm/kernels/tensor/row_kernels.h produce the same bits. Narrowing from double rounds the double
// itself, never through an f32 (which could round twice).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace swarm {

struct Float16 {
  uint16_t bits = 0;
  // The same bits (so +0 and -0 differ, and a NaN equals itself).
  friend bool operator==(Float16, Float16) = default;
};
struct BFloat16 {
  uint16_t bits = 0;
  // The same bits (so +0 and -0 differ, and a NaN equals itself).
  friend bool operator==(BFloat16, BFloat16) = default;
};
struct Bool {
  uint8_t byte = 0;
  // The same bits (so +0 and -0 differ, and a NaN equals itself).
  friend bool operator==(Bool, Bool) = default;
};

inline constexpr uint16_t kFloat16QuietNaN = 0x7e00;
inline constexpr uint16_t kBFloat16QuietNaN = 0x7fc0;

namespace small_float {

// Rounds |value| (finite, not NaN) to a float with kExponentBits and kMantissaBits (IEEE layout,
// bias 2^(kExponentBits - 1) - 1, subnormals), to nearest with ties to even; returns the bits
// without the sign, the infinity's when the rounded value overflows.
template <int kExponentBits, int kMantissaBits>
uint16_t RoundMagnitude(double magnitude) {
  constexpr int kBias = (1 << (kExponentBits - 1)) - 1;
  constexpr uint32_t kInfinity = ((1u << kExponentBits) - 1) << kMantissaBits;
  // Halfway between the largest finite value and 2^(kBias + 1) rounds to even, which is up.
  const double overflow = std::ldexp(2.0 - std::ldexp(1.0, -(kMantissaBits + 1)), kBias);
  if (magnitude >= overflow) return static_cast<uint16_t>(kInfinity);
  constexpr int kMinExponent = 1 - kBias;
  if (magnitude < std::ldexp(1.0, kMinExponent)) {
    // Subnormal: a count of 2^(kMinExponent - kMantissaBits) units (the scaling is exact, and
    // nearbyint rounds ties to even in the default rounding mode). A count of 2^kMantissaBits is
    // the smallest normal number's bits, as it should be.
    return static_cast<uint16_t>(
        std::nearbyint(std::ldexp(magnitude, kMantissaBits - kMinExponent)));
  }
  int exponent;
  const double fraction = std::frexp(magnitude, &exponent);  // [0.5, 1)
  --exponent;  // magnitude = m * 2^exponent, m in [1, 2)
  const double mantissa = std::nearbyint((fraction * 2.0 - 1.0) * (1 << kMantissaBits));
  // A mantissa that rounds up to 2^kMantissaBits carries into the exponent, as it should.
  return static_cast<uint16_t>((static_cast<uint32_t>(exponent + kBias) << kMantissaBits) +
                               static_cast<uint32_t>(mantissa));
}

template <int kExponentBits, int kMantissaBits>
uint16_t Narrow(double value, uint16_t quiet_nan) {
  if (std::isnan(value)) return quiet_nan;
  const uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  return static_cast<uint16_t>(sign |
                               RoundMagnitude<kExponentBits, kMantissaBits>(std::fabs(value)));
}

}  // namespace small_float

inline Float16 ToFloat16(double value) {
  return {small_float::Narrow<5, 10>(value, kFloat16QuietNaN)};
}
inline BFloat16 ToBFloat16(double value) {
  return {small_float::Narrow<8, 7>(value, kBFloat16QuietNaN)};
}

inline float ToFloat(Float16 value) {
  const uint32_t sign = (value.bits & 0x8000u) << 16;
  const uint32_t exponent = (value.bits >> 10) & 0x1f;
  const uint32_t mantissa = value.bits & 0x3ffu;
  if (exponent == 0x1f) {
    if (mantissa != 0) return std::bit_cast<float>(0x7fc00000u);
    return std::bit_cast<float>(sign | 0x7f800000u);
  }
  if (exponent == 0) {  // zero or subnormal: mantissa * 2^-24, exact in f32
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign != 0 ? -magnitude : magnitude;
  }
  return std::bit_cast<float>(sign | ((exponent + 127 - 15) << 23) | (mantissa << 13));
}
inline float ToFloat(BFloat16 value) {
  const float widened = std::bit_cast<float>(static_cast<uint32_t>(value.bits) << 16);
  return std::isnan(widened) ? std::bit_cast<float>(0x7fc00000u) : widened;
}
inline float ToFloat(Bool value) { return value.byte != 0 ? 1.0f : 0.0f; }
inline Bool ToBool(double value) { return {static_cast<uint8_t>(value != 0.0 ? 1 : 0)}; }

}  // namespace swarm
