#include "swarm/particles/particle_interactions.h"

#include <cmath>
#include <string>

#include "swarm/core/text.h"

namespace swarm {
namespace {

bool FinitePositive(float value) { return std::isfinite(value) && value > 0.0f; }
bool FiniteNonNegative(float value) { return std::isfinite(value) && value >= 0.0f; }

Status Bad(const std::string& name, const std::string& expected, float value) {
  return InvalidArgument(name + " must be " + expected + ", got " + NumberText(value));
}

Status ValidateGranular(const GranularConfig& config) {
  if (!FinitePositive(config.radius_min)) {
    return Bad("granular radius_min", "finite and > 0", config.radius_min);
  }
  if (!(std::isfinite(config.radius_max) && config.radius_max >= config.radius_min)) {
    return Bad("granular radius_max",
               "finite and >= radius_min (" + NumberText(config.radius_min) + ")",
               config.radius_max);
  }
  if (!FinitePositive(config.density))
    return Bad("granular density", "finite and > 0", config.density);
  const GranularParams& contact = config.contact;
  if (!FinitePositive(contact.stiffness)) {
    return Bad("granular stiffness", "finite and > 0", contact.stiffness);
  }
  if (!(contact.restitution > 0.0f && contact.restitution <= 1.0f)) {
    return Bad("granular restitution", "in (0, 1]", contact.restitution);
  }
  if (!FiniteNonNegative(contact.friction)) {
    return Bad("granular friction", "finite and >= 0", contact.friction);
  }
  if (!FiniteNonNegative(contact.tangential_damping)) {
    return Bad("granular tangential_damping", "finite and >= 0", contact.tangential_damping);
  }
  if (!(config.list_skin >= 0.0f && config.list_skin <= 1.0f)) {
    return Bad("granular list_skin", "in [0, 1]", config.list_skin);
  }
  return {};
}

Status ValidateFlock(const FlockParams& flock) {
  if (!FinitePositive(flock.view_radius)) {
    return Bad("flock view_radius", "finite and > 0", flock.view_radius);
  }
  if (!(FiniteNonNegative(flock.separation_radius) &&
        flock.separation_radius <= flock.view_radius)) {
    return Bad("flock separation_radius",
               "finite, >= 0 and <= view_radius (" + NumberText(flock.view_radius) + ")",
               flock.separation_radius);
  }
  const std::pair<const char*, float> weights[] = {
      {"flock separation_weight", flock.separation_weight},
      {"flock alignment_weight", flock.alignment_weight},
      {"flock cohesion_weight", flock.cohesion_weight},
      {"flock wall_weight", flock.wall_weight},
      {"flock min_speed", flock.min_speed}};
  for (const auto& [name, value] : weights) {
    if (!FiniteNonNegative(value)) return Bad(name, "finite and >= 0", value);
  }
  if (!(std::isfinite(flock.max_speed) && flock.max_speed >= flock.min_speed &&
        flock.max_speed > 0.0f)) {
    return Bad("flock max_speed",
               "finite, > 0 and >= min_speed (" + NumberText(flock.min_speed) + ")",
               flock.max_speed);
  }
  if (!FinitePositive(flock.wall_margin)) {
    return Bad("flock wall_margin", "finite and > 0", flock.wall_margin);
  }
  return {};
}

Status ValidateFluid(const FluidParams& fluid) {
  const std::pair<const char*, float> positive[] = {{"fluid kernel_radius", fluid.kernel_radius},
                                                    {"fluid rest_density", fluid.rest_density},
                                                    {"fluid particle_mass", fluid.particle_mass},
                                                    {"fluid relaxation", fluid.relaxation}};
  for (const auto& [name, value] : positive) {
    if (!FinitePositive(value)) return Bad(name, "finite and > 0", value);
  }
  const std::pair<const char*, float> non_negative[] = {
      {"fluid artificial_pressure", fluid.artificial_pressure},
      {"fluid viscosity", fluid.viscosity},
      {"fluid vorticity", fluid.vorticity}};
  for (const auto& [name, value] : non_negative) {
    if (!FiniteNonNegative(value)) return Bad(name, "finite and >= 0", value);
  }
  if (!(fluid.pressure_exponent >= 1.0f && fluid.pressure_exponent <= 8.0f &&
        fluid.pressure_exponent == std::floor(fluid.pressure_exponent))) {
    return Bad("fluid pressure_exponent", "a whole number in [1, 8]", fluid.pressure_exponent);
  }
  if (!(fluid.pressure_distance > 0.0f && fluid.pressure_distance < 1.0f)) {
    return Bad("fluid pressure_distance", "in (0, 1)", fluid.pressure_distance);
  }
  if (fluid.iterations < 1 || fluid.iterations > 100) {
    return InvalidArgument("fluid iterations must be in [1, 100], got " +
                           std::to_string(fluid.iterations));
  }
  return {};
}

}  // namespace

const char* InteractionName(InteractionKind kind) {
  switch (kind) {
    case InteractionKind::kNone:
      return "none";
    case InteractionKind::kGranular:
      return "granular";
    case InteractionKind::kFluid:
      return "fluid";
    case InteractionKind::kFlock:
      return "flock";
  }
  return "unknown";
}

Status ValidateInteraction(const InteractionConfig& config) {
  if (!FiniteNonNegative(config.lattice_spacing)) {
    return Bad("lattice_spacing", "finite and >= 0", config.lattice_spacing);
  }
  if (!(config.lattice_jitter >= 0.0f && config.lattice_jitter <= 1.0f)) {
    return Bad("lattice_jitter", "in [0, 1]", config.lattice_jitter);
  }
  if (config.substeps < 1 || config.substeps > 1000) {
    return InvalidArgument("substeps must be in [1, 1000], got " + std::to_string(config.substeps));
  }
  switch (config.kind) {
    case InteractionKind::kNone:
      return {};
    case InteractionKind::kGranular:
      return ValidateGranular(config.granular);
    case InteractionKind::kFlock:
      return ValidateFlock(config.flock);
    case InteractionKind::kFluid:
      return ValidateFluid(config.fluid);
  }
  return InvalidArgument("interaction kind " + std::to_string(static_cast<int>(config.kind)) +
                         " is not one of none, granular, fluid, flock");
}

float InteractionRadius(const InteractionConfig& config) {
  switch (config.kind) {
    case InteractionKind::kGranular:
      return 2.0f * config.granular.radius_max;
    case InteractionKind::kFlock:
      return config.flock.view_radius;
    case InteractionKind::kFluid:
      return config.fluid.kernel_radius;
    case InteractionKind::kNone:
      break;
  }
  return 0.0f;
}

float ListRadius(const InteractionConfig& config) {
  return InteractionRadius(config) * (1.0f + config.granular.list_skin);
}

}  // namespace swarm
