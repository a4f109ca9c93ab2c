// Per-target code of the tensor row kernels (see swarm/kernels/tensor/row_kernels.h for the
// semantics).
//
// Elementwise rows: whole vectors load and store directly; the last partial vector copies its
// inputs into stack buffers, computes a whole vector there and copies `count - i` results out, so
// nothing outside the caller's row is touched (rows are views of user memory without padding).
//
// Reductions: the 32 accumulators of a lane state live in a local copy, kReduceLanes / Lanes(d)
// vectors of an AccumulatorTag (AVX3: 4 vectors of 8 doubles for a sum; SCALAR: 32 single lanes),
// vector k holding accumulators [k * Lanes, (k + 1) * Lanes). A block of 32 elements starting at a
// multiple of 32 in the state's count then puts element j into accumulator j, exactly the scalar
// definition; elements before the first such block and after the last go one by one into their
// accumulator. Each accumulator therefore sees the same additions in the same order on every
// target and for every vector length.
//
// Why a capped tag and an array of accumulators rather than an array of vectors: SVE vectors are
// sizeless (C++ allows them neither as array elements nor as struct members) and their length is
// known only at run time. Capping the tag at 32 lanes keeps every target's vector a power of two
// that divides 32 (SVE's Lanes() counts a power-of-two part of the register), so the accumulators
// always fill whole vectors. The cap binds only for min / max on SVE vectors longer than 1024
// bits: uncapped, a 2048-bit vector holds 64 floats, twice the accumulators (a static_assert of
// kReduceLanes % MaxLanes == 0 fails to compile for SVE and SVE2); a sum's vector holds at most
// 32 doubles anyway. The number of vectors is a run-time count on SVE and a
// constant elsewhere: on fixed-width targets the inner loop over the vectors unrolls with constant
// offsets and the accumulators stay in registers (the same loop instructions as an array of
// vectors); on SVE they are loads and stores of the local array, which stay in L1.

#if defined(SWARM_KERNELS_TENSOR_OPS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_TENSOR_OPS_INL_H_
#undef SWARM_KERNELS_TENSOR_OPS_INL_H_
#else
#define SWARM_KERNELS_TENSOR_OPS_INL_H_
#endif

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include "hwy/highway.h"
#include "kernels/tensor/small_floats-inl.h"
#include "swarm/kernels/tensor/row_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// --- elementwise ---

// -0 below +0 without a branch: for equal operands the bitwise OR of min keeps a sign bit that
// either has (their other bits are equal), the AND of max keeps it only if both have it.
// NaN results become the one quiet NaN (IEEE leaves the payload open, x86 takes an operand's by
// position, and compilers may swap the operands of commutative operations).
// Comparisons are ordered (false with a NaN) except != , which is the negation of ==; "not zero"
// is the negation of == 0, so NaN is true. Each gives 1.0f or 0.0f.
template <ElementwiseOp kOp, class D>
HWY_INLINE hn::Vec<D> Apply(D d, hn::Vec<D> a, hn::Vec<D> b) {
  const auto nan = hn::Set(d, std::numeric_limits<float>::quiet_NaN());
  const auto one = hn::Set(d, 1.0f);
  const auto zero = hn::Zero(d);
  if constexpr (kOp == ElementwiseOp::kLess) return hn::IfThenElseZero(hn::Lt(a, b), one);
  if constexpr (kOp == ElementwiseOp::kLessEqual) return hn::IfThenElseZero(hn::Le(a, b), one);
  if constexpr (kOp == ElementwiseOp::kGreater) return hn::IfThenElseZero(hn::Gt(a, b), one);
  if constexpr (kOp == ElementwiseOp::kGreaterEqual) return hn::IfThenElseZero(hn::Ge(a, b), one);
  if constexpr (kOp == ElementwiseOp::kEqual) return hn::IfThenElseZero(hn::Eq(a, b), one);
  if constexpr (kOp == ElementwiseOp::kNotEqual) return hn::IfThenZeroElse(hn::Eq(a, b), one);
  if constexpr (kOp == ElementwiseOp::kAnd) {
    return hn::IfThenZeroElse(hn::Or(hn::Eq(a, zero), hn::Eq(b, zero)), one);
  }
  if constexpr (kOp == ElementwiseOp::kOr) {
    return hn::IfThenZeroElse(hn::And(hn::Eq(a, zero), hn::Eq(b, zero)), one);
  }
  if constexpr (kOp == ElementwiseOp::kMin || kOp == ElementwiseOp::kMax) {
    const auto ordered = kOp == ElementwiseOp::kMin
                             ? hn::IfThenElse(hn::Eq(a, b), hn::Or(a, b), hn::Min(a, b))
                             : hn::IfThenElse(hn::Eq(a, b), hn::And(a, b), hn::Max(a, b));
    return hn::IfThenElse(hn::Or(hn::IsNaN(a), hn::IsNaN(b)), nan, ordered);
  } else if constexpr (kOp == ElementwiseOp::kAdd || kOp == ElementwiseOp::kSub ||
                       kOp == ElementwiseOp::kMul || kOp == ElementwiseOp::kDiv) {
    hn::Vec<D> result;
    if constexpr (kOp == ElementwiseOp::kAdd) result = hn::Add(a, b);
    if constexpr (kOp == ElementwiseOp::kSub) result = hn::Sub(a, b);
    if constexpr (kOp == ElementwiseOp::kMul) result = hn::Mul(a, b);
    if constexpr (kOp == ElementwiseOp::kDiv) result = hn::Div(a, b);
    return hn::IfThenElse(hn::IsNaN(result), nan, result);
  }
}

// kABroadcast / kBBroadcast: the input is one scalar (step 0) rather than a row (step 1).
// kStream: whole vectors of an aligned out go out by non-temporal stores.
template <ElementwiseOp kOp, bool kABroadcast, bool kBBroadcast, bool kStream = false>
HWY_INLINE void ElementwiseLoop(const float* a, const float* b, float* out, size_t count) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  const auto a_scalar = hn::Set(d, *a);  // callers guarantee count >= 1
  const auto b_scalar = hn::Set(d, *b);
  size_t i = 0;
  if (kStream && reinterpret_cast<uintptr_t>(out) % (lanes * sizeof(float)) == 0) {
    for (; i + lanes <= count; i += lanes) {
      const auto va = kABroadcast ? a_scalar : hn::LoadU(d, a + i);
      const auto vb = kBBroadcast ? b_scalar : hn::LoadU(d, b + i);
      hn::Stream(Apply<kOp>(d, va, vb), d, out + i);
    }
#if HWY_ARCH_X86
    _mm_sfence();  // non-temporal stores are weakly ordered: complete them before returning
#endif
  }
  for (; i + lanes <= count; i += lanes) {
    const auto va = kABroadcast ? a_scalar : hn::LoadU(d, a + i);
    const auto vb = kBBroadcast ? b_scalar : hn::LoadU(d, b + i);
    hn::StoreU(Apply<kOp>(d, va, vb), d, out + i);
  }
  if (i == count) return;
  const size_t rest = count - i;
  constexpr size_t kMaxLanes = hn::MaxLanes(decltype(d)());
  HWY_ALIGN float tail_a[kMaxLanes] = {};
  HWY_ALIGN float tail_b[kMaxLanes] = {};
  HWY_ALIGN float tail_out[kMaxLanes];
  if (!kABroadcast) std::memcpy(tail_a, a + i, rest * sizeof(float));
  if (!kBBroadcast) std::memcpy(tail_b, b + i, rest * sizeof(float));
  const auto va = kABroadcast ? a_scalar : hn::Load(d, tail_a);
  const auto vb = kBBroadcast ? b_scalar : hn::Load(d, tail_b);
  hn::Store(Apply<kOp>(d, va, vb), d, tail_out);
  std::memcpy(out + i, tail_out, rest * sizeof(float));
}

template <ElementwiseOp kOp>
HWY_INLINE void ElementwiseSteps(const float* a, size_t a_step, const float* b, size_t b_step,
                                 float* out, size_t count) {
  if (a_step == 0 && b_step == 0) return ElementwiseLoop<kOp, true, true>(a, b, out, count);
  if (a_step == 0) return ElementwiseLoop<kOp, true, false>(a, b, out, count);
  if (b_step == 0) return ElementwiseLoop<kOp, false, true>(a, b, out, count);
  return ElementwiseLoop<kOp, false, false>(a, b, out, count);
}

// Ordinary stores up to the first vector-aligned element of out, then streamed vectors.
template <ElementwiseOp kOp, bool kA, bool kB>
HWY_INLINE void StreamedLoop(const float* a, const float* b, float* out, size_t count) {
  const size_t vector_bytes = hn::Lanes(hn::ScalableTag<float>()) * sizeof(float);
  const auto address = reinterpret_cast<uintptr_t>(out);
  size_t head = count;  // an out not even float-aligned is never streamed
  if (address % sizeof(float) == 0) {
    head = std::min(count, (vector_bytes - address % vector_bytes) % vector_bytes / sizeof(float));
  }
  if (head > 0) ElementwiseLoop<kOp, kA, kB, false>(a, b, out, head);
  if (head == count) return;
  ElementwiseLoop<kOp, kA, kB, true>(kA ? a : a + head, kB ? b : b + head, out + head,
                                     count - head);
}

template <ElementwiseOp kOp>
HWY_INLINE void StridedLoop(const float* a, ptrdiff_t a_stride, const float* b, ptrdiff_t b_stride,
                            float* out, ptrdiff_t out_stride, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    const auto at = static_cast<ptrdiff_t>(i);
    out[at * out_stride] = ElementwiseScalar(kOp, a[at * a_stride], b[at * b_stride]);
  }
}

// The row functions of one operation.
template <ElementwiseOp kOp>
struct RowKernels {
  static void Stepped(const float* a, size_t a_step, const float* b, size_t b_step, float* out,
                      size_t count) {
    ElementwiseSteps<kOp>(a, a_step, b, b_step, out, count);
  }
  static void Streamed(const float* a, size_t a_step, const float* b, size_t b_step, float* out,
                       size_t count) {
    if (a_step == 0 && b_step == 0) return StreamedLoop<kOp, true, true>(a, b, out, count);
    if (a_step == 0) return StreamedLoop<kOp, true, false>(a, b, out, count);
    if (b_step == 0) return StreamedLoop<kOp, false, true>(a, b, out, count);
    return StreamedLoop<kOp, false, false>(a, b, out, count);
  }
  static void Strided(const float* a, ptrdiff_t a_stride, const float* b, ptrdiff_t b_stride,
                      float* out, ptrdiff_t out_stride, size_t count) {
    StridedLoop<kOp>(a, a_stride, b, b_stride, out, out_stride, count);
  }
};

// A table of one function per operation, indexed by the operation's value: a lookup and a
// direct call per row, where a generic lambda per operation would cost a call through its
// captures on top (a few nanoseconds, much of a short row's time).
template <class Pick, size_t... kIndex>
constexpr auto OpTable(Pick pick, std::index_sequence<kIndex...>) {
  return std::array{
      pick(std::integral_constant<ElementwiseOp, static_cast<ElementwiseOp>(kIndex)>())...};
}
inline constexpr auto kSteppedRows =
    OpTable([](auto op) { return &RowKernels<decltype(op)::value>::Stepped; },
            std::make_index_sequence<kElementwiseOpCount>());
inline constexpr auto kStreamedRows =
    OpTable([](auto op) { return &RowKernels<decltype(op)::value>::Streamed; },
            std::make_index_sequence<kElementwiseOpCount>());
inline constexpr auto kStridedRows =
    OpTable([](auto op) { return &RowKernels<decltype(op)::value>::Strided; },
            std::make_index_sequence<kElementwiseOpCount>());

inline void ElementwiseRowImpl(ElementwiseOp op, const float* a, size_t a_step, const float* b,
                               size_t b_step, float* out, size_t count) {
  if (count == 0) return;
  kSteppedRows[static_cast<size_t>(op)](a, a_step, b, b_step, out, count);
}

inline void ElementwiseRowStreamedImpl(ElementwiseOp op, const float* a, size_t a_step,
                                       const float* b, size_t b_step, float* out, size_t count) {
  if (count == 0) return;
  kStreamedRows[static_cast<size_t>(op)](a, a_step, b, b_step, out, count);
}

inline void ElementwiseRowStridedImpl(ElementwiseOp op, const float* a, ptrdiff_t a_stride,
                                      const float* b, ptrdiff_t b_stride, float* out,
                                      ptrdiff_t out_stride, size_t count) {
  kStridedRows[static_cast<size_t>(op)](a, a_stride, b, b_stride, out, out_stride, count);
}

template <UnaryOp kOp, class D>
HWY_INLINE hn::Vec<D> ApplyUnary(D d, hn::Vec<D> a) {
  const auto one = hn::Set(d, 1.0f);
  const auto zero = hn::Zero(d);
  if constexpr (kOp == UnaryOp::kNot) return hn::IfThenElseZero(hn::Eq(a, zero), one);
  if constexpr (kOp == UnaryOp::kToBool) return hn::IfThenZeroElse(hn::Eq(a, zero), one);
  if constexpr (kOp == UnaryOp::kRoundF16) return WidenF16Bits(d, NarrowF16Bits(d, a));
  if constexpr (kOp == UnaryOp::kRoundBF16) return WidenBF16Bits(d, NarrowBF16Bits(d, a));
  if constexpr (kOp == UnaryOp::kIntegerPart) {
    // + 0 turns a -0 integer part into +0, as a cast to an integer and back does.
    return hn::IfThenZeroElse(hn::IsNaN(a), hn::Add(hn::Trunc(a), zero));
  }
  if constexpr (kOp == UnaryOp::kNeg || kOp == UnaryOp::kAbs || kOp == UnaryOp::kSqrt) {
    hn::Vec<D> result;
    if constexpr (kOp == UnaryOp::kNeg) result = hn::Neg(a);
    if constexpr (kOp == UnaryOp::kAbs) result = hn::Abs(a);
    if constexpr (kOp == UnaryOp::kSqrt) result = hn::Sqrt(a);
    return hn::IfThenElse(hn::IsNaN(result), hn::Set(d, std::numeric_limits<float>::quiet_NaN()),
                          result);
  }
}

template <UnaryOp kOp>
HWY_INLINE void UnaryLoop(const float* a, float* out, size_t count) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  size_t i = 0;
  for (; i + lanes <= count; i += lanes) {
    hn::StoreU(ApplyUnary<kOp>(d, hn::LoadU(d, a + i)), d, out + i);
  }
  if (i == count) return;
  // The last partial vector through a stack copy, as ElementwiseLoop does.
  const size_t rest = count - i;
  HWY_ALIGN float tail[hn::MaxLanes(decltype(d)())] = {};
  std::memcpy(tail, a + i, rest * sizeof(float));
  hn::Store(ApplyUnary<kOp>(d, hn::Load(d, tail)), d, tail);
  std::memcpy(out + i, tail, rest * sizeof(float));
}

inline void UnaryRowImpl(UnaryOp op, const float* a, float* out, size_t count) {
  switch (op) {
    case UnaryOp::kNeg:
      return UnaryLoop<UnaryOp::kNeg>(a, out, count);
    case UnaryOp::kAbs:
      return UnaryLoop<UnaryOp::kAbs>(a, out, count);
    case UnaryOp::kSqrt:
      return UnaryLoop<UnaryOp::kSqrt>(a, out, count);
    case UnaryOp::kNot:
      return UnaryLoop<UnaryOp::kNot>(a, out, count);
    case UnaryOp::kRoundF16:
      return UnaryLoop<UnaryOp::kRoundF16>(a, out, count);
    case UnaryOp::kRoundBF16:
      return UnaryLoop<UnaryOp::kRoundBF16>(a, out, count);
    case UnaryOp::kToBool:
      return UnaryLoop<UnaryOp::kToBool>(a, out, count);
    case UnaryOp::kIntegerPart:
      return UnaryLoop<UnaryOp::kIntegerPart>(a, out, count);
  }
}

// --- select ---

// kMaskScalar, kAScalar, kBScalar: that input is one broadcast value rather than a row.
template <bool kMaskScalar, bool kAScalar, bool kBScalar>
HWY_INLINE void SelectLoop(const float* mask, const float* a, const float* b, float* out,
                           size_t count) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  const auto zero = hn::Zero(d);
  const auto mask_scalar = hn::Set(d, *mask);  // callers guarantee count >= 1
  const auto a_scalar = hn::Set(d, *a);
  const auto b_scalar = hn::Set(d, *b);
  // A blend moves bits (no arithmetic), so a NaN operand keeps its payload as numpy's where does.
  const auto select = [&](auto vm, auto va, auto vb) {
    return hn::IfThenElse(hn::Eq(vm, zero), vb, va);
  };
  size_t i = 0;
  for (; i + lanes <= count; i += lanes) {
    const auto vm = kMaskScalar ? mask_scalar : hn::LoadU(d, mask + i);
    const auto va = kAScalar ? a_scalar : hn::LoadU(d, a + i);
    const auto vb = kBScalar ? b_scalar : hn::LoadU(d, b + i);
    hn::StoreU(select(vm, va, vb), d, out + i);
  }
  if (i == count) return;
  const size_t rest = count - i;
  constexpr size_t kMaxLanes = hn::MaxLanes(decltype(d)());
  HWY_ALIGN float tail_mask[kMaxLanes] = {};
  HWY_ALIGN float tail_a[kMaxLanes] = {};
  HWY_ALIGN float tail_b[kMaxLanes] = {};
  if (!kMaskScalar) std::memcpy(tail_mask, mask + i, rest * sizeof(float));
  if (!kAScalar) std::memcpy(tail_a, a + i, rest * sizeof(float));
  if (!kBScalar) std::memcpy(tail_b, b + i, rest * sizeof(float));
  const auto vm = kMaskScalar ? mask_scalar : hn::Load(d, tail_mask);
  const auto va = kAScalar ? a_scalar : hn::Load(d, tail_a);
  const auto vb = kBScalar ? b_scalar : hn::Load(d, tail_b);
  hn::Store(select(vm, va, vb), d, tail_a);
  std::memcpy(out + i, tail_a, rest * sizeof(float));
}

inline void SelectRowImpl(const float* mask, size_t mask_step, const float* a, size_t a_step,
                          const float* b, size_t b_step, float* out, size_t count) {
  const int steps = (mask_step == 0 ? 4 : 0) | (a_step == 0 ? 2 : 0) | (b_step == 0 ? 1 : 0);
  switch (steps) {
    case 0:
      return SelectLoop<false, false, false>(mask, a, b, out, count);
    case 1:
      return SelectLoop<false, false, true>(mask, a, b, out, count);
    case 2:
      return SelectLoop<false, true, false>(mask, a, b, out, count);
    case 3:
      return SelectLoop<false, true, true>(mask, a, b, out, count);
    case 4:
      return SelectLoop<true, false, false>(mask, a, b, out, count);
    case 5:
      return SelectLoop<true, false, true>(mask, a, b, out, count);
    case 6:
      return SelectLoop<true, true, false>(mask, a, b, out, count);
    default:
      return SelectLoop<true, true, true>(mask, a, b, out, count);
  }
}

// --- widening and narrowing rows ---

// One vector of f32 from `lanes` elements of the storage type at `in` (whole vectors only).
template <StorageType kType, class DF>
HWY_INLINE hn::Vec<DF> WidenVector(DF df, const void* in) {
  const hn::RebindToSigned<DF> di;
  if constexpr (kType == StorageType::kF16 || kType == StorageType::kBF16) {
    const hn::Rebind<uint16_t, DF> d16;
    const auto bits =
        hn::BitCast(di, hn::PromoteTo(hn::RebindToUnsigned<DF>(),
                                      hn::LoadU(d16, static_cast<const uint16_t*>(in))));
    return kType == StorageType::kF16 ? WidenF16Bits(df, bits) : WidenBF16Bits(df, bits);
  } else {
    const hn::Rebind<uint8_t, DF> d8;
    const auto bytes = hn::PromoteTo(di, hn::LoadU(d8, static_cast<const uint8_t*>(in)));
    if constexpr (kType == StorageType::kU8) return hn::ConvertTo(df, bytes);
    return hn::IfThenZeroElse(hn::RebindMask(df, hn::Eq(bytes, hn::Zero(di))), hn::Set(df, 1.0f));
  }
}

template <StorageType kType, class DF>
HWY_INLINE void NarrowVector(DF df, hn::Vec<DF> value, void* out) {
  const hn::RebindToSigned<DF> di;
  if constexpr (kType == StorageType::kF16 || kType == StorageType::kBF16) {
    const auto bits =
        kType == StorageType::kF16 ? NarrowF16Bits(df, value) : NarrowBF16Bits(df, value);
    const hn::Rebind<uint16_t, DF> d16;
    hn::StoreU(hn::DemoteTo(d16, bits), d16, static_cast<uint16_t*>(out));
  } else {
    const hn::Rebind<uint8_t, DF> d8;
    hn::Vec<decltype(di)> integers;
    if constexpr (kType == StorageType::kBool) {
      integers =
          hn::IfThenZeroElse(hn::RebindMask(di, hn::Eq(value, hn::Zero(df))), hn::Set(di, 1));
    } else {
      // NaN to 0, then clamp and truncate: in range, the conversion cannot overflow.
      const auto clean = hn::IfThenZeroElse(hn::IsNaN(value), value);
      const auto clamped = hn::Min(hn::Max(clean, hn::Zero(df)), hn::Set(df, 255.0f));
      integers = hn::ConvertTo(di, clamped);
    }
    hn::StoreU(hn::DemoteTo(d8, integers), d8, static_cast<uint8_t*>(out));
  }
}

constexpr size_t StorageBytes(StorageType type) {
  return type == StorageType::kF16 || type == StorageType::kBF16 ? 2 : 1;
}

template <StorageType kType>
HWY_INLINE void WidenLoop(const void* in, float* out, size_t count) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  constexpr size_t kBytes = StorageBytes(kType);
  const auto* bytes = static_cast<const uint8_t*>(in);
  size_t i = 0;
  for (; i + lanes <= count; i += lanes)
    hn::StoreU(WidenVector<kType>(d, bytes + i * kBytes), d, out + i);
  if (i == count) return;
  const size_t rest = count - i;
  constexpr size_t kMaxLanes = hn::MaxLanes(decltype(d)());
  HWY_ALIGN uint8_t tail_in[kMaxLanes * kBytes] = {};
  HWY_ALIGN float tail_out[kMaxLanes];
  std::memcpy(tail_in, bytes + i * kBytes, rest * kBytes);
  hn::Store(WidenVector<kType>(d, tail_in), d, tail_out);
  std::memcpy(out + i, tail_out, rest * sizeof(float));
}

template <StorageType kType>
HWY_INLINE void NarrowLoop(const float* in, void* out, size_t count) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  constexpr size_t kBytes = StorageBytes(kType);
  auto* bytes = static_cast<uint8_t*>(out);
  size_t i = 0;
  for (; i + lanes <= count; i += lanes)
    NarrowVector<kType>(d, hn::LoadU(d, in + i), bytes + i * kBytes);
  if (i == count) return;
  const size_t rest = count - i;
  constexpr size_t kMaxLanes = hn::MaxLanes(decltype(d)());
  HWY_ALIGN float tail_in[kMaxLanes] = {};
  HWY_ALIGN uint8_t tail_out[kMaxLanes * kBytes];
  std::memcpy(tail_in, in + i, rest * sizeof(float));
  NarrowVector<kType>(d, hn::Load(d, tail_in), tail_out);
  std::memcpy(bytes + i * kBytes, tail_out, rest * kBytes);
}

inline void WidenRowImpl(StorageType from, const void* in, float* out, size_t count) {
  switch (from) {
    case StorageType::kF16:
      return WidenLoop<StorageType::kF16>(in, out, count);
    case StorageType::kBF16:
      return WidenLoop<StorageType::kBF16>(in, out, count);
    case StorageType::kBool:
      return WidenLoop<StorageType::kBool>(in, out, count);
    case StorageType::kU8:
      return WidenLoop<StorageType::kU8>(in, out, count);
  }
}

inline void NarrowRowImpl(StorageType to, const float* in, void* out, size_t count) {
  switch (to) {
    case StorageType::kF16:
      return NarrowLoop<StorageType::kF16>(in, out, count);
    case StorageType::kBF16:
      return NarrowLoop<StorageType::kBF16>(in, out, count);
    case StorageType::kBool:
      return NarrowLoop<StorageType::kBool>(in, out, count);
    case StorageType::kU8:
      return NarrowLoop<StorageType::kU8>(in, out, count);
  }
}

// --- sum ---

// The vectors of the reductions: at most kReduceLanes lanes, so that they divide the accumulators.
template <typename T>
using AccumulatorTag = hn::CappedTag<T, kReduceLanes>;

// The state's accumulators are copied into a local array for the block loop: a local whose
// address never escapes cannot alias the row, so the compiler may keep it in registers, whereas
// Highway's loads and stores may alias anything and would pin state.lanes to memory.
inline void AccumulateSumImpl(const float* row, size_t count, SumLanes& state) {
  const AccumulatorTag<double> dd;
  const hn::Rebind<float, decltype(dd)> df;  // as many floats as dd has doubles
  const size_t lanes = hn::Lanes(dd);
  const size_t vectors = kReduceLanes / lanes;

  size_t i = 0;
  const size_t phase = state.count % kReduceLanes;
  if (phase != 0) {
    for (; i < count && phase + i < kReduceLanes; ++i) {
      state.lanes[phase + i] += static_cast<double>(row[i]);
    }
  }
  if (i + kReduceLanes <= count) {
    HWY_ALIGN double sums[kReduceLanes];
    std::memcpy(sums, state.lanes, sizeof(sums));
    for (; i + kReduceLanes <= count; i += kReduceLanes) {
      for (size_t k = 0; k < vectors; ++k) {
        double* sum = sums + k * lanes;
        const auto values = hn::PromoteTo(dd, hn::LoadU(df, row + i + k * lanes));
        hn::Store(hn::Add(hn::Load(dd, sum), values), dd, sum);
      }
    }
    std::memcpy(state.lanes, sums, sizeof(sums));
  }
  // Here either the row ended within the head, or i - head is a multiple of 32 and the next
  // element goes to accumulator 0.
  for (; i < count; ++i) {
    state.lanes[(phase + i) % kReduceLanes] += static_cast<double>(row[i]);
  }
  state.count += count;
}

// AccumulateSum of a whole row into a fresh state, then FinishSum, in one call: the
// accumulators stay in one local array from the first element to the tree, whose levels of at
// least a vector of doubles are vector adds (the same pairs, so the same bits).
inline double SumRowImpl(const float* row, size_t count) {
  const AccumulatorTag<double> dd;
  const hn::Rebind<float, decltype(dd)> df;
  const size_t lanes = hn::Lanes(dd);
  HWY_ALIGN double sums[kReduceLanes];
  for (size_t k = 0; k < kReduceLanes; k += lanes) hn::Store(hn::Set(dd, -0.0), dd, sums + k);
  size_t i = 0;
  for (; i + kReduceLanes <= count; i += kReduceLanes) {
    for (size_t k = 0; k < kReduceLanes; k += lanes) {
      const auto values = hn::PromoteTo(dd, hn::LoadU(df, row + i + k));
      hn::Store(hn::Add(hn::Load(dd, sums + k), values), dd, sums + k);
    }
  }
  for (size_t k = 0; i < count; ++i, ++k) sums[k] += static_cast<double>(row[i]);
  for (size_t width = kReduceLanes / 2; width >= 1; width /= 2) {
    if (width >= lanes) {
      for (size_t k = 0; k < width; k += lanes) {
        hn::Store(hn::Add(hn::Load(dd, sums + k), hn::Load(dd, sums + k + width)), dd, sums + k);
      }
    } else {
      for (size_t k = 0; k < width; ++k) sums[k] += sums[k + width];
    }
  }
  return sums[0];
}

inline void AccumulateSumStridedImpl(const float* row, ptrdiff_t stride, size_t count,
                                     SumLanes& state) {
  size_t lane = state.count % kReduceLanes;
  for (size_t i = 0; i < count; ++i) {
    state.lanes[lane] += static_cast<double>(row[static_cast<ptrdiff_t>(i) * stride]);
    lane = lane + 1 == kReduceLanes ? 0 : lane + 1;
  }
  state.count += count;
}

// --- min / max ---

// The accumulator update without NaN handling: the state records NaN separately and a NaN
// accumulator is never read (Finish returns NaN instead), so these only need the total order
// with -0 below +0 on numbers.
template <bool kMin, class V>
HWY_INLINE V Extremum(V accumulator, V value) {
  if constexpr (kMin) {
    return hn::IfThenElse(hn::Eq(accumulator, value), hn::Or(accumulator, value),
                          hn::Min(accumulator, value));
  } else {
    return hn::IfThenElse(hn::Eq(accumulator, value), hn::And(accumulator, value),
                          hn::Max(accumulator, value));
  }
}

template <bool kMin>
HWY_INLINE void ExtremumScalar(float value, float& accumulator, bool& saw_nan) {
  if (std::isnan(value)) {
    saw_nan = true;
    return;
  }
  accumulator = kMin ? ScalarMin(accumulator, value) : ScalarMax(accumulator, value);
}

// The same blocks as AccumulateSumImpl, with a local copy of the accumulators for the same reason.
template <bool kMin>
HWY_INLINE void AccumulateExtremum(const float* row, size_t count, ExtremumLanes& state) {
  const AccumulatorTag<float> d;
  const size_t lanes = hn::Lanes(d);
  const size_t vectors = kReduceLanes / lanes;

  size_t i = 0;
  const size_t phase = state.count % kReduceLanes;
  if (phase != 0) {
    for (; i < count && phase + i < kReduceLanes; ++i) {
      ExtremumScalar<kMin>(row[i], state.lanes[phase + i], state.saw_nan);
    }
  }
  if (i + kReduceLanes <= count) {
    using V = hn::Vec<decltype(d)>;
    HWY_ALIGN float accumulators[kReduceLanes];
    std::memcpy(accumulators, state.lanes, sizeof(accumulators));
    V nan_seen = hn::Zero(d);
    for (; i + kReduceLanes <= count; i += kReduceLanes) {
      for (size_t k = 0; k < vectors; ++k) {
        float* accumulator = accumulators + k * lanes;
        const V value = hn::LoadU(d, row + i + k * lanes);
        nan_seen = hn::Or(nan_seen, hn::VecFromMask(d, hn::IsNaN(value)));
        hn::Store(Extremum<kMin>(hn::Load(d, accumulator), value), d, accumulator);
      }
    }
    std::memcpy(state.lanes, accumulators, sizeof(accumulators));
    if (!hn::AllFalse(d, hn::MaskFromVec(nan_seen))) state.saw_nan = true;
  }
  for (; i < count; ++i) {
    ExtremumScalar<kMin>(row[i], state.lanes[(phase + i) % kReduceLanes], state.saw_nan);
  }
  state.count += count;
}

template <bool kMin>
HWY_INLINE void AccumulateExtremumStrided(const float* row, ptrdiff_t stride, size_t count,
                                          ExtremumLanes& state) {
  size_t lane = state.count % kReduceLanes;
  for (size_t i = 0; i < count; ++i) {
    ExtremumScalar<kMin>(row[static_cast<ptrdiff_t>(i) * stride], state.lanes[lane], state.saw_nan);
    lane = lane + 1 == kReduceLanes ? 0 : lane + 1;
  }
  state.count += count;
}

inline void AccumulateMinImpl(const float* row, size_t count, ExtremumLanes& state) {
  AccumulateExtremum<true>(row, count, state);
}
inline void AccumulateMaxImpl(const float* row, size_t count, ExtremumLanes& state) {
  AccumulateExtremum<false>(row, count, state);
}
inline void AccumulateMinStridedImpl(const float* row, ptrdiff_t stride, size_t count,
                                     ExtremumLanes& state) {
  AccumulateExtremumStrided<true>(row, stride, count, state);
}
inline void AccumulateMaxStridedImpl(const float* row, ptrdiff_t stride, size_t count,
                                     ExtremumLanes& state) {
  AccumulateExtremumStrided<false>(row, stride, count, state);
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_TENSOR_OPS_INL_H_
