// Per-target code of the joint-space mass matrix by the composite-rigid-body algorithm (CRBA,
// Featherstone table 6.2; swarm/kernels/robots/dynamics/robot_dynamics.h: MassMatrix,
// MassMatrixAndFactor, which factors in the same pass with tree_factor-inl.h), and forward
// dynamics through it for trees with mimic couplings, which ABA (aba-inl.h) does not handle.
// Dispatched from crba.cc.

#if defined(SWARM_KERNELS_ROBOTS_DYNAMICS_CRBA_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_ROBOTS_DYNAMICS_CRBA_INL_H_
#undef SWARM_KERNELS_ROBOTS_DYNAMICS_CRBA_INL_H_
#else
#define SWARM_KERNELS_ROBOTS_DYNAMICS_CRBA_INL_H_
#endif

#include <cstddef>
#include <cstdint>

#include "hwy/highway.h"
#include "kernels/robots/dynamics/rnea-inl.h"
#include "kernels/robots/dynamics/robot_dynamics_layout.h"
#include "kernels/robots/dynamics/spatial_algebra-inl.h"
#include "kernels/robots/dynamics/tree_factor-inl.h"
#include "swarm/kernels/robots/dynamics/robot_dynamics.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace dl = dynamics_layout;

// factor x, or x itself when `unit` (a product of multipliers of 1: exact).
template <class D, class V>
HWY_INLINE V ScaledBy(D d, float factor, bool unit, V x) {
  return unit ? x : hn::Mul(hn::Set(d, factor), x);
}

// Velocity index k's 6-vector slot offset in spatial order: the base's v (0..2) is spatial 3..5,
// its w (3..5) spatial 0..2.
inline size_t SpatialOfBaseVelocity(size_t k) { return k < 3 ? k + 3 : k - 3; }

// Whether CRBA writes each entry of the mass matrix exactly once: a chain (body b's parent is
// b - 1) without couplings, whose every pair of joints is an ancestor and a descendant.
inline bool EveryMassEntryOnce(const DynamicsTree& tree) {
  for (size_t b = 1; b < tree.body_count; ++b) {
    if (tree.bodies[b].parent != b - 1) return false;
  }
  return !HasCouplings(tree);
}

// CRBA (Featherstone table 6.2; a floating base as a 6-DoF joint at the root): the n x n mass
// matrix into slots at m.
template <class D>
HWY_INLINE void MassMatrixVector(D d, const DynamicsTree& tree, bool once, const InLanes& q,
                                 size_t i, const Slots& s, size_t m) {
  using V = hn::Vec<D>;
  const dl::Regions regions = dl::ScratchRegions(tree.body_count, tree.velocity_count());
  const size_t force = regions.temp;                 // F, 6 slots
  const size_t congruence_temp = regions.temp + 12;  // 36 slots
  const size_t n = tree.velocity_count();
  const auto at = [&](size_t row, size_t column) HWY_ATTR { return m + row * n + column; };
  // Entries start at zero and add up, or, where each is written once (a chain without
  // couplings), are stored directly.
  const auto write = [&](size_t slot, V value) HWY_ATTR {
    Put(d, s, slot, once ? value : hn::Add(Get(d, s, slot), value));
  };
  if (!once) PutZero(d, s, m, n * n);
  // Composite inertias as rigid-body inertias (10 slots in each body's kInertia).
  if (tree.floating_base) SetRigidParams(d, tree.bodies[0], s, BodySlot(0, dl::kInertia));
  for (size_t b = 1; b < tree.body_count; ++b) {
    const DynamicsBody& body = tree.bodies[b];
    const JointInputs arrays = JointArrays(tree, body);
    const V value = CoupledValue(d, body, hn::LoadU(d, q.Array(arrays.q_array) + i));
    JointTransform(d, body, JointOf(s, b), value, s, b);
    SetRigidParams(d, body, s, BodySlot(b, dl::kInertia));
  }
  for (size_t b = tree.body_count; b-- > 1;) {
    const DynamicsBody& body = tree.bodies[b];
    const JointSubspace joint = JointOf(s, b);
    if (body.parent != 0 || tree.floating_base) {
      AddRigidCongruent(d, joint, s, BodySlot(b, dl::kE), BodySlot(b, dl::kR),
                        BodySlot(b, dl::kInertia), BodySlot(body.parent, dl::kInertia),
                        congruence_temp);
    }
    // F = Ic_b S_b: the column of Ic_b along the axis.
    RigidInertiaColumn(d, joint, s, BodySlot(b, dl::kInertia), force, regions.temp + 6);
    const size_t column = JointArrays(tree, body).velocity_array;
    const float multiplier = body.multiplier;
    const V diagonal = hn::Add(MotionSubspaceDot(d, joint, s, force), hn::Set(d, body.armature));
    write(at(column, column), ScaledBy(d, multiplier * multiplier, multiplier == 1.0f, diagonal));
    size_t j = b;
    // The force travels up in registers.
    V n0 = Get(d, s, force), n1 = Get(d, s, force + 1), n2 = Get(d, s, force + 2);
    V f0 = Get(d, s, force + 3), f1 = Get(d, s, force + 4), f2 = Get(d, s, force + 5);
    JointSubspace carrier = joint;  // body j's joint
    while (tree.bodies[j].parent != 0) {
      ForceToParentValues(d, carrier, s, BodySlot(j, dl::kE), BodySlot(j, dl::kR), n0, n1, n2, f0,
                          f1, f2);
      j = tree.bodies[j].parent;
      const DynamicsBody& ancestor = tree.bodies[j];
      carrier = JointOf(s, j);
      const size_t other = JointArrays(tree, ancestor).velocity_array;
      const float product = multiplier * ancestor.multiplier;
      const V entry = ScaledBy(d, product, multiplier == 1.0f && ancestor.multiplier == 1.0f,
                               MotionSubspaceDotValues(d, carrier, n0, n1, n2, f0, f1, f2));
      write(at(column, other), entry);
      write(at(other, column), entry);
    }
    if (tree.floating_base) {
      Put(d, s, force, n0), Put(d, s, force + 1, n1), Put(d, s, force + 2, n2);
      Put(d, s, force + 3, f0), Put(d, s, force + 4, f1), Put(d, s, force + 5, f2);
      ForceToParent(d, carrier, s, BodySlot(j, dl::kE), BodySlot(j, dl::kR), force, force, false);
      HWY_UNROLL(32)
      for (size_t k = 0; k < kFloatingBaseVelocities; ++k) {
        const V entry = CoupledRate(d, body, Get(d, s, force + SpatialOfBaseVelocity(k)));
        write(at(column, k), entry);
        write(at(k, column), entry);
      }
    }
  }
  if (tree.floating_base) {  // the base block: Ic_0 = [[I, h x], [(h x)^T, mass 1]] in (v, w) order
    const size_t ic = BodySlot(0, dl::kInertia);
    const auto skew = [&](size_t i, size_t j) HWY_ATTR {  // (h x)(i, j)
      if (i == j) return hn::Zero(d);
      const size_t k = 3 - i - j;  // the third index
      const V h = Get(d, s, ic + kRigidFirstMoment + k);
      // (h x) = [[0, -hz, hy], [hz, 0, -hx], [-hy, hx, 0]]: +h_k where (i, j, k) is cyclic.
      return (j == (i + 1) % 3) ? hn::Neg(h) : h;
    };
    HWY_UNROLL(32)
    for (size_t row = 0; row < kFloatingBaseVelocities; ++row) {
      HWY_UNROLL(32)
      for (size_t col = 0; col < kFloatingBaseVelocities; ++col) {
        const size_t sr = SpatialOfBaseVelocity(row), sc = SpatialOfBaseVelocity(col);
        V entry;
        if (sr < 3 && sc < 3) {
          entry = Get(d, s, ic + kRigidInertia + SymmetricIndex(sr, sc));
        } else if (sr < 3) {
          entry = skew(sr, sc - 3);
        } else if (sc < 3) {
          entry = skew(sc, sr - 3);  // (h x)^T
        } else {
          entry = sr == sc ? Get(d, s, ic + kRigidMass) : hn::Zero(d);
        }
        Put(d, s, at(row, col), entry);
      }
    }
  }
}

inline void MassMatrixImpl(const DynamicsTree& tree, const ConstLanesView& q,
                           const LanesView& mass_matrix, float* scratch) {
  const hn::ScalableTag<float> d;
  const InLanes q_in{q.data, q.stride};
  const OutLanes out{mass_matrix.data, mass_matrix.stride};
  const size_t n = tree.velocity_count();
  const size_t matrix = dl::ScratchRegions(tree.body_count, n).matrix;
  const bool stream = StreamsOutputs({&mass_matrix});
  const bool once = EveryMassEntryOnce(tree);
  const Slots shared = PrepareScratch(tree, scratch);
  ForEachVectorMaybeStreamed(d, mass_matrix.count, stream, [&](size_t i, auto store) HWY_ATTR {
    const Slots local = shared;
    const Slots& s = VectorSlots(local, shared);
    PrefetchInputs(d, q, i);
    if (!stream) PrefetchOutputs(d, mass_matrix, i);
    MassMatrixVector(d, tree, once, q_in, i, s, matrix);
    StoreSlots(d, s, matrix, n * n, out, i, store);
  });
}

// MassMatrixImpl and FactorMassMatrixImpl in one pass per vector of robots: the factor starts
// from the matrix still in the slots instead of a round trip through the output arrays.
inline void MassMatrixAndFactorImpl(const DynamicsTree& tree, const ConstLanesView& q,
                                    const LanesView& mass_matrix, const LanesView& factor,
                                    float* scratch) {
  const hn::ScalableTag<float> d;
  const InLanes q_in{q.data, q.stride};
  const OutLanes matrix_out{mass_matrix.data, mass_matrix.stride};
  const OutLanes factor_out{factor.data, factor.stride};
  const size_t n = tree.velocity_count();
  const size_t matrix = dl::ScratchRegions(tree.body_count, n).matrix;
  const size_t bytes = StreamableBytes({&mass_matrix, &factor});
  const bool stream = bytes >= kStreamMassMatrixBytes;
  const bool once = EveryMassEntryOnce(tree);
  const Slots shared = PrepareScratch(tree, scratch);
  const auto one_vector = [&](size_t i, auto store) HWY_ATTR {
    const Slots local = shared;
    const Slots& s = VectorSlots(local, shared);
    PrefetchInputs(d, q, i);
    if (!stream) PrefetchOutputs(d, mass_matrix, i), PrefetchOutputs(d, factor, i);
    MassMatrixVector(d, tree, once, q_in, i, s, matrix);
    StoreSlots(d, s, matrix, n * n, matrix_out, i, store);
    // The factor reads and writes the lower triangle only; zeros are stored above it.
    FactorInSlots(d, s, matrix, n, tree.velocity_parent);
    for (size_t row = 0; row < n; ++row) {
      for (size_t col = 0; col < n; ++col) {
        const size_t k = row * n + col;
        store(col <= row ? Get(d, s, matrix + k) : hn::Zero(d), d, factor_out.Array(k) + i);
      }
    }
  };
  if (!stream) return ForEachVectorIn(d, 0, factor.count, one_vector);
  // From kStreamOutputBytes, far past the caches, kStreamGroup vectors at a time through the
  // staging area (dl::kStreamGroup). Below that the staging costs more than it gains: 10,000
  // Panda arms (3.9 MB) ran at 25.5 M/s streamed one vector at a time and 21.5 grouped, 100,000
  // at 19.1 and 22.4 (best of 5 runs each, one AVX-512 Xeon core).
  if (bytes < kStreamOutputBytes) {
    return ForEachVectorIn<StreamAll>(d, 0, factor.count, one_vector);
  }
  const size_t lanes = hn::Lanes(d), group = dl::kStreamGroup * lanes;
  const size_t groups_end = factor.count / group * group;
  const size_t staging = dl::ScratchRegions(tree.body_count, n).staging;
  for (size_t i = 0; i < groups_end; i += group) {
    const Slots local = shared;
    const Slots& s = VectorSlots(local, shared);
    for (size_t g = 0; g < dl::kStreamGroup; ++g) {
      const size_t at = i + g * lanes, m = staging + 2 * g * n * n, f = m + n * n;
      PrefetchInputs(d, q, at);
      MassMatrixVector(d, tree, once, q_in, at, s, m);
      for (size_t row = 0; row < n; ++row) CopySlots(d, s, m + row * n, f + row * n, row + 1);
      FactorInSlots(d, s, f, n, tree.velocity_parent);
    }
    for (size_t k = 0; k < n * n; ++k) {  // consecutive lines of each array together
      for (size_t g = 0; g < dl::kStreamGroup; ++g) {
        const size_t m = staging + 2 * g * n * n;
        hn::Stream(Get(d, s, m + k), d, matrix_out.Array(k) + i + g * lanes);
      }
      const bool lower = k % n <= k / n;
      for (size_t g = 0; g < dl::kStreamGroup; ++g) {
        const size_t f = staging + (2 * g + 1) * n * n;
        hn::Stream(lower ? Get(d, s, f + k) : hn::Zero(d), d, factor_out.Array(k) + i + g * lanes);
      }
    }
  }
  ForEachVectorIn<StreamAll>(d, groups_end, factor.count, one_vector);
}

// Forward dynamics of a tree with mimic couplings, which ABA does not handle:
// (M + A + E) qdd = tau - h by CRBA, RNEA at qdd = 0 and LTDL, one vector of robots at a time, with
// E the joints' added inertia (added_joints: joint_q_count arrays, or none) and a dense added
// inertia (added_matrix: n * n arrays, or none), in that order.
inline void CoupledForwardDynamicsImpl(const DynamicsTree& tree, const float* gravity,
                                       const ConstLanesView& q, const ConstLanesView& qd,
                                       const ConstLanesView& tau, const LanesView& qdd,
                                       float* scratch, const ConstLanesView& added_joints,
                                       const ConstLanesView& added_matrix) {
  const hn::ScalableTag<float> d;
  const InLanes q_in{q.data, q.stride}, qd_in{qd.data, qd.stride}, tau_in{tau.data, tau.stride};
  const OutLanes out{qdd.data, qdd.stride};
  const size_t n = tree.velocity_count();
  const dl::Regions regions = dl::ScratchRegions(tree.body_count, n);
  const bool once = EveryMassEntryOnce(tree);
  const Slots shared = PrepareScratch(tree, scratch);
  ForEachVector(d, qdd.count, [&](size_t i, auto store) HWY_ATTR {
    const Slots local = shared;
    const Slots& s = VectorSlots(local, shared);
    PrefetchInputs(d, q, i), PrefetchInputs(d, qd, i), PrefetchInputs(d, tau, i);
    PrefetchOutputs(d, qdd, i);
    MassMatrixVector(d, tree, once, q_in, i, s, regions.matrix);
    for (size_t k = 0; k < added_joints.arrays; ++k) {  // the joints' added inertia (none: 0)
      const size_t column = tree.joint_velocity_begin() + k,
                   slot = regions.matrix + column * n + column;
      Put(d, s, slot, hn::Add(Get(d, s, slot), hn::LoadU(d, added_joints.Array(k) + i)));
    }
    for (size_t k = 0; k < added_matrix.arrays; ++k) {  // the dense added inertia (none: 0)
      const size_t slot = regions.matrix + k;
      Put(d, s, slot, hn::Add(Get(d, s, slot), hn::LoadU(d, added_matrix.Array(k) + i)));
    }
    InverseDynamicsVector(d, tree, gravity, q_in, &qd_in, nullptr, i, s, regions.vector2);
    for (size_t k = 0; k < n; ++k) {
      Put(d, s, regions.vector1 + k,
          hn::Sub(hn::LoadU(d, tau_in.Array(k) + i), Get(d, s, regions.vector2 + k)));
    }
    FactorInSlots(d, s, regions.matrix, n, tree.velocity_parent);
    SolveInSlots(d, s, regions.matrix, n, tree.velocity_parent, regions.vector1);
    StoreSlots(d, s, regions.vector1, n, out, i, store);
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_ROBOTS_DYNAMICS_CRBA_INL_H_
