#include "swarm/particles/particle_ops.h"

#include <string>

#include "swarm/particles/particle_params.h"

namespace swarm {
namespace {

// Error unless every size equals the first.
template <typename... Sizes>
Status SameSizes(const char* operation, const char* names, size_t first, Sizes... rest) {
  if (((rest == first) && ...)) return {};
  std::string sizes = std::to_string(first);
  ((sizes += ", " + std::to_string(rest)), ...);
  return InvalidArgument(std::string(operation) + ": " + names + " must have the same size, got " +
                         sizes);
}

}  // namespace

Status IntegrateEuler(Vec4Buffer& positions, Vec4Buffer& velocities, const EulerParams& params) {
  if (Status s =
          SameSizes("IntegrateEuler", "positions, velocities", positions.size(), velocities.size());
      !s.ok()) {
    return s;
  }
  if (Status s = ValidateEuler(params); !s.ok()) return s;
  IntegrateEuler(positions.view(), velocities.view(), params);
  return {};
}

Status VerletKickDrift(Vec4Buffer& positions, Vec4Buffer& velocities,
                       const Vec4Buffer& accelerations, float dt_seconds) {
  if (Status s = SameSizes("VerletKickDrift", "positions, velocities, accelerations",
                           positions.size(), velocities.size(), accelerations.size());
      !s.ok()) {
    return s;
  }
  if (Status s = ValidateDt(dt_seconds); !s.ok()) return s;
  VerletKickDrift(positions.view(), velocities.view(), accelerations.view(), dt_seconds);
  return {};
}

Status VerletKick(Vec4Buffer& velocities, const Vec4Buffer& accelerations, float dt_seconds) {
  if (Status s = SameSizes("VerletKick", "velocities, accelerations", velocities.size(),
                           accelerations.size());
      !s.ok()) {
    return s;
  }
  if (Status s = ValidateDt(dt_seconds); !s.ok()) return s;
  VerletKick(velocities.view(), accelerations.view(), dt_seconds);
  return {};
}

Status CollideBox(Vec4Buffer& positions, Vec4Buffer& velocities, const BoxParams& params) {
  if (Status s =
          SameSizes("CollideBox", "positions, velocities", positions.size(), velocities.size());
      !s.ok()) {
    return s;
  }
  if (Status s = ValidateBox(params); !s.ok()) return s;
  CollideBox(positions.view(), velocities.view(), params);
  return {};
}

Status ApplyAttractor(const Vec4Buffer& positions, Vec4Buffer& velocities,
                      const AttractorParams& params) {
  if (Status s =
          SameSizes("ApplyAttractor", "positions, velocities", positions.size(), velocities.size());
      !s.ok()) {
    return s;
  }
  if (Status s = ValidateAttractor(params); !s.ok()) return s;
  ApplyAttractor(positions.view(), velocities.view(), params);
  return {};
}

Status AdvanceAge(FloatArray& ages, const FloatArray& lifetimes, ByteArray& dead,
                  float dt_seconds) {
  if (Status s = SameSizes("AdvanceAge", "ages, lifetimes, dead", ages.size(), lifetimes.size(),
                           dead.size());
      !s.ok()) {
    return s;
  }
  if (Status s = ValidateDt(dt_seconds); !s.ok()) return s;
  AdvanceAge(ages.view(), lifetimes.view(), dead.view(), dt_seconds);
  return {};
}

}  // namespace swarm
