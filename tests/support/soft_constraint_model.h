// MuJoCo's soft-constraint row in double precision, for the tests of the joint-limit and
// ground-contact kernels (swarm/kernels/robots/joint_constraints.h, robot_contact.h) and of the
// batches, the C API and Python that step them: written from
// MuJoCo's documentation ("Computation", "Solver parameters") and its engine's getimpedance and
// mj_makeImpedance, in MuJoCo's own terms (K includes the impedance, R = (1 - d) / d w0, real
// powers), not from swarm's kernels or their prepared constants. Equation (2) of
// swarm/kernels/robots/soft_constraint.h then gives the row's virtual mass and explicit force, and
// its push-out cap (Box2D's contactPushMaxVelocity) the spring's clamped position.
#pragma once

#include <algorithm>
#include <cmath>

#include "swarm/kernels/robots/soft_constraint.h"

namespace swarm::test {

// MuJoCo's getimpedance at distance r (no margin), clamped to [mjMINIMP, mjMAXIMP].
inline double MujocoImpedance(const SoftConstraint& soft, double r) {
  const double dmin = soft.impedance_min, dmax = soft.impedance_max, width = soft.width;
  const double mid = soft.midpoint, power = soft.power;
  double imp;
  if (dmin == dmax || width <= 1e-15) {
    imp = 0.5 * (dmin + dmax);
  } else {
    const double x = std::fabs(r / width);
    if (x >= 1.0 || x <= 0.0) {
      imp = x >= 1.0 ? dmax : dmin;
    } else {
      double y;
      if (power == 1.0) {
        y = x;
      } else if (x <= mid) {
        y = std::pow(x, power) / std::pow(mid, power - 1.0);
      } else {
        y = 1.0 - std::pow(1.0 - x, power) / std::pow(1.0 - mid, power - 1.0);
      }
      imp = dmin + y * (dmax - dmin);
    }
  }
  return std::clamp(imp, 0.0001, 0.9999);
}

// One row at position r, velocity v, with reference inverse inertia w0, for time step dt.
struct MujocoRow {
  double impedance, k, b, r_inverse;  // d, MuJoCo's K = d / (dmax^2 tc^2 zeta^2) and B, 1 / R
  double stiffness, damping, mass;    // K / R, (B + dt K) / R, (1 + dt B + dt^2 K) / R
  double reach;                       // max_push_speed (B + dt K) / K: the spring's clamp
  bool mass_capped = false;           // the virtual mass cap bound
};

// R's inertia is w0 times regulariser_scale (swarm's ContactParameters); w0 bounds the virtual
// mass.
inline MujocoRow MujocoRowAt(const SoftConstraint& soft, double dt, double r, double w0,
                             double regulariser_scale = 1.0) {
  MujocoRow row;
  const double tc = std::max(double(soft.time_constant), 2.0 * dt);  // refsafe
  const double dmax = soft.impedance_max, zeta = soft.damping_ratio;
  row.impedance = MujocoImpedance(soft, r);
  row.k = row.impedance / (dmax * dmax * tc * tc * zeta * zeta);
  row.b = 2.0 / (dmax * tc);
  row.r_inverse = 1.0 / ((1.0 - row.impedance) / row.impedance * w0 * regulariser_scale);
  // swarm's cap of stiff rows (soft_constraint.h): the virtual mass at most max_mass_ratio / w0.
  const double cap = double(soft.max_mass_ratio) / (w0 * (1.0 + dt * row.b + dt * dt * row.k));
  row.mass_capped = row.r_inverse > cap;
  row.r_inverse = std::min(row.r_inverse, cap);
  row.stiffness = row.k * row.r_inverse;
  row.damping = (row.b + dt * row.k) * row.r_inverse;
  row.mass = (1.0 + dt * row.b + dt * dt * row.k) * row.r_inverse;
  row.reach = double(soft.max_push_speed) * (row.b + dt * row.k) / row.k;
  return row;
}

// The spring's position: r clamped to [-reach, reach], where the spring alone pushes back at
// max_push_speed.
inline double CappedPosition(const MujocoRow& row, double r) {
  return std::clamp(r, -row.reach, row.reach);
}

// Equation (2)'s explicit force of a row at position r moving at v with damping `damping` (the
// row's (B + dt K) / R, or the arrival damping m / dt): -(damping v + K clamp(r) / R).
inline double MujocoExplicitForce(const MujocoRow& row, double damping, double v, double r) {
  return -(damping * v + row.stiffness * CappedPosition(row, r));
}
inline double MujocoExplicitForce(const MujocoRow& row, double v, double r) {
  return MujocoExplicitForce(row, row.damping, v, r);
}

// The depth at which a row at rest carries `force`: MuJoCo's steady state K r / R = force
// (soft_constraint.h), by bisection over [0, 10] (m or rad).
inline double RestingDepth(const SoftConstraint& soft, double w0, double force, double dt) {
  double low = 0.0, high = 10.0;
  for (int iteration = 0; iteration < 200; ++iteration) {
    const double mid = 0.5 * (low + high);
    const MujocoRow row = MujocoRowAt(soft, dt, -mid, w0);
    (row.stiffness * mid < force ? low : high) = mid;
  }
  return 0.5 * (low + high);
}

}  // namespace swarm::test
