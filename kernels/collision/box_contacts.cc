// Dispatch of the narrow phase's pairs of a box with a plane, sphere, capsule or cylinder
// (kernels/collision/box_contacts-inl.h): compiled once per SIMD target.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/collision/box_contacts-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/collision/box_contacts-inl.h"

#if HWY_ONCE
#include "kernels/collision/narrow_phase_entries.h"

namespace swarm {
HWY_EXPORT(CollideWithBoxImpl);

namespace narrow_phase {
void CollideWithBox(const ShapeGeometry& a, const ShapeGeometry& b, const ConstLanesView& frames_a,
                    const ConstLanesView& frames_b, const LanesView& contacts) {
  HWY_DYNAMIC_DISPATCH(CollideWithBoxImpl)(a, b, frames_a, frames_b, contacts);
}
}  // namespace narrow_phase
}  // namespace swarm
#endif  // HWY_ONCE
