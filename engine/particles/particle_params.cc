#include "swarm/particles/particle_params.h"

#include <cmath>
#include <cstdio>
#include <string>

#include "swarm/core/text.h"
#include "swarm/kernels/particles/emit.h"

namespace swarm {
namespace {

bool Finite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

Status NotFinite(const char* name, const glm::vec3& v) {
  return InvalidArgument(std::string(name) + " must be finite, got (" + NumberText(v.x) + ", " +
                         NumberText(v.y) + ", " + NumberText(v.z) + ")");
}

Status OutOfRange(const char* name, const char* expected, float value) {
  return InvalidArgument(std::string(name) + " must be " + expected + ", got " + NumberText(value));
}

bool InUnitInterval(float value) { return value >= 0.0f && value <= 1.0f; }

bool KnownShape(EmitterShape shape) {
  return shape == EmitterShape::kBox || shape == EmitterShape::kSphere ||
         shape == EmitterShape::kRing;
}

}  // namespace

Status ValidateDt(float dt_seconds) {
  if (!(std::isfinite(dt_seconds) && dt_seconds > 0.0f)) {
    return OutOfRange("dt_seconds", "finite and > 0", dt_seconds);
  }
  return {};
}

Status ValidateEuler(const EulerParams& params) {
  if (!Finite(params.gravity)) return NotFinite("gravity", params.gravity);
  if (!(std::isfinite(params.drag_per_second) && params.drag_per_second >= 0.0f)) {
    return OutOfRange("drag_per_second", "finite and >= 0", params.drag_per_second);
  }
  return ValidateDt(params.dt_seconds);
}

Status ValidateBox(const BoxParams& params) {
  if (!Finite(params.min)) return NotFinite("box min", params.min);
  if (!Finite(params.max)) return NotFinite("box max", params.max);
  for (int axis = 0; axis < 3; ++axis) {
    if (!(params.min[axis] <= params.max[axis])) {
      return InvalidArgument("box min must not exceed box max on axis " +
                             std::string(1, "xyz"[axis]) + ": " + NumberText(params.min[axis]) +
                             " > " + NumberText(params.max[axis]));
    }
  }
  if (!InUnitInterval(params.restitution)) {
    return OutOfRange("restitution", "in [0, 1]", params.restitution);
  }
  if (!InUnitInterval(params.friction)) return OutOfRange("friction", "in [0, 1]", params.friction);
  return {};
}

Status ValidateAttractor(const AttractorParams& params) {
  if (!Finite(params.center)) return NotFinite("attractor center", params.center);
  if (!std::isfinite(params.strength)) {
    return OutOfRange("attractor strength", "finite", params.strength);
  }
  if (!(std::isfinite(params.softening) && params.softening > 0.0f)) {
    return OutOfRange("attractor softening", "finite and > 0", params.softening);
  }
  return ValidateDt(params.dt_seconds);
}

Status ValidateEmitter(const EmitterParams& params) {
  if (!Finite(params.center)) return NotFinite("emitter center", params.center);
  if (!Finite(params.half_extent)) return NotFinite("emitter half_extent", params.half_extent);
  if (!Finite(params.velocity)) return NotFinite("emitter velocity", params.velocity);
  if (!Finite(params.velocity_spread)) {
    return NotFinite("emitter velocity_spread", params.velocity_spread);
  }
  if (!(std::isfinite(params.lifetime_min) && params.lifetime_min > 0.0f)) {
    return OutOfRange("emitter lifetime_min", "finite and > 0", params.lifetime_min);
  }
  if (!(std::isfinite(params.lifetime_max) && params.lifetime_max >= params.lifetime_min)) {
    return OutOfRange("emitter lifetime_max", "finite and >= lifetime_min", params.lifetime_max);
  }
  if (!KnownShape(params.shape)) {
    return InvalidArgument("emitter shape must be box (0), sphere (1) or ring (2), got " +
                           std::to_string(static_cast<unsigned>(params.shape)));
  }
  // Checked whatever the shape, so switching shapes later cannot bring in a bad value.
  if (!(std::isfinite(params.radius) && params.radius >= 0.0f)) {
    return OutOfRange("emitter radius", "finite and >= 0", params.radius);
  }
  if (!(std::isfinite(params.radial_speed) && params.radial_speed >= 0.0f)) {
    return OutOfRange("emitter radial_speed", "finite and >= 0", params.radial_speed);
  }
  if (!std::isfinite(params.tangential_speed)) {
    return OutOfRange("emitter tangential_speed", "finite", params.tangential_speed);
  }
  return {};
}

}  // namespace swarm
