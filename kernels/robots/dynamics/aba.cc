// Dispatch of forward dynamics (ABA, aba-inl.h; trees with mimic couplings through CRBA, RNEA and
// LTDL, crba-inl.h): ForwardDynamics checks its preconditions and picks the best supported target
// once per call.
#include "swarm/kernels/robots/dynamics/robot_dynamics.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/robots/dynamics/aba-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/robots/dynamics/aba-inl.h"

#if HWY_ONCE
#include "kernels/robots/dynamics/dynamics_dispatch.h"
#include "swarm/kernels/base/assert.h"

namespace swarm {

HWY_EXPORT(ForwardDynamicsImpl);

using dynamics_dispatch::AllFinite;
using dynamics_dispatch::Disjoint;
using dynamics_dispatch::ScratchAligned;

namespace {

bool ValidAdded(const DynamicsTree& tree, const AddedInertia& added, size_t count) {
  if (added.joints.arrays != 0 &&
      (added.joints.arrays != tree.joint_q_count || added.joints.count != count)) {
    return false;
  }
  if (added.matrix.arrays != 0) {
    const size_t n = tree.velocity_count();
    if (!HasCouplings(tree) || added.matrix.arrays != n * n || added.matrix.count != count) {
      return false;
    }
  }
  if (added.point_count == 0) return true;
  if (added.point_bodies == nullptr ||
      added.points.arrays != kAddedPointArrays * added.point_count || added.points.count != count ||
      HasCouplings(tree)) {
    return false;
  }
  for (size_t p = 0; p < added.point_count; ++p) {
    if (added.point_bodies[p] >= tree.body_count) return false;
  }
  return true;
}

}  // namespace

void ForwardDynamics(const DynamicsTree& tree, const float gravity[3], const ConstLanesView& q,
                     const ConstLanesView& qd, const ConstLanesView& tau, const LanesView& qdd,
                     float* scratch, const AddedInertia* added, const JointTrig* trig) {
  SWARM_ASSERT(ValidDynamicsTree(tree) && AllFinite(gravity, 3) && ScratchAligned(scratch));
  const size_t n = tree.velocity_count();
  SWARM_ASSERT(q.arrays == tree.q_count() && qd.arrays == n && tau.arrays == n && qdd.arrays == n);
  SWARM_ASSERT(q.count == qdd.count && qd.count == qdd.count && tau.count == qdd.count);
  SWARM_ASSERT(Disjoint(qdd, q) && Disjoint(qdd, qd) && Disjoint(qdd, tau));
  SWARM_ASSERT(added == nullptr || ValidAdded(tree, *added, qdd.count));
  SWARM_ASSERT(dynamics_dispatch::ValidTrig(tree, trig, qdd.count, q, qd, tau, qdd));
  if (qdd.count == 0) return;
  if (HasCouplings(tree)) {
    dynamics_dispatch::CoupledForwardDynamics(tree, gravity, q, qd, tau, qdd, scratch, added);
  } else {
    HWY_DYNAMIC_DISPATCH(ForwardDynamicsImpl)(tree, gravity, q, qd, tau, qdd, scratch, added, trig);
  }
}

}  // namespace swarm
#endif  // HWY_ONCE
