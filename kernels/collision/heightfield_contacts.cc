// Dispatch of the narrow phase's heightfield pairs (kernels/collision/heightfield_contacts-inl.h):
// compiled once per SIMD target.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/collision/heightfield_contacts-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/collision/heightfield_contacts-inl.h"

#if HWY_ONCE
#include "kernels/collision/narrow_phase_entries.h"

namespace swarm {
HWY_EXPORT(CollideWithHeightfieldImpl);

namespace narrow_phase {
void CollideWithHeightfield(const ShapeGeometry& heightfield, const ShapeGeometry& b,
                            const ConstLanesView& frames_a, const ConstLanesView& frames_b,
                            const LanesView& contacts) {
  HWY_DYNAMIC_DISPATCH(CollideWithHeightfieldImpl)(heightfield, b, frames_a, frames_b, contacts);
}
}  // namespace narrow_phase
}  // namespace swarm
#endif  // HWY_ONCE
