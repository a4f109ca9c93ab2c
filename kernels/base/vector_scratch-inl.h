// VectorScratch: a fixed number of vectors kept in aligned stack memory (L1), the portable stand-in
// for an array of vectors. SVE vectors are sizeless, so C++ allows them neither as array elements
// nor as struct members (GCC: "array elements cannot have SVE type"); a kernel that indexes
// vectors in a loop (matrix entries, filter taps, accumulators) keeps them here instead, one
// vector per slot, each slot as wide as the widest vector the target can have.
//
// On fixed-width targets (x86, NEON) the slots are indexed by constants after unrolling, so the
// compiler forwards each store to its loads and usually keeps the values in registers; on SVE the
// slots are real loads and stores, which hit L1.

#if defined(SWARM_KERNELS_VECTOR_SCRATCH_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_VECTOR_SCRATCH_INL_H_
#undef SWARM_KERNELS_VECTOR_SCRATCH_INL_H_
#else
#define SWARM_KERNELS_VECTOR_SCRATCH_INL_H_
#endif

#include <cstddef>

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class D, size_t kSlots>
class VectorScratch {
 public:
  using T = hn::TFromD<D>;
  using V = hn::Vec<D>;

  HWY_INLINE V Get(D d, size_t slot) const { return hn::Load(d, lanes_ + slot * kSlotLanes); }
  HWY_INLINE void Set(D d, size_t slot, V v) { hn::Store(v, d, lanes_ + slot * kSlotLanes); }

 private:
  // MaxLanes is the compile-time upper bound: the vector itself on x86 and NEON, 2048 bits on SVE.
  static constexpr size_t kSlotLanes = hn::MaxLanes(D());
  HWY_ALIGN T lanes_[kSlots * kSlotLanes];
};

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_VECTOR_SCRATCH_INL_H_
