// Point contacts of robot links against the world (the ground plane, or any static shape the
// narrow phase collides them with: swarm/kernels/collision/narrow_phase.h), as soft constraints
// (swarm/kernels/robots/soft_constraint.h), for R robots of one model at once (structure of arrays
// over the robot index, swarm/kernels/base/views.h): what lets a floating-base robot stand, walk
// or fall on the floor, on steps or against a wall in RobotBatch's torque mode.
//
// Geometry. Each contact is a point c on a link with a unit normal n (the direction in which the
// contact pushes the link: out of the world's surface) and a signed distance; its rows' position
// is r = distance - margin (negative: penetrating). The geometry is an input, kContactArrays
// arrays per contact (distance, c, n; the narrow phase's layout): GroundContactGeometry writes it
// for spheres centred on link origins against the plane z = height (c the sphere's lowest point
// (x, y, z - radius), n = +z, distance c_z - height), the narrow phase for shapes. The rows are
// the normal n and two tangents t1, t2 (ContactTangents: x and y for n = +z), with the velocities
// v = J_c qd of the material point at c (J_c its Jacobian) and the accelerations J_c qdd, in those
// three directions. A contact's friction state (its force and anchor) is kept in (t1, t2) of its
// latest normal: as the normal turns, the state turns with it.
//
// The normal row is a soft constraint (soft_constraint.h (2)) with the contact's reference inverse
// inertia w0 (the mean of the diagonal of J_c (M + A)^-1 J_c^T at q = 0). Friction has an elliptic
// (here circular, isotropic) cone |f_t| <= mu f_n and two modes, kept per contact between steps:
//   stick  the tangential rows are soft constraints too, with the normal's coefficients, whose
//          position is the anchor u: how far the point has moved along the surface since it stuck.
//          Unlike MuJoCo's friction rows (velocity only, which let a loaded foot creep at
//          R f / b), a sticking point springs back to where it stuck: a robot standing still does
//          not creep.
//   slide  f_t = -mu f_n v_t / |v_t| (Coulomb, kinetic = static), with f_n the normal force of the
//          previous step and v_t the tangential velocity at the step's start.
// The normal row is MuJoCo's soft constraint, but for a point that arrives (outside the surface
// one step ago, r - dt v_n >= 0) while moving in: it stops within the step, an inelastic impact
// (the row's damping is m / dt). Which rows act is settled within the step, by solving again while
// it changes (UpdateContactFlags; soft_constraint.h, one-sided rows): a penetrating contact (r < 0)
// is active unless a solve found its normal force pulling (a foot lifting off leaves at once); a
// point that a solve lets sink below the surface within the step is caught, landing on it;
// a sticking contact whose tangential force a solve found outside the
// cone slides for the step, with the cone's projection of that force; a sliding contact whose
// sliding force a solve found turning its tangential velocity around (explicit Coulomb friction
// stronger than the motion it brakes, which would add energy) sticks for the step. After the last
// solve, ContactForces evaluates each row's force (f = f_e - m J_c qdd) and the modes of the
// next step: a sliding contact whose tangential velocity at the step's end v_t' = v_t + dt J_c qdd
// no longer runs against its friction force sticks again, anchored where it is (u = 0: the spring
// never holds energy the motion did not put in); a sticking one moves its anchor by dt v_t';
// inactive contacts have no force and stick with u = 0.
//
// How the rows reach the dynamics: ContactTerms adds J_c^T f_e to the generalised forces
// and writes each contact's point inertia (m_n along the normal, m_t = m for sticking rows across
// it: swarm/kernels/robots/dynamics/robot_dynamics.h, AddedInertia) for forward dynamics, whose
// point inertias meet only the step's J_c qdd (not gravity, not the velocity-product terms): the
// solve applies exactly f = f_e - m J_c qdd, the force ContactForces reports. J_c^T f is,
// per joint on the path from the root to the link, revolute: multiplier axis . ((c - o) x f),
// prismatic: multiplier axis . f (axis the joint's world axis, o a point on it: its child link's
// origin); for a floating base, the force R^T f and the torque R^T ((c - o_base) x f) in base
// coordinates (R, o_base the base link's pose), with f = f_n n + f_1 t1 + f_2 t2.
//
// Determinism as everywhere in kernels/: each robot's outputs are the same fixed sequence of
// correctly rounded operations on every SIMD target (no FMA, exact Div and Sqrt), and robots never
// interact. Contacts are applied in the order given. A robot out of contact gets exactly its input
// forces back (selects, not added zeros).
// swarm/kernels/robots/robot_contact_reference.h follows the same order in scalar code.
//
// Preconditions (checked once per call with SWARM_ASSERT): views of one call have equal counts;
// the parameters are valid (ValidContactParameters, ValidContactPoint; one dt); contact links
// exist; poses hold 7 arrays per link (ForwardKinematics of the same robots); the geometry
// kContactArrays per contact, finite (a contact with none: distance kNoContact, any finite point
// and unit normal); velocities, accelerations and forces hold velocity_count arrays of the tree
// (6 for a floating base, vx vy vz wx wy wz in base coordinates, then one per joint column); the
// state arrays as ContactState says; forces and outputs may not overlap the inputs.
#pragma once

#include <cstddef>
#include <cstdint>

#include "swarm/kernels/base/views.h"
#include "swarm/kernels/collision/narrow_phase.h"
#include "swarm/kernels/robots/robot_kinematics.h"
#include "swarm/kernels/robots/soft_constraint.h"

namespace swarm {

struct GroundContact {
  float height = 0.0f;    // the plane z = height (world frame), m
  float friction = 0.8f;  // mu >= 0
  // Of the normal and the sticking tangential rows (MuJoCo's defaults, the point rows' mass cap).
  SoftConstraint soft{.max_mass_ratio = kContactMaxMassRatio};
};
// Finite values in the ranges above (and a valid soft constraint).
bool ValidGroundContact(const GroundContact& ground);

struct ContactPoint {
  uint32_t link = 0;    // the link that carries the contact
  float radius = 0.0f;  // >= 0, m: of a ground contact's sphere on the link's origin (else 0)
  // The dynamics body that carries the link (swarm/robots/dynamics_model.h, LinkInBody) and the
  // link frame in the body frame: body coordinates = link_rotation (row-major) link coordinates
  // + link_origin.
  uint32_t body = 0;
  float link_rotation[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  float link_origin[3] = {0, 0, 0};
  float inverse_inertia0 = 1.0f;  // w0 > 0, 1/kg
};
bool ValidContactPoint(const ContactPoint& contact);

// How one contact's rows push back.
struct ContactParameters {
  float friction = 0.8f;  // mu >= 0 of the cone
  float margin = 0.0f;    // finite: the rows act at distance < margin (r = distance - margin)
  // > 0, finite: the regulariser R's inertia is w0 times this (MuJoCo's pyramidal cone makes its
  // normal rows stiffer than solref and solimp say: engine/robots/world_contacts.h); w0 alone
  // bounds the virtual mass (soft_constraint.h, stiff rows).
  float regulariser_scale = 1.0f;
  SoftConstraintStep normal;  // of the normal and the sticking tangential rows, for the step's dt
};
// Finite values in the ranges above, a prepared soft constraint with dt > 0.
bool ValidContactParameters(const ContactParameters& parameters);

// The contacts of a call: per contact its point, its parameters (all with one dt) and, per robot,
// its geometry (kContactArrays arrays per contact: distance, c, n) and the velocity of its
// material point at the step's start along (t1, t2, n) (kContactVelocityArrays per contact:
// ContactVelocities, once per step, which every solve of the step reads).
struct ContactSet {
  const ContactPoint* points = nullptr;
  const ContactParameters* parameters = nullptr;
  size_t count = 0;
  ConstLanesView geometry;
  ConstLanesView point_velocities;
};
inline constexpr size_t kContactVelocityArrays = 3;

// The state contacts keep between steps, one or two arrays per contact in contact order.
struct ContactState {
  LanesView normal_forces;    // count: the last step's normal force (N, 0 inactive)
  LanesView friction_forces;  // 2 count: its tangential force (along t1 t2, N)
  LanesView anchors;          // 2 count: a sticking contact's anchor offset u (along t1 t2, m)
  LanesView sliding;          // count: 1 sliding, 0 sticking
};

// Velocity-like arrays of `tree`: 6 for a floating base, then one per joint column.
inline size_t ContactVelocityCount(const KinematicTree& tree) {
  return tree.joint_q_count() + (tree.floating_base ? 6 : 0);
}

// The tangents of a contact with unit normal n: the orthonormal basis (t1, t2, n) of Duff et al.,
// "Building an orthonormal basis, revisited" (JCGT 6(1), 2017), continuous but at n_z = 0 from
// below, exactly t1 = x and t2 = y for n = +z; the kernels compute it with these operations.
inline void ContactTangents(const float n[3], float t1[3], float t2[3]) {
  const float sign = n[2] < 0.0f ? -1.0f : 1.0f;
  const float a = -1.0f / (sign + n[2]);
  const float b = (n[0] * n[1]) * a;
  t1[0] = 1.0f + ((sign * n[0]) * n[0]) * a;
  t1[1] = sign * b;
  t1[2] = -(sign * n[0]);
  t2[0] = b;
  t2[1] = sign + (n[1] * n[1]) * a;
  t2[2] = -n[1];
}

// What a step's solves settle per contact (one float, or two, per contact and robot; zeros before
// the step's first solve, but that the caller may start a contact released, kRowReleased: the
// torque step so starts a contact the last step let go whose point still leaves, which a solve
// would release again): the normal row's flag (soft_constraint.h, one-sided rows), friction's
// (0: the mode the contact entered the step with, kContactSlipping: it slides with the slip force,
// kContactSticking: it sticks) and the sliding force of slipping contacts.
struct ContactStep {
  LanesView flags;        // count
  LanesView slipping;     // count
  LanesView slip_forces;  // 2 count: along t1 t2, N
};
inline constexpr float kContactSlipping = 1.0f;
inline constexpr float kContactSticking = -1.0f;

// The geometry of ground contacts (spheres of contacts[n].radius on their links' origins against
// the plane z = height) from the link poses, into `geometry` (kContactArrays per contact).
void GroundContactGeometry(const KinematicTree& tree, const ContactPoint* contacts, size_t count,
                           float height, const ConstLanesView& poses, const LanesView& geometry);

// At the step's start state, after the geometry: each contact's point velocity J_c qd along
// (t1, t2, n) into `out` (kContactVelocityArrays per contact; contacts.point_velocities is not
// read).
void ContactVelocities(const KinematicTree& tree, const ContactSet& contacts,
                       const ConstLanesView& poses, const ConstLanesView& velocities,
                       const LanesView& out);

// Before forward dynamics, at the step's start state: forces += J_c^T f_e over the active contacts
// (in order), and added_points (kAddedPointArrays = 8 per contact: the contact point and its
// normal in the body frame, m_n, m_t; zero masses when inactive) for AddedInertia. The state and
// the step's flags are read only.
void ContactTerms(const KinematicTree& tree, const ContactSet& contacts,
                  const ConstLanesView& poses, const ConstLanesView& velocities,
                  const ContactState& state, const ContactStep& step, const LanesView& forces,
                  const LanesView& added_points);

// After a solve gave `accelerations` (with ContactTerms' terms and the step's flags): the
// normal rows' flags of the next solve (soft_constraint.h, one-sided rows), and friction's:
// sticking contacts whose tangential force left the cone mu max(f_n, 0) slip (a pulling row that
// is stopped rather than released has no friction), sliding ones whose friction turns
// them around stick (friction's flag goes from 0 to sticking or slipping and from sticking to
// slipping, never back); true when any robot's flags changed, and the step then solves those
// robots again (`changed`, one array, gets 1 where a robot's flags changed and keeps its value
// elsewhere). A robot whose flags did not change gets the same bits from the next solve. Without
// `may_release` no row is released or dropped, and the rows the step let go of robots whose mark
// is set are stopped: the step's last update.
bool UpdateContactFlags(const KinematicTree& tree, const ContactSet& contacts,
                        const ConstLanesView& poses, const ConstLanesView& velocities,
                        const ConstLanesView& accelerations, const ContactState& state,
                        bool may_release, const ContactStep& step, const LanesView& changed);

// After the step's last solve, at the same start state: every contact's forces and its mode and
// anchor for the next step, into the state.
void ContactForces(const KinematicTree& tree, const ContactSet& contacts,
                   const ConstLanesView& poses, const ConstLanesView& velocities,
                   const ConstLanesView& accelerations, const ContactStep& step,
                   const ContactState& state);

}  // namespace swarm
