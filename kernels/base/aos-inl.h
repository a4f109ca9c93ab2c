// Per-target AoS <-> SoA conversion. The AoS side is not padded, so the last partial vector goes
// through a small stack buffer instead of reading or writing past the caller's array.

#if defined(SWARM_KERNELS_AOS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_AOS_INL_H_
#undef SWARM_KERNELS_AOS_INL_H_
#else
#define SWARM_KERNELS_AOS_INL_H_
#endif

#include <cstring>
#include <type_traits>

#include "hwy/highway.h"
#include "kernels/base/loop-inl.h"
#include "swarm/kernels/base/aos.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

inline void AosToSoaImpl(const float* aos, Vec4View to) {
  const hn::ScalableTag<float> d;
  HWY_ALIGN float tail[4 * hn::MaxLanes(d)] = {};
  ForEachVector(d, to.count, [&](size_t i, auto store) HWY_ATTR {
    const float* from = aos + 4 * i;
    if constexpr (std::is_same_v<decltype(store), StoreFirst>) {
      std::memcpy(tail, from, 4 * store.valid * sizeof(float));
      from = tail;
    }
    hn::Vec<decltype(d)> x, y, z, w;
    hn::LoadInterleaved4(d, from, x, y, z, w);
    store(x, d, to.x() + i);
    store(y, d, to.y() + i);
    store(z, d, to.z() + i);
    store(w, d, to.w() + i);
  });
}

inline void SoaToAosImpl(ConstVec4View from, float* aos) {
  const hn::ScalableTag<float> d;
  HWY_ALIGN float tail[4 * hn::MaxLanes(d)];
  ForEachVector(d, from.count, [&](size_t i, auto store) HWY_ATTR {
    const auto x = hn::LoadU(d, from.x() + i);
    const auto y = hn::LoadU(d, from.y() + i);
    const auto z = hn::LoadU(d, from.z() + i);
    const auto w = hn::LoadU(d, from.w() + i);
    if constexpr (std::is_same_v<decltype(store), StoreFirst>) {
      hn::StoreInterleaved4(x, y, z, w, d, tail);
      std::memcpy(aos + 4 * i, tail, 4 * store.valid * sizeof(float));
    } else {
      hn::StoreInterleaved4(x, y, z, w, d, aos + 4 * i);
    }
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_AOS_INL_H_
