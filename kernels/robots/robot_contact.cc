// Dispatch for the ground-contact kernels (swarm/kernels/robots/robot_contact.h): compiled once per
// SIMD target; the exported entries check their preconditions and pick the best supported target
// once per call.
#include "swarm/kernels/robots/robot_contact.h"

#include <cmath>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/robots/robot_contact-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/robots/robot_contact-inl.h"

#if HWY_ONCE
#include "swarm/kernels/base/assert.h"

namespace swarm {

HWY_EXPORT(GroundContactTermsImpl);
HWY_EXPORT(GroundContactForcesImpl);
HWY_EXPORT(UpdateContactFlagsImpl);

bool ValidGroundContact(const GroundContact& ground) {
  return std::isfinite(ground.height) && std::isfinite(ground.friction) &&
         ground.friction >= 0.0f && ValidSoftConstraint(ground.soft);
}

bool ValidContactPoint(const ContactPoint& contact) {
  bool finite = std::isfinite(contact.radius) && contact.radius >= 0.0f &&
                std::isfinite(contact.inverse_inertia0) && contact.inverse_inertia0 > 0.0f;
  for (float value : contact.link_rotation) finite = finite && std::isfinite(value);
  for (float value : contact.link_origin) finite = finite && std::isfinite(value);
  return finite;
}

namespace {

bool ValidContacts(const KinematicTree& tree, const ContactPoint* contacts, size_t count) {
  if (count > 0 && contacts == nullptr) return false;
  for (size_t n = 0; n < count; ++n) {
    if (contacts[n].link >= tree.link_count() || !ValidContactPoint(contacts[n])) return false;
  }
  return true;
}

bool ValidState(const GroundContactState& state, size_t count, size_t robots) {
  return state.normal_forces.arrays == count && state.friction_forces.arrays == 2 * count &&
         state.anchors.arrays == 2 * count && state.sliding.arrays == count &&
         SameCount(state.normal_forces, state.friction_forces, state.anchors, state.sliding) &&
         state.normal_forces.count == robots;
}

bool ValidFlags(const GroundContactStep& step, size_t count, size_t robots) {
  return step.flags.arrays == count && step.slipping.arrays == count &&
         step.slip_forces.arrays == 2 * count && step.flags.count == robots &&
         step.slipping.count == robots && step.slip_forces.count == robots;
}

bool ValidStep(const SoftConstraintStep& normal) {
  return std::isfinite(normal.dt) && normal.dt > 0.0f && std::isfinite(normal.k) &&
         std::isfinite(normal.b) && normal.power >= 1 && normal.power <= kMaxImpedancePower;
}

}  // namespace

void GroundContactTerms(const KinematicTree& tree, const ContactPoint* contacts,
                        size_t contact_count, const GroundContact& ground,
                        const SoftConstraintStep& normal, const ConstLanesView& poses,
                        const ConstLanesView& velocities, const GroundContactState& state,
                        const GroundContactStep& step, const LanesView& forces,
                        const LanesView& added_points) {
  SWARM_ASSERT(ValidGroundContact(ground) && ValidStep(normal) &&
               ValidContacts(tree, contacts, contact_count));
  SWARM_ASSERT(SameCount(forces, poses, velocities, added_points) &&
               ValidState(state, contact_count, forces.count) &&
               ValidFlags(step, contact_count, forces.count));
  const size_t velocity_count = ContactVelocityCount(tree);
  SWARM_ASSERT(poses.arrays == kPoseArrays * tree.link_count() &&
               velocities.arrays == velocity_count && forces.arrays == velocity_count &&
               added_points.arrays == kAddedPointArrays * contact_count);
  HWY_DYNAMIC_DISPATCH(GroundContactTermsImpl)
  (tree, contacts, contact_count, ground, normal, poses, velocities, state, step, forces,
   added_points);
}

bool UpdateContactFlags(const KinematicTree& tree, const ContactPoint* contacts,
                        size_t contact_count, const GroundContact& ground,
                        const SoftConstraintStep& normal, const ConstLanesView& poses,
                        const ConstLanesView& velocities, const ConstLanesView& accelerations,
                        const GroundContactState& state, bool may_release,
                        const GroundContactStep& step, const LanesView& changed) {
  SWARM_ASSERT(ValidGroundContact(ground) && ValidStep(normal) &&
               ValidContacts(tree, contacts, contact_count));
  SWARM_ASSERT(SameCount(poses, velocities, accelerations, changed) &&
               ValidState(state, contact_count, poses.count) &&
               ValidFlags(step, contact_count, poses.count) && changed.arrays == 1);
  const size_t velocity_count = ContactVelocityCount(tree);
  SWARM_ASSERT(poses.arrays == kPoseArrays * tree.link_count() &&
               velocities.arrays == velocity_count && accelerations.arrays == velocity_count);
  return HWY_DYNAMIC_DISPATCH(UpdateContactFlagsImpl)(tree, contacts, contact_count, ground, normal,
                                                      poses, velocities, accelerations, state,
                                                      may_release, step, changed);
}

void GroundContactForces(const KinematicTree& tree, const ContactPoint* contacts,
                         size_t contact_count, const GroundContact& ground,
                         const SoftConstraintStep& normal, const ConstLanesView& poses,
                         const ConstLanesView& velocities, const ConstLanesView& accelerations,
                         const GroundContactStep& step, const GroundContactState& state) {
  SWARM_ASSERT(ValidGroundContact(ground) && ValidStep(normal) &&
               ValidContacts(tree, contacts, contact_count));
  SWARM_ASSERT(SameCount(poses, velocities, accelerations) &&
               ValidState(state, contact_count, poses.count) &&
               ValidFlags(step, contact_count, poses.count));
  const size_t velocity_count = ContactVelocityCount(tree);
  SWARM_ASSERT(poses.arrays == kPoseArrays * tree.link_count() &&
               velocities.arrays == velocity_count && accelerations.arrays == velocity_count);
  HWY_DYNAMIC_DISPATCH(GroundContactForcesImpl)
  (tree, contacts, contact_count, ground, normal, poses, velocities, accelerations, step, state);
}

}  // namespace swarm
#endif  // HWY_ONCE
