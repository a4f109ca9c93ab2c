// Scalar reference for one soft-constraint row (swarm/kernels/robots/soft_constraint.h): the
// impedance d(r), the row's coefficients of equation (2) with the push-out cap, and the one-sided
// rows' flags, one value at a time, with the same correctly rounded operations in the same order as
// kernels/robots/soft_constraint-inl.h, so with -ffp-contract=off they agree with the kernels to
// the bit on every SIMD target. Shared by the joint-limit and ground-contact references
// (swarm/kernels/robots/joint_constraints_reference.h,
// swarm/kernels/robots/robot_contact_reference.h).
#pragma once

#include "swarm/kernels/robots/soft_constraint.h"

namespace swarm::reference {

// x^power as x * x * ... * x, left to right (power >= 1).
float IntegerPower(float x, int power);

// MuJoCo's impedance at row position r: x = min(|r| / width, 1) (by the prepared 1 / width),
// y = x^p low_scale for x <= mid, 1 - (1 - x)^p high_scale above, d = dmin + y (dmax - dmin);
// (dmin + dmax) / 2 for a flat impedance (inverse_width == 0).
float Impedance(const SoftConstraintStep& c, float r);

// The row's coefficients at position r with reference inverse inertia w0:
//   1 / R = d / ((1 - d) w0), stiffness = (k d) / R, damping = (b + dt (k d)) / R,
//   mass = ((1 + dt b) + (dt dt) (k d)) / R, reach = (max_push_speed (b + dt (k d))) / (k d).
struct SoftRow {
  float stiffness, damping, mass, reach;
};
// regulariser_inertia: R's inertia (kernels/robots/soft_constraint-inl.h), w0 unless given.
SoftRow SoftRowAt(const SoftConstraintStep& c, float r, float inverse_inertia0,
                  float regulariser_inertia);
inline SoftRow SoftRowAt(const SoftConstraintStep& c, float r, float inverse_inertia0) {
  return SoftRowAt(c, r, inverse_inertia0, inverse_inertia0);
}

// f_e = -(damping velocity + stiffness clamp(position, -reach, reach)), the lower bound first.
float SoftRowForce(float stiffness, float damping, float reach, float velocity, float position);

// Violated and unflagged, or caught or stopped (flag > 0).
bool RowActive(float flag, bool violated);

// A hard row's f_e = mass ((target - velocity) / dt) as mass ((target - velocity) (1 / dt)), with
// target = 0 for a stopped row, else -(max(r, 0) (1 / dt)).
float HardRowForce(const SoftConstraintStep& c, float flag, float mass, float r, float velocity);

// The flag after a solve (soft_constraint.h, one-sided rows); `unsettled`: the robot's mark is set
// (only the last update, without `may_release`, reads it).
float NextRowFlag(float flag, bool active, bool pulls, bool crosses, bool may_release,
                  bool unsettled);

}  // namespace swarm::reference
