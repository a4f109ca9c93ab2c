// Per-target code of forward dynamics by the articulated-body algorithm (ABA, Featherstone
// table 7.1; swarm/kernels/robots/dynamics/robot_dynamics.h: ForwardDynamics). Dispatched from
// aba.cc. Trees with mimic couplings take CRBA, RNEA and LTDL instead (crba-inl.h:
// CoupledForwardDynamicsImpl).

#if defined(SWARM_KERNELS_ROBOTS_DYNAMICS_ABA_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_ROBOTS_DYNAMICS_ABA_INL_H_
#undef SWARM_KERNELS_ROBOTS_DYNAMICS_ABA_INL_H_
#else
#define SWARM_KERNELS_ROBOTS_DYNAMICS_ABA_INL_H_
#endif

#include <cstddef>
#include <cstdint>

#include "hwy/highway.h"
#include "kernels/robots/dynamics/robot_dynamics_layout.h"
#include "kernels/robots/dynamics/spatial_algebra-inl.h"
#include "kernels/robots/dynamics/tree_factor-inl.h"
#include "swarm/kernels/robots/dynamics/robot_dynamics.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace dl = dynamics_layout;

// The added inertia of lanes i.. (robot_dynamics.h, AddedInertia) as the kernels read it.
struct AddedLanes {
  bool joints = false;
  InLanes joint_lanes{nullptr, 0};
  const uint32_t* point_bodies = nullptr;
  size_t point_count = 0;
  InLanes point_lanes{nullptr, 0};
};

inline AddedLanes AddedLanesOf(const AddedInertia* added) {
  AddedLanes lanes;
  if (added == nullptr) return lanes;
  lanes.joints = added->joints.arrays > 0;
  lanes.joint_lanes = InLanes{added->joints.data, added->joints.stride};
  lanes.point_bodies = added->point_bodies;
  lanes.point_count = added->point_count;
  lanes.point_lanes = InLanes{added->points.data, added->points.stride};
  return lanes;
}

// Slots `ia` += the spatial inertia of point inertia C = m_t 1 + (m_n - m_t) n n^T at p (body
// frame, angular part first): A += m_t (|p|^2 1 - p p^T) + (m_n - m_t) w w^T with w = p x n,
// B += m_t (p x) + (m_n - m_t) w n^T, C += m_t 1 + (m_n - m_t) n n^T. And the bias force
// `p_a` -= the point's share of the body's bias acceleration `bias` (w_a, v_a): with the point's
// acceleration a = v_a + w_a x p and F = C a, the wrench (p x F, F). Within ABA the point inertia
// then only meets the part of the body's acceleration that the solve's qdd makes (J_p qdd).
template <class D>
HWY_INLINE void AddPointInertia(D d, const InLanes& points, size_t point, size_t i, const Slots& s,
                                size_t ia, size_t bias, size_t p_a) {
  using V = hn::Vec<D>;
  // No arrays of vectors (sizeless on SVE): components are picked by index.
  const size_t first = kAddedPointArrays * point;
  const auto load = [&](size_t k) HWY_ATTR { return hn::LoadU(d, points.Array(first + k) + i); };
  const V px = load(0), py = load(1), pz = load(2);
  const V nx = load(3), ny = load(4), nz = load(5);
  const V m_n = load(6), m_t = load(7);
  const V delta = hn::Sub(m_n, m_t);
  V wx, wy, wz;
  Cross(px, py, pz, nx, ny, nz, wx, wy, wz);
  const auto pick = [](size_t k, V x, V y, V z) HWY_ATTR { return k == 0 ? x : (k == 1 ? y : z); };
  const V p_squared = hn::Add(hn::Add(hn::Mul(px, px), hn::Mul(py, py)), hn::Mul(pz, pz));
  const auto add = [&](size_t slot, V value)
                       HWY_ATTR { Put(d, s, slot, hn::Add(Get(d, s, slot), value)); };
  HWY_UNROLL(32)
  for (size_t row = 0; row < 3; ++row) {
    const V p_row = pick(row, px, py, pz), w_row = pick(row, wx, wy, wz);
    const V dw = hn::Mul(delta, w_row), dn = hn::Mul(delta, pick(row, nx, ny, nz));
    HWY_UNROLL(32)
    for (size_t col = 0; col < 3; ++col) {
      const V p_col = pick(col, px, py, pz), n_col = pick(col, nx, ny, nz);
      V a = hn::Neg(hn::Mul(p_row, p_col));
      if (row == col) a = hn::Add(p_squared, a);
      add(ia + kInertiaA + 3 * row + col,
          hn::Add(hn::Mul(m_t, a), hn::Mul(dw, pick(col, wx, wy, wz))));
      // (p x)(row, col): 0 on the diagonal, -p_k for cyclic (row, col, k), +p_k otherwise.
      V skew = hn::Zero(d);
      if (row != col) {
        const size_t k = 3 - row - col;
        const V p_k = pick(k, px, py, pz);
        skew = col == (row + 1) % 3 ? hn::Neg(p_k) : p_k;
      }
      add(ia + kInertiaB + 3 * row + col, hn::Add(hn::Mul(m_t, skew), hn::Mul(dw, n_col)));
      const V c = hn::Mul(dn, n_col);
      add(ia + kInertiaC + 3 * row + col, row == col ? hn::Add(m_t, c) : c);
    }
  }
  V tx, ty, tz;
  Cross(Get(d, s, bias), Get(d, s, bias + 1), Get(d, s, bias + 2), px, py, pz, tx, ty, tz);
  const V ax = hn::Add(Get(d, s, bias + 3), tx), ay = hn::Add(Get(d, s, bias + 4), ty);
  const V az = hn::Add(Get(d, s, bias + 5), tz);
  const V along =
      hn::Mul(delta, hn::Add(hn::Add(hn::Mul(nx, ax), hn::Mul(ny, ay)), hn::Mul(nz, az)));
  const V fx = hn::Add(hn::Mul(m_t, ax), hn::Mul(along, nx));
  const V fy = hn::Add(hn::Mul(m_t, ay), hn::Mul(along, ny));
  const V fz = hn::Add(hn::Mul(m_t, az), hn::Mul(along, nz));
  V mx, my, mz;
  Cross(px, py, pz, fx, fy, fz, mx, my, mz);
  add(p_a, hn::Neg(mx)), add(p_a + 1, hn::Neg(my)), add(p_a + 2, hn::Neg(mz));
  add(p_a + 3, hn::Neg(fx)), add(p_a + 4, hn::Neg(fy)), add(p_a + 5, hn::Neg(fz));
}

// Slots U of every body (free until ABA's inward pass) = its bias acceleration: the part of its
// acceleration in ABA that does not depend on qdd, a_b = X_b a_parent + c_b from the root's
// acceleration relative to free fall (NegativeGravity).
template <class D>
HWY_INLINE void BiasAccelerations(D d, const DynamicsTree& tree, const float gravity[3],
                                  const Slots& s) {
  NegativeGravity(d, tree, gravity, s, BodySlot(0, dl::kU));
  for (size_t b = 1; b < tree.body_count; ++b) {
    const size_t out = BodySlot(b, dl::kU), c = BodySlot(b, dl::kA);
    MotionToChild(d, JointOf(s, b), s, BodySlot(b, dl::kE), BodySlot(b, dl::kR),
                  BodySlot(tree.bodies[b].parent, dl::kU), out);
    HWY_UNROLL(32)
    for (size_t k = 0; k < 6; ++k)
      Put(d, s, out + k, hn::Add(Get(d, s, out + k), Get(d, s, c + k)));
  }
}

// ABA (Featherstone table 7.1; floating base as table 9.6): qdd into slots [qdd, qdd + n), with
// the added inertia `added` (AddedLanesOf(nullptr) for none). Trees without couplings only.
template <class D>
HWY_INLINE void ArticulatedBodyVector(D d, const DynamicsTree& tree, const float gravity[3],
                                      const InLanes& q, const InLanes& qd, const InLanes& tau,
                                      const AddedLanes& added, const TrigLanes& trig, size_t i,
                                      const Slots& s, size_t qdd) {
  using V = hn::Vec<D>;
  const dl::Regions regions = dl::ScratchRegions(tree.body_count, tree.velocity_count());
  const size_t joint_velocity = regions.temp, momentum = regions.temp + 6;
  const size_t congruence_temp = regions.temp + 12;
  if (tree.floating_base) BaseRotation(d, q, i, s);
  RootVelocity(d, tree, qd, i, s);
  if (tree.floating_base) {
    const DynamicsBody& root = tree.bodies[0];
    SetRigidInertia(d, root, s, BodySlot(0, dl::kInertia));
    RigidInertiaTimes(d, root, s, BodySlot(0, dl::kV), momentum);
    // pA_0 = v_0 x* I_0 v_0 - the wrench applied to the base (tau's (F, n) in spatial order).
    const size_t p_a = BodySlot(0, dl::kF);
    HWY_UNROLL(32)
    for (size_t k = 0; k < 3; ++k) {
      Put(d, s, p_a + k, hn::Neg(hn::LoadU(d, tau.Array(3 + k) + i)));
      Put(d, s, p_a + 3 + k, hn::Neg(hn::LoadU(d, tau.Array(k) + i)));
    }
    AddCrossForce(d, s, BodySlot(0, dl::kV), momentum, p_a);
  }
  // Outward: X_b, v_b, c_b = v_b x S qd_b, IA_b = I_b, pA_b = v_b x* I_b v_b.
  for (size_t b = 1; b < tree.body_count; ++b) {
    const DynamicsBody& body = tree.bodies[b];
    const JointInputs arrays = JointArrays(tree, body);
    const V value = hn::LoadU(d, q.Array(arrays.q_array) + i);
    const V rate = hn::LoadU(d, qd.Array(arrays.velocity_array) + i);
    const JointSubspace joint = JointOf(s, b);
    JointTransformWith(d, trig, i, body, joint, value, s, b);
    const size_t v = BodySlot(b, dl::kV);
    MotionToChild(d, joint, s, BodySlot(b, dl::kE), BodySlot(b, dl::kR),
                  BodySlot(body.parent, dl::kV), v);
    AddMotionSubspaceTimes(d, joint, rate, s, v);
    CrossJointMotion(d, joint, rate, s, v, BodySlot(b, dl::kA));
    SetRigidInertia(d, body, s, BodySlot(b, dl::kInertia));
    V n0, n1, n2, f0, f1, f2;  // I_b v_b
    RigidInertiaTimesValues(d, body, s, v, n0, n1, n2, f0, f1, f2);
    CrossForceFromValues(d, s, v, n0, n1, n2, f0, f1, f2, BodySlot(b, dl::kF), true);
  }
  // Added point inertias join their bodies' articulated inertias, but stand for forces on the
  // step's accelerations J_p qdd only (robot_dynamics.h): not for mass, which gravity and the
  // velocity-product terms would act on. So each also takes its share of its body's bias
  // acceleration (gravity through the root, the c terms) back out of the body's bias force. A
  // fixed root's inertia is never used.
  if (added.point_count > 0) BiasAccelerations(d, tree, gravity, s);
  for (size_t point = 0; point < added.point_count; ++point) {
    const uint32_t body = added.point_bodies[point];
    if (body == 0 && !tree.floating_base) continue;
    AddPointInertia(d, added.point_lanes, point, i, s, BodySlot(body, dl::kInertia),
                    BodySlot(body, dl::kU), BodySlot(body, dl::kF));
  }
  // Inward: U = IA S, D = S^T U + armature, u = tau - joint terms - S^T pA; the articulated
  // inertia and bias force handed to the parent.
  for (size_t b = tree.body_count; b-- > 1;) {
    const DynamicsBody& body = tree.bodies[b];
    const JointInputs arrays = JointArrays(tree, body);
    const size_t ia = BodySlot(b, dl::kInertia), u_slot = BodySlot(b, dl::kU);
    const size_t p_a = BodySlot(b, dl::kF), c = BodySlot(b, dl::kA);
    const JointSubspace joint = JointOf(s, b);
    InertiaColumn(d, joint, s, ia, u_slot);
    V joint_inertia = hn::Add(MotionSubspaceDot(d, joint, s, u_slot), hn::Set(d, body.armature));
    if (added.joints) {
      joint_inertia =
          hn::Add(joint_inertia, hn::LoadU(d, added.joint_lanes.Array(size_t(body.q_index)) + i));
    }
    const V d_inv = hn::Div(hn::Set(d, 1.0f), joint_inertia);
    const V rate = hn::LoadU(d, qd.Array(arrays.velocity_array) + i);
    const V small_u = hn::Sub(hn::Sub(hn::LoadU(d, tau.Array(arrays.velocity_array) + i),
                                      JointResistance(d, tree, body, rate)),
                              MotionSubspaceDot(d, joint, s, p_a));
    Put(d, s, BodySlot(b, dl::kDInv), d_inv);
    Put(d, s, BodySlot(b, dl::kSmallU), small_u);
    if (body.parent == 0 && !tree.floating_base) continue;
    // Ia = IA - U U^T / D in place (A -= Uw Uw^T / D, B -= Uw Uv^T / D, C -= Uv Uv^T / D).
    HWY_UNROLL(32)
    for (size_t row = 0; row < 3; ++row) {
      const V uw = hn::Mul(Get(d, s, u_slot + row), d_inv);
      const V uv = hn::Mul(Get(d, s, u_slot + 3 + row), d_inv);
      HWY_UNROLL(32)
      for (size_t col = 0; col < 3; ++col) {
        const size_t a_slot = ia + kInertiaA + 3 * row + col;
        const size_t b_slot = ia + kInertiaB + 3 * row + col;
        const size_t c_slot = ia + kInertiaC + 3 * row + col;
        Put(d, s, a_slot, hn::Sub(Get(d, s, a_slot), hn::Mul(uw, Get(d, s, u_slot + col))));
        Put(d, s, b_slot, hn::Sub(Get(d, s, b_slot), hn::Mul(uw, Get(d, s, u_slot + 3 + col))));
        Put(d, s, c_slot, hn::Sub(Get(d, s, c_slot), hn::Mul(uv, Get(d, s, u_slot + 3 + col))));
      }
    }
    // pa = pA + Ia c + U (u / D).
    V m0, m1, m2, m3, m4, m5;
    InertiaTimesValues(d, s, ia, c, m0, m1, m2, m3, m4, m5);
    const V scale = hn::Mul(small_u, d_inv);
    HWY_UNROLL(32)
    for (size_t k = 0; k < 6; ++k) {
      const V m_k =
          k == 0 ? m0 : (k == 1 ? m1 : (k == 2 ? m2 : (k == 3 ? m3 : (k == 4 ? m4 : m5))));
      Put(d, s, p_a + k,
          hn::Add(hn::Add(Get(d, s, p_a + k), m_k), hn::Mul(Get(d, s, u_slot + k), scale)));
    }
    const size_t e = BodySlot(b, dl::kE), r = BodySlot(b, dl::kR);
    AddCongruent(d, joint, s, e, r, ia, BodySlot(body.parent, dl::kInertia), congruence_temp);
    ForceToParent(d, joint, s, e, r, p_a, BodySlot(body.parent, dl::kF), true);
  }
  // The root's acceleration relative to free fall: (0, -g) for a fixed base; for a floating one
  // the solution of IA_0 a = -pA_0 (6 x 6, dense LDL^T).
  const size_t root_a = BodySlot(0, dl::kA);
  if (tree.floating_base) {
    const size_t system = regions.base_system, rhs = regions.base_system + 36;
    const size_t ia = BodySlot(0, dl::kInertia);
    HWY_UNROLL(32)
    for (size_t row = 0; row < 6; ++row) {
      HWY_UNROLL(32)
      for (size_t col = 0; col < 6; ++col) {
        size_t slot;
        if (row < 3 && col < 3) {
          slot = ia + kInertiaA + 3 * row + col;
        } else if (row < 3) {
          slot = ia + kInertiaB + 3 * row + (col - 3);
        } else if (col < 3) {
          slot = ia + kInertiaB + 3 * col + (row - 3);
        } else {
          slot = ia + kInertiaC + 3 * (row - 3) + (col - 3);
        }
        Put(d, s, system + 6 * row + col, Get(d, s, slot));
      }
      Put(d, s, rhs + row, hn::Neg(Get(d, s, BodySlot(0, dl::kF) + row)));
    }
    FactorInSlots(d, s, system, 6, nullptr);
    SolveInSlots(d, s, system, 6, nullptr, rhs);
    CopySlots(d, s, rhs, root_a, 6);
  } else {
    NegativeGravity(d, tree, gravity, s, root_a);
  }
  // Outward: a_b = X a_p + c_b, qdd_b = (u - U^T a_b) / D, a_b += S qdd_b.
  for (size_t b = 1; b < tree.body_count; ++b) {
    const DynamicsBody& body = tree.bodies[b];
    const size_t a = BodySlot(b, dl::kA), u_slot = BodySlot(b, dl::kU);
    const JointSubspace joint = JointOf(s, b);
    V x0, x1, x2, x3, x4, x5;  // X a_parent
    MotionToChildValues(d, joint, s, BodySlot(b, dl::kE), BodySlot(b, dl::kR),
                        BodySlot(body.parent, dl::kA), x0, x1, x2, x3, x4, x5);
    HWY_UNROLL(32)
    for (size_t k = 0; k < 6; ++k) {
      const V x_k =
          k == 0 ? x0 : (k == 1 ? x1 : (k == 2 ? x2 : (k == 3 ? x3 : (k == 4 ? x4 : x5))));
      Put(d, s, a + k, hn::Add(x_k, Get(d, s, a + k)));
    }
    V u_dot_a = hn::Mul(Get(d, s, u_slot), Get(d, s, a));
    HWY_UNROLL(32)
    for (size_t k = 1; k < 6; ++k) {
      u_dot_a = hn::Add(u_dot_a, hn::Mul(Get(d, s, u_slot + k), Get(d, s, a + k)));
    }
    const V acceleration = hn::Mul(hn::Sub(Get(d, s, BodySlot(b, dl::kSmallU)), u_dot_a),
                                   Get(d, s, BodySlot(b, dl::kDInv)));
    AddMotionSubspaceTimes(d, joint, acceleration, s, a);
    Put(d, s, qdd + JointArrays(tree, body).velocity_array, acceleration);
  }
  if (tree.floating_base) {  // qdd of the base = a_0 + (0, E g), in (v, w) order
    NegativeGravity(d, tree, gravity, s, joint_velocity);
    HWY_UNROLL(32)
    for (size_t k = 0; k < 3; ++k) {
      Put(d, s, qdd + k, hn::Sub(Get(d, s, root_a + 3 + k), Get(d, s, joint_velocity + 3 + k)));
      Put(d, s, qdd + 3 + k, Get(d, s, root_a + k));
    }
  }
}

inline void ForwardDynamicsImpl(const DynamicsTree& tree, const float* gravity,
                                const ConstLanesView& q, const ConstLanesView& qd,
                                const ConstLanesView& tau, const LanesView& qdd, float* scratch,
                                const AddedInertia* added_inertia, const JointTrig* trig) {
  const hn::ScalableTag<float> d;
  const InLanes q_in{q.data, q.stride}, qd_in{qd.data, qd.stride}, tau_in{tau.data, tau.stride};
  const OutLanes out{qdd.data, qdd.stride};
  const size_t n = tree.velocity_count();
  const dl::Regions regions = dl::ScratchRegions(tree.body_count, n);
  const AddedLanes added = AddedLanesOf(added_inertia);
  const TrigLanes trig_lanes = TrigLanesOf(tree, trig, regions);
  const Slots shared = PrepareScratch(tree, scratch);
  ForEachVector(d, qdd.count, [&](size_t i, auto store) HWY_ATTR {
    const Slots local = shared;
    const Slots& s = VectorSlots(local, shared);
    PrefetchInputs(d, q, i), PrefetchInputs(d, qd, i), PrefetchInputs(d, tau, i);
    PrefetchOutputs(d, qdd, i);
    ArticulatedBodyVector(d, tree, gravity, q_in, qd_in, tau_in, added, trig_lanes, i, s,
                          regions.vector1);
    StoreSlots(d, s, regions.vector1, n, out, i, store);
    StoreComputedTrig(d, s, trig_lanes, i, store);
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_ROBOTS_DYNAMICS_ABA_INL_H_
