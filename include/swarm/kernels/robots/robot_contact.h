// Compliant point contacts of robot links against a ground plane, for R robots of one model at
// once (structure of arrays over the robot index, swarm/kernels/base/views.h): what lets a
// floating-base robot stand, walk or fall on the floor in RobotBatch's torque mode.
//
// Each contact is a sphere of `radius` centred on a link's origin; its contact point is the
// sphere's lowest point c = (x, y, z - radius) of the link's world position (x, y, z), and it
// touches the plane z = height when the penetration depth d = height - c_z is > 0. Its force in
// the world frame, with v the velocity of the material point at c (the link's motion at c):
//   normal      f_z = max(0, k d - damping v_z)         spring-damper; the max keeps it pushing
//   tangential  f_xy = -mu f_z v_xy / sqrt(|v_xy|^2 + v_s^2)   regularised Coulomb friction:
//               viscous (slope mu f_z / v_s) below the slip velocity v_s, tending to the Coulomb
//               limit mu f_z above it (|f_xy| < mu f_z always)
// and no force when d <= 0. The force enters the equations of motion as the generalised force
// J_c^T f (J_c the Jacobian of c's velocity), which is added to the torques forward dynamics
// reads: per joint on the path from the root to the link, revolute: multiplier axis . ((c - o) x f)
// and prismatic: multiplier axis . f (axis the joint's world axis, o a point on it: its child
// link's origin); for a floating base, the force R^T f and the torque R^T ((c - o_base) x f) in
// base coordinates (R, o_base the base link's pose), matching
// swarm/kernels/robots/dynamics/robot_dynamics.h's base convention. The power f . v equals forces .
// velocities, so contacts do work only through the damping and the friction.
//
// Stability of explicit stepping: the spring and the damper act on the effective mass m_c of the
// touching link (light for a foot, ~0.04 kg on a Solo12 with rigid-body terms only), so
// dt sqrt(k / m_c) and dt damping / m_c, and dt mu f_z / (v_s m_c) for the friction's viscous
// slope, must stay well below 2. The defaults suit a robot of a few kg at dt = 1 ms; armature
// (which adds reflected rotor inertia to the legs) makes them safer still.
//
// Determinism as everywhere in kernels/: each robot's outputs are the same fixed sequence of
// correctly rounded operations on every SIMD target (no FMA, exact Div and Sqrt), and robots never
// interact. Contacts are applied in the order given, each walking its path from the link to the
// root. A robot out of contact gets exactly its input torques back (selects, not added zeros).
// swarm/kernels/robots/robot_contact_reference.h follows the same order in scalar code (bitwise
// equal).
//
// Preconditions (checked once per call with SWARM_ASSERT): views of one call have equal counts;
// the parameters are valid (ValidGroundContact); contact links exist; poses hold 7 arrays per
// link (ForwardKinematics of the same robots); velocities and forces hold velocity_count arrays of
// the tree (6 for a floating base, vx vy vz wx wy wz in base coordinates, then one per joint
// column); normal_forces one array per contact; forces may not overlap the inputs.
#pragma once

#include <cstddef>
#include <cstdint>

#include "swarm/kernels/base/views.h"
#include "swarm/kernels/robots/robot_kinematics.h"

namespace swarm {

struct GroundContact {
  float height = 0.0f;         // the plane z = height (world frame), m
  float stiffness = 2.0e4f;    // k > 0, N/m
  float damping = 40.0f;       // >= 0, N s/m
  float friction = 0.8f;       // mu >= 0
  float slip_velocity = 0.1f;  // v_s > 0, m/s
};
// Finite values in the ranges above.
bool ValidGroundContact(const GroundContact& ground);

struct ContactPoint {
  uint32_t link = 0;    // the link whose origin centres the sphere
  float radius = 0.0f;  // >= 0, m
};

// Velocity-like arrays of `tree`: 6 for a floating base, then one per joint column.
inline size_t ContactVelocityCount(const KinematicTree& tree) {
  return tree.joint_q_count() + (tree.floating_base ? 6 : 0);
}

// forces += J_c^T f_c over the contacts (in order), from the link poses and the velocities of the
// same robots; normal_forces[c] = f_z of contact c (0 out of contact).
void AddGroundContactForces(const KinematicTree& tree, const ContactPoint* contacts,
                            size_t contact_count, const GroundContact& ground,
                            const ConstLanesView& poses, const ConstLanesView& velocities,
                            const LanesView& forces, const LanesView& normal_forces);

}  // namespace swarm
