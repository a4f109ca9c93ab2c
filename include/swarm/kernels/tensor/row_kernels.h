// Row kernels behind the tensor operations (swarm/tensor/tensor_ops.h): elementwise arithmetic on
// f32 rows where each input is contiguous or a broadcast scalar, and deterministic reductions of
// f32 rows into fixed lane states that the engine can feed several rows in a fixed order.
//
// Rows here are raw user memory (slices of tensor views), not swarm's padded buffers: kernels
// never read or write an element past `count`. The last partial vector of a row goes through a
// small stack copy, because a masked load may still touch the whole vector on some targets.
//
// Elementwise semantics (identical on every SIMD target): add, sub, mul and div are the single
// correctly rounded IEEE operation; min(a, b) and max(a, b) are the smaller and larger value with
// -0 ordered below +0, so min(-0, +0) = -0 and max(-0, +0) = +0 in either argument order (IEEE
// 754-2019 minimum / maximum), and NaN if either operand is NaN (like numpy's np.minimum and
// np.maximum). Comparisons (<, <=, >, >=, ==, !=) give 1.0f when true and 0.0f when false: false
// with a NaN operand, except != which is true; -0 == +0. Logical and / or treat an operand as true
// when it is not zero (NaN is true, as numpy's bool(nan)) and give 1.0f or 0.0f.
// Every NaN result is the quiet NaN std::numeric_limits<float>::quiet_NaN()
// (0x7fc00000): IEEE leaves a NaN result's payload open, x86 takes an operand's by position and
// compilers may swap the operands of commutative operations, so only a fixed NaN is portable.
//
// Reduction semantics (the "lane state" of a reduction):
//   A state has kReduceLanes accumulators and counts the elements it has seen. The k-th element
//   it sees (counting across every row accumulated into it) goes to accumulator k mod 32:
//     - sum: the float is converted to double and added to the accumulator, accumulators start
//       at -0.0 (the exact additive identity, so a sum of -0s is -0) and each adds its elements
//       in the order seen;
//     - min / max: the accumulator keeps the smaller / larger value with -0 below +0, and the
//       state remembers whether any element was NaN.
//   Finishing combines the 32 accumulators with a fixed pairwise tree: a[i] = a[i] op a[i + 16]
//   for i < 16, then a[i] op a[i + 8] for i < 8, ..., then a[0] op a[1]. Every target runs exactly
//   these double additions in this order, so the result has the same bits on AVX3 (16 float
//   lanes), AVX2, SSE4 and SCALAR alike; a NaN sum is the quiet NaN, as above. A sum of n
//   elements has a rounding error of at most about (n / 32 + 5) * 2^-53 times the sum of
//   magnitudes: ~3e-10 relative at n = 1e8 for same-signed data.
//   Min / max return the quiet NaN if any element seen was NaN. They are exact, so without NaN
//   their result does not depend on the order at all.
//
// Reference implementations for tests: swarm/kernels/tensor/row_kernels_reference.h.
#pragma once

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

namespace swarm {

enum class ElementwiseOp : uint8_t {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMin,
  kMax,
  kLess,
  kLessEqual,
  kGreater,
  kGreaterEqual,
  kEqual,
  kNotEqual,
  kAnd,
  kOr,
};
inline constexpr size_t kElementwiseOpCount = 14;

// Calls f(std::integral_constant<ElementwiseOp, op>{}): one instantiation per operation, so loops
// over a row run one operation with no switch inside. Always inlined, and so are the callers'
// lambdas (__attribute__((always_inline)) after their parameters): a short row costs a few
// nanoseconds, and a call through the captures would be a good part of it.
template <class F>
[[gnu::always_inline]] inline decltype(auto) VisitElementwiseOp(ElementwiseOp op, F&& f) {
  using Op = ElementwiseOp;
  switch (op) {
    case Op::kAdd:
      return f(std::integral_constant<Op, Op::kAdd>{});
    case Op::kSub:
      return f(std::integral_constant<Op, Op::kSub>{});
    case Op::kMul:
      return f(std::integral_constant<Op, Op::kMul>{});
    case Op::kDiv:
      return f(std::integral_constant<Op, Op::kDiv>{});
    case Op::kMin:
      return f(std::integral_constant<Op, Op::kMin>{});
    case Op::kMax:
      return f(std::integral_constant<Op, Op::kMax>{});
    case Op::kLess:
      return f(std::integral_constant<Op, Op::kLess>{});
    case Op::kLessEqual:
      return f(std::integral_constant<Op, Op::kLessEqual>{});
    case Op::kGreater:
      return f(std::integral_constant<Op, Op::kGreater>{});
    case Op::kGreaterEqual:
      return f(std::integral_constant<Op, Op::kGreaterEqual>{});
    case Op::kEqual:
      return f(std::integral_constant<Op, Op::kEqual>{});
    case Op::kNotEqual:
      return f(std::integral_constant<Op, Op::kNotEqual>{});
    case Op::kAnd:
      return f(std::integral_constant<Op, Op::kAnd>{});
    case Op::kOr:
      return f(std::integral_constant<Op, Op::kOr>{});
  }
  return f(std::integral_constant<Op, Op::kAdd>{});
}

// out[i] = a[i * a_step] op b[i * b_step] for i in [0, count).
// Preconditions: a_step and b_step are 0 (a broadcast scalar) or 1 (contiguous); out holds
// `count` floats; out may be exactly a or b when that input's step is 1, and overlaps neither
// input otherwise. Nothing past element count - 1 is read or written.
void ElementwiseRow(ElementwiseOp op, const float* a, size_t a_step, const float* b, size_t b_step,
                    float* out, size_t count);
// The same results, with out's whole vectors from its first vector-aligned element on written by
// non-temporal stores (past the caches, without reading out's lines first); for rows of outputs far
// larger than the caches, which nothing reads soon. Stores are ordered before the call returns.
// Preconditions as ElementwiseRow's.
void ElementwiseRowStreamed(ElementwiseOp op, const float* a, size_t a_step, const float* b,
                            size_t b_step, float* out, size_t count);

// Unary operations (fused expressions, swarm/tensor/tensor_expression.h): negation and absolute
// value change the sign bit only; sqrt is the correctly rounded IEEE square root (sqrt(-0) = -0,
// a negative operand gives NaN); not is 1.0f for zero (either sign) and 0.0f otherwise (NaN is
// true, so not NaN is 0). The rest are the casts of an f32 value and back, with CopyInto's and
// small_floats.h's definitions: to f16 and to bf16 round to the nearest value of that type (ties
// to even, overflow to infinity); to bool gives 1.0f for any value but zero; the integer part
// truncates toward zero with +0 for -0 results and 0 for NaN (the integer casts clamp it to
// their range afterwards). Every NaN result is the quiet NaN, as above.
enum class UnaryOp : uint8_t {
  kNeg,
  kAbs,
  kSqrt,
  kNot,
  kRoundF16,
  kRoundBF16,
  kToBool,
  kIntegerPart
};
inline constexpr size_t kUnaryOpCount = 8;
// out[i] = op(a[i]) for i in [0, count); out may be a; nothing past count is read or written.
void UnaryRow(UnaryOp op, const float* a, float* out, size_t count);

// out[i] = mask[i * mask_step] != 0 ? a[i * a_step] : b[i * b_step] (numpy's where; a NaN mask
// element is not zero, so it selects a). The selected floats are copied bit for bit. Steps are 0
// (a broadcast scalar) or 1; out may be exactly any input whose step is 1, and overlaps no input
// otherwise.
void SelectRow(const float* mask, size_t mask_step, const float* a, size_t a_step, const float* b,
               size_t b_step, float* out, size_t count);

// Storage types that rows widen to f32 from and narrow from f32 to (fused expressions and
// conversions of whole rows), with the bits of swarm/kernels/tensor/small_floats.h: f16 and bf16 as
// there; bool widens to 1.0f (any byte but zero) or 0.0f and narrows to 1 (any value but zero,
// NaN included) or 0; u8 widens exactly and narrows as CopyInto casts (truncation toward zero,
// clamped to [0, 255], NaN to 0).
enum class StorageType : uint8_t { kF16, kBF16, kBool, kU8 };
// out[i] = in[i] as f32; `in` holds `count` elements of the type (2 bytes for f16 and bf16, 1
// otherwise), any alignment of its element size.
void WidenRow(StorageType from, const void* in, float* out, size_t count);
// out[i] = in[i] narrowed to the type.
void NarrowRow(StorageType to, const float* in, void* out, size_t count);

// Elementwise rows shorter than this run ElementwiseShortRow: below two AVX-512 vectors, plain
// code (which the compiler vectorizes for the baseline target) costs less than dispatching a
// SIMD kernel. Sums of up to kReduceLanes elements run SumShortRow.
inline constexpr size_t kShortRow = 32;

// Min / max of numbers (no NaN) with -0 below +0: for equal operands the OR of the bits keeps a
// sign bit that either has (their other bits are equal), the AND keeps it only if both have it.
inline float ScalarMin(float a, float b) {
  if (a == b) return std::bit_cast<float>(std::bit_cast<uint32_t>(a) | std::bit_cast<uint32_t>(b));
  return b < a ? b : a;
}
inline float ScalarMax(float a, float b) {
  if (a == b) return std::bit_cast<float>(std::bit_cast<uint32_t>(a) & std::bit_cast<uint32_t>(b));
  return b > a ? b : a;
}

// One element of ElementwiseRow in plain scalar code, with the same bits: the strided rows and
// the short rows run it.
inline float ElementwiseScalar(ElementwiseOp op, float a, float b) {
  const auto truth = [](bool value) { return value ? 1.0f : 0.0f; };
  switch (op) {
    case ElementwiseOp::kLess:
      return truth(a < b);
    case ElementwiseOp::kLessEqual:
      return truth(a <= b);
    case ElementwiseOp::kGreater:
      return truth(a > b);
    case ElementwiseOp::kGreaterEqual:
      return truth(a >= b);
    case ElementwiseOp::kEqual:
      return truth(a == b);
    case ElementwiseOp::kNotEqual:
      return truth(!(a == b));
    case ElementwiseOp::kAnd:
      return truth(!(a == 0.0f) && !(b == 0.0f));
    case ElementwiseOp::kOr:
      return truth(!(a == 0.0f) || !(b == 0.0f));
    default:
      break;
  }
  if (op == ElementwiseOp::kMin || op == ElementwiseOp::kMax) {
    if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<float>::quiet_NaN();
    return op == ElementwiseOp::kMin ? ScalarMin(a, b) : ScalarMax(a, b);
  }
  float result;
  switch (op) {
    case ElementwiseOp::kSub:
      result = a - b;
      break;
    case ElementwiseOp::kMul:
      result = a * b;
      break;
    case ElementwiseOp::kDiv:
      result = a / b;
      break;
    default:
      result = a + b;
  }
  // An arithmetic result is NaN whenever an operand is.
  return std::isnan(result) ? std::numeric_limits<float>::quiet_NaN() : result;
}

// ElementwiseRow of contiguous a, b and out (out may be a or b) in plain scalar code, for short
// rows; the same bits.
inline void ElementwiseShortRow(ElementwiseOp op, const float* a, const float* b, float* out,
                                size_t count) {
  // One loop per operation, so the loop body has no switch.
  VisitElementwiseOp(
      op, [&](auto kOp) __attribute__((always_inline)) {
        for (size_t i = 0; i < count; ++i) out[i] = ElementwiseScalar(kOp, a[i], b[i]);
      });
}
// The same with steps 0 (a broadcast scalar) or 1, as ElementwiseRow takes them.
inline void ElementwiseShortRow(ElementwiseOp op, const float* a, size_t a_step, const float* b,
                                size_t b_step, float* out, size_t count) {
  VisitElementwiseOp(
      op, [&](auto kOp) __attribute__((always_inline)) {
        for (size_t i = 0; i < count; ++i) {
          out[i] = ElementwiseScalar(kOp, a[i * a_step], b[i * b_step]);
        }
      });
}

// The same operation with any strides (in elements, may be negative or zero), one element at a
// time, for rows that no SIMD load can cover. Same results per element as ElementwiseRow.
// Precondition: out's elements do not overlap each other, nor a's or b's except element i of out
// being element i of an input.
void ElementwiseRowStrided(ElementwiseOp op, const float* a, ptrdiff_t a_stride, const float* b,
                           ptrdiff_t b_stride, float* out, ptrdiff_t out_stride, size_t count);

inline constexpr size_t kReduceLanes = 32;

// Accumulators of a deterministic sum (see the reduction semantics above).
struct SumLanes {
  double lanes[kReduceLanes];
  uint64_t count = 0;  // elements seen; the next one goes to lane count % kReduceLanes

  SumLanes() {
    for (double& lane : lanes) lane = -0.0;
  }
};

// Accumulators of a deterministic min or max.
struct ExtremumLanes {
  float lanes[kReduceLanes];
  uint64_t count = 0;
  bool saw_nan = false;

  // A state for min (accumulators +inf) or for max (-inf).
  static ExtremumLanes ForMin() { return ExtremumLanes(std::numeric_limits<float>::infinity()); }
  static ExtremumLanes ForMax() { return ExtremumLanes(-std::numeric_limits<float>::infinity()); }

 private:
  explicit ExtremumLanes(float start) {
    for (float& lane : lanes) lane = start;
  }
};

// Adds the `count` contiguous floats at `row` to the state, in index order.
void AccumulateSum(const float* row, size_t count, SumLanes& state);
// The same for row[0], row[stride], ..., row[(count - 1) * stride] (stride may be negative or
// zero); gives the same state as AccumulateSum on those values copied into a contiguous row.
void AccumulateSumStrided(const float* row, ptrdiff_t stride, size_t count, SumLanes& state);
// The pairwise tree over the accumulators. A state that saw nothing gives +0.0; a NaN result is
// the quiet NaN.
double FinishSum(const SumLanes& state);
// AccumulateSum of the `count` contiguous floats at `row` into a fresh state, then FinishSum, in
// one call (the same bits, less work per call).
double SumRow(const float* row, size_t count);

namespace short_sum {

// Accumulator i of a fresh sum state of the first N floats of `row` after the tree's levels down
// to width W (levels 16, 8, ..., W; kReduceLanes for none): element i (or -0.0 past N) plus what
// each level added to it. Accumulators past N hold -0.0 at every level, and x + -0.0 = x exactly,
// so those adds are left out: what remains is each add the kernels make with an element in it.
template <size_t N, size_t I, size_t W>
inline double Accumulator(const float* row) {
  if constexpr (W == kReduceLanes) {
    return static_cast<double>(row[I]);
  } else if constexpr (I + W >= N) {
    return Accumulator<N, I, 2 * W>(row);
  } else {
    return Accumulator<N, I, 2 * W>(row) + Accumulator<N, I + W, 2 * W>(row);
  }
}

template <size_t... kCounts>
inline double Dispatch(const float* row, size_t count, std::index_sequence<kCounts...>) {
  double sum = 0.0;
  // The sum of a count known at compile time: the tree written out, no loops.
  ((count == kCounts + 1 ? (sum = Accumulator<kCounts + 1, 0, 1>(row), true) : false) || ...);
  return sum;
}

}  // namespace short_sum

// AccumulateSum of `count` <= kReduceLanes floats into a fresh state, then FinishSum, in plain
// scalar code with the same bits (see short_sum::Accumulator).
inline double SumShortRow(const float* row, size_t count) {
  if (count == 0) return 0.0;
  const double sum = short_sum::Dispatch(row, count, std::make_index_sequence<kReduceLanes>());
  return std::isnan(sum) ? std::numeric_limits<double>::quiet_NaN() : sum;
}

// Min / max accumulation of contiguous and strided rows; the state must come from ForMin() for
// the Min functions and from ForMax() for the Max functions.
void AccumulateMin(const float* row, size_t count, ExtremumLanes& state);
void AccumulateMax(const float* row, size_t count, ExtremumLanes& state);
void AccumulateMinStrided(const float* row, ptrdiff_t stride, size_t count, ExtremumLanes& state);
void AccumulateMaxStrided(const float* row, ptrdiff_t stride, size_t count, ExtremumLanes& state);
// The tree over the accumulators, or quiet NaN if any element was NaN. Precondition: the state
// saw at least one element (the minimum of nothing is undefined).
float FinishMin(const ExtremumLanes& state);
float FinishMax(const ExtremumLanes& state);

}  // namespace swarm
