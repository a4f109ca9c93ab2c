// Batched rigid-body dynamics of robot trees: inverse dynamics (RNEA), the joint-space mass matrix
// (CRBA), its factorisation and solves exploiting the tree (LTDL), and forward dynamics (ABA),
// for R robots of one model at once (structure of arrays over the robot index,
// swarm/kernels/base/views.h), after Featherstone, "Rigid Body Dynamics Algorithms" (2008),
// chapters 5-7 and 9.
//
// The model arrives as a DynamicsTree: rigid bodies in topological order (body 0 is the root,
// every body's parent has a smaller number), each carried by one revolute or prismatic joint and
// holding every link attached to it by fixed joints (swarm/robots/dynamics_model.h builds one
// from a URDF). Spatial vectors are in body coordinates, angular part first (Featherstone's
// convention); users never see them.
//
// Coordinates. q has KinematicTree's layout: for a floating base 7 values x y z qw qx qy qz (the
// base link's position and orientation in the world), then the independent joint values. The
// velocity-like arrays (qd, qdd, tau, rows and columns of the mass matrix) have velocity_count()
// entries: for a floating base first 6 for the base, then one per independent joint. The base's 6
// are its spatial velocity in its own (body) frame, linear first: (vx vy vz wx wy wz) = the
// velocity of the base link's origin and the angular velocity, both in base link coordinates
// (Pinocchio's convention for a free-flyer); its qdd is the time derivative of that vector and its
// tau the force and torque applied to the base about its origin, in base coordinates. So
// d/dt(position) = R v and d/dt(quaternion) = 0.5 q (w, 0).
//
// Mimic joints are couplings: body b's joint value is multiplier * q[q_index] + offset, its rate
// multiplier * qd[q_index], so the equations are in reduced coordinates (M = T^T M_full T,
// tau = T^T tau_full for the body-to-column map T).
//
// Joint terms: per body an armature (rotor inertia reflected through the gearbox, added to M's
// diagonal), viscous damping and Coulomb friction, smoothed as friction * v / sqrt(v^2 + eps^2)
// with eps = friction_velocity (exact division and square root, so every target agrees). They
// enter every algorithm alike: tau = (M(q) + A) qdd + C(q, qd) qd + g(q) + damping qd +
// friction(qd); trees built for rigid-body terms only set them to zero.
//
// Determinism as everywhere in kernels/: each robot's outputs are the same fixed sequence of
// correctly rounded operations on every SIMD target (no FMA, exact Div and Sqrt, the project's own
// sin/cos), robots never interact, so robot r gets the same bits alone or in any batch, on any
// thread. swarm/kernels/robots/dynamics/robot_dynamics_reference.h is an independent
// double-precision implementation the tests compare with.
//
// Scratch: every kernel works on one vector of robots at a time and keeps its per-body spatial
// quantities in `scratch` (RobotDynamicsScratchFloats(tree) floats, kAlignBytes-aligned, not
// shared between concurrent calls), so the working set stays in L1/L2 at any batch size and a call
// allocates nothing.
//
// Preconditions (checked once per call with SWARM_ASSERT): the tree is valid (ValidDynamicsTree);
// views of one call have equal counts and the array counts stated; outputs do not overlap inputs.
#pragma once

#include <cstddef>
#include <cstdint>

#include "swarm/kernels/base/views.h"
#include "swarm/kernels/robots/robot_kinematics.h"

namespace swarm {

// Velocity-like values of a floating base: vx vy vz wx wy wz.
inline constexpr size_t kFloatingBaseVelocities = 6;

struct DynamicsBody {
  uint32_t parent = 0;                          // < this body's index; unused for body 0
  JointMotion motion = JointMotion::kRevolute;  // kRevolute or kPrismatic; unused for body 0
  int32_t q_index = 0;  // independent joint column driving the joint (after a floating base)
  float multiplier = 1.0f, offset = 0.0f;  // mimic coupling: value = multiplier q + offset
  // The joint frame (the body frame at joint value 0) in the parent body's frame: rotation matrix
  // (row-major, columns are the joint frame's axes in parent coordinates) and origin.
  float origin_rotation[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  float origin_translation[3] = {0, 0, 0};
  float axis[3] = {1, 0, 0};  // unit, in the joint (= body) frame
  // Inertia about the body frame's origin, in body coordinates: mass, first moment mass * com,
  // and the rotational inertia about the origin (xx yy zz xy xz yz).
  float mass = 0.0f;
  float first_moment[3] = {0, 0, 0};
  float rotational_inertia[6] = {0, 0, 0, 0, 0, 0};
  // Joint terms (see above); zero for body 0.
  float armature = 0.0f, damping = 0.0f, friction = 0.0f;
};

struct DynamicsTree {
  const DynamicsBody* bodies = nullptr;
  size_t body_count = 0;       // >= 1: body 0 is the root
  size_t joint_q_count = 0;    // independent joint columns
  bool floating_base = false;  // body 0 moves freely (7 q values, 6 velocities)
  // Per velocity index (velocity_count() entries): the nearest velocity index it depends on
  // through the tree, or -1. Row k of the mass matrix is nonzero only at k's ancestors and
  // descendants in this forest, which the LTDL factorisation keeps sparse (Featherstone 6.5). A
  // tree without couplings uses its bodies' parents (the base's 6 velocities form a chain); mimic
  // couplings fill in rows, so such trees use the chain k - 1 (dense LDL^T), which nullptr
  // also means.
  const int32_t* velocity_parent = nullptr;
  float friction_velocity = 0.01f;  // eps of the smoothed Coulomb friction, > 0

  size_t q_count() const { return joint_q_count + (floating_base ? kFloatingBaseArrays : 0); }
  size_t velocity_count() const {
    return joint_q_count + (floating_base ? kFloatingBaseVelocities : 0);
  }
  size_t joint_q_begin() const { return floating_base ? kFloatingBaseArrays : 0; }
  size_t joint_velocity_begin() const { return floating_base ? kFloatingBaseVelocities : 0; }
};

// The tree invariants the kernels rely on: parents before children, revolute or prismatic
// motions, q_index in range, finite constants, every independent column driven by a body,
// velocity_parent[k] < k and friction_velocity > 0 (finite).
bool ValidDynamicsTree(const DynamicsTree& tree);
// Whether some column drives more than one body or a body with multiplier != 1 or offset != 0.
bool HasCouplings(const DynamicsTree& tree);

// Floats of scratch every kernel below needs for `tree`.
size_t RobotDynamicsScratchFloats(const DynamicsTree& tree);

// tau (velocity_count arrays) = inverse dynamics of (q, qd, qdd) under `gravity` (world frame,
// m/s^2; e.g. 0 0 -9.81): tau = (M + A) qdd + C qd + g + joint damping and friction. With qdd = 0
// it is the bias h(q, qd); with qd = qdd = 0 the gravity torques g(q).
void InverseDynamics(const DynamicsTree& tree, const float gravity[3], const ConstLanesView& q,
                     const ConstLanesView& qd, const ConstLanesView& qdd, const LanesView& tau,
                     float* scratch);

// The sine and cosine of every body's joint value (its coupled value for a mimic joint), which
// the kernels otherwise compute from q in each call: a tenth of ABA's work and a fifth of
// GravityTorques' for a Panda. A torque step's gravity torques and its solves, all at the same q,
// share them. `values` has JointTrigArrays(tree) arrays: 2 (b - 1) holds the sine and
// 2 (b - 1) + 1 the cosine of body b's joint (0 and 0 for a prismatic joint), in lanes of the
// kernel's robots, writable up to RoundUpToVector(count). When `known` is false, the kernel given
// it computes them from q and writes them; when true, it reads them instead (the same bits either
// way, for the same q). Trees without couplings only.
struct JointTrig {
  LanesView values;
  bool known = false;
};
inline size_t JointTrigArrays(const DynamicsTree& tree) {
  return tree.body_count > 0 ? 2 * (tree.body_count - 1) : 0;
}

// tau (velocity_count arrays) = g(q), the torques that hold the robots still under `gravity`:
// InverseDynamics at qd = qdd = 0, computed from each subtree's mass and first moment (the force a
// still subtree needs is its composite body's weight), without RNEA's spatial inertias. With
// `trig`, the joints' sines and cosines come from it or go to it (JointTrig).
void GravityTorques(const DynamicsTree& tree, const float gravity[3], const ConstLanesView& q,
                    const LanesView& tau, float* scratch, const JointTrig* trig = nullptr);

// out (velocity_count arrays) = (M(q) + A) v: InverseDynamics at qd = 0, qdd = v without gravity
// (a robot's momentum in joint space; 0.5 v . out is its kinetic energy).
void MassTimes(const DynamicsTree& tree, const ConstLanesView& q, const ConstLanesView& v,
               const LanesView& out, float* scratch);

// The mass matrix kernels store their outputs past the cache (non-temporal stores) from this many
// bytes per call, a quarter of kStreamOutputBytes: half of a core's L2 here, because a mass matrix
// and its factor are about a hundred output arrays, whose lines the cached path must first read
// (for ownership) and the prefetcher cannot follow. 10,000 Panda arms (3.9 MB of matrices and
// factors) ran 20% faster streamed on an AVX-512 Xeon; 1,000 (0.4 MB, in L2) stay cached.
inline constexpr size_t kStreamMassMatrixBytes = kStreamOutputBytes / 4;

// mass_matrix (n * n arrays, row-major, n = velocity_count; entry (r, c) at array r n + c) =
// M(q) + A, symmetric positive definite for a valid model.
void MassMatrix(const DynamicsTree& tree, const ConstLanesView& q, const LanesView& mass_matrix,
                float* scratch);

// factor (n * n arrays) = the LTDL factorisation M = L^T D L along velocity_parent (Featherstone
// table 6.3): D on the diagonal, L's strict lower triangle below it (unit diagonal implied), zero
// above. A lane whose matrix is not positive definite gets a non-positive or NaN pivot and NaN
// solutions.
void FactorMassMatrix(const DynamicsTree& tree, const ConstLanesView& mass_matrix,
                      const LanesView& factor, float* scratch);
// MassMatrix and FactorMassMatrix in one pass (the same bits): the factor is computed from the
// matrix while it is still in scratch, not read back from mass_matrix.
void MassMatrixAndFactor(const DynamicsTree& tree, const ConstLanesView& q,
                         const LanesView& mass_matrix, const LanesView& factor, float* scratch);
// x (n arrays) = M^-1 b from FactorMassMatrix's factor (b and x may be the same view).
void SolveMassMatrix(const DynamicsTree& tree, const ConstLanesView& factor,
                     const ConstLanesView& b, const LanesView& x, float* scratch);

// Inertia that implicit and constraint terms add to the equations of motion, per robot
// (swarm/kernels/robots/soft_constraint.h, joint_constraints.h, robot_contact.h): forward dynamics
// then solves (M + A + E) qdd = tau - h with
//   E = diag(joints) + sum_p J_p^T (m_t 1 + (m_n - m_t) n n^T) J_p
// where J_p is the Jacobian of the velocity of point p (fixed in body point_bodies[p]) and n a unit
// direction: a point inertia m_n along n and m_t across it, which is how a contact's rows
// (normal and two tangents) weigh on the tree. E only adds to the inertia that accelerations see,
// never to the velocity-product terms: it stands for forces that depend on the step's
// accelerations, not for mass. ABA takes each point into the articulated inertia of its body (as
// a spatial inertia about the body origin: C = m_t 1 + (m_n - m_t) n n^T,
// [[p x C (p x)^T, p x C], [C (p x)^T, C]]), takes the point's share of the body's bias
// acceleration (gravity through the root, the velocity-product terms) back out of the body's bias
// force, so that the point meets J_p qdd alone, and the joint entries into
// D = S^T U + armature + E_jj.
struct AddedInertia {
  ConstLanesView joints;  // joint_q_count arrays (per independent joint column), or none (0 arrays)
  const uint32_t* point_bodies = nullptr;  // the body of each point (< body_count)
  size_t point_count = 0;
  // kAddedPointArrays per point: px py pz (the point in its body's frame), nx ny nz (unit, body
  // frame), m_n, m_t (>= 0).
  ConstLanesView points;
  // Trees with couplings, which take no points: the points' sum of J_p^T C J_p as a dense matrix
  // (velocity_count^2 arrays, row-major, symmetric: swarm/kernels/robots/contact_inertia.h), or
  // none (0 arrays).
  ConstLanesView matrix;
};
inline constexpr size_t kAddedPointArrays = 8;

// qdd (velocity_count arrays) = forward dynamics of (q, qd, tau) under `gravity`: the solution of
// tau = (M + A + E) qdd + C qd + g + damping and friction, with E the added inertia (none when
// `added` is nullptr). Trees without couplings run the articulated-body algorithm (ABA, O(n));
// trees with mimic couplings solve (M + E) qdd = tau - h by CRBA, RNEA and LTDL per vector of
// robots (their added inertia may have joint entries and a dense matrix, not points). With `trig`
// (trees without couplings), the joints' sines and cosines come from it or go to it (JointTrig).
void ForwardDynamics(const DynamicsTree& tree, const float gravity[3], const ConstLanesView& q,
                     const ConstLanesView& qd, const ConstLanesView& tau, const LanesView& qdd,
                     float* scratch, const AddedInertia* added = nullptr,
                     const JointTrig* trig = nullptr);

}  // namespace swarm
