// Dispatch of CopyLanes (lanes_copy-inl.h): checks the views and picks the best supported target.
#include "swarm/kernels/base/lanes_copy.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/base/lanes_copy-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/base/lanes_copy-inl.h"

#if HWY_ONCE
#include "swarm/kernels/base/assert.h"

namespace swarm {

HWY_EXPORT(CopyLanesImpl);

namespace {

bool Streamable(const float* data, size_t stride) {
  return IsVectorAligned(data) && (stride * sizeof(float)) % kAlignBytes == 0;
}

}  // namespace

void CopyLanes(const ConstLanesView& from, const LanesView& to, bool streamed) {
  SWARM_ASSERT(from.arrays == to.arrays && from.count == to.count);
  if (to.count == 0 || to.arrays == 0) return;
  SWARM_ASSERT(from.data != nullptr && to.data != nullptr);
  const bool stream = streamed && Streamable(to.data, to.stride);
  HWY_DYNAMIC_DISPATCH(CopyLanesImpl)(from, to, stream);
}

}  // namespace swarm
#endif  // HWY_ONCE
