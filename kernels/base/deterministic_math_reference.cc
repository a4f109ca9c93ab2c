#include "swarm/kernels/base/deterministic_math_reference.h"

#include <cmath>

namespace swarm::reference {
namespace {

// Each line below is one vector operation of kernels/base/deterministic_math-inl.h; the selects are
// written as conditionals with the same comparisons, so NaN takes the same side.
float RoundToInteger(float v) {
  const float magic = 12582912.0f;
  return (v + magic) - magic;
}

void ReduceQuarterPi(float x, float& r, float& quadrant) {
  const float k = RoundToInteger(x * 0.636619772367581343f);
  r = x - k * 1.5703125f;
  r = r - k * 4.837512969970703125e-4f;
  r = r - k * 7.54978995489188216e-8f;
  const float limit = 0.8f;
  r = r > limit ? limit : r;
  r = r < -limit ? -limit : r;
  quadrant = k - RoundToInteger(k * 0.25f) * 4.0f;
}

float SinPolynomial(float r, float z) {
  float p = -1.9515295891e-4f;
  p = p * z + 8.3321608736e-3f;
  p = p * z + -1.6666654611e-1f;
  return p * z * r + r;
}

float CosPolynomial(float z) {
  float p = 2.443315711809948e-5f;
  p = p * z + -1.388731625493765e-3f;
  p = p * z + 4.166664568298827e-2f;
  const float high = p * z * z;
  return (high - z * 0.5f) + 1.0f;
}

}  // namespace

void SinCos(float x, float& sin_out, float& cos_out) {
  float r, quadrant;
  ReduceQuarterPi(x, r, quadrant);
  const float z = r * r;
  const float s = SinPolynomial(r, z);
  const float c = CosPolynomial(z);
  const bool odd = std::fabs(quadrant) == 1.0f;
  const bool half_turn = std::fabs(quadrant) == 2.0f;
  const bool negate_sin = half_turn || quadrant == -1.0f;
  const bool negate_cos = half_turn || quadrant == 1.0f;
  const float sin_abs = odd ? c : s;
  const float cos_abs = odd ? s : c;
  sin_out = negate_sin ? -sin_abs : sin_abs;
  cos_out = negate_cos ? -cos_abs : cos_abs;
}

float Sin(float x) {
  float s, c;
  SinCos(x, s, c);
  return s;
}

float Cos(float x) {
  float s, c;
  SinCos(x, s, c);
  return c;
}

float Sinc(float x) {
  if (std::fabs(x) < 0.25f) {
    const float z = x * x;
    float p = -1.0f / 5040.0f;
    p = p * z + 1.0f / 120.0f;
    p = p * z + -1.0f / 6.0f;
    return p * z + 1.0f;
  }
  return Sin(x) / x;
}

float Acos(float x) {
  x = x > 1.0f ? 1.0f : x;
  x = x < -1.0f ? -1.0f : x;
  const float abs_x = std::fabs(x);
  const bool far = abs_x > 0.5f;
  const float z = far ? (1.0f - abs_x) * 0.5f : x * x;
  const float w = far ? std::sqrt(z) : x;
  float p = 4.2163199048e-2f;
  p = p * z + 2.4181311049e-2f;
  p = p * z + 4.5470025998e-2f;
  p = p * z + 7.4953002686e-2f;
  p = p * z + 1.6666752422e-1f;
  const float correction = p * z * w;
  if (!far) return 1.57079637050628662f - (w + (correction - -4.37113900630947e-8f));
  const float two_asin = (w + correction) * 2.0f;
  if (x < 0.0f) return 3.14159274101257324f - (two_asin - -8.74227801261895e-8f);
  return two_asin;
}

}  // namespace swarm::reference
