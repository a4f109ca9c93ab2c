// Dispatch for the robot dynamics kernels: compiled once per SIMD target; each exported entry
// checks its preconditions and picks the best supported target once per call.
#include "swarm/kernels/robot_dynamics.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "swarm/kernels/robot_dynamics-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "swarm/kernels/robot_dynamics-inl.h"

#if HWY_ONCE
#include <cmath>
#include <cstdint>
#include <vector>

#include "swarm/kernels/assert.h"
#include "swarm/kernels/robot_dynamics_layout.h"

namespace swarm {

HWY_EXPORT(InverseDynamicsImpl);
HWY_EXPORT(StaticInverseDynamicsImpl);
HWY_EXPORT(MassMatrixImpl);
HWY_EXPORT(FactorMassMatrixImpl);
HWY_EXPORT(MassMatrixAndFactorImpl);
HWY_EXPORT(SolveMassMatrixImpl);
HWY_EXPORT(ForwardDynamicsImpl);

namespace {

bool AllFinite(const float* values, size_t count) {
  for (size_t k = 0; k < count; ++k) {
    if (!std::isfinite(values[k])) return false;
  }
  return true;
}

bool FiniteBody(const DynamicsBody& body) {
  return AllFinite(body.origin_rotation, 9) && AllFinite(body.origin_translation, 3) &&
         AllFinite(body.axis, 3) && AllFinite(&body.mass, 1) && AllFinite(body.first_moment, 3) &&
         AllFinite(body.rotational_inertia, 6) && std::isfinite(body.multiplier) &&
         std::isfinite(body.offset) && std::isfinite(body.armature) &&
         std::isfinite(body.damping) && std::isfinite(body.friction);
}

template <typename Float>
size_t Span(const BasicLanesView<Float>& view) {
  return view.arrays == 0 ? 0 : (view.arrays - 1) * view.stride + view.count;
}

template <typename A, typename B>
bool Disjoint(const BasicLanesView<A>& a, const BasicLanesView<B>& b) {
  const float* a_begin = a.data;
  const float* b_begin = b.data;
  return a.count == 0 || b.count == 0 || a_begin + Span(a) <= b_begin ||
         b_begin + Span(b) <= a_begin;
}

bool ScratchAligned(const float* scratch) {
  return scratch != nullptr && reinterpret_cast<uintptr_t>(scratch) % kAlignBytes == 0;
}

}  // namespace

bool ValidDynamicsTree(const DynamicsTree& tree) {
  if (tree.body_count == 0 || tree.bodies == nullptr) return false;
  if (!(tree.friction_velocity > 0.0f) || !std::isfinite(tree.friction_velocity)) return false;
  std::vector<bool> driven(tree.joint_q_count, false);
  for (size_t b = 0; b < tree.body_count; ++b) {
    const DynamicsBody& body = tree.bodies[b];
    if (!FiniteBody(body)) return false;
    if (b == 0) continue;
    if (body.parent >= b) return false;
    if (body.motion != JointMotion::kRevolute && body.motion != JointMotion::kPrismatic) {
      return false;
    }
    if (body.q_index < 0 || static_cast<size_t>(body.q_index) >= tree.joint_q_count) return false;
    driven[static_cast<size_t>(body.q_index)] = true;
  }
  for (bool column_driven : driven) {
    if (!column_driven) return false;
  }
  if (tree.velocity_parent != nullptr) {
    for (size_t k = 0; k < tree.velocity_count(); ++k) {
      const int32_t parent = tree.velocity_parent[k];
      if (parent < -1 || parent >= static_cast<int32_t>(k)) return false;
    }
  }
  return true;
}

bool HasCouplings(const DynamicsTree& tree) {
  std::vector<bool> seen(tree.joint_q_count, false);
  for (size_t b = 1; b < tree.body_count; ++b) {
    const DynamicsBody& body = tree.bodies[b];
    const size_t column = static_cast<size_t>(body.q_index);
    if (body.multiplier != 1.0f || body.offset != 0.0f || seen[column]) return true;
    seen[column] = true;
  }
  return false;
}

size_t RobotDynamicsScratchFloats(const DynamicsTree& tree) {
  return dynamics_layout::ScratchFloats(tree.body_count, tree.velocity_count());
}

void InverseDynamics(const DynamicsTree& tree, const float gravity[3], const ConstLanesView& q,
                     const ConstLanesView& qd, const ConstLanesView& qdd, const LanesView& tau,
                     float* scratch) {
  SWARM_ASSERT(ValidDynamicsTree(tree) && AllFinite(gravity, 3) && ScratchAligned(scratch));
  const size_t n = tree.velocity_count();
  SWARM_ASSERT(q.arrays == tree.q_count() && qd.arrays == n && qdd.arrays == n && tau.arrays == n);
  SWARM_ASSERT(q.count == tau.count && qd.count == tau.count && qdd.count == tau.count);
  SWARM_ASSERT(Disjoint(tau, q) && Disjoint(tau, qd) && Disjoint(tau, qdd));
  if (tau.count == 0) return;
  HWY_DYNAMIC_DISPATCH(InverseDynamicsImpl)(tree, gravity, q, qd, qdd, tau, scratch);
}

void GravityTorques(const DynamicsTree& tree, const float gravity[3], const ConstLanesView& q,
                    const LanesView& tau, float* scratch) {
  SWARM_ASSERT(ValidDynamicsTree(tree) && AllFinite(gravity, 3) && ScratchAligned(scratch));
  SWARM_ASSERT(q.arrays == tree.q_count() && tau.arrays == tree.velocity_count());
  SWARM_ASSERT(q.count == tau.count && Disjoint(tau, q));
  if (tau.count == 0) return;
  HWY_DYNAMIC_DISPATCH(StaticInverseDynamicsImpl)(tree, gravity, q, nullptr, tau, scratch);
}

void MassTimes(const DynamicsTree& tree, const ConstLanesView& q, const ConstLanesView& v,
               const LanesView& out, float* scratch) {
  SWARM_ASSERT(ValidDynamicsTree(tree) && ScratchAligned(scratch));
  SWARM_ASSERT(q.arrays == tree.q_count() && v.arrays == tree.velocity_count() &&
               out.arrays == tree.velocity_count());
  SWARM_ASSERT(q.count == out.count && v.count == out.count && Disjoint(out, q) &&
               Disjoint(out, v));
  if (out.count == 0) return;
  const float no_gravity[3] = {0.0f, 0.0f, 0.0f};
  HWY_DYNAMIC_DISPATCH(StaticInverseDynamicsImpl)(tree, no_gravity, q, &v, out, scratch);
}

void MassMatrix(const DynamicsTree& tree, const ConstLanesView& q, const LanesView& mass_matrix,
                float* scratch) {
  SWARM_ASSERT(ValidDynamicsTree(tree) && ScratchAligned(scratch));
  const size_t n = tree.velocity_count();
  SWARM_ASSERT(q.arrays == tree.q_count() && mass_matrix.arrays == n * n);
  SWARM_ASSERT(q.count == mass_matrix.count && Disjoint(mass_matrix, q));
  if (mass_matrix.count == 0) return;
  HWY_DYNAMIC_DISPATCH(MassMatrixImpl)(tree, q, mass_matrix, scratch);
}

void FactorMassMatrix(const DynamicsTree& tree, const ConstLanesView& mass_matrix,
                      const LanesView& factor, float* scratch) {
  SWARM_ASSERT(ValidDynamicsTree(tree) && ScratchAligned(scratch));
  const size_t n = tree.velocity_count();
  SWARM_ASSERT(mass_matrix.arrays == n * n && factor.arrays == n * n);
  SWARM_ASSERT(mass_matrix.count == factor.count);
  if (factor.count == 0) return;
  HWY_DYNAMIC_DISPATCH(FactorMassMatrixImpl)(tree, mass_matrix, factor, scratch);
}

void MassMatrixAndFactor(const DynamicsTree& tree, const ConstLanesView& q,
                         const LanesView& mass_matrix, const LanesView& factor, float* scratch) {
  SWARM_ASSERT(ValidDynamicsTree(tree) && ScratchAligned(scratch));
  const size_t n = tree.velocity_count();
  SWARM_ASSERT(q.arrays == tree.q_count() && mass_matrix.arrays == n * n && factor.arrays == n * n);
  SWARM_ASSERT(q.count == factor.count && mass_matrix.count == factor.count);
  SWARM_ASSERT(Disjoint(mass_matrix, q) && Disjoint(factor, q) && Disjoint(factor, mass_matrix));
  if (factor.count == 0) return;
  HWY_DYNAMIC_DISPATCH(MassMatrixAndFactorImpl)(tree, q, mass_matrix, factor, scratch);
}

void SolveMassMatrix(const DynamicsTree& tree, const ConstLanesView& factor,
                     const ConstLanesView& b, const LanesView& x, float* scratch) {
  SWARM_ASSERT(ValidDynamicsTree(tree) && ScratchAligned(scratch));
  const size_t n = tree.velocity_count();
  SWARM_ASSERT(factor.arrays == n * n && b.arrays == n && x.arrays == n);
  SWARM_ASSERT(factor.count == x.count && b.count == x.count && Disjoint(x, factor));
  if (x.count == 0) return;
  HWY_DYNAMIC_DISPATCH(SolveMassMatrixImpl)(tree, factor, b, x, scratch);
}

void ForwardDynamics(const DynamicsTree& tree, const float gravity[3], const ConstLanesView& q,
                     const ConstLanesView& qd, const ConstLanesView& tau, const LanesView& qdd,
                     float* scratch) {
  SWARM_ASSERT(ValidDynamicsTree(tree) && AllFinite(gravity, 3) && ScratchAligned(scratch));
  const size_t n = tree.velocity_count();
  SWARM_ASSERT(q.arrays == tree.q_count() && qd.arrays == n && tau.arrays == n && qdd.arrays == n);
  SWARM_ASSERT(q.count == qdd.count && qd.count == qdd.count && tau.count == qdd.count);
  SWARM_ASSERT(Disjoint(qdd, q) && Disjoint(qdd, qd) && Disjoint(qdd, tau));
  if (qdd.count == 0) return;
  HWY_DYNAMIC_DISPATCH(ForwardDynamicsImpl)
  (tree, gravity, q, qd, tau, qdd, scratch, HasCouplings(tree));
}

}  // namespace swarm
#endif  // HWY_ONCE
