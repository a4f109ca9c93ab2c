// Dispatch for the point-contact kernels (swarm/kernels/robots/robot_contact.h): compiled once per
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

HWY_EXPORT(GroundContactGeometryImpl);
HWY_EXPORT(ContactVelocitiesImpl);
HWY_EXPORT(ContactTermsImpl);
HWY_EXPORT(ContactForcesImpl);
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

bool ValidContactParameters(const ContactParameters& parameters) {
  const SoftConstraintStep& normal = parameters.normal;
  return std::isfinite(parameters.friction) && parameters.friction >= 0.0f &&
         std::isfinite(parameters.margin) && std::isfinite(parameters.regulariser_scale) &&
         parameters.regulariser_scale > 0.0f && std::isfinite(normal.dt) && normal.dt > 0.0f &&
         std::isfinite(normal.k) && std::isfinite(normal.b) && normal.power >= 1 &&
         normal.power <= kMaxImpedancePower;
}

namespace {

bool ValidPoints(const KinematicTree& tree, const ContactPoint* points, size_t count) {
  if (count > 0 && points == nullptr) return false;
  for (size_t n = 0; n < count; ++n) {
    if (points[n].link >= tree.link_count() || !ValidContactPoint(points[n])) return false;
  }
  return true;
}

bool ValidSet(const KinematicTree& tree, const ContactSet& contacts, size_t robots) {
  if (!ValidPoints(tree, contacts.points, contacts.count)) return false;
  if (contacts.count > 0 && contacts.parameters == nullptr) return false;
  for (size_t n = 0; n < contacts.count; ++n) {
    if (!ValidContactParameters(contacts.parameters[n]) ||
        contacts.parameters[n].normal.dt != contacts.parameters[0].normal.dt) {
      return false;
    }
  }
  return contacts.geometry.arrays == kContactArrays * contacts.count &&
         contacts.geometry.count == robots &&
         contacts.point_velocities.arrays == kContactVelocityArrays * contacts.count &&
         contacts.point_velocities.count == robots;
}

bool ValidState(const ContactState& state, size_t count, size_t robots) {
  return state.normal_forces.arrays == count && state.friction_forces.arrays == 2 * count &&
         state.anchors.arrays == 2 * count && state.sliding.arrays == count &&
         SameCount(state.normal_forces, state.friction_forces, state.anchors, state.sliding) &&
         state.normal_forces.count == robots;
}

bool ValidFlags(const ContactStep& step, size_t count, size_t robots) {
  return step.flags.arrays == count && step.slipping.arrays == count &&
         step.slip_forces.arrays == 2 * count && step.flags.count == robots &&
         step.slipping.count == robots && step.slip_forces.count == robots;
}

}  // namespace

void GroundContactGeometry(const KinematicTree& tree, const ContactPoint* contacts, size_t count,
                           float height, const ConstLanesView& poses, const LanesView& geometry) {
  SWARM_ASSERT(ValidPoints(tree, contacts, count) && std::isfinite(height));
  SWARM_ASSERT(SameCount(poses, geometry) && poses.arrays == kPoseArrays * tree.link_count() &&
               geometry.arrays == kContactArrays * count);
  HWY_DYNAMIC_DISPATCH(GroundContactGeometryImpl)(contacts, count, height, poses, geometry);
}

void ContactVelocities(const KinematicTree& tree, const ContactSet& contacts,
                       const ConstLanesView& poses, const ConstLanesView& velocities,
                       const LanesView& out) {
  ContactSet placed = contacts;
  placed.point_velocities = out;  // checked as the others read it
  SWARM_ASSERT(ValidSet(tree, placed, out.count));
  SWARM_ASSERT(SameCount(poses, velocities, out) &&
               poses.arrays == kPoseArrays * tree.link_count() &&
               velocities.arrays == ContactVelocityCount(tree));
  HWY_DYNAMIC_DISPATCH(ContactVelocitiesImpl)(tree, contacts, poses, velocities, out);
}

void ContactTerms(const KinematicTree& tree, const ContactSet& contacts,
                  const ConstLanesView& poses, const ConstLanesView& velocities,
                  const ContactState& state, const ContactStep& step, const LanesView& forces,
                  const LanesView& added_points) {
  SWARM_ASSERT(ValidSet(tree, contacts, forces.count));
  SWARM_ASSERT(SameCount(forces, poses, velocities, added_points) &&
               ValidState(state, contacts.count, forces.count) &&
               ValidFlags(step, contacts.count, forces.count));
  const size_t velocity_count = ContactVelocityCount(tree);
  SWARM_ASSERT(poses.arrays == kPoseArrays * tree.link_count() &&
               velocities.arrays == velocity_count && forces.arrays == velocity_count &&
               added_points.arrays == kAddedPointArrays * contacts.count);
  HWY_DYNAMIC_DISPATCH(ContactTermsImpl)
  (tree, contacts, poses, velocities, state, step, forces, added_points);
}

bool UpdateContactFlags(const KinematicTree& tree, const ContactSet& contacts,
                        const ConstLanesView& poses, const ConstLanesView& velocities,
                        const ConstLanesView& accelerations, const ContactState& state,
                        bool may_release, const ContactStep& step, const LanesView& changed) {
  SWARM_ASSERT(ValidSet(tree, contacts, poses.count));
  SWARM_ASSERT(SameCount(poses, velocities, accelerations, changed) &&
               ValidState(state, contacts.count, poses.count) &&
               ValidFlags(step, contacts.count, poses.count) && changed.arrays == 1);
  const size_t velocity_count = ContactVelocityCount(tree);
  SWARM_ASSERT(poses.arrays == kPoseArrays * tree.link_count() &&
               velocities.arrays == velocity_count && accelerations.arrays == velocity_count);
  return HWY_DYNAMIC_DISPATCH(UpdateContactFlagsImpl)(
      tree, contacts, poses, velocities, accelerations, state, may_release, step, changed);
}

void ContactForces(const KinematicTree& tree, const ContactSet& contacts,
                   const ConstLanesView& poses, const ConstLanesView& velocities,
                   const ConstLanesView& accelerations, const ContactStep& step,
                   const ContactState& state) {
  SWARM_ASSERT(ValidSet(tree, contacts, poses.count));
  SWARM_ASSERT(SameCount(poses, velocities, accelerations) &&
               ValidState(state, contacts.count, poses.count) &&
               ValidFlags(step, contacts.count, poses.count));
  const size_t velocity_count = ContactVelocityCount(tree);
  SWARM_ASSERT(poses.arrays == kPoseArrays * tree.link_count() &&
               velocities.arrays == velocity_count && accelerations.arrays == velocity_count);
  HWY_DYNAMIC_DISPATCH(ContactForcesImpl)
  (tree, contacts, poses, velocities, accelerations, step, state);
}

}  // namespace swarm
#endif  // HWY_ONCE
