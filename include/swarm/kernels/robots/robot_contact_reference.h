// Scalar references for the point-contact kernels (swarm/kernels/robots/robot_contact.h): one
// robot at a time with the same correctly rounded operations in the same order as
// kernels/robots/robot_contact-inl.h, so with -ffp-contract=off they agree with the kernels to the
// bit on every SIMD target. The batch versions have the kernels' signatures.
#pragma once

#include <cstddef>

#include "swarm/kernels/base/views.h"
#include "swarm/kernels/robots/robot_contact.h"

namespace swarm::reference {

void GroundContactGeometry(const KinematicTree& tree, const ContactPoint* contacts, size_t count,
                           float height, const ConstLanesView& poses, const LanesView& geometry);

void ContactVelocities(const KinematicTree& tree, const ContactSet& contacts,
                       const ConstLanesView& poses, const ConstLanesView& velocities,
                       const LanesView& out);

void ContactTerms(const KinematicTree& tree, const ContactSet& contacts,
                  const ConstLanesView& poses, const ConstLanesView& velocities,
                  const ContactState& state, const ContactStep& step, const LanesView& forces,
                  const LanesView& added_points);

bool UpdateContactFlags(const KinematicTree& tree, const ContactSet& contacts,
                        const ConstLanesView& poses, const ConstLanesView& velocities,
                        const ConstLanesView& accelerations, const ContactState& state,
                        bool may_release, const ContactStep& step, const LanesView& changed);

void ContactForces(const KinematicTree& tree, const ContactSet& contacts,
                   const ConstLanesView& poses, const ConstLanesView& velocities,
                   const ConstLanesView& accelerations, const ContactStep& step,
                   const ContactState& state);

}  // namespace swarm::reference
