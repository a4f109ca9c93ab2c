// Per-target code of the pixel-format kernels (swarm/kernels/vision/vision_convert.h). Row ranges
// arrive clamped and validated from vision_convert.cc.

#if defined(SWARM_KERNELS_VISION_CONVERT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_VISION_CONVERT_INL_H_
#undef SWARM_KERNELS_VISION_CONVERT_INL_H_
#else
#define SWARM_KERNELS_VISION_CONVERT_INL_H_
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "hwy/highway.h"
#include "kernels/base/loop-inl.h"
#include "swarm/kernels/vision/vision_convert.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Interleaved rows are not padded, so the last partial vector of a row goes through a stack copy
// of its bytes instead of a whole-vector load or store past the row.
inline void DeinterleaveImpl(const ConstInterleavedU8View& src, const ImageU8View* planes,
                             size_t row_begin, size_t row_end) {
  const hn::ScalableTag<uint8_t> d;
  const size_t lanes = hn::Lanes(d);
  const size_t channels = src.channels;
  HWY_ALIGN uint8_t tail[4 * HWY_MAX_BYTES];
  for (size_t y = row_begin; y < row_end; ++y) {
    const uint8_t* in = src.Row(y);
    uint8_t* out[4] = {};
    for (size_t c = 0; c < channels; ++c) out[c] = planes[c].Row(y);
    if (channels == 1) {
      std::memcpy(out[0], in, src.width);
      continue;
    }
    const auto split = [&](const uint8_t* from, size_t x, auto store) HWY_ATTR {
      hn::Vec<decltype(d)> v0, v1, v2, v3;
      if (channels == 3) {
        hn::LoadInterleaved3(d, from, v0, v1, v2);
      } else {
        hn::LoadInterleaved4(d, from, v0, v1, v2, v3);
        store(v3, d, out[3] + x);
      }
      store(v0, d, out[0] + x);
      store(v1, d, out[1] + x);
      store(v2, d, out[2] + x);
    };
    size_t x = 0;
    for (; x + lanes <= src.width; x += lanes) split(in + x * channels, x, StoreAll{});
    if (x < src.width) {
      std::memset(tail, 0, sizeof(tail));
      std::memcpy(tail, in + x * channels, (src.width - x) * channels);
      split(tail, x, StoreFirst{src.width - x});
    }
  }
}

inline void InterleaveImpl(const ConstImageU8View* planes, const InterleavedU8View& dst,
                           size_t row_begin, size_t row_end) {
  const hn::ScalableTag<uint8_t> d;
  const size_t lanes = hn::Lanes(d);
  const size_t channels = dst.channels;
  HWY_ALIGN uint8_t tail[4 * HWY_MAX_BYTES];
  for (size_t y = row_begin; y < row_end; ++y) {
    uint8_t* out = dst.Row(y);
    const uint8_t* in[4] = {};
    for (size_t c = 0; c < channels; ++c) in[c] = planes[c].Row(y);
    if (channels == 1) {
      std::memcpy(out, in[0], dst.width);
      continue;
    }
    const auto merge = [&](size_t x, uint8_t* to) HWY_ATTR {
      // Plane rows are padded, so whole-vector loads are safe even for the last partial vector.
      const auto v0 = hn::LoadU(d, in[0] + x);
      const auto v1 = hn::LoadU(d, in[1] + x);
      const auto v2 = hn::LoadU(d, in[2] + x);
      if (channels == 3) {
        hn::StoreInterleaved3(v0, v1, v2, d, to);
      } else {
        hn::StoreInterleaved4(v0, v1, v2, hn::LoadU(d, in[3] + x), d, to);
      }
    };
    size_t x = 0;
    for (; x + lanes <= dst.width; x += lanes) merge(x, out + x * channels);
    if (x < dst.width) {
      merge(x, tail);
      std::memcpy(out + x * channels, tail, (dst.width - x) * channels);
    }
  }
}

inline void RgbToGrayU8Impl(const ConstImageU8View& r, const ConstImageU8View& g,
                            const ConstImageU8View& b, const ImageU8View& gray, size_t row_begin,
                            size_t row_end) {
  const hn::ScalableTag<int32_t> d32;
  const hn::Rebind<uint8_t, decltype(d32)> d8;
  const auto wr = hn::Set(d32, 9798);
  const auto wg = hn::Set(d32, 19235);
  const auto wb = hn::Set(d32, 3735);
  const auto half = hn::Set(d32, 1 << 14);
  for (size_t y = row_begin; y < row_end; ++y) {
    const uint8_t* pr = r.Row(y);
    const uint8_t* pg = g.Row(y);
    const uint8_t* pb = b.Row(y);
    uint8_t* out = gray.Row(y);
    ForEachVector(d32, gray.width, [&](size_t x, auto store) HWY_ATTR {
      auto sum = hn::Add(hn::Mul(hn::PromoteTo(d32, hn::LoadU(d8, pr + x)), wr), half);
      sum = hn::Add(sum, hn::Mul(hn::PromoteTo(d32, hn::LoadU(d8, pg + x)), wg));
      sum = hn::Add(sum, hn::Mul(hn::PromoteTo(d32, hn::LoadU(d8, pb + x)), wb));
      // The weights sum to 2^15, so the result is at most 255: the demotion never saturates.
      store(hn::DemoteTo(d8, hn::ShiftRight<15>(sum)), d8, out + x);
    });
  }
}

inline void RgbToGrayF32Impl(const ConstImageF32View& r, const ConstImageF32View& g,
                             const ConstImageF32View& b, const ImageF32View& gray, size_t row_begin,
                             size_t row_end) {
  const hn::ScalableTag<float> d;
  const auto wr = hn::Set(d, 0.299f);
  const auto wg = hn::Set(d, 0.587f);
  const auto wb = hn::Set(d, 0.114f);
  for (size_t y = row_begin; y < row_end; ++y) {
    const float* pr = r.Row(y);
    const float* pg = g.Row(y);
    const float* pb = b.Row(y);
    float* out = gray.Row(y);
    ForEachVector(d, gray.width, [&](size_t x, auto store) HWY_ATTR {
      auto sum = hn::Add(hn::Mul(hn::LoadU(d, pr + x), wr), hn::Mul(hn::LoadU(d, pg + x), wg));
      sum = hn::Add(sum, hn::Mul(hn::LoadU(d, pb + x), wb));
      store(sum, d, out + x);
    });
  }
}

inline void ConvertU8ToF32Impl(const ConstImageU8View& src, const ImageF32View& dst, float scale,
                               float offset, size_t row_begin, size_t row_end) {
  const hn::ScalableTag<float> d;
  const hn::RebindToSigned<decltype(d)> di;
  const hn::Rebind<uint8_t, decltype(d)> d8;
  const auto vscale = hn::Set(d, scale);
  const auto voffset = hn::Set(d, offset);
  for (size_t y = row_begin; y < row_end; ++y) {
    const uint8_t* in = src.Row(y);
    float* out = dst.Row(y);
    ForEachVector(d, dst.width, [&](size_t x, auto store) HWY_ATTR {
      const auto value = hn::ConvertTo(d, hn::PromoteTo(di, hn::LoadU(d8, in + x)));
      store(hn::Add(hn::Mul(value, vscale), voffset), d, out + x);
    });
  }
}

inline void ConvertF32ToU8Impl(const ConstImageF32View& src, const ImageU8View& dst, float scale,
                               float offset, size_t row_begin, size_t row_end) {
  const hn::ScalableTag<float> d;
  const hn::RebindToSigned<decltype(d)> di;
  const hn::Rebind<uint8_t, decltype(d)> d8;
  const auto vscale = hn::Set(d, scale);
  const auto voffset = hn::Set(d, offset);
  const auto zero = hn::Zero(d);
  const auto max_u8 = hn::Set(d, 255.0f);
  // Adding and subtracting 2^23 rounds a float in [0, 2^23) to an integer, half to even, with
  // plain IEEE additions: exact and identical on every target, unlike the per-target emulations
  // of Round/NearestInt (Highway's scalar one adds 0.5 and misrounds 0.49999997f).
  const auto magic = hn::Set(d, 8388608.0f);
  for (size_t y = row_begin; y < row_end; ++y) {
    const float* in = src.Row(y);
    uint8_t* out = dst.Row(y);
    ForEachVector(d, dst.width, [&](size_t x, auto store) HWY_ATTR {
      auto v = hn::Add(hn::Mul(hn::LoadU(d, in + x), vscale), voffset);
      // NaN -> 0 first, because Min/Max of a NaN differs between targets.
      v = hn::IfThenZeroElse(hn::Ne(v, v), v);
      v = hn::Min(hn::Max(v, zero), max_u8);
      v = hn::Sub(hn::Add(v, magic), magic);
      store(hn::DemoteTo(d8, hn::ConvertTo(di, v)), d8, out + x);
    });
  }
}

template <typename T>
inline void ThresholdImpl(const ImageView<const T>& src, const ImageView<T>& dst, T thresh,
                          T max_value, ThresholdType type, size_t row_begin, size_t row_end) {
  const hn::ScalableTag<T> d;
  const auto vthresh = hn::Set(d, thresh);
  const auto vmax = hn::Set(d, max_value);
  for (size_t y = row_begin; y < row_end; ++y) {
    const T* in = src.Row(y);
    T* out = dst.Row(y);
    if (type == ThresholdType::kBinary) {
      ForEachVector(d, dst.width, [&](size_t x, auto store) HWY_ATTR {
        store(hn::IfThenElseZero(hn::Gt(hn::LoadU(d, in + x), vthresh), vmax), d, out + x);
      });
    } else {
      ForEachVector(d, dst.width, [&](size_t x, auto store) HWY_ATTR {
        const auto v = hn::LoadU(d, in + x);
        store(hn::IfThenElse(hn::Gt(v, vthresh), vthresh, v), d, out + x);
      });
    }
  }
}

inline void ThresholdF32Impl(const ConstImageF32View& src, const ImageF32View& dst, float thresh,
                             float max_value, ThresholdType type, size_t row_begin,
                             size_t row_end) {
  ThresholdImpl<float>(src, dst, thresh, max_value, type, row_begin, row_end);
}

inline void ThresholdU8Impl(const ConstImageU8View& src, const ImageU8View& dst, uint8_t thresh,
                            uint8_t max_value, ThresholdType type, size_t row_begin,
                            size_t row_end) {
  ThresholdImpl<uint8_t>(src, dst, thresh, max_value, type, row_begin, row_end);
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_VISION_CONVERT_INL_H_
