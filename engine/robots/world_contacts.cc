// The torque step's contacts between a robot's shapes and the world's
// (engine/robots/world_contacts.h).
#include "engine/robots/world_contacts.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "swarm/kernels/collision/narrow_phase.h"

namespace swarm {
namespace {

std::string PairName(const CollisionModel& collisions, size_t p) {
  const auto name = [&](uint32_t s) {
    const std::string& text = collisions.shapes[s].name;
    return text.empty() ? "shape " + std::to_string(s) : "'" + text + "'";
  };
  const ContactPair& pair = collisions.pairs[p];
  return "contact pair " + std::to_string(p) + " (" + name(pair.shape1) + " and " +
         name(pair.shape2) + ")";
}

// MuJoCo's solref and solimp as a SoftConstraint (MuJoCo clamps dmin and dmax into
// [0.0001, 0.9999] and the midpoint into [0.0001, 0.9999] too).
Result<SoftConstraint> SoftOf(const CollisionModel& collisions, size_t p) {
  const ContactPair& pair = collisions.pairs[p];
  const auto fail = [&](const std::string& why) {
    return InvalidArgument(PairName(collisions, p) + ": " + why);
  };
  if (!(pair.solref[0] > 0.0 && pair.solref[1] > 0.0) || !std::isfinite(pair.solref[0]) ||
      !std::isfinite(pair.solref[1])) {
    return fail("solref " + std::to_string(pair.solref[0]) + " " + std::to_string(pair.solref[1]) +
                " is not a time constant and damping ratio > 0 (direct stiffness and damping, "
                "negative entries, are not supported)");
  }
  const double power = pair.solimp[4];
  if (!(power >= 1.0 && power <= kMaxImpedancePower && power == std::floor(power))) {
    return fail("solimp's power " + std::to_string(power) + " is not an integer from 1 to " +
                std::to_string(kMaxImpedancePower));
  }
  for (size_t k = 0; k < 4; ++k) {
    if (!std::isfinite(pair.solimp[k])) return fail("solimp is not finite");
  }
  const auto clamp = [](double x) { return static_cast<float>(std::clamp(x, 0.0001, 0.9999)); };
  SoftConstraint soft;
  soft.time_constant = static_cast<float>(pair.solref[0]);
  soft.damping_ratio = static_cast<float>(pair.solref[1]);
  soft.impedance_min = clamp(pair.solimp[0]);
  soft.impedance_max = clamp(pair.solimp[1]);
  soft.width = static_cast<float>(std::max(pair.solimp[2], 0.0));
  soft.midpoint = clamp(pair.solimp[3]);
  soft.power = static_cast<int>(power);
  soft.max_mass_ratio = kContactMaxMassRatio;
  return soft;
}

}  // namespace

Result<WorldContacts> WorldContacts::Make(const RobotModel& model,
                                          const CollisionModel& collisions) {
  WorldContacts out;
  CollisionModel world;  // the world pairs and their shapes, renumbered
  std::vector<int> renumbered(collisions.shapes.size(), -1);
  const auto take = [&](uint32_t s) {
    if (renumbered[s] < 0) {
      renumbered[s] = static_cast<int>(world.shapes.size());
      world.shapes.push_back(collisions.shapes[s]);
    }
    return static_cast<uint32_t>(renumbered[s]);
  };
  std::vector<uint32_t> sources;
  for (size_t p = 0; p < collisions.pairs.size(); ++p) {
    const ContactPair& pair = collisions.pairs[p];
    if (pair.shape1 >= collisions.shapes.size() || pair.shape2 >= collisions.shapes.size()) {
      return InvalidArgument(PairName(collisions, p) + " names a shape the robot does not have");
    }
    const bool on_link1 = collisions.shapes[pair.shape1].link >= 0;
    const bool on_link2 = collisions.shapes[pair.shape2].link >= 0;
    if (on_link1 == on_link2) continue;  // self-collision, or two world shapes
    if (pair.condim != 1 && pair.condim != 3 && pair.condim != 4 && pair.condim != 6) {
      return InvalidArgument(PairName(collisions, p) + ": condim " + std::to_string(pair.condim) +
                             " is not 1, 3, 4 or 6");
    }
    Result<SoftConstraint> soft = SoftOf(collisions, p);
    if (!soft.ok()) return soft.status();
    if (!(std::isfinite(pair.friction[0]) && pair.friction[0] >= 0.0) || !std::isfinite(pair.gap)) {
      return InvalidArgument(PairName(collisions, p) +
                             ": its friction must be finite and >= 0, its gap finite");
    }
    ContactPair copy = pair;
    copy.shape1 = take(pair.shape1);
    copy.shape2 = take(pair.shape2);
    world.pairs.push_back(copy);
    sources.push_back(static_cast<uint32_t>(p));
    Contact contact;
    contact.link =
        static_cast<uint32_t>(collisions.shapes[on_link1 ? pair.shape1 : pair.shape2].link);
    contact.pair = static_cast<uint32_t>(p);
    contact.friction = pair.condim == 1 ? 0.0f : static_cast<float>(pair.friction[0]);
    contact.margin = static_cast<float>(pair.margin - pair.gap);
    contact.soft = *soft;
    if (collisions.pyramidal_cone && pair.condim > 1 && pair.friction[0] > 0.0) {
      if (!(std::isfinite(collisions.impratio) && collisions.impratio > 0.0)) {
        return InvalidArgument("the collision model's impratio must be finite and > 0");
      }
      const double mu2 = pair.friction[0] * pair.friction[0];
      contact.regulariser_scale =
          static_cast<float>(mu2 * (1.0 + mu2) / ((pair.condim - 1) * collisions.impratio));
    }
    const size_t slots =
        ContactSlotCount(collisions.shapes[pair.shape1].type, collisions.shapes[pair.shape2].type);
    out.contacts_.insert(out.contacts_.end(), slots, contact);
    out.turned_.insert(out.turned_.end(), slots, on_link1 ? 1 : 0);
  }
  Result<CollisionPlan> plan = CollisionPlan::Make(model, world);
  if (!plan.ok()) return plan.status();
  out.plan_ = std::move(plan).value();
  return out;
}

void DetectInChunks(const CollisionPlan& plan, const ConstLanesView& link_poses, float* frames,
                    const LanesView& contacts) {
  for (size_t chunk = 0; chunk < contacts.count; chunk += kCollisionChunk) {
    const size_t m = std::min(kCollisionChunk, contacts.count - chunk);
    plan.Detect(link_poses.Slice(chunk, m),
                LanesView{frames, m, kCollisionChunk, plan.frame_arrays()},
                contacts.Slice(chunk, m));
  }
}

void WorldContacts::Detect(const ConstLanesView& link_poses, float* frames,
                           const LanesView& geometry) const {
  DetectInChunks(plan_, link_poses, frames, geometry);
  // The narrow phase's normal points from the pair's shape1 to its shape2: away from the robot
  // where the robot's shape is shape1.
  for (size_t n = 0; n < contacts_.size(); ++n) {
    if (!turned_[n]) continue;
    for (size_t k = 4; k < kContactArrays; ++k) {
      float* normal = geometry.Array(kContactArrays * n + k);
      for (size_t r = 0; r < geometry.count; ++r) normal[r] = -normal[r];
    }
  }
}

}  // namespace swarm
