// Dispatch of the box-box narrow phase (kernels/collision/box_box_contact-inl.h): compiled once
// per SIMD target.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/collision/box_box_contact-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/collision/box_box_contact-inl.h"

#if HWY_ONCE
#include "kernels/collision/narrow_phase_entries.h"

namespace swarm {
HWY_EXPORT(CollideBoxesImpl);

namespace narrow_phase {
void CollideBoxes(const ShapeGeometry& a, const ShapeGeometry& b, const ConstLanesView& frames_a,
                  const ConstLanesView& frames_b, float margin, const LanesView& contacts) {
  HWY_DYNAMIC_DISPATCH(CollideBoxesImpl)(a, b, frames_a, frames_b, margin, contacts);
}
}  // namespace narrow_phase
}  // namespace swarm
#endif  // HWY_ONCE
