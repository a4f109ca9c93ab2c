// Scalar reference for swarm/kernels/robots/soft_constraint.h's rows; the order of operations is
// the contract with kernels/robots/soft_constraint-inl.h (see
// swarm/kernels/robots/soft_constraint_reference.h).
#include "swarm/kernels/robots/soft_constraint_reference.h"

#include <cmath>

namespace swarm::reference {

float IntegerPower(float x, int power) {
  float result = x;
  for (int k = 1; k < power; ++k) result = result * x;
  return result;
}

float Impedance(const SoftConstraintStep& c, float r) {
  if (c.inverse_width == 0.0f) return 0.5f * (c.impedance_min + c.impedance_max);
  const float scaled = std::fabs(r) * c.inverse_width;
  const float x = scaled < 1.0f ? scaled : 1.0f;
  const float low = IntegerPower(x, c.power) * c.low_scale;
  const float high = 1.0f - IntegerPower(1.0f - x, c.power) * c.high_scale;
  const float y = x <= c.midpoint ? low : high;
  return c.impedance_min + y * (c.impedance_max - c.impedance_min);
}

SoftRow SoftRowAt(const SoftConstraintStep& c, float r, float inverse_inertia0,
                  float regulariser_inertia) {
  const float impedance = Impedance(c, r);
  const float kd = c.k * impedance;
  const float mass_factor = (1.0f + c.dt * c.b) + (c.dt * c.dt) * kd;
  const float uncapped = impedance / ((1.0f - impedance) * regulariser_inertia);
  const float cap = c.max_mass_ratio / (inverse_inertia0 * mass_factor);
  const float inverse_r = uncapped > cap ? cap : uncapped;
  SoftRow row;
  row.stiffness = kd * inverse_r;
  row.damping = (c.b + c.dt * kd) * inverse_r;
  row.mass = mass_factor * inverse_r;
  row.reach = (c.max_push_speed * (c.b + c.dt * kd)) / kd;
  return row;
}

float SoftRowForce(float stiffness, float damping, float reach, float velocity, float position) {
  float clamped = position < -reach ? -reach : position;
  clamped = clamped > reach ? reach : clamped;
  return -(damping * velocity + stiffness * clamped);
}

bool RowActive(float flag, bool violated) { return (flag == 0.0f && violated) || flag > 0.0f; }

float HardRowForce(const SoftConstraintStep& c, float flag, float mass, float r, float velocity) {
  const float inverse_dt = 1.0f / c.dt;
  const float caught_target = -((r > 0.0f ? r : 0.0f) * inverse_dt);
  const float target = flag == kRowStopped ? 0.0f : caught_target;
  return mass * ((target - velocity) * inverse_dt);
}

float NextRowFlag(float flag, bool active, bool pulls, bool crosses, bool may_release,
                  bool unsettled) {
  const bool unflagged = flag == 0.0f;
  float next = flag;
  if (may_release && unflagged && active && pulls) next = kRowReleased;
  if (((!active && unflagged) || flag == kRowReleased || flag == kRowDropped) && crosses)
    next = kRowCaught;
  if (flag == kRowCaught && pulls) next = may_release ? kRowDropped : kRowStopped;
  if (!may_release && unsettled && flag < 0.0f) next = kRowStopped;  // released or dropped
  return next;
}

}  // namespace swarm::reference
