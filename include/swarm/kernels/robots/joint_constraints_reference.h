// Scalar references for the joint constraint kernels (swarm/kernels/robots/joint_constraints.h):
// one joint of one robot at a time, with the same correctly rounded operations in the same order
// as kernels/robots/joint_constraints-inl.h, so with -ffp-contract=off they agree with the kernels
// to the bit on every SIMD target. The references always take the full path: the kernels' quiet
// vectors (no lane violated or flagged) skip the row's coefficients and must give the same bits.
// The batch versions have the kernels' signatures.
#pragma once

#include <cstddef>

#include "swarm/kernels/base/views.h"
#include "swarm/kernels/robots/joint_constraints.h"
#include "swarm/kernels/robots/soft_constraint_reference.h"

namespace swarm::reference {

// One joint's limit row at (q, v) with the step's flag: the nearer limit's side (lower: s = +1),
// r and s v, whether the row acts (RowActive), its coefficients and its explicit force f_e: the
// arrival damping m / dt when the joint arrives (r - dt s v >= 0) moving deeper (s v < 0), a hard
// row's force when the flag is positive (HardRowForce), MuJoCo's row otherwise.
struct LimitRow {
  bool lower_side, active;
  float r, row_velocity;
  SoftRow row;
  float explicit_force;
};
LimitRow LimitRowAt(const JointConstraint& joint, const SoftConstraintStep& limits, float q,
                    float v, float flag);

// f = f_e - m s qdd when active, else 0.
float LimitRowForce(const LimitRow& limit, float qdd);

// r + dt (v + dt a) < min(r, 0).
bool CrossesInStep(const SoftConstraintStep& limits, float r, float row_velocity,
                   float row_acceleration);

// friction eps^2 / ((v^2 + eps^2) sqrt(v^2 + eps^2)), eps^2 rounded once.
float FrictionSlope(float friction, float eps, float v);

void JointConstraintTerms(const JointConstraint* joints, size_t count,
                          const SoftConstraintStep& limits, float friction_velocity,
                          const ConstLanesView& q, const ConstLanesView& qd,
                          const ConstLanesView& flags, const ConstLanesView& tau,
                          const LanesView& applied, const LanesView& added);
bool UpdateLimitFlags(const JointConstraint* joints, size_t count, const SoftConstraintStep& limits,
                      const ConstLanesView& q, const ConstLanesView& qd, const ConstLanesView& qdd,
                      bool may_release, const LanesView& flags, const LanesView& changed);
void JointLimitForces(const JointConstraint* joints, size_t count, const SoftConstraintStep& limits,
                      const ConstLanesView& q, const ConstLanesView& qd, const ConstLanesView& qdd,
                      const ConstLanesView& flags, const LanesView& forces);

}  // namespace swarm::reference
