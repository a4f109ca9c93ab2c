#include "swarm/kernels/tensor/row_kernels_reference.h"

#include <cmath>
#include <limits>

#include "swarm/kernels/base/assert.h"
#include "swarm/kernels/tensor/small_floats.h"

namespace swarm::reference {
namespace {

// True if a comes before b in the order -inf < ... < -0 < +0 < ... < +inf (no NaNs).
bool Before(float a, float b) {
  if (a == 0.0f && b == 0.0f) return std::signbit(a) && !std::signbit(b);
  return a < b;
}

// numpy's bool(x): anything but +-0 (NaN included) is true.
bool Truth(float a) { return std::isnan(a) || std::fabs(a) > 0.0f; }

bool AnyNan(const float* values, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (std::isnan(values[i])) return true;
  }
  return false;
}

}  // namespace

float Elementwise(ElementwiseOp op, float a, float b) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  float result = nan;
  switch (op) {
    case ElementwiseOp::kAdd:
      result = a + b;
      break;
    case ElementwiseOp::kSub:
      result = a - b;
      break;
    case ElementwiseOp::kMul:
      result = a * b;
      break;
    case ElementwiseOp::kDiv:
      result = a / b;
      break;
    case ElementwiseOp::kMin:
      if (!std::isnan(a) && !std::isnan(b)) result = Before(b, a) ? b : a;
      break;
    case ElementwiseOp::kMax:
      if (!std::isnan(a) && !std::isnan(b)) result = Before(a, b) ? b : a;
      break;
    // std::isless and friends are IEEE's quiet ordered comparisons: false with a NaN.
    case ElementwiseOp::kLess:
      return std::isless(a, b) ? 1.0f : 0.0f;
    case ElementwiseOp::kLessEqual:
      return std::islessequal(a, b) ? 1.0f : 0.0f;
    case ElementwiseOp::kGreater:
      return std::isgreater(a, b) ? 1.0f : 0.0f;
    case ElementwiseOp::kGreaterEqual:
      return std::isgreaterequal(a, b) ? 1.0f : 0.0f;
    case ElementwiseOp::kEqual:
      return std::islessgreater(a, b) || std::isunordered(a, b) ? 0.0f : 1.0f;
    case ElementwiseOp::kNotEqual:
      return std::islessgreater(a, b) || std::isunordered(a, b) ? 1.0f : 0.0f;
    case ElementwiseOp::kAnd:
      return Truth(a) && Truth(b) ? 1.0f : 0.0f;
    case ElementwiseOp::kOr:
      return Truth(a) || Truth(b) ? 1.0f : 0.0f;
  }
  return std::isnan(result) ? nan : result;
}

float Unary(UnaryOp op, float a) {
  float result = a;
  switch (op) {
    case UnaryOp::kNeg:
      result = -a;
      break;
    case UnaryOp::kAbs:
      result = std::fabs(a);
      break;
    case UnaryOp::kSqrt:
      result = std::sqrt(a);
      break;
    case UnaryOp::kNot:
      return Truth(a) ? 0.0f : 1.0f;
    case UnaryOp::kToBool:
      return Truth(a) ? 1.0f : 0.0f;
    case UnaryOp::kRoundF16:
      return ToFloat(ToFloat16(a));
    case UnaryOp::kRoundBF16:
      return ToFloat(ToBFloat16(a));
    case UnaryOp::kIntegerPart:
      // What a cast to an unbounded integer and back gives: no -0, and NaN as 0.
      if (std::isnan(a)) return 0.0f;
      if (std::trunc(a) == 0.0f) return 0.0f;
      return std::trunc(a);
  }
  return std::isnan(result) ? std::numeric_limits<float>::quiet_NaN() : result;
}

void ElementwiseRow(ElementwiseOp op, const float* a, ptrdiff_t a_step, const float* b,
                    ptrdiff_t b_step, float* out, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    const auto at = static_cast<ptrdiff_t>(i);
    out[i] = Elementwise(op, a[at * a_step], b[at * b_step]);
  }
}

double Sum(const float* values, size_t count) {
  if (count == 0) return 0.0;
  double lanes[kReduceLanes];
  for (double& lane : lanes) lane = -0.0;
  for (size_t k = 0; k < count; ++k) lanes[k % kReduceLanes] += static_cast<double>(values[k]);
  for (size_t half = kReduceLanes / 2; half >= 1; half /= 2) {
    for (size_t i = 0; i < half; ++i) lanes[i] += lanes[i + half];
  }
  return std::isnan(lanes[0]) ? std::numeric_limits<double>::quiet_NaN() : lanes[0];
}

float Min(const float* values, size_t count) {
  SWARM_ASSERT(count >= 1);
  if (AnyNan(values, count)) return std::numeric_limits<float>::quiet_NaN();
  float best = values[0];
  for (size_t i = 1; i < count; ++i) {
    if (Before(values[i], best)) best = values[i];
  }
  return best;
}

float Max(const float* values, size_t count) {
  SWARM_ASSERT(count >= 1);
  if (AnyNan(values, count)) return std::numeric_limits<float>::quiet_NaN();
  float best = values[0];
  for (size_t i = 1; i < count; ++i) {
    if (Before(best, values[i])) best = values[i];
  }
  return best;
}

}  // namespace swarm::reference
