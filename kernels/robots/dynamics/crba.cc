// Dispatch of the mass matrix (CRBA, crba-inl.h): MassMatrix and MassMatrixAndFactor check their
// preconditions and pick the best supported target once per call.
#include "swarm/kernels/robots/dynamics/robot_dynamics.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/robots/dynamics/crba-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/robots/dynamics/crba-inl.h"

#if HWY_ONCE
#include "kernels/robots/dynamics/dynamics_dispatch.h"
#include "swarm/kernels/base/assert.h"

namespace swarm {

HWY_EXPORT(MassMatrixImpl);
HWY_EXPORT(MassMatrixAndFactorImpl);
HWY_EXPORT(CoupledForwardDynamicsImpl);

using dynamics_dispatch::AllFinite;
using dynamics_dispatch::Disjoint;
using dynamics_dispatch::ScratchAligned;

void MassMatrix(const DynamicsTree& tree, const ConstLanesView& q, const LanesView& mass_matrix,
                float* scratch) {
  SWARM_ASSERT(ValidDynamicsTree(tree) && ScratchAligned(scratch));
  const size_t n = tree.velocity_count();
  SWARM_ASSERT(q.arrays == tree.q_count() && mass_matrix.arrays == n * n);
  SWARM_ASSERT(q.count == mass_matrix.count && Disjoint(mass_matrix, q));
  if (mass_matrix.count == 0) return;
  HWY_DYNAMIC_DISPATCH(MassMatrixImpl)(tree, q, mass_matrix, scratch);
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

void dynamics_dispatch::CoupledForwardDynamics(const DynamicsTree& tree, const float gravity[3],
                                               const ConstLanesView& q, const ConstLanesView& qd,
                                               const ConstLanesView& tau, const LanesView& qdd,
                                               float* scratch, const AddedInertia* added) {
  const ConstLanesView none{};
  const ConstLanesView& joints = added != nullptr ? added->joints : none;
  const ConstLanesView& matrix = added != nullptr ? added->matrix : none;
  HWY_DYNAMIC_DISPATCH(CoupledForwardDynamicsImpl)
  (tree, gravity, q, qd, tau, qdd, scratch, joints, matrix);
}

}  // namespace swarm
#endif  // HWY_ONCE
