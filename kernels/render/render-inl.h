// Per-target code of the particle rendering kernels (swarm/kernels/render/render.h). Preconditions
// arrive checked from render.cc.
//
// Clamps are written as compare + select, never Min/Max: x86's min/max return their second
// operand for NaN and for a pair of zeros of either sign, Highway's SCALAR target follows
// std::min, so only an explicit select gives the same bits on every target.

#if defined(SWARM_KERNELS_RENDER_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_RENDER_INL_H_
#undef SWARM_KERNELS_RENDER_INL_H_
#else
#define SWARM_KERNELS_RENDER_INL_H_
#endif

#include <cstddef>
#include <cstdint>

#include "hwy/highway.h"
#include "kernels/base/loop-inl.h"
#include "kernels/render/palette.h"
#include "swarm/kernels/render/render.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// v inside [0, 1]: NaN and values <= 0 become +0, values >= 1 become 1.
template <class D, class V>
HWY_INLINE V ClampUnit(D d, V v) {
  const V one = hn::Set(d, 1.0f);
  return hn::IfThenElseZero(hn::Gt(v, hn::Zero(d)), hn::IfThenElse(hn::Lt(v, one), v, one));
}

inline void SpeedFractionImpl(const ConstVec4View& velocities, float inverse_full_speed,
                              const FloatView& out) {
  const hn::ScalableTag<float> d;
  const auto scale = hn::Set(d, inverse_full_speed);
  const float* HWY_RESTRICT vx = velocities.x();
  const float* HWY_RESTRICT vy = velocities.y();
  const float* HWY_RESTRICT vz = velocities.z();
  float* HWY_RESTRICT t = out.data;
  ForEachVector(d, out.count, [&](size_t i, auto store) HWY_ATTR {
    const auto x = hn::LoadU(d, vx + i);
    const auto y = hn::LoadU(d, vy + i);
    const auto z = hn::LoadU(d, vz + i);
    const auto squared = hn::Add(hn::Add(hn::Mul(x, x), hn::Mul(y, y)), hn::Mul(z, z));
    store(ClampUnit(d, hn::Mul(hn::Sqrt(squared), scale)), d, t + i);
  });
}

inline void AgeFractionImpl(const ConstFloatView& ages, const ConstFloatView& lifetimes,
                            const FloatView& out) {
  const hn::ScalableTag<float> d;
  const float* HWY_RESTRICT age = ages.data;
  const float* HWY_RESTRICT lifetime = lifetimes.data;
  float* HWY_RESTRICT t = out.data;
  ForEachVector(d, out.count, [&](size_t i, auto store) HWY_ATTR {
    // Padding lanes of the last vector divide 0 by 0; the NaN is never stored.
    store(ClampUnit(d, hn::Div(hn::LoadU(d, age + i), hn::LoadU(d, lifetime + i))), d, t + i);
  });
}

// SIMD computes each particle's pixel index and palette entry for one vector of particles into
// stack arrays; the scatter itself is scalar, since neighbouring particles may hit one pixel
// (Highway 1.0.3 has no conflict-free scatter-add) and integer adds make its order irrelevant.
inline void SplatPointsImpl(const ConstVec4View& screen, const ConstByteView& visible,
                            const ConstFloatView& t, const SplatTarget& target) {
  const hn::ScalableTag<float> df;
  const hn::RebindToSigned<decltype(df)> di;
  const hn::Rebind<uint8_t, decltype(df)> d8;
  const size_t lanes = hn::Lanes(df);
  HWY_ALIGN int32_t pixel[HWY_MAX_BYTES / sizeof(int32_t)];
  HWY_ALIGN int32_t entry[HWY_MAX_BYTES / sizeof(int32_t)];
  const auto last_x = hn::Set(di, static_cast<int32_t>(target.width - 1));
  const auto last_y = hn::Set(di, static_cast<int32_t>(target.height - 1));
  const auto last_entry = hn::Set(di, static_cast<int32_t>(kPaletteSize - 1));
  const auto stride = hn::Set(di, static_cast<int32_t>(target.row_stride));
  const auto entries = hn::Set(df, static_cast<float>(kPaletteSize - 1));
  const float* HWY_RESTRICT sx = screen.x();
  const float* HWY_RESTRICT sy = screen.y();
  const float* HWY_RESTRICT tv = t.data;
  const uint8_t* HWY_RESTRICT shown = visible.data;
  uint32_t* HWY_RESTRICT pixels = target.pixels;
  for (size_t i = 0; i < screen.count; i += lanes) {
    // Invisible lanes (and the padding past count) may hold NaN or infinities: zero them before
    // converting, so every conversion is of a finite value in range.
    const auto show =
        hn::RebindMask(df, hn::Ne(hn::PromoteTo(di, hn::LoadU(d8, shown + i)), hn::Zero(di)));
    const auto x = hn::IfThenElseZero(show, hn::LoadU(df, sx + i));
    const auto y = hn::IfThenElseZero(show, hn::LoadU(df, sy + i));
    // x, y >= 0 for visible points, so truncation is floor; x == width happens on the edge.
    const auto column =
        hn::IfThenElse(hn::Lt(hn::ConvertTo(di, x), last_x), hn::ConvertTo(di, x), last_x);
    const auto row =
        hn::IfThenElse(hn::Lt(hn::ConvertTo(di, y), last_y), hn::ConvertTo(di, y), last_y);
    hn::Store(hn::Add(hn::Mul(row, stride), column), di, pixel);
    const auto index = hn::ConvertTo(di, hn::Mul(ClampUnit(df, hn::LoadU(df, tv + i)), entries));
    hn::Store(hn::IfThenElse(hn::Lt(index, last_entry), index, last_entry), di, entry);
    const size_t valid = screen.count - i < lanes ? screen.count - i : lanes;
    for (size_t lane = 0; lane < valid; ++lane) {
      if (shown[i + lane] == 0) continue;
      const PaletteEntry color = kPalette[static_cast<size_t>(entry[lane])];
      uint32_t* counts = pixels + 4 * static_cast<size_t>(pixel[lane]);
      counts[0] += color.red;
      counts[1] += color.green;
      counts[2] += color.blue;
    }
  }
}

// A u32 to float, correctly rounded for every value: the two 16-bit halves convert exactly and
// one Add rounds (2^16 * high is exact too).
template <class DF, class DU>
HWY_INLINE hn::Vec<DF> U32ToFloat(DF df, DU du, hn::Vec<DU> v) {
  const hn::RebindToSigned<DF> di;
  const auto high = hn::ConvertTo(df, hn::BitCast(di, hn::ShiftRight<16>(v)));
  const auto low = hn::ConvertTo(df, hn::BitCast(di, hn::And(v, hn::Set(du, 0xFFFFu))));
  return hn::Add(hn::Mul(high, hn::Set(df, 65536.0f)), low);
}

inline void ResolveSplatsImpl(uint32_t* const* accumulators, size_t accumulator_count,
                              size_t pixel_count, float scale, float* HWY_RESTRICT red,
                              float* HWY_RESTRICT green, float* HWY_RESTRICT blue) {
  const hn::ScalableTag<float> df;
  const hn::RebindToUnsigned<decltype(df)> du;
  const size_t lanes = hn::Lanes(df);
  const auto vscale = hn::Set(df, scale);
  const auto zero = hn::Zero(du);
  for (size_t p = 0; p < pixel_count; p += lanes) {
    auto r = zero, g = zero, b = zero;
    for (size_t k = 0; k < accumulator_count; ++k) {
      uint32_t* counts = accumulators[k] + 4 * p;
      hn::Vec<decltype(du)> kr, kg, kb, unused;
      hn::LoadInterleaved4(du, counts, kr, kg, kb, unused);
      r = hn::Add(r, kr);
      g = hn::Add(g, kg);
      b = hn::Add(b, kb);
      for (size_t v = 0; v < 4; ++v) hn::Store(zero, du, counts + v * lanes);
    }
    hn::Store(hn::Mul(U32ToFloat(df, du, r), vscale), df, red + p);
    hn::Store(hn::Mul(U32ToFloat(df, du, g), vscale), df, green + p);
    hn::Store(hn::Mul(U32ToFloat(df, du, b), vscale), df, blue + p);
  }
}

inline void InterpolateRowImpl(const float* src, const int32_t* index, const float* weight,
                               size_t count, float* out) {
  const hn::ScalableTag<float> df;
  const hn::RebindToSigned<decltype(df)> di;
  const auto one = hn::Set(di, 1);
  ForEachVector(df, count, [&](size_t x, auto store) HWY_ATTR {
    const auto at = hn::LoadU(di, index + x);
    const auto a = hn::GatherIndex(df, src, at);
    const auto b = hn::GatherIndex(df, src, hn::Add(at, one));
    store(hn::Add(a, hn::Mul(hn::LoadU(df, weight + x), hn::Sub(b, a))), df, out + x);
  });
}

inline void ComposeRowImpl(const ComposeRowInputs& in, size_t width, uint32_t* frame) {
  const hn::ScalableTag<float> df;
  const hn::RebindToSigned<decltype(df)> di;
  const hn::RebindToUnsigned<decltype(df)> du;
  const auto glow_weight = hn::Set(df, in.glow_weight);
  const auto glow_strength = hn::Set(df, in.glow_strength);
  const auto one = hn::Set(df, 1.0f);
  const auto half = hn::Set(df, 0.5f);
  const auto full = hn::Set(df, 255.0f);
  // Past this, v / (1 + v) is 1 in float anyway; the cap keeps infinity from making Inf / Inf.
  const auto largest = hn::Set(df, 1e30f);
  const auto alpha = hn::Set(du, 0xFF000000u);
  ForEachVector(df, width, [&](size_t x, auto store) HWY_ATTR {
    // One channel's byte per lane. A function rather than an array of three vectors: SVE vectors
    // are sizeless and cannot be array elements.
    const auto channel_byte = [&](size_t c) HWY_ATTR {
      const auto top = hn::LoadU(df, in.glow_top[c] + x);
      const auto bottom = hn::LoadU(df, in.glow_bottom[c] + x);
      const auto glow = hn::Add(top, hn::Mul(glow_weight, hn::Sub(bottom, top)));
      auto v = hn::Add(hn::LoadU(df, in.radiance[c] + x), hn::Mul(glow_strength, glow));
      v = hn::IfThenElseZero(hn::Gt(v, hn::Zero(df)), v);
      v = hn::IfThenElse(hn::Lt(v, largest), v, largest);
      const auto level = hn::Sqrt(hn::Div(v, hn::Add(one, v)));
      return hn::BitCast(du, hn::ConvertTo(di, hn::Add(hn::Mul(level, full), half)));
    };
    const auto red = channel_byte(0);
    const auto green = channel_byte(1);
    const auto blue = channel_byte(2);
    const auto argb =
        hn::Or(hn::Or(alpha, hn::ShiftLeft<16>(red)), hn::Or(hn::ShiftLeft<8>(green), blue));
    store(argb, du, frame + x);
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_RENDER_INL_H_
