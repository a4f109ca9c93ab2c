// Dispatch for the integration kernels: compiled once per SIMD target, and each exported entry
// picks the best supported target once per call (a call covers a whole batch or tile).
#include "swarm/kernels/particles/integrate.h"

#include <cmath>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/particles/integrate-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/particles/integrate-inl.h"

#if HWY_ONCE
namespace swarm {

HWY_EXPORT(EulerImpl);
HWY_EXPORT(VerletKickDriftImpl);
HWY_EXPORT(VerletKickImpl);
HWY_EXPORT(CollideBoxImpl);
HWY_EXPORT(AttractorImpl);
HWY_EXPORT(AdvanceAgeImpl);

namespace {

bool ValidDt(float dt_seconds) { return std::isfinite(dt_seconds) && dt_seconds > 0.0f; }

}  // namespace

void IntegrateEuler(const Vec4View& positions, const Vec4View& velocities,
                    const EulerParams& params) {
  SWARM_ASSERT(SameCount(positions, velocities) && ValidDt(params.dt_seconds));
  HWY_DYNAMIC_DISPATCH(EulerImpl)(positions, velocities, params);
}

void VerletKickDrift(const Vec4View& positions, const Vec4View& velocities,
                     const ConstVec4View& accelerations, float dt_seconds) {
  SWARM_ASSERT(SameCount(positions, velocities) && SameCount(positions, accelerations) &&
               ValidDt(dt_seconds));
  HWY_DYNAMIC_DISPATCH(VerletKickDriftImpl)(positions, velocities, accelerations, dt_seconds);
}

void VerletKick(const Vec4View& velocities, const ConstVec4View& accelerations, float dt_seconds) {
  SWARM_ASSERT(SameCount(velocities, accelerations) && ValidDt(dt_seconds));
  HWY_DYNAMIC_DISPATCH(VerletKickImpl)(velocities, accelerations, dt_seconds);
}

void CollideBox(const Vec4View& positions, const Vec4View& velocities, const BoxParams& params) {
  SWARM_ASSERT(SameCount(positions, velocities));
  HWY_DYNAMIC_DISPATCH(CollideBoxImpl)(positions, velocities, params);
}

void ApplyAttractor(const ConstVec4View& positions, const Vec4View& velocities,
                    const AttractorParams& params) {
  SWARM_ASSERT(SameCount(positions, velocities) && ValidDt(params.dt_seconds) &&
               params.softening > 0.0f);
  HWY_DYNAMIC_DISPATCH(AttractorImpl)(positions, velocities, params);
}

void AdvanceAge(const FloatView& ages, const ConstFloatView& lifetimes, const ByteView& dead,
                float dt_seconds) {
  SWARM_ASSERT(SameCount(ages, lifetimes) && SameCount(ages, dead) && ValidDt(dt_seconds));
  HWY_DYNAMIC_DISPATCH(AdvanceAgeImpl)(ages, lifetimes, dead, dt_seconds);
}

}  // namespace swarm
#endif  // HWY_ONCE
