// The pairs of collision shapes that may touch (swarm/robots/contact_pairs.h).
#include "swarm/robots/contact_pairs.h"

#include <algorithm>
#include <string>

#include "swarm/robots/mjcf_robot.h"

namespace swarm {
namespace {

constexpr int kWorld = -1;
constexpr double kMinSolmix = 1e-15;  // MuJoCo's mjMINVAL: below it a solmix counts as zero

std::string ShapeName(const std::vector<CollisionShape>& shapes, uint32_t s) {
  return shapes[s].name.empty() ? "shape " + std::to_string(s) : "'" + shapes[s].name + "'";
}

// The rigid body (weld) of every link: the link itself when a moving joint carries it, its
// parent's when a fixed joint does; a fixed base's root is the world's.
std::vector<int> WeldOfLinks(const RobotModel& model) {
  std::vector<int> weld(model.links.size(), kWorld);
  if (!model.links.empty()) weld[0] = model.floating_base ? 0 : kWorld;
  for (const RobotJoint& joint : model.joints) {
    weld[joint.child_link] = joint.type == RobotJointType::kFixed
                                 ? weld[joint.parent_link]
                                 : static_cast<int>(joint.child_link);
  }
  return weld;
}

// The parent body's weld of every weld link: its parent link's, past massless joint links.
std::vector<int> WeldParentOfLinks(const RobotModel& model, const std::vector<int>& weld,
                                   const std::vector<int>* link_body) {
  std::vector<int> parent_of(model.links.size(), kWorld);
  for (const RobotJoint& joint : model.joints) {
    parent_of[joint.child_link] = static_cast<int>(joint.parent_link);
  }
  const auto massless = [&](int link) {
    return link_body != nullptr && !link_body->empty() && (*link_body)[link] < 0;
  };
  std::vector<int> weld_parent(model.links.size(), kWorld);
  for (size_t link = 0; link < model.links.size(); ++link) {
    int p = parent_of[link];
    while (p != kWorld && massless(p)) p = parent_of[p];
    weld_parent[link] = p == kWorld ? kWorld : weld[p];
  }
  return weld_parent;
}

}  // namespace

ContactPair MixContactParameters(const CollisionShape& a, const CollisionShape& b,
                                 bool explicit_pair) {
  ContactPair pair;
  pair.margin = std::max(a.margin, b.margin);
  pair.gap = std::max(a.gap, b.gap);
  if (a.priority != b.priority) {
    const CollisionShape& p = a.priority > b.priority ? a : b;
    pair.condim = p.condim;
    pair.friction = {p.friction[0], p.friction[0], p.friction[1], p.friction[2], p.friction[2]};
    pair.solref = p.solref;
    pair.solimp = p.solimp;
    return pair;
  }
  pair.condim = std::max(a.condim, b.condim);
  const double slide = std::max(a.friction[0], b.friction[0]);
  const double spin = std::max(a.friction[1], b.friction[1]);
  const double roll = std::max(a.friction[2], b.friction[2]);
  pair.friction = {slide, slide, spin, roll, roll};
  double mix = 0.5;
  if (a.solmix >= kMinSolmix && b.solmix >= kMinSolmix) {
    mix = a.solmix / (a.solmix + b.solmix);
  } else if (a.solmix < kMinSolmix && b.solmix >= kMinSolmix) {
    mix = 0.0;
  } else if (a.solmix >= kMinSolmix) {
    mix = 1.0;
  }
  const bool standard = !explicit_pair && a.solref[0] > 0 && b.solref[0] > 0;
  for (int k = 0; k < 2; ++k) {
    pair.solref[k] =
        standard ? mix * a.solref[k] + (1 - mix) * b.solref[k] : std::min(a.solref[k], b.solref[k]);
  }
  for (int k = 0; k < 5; ++k) pair.solimp[k] = mix * a.solimp[k] + (1 - mix) * b.solimp[k];
  return pair;
}

Result<std::vector<ContactPair>> BuildContactPairs(const ContactPairRules& rules) {
  const RobotModel& model = *rules.model;
  const std::vector<CollisionShape>& shapes = *rules.shapes;
  const std::vector<int> weld = WeldOfLinks(model);
  const std::vector<int> weld_parent = WeldParentOfLinks(model, weld, rules.link_body);
  const auto weld_of = [&](uint32_t s) {
    return shapes[s].link < 0 ? kWorld : weld[shapes[s].link];
  };
  // Excludes name bodies by the shapes' bodies where given, else by their links.
  const bool by_body = rules.shape_body != nullptr && !rules.shape_body->empty();
  const auto body_of = [&](uint32_t s) {
    return by_body ? (*rules.shape_body)[s] : shapes[s].link;
  };
  for (uint32_t s = 0; s < shapes.size(); ++s) {
    if (shapes[s].link >= static_cast<int>(model.links.size())) {
      return InvalidArgument("collision " + ShapeName(shapes, s) + " is on link " +
                             std::to_string(shapes[s].link) + ", which the robot does not have");
    }
  }
  const auto ordered = [&](uint32_t a, uint32_t b) {
    return shapes[a].type <= shapes[b].type ? std::pair{a, b} : std::pair{b, a};
  };
  // A pair the narrow phase cannot evaluate: an error for ellipsoids, nothing for two grounds
  // (planes and heightfields, which MuJoCo does not collide with each other either).
  const auto check = [&](uint32_t a, uint32_t b) -> Result<bool> {
    for (uint32_t s : {a, b}) {
      if (shapes[s].type == ShapeType::kEllipsoid) {
        return InvalidArgument("collision " + ShapeName(shapes, s) +
                               " is an ellipsoid, which swarm's narrow phase does not collide "
                               "(contype=\"0\" conaffinity=\"0\" keeps it visual)");
      }
    }
    const auto ground = [&](uint32_t s) {
      return shapes[s].type == ShapeType::kPlane || shapes[s].type == ShapeType::kHeightfield;
    };
    return !(ground(a) && ground(b));
  };
  std::vector<ContactPair> out;
  std::vector<std::pair<uint32_t, uint32_t>> explicit_pairs;
  if (rules.pairs != nullptr) {
    for (const CollisionPair& source : *rules.pairs) {
      if (source.shape1 >= shapes.size() || source.shape2 >= shapes.size()) {
        return InvalidArgument("a collision pair names a shape the robot does not have");
      }
      Result<bool> usable = check(source.shape1, source.shape2);
      if (!usable.ok()) return usable.status();
      const auto [a, b] = ordered(source.shape1, source.shape2);
      explicit_pairs.emplace_back(std::min(a, b), std::max(a, b));
      if (!*usable) continue;
      ContactPair pair;
      pair.shape1 = a;
      pair.shape2 = b;
      pair.explicit_pair = true;
      pair.condim = source.condim;
      pair.friction = source.friction;
      pair.solref = source.solref;
      pair.solimp = source.solimp;
      pair.margin = source.margin;
      pair.gap = source.gap;
      out.push_back(pair);
    }
  }
  for (uint32_t i = 0; i < shapes.size(); ++i) {
    for (uint32_t j = i + 1; j < shapes.size(); ++j) {
      const CollisionShape& a = shapes[i];
      const CollisionShape& b = shapes[j];
      if ((a.contype & b.conaffinity) == 0 && (b.contype & a.conaffinity) == 0) continue;
      const int weld_a = weld_of(i), weld_b = weld_of(j);
      if (weld_a == weld_b) continue;
      if (rules.filter_parent && weld_a != kWorld && weld_b != kWorld &&
          (weld_a == weld_parent[weld_b] || weld_b == weld_parent[weld_a])) {
        continue;
      }
      if (rules.excludes != nullptr) {
        const int body_a = body_of(i), body_b = body_of(j);
        const bool excluded = std::any_of(
            rules.excludes->begin(), rules.excludes->end(), [&](const CollisionExclude& e) {
              const int e1 = by_body ? e.body1 : e.link1, e2 = by_body ? e.body2 : e.link2;
              return (e1 == body_a && e2 == body_b) || (e1 == body_b && e2 == body_a);
            });
        if (excluded) continue;
      }
      if (std::find(explicit_pairs.begin(), explicit_pairs.end(), std::pair{i, j}) !=
          explicit_pairs.end()) {
        continue;
      }
      Result<bool> usable = check(i, j);
      if (!usable.ok()) return usable.status();
      if (!*usable) continue;
      const auto [first, second] = ordered(i, j);
      ContactPair pair = MixContactParameters(shapes[first], shapes[second]);
      pair.shape1 = first;
      pair.shape2 = second;
      out.push_back(pair);
    }
  }
  return out;
}

Result<std::vector<ContactPair>> MjcfContactPairs(const MjcfRobot& robot) {
  if (!robot.contacts_enabled) return std::vector<ContactPair>{};
  ContactPairRules rules;
  rules.model = &robot.model;
  rules.shapes = &robot.collision_shapes;
  rules.shape_body = &robot.shape_body;
  rules.link_body = &robot.link_body;
  rules.pairs = &robot.collision_pairs;
  rules.excludes = &robot.collision_excludes;
  rules.filter_parent = robot.filter_parent;
  return BuildContactPairs(rules);
}

}  // namespace swarm
