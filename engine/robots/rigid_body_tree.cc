#include "swarm/robots/rigid_body_tree.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "engine/robots/frame_math.h"
#include "swarm/core/text.h"

namespace swarm {
namespace {

using frame_math::Mat3;
using frame_math::Multiply;
using frame_math::Quat;
using frame_math::Rotate;
using frame_math::RotateTensor;
using frame_math::RotationOf;
using frame_math::Vec3;

// The principal minors of a symmetric 3 x 3 matrix: {three 1 x 1, three 2 x 2, the determinant}.
struct PrincipalMinors {
  double first[3], second[3], third;
};
PrincipalMinors MinorsOf(const Mat3& m) {
  return {{m[0], m[4], m[8]},
          {m[0] * m[4] - m[1] * m[3], m[0] * m[8] - m[2] * m[6], m[4] * m[8] - m[5] * m[7]},
          m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
              m[2] * (m[3] * m[7] - m[4] * m[6])};
}

std::string TensorText(const Mat3& t) {
  return "ixx " + NumberText(t[0]) + ", iyy " + NumberText(t[4]) + ", izz " + NumberText(t[8]) +
         ", ixy " + NumberText(t[1]) + ", ixz " + NumberText(t[2]) + ", iyz " + NumberText(t[5]);
}

std::string BodyName(const RobotModel& model, const RigidBody& body) {
  std::string text = body.joint < 0 ? std::string("the root body")
                                    : "the body of joint " + Quoted(model.joints[body.joint].name);
  text += body.links.size() == 1 ? " (link " : " (links ";
  for (size_t i = 0; i < body.links.size(); ++i) {
    text += (i == 0 ? "" : ", ") + Quoted(model.links[body.links[i]]);
  }
  return text + ")";
}

}  // namespace

std::string CheckInertiaTensor(const Mat3& inertia) {
  const double scale = (std::fabs(inertia[0]) + std::fabs(inertia[4]) + std::fabs(inertia[8])) / 3;
  if (!(scale > 0.0)) return "its inertia tensor is zero";
  constexpr double kTolerance = 1e-9;
  // Positive definite: the leading principal minors are positive (Sylvester).
  const PrincipalMinors inertia_minors = MinorsOf(inertia);
  if (!(inertia_minors.first[0] > kTolerance * scale &&
        inertia_minors.second[0] > kTolerance * scale * scale &&
        inertia_minors.third > kTolerance * scale * scale * scale)) {
    return "its inertia tensor (" + TensorText(inertia) + ") is not positive definite";
  }
  // I = tr(S) E - S for S = the integral of r r^T dm, which must be positive semi-definite; here
  // S = tr(I) / 2 E - I. S >= 0 is exactly the triangle inequality of the principal moments.
  Mat3 second_moment = inertia;
  for (double& value : second_moment) value = -value;
  const double half_trace = (inertia[0] + inertia[4] + inertia[8]) / 2;
  for (int d = 0; d < 3; ++d) second_moment[d * 4] += half_trace;
  const PrincipalMinors s = MinorsOf(second_moment);
  bool semi_definite = s.third >= -kTolerance * scale * scale * scale;
  for (int i = 0; i < 3; ++i) {
    semi_definite &= s.first[i] >= -kTolerance * scale;
    semi_definite &= s.second[i] >= -kTolerance * scale * scale;
  }
  if (!semi_definite) {
    return "its inertia tensor (" + TensorText(inertia) +
           ") violates the triangle inequality of principal moments (I1 + I2 >= I3): no mass "
           "distribution has it";
  }
  return {};
}

Result<RigidBodyTree> BuildRigidBodyTree(const RobotModel& model) {
  const size_t link_count = model.links.size();
  if (model.inertials.size() != link_count) {
    return InvalidArgument(model.name + ": the model has " +
                           std::to_string(model.inertials.size()) + " inertials for " +
                           std::to_string(link_count) + " links");
  }
  RigidBodyTree tree;
  tree.body_of_link.assign(link_count, 0);
  tree.link_xyz.assign(link_count, Vec3{});
  tree.link_quat.assign(link_count, Quat{0, 0, 0, 1});
  tree.bodies.push_back(RigidBody{-1, -1, 0, {0}});
  // Links are in pose order (parents first), joints[i - 1] has child link i.
  for (size_t link = 1; link < link_count; ++link) {
    const RobotJoint& joint = model.joints[link - 1];
    if (joint.type != RobotJointType::kFixed) {
      const int parent = static_cast<int>(tree.body_of_link[joint.parent_link]);
      tree.body_of_link[link] = tree.bodies.size();
      tree.bodies.push_back(RigidBody{static_cast<int>(link - 1), parent, link, {link}});
      continue;
    }
    // Fixed: the link rides on its parent's body, at the parent's pose composed with the origin.
    const size_t parent = joint.parent_link;
    const size_t body = tree.body_of_link[parent];
    tree.body_of_link[link] = body;
    tree.bodies[body].links.push_back(link);
    const Vec3 offset = Rotate(RotationOf(tree.link_quat[parent]), joint.origin_xyz);
    for (int d = 0; d < 3; ++d) tree.link_xyz[link][d] = tree.link_xyz[parent][d] + offset[d];
    tree.link_quat[link] = Multiply(tree.link_quat[parent], joint.origin_quat);
  }

  // Each link's mass and centre of mass in its body frame, then the bodies' totals.
  std::vector<Vec3> link_com(link_count);
  std::vector<Mat3> link_rotation(link_count);
  for (size_t link = 0; link < link_count; ++link) {
    const LinkInertial& inertial = model.inertials[link];
    link_rotation[link] = RotationOf(tree.link_quat[link]);
    const Vec3 com = Rotate(link_rotation[link], inertial.com);
    for (int d = 0; d < 3; ++d) link_com[link][d] = tree.link_xyz[link][d] + com[d];
    RigidBody& body = tree.bodies[tree.body_of_link[link]];
    body.mass += inertial.mass;
    for (int d = 0; d < 3; ++d) body.com[d] += inertial.mass * link_com[link][d];
    tree.total_mass += inertial.mass;
  }
  for (RigidBody& body : tree.bodies) {
    if (body.mass > 0.0) {
      for (double& c : body.com) c /= body.mass;
    }
  }
  // Inertia about the body's centre of mass: each link's tensor rotated into the body frame,
  // moved to the body's centre of mass by the parallel-axis theorem, m (|d|^2 E - d d^T).
  for (size_t link = 0; link < link_count; ++link) {
    const LinkInertial& inertial = model.inertials[link];
    RigidBody& body = tree.bodies[tree.body_of_link[link]];
    const Mat3 rotated = RotateTensor(link_rotation[link], inertial.inertia);
    Vec3 d;
    for (int k = 0; k < 3; ++k) d[k] = link_com[link][k] - body.com[k];
    const double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    for (int a = 0; a < 3; ++a) {
      for (int b = 0; b < 3; ++b) {
        body.inertia[a * 3 + b] +=
            rotated[a * 3 + b] + inertial.mass * ((a == b ? d2 : 0.0) - d[a] * d[b]);
      }
    }
  }

  // A body with a moving body beyond it may be massless: a joint between two others (MJCF's
  // several joints in one body), whose motion moves the bodies beyond it
  // (DynamicsModel::Build checks that the mass matrix is then still positive definite).
  std::vector<bool> carries(tree.bodies.size(), false);
  for (const RigidBody& body : tree.bodies) {
    if (body.parent >= 0) carries[static_cast<size_t>(body.parent)] = true;
  }
  for (size_t b = 0; b < tree.bodies.size(); ++b) {
    const RigidBody& body = tree.bodies[b];
    const bool moves = body.joint >= 0 || model.floating_base;
    if (!moves) continue;  // a fixed base's root body is the world: its inertia never enters
    // Massless by statement: every link has an inertial, of mass and inertia zero (a URDF link
    // without <inertial> is more likely an omission, and named below).
    const bool stated = std::all_of(body.links.begin(), body.links.end(),
                                    [&](size_t link) { return model.inertials[link].present; });
    const bool empty = stated && body.mass == 0.0 && body.inertia == std::array<double, 9>{};
    if (empty && carries[b] && body.joint >= 0) continue;
    if (!(body.mass > 0.0)) {
      return InvalidArgument(model.name + ": " + BodyName(model, body) +
                             " has no mass: dynamics needs mass > 0 for every moving body (give "
                             "one of its links an <inertial> with a mass)");
    }
    if (const std::string problem = CheckInertiaTensor(body.inertia); !problem.empty()) {
      return InvalidArgument(model.name + ": " + BodyName(model, body) + ": " + problem);
    }
  }
  return tree;
}

}  // namespace swarm
