#include "swarm/kernels/base/aos.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/base/aos-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/base/aos-inl.h"

#if HWY_ONCE
namespace swarm {

HWY_EXPORT(AosToSoaImpl);
HWY_EXPORT(SoaToAosImpl);

void AosToSoa(const float* aos, Vec4View to) {
  SWARM_ASSERT(aos != nullptr || to.count == 0);
  HWY_DYNAMIC_DISPATCH(AosToSoaImpl)(aos, to);
}

void SoaToAos(ConstVec4View from, float* aos) {
  SWARM_ASSERT(aos != nullptr || from.count == 0);
  HWY_DYNAMIC_DISPATCH(SoaToAosImpl)(from, aos);
}

}  // namespace swarm
#endif  // HWY_ONCE
