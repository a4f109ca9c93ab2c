// Dispatch of the tree factorisation (LTDL, tree_factor-inl.h): FactorMassMatrix and
// SolveMassMatrix check their preconditions and pick the best supported target once per call.
#include "swarm/kernels/robots/dynamics/robot_dynamics.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/robots/dynamics/tree_factor-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/robots/dynamics/tree_factor-inl.h"

#if HWY_ONCE
#include "kernels/robots/dynamics/dynamics_dispatch.h"
#include "swarm/kernels/base/assert.h"

namespace swarm {

HWY_EXPORT(FactorMassMatrixImpl);
HWY_EXPORT(SolveMassMatrixImpl);

using dynamics_dispatch::AllFinite;
using dynamics_dispatch::Disjoint;
using dynamics_dispatch::ScratchAligned;

void FactorMassMatrix(const DynamicsTree& tree, const ConstLanesView& mass_matrix,
                      const LanesView& factor, float* scratch) {
  SWARM_ASSERT(ValidDynamicsTree(tree) && ScratchAligned(scratch));
  const size_t n = tree.velocity_count();
  SWARM_ASSERT(mass_matrix.arrays == n * n && factor.arrays == n * n);
  SWARM_ASSERT(mass_matrix.count == factor.count);
  if (factor.count == 0) return;
  HWY_DYNAMIC_DISPATCH(FactorMassMatrixImpl)(tree, mass_matrix, factor, scratch);
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

}  // namespace swarm
#endif  // HWY_ONCE
