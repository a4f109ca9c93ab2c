// The robot dynamics kernels' tree checks and scratch size. The algorithms dispatch from their own
// files, one translation unit each: rnea.cc, crba.cc, tree_factor.cc, aba.cc.
#include "swarm/kernels/robots/dynamics/robot_dynamics.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "kernels/robots/dynamics/dynamics_dispatch.h"
#include "kernels/robots/dynamics/robot_dynamics_layout.h"

namespace swarm {
namespace {

using dynamics_dispatch::AllFinite;

bool FiniteBody(const DynamicsBody& body) {
  return AllFinite(body.origin_rotation, 9) && AllFinite(body.origin_translation, 3) &&
         AllFinite(body.axis, 3) && AllFinite(&body.mass, 1) && AllFinite(body.first_moment, 3) &&
         AllFinite(body.rotational_inertia, 6) && std::isfinite(body.multiplier) &&
         std::isfinite(body.offset) && std::isfinite(body.armature) &&
         std::isfinite(body.damping) && std::isfinite(body.friction);
}

}  // namespace

bool ValidDynamicsTree(const DynamicsTree& tree) {
  if (tree.body_count == 0 || tree.bodies == nullptr) return false;
  if (!(tree.friction_velocity > 0.0f) || !std::isfinite(tree.friction_velocity)) return false;
  std::vector<bool> driven(tree.joint_q_count, false);
  for (size_t b = 0; b < tree.body_count; ++b) {
    const DynamicsBody& body = tree.bodies[b];
    if (!FiniteBody(body)) return false;
    if (b == 0) continue;
    if (body.parent >= b) return false;
    if (body.motion != JointMotion::kRevolute && body.motion != JointMotion::kPrismatic) {
      return false;
    }
    if (body.q_index < 0 || static_cast<size_t>(body.q_index) >= tree.joint_q_count) return false;
    driven[static_cast<size_t>(body.q_index)] = true;
  }
  for (bool column_driven : driven) {
    if (!column_driven) return false;
  }
  if (tree.velocity_parent != nullptr) {
    for (size_t k = 0; k < tree.velocity_count(); ++k) {
      const int32_t parent = tree.velocity_parent[k];
      if (parent < -1 || parent >= static_cast<int32_t>(k)) return false;
    }
  }
  return true;
}

bool HasCouplings(const DynamicsTree& tree) {
  std::vector<bool> seen(tree.joint_q_count, false);
  for (size_t b = 1; b < tree.body_count; ++b) {
    const DynamicsBody& body = tree.bodies[b];
    const size_t column = static_cast<size_t>(body.q_index);
    if (body.multiplier != 1.0f || body.offset != 0.0f || seen[column]) return true;
    seen[column] = true;
  }
  return false;
}

size_t RobotDynamicsScratchFloats(const DynamicsTree& tree) {
  return dynamics_layout::ScratchFloats(tree.body_count, tree.velocity_count());
}

}  // namespace swarm
