// Dispatch for the contacts' dense added inertia (swarm/kernels/robots/contact_inertia.h):
// compiled once per SIMD target.
#include "swarm/kernels/robots/contact_inertia.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/robots/contact_inertia-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/robots/contact_inertia-inl.h"

#if HWY_ONCE
#include "swarm/kernels/base/assert.h"
#include "swarm/kernels/robots/dynamics/robot_dynamics.h"

namespace swarm {

HWY_EXPORT(ContactInertiaMatrixImpl);

void ContactInertiaMatrix(const KinematicTree& tree, const ContactSet& contacts,
                          const ConstLanesView& poses, const ConstLanesView& added_points,
                          const LanesView& matrix, float* scratch) {
  const size_t n = ContactVelocityCount(tree);
  SWARM_ASSERT(SameCount(poses, added_points, matrix) && contacts.geometry.count == matrix.count);
  SWARM_ASSERT(poses.arrays == kPoseArrays * tree.link_count() &&
               contacts.geometry.arrays == kContactArrays * contacts.count &&
               added_points.arrays == kAddedPointArrays * contacts.count &&
               matrix.arrays == n * n && scratch != nullptr);
  for (size_t c = 0; c < contacts.count; ++c)
    SWARM_ASSERT(contacts.points[c].link < tree.link_count());
  if (matrix.count == 0) return;
  HWY_DYNAMIC_DISPATCH(ContactInertiaMatrixImpl)
  (tree, contacts, poses, added_points, matrix, scratch);
}

}  // namespace swarm
#endif  // HWY_ONCE
