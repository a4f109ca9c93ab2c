// Dispatch for the counter-based generator: compiled once per SIMD target, and each exported
// entry picks the best supported target once per call (a call covers a whole batch or tile).
#include "swarm/kernels/base/random.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/base/random-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/base/random-inl.h"

#if HWY_ONCE
namespace swarm {

HWY_EXPORT(FillUniformImpl);

void FillUniform(const FloatView& out, RandomStream random, uint32_t first_index, float lo,
                 float hi) {
  HWY_DYNAMIC_DISPATCH(FillUniformImpl)(out, random, first_index, lo, hi);
}

}  // namespace swarm
#endif  // HWY_ONCE
