// Deterministic sin, cos, acos and sinc on float vectors, for kernels that promise the same bits
// on every SIMD target (docs/design.md, "Determinism").
//
// Why not hwy/contrib/math: it evaluates its polynomials with Highway's multiply-add op, which is
// a fused multiply-add on AVX2/AVX3 and a separately rounded multiply and add on SSE4/SSSE3/SCALAR,
// so results differ by 1-2 ulp between targets. Everything below uses only correctly rounded
// operations (Add, Sub, Mul, Div, Sqrt), exact ones (Neg, Abs, compares, IfThenElse) and no
// Round/Floor/ConvertTo either: Highway 1.0.3 emulates Round on SCALAR with `v + 0.5` followed by
// a truncating cast, which rounds 0.49999997f up to 1, unlike the roundps of SSE4/AVX. Integer
// rounding is done with the classic 1.5 * 2^23 trick instead, which is exact in IEEE arithmetic.
// Compiled with -ffp-contract=off, every element then sees the same sequence of roundings on
// every target.
//
// Based on:
//   - W. J. Cody, W. Waite, "Software Manual for the Elementary Functions", 1980: argument
//     reduction x = k pi/2 + r with pi/2 split in three parts (P1 + P2 + P3), so k * P1 and
//     k * P2 are exact products.
//   - S. L. Moshier, Cephes Math Library (sinf.c, asinf.c): the minimax coefficients on
//     [-pi/4, pi/4] (sin, cos) and on z in [0, 1/4] (asin), fitted for float arithmetic without
//     FMA, and the acos(x) = 2 asin(sqrt((1 - x) / 2)) identity for |x| > 1/2.
//
// Accuracy, measured against double std::sin/cos/acos over dense samples by
// tests/kernels/base/deterministic_math_test.cc (which states the bounds it asserts):
//   Sin, Cos: for |x| <= kSinCosAccurateRange = 1e4 (k < 2^13, where k * P2 is exact), at most
//     7.7e-8 absolute error and 1.53 ulp where |result| >= 1e-3; Sin near 0 within 1.06 ulp.
//     Beyond 1e4 results degrade gracefully but stay finite and in [-1, 1] for finite x.
//     Sin/Cos(+-inf or NaN) = NaN; Sin(-0) = +0.
//   Acos: 1.13 ulp. Input clamped to [-1, 1] (so a dot product that rounds to 1.0000001 is
//     fine); NaN stays NaN. Result in [0, pi].
//   Sinc(x) = sin(x) / x, Sinc(0) = 1, without a division by zero: a Taylor polynomial for
//     |x| < 1/4 and Sin(x) / x elsewhere, selected per lane. 2.3 ulp where |sinc| >= 1e-3.
//
// Note: hwy/contrib/math defines hn::Sin/Cos/Acos too; a translation unit that includes it must
// call these as swarm::HWY_NAMESPACE::Sin to avoid ambiguity through argument-dependent lookup.

#if defined(SWARM_KERNELS_DETERMINISTIC_MATH_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_DETERMINISTIC_MATH_INL_H_
#undef SWARM_KERNELS_DETERMINISTIC_MATH_INL_H_
#else
#define SWARM_KERNELS_DETERMINISTIC_MATH_INL_H_
#endif

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// |x| up to which Sin/Cos/SinCos meet the accuracy stated above.
inline constexpr float kSinCosAccurateRange = 1e4f;

namespace detail {

// Nearest integer (ties to even) of |v| < 2^22: adding 1.5 * 2^23 moves v into a binade whose ulp
// is 1, so the addition itself rounds; subtracting gives the integer back exactly. Larger |v|
// still give an integer (or v itself), just not necessarily the nearest one.
template <class D, class V>
HWY_INLINE V RoundToInteger(D d, V v) {
  const V magic = hn::Set(d, 12582912.0f);
  return hn::Sub(hn::Add(v, magic), magic);
}

// Cody-Waite reduction x = k pi/2 + r, |r| <= pi/4 (in the accurate range). P1 has 8 significant
// bits and P2 has 11, so k * P1 and k * P2 are exact for |k| < 2^13 and x - k P1 is exact too
// (Sterbenz); P1 + P2 + P3 = pi/2 to 2e-15, so r is accurate to about 1e-11 absolute at |x| = 1e4.
// `quadrant` is k mod 4 as a float in {-2, -1, 0, 1, 2} (k - 4 round(k / 4), exact integers).
// Outside the accurate range r is clamped to [-0.8, 0.8] so the polynomials stay bounded; NaN
// passes through (compares with NaN are false).
template <class D, class V>
HWY_INLINE void ReduceQuarterPi(D d, V x, V& r, V& quadrant) {
  const V k = RoundToInteger(d, hn::Mul(x, hn::Set(d, 0.636619772367581343f)));  // 2/pi
  r = hn::Sub(x, hn::Mul(k, hn::Set(d, 1.5703125f)));
  r = hn::Sub(r, hn::Mul(k, hn::Set(d, 4.837512969970703125e-4f)));
  r = hn::Sub(r, hn::Mul(k, hn::Set(d, 7.54978995489188216e-8f)));
  const V limit = hn::Set(d, 0.8f);
  r = hn::IfThenElse(hn::Gt(r, limit), limit, r);
  r = hn::IfThenElse(hn::Lt(r, hn::Neg(limit)), hn::Neg(limit), r);
  const V quarter_k = hn::Mul(k, hn::Set(d, 0.25f));
  quadrant = hn::Sub(k, hn::Mul(RoundToInteger(d, quarter_k), hn::Set(d, 4.0f)));
}

// sin(r) on [-pi/4, pi/4]: r + r z (s1 + z (s2 + z s3)), z = r^2 (Cephes sinf).
template <class D, class V>
HWY_INLINE V SinPolynomial(D d, V r, V z) {
  V p = hn::Set(d, -1.9515295891e-4f);
  p = hn::Add(hn::Mul(p, z), hn::Set(d, 8.3321608736e-3f));
  p = hn::Add(hn::Mul(p, z), hn::Set(d, -1.6666654611e-1f));
  return hn::Add(hn::Mul(hn::Mul(p, z), r), r);
}

// cos(r) on [-pi/4, pi/4]: 1 - z/2 + z^2 (c1 + z (c2 + z c3)) (Cephes cosf).
template <class D, class V>
HWY_INLINE V CosPolynomial(D d, V z) {
  V p = hn::Set(d, 2.443315711809948e-5f);
  p = hn::Add(hn::Mul(p, z), hn::Set(d, -1.388731625493765e-3f));
  p = hn::Add(hn::Mul(p, z), hn::Set(d, 4.166664568298827e-2f));
  const V high = hn::Mul(hn::Mul(p, z), z);
  return hn::Add(hn::Sub(high, hn::Mul(z, hn::Set(d, 0.5f))), hn::Set(d, 1.0f));
}

}  // namespace detail

// sin(x) and cos(x) from one range reduction. With x = k pi/2 + r and m = k mod 4:
//   m = 0: ( sin r,  cos r)    m = 1: ( cos r, -sin r)
//   m = 2: (-sin r, -cos r)    m = 3 = -1: (-cos r,  sin r)
template <class D, class V>
HWY_INLINE void SinCos(D d, V x, V& sin_out, V& cos_out) {
  V r, quadrant;
  detail::ReduceQuarterPi(d, x, r, quadrant);
  const V z = hn::Mul(r, r);
  const V s = detail::SinPolynomial(d, r, z);
  const V c = detail::CosPolynomial(d, z);
  const V one = hn::Set(d, 1.0f);
  const auto odd = hn::Eq(hn::Abs(quadrant), one);
  const auto half_turn = hn::Eq(hn::Abs(quadrant), hn::Set(d, 2.0f));
  const auto negate_sin = hn::Or(half_turn, hn::Eq(quadrant, hn::Neg(one)));
  const auto negate_cos = hn::Or(half_turn, hn::Eq(quadrant, one));
  const V sin_abs = hn::IfThenElse(odd, c, s);
  const V cos_abs = hn::IfThenElse(odd, s, c);
  sin_out = hn::IfThenElse(negate_sin, hn::Neg(sin_abs), sin_abs);
  cos_out = hn::IfThenElse(negate_cos, hn::Neg(cos_abs), cos_abs);
}

// The same bits as SinCos's sin_out (the unused half is dead code the compiler drops).
template <class D, class V>
HWY_INLINE V Sin(D d, V x) {
  V s, c;
  SinCos(d, x, s, c);
  return s;
}

// The same bits as SinCos's cos_out.
template <class D, class V>
HWY_INLINE V Cos(D d, V x) {
  V s, c;
  SinCos(d, x, s, c);
  return c;
}

// sin(x) / x with sinc(0) = 1. For |x| < 1/4 the Taylor series
//   1 - x^2/6 + x^4/120 - x^6/5040   (truncation error x^8/9! < 5e-11 relative)
// and Sin(x) / x elsewhere (Sin is relatively accurate, so the quotient is too). The division
// uses 1 as denominator in the polynomial lanes, so no lane divides by zero.
template <class D, class V>
HWY_INLINE V Sinc(D d, V x) {
  const V one = hn::Set(d, 1.0f);
  const auto small = hn::Lt(hn::Abs(x), hn::Set(d, 0.25f));
  const V z = hn::Mul(x, x);
  V p = hn::Set(d, -1.0f / 5040.0f);
  p = hn::Add(hn::Mul(p, z), hn::Set(d, 1.0f / 120.0f));
  p = hn::Add(hn::Mul(p, z), hn::Set(d, -1.0f / 6.0f));
  const V series = hn::Add(hn::Mul(p, z), one);
  const V quotient = hn::Div(Sin(d, x), hn::IfThenElse(small, one, x));
  return hn::IfThenElse(small, series, quotient);
}

// acos(x) for x clamped to [-1, 1], result in [0, pi]. With asin(w) = w + w z P(z) (Cephes
// asinf, z = w^2 in [0, 1/4]):
//   |x| <= 1/2:  acos(x) = pi/2 - asin(x)
//   x > 1/2:     acos(x) = 2 asin(s),        s = sqrt(z), z = (1 - x) / 2
//   x < -1/2:    acos(x) = pi - 2 asin(s),   s = sqrt(z), z = (1 + x) / 2
// pi/2 and pi are split into a float and a small correction (hi + lo) so the final subtraction
// loses nothing; 1 - |x| is exact for |x| in [1/2, 1] (Sterbenz), which keeps acos near x = +-1
// (small angles between nearly equal unit quaternions) relatively accurate.
template <class D, class V>
HWY_INLINE V Acos(D d, V x) {
  const V one = hn::Set(d, 1.0f);
  const V half = hn::Set(d, 0.5f);
  x = hn::IfThenElse(hn::Gt(x, one), one, x);
  x = hn::IfThenElse(hn::Lt(x, hn::Neg(one)), hn::Neg(one), x);
  const V abs_x = hn::Abs(x);
  const auto far = hn::Gt(abs_x, half);
  const V z = hn::IfThenElse(far, hn::Mul(hn::Sub(one, abs_x), half), hn::Mul(x, x));
  const V w = hn::IfThenElse(far, hn::Sqrt(z), x);
  V p = hn::Set(d, 4.2163199048e-2f);
  p = hn::Add(hn::Mul(p, z), hn::Set(d, 2.4181311049e-2f));
  p = hn::Add(hn::Mul(p, z), hn::Set(d, 4.5470025998e-2f));
  p = hn::Add(hn::Mul(p, z), hn::Set(d, 7.4953002686e-2f));
  p = hn::Add(hn::Mul(p, z), hn::Set(d, 1.6666752422e-1f));
  const V correction = hn::Mul(hn::Mul(p, z), w);  // asin(w) = w + correction
  // pi/2 - (w + correction) = pio2_hi - (w + (correction - pio2_lo)).
  const V near_result = hn::Sub(hn::Set(d, 1.57079637050628662f),
                                hn::Add(w, hn::Sub(correction, hn::Set(d, -4.37113900630947e-8f))));
  const V two_asin = hn::Mul(hn::Add(w, correction), hn::Set(d, 2.0f));
  // pi - 2 asin(s) = pi_hi - (2 asin(s) - pi_lo).
  const V negative_result = hn::Sub(hn::Set(d, 3.14159274101257324f),
                                    hn::Sub(two_asin, hn::Set(d, -8.74227801261895e-8f)));
  const V far_result = hn::IfThenElse(hn::Lt(x, hn::Zero(d)), negative_result, two_asin);
  return hn::IfThenElse(far, far_result, near_result);
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_DETERMINISTIC_MATH_INL_H_
