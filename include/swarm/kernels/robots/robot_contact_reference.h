// Scalar references for the ground-contact kernels (swarm/kernels/robots/robot_contact.h): one
// robot at a time with the same correctly rounded operations in the same order as
// kernels/robots/robot_contact-inl.h, so with -ffp-contract=off they agree with the kernels to the
// bit on every SIMD target. The batch versions have the kernels' signatures.
#pragma once

#include <cstddef>

#include "swarm/kernels/base/views.h"
#include "swarm/kernels/robots/robot_contact.h"

namespace swarm::reference {

void GroundContactTerms(const KinematicTree& tree, const ContactPoint* contacts,
                        size_t contact_count, const GroundContact& ground,
                        const SoftConstraintStep& normal, const ConstLanesView& poses,
                        const ConstLanesView& velocities, const GroundContactState& state,
                        const GroundContactStep& step, const LanesView& forces,
                        const LanesView& added_points);

bool UpdateContactFlags(const KinematicTree& tree, const ContactPoint* contacts,
                        size_t contact_count, const GroundContact& ground,
                        const SoftConstraintStep& normal, const ConstLanesView& poses,
                        const ConstLanesView& velocities, const ConstLanesView& accelerations,
                        const GroundContactState& state, bool may_release,
                        const GroundContactStep& step, const LanesView& changed);

void GroundContactForces(const KinematicTree& tree, const ContactPoint* contacts,
                         size_t contact_count, const GroundContact& ground,
                         const SoftConstraintStep& normal, const ConstLanesView& poses,
                         const ConstLanesView& velocities, const ConstLanesView& accelerations,
                         const GroundContactStep& step, const GroundContactState& state);

}  // namespace swarm::reference
