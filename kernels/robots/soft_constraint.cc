// The scalar side of soft constraints (swarm/kernels/robots/soft_constraint.h): validation and the
// per-step constants the kernels read. The per-lane side is kernels/robots/soft_constraint-inl.h.
#include "swarm/kernels/robots/soft_constraint.h"

#include <algorithm>
#include <cmath>

namespace swarm {

bool ValidSoftConstraint(const SoftConstraint& soft) {
  const auto in_open_unit = [](float value) { return value > 0.0f && value < 1.0f; };
  return std::isfinite(soft.time_constant) && soft.time_constant > 0.0f &&
         std::isfinite(soft.damping_ratio) && soft.damping_ratio > 0.0f &&
         in_open_unit(soft.impedance_min) && in_open_unit(soft.impedance_max) &&
         std::isfinite(soft.width) && soft.width >= 0.0f && in_open_unit(soft.midpoint) &&
         soft.power >= 1 && soft.power <= kMaxImpedancePower &&
         std::isfinite(soft.max_push_speed) && soft.max_push_speed > 0.0f &&
         soft.max_mass_ratio > 0.0f;  // false for NaN; infinity allowed
}

SoftConstraintStep PrepareSoftConstraint(const SoftConstraint& soft, float dt) {
  SoftConstraintStep step;
  // MuJoCo's refsafe: a time constant below two steps cannot be resolved by the integrator.
  const double tc = std::max(double(soft.time_constant), 2.0 * double(dt));
  const double dmax = soft.impedance_max, zeta = soft.damping_ratio;
  step.k = static_cast<float>(1.0 / (dmax * dmax * tc * tc * zeta * zeta));
  step.b = static_cast<float>(2.0 / (dmax * tc));
  step.impedance_min = soft.impedance_min;
  step.impedance_max = soft.impedance_max;
  const bool flat = soft.impedance_min == soft.impedance_max || soft.width == 0.0f;
  step.inverse_width = flat ? 0.0f : static_cast<float>(1.0 / double(soft.width));
  step.midpoint = soft.midpoint;
  step.power = soft.power;
  step.low_scale = static_cast<float>(1.0 / std::pow(double(soft.midpoint), soft.power - 1));
  step.high_scale = static_cast<float>(1.0 / std::pow(1.0 - double(soft.midpoint), soft.power - 1));
  step.max_push_speed = soft.max_push_speed;
  step.max_mass_ratio = soft.max_mass_ratio;
  step.dt = dt;
  return step;
}

}  // namespace swarm
