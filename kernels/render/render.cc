// Dispatch and precondition checks for the particle rendering kernels
// (swarm/kernels/render/render.h).
#include "swarm/kernels/render/render.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/render/render-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/render/render-inl.h"

#if HWY_ONCE
#include <limits>

#include "kernels/render/palette.h"

namespace swarm {

HWY_EXPORT(SpeedFractionImpl);
HWY_EXPORT(AgeFractionImpl);
HWY_EXPORT(SplatPointsImpl);
HWY_EXPORT(ResolveSplatsImpl);
HWY_EXPORT(InterpolateRowImpl);
HWY_EXPORT(ComposeRowImpl);

namespace {

bool Aligned(const void* pointer) { return IsVectorAligned(pointer); }

}  // namespace

PaletteEntry PaletteColor(size_t index) {
  SWARM_ASSERT(index < kPaletteSize);
  return kPalette[index];
}

void SpeedFraction(const ConstVec4View& velocities, float inverse_full_speed,
                   const FloatView& out) {
  SWARM_ASSERT(velocities.count == out.count);
  HWY_DYNAMIC_DISPATCH(SpeedFractionImpl)(velocities, inverse_full_speed, out);
}

void AgeFraction(const ConstFloatView& ages, const ConstFloatView& lifetimes,
                 const FloatView& out) {
  SWARM_ASSERT(ages.count == out.count && lifetimes.count == out.count);
  HWY_DYNAMIC_DISPATCH(AgeFractionImpl)(ages, lifetimes, out);
}

void SplatPoints(const ConstVec4View& screen, const ConstByteView& visible, const ConstFloatView& t,
                 const SplatTarget& target) {
  SWARM_ASSERT(screen.count == visible.count && screen.count == t.count);
  SWARM_ASSERT(target.pixels != nullptr);
  SWARM_ASSERT(target.width >= 1 && target.height >= 1 && target.row_stride >= target.width);
  // Pixel indices are computed in 32-bit lanes.
  SWARM_ASSERT(target.row_stride <=
               static_cast<size_t>(std::numeric_limits<int32_t>::max()) / target.height);
  SWARM_ASSERT(Aligned(target.pixels));
  HWY_DYNAMIC_DISPATCH(SplatPointsImpl)(screen, visible, t, target);
}

void ResolveSplats(uint32_t* const* accumulators, size_t accumulator_count, size_t pixel_count,
                   float scale, float* red, float* green, float* blue) {
  SWARM_ASSERT(pixel_count % kPadFloats == 0);
  SWARM_ASSERT(Aligned(red) && Aligned(green) && Aligned(blue));
  for (size_t k = 0; k < accumulator_count; ++k) SWARM_ASSERT(Aligned(accumulators[k]));
  HWY_DYNAMIC_DISPATCH(ResolveSplatsImpl)
  (accumulators, accumulator_count, pixel_count, scale, red, green, blue);
}

void InterpolateRow(const float* src, const int32_t* index, const float* weight, size_t count,
                    float* out) {
  SWARM_ASSERT(Aligned(index) && Aligned(weight) && Aligned(out));
  HWY_DYNAMIC_DISPATCH(InterpolateRowImpl)(src, index, weight, count, out);
}

void ComposeRow(const ComposeRowInputs& inputs, size_t width, uint32_t* frame) {
  SWARM_ASSERT(Aligned(frame));
  for (size_t c = 0; c < 3; ++c) {
    SWARM_ASSERT(Aligned(inputs.radiance[c]) && Aligned(inputs.glow_top[c]) &&
                 Aligned(inputs.glow_bottom[c]));
  }
  HWY_DYNAMIC_DISPATCH(ComposeRowImpl)(inputs, width, frame);
}

}  // namespace swarm
#endif  // HWY_ONCE
