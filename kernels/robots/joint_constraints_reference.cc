// Scalar references for swarm/kernels/robots/joint_constraints.h; the order of operations is the
// contract with kernels/robots/joint_constraints-inl.h (see
// swarm/kernels/robots/joint_constraints_reference.h).
#include "swarm/kernels/robots/joint_constraints_reference.h"

#include <cmath>

namespace swarm::reference {

LimitRow LimitRowAt(const JointConstraint& joint, const SoftConstraintStep& limits, float q,
                    float v, float flag) {
  const float below = q - joint.lower, above = joint.upper - q;
  LimitRow out;
  out.lower_side = below <= above;
  out.r = out.lower_side ? below : above;
  out.row_velocity = out.lower_side ? v : -v;
  out.active = RowActive(flag, out.r < 0.0f);
  out.row = SoftRowAt(limits, out.r, joint.inverse_inertia0);
  const float inverse_dt = 1.0f / limits.dt;
  const bool arrives = out.row_velocity < 0.0f && out.r - limits.dt * out.row_velocity >= 0.0f;
  if (arrives) {
    const SoftRow deeper =
        SoftRowAt(limits, out.r + limits.dt * out.row_velocity, joint.inverse_inertia0);
    if (deeper.mass > out.row.mass) out.row.mass = deeper.mass;
  }
  const float damping = arrives ? out.row.mass * inverse_dt : out.row.damping;
  out.explicit_force =
      SoftRowForce(out.row.stiffness, damping, out.row.reach, out.row_velocity, out.r);
  if (flag > 0.0f) {
    out.explicit_force = HardRowForce(limits, flag, out.row.mass, out.r, out.row_velocity);
  }
  return out;
}

float LimitRowForce(const LimitRow& limit, float qdd) {
  const float row_acceleration = limit.lower_side ? qdd : -qdd;
  return limit.active ? limit.explicit_force - limit.row.mass * row_acceleration : 0.0f;
}

bool CrossesInStep(const SoftConstraintStep& limits, float r, float row_velocity,
                   float row_acceleration) {
  const float end = r + limits.dt * (row_velocity + limits.dt * row_acceleration);
  return end < (r < 0.0f ? r : 0.0f);
}

float FrictionSlope(float friction, float eps, float v) {
  const float eps_squared = eps * eps;
  const float sum = v * v + eps_squared;
  return (friction * eps_squared) / (sum * std::sqrt(sum));
}

void JointConstraintTerms(const JointConstraint* joints, size_t count,
                          const SoftConstraintStep& limits, float friction_velocity,
                          const ConstLanesView& q, const ConstLanesView& qd,
                          const ConstLanesView& flags, const ConstLanesView& tau,
                          const LanesView& applied, const LanesView& added) {
  for (size_t j = 0; j < count; ++j) {
    const JointConstraint& joint = joints[j];
    for (size_t r = 0; r < tau.count; ++r) {
      const float v = qd.Array(j)[r];
      const LimitRow limit = LimitRowAt(joint, limits, q.Array(j)[r], v, flags.Array(j)[r]);
      float inertia = limits.dt * joint.damping;
      if (joint.friction != 0.0f) {
        inertia = inertia + limits.dt * FrictionSlope(joint.friction, friction_velocity, v);
      }
      added.Array(j)[r] = inertia + (limit.active ? limit.row.mass : 0.0f);
      const float push = limit.lower_side ? limit.explicit_force : -limit.explicit_force;
      const float torque = tau.Array(j)[r];
      applied.Array(j)[r] = limit.active ? torque + push : torque;
    }
  }
}

bool UpdateLimitFlags(const JointConstraint* joints, size_t count, const SoftConstraintStep& limits,
                      const ConstLanesView& q, const ConstLanesView& qd, const ConstLanesView& qdd,
                      bool may_release, const LanesView& flags, const LanesView& changed) {
  bool any = false;
  for (size_t j = 0; j < count; ++j) {
    for (size_t r = 0; r < q.count; ++r) {
      float& flag = flags.Array(j)[r];
      const float a = qdd.Array(j)[r];
      const LimitRow limit = LimitRowAt(joints[j], limits, q.Array(j)[r], qd.Array(j)[r], flag);
      const bool crosses =
          CrossesInStep(limits, limit.r, limit.row_velocity, limit.lower_side ? a : -a);
      const bool pulls = LimitRowForce(limit, a) < 0.0f;
      const float updated =
          NextRowFlag(flag, limit.active, pulls, crosses, may_release, changed.Array(0)[r] != 0.0f);
      if (updated != flag) {
        any = true;
        changed.Array(0)[r] = 1.0f;
      }
      flag = updated;
    }
  }
  return any;
}

void JointLimitForces(const JointConstraint* joints, size_t count, const SoftConstraintStep& limits,
                      const ConstLanesView& q, const ConstLanesView& qd, const ConstLanesView& qdd,
                      const ConstLanesView& flags, const LanesView& forces) {
  for (size_t j = 0; j < count; ++j) {
    for (size_t r = 0; r < forces.count; ++r) {
      const LimitRow limit =
          LimitRowAt(joints[j], limits, q.Array(j)[r], qd.Array(j)[r], flags.Array(j)[r]);
      forces.Array(j)[r] = LimitRowForce(limit, qdd.Array(j)[r]);
    }
  }
}

}  // namespace swarm::reference
