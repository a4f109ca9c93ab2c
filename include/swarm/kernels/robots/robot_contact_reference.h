// Scalar reference for the ground-contact kernel (swarm/kernels/robots/robot_contact.h): one robot
// at a time with the same correctly rounded operations in the same order as
// kernels/robots/robot_contact-inl.h, so with -ffp-contract=off it agrees with the kernel to the
// bit on every SIMD target. The batch version has the kernel's signature.
#pragma once

#include <cstddef>

#include "swarm/kernels/base/views.h"
#include "swarm/kernels/robots/robot_contact.h"

namespace swarm::reference {

void AddGroundContactForces(const KinematicTree& tree, const ContactPoint* contacts,
                            size_t contact_count, const GroundContact& ground,
                            const ConstLanesView& poses, const ConstLanesView& velocities,
                            const LanesView& forces, const LanesView& normal_forces);

}  // namespace swarm::reference
