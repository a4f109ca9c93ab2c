// Per-target copy of lane arrays (swarm/kernels/base/lanes_copy.h).

#if defined(SWARM_KERNELS_BASE_LANES_COPY_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_BASE_LANES_COPY_INL_H_
#undef SWARM_KERNELS_BASE_LANES_COPY_INL_H_
#else
#define SWARM_KERNELS_BASE_LANES_COPY_INL_H_
#endif

#include <cstddef>

#include "hwy/cache_control.h"
#include "hwy/highway.h"
#include "kernels/base/loop-inl.h"
#include "swarm/kernels/base/views.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

inline void CopyLanesImpl(const ConstLanesView& from, const LanesView& to, bool streamed) {
  const hn::ScalableTag<float> d;
  for (size_t a = 0; a < from.arrays; ++a) {
    const float* HWY_RESTRICT in = from.Array(a);
    float* HWY_RESTRICT out = to.Array(a);
    ForEachVectorMaybeStreamed(d, to.count, streamed, [&](size_t i, auto store) HWY_ATTR {
      store(hn::LoadU(d, in + i), d, out + i);
    });
  }
  // Non-temporal stores are weakly ordered: make them visible before the caller hands on.
  if (streamed) hwy::FlushStream();
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_BASE_LANES_COPY_INL_H_
