// Per-target loop skeleton shared by the kernel families: the one place that walks elements a
// vector at a time.
//
// ForEachVector walks `count` elements one whole vector at a time. Full vectors store normally;
// the one partial vector at the end (if any) still loads a whole vector, which is safe because
// every array is padded to the widest vector, but stores through a FirstN mask, so the padding of
// the caller's arrays is never written. That keeps the owning buffers' "padding is zero"
// invariant without a scalar remainder loop, and the element-wise results are the same whichever
// vector width ran.

// Re-inclusion guard for Highway's foreach_target mechanism.
#if defined(SWARM_KERNELS_LOOP_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_LOOP_INL_H_
#undef SWARM_KERNELS_LOOP_INL_H_
#else
#define SWARM_KERNELS_LOOP_INL_H_
#endif

#include <cstddef>

#include "hwy/highway.h"
#include "swarm/kernels/base/views.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

static_assert(HWY_MAX_BYTES <= kMaxVectorBytes,
              "buffers pad lane arrays to kMaxVectorBytes; a wider target needs more padding");

// The store policies a loop body receives. `store(v, d, p)` writes a vector of the loop's element
// type; `store.Narrow(v, d, p)` writes a vector of a narrower type (e.g. int16 gradients) that
// covers the same elements, which is never streamed (a half-width row is cheap to keep cached).

// Stores a whole vector.
struct StoreAll {
  template <class V, class D, typename T>
  HWY_INLINE void operator()(V v, D d, T* HWY_RESTRICT to) const {
    hn::StoreU(v, d, to);
  }
  template <class V, class D, typename T>
  HWY_INLINE void Narrow(V v, D d, T* HWY_RESTRICT to) const {
    hn::StoreU(v, d, to);
  }
};

// Stores a whole vector with a non-temporal store: for large outputs that are not read again
// soon, skipping the read-for-ownership of the destination saves a third of the traffic.
struct StreamAll {
  template <class V, class D, typename T>
  HWY_INLINE void operator()(V v, D d, T* HWY_RESTRICT to) const {
    hn::Stream(v, d, to);
  }
  template <class V, class D, typename T>
  HWY_INLINE void Narrow(V v, D d, T* HWY_RESTRICT to) const {
    hn::StoreU(v, d, to);
  }
};

// Stores the first `valid` lanes of a vector and leaves the rest of memory untouched.
struct StoreFirst {
  size_t valid;
  template <class V, class D, typename T>
  HWY_INLINE void operator()(V v, D d, T* HWY_RESTRICT to) const {
    hn::BlendedStore(v, hn::FirstN(d, valid), d, to);
  }
  template <class V, class D, typename T>
  HWY_INLINE void Narrow(V v, D d, T* HWY_RESTRICT to) const {
    hn::BlendedStore(v, hn::FirstN(d, valid), d, to);
  }
};

// The lane pointers of an f32x4 input and output, hoisted into locals before a loop: Highway's
// stores may alias anything, so pointers read through view references inside the loop would be
// reloaded after every store (measured 7-20% in cache).
struct InOutLanes {
  const float* HWY_RESTRICT in[4];
  float* HWY_RESTRICT out[4];

  InOutLanes(const ConstVec4View& from, const Vec4View& to)
      : in{from.x(), from.y(), from.z(), from.w()}, out{to.x(), to.y(), to.z(), to.w()} {}
};

// Calls body(i, store) for i = begin, begin + N, ... < end, where store is `WholeStore` (StoreAll
// or StreamAll) for whole vectors and StoreFirst for the one partial vector at the end. `end` is
// the end of the caller's elements, so only that last vector can be partial.
template <class WholeStore = StoreAll, class D, class Body>
HWY_INLINE void ForEachVectorIn(D d, size_t begin, size_t end, const Body& body) {
  const size_t lanes = hn::Lanes(d);
  size_t i = begin;
  for (; i + lanes <= end; i += lanes) {
    body(i, WholeStore{});
  }
  if (i < end) {
    body(i, StoreFirst{end - i});
  }
}

// Calls body(i, store) for i = 0, N, 2N, ... < count, where store is StoreAll or StoreFirst.
template <class D, class Body>
HWY_INLINE void ForEachVector(D d, size_t count, const Body& body) {
  ForEachVectorIn(d, 0, count, body);
}

// ForEachVector whose whole vectors are streamed (StreamAll) when `stream` is set. The choice is
// made once per call, outside the loop, so each loop is as tight as the unstreamed one.
template <class D, class Body>
HWY_INLINE void ForEachVectorMaybeStreamed(D d, size_t count, bool stream, const Body& body) {
  if (stream) {
    ForEachVectorIn<StreamAll>(d, 0, count, body);
  } else {
    ForEachVectorIn(d, 0, count, body);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_LOOP_INL_H_
