// Per-target code of inverse dynamics by the recursive Newton-Euler algorithm (RNEA,
// Featherstone table 5.1; swarm/kernels/robots/dynamics/robot_dynamics.h: InverseDynamics,
// GravityTorques, MassTimes). Dispatched from rnea.cc; forward dynamics with couplings
// (crba-inl.h) runs InverseDynamicsVector for the bias forces.

#if defined(SWARM_KERNELS_ROBOTS_DYNAMICS_RNEA_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_ROBOTS_DYNAMICS_RNEA_INL_H_
#undef SWARM_KERNELS_ROBOTS_DYNAMICS_RNEA_INL_H_
#else
#define SWARM_KERNELS_ROBOTS_DYNAMICS_RNEA_INL_H_
#endif

#include <cstddef>
#include <cstdint>

#include "hwy/highway.h"
#include "kernels/robots/dynamics/robot_dynamics_layout.h"
#include "kernels/robots/dynamics/spatial_algebra-inl.h"
#include "swarm/kernels/robots/dynamics/robot_dynamics.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace dl = dynamics_layout;

// RNEA (Featherstone table 5.1, with a floating base as in 9.3): tau into slots [tau, tau + n).
// qdd == nullptr means qdd = 0 (the bias h).
template <class D>
HWY_INLINE void InverseDynamicsVector(D d, const DynamicsTree& tree, const float gravity[3],
                                      const InLanes& q, const InLanes* qd, const InLanes* qdd,
                                      size_t i, const Slots& s, size_t tau) {
  using V = hn::Vec<D>;
  const dl::Regions regions = dl::ScratchRegions(tree.body_count, tree.velocity_count());
  const size_t momentum = regions.temp;  // I v, or v x S qd
  const size_t n = tree.velocity_count();
  PutZero(d, s, tau, n);
  const auto acceleration_in = [&](size_t array) HWY_ATTR {
    return qdd == nullptr ? hn::Zero(d) : hn::LoadU(d, qdd->Array(array) + i);
  };
  // qd == nullptr (qd = 0): no velocities, velocity-product or joint resistance terms.
  const bool moving = qd != nullptr;
  // The root: v_0, a_0 = base acceleration - gravity, f_0.
  if (tree.floating_base) BaseRotation(d, q, i, s);
  if (moving) RootVelocity(d, tree, *qd, i, s);
  const size_t root_a = BodySlot(0, dl::kA);
  NegativeGravity(d, tree, gravity, s, root_a);
  if (tree.floating_base) {
    HWY_UNROLL(32)
    for (size_t k = 0; k < 3; ++k) {
      Put(d, s, root_a + k, acceleration_in(3 + k));
      Put(d, s, root_a + 3 + k, hn::Add(Get(d, s, root_a + 3 + k), acceleration_in(k)));
    }
    const DynamicsBody& root = tree.bodies[0];
    RigidInertiaTimes(d, root, s, root_a, BodySlot(0, dl::kF));
    if (moving) {
      RigidInertiaTimes(d, root, s, BodySlot(0, dl::kV), momentum);
      AddCrossForce(d, s, BodySlot(0, dl::kV), momentum, BodySlot(0, dl::kF));
    }
  }
  // Outward: v_b = X v_p + S qd_b, a_b = X a_p + S qdd_b + v_b x S qd_b, f_b = I a_b + v_b x* I
  // v_b.
  for (size_t b = 1; b < tree.body_count; ++b) {
    const DynamicsBody& body = tree.bodies[b];
    const JointSubspace joint = JointOf(s, b);
    const JointInputs arrays = JointArrays(tree, body);
    const V value = CoupledValue(d, body, hn::LoadU(d, q.Array(arrays.q_array) + i));
    const V acceleration = CoupledRate(d, body, acceleration_in(arrays.velocity_array));
    JointTransform(d, body, joint, value, s, b);
    const size_t e = BodySlot(b, dl::kE), r = BodySlot(b, dl::kR);
    const size_t v = BodySlot(b, dl::kV), a = BodySlot(b, dl::kA), f = BodySlot(b, dl::kF);
    if (!moving) {  // a_b = X a_p + S qdd_b, f_b = I a_b
      MotionToChild(d, joint, s, e, r, BodySlot(body.parent, dl::kA), a);
      if (qdd != nullptr) AddMotionSubspaceTimes(d, joint, acceleration, s, a);
      RigidInertiaTimes(d, body, s, a, f);
      continue;
    }
    const V rate = CoupledRate(d, body, hn::LoadU(d, qd->Array(arrays.velocity_array) + i));
    MotionToChild(d, joint, s, e, r, BodySlot(body.parent, dl::kV), v);
    AddMotionSubspaceTimes(d, joint, rate, s, v);
    MotionToChild(d, joint, s, e, r, BodySlot(body.parent, dl::kA), a);
    CrossJointMotion(d, joint, rate, s, v, momentum);  // v_b x S qd_b, momentum as a temporary
    AddMotionSubspaceTimes(d, joint, acceleration, s, a);
    HWY_UNROLL(32)
    for (size_t k = 0; k < 6; ++k) {
      Put(d, s, a + k, hn::Add(Get(d, s, a + k), Get(d, s, momentum + k)));
    }
    RigidInertiaTimes(d, body, s, a, f);
    RigidInertiaTimes(d, body, s, v, momentum);
    AddCrossForce(d, s, v, momentum, f);
  }
  // Inward: tau_b = S^T f_b + joint terms, f_p += X^T f_b.
  for (size_t b = tree.body_count; b-- > 1;) {
    const DynamicsBody& body = tree.bodies[b];
    const JointSubspace joint = JointOf(s, b);
    const JointInputs arrays = JointArrays(tree, body);
    const size_t f = BodySlot(b, dl::kF);
    V joint_tau = MotionSubspaceDot(d, joint, s, f);
    if (qdd != nullptr) {
      const V acceleration = CoupledRate(d, body, acceleration_in(arrays.velocity_array));
      joint_tau = hn::Add(joint_tau, hn::Mul(hn::Set(d, body.armature), acceleration));
    }
    if (moving) {
      const V rate = CoupledRate(d, body, hn::LoadU(d, qd->Array(arrays.velocity_array) + i));
      joint_tau = hn::Add(joint_tau, JointResistance(d, tree, body, rate));
    }
    const size_t column = tau + arrays.velocity_array;
    Put(d, s, column, hn::Add(Get(d, s, column), CoupledRate(d, body, joint_tau)));
    if (body.parent != 0 || tree.floating_base) {
      ForceToParent(d, joint, s, BodySlot(b, dl::kE), BodySlot(b, dl::kR), f,
                    BodySlot(body.parent, dl::kF), true);
    }
  }
  if (tree.floating_base) {  // the base's (F, n) in its (v, w) order
    const size_t f = BodySlot(0, dl::kF);
    HWY_UNROLL(32)
    for (size_t k = 0; k < 3; ++k) {
      Put(d, s, tau + k, Get(d, s, f + 3 + k));
      Put(d, s, tau + 3 + k, Get(d, s, f + k));
    }
  }
}

// Gravity torques g(q) by composite first moments, about half the work of RNEA at qd = qdd = 0:
// a robot held still has every body's spatial acceleration equal to the root's, a = (0, -g), so
// the force across joint b is that of the rigid body its subtree forms,
// f_b = (h_b x a_b, m_b a_b), with m_b the subtree's mass (constant) and h_b its first moment
// about body b's origin, summed child to parent as h_p += E^T h_c + m_c r, m_p += m_c
// (Featherstone 2.63 for a rigid inertia without its rotational part, which a = (0, a_lin) never
// meets). Only linear accelerations travel outward: a_b = E a_p. tau_b = S^T f_b; a floating
// base gets f_0 as (F, n). Slots: kV holds h (3) and m, kA holds a.
template <class D>
HWY_INLINE void GravityTorquesVector(D d, const DynamicsTree& tree, const float gravity[3],
                                     const InLanes& q, const TrigLanes& trig, size_t i,
                                     const Slots& s, size_t tau) {
  using V = hn::Vec<D>;
  const size_t n = tree.velocity_count();
  PutZero(d, s, tau, n);
  const auto own_moment = [&](size_t b) HWY_ATTR {
    const DynamicsBody& body = tree.bodies[b];
    const size_t h = BodySlot(b, dl::kV);
    HWY_UNROLL(32)
    for (size_t k = 0; k < 3; ++k) Put(d, s, h + k, hn::Set(d, body.first_moment[k]));
    Put(d, s, h + 3, hn::Set(d, body.mass));
  };
  if (tree.floating_base) BaseRotation(d, q, i, s);
  NegativeGravity(d, tree, gravity, s, BodySlot(0, dl::kA));
  own_moment(0);
  // Outward: X_b, a_b = E a_p (the linear part), the body's own mass and first moment.
  for (size_t b = 1; b < tree.body_count; ++b) {
    const DynamicsBody& body = tree.bodies[b];
    const JointSubspace joint = JointOf(s, b);
    const V value =
        CoupledValue(d, body, hn::LoadU(d, q.Array(JointArrays(tree, body).q_array) + i));
    JointTransformWith(d, trig, i, body, joint, value, s, b);
    const size_t parent_a = BodySlot(body.parent, dl::kA) + 3, a = BodySlot(b, dl::kA) + 3;
    V x = Get(d, s, parent_a), y = Get(d, s, parent_a + 1), z = Get(d, s, parent_a + 2);
    RotateByJoint<false>(d, joint, s, BodySlot(b, dl::kE), x, y, z);
    Put(d, s, a, x), Put(d, s, a + 1, y), Put(d, s, a + 2, z);
    own_moment(b);
  }
  // Inward: a body's subtree is complete when it is reached; tau_b = S^T f_b, then the subtree
  // joins its parent's.
  for (size_t b = tree.body_count; b-- > 1;) {
    const DynamicsBody& body = tree.bodies[b];
    const JointSubspace joint = JointOf(s, b);
    const size_t h = BodySlot(b, dl::kV), a = BodySlot(b, dl::kA) + 3;
    const V hx = Get(d, s, h), hy = Get(d, s, h + 1), hz = Get(d, s, h + 2), m = Get(d, s, h + 3);
    const V ax = Get(d, s, a), ay = Get(d, s, a + 1), az = Get(d, s, a + 2);
    V nx, ny, nz;
    Cross(hx, hy, hz, ax, ay, az, nx, ny, nz);
    const V joint_tau = MotionSubspaceDotValues(d, joint, nx, ny, nz, hn::Mul(m, ax),
                                                hn::Mul(m, ay), hn::Mul(m, az));
    const size_t column = tau + JointArrays(tree, body).velocity_array;
    Put(d, s, column, hn::Add(Get(d, s, column), CoupledRate(d, body, joint_tau)));
    if (body.parent == 0 && !tree.floating_base) continue;
    V x = hx, y = hy, z = hz;
    RotateByJoint<true>(d, joint, s, BodySlot(b, dl::kE), x, y, z);
    const size_t r = BodySlot(b, dl::kR), parent = BodySlot(body.parent, dl::kV);
    Put(d, s, parent, hn::Add(Get(d, s, parent), hn::Add(x, hn::Mul(m, Get(d, s, r)))));
    Put(d, s, parent + 1, hn::Add(Get(d, s, parent + 1), hn::Add(y, hn::Mul(m, Get(d, s, r + 1)))));
    Put(d, s, parent + 2, hn::Add(Get(d, s, parent + 2), hn::Add(z, hn::Mul(m, Get(d, s, r + 2)))));
    Put(d, s, parent + 3, hn::Add(Get(d, s, parent + 3), m));
  }
  if (tree.floating_base) {  // the base's (F, n) = (m a, h x a) in its (v, w) order
    const size_t h = BodySlot(0, dl::kV), a = BodySlot(0, dl::kA) + 3;
    const V ax = Get(d, s, a), ay = Get(d, s, a + 1), az = Get(d, s, a + 2), m = Get(d, s, h + 3);
    V nx, ny, nz;
    Cross(Get(d, s, h), Get(d, s, h + 1), Get(d, s, h + 2), ax, ay, az, nx, ny, nz);
    Put(d, s, tau, hn::Mul(m, ax)), Put(d, s, tau + 1, hn::Mul(m, ay));
    Put(d, s, tau + 2, hn::Mul(m, az));
    Put(d, s, tau + 3, nx), Put(d, s, tau + 4, ny), Put(d, s, tau + 5, nz);
  }
}

// Whether every body's parent is the body before it, with a fixed base and no couplings: a
// serial arm, whose gravity torques GravityTorquesChain computes.
inline bool IsFixedChain(const DynamicsTree& tree) {
  if (tree.floating_base || HasCouplings(tree)) return false;
  for (size_t b = 1; b < tree.body_count; ++b) {
    if (tree.bodies[b].parent != b - 1) return false;
  }
  return true;
}

// GravityTorquesVector for a fixed chain (IsFixedChain): the same operations, so the same bits,
// but the gravity vector travels outward and a subtree's first moment and mass inward in
// registers, child to parent, instead of through every body's slots; only a_b waits in slots for
// the inward pass.
template <class D>
HWY_INLINE void GravityTorquesChain(D d, const DynamicsTree& tree, const float gravity[3],
                                    const InLanes& q, const TrigLanes& trig, size_t i,
                                    const Slots& s, size_t tau) {
  using V = hn::Vec<D>;
  NegativeGravity(d, tree, gravity, s, BodySlot(0, dl::kA));
  V ax = Get(d, s, BodySlot(0, dl::kA) + 3), ay = Get(d, s, BodySlot(0, dl::kA) + 4),
    az = Get(d, s, BodySlot(0, dl::kA) + 5);
  for (size_t b = 1; b < tree.body_count; ++b) {
    const DynamicsBody& body = tree.bodies[b];
    const JointSubspace joint = JointOf(s, b);
    const V value = hn::LoadU(d, q.Array(JointArrays(tree, body).q_array) + i);
    JointTransformWith(d, trig, i, body, joint, value, s, b);
    RotateByJoint<false>(d, joint, s, BodySlot(b, dl::kE), ax, ay, az);
    const size_t a = BodySlot(b, dl::kA) + 3;
    Put(d, s, a, ax), Put(d, s, a + 1, ay), Put(d, s, a + 2, az);
  }
  // The child's share of its parent's first moment and mass: E^T h + m r, and m.
  V share_x = hn::Zero(d), share_y = hn::Zero(d), share_z = hn::Zero(d), share_m = hn::Zero(d);
  for (size_t b = tree.body_count; b-- > 1;) {
    const DynamicsBody& body = tree.bodies[b];
    const JointSubspace joint = JointOf(s, b);
    V hx = hn::Set(d, body.first_moment[0]), hy = hn::Set(d, body.first_moment[1]),
      hz = hn::Set(d, body.first_moment[2]), m = hn::Set(d, body.mass);
    if (b + 1 < tree.body_count) {
      hx = hn::Add(hx, share_x), hy = hn::Add(hy, share_y), hz = hn::Add(hz, share_z);
      m = hn::Add(m, share_m);
    }
    const size_t a = BodySlot(b, dl::kA) + 3;
    const V ax_b = Get(d, s, a), ay_b = Get(d, s, a + 1), az_b = Get(d, s, a + 2);
    V nx, ny, nz;
    Cross(hx, hy, hz, ax_b, ay_b, az_b, nx, ny, nz);
    const V joint_tau = MotionSubspaceDotValues(d, joint, nx, ny, nz, hn::Mul(m, ax_b),
                                                hn::Mul(m, ay_b), hn::Mul(m, az_b));
    Put(d, s, tau + JointArrays(tree, body).velocity_array, hn::Add(hn::Zero(d), joint_tau));
    if (body.parent == 0) break;
    V x = hx, y = hy, z = hz;
    RotateByJoint<true>(d, joint, s, BodySlot(b, dl::kE), x, y, z);
    const size_t r = BodySlot(b, dl::kR);
    share_x = hn::Add(x, hn::Mul(m, Get(d, s, r)));
    share_y = hn::Add(y, hn::Mul(m, Get(d, s, r + 1)));
    share_z = hn::Add(z, hn::Mul(m, Get(d, s, r + 2)));
    share_m = m;
  }
}

inline void InverseDynamicsImpl(const DynamicsTree& tree, const float* gravity,
                                const ConstLanesView& q, const ConstLanesView& qd,
                                const ConstLanesView& qdd, const LanesView& tau, float* scratch) {
  const hn::ScalableTag<float> d;
  const InLanes q_in{q.data, q.stride}, qd_in{qd.data, qd.stride}, qdd_in{qdd.data, qdd.stride};
  const OutLanes out{tau.data, tau.stride};
  const size_t result = dl::ScratchRegions(tree.body_count, tree.velocity_count()).vector1;
  const Slots shared = PrepareScratch(tree, scratch);
  ForEachVector(d, tau.count, [&](size_t i, auto store) HWY_ATTR {
    const Slots local = shared;
    const Slots& s = VectorSlots(local, shared);
    PrefetchInputs(d, q, i), PrefetchInputs(d, qd, i), PrefetchInputs(d, qdd, i);
    PrefetchOutputs(d, tau, i);
    InverseDynamicsVector(d, tree, gravity, q_in, &qd_in, &qdd_in, i, s, result);
    StoreSlots(d, s, result, tree.velocity_count(), out, i, store);
  });
}

// InverseDynamics at qd = 0: (M + A) qdd without gravity (MassTimes), or with qdd null the gravity
// torques (GravityTorquesVector's shorter way).
inline void StaticInverseDynamicsImpl(const DynamicsTree& tree, const float* gravity,
                                      const ConstLanesView& q, const ConstLanesView* qdd,
                                      const LanesView& tau, float* scratch, const JointTrig* trig) {
  const hn::ScalableTag<float> d;
  const InLanes q_in{q.data, q.stride};
  const InLanes qdd_in{qdd != nullptr ? qdd->data : nullptr, qdd != nullptr ? qdd->stride : 0};
  const OutLanes out{tau.data, tau.stride};
  const dl::Regions regions = dl::ScratchRegions(tree.body_count, tree.velocity_count());
  const size_t result = regions.vector1;
  const TrigLanes trig_lanes = TrigLanesOf(tree, trig, regions);
  const Slots shared = PrepareScratch(tree, scratch);
  const bool chain = qdd == nullptr && IsFixedChain(tree);
  ForEachVector(d, tau.count, [&](size_t i, auto store) HWY_ATTR {
    const Slots local = shared;
    const Slots& s = VectorSlots(local, shared);
    PrefetchInputs(d, q, i), PrefetchOutputs(d, tau, i);
    if (qdd != nullptr) PrefetchInputs(d, *qdd, i);
    if (qdd != nullptr) {
      InverseDynamicsVector(d, tree, gravity, q_in, nullptr, &qdd_in, i, s, result);
    } else if (chain) {
      GravityTorquesChain(d, tree, gravity, q_in, trig_lanes, i, s, result);
    } else {
      GravityTorquesVector(d, tree, gravity, q_in, trig_lanes, i, s, result);
    }
    StoreSlots(d, s, result, tree.velocity_count(), out, i, store);
    StoreComputedTrig(d, s, trig_lanes, i, store);
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_ROBOTS_DYNAMICS_RNEA_INL_H_
