// Per-target conversions between f32 vectors and the bits of f16 and bf16 (one value in the low
// 16 bits of each 32-bit lane), with the bits of swarm/kernels/tensor/small_floats.h on every
// target.
//
// Integer arithmetic throughout, rather than Highway's PromoteTo / DemoteTo: their emulations
// (targets without F16C, and bf16 everywhere) truncate instead of rounding to nearest even and
// widen an f16 infinity to 65536, so they would give different bits on different targets.

#if defined(SWARM_KERNELS_SMALL_FLOATS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_SMALL_FLOATS_INL_H_
#undef SWARM_KERNELS_SMALL_FLOATS_INL_H_
#else
#define SWARM_KERNELS_SMALL_FLOATS_INL_H_
#endif

#include <cstdint>

#include "hwy/highway.h"
#include "swarm/kernels/tensor/small_floats.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// f16 bits -> f32: a normal number moves its exponent from bias 15 to bias 127 and its 10
// mantissa bits to the top of 23; a subnormal is its mantissa times 2^-24 (exact in f32); the
// largest exponent is infinity or NaN (the one quiet NaN).
template <class DF>
HWY_INLINE hn::Vec<DF> WidenF16Bits(DF df, hn::Vec<hn::RebindToSigned<DF>> bits) {
  const hn::RebindToSigned<DF> di;
  const auto magnitude = hn::And(bits, hn::Set(di, 0x7fff));
  const auto exponent = hn::And(bits, hn::Set(di, 0x7c00));
  const auto sign = hn::ShiftLeft<16>(hn::And(bits, hn::Set(di, 0x8000)));
  const auto normal = hn::Add(hn::ShiftLeft<13>(magnitude), hn::Set(di, (127 - 15) << 23));
  const auto subnormal =
      hn::BitCast(di, hn::Mul(hn::ConvertTo(df, magnitude), hn::Set(df, 1.0f / (1 << 24))));
  const auto special = hn::Or(hn::ShiftLeft<13>(magnitude), hn::Set(di, 0x7f800000));
  auto widened = hn::IfThenElse(hn::Eq(exponent, hn::Zero(di)), subnormal, normal);
  widened = hn::IfThenElse(hn::Eq(exponent, hn::Set(di, 0x7c00)), special, widened);
  const auto value = hn::BitCast(df, hn::Or(widened, sign));
  return hn::IfThenElse(hn::IsNaN(value), hn::Set(df, std::bit_cast<float>(0x7fc00000u)), value);
}

// f32 -> f16 bits, to nearest with ties to even. Normal results: the 13 dropped mantissa bits
// round by adding 0xfff plus the lowest kept bit, carrying into the exponent when they must, and
// the exponent is rebiased by the same addition. Subnormal results: adding 0.5f, whose unit in
// the last place is 2^-24 (the f16 subnormal unit), rounds the value in the FPU's default
// to-nearest-even mode, and the mantissa of the sum is the count of units. From 65520 up
// (halfway past the largest f16, 65504) the result is infinity.
template <class DF>
HWY_INLINE hn::Vec<hn::RebindToSigned<DF>> NarrowF16Bits(DF df, hn::Vec<DF> value) {
  const hn::RebindToSigned<DF> di;
  const auto bits = hn::BitCast(di, value);
  const auto magnitude = hn::And(bits, hn::Set(di, 0x7fffffff));
  const auto sign = hn::And(hn::ShiftRight<16>(bits), hn::Set(di, 0x8000));
  const auto odd = hn::And(hn::ShiftRight<13>(magnitude), hn::Set(di, 1));
  const auto rebias = hn::Set(di, static_cast<int32_t>(0xc8000fffu));  // (15 - 127) << 23, + 0xfff
  // Logical shift: the sum wraps past 2^31 for no magnitude that reaches this branch, but an
  // unsigned shift keeps that obvious.
  const hn::RebindToUnsigned<DF> du;
  const auto normal = hn::BitCast(
      di, hn::ShiftRight<13>(hn::BitCast(du, hn::Add(hn::Add(magnitude, rebias), odd))));
  const auto half = hn::Set(df, 0.5f);
  const auto subnormal =
      hn::Sub(hn::BitCast(di, hn::Add(hn::BitCast(df, magnitude), half)), hn::BitCast(di, half));
  auto narrowed = hn::IfThenElse(hn::Lt(magnitude, hn::Set(di, 0x38800000)), subnormal, normal);
  narrowed =
      hn::IfThenElse(hn::Gt(magnitude, hn::Set(di, 0x477ff000 - 1)), hn::Set(di, 0x7c00), narrowed);
  narrowed = hn::Or(narrowed, sign);
  return hn::IfThenElse(hn::Gt(magnitude, hn::Set(di, 0x7f800000)), hn::Set(di, kFloat16QuietNaN),
                        narrowed);
}

// bf16 bits -> f32: the upper half of the f32 (NaN made the one quiet NaN).
template <class DF>
HWY_INLINE hn::Vec<DF> WidenBF16Bits(DF df, hn::Vec<hn::RebindToSigned<DF>> bits) {
  const auto value = hn::BitCast(df, hn::ShiftLeft<16>(bits));
  return hn::IfThenElse(hn::IsNaN(value), hn::Set(df, std::bit_cast<float>(0x7fc00000u)), value);
}

// f32 -> bf16 bits, to nearest with ties to even: add 0x7fff plus the lowest kept bit, keep the
// upper half (the carry reaches infinity exactly when the value rounds past the largest bf16).
template <class DF>
HWY_INLINE hn::Vec<hn::RebindToSigned<DF>> NarrowBF16Bits(DF /* df */, hn::Vec<DF> value) {
  const hn::RebindToSigned<DF> di;
  const hn::RebindToUnsigned<DF> du;
  const auto bits = hn::BitCast(du, value);
  const auto odd = hn::And(hn::ShiftRight<16>(bits), hn::Set(du, 1));
  const auto rounded = hn::ShiftRight<16>(hn::Add(hn::Add(bits, hn::Set(du, 0x7fff)), odd));
  return hn::IfThenElse(hn::RebindMask(di, hn::IsNaN(value)), hn::Set(di, kBFloat16QuietNaN),
                        hn::BitCast(di, rounded));
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_SMALL_FLOATS_INL_H_
