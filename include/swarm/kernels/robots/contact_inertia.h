// The contacts' added inertia as a dense matrix, for robots whose forward dynamics cannot take
// point inertias: trees with mimic couplings (the Panda's fingers) solve (M + E) qdd = tau - h by
// CRBA and LTDL (swarm/kernels/robots/dynamics/robot_dynamics.h, AddedInertia::matrix), where
// the articulated-body algorithm of other trees takes each contact as a point inertia of its body.
// Both are the same E:
//   E = sum over contacts of J_c^T (m_t 1 + (m_n - m_t) n n^T) J_c,
// J_c the Jacobian of the velocity of the material point at the contact point c (world frame,
// swarm/kernels/robots/robot_contact.h: per joint on the path from the link to the root, revolute
// axis x (c - o), prismatic axis, times the joint's multiplier; for a floating base its linear and
// angular columns), n the contact's unit normal, m_n and m_t the masses ContactTerms wrote
// (kAddedPointArrays per contact: arrays 6 and 7).
//
// Determinism as everywhere in kernels/: each robot's matrix is the same fixed sequence of
// correctly rounded operations on every SIMD target (no FMA), contacts in order, columns in order.
// A vector of robots none of whose lanes has mass at a contact skips it (its terms are zeros).
//
// Preconditions (checked once per call with SWARM_ASSERT): views of one call have equal counts;
// poses hold kPoseArrays per link, the contacts' geometry kContactArrays per contact (finite),
// added_points kAddedPointArrays per contact with m_n, m_t >= 0; matrix holds velocity_count^2
// arrays (ContactVelocityCount) and does not overlap the inputs; scratch holds
// ContactInertiaScratchFloats(tree) floats.
#pragma once

#include <cstddef>

#include "swarm/kernels/base/views.h"
#include "swarm/kernels/robots/robot_contact.h"
#include "swarm/kernels/robots/robot_kinematics.h"

namespace swarm {

// Floats of the scratch ContactInertiaMatrix needs: a contact's Jacobian for one vector of robots.
inline size_t ContactInertiaScratchFloats(const KinematicTree& tree) {
  return 3 * ContactVelocityCount(tree) * (kMaxVectorBytes / sizeof(float));
}

// matrix (velocity_count^2 arrays, row-major) = E above for the contacts' geometry
// (contacts.geometry: point c and normal n) at these link poses and the masses of added_points.
// contacts.point_velocities is not read.
void ContactInertiaMatrix(const KinematicTree& tree, const ContactSet& contacts,
                          const ConstLanesView& poses, const ConstLanesView& added_points,
                          const LanesView& matrix, float* scratch);

}  // namespace swarm
