// Dispatch for the particle emitters: compiled once per SIMD target, and each exported entry
// picks the best supported target once per call (a call covers a whole batch or tile).
#include "swarm/kernels/particles/emit.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/particles/emit-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/particles/emit-inl.h"

#if HWY_ONCE
namespace swarm {

HWY_EXPORT(EmitImpl);
HWY_EXPORT(RespawnDeadImpl);

namespace {

// The emitter kernels switch on the shape; any other value would leave the outputs unwritten.
bool KnownShape(EmitterShape shape) {
  return shape == EmitterShape::kBox || shape == EmitterShape::kSphere ||
         shape == EmitterShape::kRing;
}

}  // namespace

void EmitParticles(const Vec4View& positions, const Vec4View& velocities, const FloatView& ages,
                   const FloatView& lifetimes, const EmitterParams& emitter, RandomStream random,
                   uint32_t first_index) {
  SWARM_ASSERT(SameCount(positions, velocities) && SameCount(positions, ages) &&
               SameCount(positions, lifetimes) && KnownShape(emitter.shape));
  HWY_DYNAMIC_DISPATCH(EmitImpl)
  (positions, velocities, ages, lifetimes, emitter, random, first_index);
}

void RespawnDead(const Vec4View& positions, const Vec4View& velocities, const FloatView& ages,
                 const FloatView& lifetimes, const ByteView& dead, const EmitterParams& emitter,
                 RandomStream random, uint32_t first_index) {
  SWARM_ASSERT(SameCount(positions, velocities) && SameCount(positions, ages) &&
               SameCount(positions, lifetimes) && SameCount(positions, dead) &&
               KnownShape(emitter.shape));
  HWY_DYNAMIC_DISPATCH(RespawnDeadImpl)
  (positions, velocities, ages, lifetimes, dead, emitter, random, first_index);
}

}  // namespace swarm
#endif  // HWY_ONCE
