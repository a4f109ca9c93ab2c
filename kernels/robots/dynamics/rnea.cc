// Dispatch of inverse dynamics (RNEA, rnea-inl.h): InverseDynamics, GravityTorques and
// MassTimes check their preconditions and pick the best supported target once per call.
#include "swarm/kernels/robots/dynamics/robot_dynamics.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/robots/dynamics/rnea-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/robots/dynamics/rnea-inl.h"

#if HWY_ONCE
#include "kernels/robots/dynamics/dynamics_dispatch.h"
#include "swarm/kernels/base/assert.h"

namespace swarm {

HWY_EXPORT(InverseDynamicsImpl);
HWY_EXPORT(StaticInverseDynamicsImpl);

using dynamics_dispatch::AllFinite;
using dynamics_dispatch::Disjoint;
using dynamics_dispatch::ScratchAligned;

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
                    const LanesView& tau, float* scratch, const JointTrig* trig) {
  SWARM_ASSERT(ValidDynamicsTree(tree) && AllFinite(gravity, 3) && ScratchAligned(scratch));
  SWARM_ASSERT(q.arrays == tree.q_count() && tau.arrays == tree.velocity_count());
  SWARM_ASSERT(q.count == tau.count && Disjoint(tau, q));
  SWARM_ASSERT(dynamics_dispatch::ValidTrig(tree, trig, tau.count, q, tau));
  if (tau.count == 0) return;
  HWY_DYNAMIC_DISPATCH(StaticInverseDynamicsImpl)(tree, gravity, q, nullptr, tau, scratch, trig);
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
  HWY_DYNAMIC_DISPATCH(StaticInverseDynamicsImpl)(tree, no_gravity, q, &v, out, scratch, nullptr);
}

}  // namespace swarm
#endif  // HWY_ONCE
