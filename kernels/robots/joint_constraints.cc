// Dispatch for the joint constraint kernels (swarm/kernels/robots/joint_constraints.h): compiled
// once per SIMD target; the exported entries check their preconditions and pick the best supported
// target once per call.
#include "swarm/kernels/robots/joint_constraints.h"

#include <cmath>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/robots/joint_constraints-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/robots/joint_constraints-inl.h"

#if HWY_ONCE
#include "kernels/robots/dynamics/dynamics_dispatch.h"
#include "swarm/kernels/base/assert.h"

namespace swarm {

HWY_EXPORT(JointConstraintTermsImpl);
HWY_EXPORT(JointLimitForcesImpl);
HWY_EXPORT(UpdateLimitFlagsImpl);

bool ValidJointConstraint(const JointConstraint& joint) {
  return !std::isnan(joint.lower) && !std::isnan(joint.upper) && joint.lower <= joint.upper &&
         std::isfinite(joint.inverse_inertia0) && joint.inverse_inertia0 > 0.0f &&
         std::isfinite(joint.damping) && joint.damping >= 0.0f && std::isfinite(joint.friction) &&
         joint.friction >= 0.0f;
}

namespace {

bool ValidJoints(const JointConstraint* joints, size_t count) {
  if (count > 0 && joints == nullptr) return false;
  for (size_t j = 0; j < count; ++j) {
    if (!ValidJointConstraint(joints[j])) return false;
  }
  return true;
}

bool ValidStep(const SoftConstraintStep& limits) {
  return std::isfinite(limits.dt) && limits.dt > 0.0f && std::isfinite(limits.k) &&
         std::isfinite(limits.b) && limits.power >= 1 && limits.power <= kMaxImpedancePower;
}

}  // namespace

void JointConstraintTerms(const JointConstraint* joints, size_t count,
                          const SoftConstraintStep& limits, float friction_velocity,
                          const ConstLanesView& q, const ConstLanesView& qd,
                          const ConstLanesView& flags, const ConstLanesView& tau,
                          const LanesView& applied, const LanesView& added) {
  SWARM_ASSERT(ValidJoints(joints, count) && ValidStep(limits));
  SWARM_ASSERT(std::isfinite(friction_velocity) && friction_velocity > 0.0f);
  SWARM_ASSERT(SameCount(applied, q, qd, added) && tau.count == q.count);
  SWARM_ASSERT(q.arrays == count && qd.arrays == count && tau.arrays == count &&
               applied.arrays == count && added.arrays == count);
  SWARM_ASSERT(flags.arrays == count && flags.count == q.count);
  SWARM_ASSERT((applied.data == tau.data && applied.stride == tau.stride) ||
               dynamics_dispatch::Disjoint(applied, tau));
  HWY_DYNAMIC_DISPATCH(JointConstraintTermsImpl)
  (joints, count, limits, friction_velocity, q, qd, flags, tau, applied, added);
}

void JointLimitForces(const JointConstraint* joints, size_t count, const SoftConstraintStep& limits,
                      const ConstLanesView& q, const ConstLanesView& qd, const ConstLanesView& qdd,
                      const ConstLanesView& flags, const LanesView& forces) {
  SWARM_ASSERT(ValidJoints(joints, count) && ValidStep(limits));
  SWARM_ASSERT(SameCount(forces, q, qd, qdd));
  SWARM_ASSERT(q.arrays == count && qd.arrays == count && qdd.arrays == count &&
               forces.arrays == count);
  SWARM_ASSERT(flags.arrays == count && flags.count == q.count);
  HWY_DYNAMIC_DISPATCH(JointLimitForcesImpl)(joints, count, limits, q, qd, qdd, flags, forces);
}

bool UpdateLimitFlags(const JointConstraint* joints, size_t count, const SoftConstraintStep& limits,
                      const ConstLanesView& q, const ConstLanesView& qd, const ConstLanesView& qdd,
                      bool may_release, const LanesView& flags, const LanesView& changed) {
  SWARM_ASSERT(ValidJoints(joints, count) && ValidStep(limits));
  SWARM_ASSERT(SameCount(q, qd, qdd, flags, changed) && q.arrays == count && qd.arrays == count &&
               qdd.arrays == count && flags.arrays == count && changed.arrays == 1);
  return HWY_DYNAMIC_DISPATCH(UpdateLimitFlagsImpl)(joints, count, limits, q, qd, qdd, may_release,
                                                    flags, changed);
}

}  // namespace swarm
#endif  // HWY_ONCE
