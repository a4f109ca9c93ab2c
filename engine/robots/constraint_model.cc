#include "engine/robots/constraint_model.h"

#include <algorithm>
#include <cmath>

#include "engine/robots/cholesky.h"
#include "engine/robots/frame_math.h"
#include "swarm/kernels/robots/dynamics/robot_dynamics_reference.h"
#include "swarm/kernels/robots/robot_kinematics_reference.h"

namespace swarm {

namespace {

// The reference configuration: q = 0, a floating base at the identity (qw = 1).
std::vector<double> ReferenceQ(const DynamicsTree& tree) {
  std::vector<double> q(tree.q_count(), 0.0);
  if (tree.floating_base) q[3] = 1.0;
  return q;
}

// MuJoCo's impedance d at depth `depth` (soft_constraint.h), in double.
double Impedance(const SoftConstraint& soft, double depth) {
  const double dmin = soft.impedance_min, dmax = soft.impedance_max;
  if (dmin == dmax || soft.width == 0.0f) return 0.5 * (dmin + dmax);
  const double x = std::min(std::fabs(depth) / soft.width, 1.0), mid = soft.midpoint;
  const int p = soft.power;
  const double y = x <= mid ? std::pow(x, p) / std::pow(mid, p - 1)
                            : 1.0 - std::pow(1.0 - x, p) / std::pow(1.0 - mid, p - 1);
  return dmin + y * (dmax - dmin);
}

// The inverse of a symmetric positive definite matrix by Cholesky, or empty when it is not.
std::vector<double> InverseSpd(std::vector<double> a, size_t n) {
  if (CholeskyFactor(a, n) != n) return {};  // a = L L^T, L in the lower triangle
  std::vector<double> inverse(n * n, 0.0);
  std::vector<double> column(n);
  for (size_t c = 0; c < n; ++c) {
    for (size_t i = 0; i < n; ++i) {  // L y = e_c
      double value = i == c ? 1.0 : 0.0;
      for (size_t k = 0; k < i; ++k) value -= a[i * n + k] * column[k];
      column[i] = value / a[i * n + i];
    }
    for (size_t i = n; i-- > 0;) {  // L^T x = y
      double value = column[i];
      for (size_t k = i + 1; k < n; ++k) value -= a[k * n + i] * column[k];
      column[i] = value / a[i * n + i];
    }
    for (size_t i = 0; i < n; ++i) inverse[i * n + c] = column[i];
  }
  return inverse;
}

}  // namespace

Result<std::vector<double>> ReferenceInverseMassMatrix(const DynamicsModel& dynamics) {
  const DynamicsTree tree = dynamics.tree();
  const std::vector<double> q = ReferenceQ(tree);
  const size_t n = tree.velocity_count();
  std::vector<double> inverse = InverseSpd(reference::RobotMassMatrix(tree, q.data()), n);
  if (inverse.empty()) {
    return InvalidArgument(
        "the mass matrix at q = 0 is not positive definite, so constraints have no inertia to "
        "scale with");
  }
  return inverse;
}

std::vector<JointConstraint> BuildJointConstraints(const DynamicsModel& dynamics,
                                                   const std::vector<JointControl>& control,
                                                   const std::vector<JointActuator>& actuators,
                                                   const std::vector<double>& inverse_mass,
                                                   const SoftConstraint& limits, double tolerance) {
  const DynamicsTree tree = dynamics.tree();
  const size_t n = tree.velocity_count(), base = tree.joint_velocity_begin();
  // The stiffness per unit reference inertia at depth `tolerance`: k d^2 / (1 - d).
  const double d = Impedance(limits, tolerance);
  const double tc = limits.time_constant, dmax = limits.impedance_max, zeta = limits.damping_ratio;
  const double k = 1.0 / (dmax * dmax * tc * tc * zeta * zeta);
  const double stiffness_times_w0 = k * d * d / (1.0 - d);
  std::vector<JointConstraint> joints(control.size());
  for (size_t j = 0; j < joints.size(); ++j) {
    joints[j].lower = control[j].lower;
    joints[j].upper = control[j].upper;
    double w0 = inverse_mass[(base + j) * n + base + j];
    const double effort = control[j].effort_limit;
    if (std::isfinite(effort) && effort > 0.0) {
      w0 = std::min(w0, stiffness_times_w0 * tolerance / effort);
    }
    joints[j].inverse_inertia0 = static_cast<float>(w0);
  }
  for (size_t b = 1; b < tree.body_count; ++b) {
    const DynamicsBody& body = tree.bodies[b];
    const float square = body.multiplier * body.multiplier;
    JointConstraint& joint = joints[static_cast<size_t>(body.q_index)];
    joint.damping += square * body.damping;
    joint.friction += square * body.friction;
  }
  for (const JointActuator& actuator : actuators) {
    joints[actuator.dof].damping -= actuator.gear * actuator.gear * actuator.bias_velocity;
  }
  return joints;
}

std::vector<ContactPoint> BuildContactPoints(const DynamicsModel& dynamics,
                                             const KinematicTree& tree,
                                             const std::vector<size_t>& links, float radius,
                                             const std::vector<double>& inverse_mass) {
  const DynamicsTree dynamics_tree = dynamics.tree();
  const size_t n = dynamics_tree.velocity_count();
  const size_t joint_begin = tree.floating_base ? 6 : 0;
  // Link poses at the reference configuration (px py pz qx qy qz qw per link).
  std::vector<float> q(tree.q_count, 0.0f);
  if (tree.floating_base) q[3] = 1.0f;
  std::vector<float> poses(kPoseArrays * tree.link_count());
  reference::RobotForwardKinematics(tree, q.data(), 1, poses.data(), 1);
  const auto position = [&](size_t link) {
    const float* p = poses.data() + kPoseArrays * link;
    return frame_math::Vec3{p[0], p[1], p[2]};
  };
  const auto rotation = [&](size_t link) {
    const float* p = poses.data() + kPoseArrays * link;
    return frame_math::RotationOf({p[3], p[4], p[5], p[6]});
  };
  std::vector<ContactPoint> contacts;
  for (size_t link : links) {
    ContactPoint contact;
    contact.link = static_cast<uint32_t>(link);
    contact.radius = radius;
    const DynamicsModel::LinkFrame frame = dynamics.LinkInBody(link);
    contact.body = static_cast<uint32_t>(frame.body);
    for (int k = 0; k < 9; ++k) contact.link_rotation[k] = static_cast<float>(frame.rotation[k]);
    for (int k = 0; k < 3; ++k) contact.link_origin[k] = static_cast<float>(frame.origin[k]);
    // J_c (3 x n) at the reference configuration, as the contact kernels' PointMotion builds it.
    frame_math::Vec3 c = position(link);
    c[2] -= radius;
    std::vector<double> jacobian(3 * n, 0.0);
    for (size_t l = link; l != 0; l = tree.joints[l - 1].parent_link) {
      const KinematicJoint& joint = tree.joints[l - 1];
      if (joint.motion == JointMotion::kFixed) continue;
      const frame_math::Vec3 axis =
          frame_math::Rotate(rotation(l), {joint.axis[0], joint.axis[1], joint.axis[2]});
      const frame_math::Vec3 o = position(l);
      frame_math::Vec3 column = axis;
      if (joint.motion == JointMotion::kRevolute) {
        const frame_math::Vec3 arm{c[0] - o[0], c[1] - o[1], c[2] - o[2]};
        column = {axis[1] * arm[2] - axis[2] * arm[1], axis[2] * arm[0] - axis[0] * arm[2],
                  axis[0] * arm[1] - axis[1] * arm[0]};
      }
      const size_t k = joint_begin + static_cast<size_t>(joint.q_index);
      for (int row = 0; row < 3; ++row) jacobian[row * n + k] += joint.multiplier * column[row];
    }
    if (tree.floating_base) {
      const frame_math::Mat3 r = rotation(0);
      const frame_math::Vec3 o = position(0);
      const frame_math::Vec3 arm{c[0] - o[0], c[1] - o[1], c[2] - o[2]};
      for (int k = 0; k < 3; ++k) {
        const frame_math::Vec3 e{r[k], r[3 + k], r[6 + k]};  // base axis k in the world
        const frame_math::Vec3 w{e[1] * arm[2] - e[2] * arm[1], e[2] * arm[0] - e[0] * arm[2],
                                 e[0] * arm[1] - e[1] * arm[0]};
        for (int row = 0; row < 3; ++row) {
          jacobian[row * n + k] += e[row];
          jacobian[row * n + 3 + k] += w[row];
        }
      }
    }
    double trace = 0.0;
    for (int row = 0; row < 3; ++row) {
      for (size_t a = 0; a < n; ++a) {
        for (size_t b = 0; b < n; ++b) {
          trace += jacobian[row * n + a] * inverse_mass[a * n + b] * jacobian[row * n + b];
        }
      }
    }
    contact.inverse_inertia0 = static_cast<float>(trace / 3.0);
    contacts.push_back(contact);
  }
  return contacts;
}

}  // namespace swarm
