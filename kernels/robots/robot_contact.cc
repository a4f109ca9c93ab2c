// Dispatch for the ground-contact kernel (swarm/kernels/robots/robot_contact.h): compiled once per
// SIMD target; the exported entry checks its preconditions and picks the best supported target once
// per call.
#include "swarm/kernels/robots/robot_contact.h"

#include <cmath>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/robots/robot_contact-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/robots/robot_contact-inl.h"

#if HWY_ONCE
namespace swarm {

HWY_EXPORT(AddGroundContactForcesImpl);

bool ValidGroundContact(const GroundContact& ground) {
  const auto finite = [](float value) { return std::isfinite(value); };
  return finite(ground.height) && finite(ground.stiffness) && ground.stiffness > 0.0f &&
         finite(ground.damping) && ground.damping >= 0.0f && finite(ground.friction) &&
         ground.friction >= 0.0f && finite(ground.slip_velocity) && ground.slip_velocity > 0.0f;
}

void AddGroundContactForces(const KinematicTree& tree, const ContactPoint* contacts,
                            size_t contact_count, const GroundContact& ground,
                            const ConstLanesView& poses, const ConstLanesView& velocities,
                            const LanesView& forces, const LanesView& normal_forces) {
  SWARM_ASSERT(SameCount(forces, poses, velocities, normal_forces) && ValidGroundContact(ground));
  SWARM_ASSERT(contact_count == 0 || contacts != nullptr);
  for (size_t n = 0; n < contact_count; ++n) {
    SWARM_ASSERT(contacts[n].link < tree.link_count() && std::isfinite(contacts[n].radius) &&
                 contacts[n].radius >= 0.0f);
  }
  const size_t velocity_count = ContactVelocityCount(tree);
  SWARM_ASSERT(poses.arrays == kPoseArrays * tree.link_count() &&
               velocities.arrays == velocity_count && forces.arrays == velocity_count &&
               normal_forces.arrays == contact_count);
  HWY_DYNAMIC_DISPATCH(AddGroundContactForcesImpl)
  (tree, contacts, contact_count, ground, poses, velocities, forces, normal_forces);
}

}  // namespace swarm
#endif  // HWY_ONCE
