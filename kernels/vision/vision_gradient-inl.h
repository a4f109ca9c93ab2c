// Per-target code of the gradient kernels (swarm/kernels/vision/vision_gradient.h has the maths and
// the operation order). Each output row is two short loops over L1-resident scratch rows:
//   1. vertical: s = smooth(r0, r1, r2), t = r2 - r0 for every column (whole vectors; the scratch
//      is ours, so its tail may hold values computed from the source's row padding), then the
//      reflect-101 margins s[-1], s[width] (and t's) are written: the only border work, per row.
//   2. horizontal: dx, dy, magnitude from s and t at x - 1, x, x + 1; masked last vector.
// So no pixel takes a border branch, the source is read once per output row (three rows), and
// dx and dy share the vertical work, which is what makes the fused pass beat three OpenCV calls.

#if defined(SWARM_KERNELS_VISION_GRADIENT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_VISION_GRADIENT_INL_H_
#undef SWARM_KERNELS_VISION_GRADIENT_INL_H_
#else
#define SWARM_KERNELS_VISION_GRADIENT_INL_H_
#endif

#include <cstddef>
#include <cstdint>

#include "hwy/cache_control.h"
#include "hwy/highway.h"
#include "kernels/base/loop-inl.h"
#include "kernels/base/row_prefetch.h"
#include "swarm/kernels/vision/vision_gradient.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// a * (x + z) + b * y with the Sobel weights a = 1, b = 2: the multiplications by 1 and 2 are
// exact, so these adds give the bits of the general formula with fewer operations.
struct SobelWeights {
  template <class D, class V>
  static HWY_INLINE V Smooth(D, V x, V y, V z) {
    return hn::Add(hn::Add(x, z), hn::Add(y, y));
  }
};
struct ScharrWeights {
  template <class D, class V>
  static HWY_INLINE V Smooth(D d, V x, V y, V z) {
    using T = hn::TFromD<D>;
    return hn::Add(hn::Mul(hn::Set(d, T{3}), hn::Add(x, z)), hn::Mul(hn::Set(d, T{10}), y));
  }
};

// Scratch rows of T (float for f32 sources, int16_t for u8): s and t, each with one vector of
// margin before and after, so s[-1] .. s[RoundUpToVector(width) + kPadElements - 1] exist.
template <typename T>
struct ScratchRows {
  T* s;
  T* t;
};

template <typename T>
HWY_INLINE ScratchRows<T> SplitScratch(const FloatView& scratch, size_t width) {
  T* base = reinterpret_cast<T*>(scratch.data);
  const size_t row = RoundUpToVector<T>(width) + 2 * kPadElements<T>;
  return {base + kPadElements<T>, base + row + kPadElements<T>};
}

// Reflect-101 for the three rows around y (cv::borderInterpolate; a 1-row image reads row 0).
struct RowNeighbours {
  size_t above;
  size_t below;
};
HWY_INLINE RowNeighbours NeighboursOf(size_t y, size_t height) {
  if (height == 1) return {0, 0};
  return {y == 0 ? 1 : y - 1, y + 1 == height ? height - 2 : y + 1};
}

// Writes the reflect-101 margins of one scratch row: row[-1] = row[1], row[width] = row[width-2]
// (a 1-column image reads column 0, as cv::borderInterpolate does).
template <typename T>
HWY_INLINE void ReflectMargins(T* row, size_t width) {
  const T left = row[width > 1 ? 1 : 0];
  const T right = row[width > 1 ? width - 2 : 0];
  row[-1] = left;
  row[width] = right;
}

// Step 1 for f32 sources.
template <class Weights, bool kNeedS, bool kNeedT>
HWY_INLINE void VerticalF32(const float* HWY_RESTRICT r0, const float* HWY_RESTRICT r1,
                            const float* HWY_RESTRICT r2, float* HWY_RESTRICT s,
                            float* HWY_RESTRICT t, size_t width, size_t row_stride) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  const RowPrefetcher<> prefetch(r2, row_stride);
  for (size_t x = 0; x < width; x += lanes) {
    prefetch.AtByte(x * sizeof(float), lanes * sizeof(float));
    const auto a = hn::LoadU(d, r0 + x);
    const auto c = hn::LoadU(d, r2 + x);
    if (kNeedS) hn::StoreU(Weights::Smooth(d, a, hn::LoadU(d, r1 + x), c), d, s + x);
    if (kNeedT) hn::StoreU(hn::Sub(c, a), d, t + x);
  }
  if (kNeedS) ReflectMargins(s, width);
  if (kNeedT) ReflectMargins(t, width);
}

// Step 1 for u8 sources: exact in int16 (|s| <= 16 * 255, |t| <= 255).
template <class Weights, bool kNeedS, bool kNeedT>
HWY_INLINE void VerticalU8(const uint8_t* HWY_RESTRICT r0, const uint8_t* HWY_RESTRICT r1,
                           const uint8_t* HWY_RESTRICT r2, int16_t* HWY_RESTRICT s,
                           int16_t* HWY_RESTRICT t, size_t width, size_t row_stride) {
  const hn::ScalableTag<int16_t> d;
  const hn::Rebind<uint8_t, decltype(d)> d8;
  const size_t lanes = hn::Lanes(d);
  const RowPrefetcher<> prefetch(r2, row_stride);
  for (size_t x = 0; x < width; x += lanes) {
    prefetch.AtByte(x, lanes);
    const auto a =
        hn::BitCast(d, hn::PromoteTo(hn::RebindToUnsigned<decltype(d)>(), hn::LoadU(d8, r0 + x)));
    const auto c =
        hn::BitCast(d, hn::PromoteTo(hn::RebindToUnsigned<decltype(d)>(), hn::LoadU(d8, r2 + x)));
    if (kNeedS) {
      const auto b =
          hn::BitCast(d, hn::PromoteTo(hn::RebindToUnsigned<decltype(d)>(), hn::LoadU(d8, r1 + x)));
      hn::StoreU(Weights::Smooth(d, a, b, c), d, s + x);
    }
    if (kNeedT) hn::StoreU(hn::Sub(c, a), d, t + x);
  }
  if (kNeedS) ReflectMargins(s, width);
  if (kNeedT) ReflectMargins(t, width);
}

// Step 2 for f32 sources: one output row. Full vectors of a large output may be streamed
// (ForEachVectorMaybeStreamed: a 1920x1080 fused pass writes 24 MB, and skipping the
// read-for-ownership of every output line is most of the fused pass's lead over three OpenCV
// calls); the last partial vector is always a masked store, so row padding is never written.
template <class Weights, bool kDx, bool kDy, bool kMagnitude>
HWY_INLINE void HorizontalF32(const float* HWY_RESTRICT s, const float* HWY_RESTRICT t,
                              float* HWY_RESTRICT dx_row, float* HWY_RESTRICT dy_row,
                              float* HWY_RESTRICT magnitude_row, size_t width, bool stream) {
  const hn::ScalableTag<float> d;
  ForEachVectorMaybeStreamed(d, width, stream, [&](size_t x, auto store) HWY_ATTR {
    hn::Vec<decltype(d)> dx, dy;
    if (kDx || kMagnitude) dx = hn::Sub(hn::LoadU(d, s + x + 1), hn::LoadU(d, s + x - 1));
    if (kDy || kMagnitude) {
      dy =
          Weights::Smooth(d, hn::LoadU(d, t + x - 1), hn::LoadU(d, t + x), hn::LoadU(d, t + x + 1));
    }
    if (kDx) store(dx, d, dx_row + x);
    if (kDy) store(dy, d, dy_row + x);
    if (kMagnitude) {
      store(hn::Sqrt(hn::Add(hn::Mul(dx, dx), hn::Mul(dy, dy))), d, magnitude_row + x);
    }
  });
}

// Step 2 for u8 sources, in int32 lanes so the magnitude can be formed in f32 lanes of the same
// count; the int16 results are exact, so narrowing them back is lossless.
template <class Weights, bool kDx, bool kDy, bool kMagnitude>
HWY_INLINE void HorizontalU8(const int16_t* HWY_RESTRICT s, const int16_t* HWY_RESTRICT t,
                             int16_t* HWY_RESTRICT dx_row, int16_t* HWY_RESTRICT dy_row,
                             float* HWY_RESTRICT magnitude_row, size_t width, bool stream) {
  const hn::ScalableTag<float> df;
  const hn::RebindToSigned<decltype(df)> d32;
  const hn::Rebind<int16_t, decltype(d32)> d16;
  // int16 stores are half vectors, which Stream cannot write (x86 streams whole registers).
  ForEachVectorMaybeStreamed(d32, width, stream, [&](size_t x, auto store) HWY_ATTR {
    const auto load = [&](const int16_t* p)
                          HWY_ATTR { return hn::PromoteTo(d32, hn::LoadU(d16, p)); };
    hn::Vec<decltype(d32)> dx, dy;
    if (kDx || kMagnitude) dx = hn::Sub(load(s + x + 1), load(s + x - 1));
    if (kDy || kMagnitude) dy = Weights::Smooth(d32, load(t + x - 1), load(t + x), load(t + x + 1));
    if (kDx) store.Narrow(hn::DemoteTo(d16, dx), d16, dx_row + x);
    if (kDy) store.Narrow(hn::DemoteTo(d16, dy), d16, dy_row + x);
    if (kMagnitude) {
      const auto fx = hn::ConvertTo(df, dx);
      const auto fy = hn::ConvertTo(df, dy);
      store(hn::Sqrt(hn::Add(hn::Mul(fx, fx), hn::Mul(fy, fy))), df, magnitude_row + x);
    }
  });
}

template <typename T>
HWY_INLINE T* RowOrNull(const ImageView<T>& image, size_t y) {
  return image.data == nullptr ? nullptr : image.Row(y);
}

template <class Weights, bool kDx, bool kDy, bool kMagnitude>
void GradientRowsF32(const ConstImageF32View& src, const GradientOutputsF32& out,
                     const FloatView& scratch, size_t begin, size_t end, bool stream) {
  constexpr bool kNeedS = kDx || kMagnitude;
  constexpr bool kNeedT = kDy || kMagnitude;
  const ScratchRows<float> rows = SplitScratch<float>(scratch, src.width);
  for (size_t y = begin; y < end; ++y) {
    const RowNeighbours n = NeighboursOf(y, src.height);
    VerticalF32<Weights, kNeedS, kNeedT>(src.Row(n.above), src.Row(y), src.Row(n.below), rows.s,
                                         rows.t, src.width, src.row_stride);
    HorizontalF32<Weights, kDx, kDy, kMagnitude>(rows.s, rows.t, RowOrNull(out.dx, y),
                                                 RowOrNull(out.dy, y), RowOrNull(out.magnitude, y),
                                                 src.width, stream);
  }
}

template <class Weights, bool kDx, bool kDy, bool kMagnitude>
void GradientRowsU8(const ConstImageU8View& src, const GradientOutputsU8& out,
                    const FloatView& scratch, size_t begin, size_t end, bool stream) {
  constexpr bool kNeedS = kDx || kMagnitude;
  constexpr bool kNeedT = kDy || kMagnitude;
  const ScratchRows<int16_t> rows = SplitScratch<int16_t>(scratch, src.width);
  for (size_t y = begin; y < end; ++y) {
    const RowNeighbours n = NeighboursOf(y, src.height);
    VerticalU8<Weights, kNeedS, kNeedT>(src.Row(n.above), src.Row(y), src.Row(n.below), rows.s,
                                        rows.t, src.width, src.row_stride);
    HorizontalU8<Weights, kDx, kDy, kMagnitude>(rows.s, rows.t, RowOrNull(out.dx, y),
                                                RowOrNull(out.dy, y), RowOrNull(out.magnitude, y),
                                                src.width, stream);
  }
}

// Picks the instantiation for the filter and the set of present outputs (once per call).
template <class Weights, template <class, bool, bool, bool> class Rows, class Src, class Out>
HWY_INLINE void DispatchOutputs(const Src& src, const Out& out, const FloatView& scratch,
                                size_t begin, size_t end, bool stream) {
  const int mask = (out.dx.data != nullptr ? 1 : 0) | (out.dy.data != nullptr ? 2 : 0) |
                   (out.magnitude.data != nullptr ? 4 : 0);
  switch (mask) {
    case 1:
      return Rows<Weights, true, false, false>::Run(src, out, scratch, begin, end, stream);
    case 2:
      return Rows<Weights, false, true, false>::Run(src, out, scratch, begin, end, stream);
    case 3:
      return Rows<Weights, true, true, false>::Run(src, out, scratch, begin, end, stream);
    case 4:
      return Rows<Weights, false, false, true>::Run(src, out, scratch, begin, end, stream);
    case 5:
      return Rows<Weights, true, false, true>::Run(src, out, scratch, begin, end, stream);
    case 6:
      return Rows<Weights, false, true, true>::Run(src, out, scratch, begin, end, stream);
    case 7:
      return Rows<Weights, true, true, true>::Run(src, out, scratch, begin, end, stream);
    default:
      return;
  }
}

template <class Weights, bool kDx, bool kDy, bool kMagnitude>
struct RowsF32 {
  static void Run(const ConstImageF32View& src, const GradientOutputsF32& out,
                  const FloatView& scratch, size_t begin, size_t end, bool stream) {
    GradientRowsF32<Weights, kDx, kDy, kMagnitude>(src, out, scratch, begin, end, stream);
  }
};
template <class Weights, bool kDx, bool kDy, bool kMagnitude>
struct RowsU8 {
  static void Run(const ConstImageU8View& src, const GradientOutputsU8& out,
                  const FloatView& scratch, size_t begin, size_t end, bool stream) {
    GradientRowsU8<Weights, kDx, kDy, kMagnitude>(src, out, scratch, begin, end, stream);
  }
};

inline void GradientF32Impl(GradientFilter filter, const ConstImageF32View& src,
                            const GradientOutputsF32& out, const FloatView& scratch, size_t begin,
                            size_t end, bool stream) {
  if (filter == GradientFilter::kSobel) {
    DispatchOutputs<SobelWeights, RowsF32>(src, out, scratch, begin, end, stream);
  } else {
    DispatchOutputs<ScharrWeights, RowsF32>(src, out, scratch, begin, end, stream);
  }
  // Streamed stores are weakly ordered: make them visible before the caller hands rows on.
  if (stream) hwy::FlushStream();
}

inline void GradientU8Impl(GradientFilter filter, const ConstImageU8View& src,
                           const GradientOutputsU8& out, const FloatView& scratch, size_t begin,
                           size_t end, bool stream) {
  if (filter == GradientFilter::kSobel) {
    DispatchOutputs<SobelWeights, RowsU8>(src, out, scratch, begin, end, stream);
  } else {
    DispatchOutputs<ScharrWeights, RowsU8>(src, out, scratch, begin, end, stream);
  }
  // Streamed stores are weakly ordered: make them visible before the caller hands rows on.
  if (stream) hwy::FlushStream();
}

inline void MagnitudeImpl(const ConstImageF32View& dx, const ConstImageF32View& dy,
                          const ImageF32View& magnitude, size_t begin, size_t end) {
  const hn::ScalableTag<float> d;
  for (size_t y = begin; y < end; ++y) {
    const float* x_row = dx.Row(y);
    const float* y_row = dy.Row(y);
    float* out_row = magnitude.Row(y);
    ForEachVector(d, dx.width, [&](size_t x, auto store) HWY_ATTR {
      const auto gx = hn::LoadU(d, x_row + x);
      const auto gy = hn::LoadU(d, y_row + x);
      store(hn::Sqrt(hn::Add(hn::Mul(gx, gx), hn::Mul(gy, gy))), d, out_row + x);
    });
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_VISION_GRADIENT_INL_H_
