// Per-target code of the smoothing filters (see swarm/kernels/vision/vision_filter.h for the
// semantics).
//
// Each output row is made in two passes through one scratch row of lane type T (float for f32
// images, int32_t for u8 images):
//   1. vertical: scratch[x] = taps over the reflected source rows around y, whole vectors over
//      the row (reading the source's row padding is allowed; those lanes are never stored), then
//      the r pixels left of 0 and right of width-1 are copied in reflected (OpenCV's
//      borderInterpolate) so that
//   2. horizontal: dst[x] = taps over scratch[x - r .. x + r] is a plain unaligned-load loop.
// Symmetric kernels add the mirrored pair first and multiply once (c[0] p[0] + c[1] (p[-1] +
// p[1]) + ...): the same sequence on every target and in the scalar reference. Radii 0-3 are
// unrolled; larger radii accumulate tap by tap.
// Vectors live only in named locals and parameters, never in arrays: SVE vectors are sizeless,
// and C++ allows them neither as array elements nor as struct members. The unrolled passes keep
// their taps in a local scalar array instead (LocalTaps) and broadcast each where it is used.
// All arithmetic is separate Add/Mul (never a fused multiply-add), so f32 results are bitwise
// stable across targets.

#if defined(SWARM_KERNELS_VISION_FILTER_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_VISION_FILTER_INL_H_
#undef SWARM_KERNELS_VISION_FILTER_INL_H_
#else
#define SWARM_KERNELS_VISION_FILTER_INL_H_
#endif

#include <cstddef>
#include <cstdint>

#include "hwy/cache_control.h"
#include "hwy/highway.h"
#include "kernels/base/loop-inl.h"
#include "kernels/base/row_prefetch.h"
#include "swarm/kernels/vision/vision_filter.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

inline constexpr size_t kMaxUnrolledRadius = 3;

template <class D>
HWY_INLINE hn::Vec<D> LoadSource(D d, const float* HWY_RESTRICT p) {
  return hn::LoadU(d, p);
}
template <class D>
HWY_INLINE hn::Vec<D> LoadSource(D d, const uint8_t* HWY_RESTRICT p) {
  const hn::Rebind<uint8_t, D> d8;
  return hn::PromoteTo(d, hn::LoadU(d8, p));
}

// The taps of a pass with a radius fixed at compile time, copied into an array on the stack.
// Nothing a pass stores can alias that array (its address never escapes, unlike the caller's
// taps), so the compiler hoists each hn::Set(d, tap) of Weigh out of the pixel loop and keeps the
// broadcast vectors in registers: the loop is the one named vector locals would give, on x86 as
// on SVE, whose vectors cannot be array elements.
template <size_t kRadius, bool kWeighted, typename T>
HWY_INLINE void LocalTaps(const T* k, T (&taps)[kRadius + 1]) {
  for (size_t i = 0; i <= kRadius; ++i) taps[i] = kWeighted ? k[i] : T{1};
}

// taps[i] * v for the weighted (Gaussian) passes; v itself for the box passes, whose taps are
// all 1 and are never read (they may be null).
template <bool kWeighted, class D, typename T>
HWY_INLINE hn::Vec<D> Weigh(D d, const T* taps, size_t i, hn::Vec<D> v) {
  if constexpr (kWeighted) {
    return hn::Mul(hn::Set(d, taps[i]), v);
  } else {
    return v;
  }
}

// Full vectors of f32 output rows go out with non-temporal stores when `stream` is set (large
// images: the row is not read again soon, and skipping the read-for-ownership of the
// destination saves a third of the memory traffic); the partial last vector is a masked store
// (ForEachVectorMaybeStreamed, kernels/base/loop-inl.h).

// Vertical pass, radius fixed at compile time: row pointers and taps stay in registers.
template <size_t kRadius, bool kWeighted, class D, typename SrcT, typename T>
HWY_INLINE void VerticalFixed(D d, const ImageView<const SrcT>& src, size_t y, const T* k,
                              T* HWY_RESTRICT out, size_t count) {
  const SrcT* up[kRadius + 1];
  const SrcT* down[kRadius + 1];
  for (size_t i = 0; i <= kRadius; ++i) {
    const ptrdiff_t offset = static_cast<ptrdiff_t>(i);
    up[i] = src.Row(Reflect101(static_cast<ptrdiff_t>(y) - offset, src.height));
    down[i] = src.Row(Reflect101(static_cast<ptrdiff_t>(y) + offset, src.height));
  }
  T taps[kRadius + 1];
  LocalTaps<kRadius, kWeighted>(k, taps);
  const size_t lanes = hn::Lanes(d);
  for (size_t x = 0; x < count; x += lanes) {
    auto acc = Weigh<kWeighted>(d, taps, 0, LoadSource(d, up[0] + x));
    for (size_t i = 1; i <= kRadius; ++i) {
      const auto pair = hn::Add(LoadSource(d, up[i] + x), LoadSource(d, down[i] + x));
      acc = hn::Add(acc, Weigh<kWeighted>(d, taps, i, pair));
    }
    hn::StoreU(acc, d, out + x);
  }
}

// Vertical pass, any radius: the same sum, accumulated in `out` one mirrored pair at a time.
template <bool kWeighted, class D, typename SrcT, typename T>
HWY_INLINE void VerticalAny(D d, const ImageView<const SrcT>& src, size_t y, size_t radius,
                            const T* k, T* HWY_RESTRICT out, size_t count) {
  const size_t lanes = hn::Lanes(d);
  const SrcT* center = src.Row(y);
  const RowPrefetcher<> prefetch(
      src.Row(Reflect101(static_cast<ptrdiff_t>(y + radius), src.height)), src.row_stride);
  const auto c0 = hn::Set(d, kWeighted ? k[0] : T{1});
  for (size_t x = 0; x < count; x += lanes) {
    prefetch.AtByte(x * sizeof(SrcT), lanes * sizeof(SrcT));
    auto acc = LoadSource(d, center + x);
    if constexpr (kWeighted) acc = hn::Mul(c0, acc);
    hn::StoreU(acc, d, out + x);
  }
  for (size_t i = 1; i <= radius; ++i) {
    const ptrdiff_t offset = static_cast<ptrdiff_t>(i);
    const SrcT* up = src.Row(Reflect101(static_cast<ptrdiff_t>(y) - offset, src.height));
    const SrcT* down = src.Row(Reflect101(static_cast<ptrdiff_t>(y) + offset, src.height));
    const auto ci = hn::Set(d, kWeighted ? k[i] : T{1});
    for (size_t x = 0; x < count; x += lanes) {
      auto pair = hn::Add(LoadSource(d, up + x), LoadSource(d, down + x));
      if constexpr (kWeighted) pair = hn::Mul(ci, pair);
      hn::StoreU(hn::Add(hn::LoadU(d, out + x), pair), d, out + x);
    }
  }
}

template <size_t kRadius, bool kWeighted, class D, typename T, typename DstT, class Finish>
HWY_INLINE void HorizontalFixed(D d, const T* HWY_RESTRICT row, const T* k, size_t width,
                                DstT* HWY_RESTRICT dst, bool stream, const Finish& finish) {
  T taps[kRadius + 1];
  LocalTaps<kRadius, kWeighted>(k, taps);
  ForEachVectorMaybeStreamed(d, width, stream, [&](size_t x, auto store) HWY_ATTR {
    const T* p = row + x;
    auto acc = Weigh<kWeighted>(d, taps, 0, hn::LoadU(d, p));
    for (size_t i = 1; i <= kRadius; ++i) {
      const auto pair = hn::Add(hn::LoadU(d, p - i), hn::LoadU(d, p + i));
      acc = hn::Add(acc, Weigh<kWeighted>(d, taps, i, pair));
    }
    finish(acc, store, dst + x);
  });
}

template <bool kWeighted, class D, typename T, typename DstT, class Finish>
HWY_INLINE void HorizontalAny(D d, const T* HWY_RESTRICT row, size_t radius, const T* k,
                              size_t width, DstT* HWY_RESTRICT dst, bool stream,
                              const Finish& finish) {
  ForEachVectorMaybeStreamed(d, width, stream, [&](size_t x, auto store) HWY_ATTR {
    const T* p = row + x;
    auto acc = hn::LoadU(d, p);
    if constexpr (kWeighted) acc = hn::Mul(hn::Set(d, k[0]), acc);
    for (size_t i = 1; i <= radius; ++i) {
      auto pair = hn::Add(hn::LoadU(d, p - i), hn::LoadU(d, p + i));
      if constexpr (kWeighted) pair = hn::Mul(hn::Set(d, k[i]), pair);
      acc = hn::Add(acc, pair);
    }
    finish(acc, store, dst + x);
  });
}

template <class D, typename T>
HWY_INLINE void ZeroScratch(D d, T* HWY_RESTRICT scratch, size_t count) {
  for (size_t i = 0; i < count; i += hn::Lanes(d)) hn::StoreU(hn::Zero(d), d, scratch + i);
}

// Copies the reflected pixels into the `radius` scratch elements left of row[0] and right of
// row[width - 1] (OpenCV's borderInterpolate, so also correct when radius >= width).
template <typename T>
HWY_INLINE void FillMargins(T* row, size_t width, size_t radius) {
  const ptrdiff_t w = static_cast<ptrdiff_t>(width);
  for (ptrdiff_t i = 1; i <= static_cast<ptrdiff_t>(radius); ++i) {
    row[-i] = row[Reflect101(-i, width)];
    row[w - 1 + i] = row[Reflect101(w - 1 + i, width)];
  }
}

// Vertical pass for output rows y and y + 1 at once: they share 2 * kRadius of their source
// rows, so each vector needs 2 * kRadius + 2 loads instead of 4 * kRadius + 2. Each row's sum is
// formed exactly as in VerticalFixed (same pairs, same order), so the bits do not change.
// The loads walk outwards from the two centre rows, one row further up and down per tap, and
// each loaded row is used twice, so only the outermost rows read so far are kept (two named
// vectors rather than an array of all 2 * kRadius + 2 rows):
//   before tap i, `top` is source row y + 1 - i and `bottom` row y + i;
//   tap i reads rows y - i and y + 1 + i, and pairs row y's (y - i, y + i) = (new top, bottom)
//   and row y + 1's (y + 1 - i, y + 1 + i) = (top, new bottom).
template <size_t kRadius, bool kWeighted, class D, typename SrcT, typename T>
HWY_INLINE void VerticalFixedPair(D d, const ImageView<const SrcT>& src, size_t y, const T* k,
                                  T* HWY_RESTRICT out0, T* HWY_RESTRICT out1, size_t count) {
  constexpr size_t kRows = 2 * kRadius + 2;
  const SrcT* in[kRows];  // in[j] is source row y - kRadius + j, reflected
  for (size_t j = 0; j < kRows; ++j) {
    const ptrdiff_t sy = static_cast<ptrdiff_t>(y + j) - static_cast<ptrdiff_t>(kRadius);
    in[j] = src.Row(Reflect101(sy, src.height));
  }
  T taps[kRadius + 1];
  LocalTaps<kRadius, kWeighted>(k, taps);
  const size_t lanes = hn::Lanes(d);
  // Each pair of output rows needs two new source rows, so two rows are prefetched per step.
  const RowPrefetcher<2> prefetch(in[kRows - 1], src.row_stride);
  for (size_t x = 0; x < count; x += lanes) {
    prefetch.AtByte(x * sizeof(SrcT), lanes * sizeof(SrcT));
    auto top = LoadSource(d, in[kRadius] + x);
    auto bottom = LoadSource(d, in[kRadius + 1] + x);
    auto acc0 = Weigh<kWeighted>(d, taps, 0, top);
    auto acc1 = Weigh<kWeighted>(d, taps, 0, bottom);
    for (size_t i = 1; i <= kRadius; ++i) {
      const auto new_top = LoadSource(d, in[kRadius - i] + x);
      const auto new_bottom = LoadSource(d, in[kRadius + 1 + i] + x);
      acc0 = hn::Add(acc0, Weigh<kWeighted>(d, taps, i, hn::Add(new_top, bottom)));
      acc1 = hn::Add(acc1, Weigh<kWeighted>(d, taps, i, hn::Add(top, new_bottom)));
      top = new_top;
      bottom = new_bottom;
    }
    hn::StoreU(acc0, d, out0 + x);
    hn::StoreU(acc1, d, out1 + x);
  }
}

// The separable skeleton. Scratch: two rows of `row_elements` (a multiple of kPadFloats) each,
// pixel 0 of a row at its start + margin. kx / ky point at the centre tap (k[i] is tap i ==
// tap -i). Output rows go in pairs through VerticalFixedPair where the radius allows.
template <bool kWeighted, class D, typename SrcT, typename DstT, typename T, class Finish>
HWY_INLINE void SeparableFilter(D d, const ImageView<const SrcT>& src, const ImageView<DstT>& dst,
                                const T* kx, size_t rx, const T* ky, size_t ry, RowRange rows,
                                T* scratch, size_t row_elements, size_t margin, bool stream,
                                const Finish& finish) {
  ZeroScratch(d, scratch, 2 * row_elements);
  T* HWY_RESTRICT row0 = scratch + margin;
  T* HWY_RESTRICT row1 = row0 + row_elements;
  const size_t lanes = hn::Lanes(d);
  const size_t count = (src.width + lanes - 1) / lanes * lanes;
  const auto horizontal = [&](T* row, size_t y) HWY_ATTR {
    FillMargins(row, src.width, rx);
    DstT* out = dst.Row(y);
    switch (rx) {
      case 0:
        HorizontalFixed<0, kWeighted>(d, row, kx, src.width, out, stream, finish);
        break;
      case 1:
        HorizontalFixed<1, kWeighted>(d, row, kx, src.width, out, stream, finish);
        break;
      case 2:
        HorizontalFixed<2, kWeighted>(d, row, kx, src.width, out, stream, finish);
        break;
      case 3:
        HorizontalFixed<3, kWeighted>(d, row, kx, src.width, out, stream, finish);
        break;
      default:
        HorizontalAny<kWeighted>(d, row, rx, kx, src.width, out, stream, finish);
        break;
    }
  };
  const size_t end = rows.end < dst.height ? rows.end : dst.height;
  size_t y = rows.begin;
  if (ry >= 1 && ry <= kMaxUnrolledRadius) {
    for (; y + 2 <= end; y += 2) {
      switch (ry) {
        case 1:
          VerticalFixedPair<1, kWeighted>(d, src, y, ky, row0, row1, count);
          break;
        case 2:
          VerticalFixedPair<2, kWeighted>(d, src, y, ky, row0, row1, count);
          break;
        default:
          VerticalFixedPair<3, kWeighted>(d, src, y, ky, row0, row1, count);
          break;
      }
      horizontal(row0, y);
      horizontal(row1, y + 1);
    }
  }
  for (; y < end; ++y) {
    switch (ry) {
      case 0:
        VerticalFixed<0, kWeighted>(d, src, y, ky, row0, count);
        break;
      case 1:
        VerticalFixed<1, kWeighted>(d, src, y, ky, row0, count);
        break;
      case 2:
        VerticalFixed<2, kWeighted>(d, src, y, ky, row0, count);
        break;
      case 3:
        VerticalFixed<3, kWeighted>(d, src, y, ky, row0, count);
        break;
      default:
        VerticalAny<kWeighted>(d, src, y, ry, ky, row0, count);
        break;
    }
    horizontal(row0, y);
  }
  if (stream) hwy::FlushStream();
}

inline void GaussianF32Impl(const ConstImageF32View& src, const ImageF32View& dst, const float* kx,
                            size_t rx, const float* ky, size_t ry, RowRange rows, float* scratch,
                            size_t row_elements, size_t margin, bool stream) {
  const hn::ScalableTag<float> d;
  const auto finish = [](auto v, auto store, float* to)
                          HWY_ATTR { store(v, hn::ScalableTag<float>(), to); };
  SeparableFilter<true>(d, src, dst, kx, rx, ky, ry, rows, scratch, row_elements, margin, stream,
                        finish);
}

// u8 values times 8-fraction-bit taps are exact in int32 (at most 255 * 256 per pass-one pixel,
// 255 * 2^16 after pass two); OpenCV's ufixedpoint32 -> uint8 conversion rounds half up.
inline void GaussianU8Impl(const ConstImageU8View& src, const ImageU8View& dst, const int32_t* kx,
                           size_t rx, const int32_t* ky, size_t ry, RowRange rows, int32_t* scratch,
                           size_t row_elements, size_t margin) {
  const hn::ScalableTag<int32_t> d;
  const hn::Rebind<uint8_t, decltype(d)> d8;
  const auto half = hn::Set(d, 1 << 15);
  const auto finish = [&](auto v, auto store, uint8_t* to) HWY_ATTR {
    store(hn::DemoteTo(d8, hn::ShiftRight<16>(hn::Add(v, half))), d8, to);
  };
  SeparableFilter<true>(d, src, dst, kx, rx, ky, ry, rows, scratch, row_elements, margin,
                        /*stream=*/false, finish);
}

inline void BoxF32Impl(const ConstImageF32View& src, const ImageF32View& dst, size_t radius,
                       float scale, RowRange rows, float* scratch, size_t row_elements,
                       size_t margin, bool stream) {
  const hn::ScalableTag<float> d;
  const auto scale_v = hn::Set(d, scale);
  const auto finish = [&](auto v, auto store, float* to)
                          HWY_ATTR { store(hn::Mul(v, scale_v), d, to); };
  SeparableFilter<false>(d, src, dst, static_cast<const float*>(nullptr), radius,
                         static_cast<const float*>(nullptr), radius, rows, scratch, row_elements,
                         margin, stream, finish);
}

// round(s / area) for odd area: q = floor((s + area / 2) / area), first estimated in float
// (relative error < 2^-21, so off by at most one) and then corrected with exact integer
// remainders; every step is exact or integer, hence identical on all targets.
inline void BoxU8Impl(const ConstImageU8View& src, const ImageU8View& dst, size_t radius,
                      RowRange rows, int32_t* scratch, size_t row_elements, size_t margin) {
  const hn::ScalableTag<int32_t> d;
  const hn::Rebind<float, decltype(d)> df;
  const hn::Rebind<uint8_t, decltype(d)> d8;
  const int32_t area = static_cast<int32_t>((2 * radius + 1) * (2 * radius + 1));
  const auto area_v = hn::Set(d, area);
  const auto area_minus_one = hn::Set(d, area - 1);
  const auto half = hn::Set(d, area / 2);
  const auto inverse = hn::Set(df, 1.0f / static_cast<float>(area));
  const auto one = hn::Set(d, 1);
  const auto zero = hn::Zero(d);
  const auto finish = [&](auto sum, auto store, uint8_t* to) HWY_ATTR {
    const auto n = hn::Add(sum, half);
    auto q = hn::ConvertTo(d, hn::Mul(hn::ConvertTo(df, n), inverse));
    const auto remainder = hn::Sub(n, hn::Mul(q, area_v));
    q = hn::IfThenElse(hn::Gt(remainder, area_minus_one), hn::Add(q, one), q);
    q = hn::IfThenElse(hn::Lt(remainder, zero), hn::Sub(q, one), q);
    store(hn::DemoteTo(d8, q), d8, to);
  };
  SeparableFilter<false>(d, src, dst, static_cast<const int32_t*>(nullptr), radius,
                         static_cast<const int32_t*>(nullptr), radius, rows, scratch, row_elements,
                         margin, /*stream=*/false, finish);
}

// cv::pyrDown: vertical [1 4 6 4 1] over source rows 2y-2 .. 2y+2 into the scratch row (2
// reflected pixels each side), then the horizontal taps at even columns, read deinterleaved.
inline void PyramidDownImpl(const ConstImageF32View& src, const ImageF32View& dst, RowRange rows,
                            float* scratch, size_t scratch_count, size_t margin, bool stream) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  const auto four = hn::Set(d, 4.0f);
  const auto six = hn::Set(d, 6.0f);
  const auto scale = hn::Set(d, 1.0f / 256.0f);
  ZeroScratch(d, scratch, scratch_count);
  float* HWY_RESTRICT row = scratch + margin;
  const size_t count = (src.width + lanes - 1) / lanes * lanes;
  const size_t end = rows.end < dst.height ? rows.end : dst.height;
  for (size_t y = rows.begin; y < end; ++y) {
    const ptrdiff_t sy = static_cast<ptrdiff_t>(2 * y);
    const float* r0 = src.Row(Reflect101(sy - 2, src.height));
    const float* r1 = src.Row(Reflect101(sy - 1, src.height));
    const float* r2 = src.Row(Reflect101(sy, src.height));
    const float* r3 = src.Row(Reflect101(sy + 1, src.height));
    const float* r4 = src.Row(Reflect101(sy + 2, src.height));
    // Each output row needs two new source rows (2y + 3 and 2y + 4 for the next one).
    const RowPrefetcher<2> prefetch(r4, src.row_stride);
    for (size_t x = 0; x < count; x += lanes) {
      prefetch.AtByte(x * sizeof(float), lanes * sizeof(float));
      auto acc = hn::Mul(hn::LoadU(d, r2 + x), six);
      acc = hn::Add(acc, hn::Mul(hn::Add(hn::LoadU(d, r1 + x), hn::LoadU(d, r3 + x)), four));
      acc = hn::Add(acc, hn::Add(hn::LoadU(d, r0 + x), hn::LoadU(d, r4 + x)));
      hn::StoreU(acc, d, row + x);
    }
    FillMargins(row, src.width, 2);
    float* out = dst.Row(y);
    ForEachVectorMaybeStreamed(d, dst.width, stream, [&](size_t x, auto store) HWY_ATTR {
      const float* p = row + 2 * x;
      hn::Vec<decltype(d)> even_m2, odd_m1, even_0, odd_1, even_2, odd_3;
      hn::LoadInterleaved2(d, p - 2, even_m2, odd_m1);
      hn::LoadInterleaved2(d, p, even_0, odd_1);
      hn::LoadInterleaved2(d, p + 2, even_2, odd_3);
      auto acc = hn::Mul(even_0, six);
      acc = hn::Add(acc, hn::Mul(hn::Add(odd_m1, odd_1), four));
      acc = hn::Add(acc, hn::Add(even_m2, even_2));
      store(hn::Mul(acc, scale), d, out + x);
    });
  }
  if (stream) hwy::FlushStream();
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_VISION_FILTER_INL_H_
