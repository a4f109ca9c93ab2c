#include "swarm/robots/dynamics_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "engine/robots/cholesky.h"
#include "engine/robots/frame_math.h"
#include "swarm/core/text.h"
#include "swarm/kernels/robots/dynamics/robot_dynamics_reference.h"

namespace swarm {
namespace {

using frame_math::Mat3;
using frame_math::Multiply;
using frame_math::Quat;
using frame_math::Rotate;
using frame_math::RotationOf;
using frame_math::Vec3;

bool FitsFloat(double value) {
  return std::isfinite(value) && std::fabs(value) <= std::numeric_limits<float>::max();
}

// The inertia of a body about its frame's origin from the one about its centre of mass:
// I_O = I_c + m (|c|^2 1 - c c^T) (the parallel-axis theorem), as xx yy zz xy xz yz.
std::array<double, 6> InertiaAboutOrigin(const RigidBody& body) {
  const Vec3& c = body.com;
  const double m = body.mass;
  const double cc = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
  const auto at = [&](int i, int j) {
    return body.inertia[3 * i + j] + m * ((i == j ? cc : 0.0) - c[i] * c[j]);
  };
  return {at(0, 0), at(1, 1), at(2, 2), at(0, 1), at(0, 2), at(1, 2)};
}

// The residue that trigonometry leaves at multiples of pi/2 (cos(pi/2) = 6e-17 in double, so a
// URDF's rpy="1.5707963267948966 0 0" gives rotation entries of 6e-17 and rotated offsets of
// 1e-17 m) made exactly zero. It is far below the float resolution of the unit entries beside it
// (6e-8), but its products in the dynamics kernels reach subnormal floats, which x86 executes
// through microcode assists: the UR5's forward dynamics ran 38% slower with them.
double WithoutResidue(double value, double resolution) {
  return std::fabs(value) < resolution ? 0.0 : value;
}
inline constexpr double kRotationResidue = 1e-9;      // of unit entries
inline constexpr double kTranslationResidue = 1e-12;  // metres

inline constexpr Mat3 kIdentity = {1, 0, 0, 0, 1, 0, 0, 0, 1};

// The quarter turn (a rotation whose entries are 0 and +-1: a signed permutation of the axes)
// within kRotationResidue of `rotation`, if there is one. URDF frames are mostly quarter turns
// apart: rpy of multiples of pi/2, composed through fixed links.
std::optional<Mat3> QuarterTurnNear(const Mat3& rotation) {
  Mat3 turn{};
  for (int k = 0; k < 9; ++k) {
    const double value = rotation[k];
    if (std::fabs(value) < kRotationResidue) {
      turn[k] = 0.0;
    } else if (std::fabs(std::fabs(value) - 1.0) < kRotationResidue) {
      turn[k] = value > 0.0 ? 1.0 : -1.0;
    } else {
      return std::nullopt;
    }
  }
  return turn;
}

Mat3 SymmetricMatrix(const std::array<double, 6>& p) {  // from xx yy zz xy xz yz
  return {p[0], p[3], p[4], p[3], p[1], p[5], p[4], p[5], p[2]};
}

// With massless moving bodies (rigid_body_tree.h), the mass matrix at the zero configuration (the
// base at the origin, unturned) must be positive definite: each column, after those before it,
// moves some mass. Coaxial joints with nothing but each other between them fail it (they turn the
// same mass the same way, in every configuration); an Euler-angle chain of massless links passes
// it and is singular only where two of its axes align (gimbal lock), which armature prevents.
Status CheckMassless(const RobotModel& model, const DynamicsModel& dynamics) {
  const RigidBodyTree& rigid = dynamics.rigid_bodies();
  const bool massless =
      std::any_of(rigid.bodies.begin(), rigid.bodies.end(), [&](const RigidBody& body) {
        return (body.joint >= 0 || model.floating_base) && body.mass == 0.0;
      });
  if (!massless) return Status();
  const DynamicsTree tree = dynamics.tree();
  std::vector<double> q(model.q_count(), 0.0);
  if (model.floating_base) q[3] = 1.0;  // qw
  std::vector<double> m = reference::RobotMassMatrix(tree, q.data());
  const size_t n = tree.velocity_count();
  double largest = 0.0;
  for (size_t k = 0; k < n; ++k) largest = std::max(largest, m[n * k + k]);
  const size_t c = CholeskyFactor(m, n, 1e-12 * largest);
  if (c < n) {
    const size_t base = model.floating_base ? kFloatingBaseVelocities : 0;
    const std::string column =
        c < base ? "the floating base"
                 : "joint " + Quoted(model.joints[model.dof_joints[c - base]].name);
    return InvalidArgument(model.name + ": " + column +
                           " moves no mass that the joints before it do not already move the "
                           "same way (massless links between coaxial joints?): the mass matrix "
                           "is singular");
  }
  return Status();
}

}  // namespace

Result<DynamicsModel> DynamicsModel::Build(const RobotModel& model,
                                           const DynamicsOptions& options) {
  const std::string& robot = model.name;
  if (!options.armature.empty() && options.armature.size() != model.dof()) {
    return InvalidArgument(robot + ": armature has " + std::to_string(options.armature.size()) +
                           " values, the model has " + std::to_string(model.dof()) +
                           " independent joints");
  }
  for (size_t k = 0; k < options.armature.size(); ++k) {
    if (!(options.armature[k] >= 0.0) || !FitsFloat(options.armature[k])) {
      return InvalidArgument(robot + ": armature of joint " +
                             Quoted(model.joints[model.dof_joints[k]].name) + " is " +
                             NumberText(options.armature[k]) + ", expected a finite value >= 0");
    }
  }
  if (!(options.friction_velocity > 0.0) || !FitsFloat(options.friction_velocity)) {
    return InvalidArgument("friction velocity is " + NumberText(options.friction_velocity) +
                           ", expected a finite value > 0");
  }
  Result<RigidBodyTree> rigid = BuildRigidBodyTree(model);
  if (!rigid.ok()) return rigid.status();

  DynamicsModel out;
  out.rigid_bodies_ = std::move(rigid).value();
  out.joint_q_count_ = model.dof();
  out.floating_base_ = model.floating_base;
  out.friction_velocity_ = static_cast<float>(options.friction_velocity);
  const RigidBodyTree& tree = out.rigid_bodies_;
  std::vector<double> armature_of_joint(model.joints.size(), 0.0);
  for (size_t k = 0; k < options.armature.size(); ++k) {
    armature_of_joint[model.dof_joints[k]] = options.armature[k];
  }
  bool fits = true;
  const auto to_float = [&fits](double value) {
    fits = fits && FitsFloat(value);
    return static_cast<float>(value);
  };
  // Body frames. A body's frame is its link's frame turned by a quarter turn Q_b (the identity for
  // the root, whose frame the base velocities are given in): where the joint frame's rotation in
  // the parent's (turned) frame, Q_p R, is itself a quarter turn, Q_b = Q_p R and the joint frame
  // becomes the parent's frame moved by the origin alone; the axis Q_b axis stays a coordinate
  // axis when it was one. The kernels then rotate by a plane rotation of two coordinates instead of
  // a full 3 x 3 matrix (JointSubspace::plain), which is most of the arithmetic of every dynamics
  // algorithm. The joint-space quantities (M, h, tau, qdd) do not depend on the body frames, and
  // quarter turns move entries without rounding.
  std::vector<Mat3> turn(tree.bodies.size(), kIdentity);
  for (size_t index = 0; index < tree.bodies.size(); ++index) {
    const RigidBody& rigid_body = tree.bodies[index];
    DynamicsBody body;
    if (rigid_body.joint >= 0) {
      const RobotJoint& joint = model.joints[static_cast<size_t>(rigid_body.joint)];
      body.parent = static_cast<uint32_t>(rigid_body.parent);
      body.motion = joint.type == RobotJointType::kPrismatic ? JointMotion::kPrismatic
                                                             : JointMotion::kRevolute;
      body.q_index = joint.q_index;
      body.multiplier = to_float(joint.is_mimic ? joint.mimic_multiplier : 1.0);
      body.offset = to_float(joint.is_mimic ? joint.mimic_offset : 0.0);
      // The joint frame in the parent body's frame: (parent link in its body) o (joint origin).
      const size_t link = joint.parent_link;
      const Quat link_quat = tree.link_quat[link];
      const Mat3 link_rotation = RotationOf(link_quat);
      const Mat3& parent_turn = turn[static_cast<size_t>(rigid_body.parent)];
      const Mat3 rotation =
          Multiply(parent_turn, RotationOf(Multiply(link_quat, joint.origin_quat)));
      const Vec3 shift = Rotate(link_rotation, joint.origin_xyz);
      const Vec3 origin =
          Rotate(parent_turn, {tree.link_xyz[link][0] + shift[0], tree.link_xyz[link][1] + shift[1],
                               tree.link_xyz[link][2] + shift[2]});
      const std::optional<Mat3> quarter_turn = QuarterTurnNear(rotation);
      if (quarter_turn) turn[index] = *quarter_turn;
      const Mat3 origin_rotation = quarter_turn ? kIdentity : rotation;
      const Vec3 axis = Rotate(turn[index], joint.axis);
      for (int k = 0; k < 9; ++k) {
        body.origin_rotation[k] = to_float(WithoutResidue(origin_rotation[k], kRotationResidue));
      }
      for (int k = 0; k < 3; ++k) {
        body.origin_translation[k] = to_float(WithoutResidue(origin[k], kTranslationResidue));
        body.axis[k] = to_float(axis[k]);
      }
      body.armature = to_float(armature_of_joint[static_cast<size_t>(rigid_body.joint)]);
      if (options.joint_friction) {
        body.damping = to_float(joint.damping);
        body.friction = to_float(joint.friction);
      }
    }
    // The inertia in the turned frame: h' = Q h, I' = Q I Q^T.
    const Mat3& q = turn[index];
    const Vec3 first_moment =
        Rotate(q, {rigid_body.mass * rigid_body.com[0], rigid_body.mass * rigid_body.com[1],
                   rigid_body.mass * rigid_body.com[2]});
    const Mat3 inertia =
        frame_math::RotateTensor(q, SymmetricMatrix(InertiaAboutOrigin(rigid_body)));
    body.mass = to_float(rigid_body.mass);
    for (int k = 0; k < 3; ++k) body.first_moment[k] = to_float(first_moment[k]);
    const int diagonal_and_upper[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
    for (int k = 0; k < 6; ++k) {
      body.rotational_inertia[k] =
          to_float(inertia[3 * diagonal_and_upper[k][0] + diagonal_and_upper[k][1]]);
    }
    out.bodies_.push_back(body);
  }
  if (!fits) {
    return InvalidArgument(robot + ": a mass, inertia, origin or joint term is beyond float range");
  }
  out.turns_ = turn;
  // The velocity forest along the bodies (the base's 6 velocities a chain), or the dense chain
  // when couplings make rows fill in.
  const DynamicsTree dynamics = out.tree();
  const size_t base = out.floating_base_ ? kFloatingBaseVelocities : 0;
  const size_t n = dynamics.velocity_count();
  out.velocity_parent_.resize(n);
  for (size_t k = 0; k < n; ++k) out.velocity_parent_[k] = static_cast<int32_t>(k) - 1;
  if (!HasCouplings(dynamics)) {
    bool topological = true;
    for (size_t b = 1; b < out.bodies_.size(); ++b) {
      const DynamicsBody& body = out.bodies_[b];
      const size_t k = base + static_cast<size_t>(body.q_index);
      const int32_t parent =
          body.parent == 0 ? static_cast<int32_t>(base) - 1
                           : static_cast<int32_t>(base + size_t(out.bodies_[body.parent].q_index));
      topological = topological && parent < static_cast<int32_t>(k);
      out.velocity_parent_[k] = parent;
    }
    if (!topological) {
      for (size_t k = 0; k < n; ++k) out.velocity_parent_[k] = static_cast<int32_t>(k) - 1;
    }
  }
  if (Status s = CheckMassless(model, out); !s.ok()) return s;
  return out;
}

DynamicsModel::LinkFrame DynamicsModel::LinkInBody(size_t link) const {
  const RigidBodyTree& tree = rigid_bodies_;
  LinkFrame frame;
  frame.body = tree.body_of_link[link];
  const Mat3& turn = turns_[frame.body];
  frame.rotation = Multiply(turn, RotationOf(tree.link_quat[link]));
  frame.origin = Rotate(turn, tree.link_xyz[link]);
  return frame;
}

DynamicsTree DynamicsModel::tree() const {
  DynamicsTree tree;
  tree.bodies = bodies_.data();
  tree.body_count = bodies_.size();
  tree.joint_q_count = joint_q_count_;
  tree.floating_base = floating_base_;
  tree.velocity_parent = velocity_parent_.empty() ? nullptr : velocity_parent_.data();
  tree.friction_velocity = friction_velocity_;
  return tree;
}

}  // namespace swarm
