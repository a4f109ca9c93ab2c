// Scalar reference for swarm/kernels/robots/robot_ik.h; the order of operations is spelled out in
// swarm/kernels/robots/robot_ik_reference.h and followed by kernels/robots/robot_ik-inl.h.
#include "swarm/kernels/robots/robot_ik_reference.h"

#include <cmath>

namespace swarm::reference {

namespace {

constexpr size_t kTaskRows = 6;

// Robot r's inputs and outputs, read through the views.
struct RobotArrays {
  const JointControl* joints;
  size_t n;
  const ConstLanesView& link_pose;
  const ConstLanesView& target_pose;
  const ConstLanesView& jacobian;
  const ConstLanesView& q;
  const LanesView& q_out;
  size_t r;

  float Link(size_t k) const { return link_pose.Array(k)[r]; }
  float Target(size_t k) const { return target_pose.Array(k)[r]; }
  float J(size_t row, size_t column) const { return jacobian.Array(row * n + column)[r]; }
};

void PoseError(const RobotArrays& robot, float two_weight, float e[kTaskRows]) {
  for (size_t k = 0; k < 3; ++k) e[k] = robot.Target(k) - robot.Link(k);
  // a = q_target, b = conjugate(q_link), both (x, y, z, w) at arrays 3..6.
  const float ax = robot.Target(3), ay = robot.Target(4), az = robot.Target(5),
              aw = robot.Target(6);
  const float bx = -robot.Link(3), by = -robot.Link(4), bz = -robot.Link(5), bw = robot.Link(6);
  const float w = ((aw * bw - ax * bx) - ay * by) - az * bz;
  const float x = ((aw * bx + ax * bw) + ay * bz) - az * by;
  const float y = ((aw * by - ax * bz) + ay * bw) + az * bx;
  const float z = ((aw * bz + ax * by) - ay * bx) + az * bw;
  const bool flip = w < 0.0f;
  e[3] = (flip ? -x : x) * two_weight;
  e[4] = (flip ? -y : y) * two_weight;
  e[5] = (flip ? -z : z) * two_weight;
}

// y = (W J J^T W + lambda^2 I)^-1 W e, returned as W y (W = diag(1, 1, 1, w, w, w)).
void SolveTaskSpace(const RobotArrays& robot, const IkParams& params, const float e[kTaskRows],
                    float y[kTaskRows]) {
  const float weight = params.orientation_weight;
  const float weight_squared = weight * weight;
  const float lambda_squared = params.damping * params.damping;
  float a[kTaskRows][kTaskRows];
  for (size_t r = 0; r < kTaskRows; ++r) {
    for (size_t s = 0; s <= r; ++s) {
      float sum = robot.J(r, 0) * robot.J(s, 0);
      for (size_t c = 1; c < robot.n; ++c) sum = sum + robot.J(r, c) * robot.J(s, c);
      if (s >= 3) {
        sum = sum * weight_squared;
      } else if (r >= 3) {
        sum = sum * weight;
      }
      a[r][s] = sum;
    }
    a[r][r] = a[r][r] + lambda_squared;
  }
  float l[kTaskRows][kTaskRows];
  float diagonal[kTaskRows];
  for (size_t j = 0; j < kTaskRows; ++j) {
    float scaled[kTaskRows];
    for (size_t k = 0; k < j; ++k) scaled[k] = l[j][k] * diagonal[k];
    float pivot = a[j][j];
    for (size_t k = 0; k < j; ++k) pivot = pivot - l[j][k] * scaled[k];
    diagonal[j] = pivot;
    for (size_t i = j + 1; i < kTaskRows; ++i) {
      float sum = a[i][j];
      for (size_t k = 0; k < j; ++k) sum = sum - l[i][k] * scaled[k];
      l[i][j] = sum / pivot;
    }
  }
  float z[kTaskRows];
  for (size_t i = 0; i < kTaskRows; ++i) {
    float sum = e[i];
    for (size_t k = 0; k < i; ++k) sum = sum - l[i][k] * z[k];
    z[i] = sum;
  }
  for (size_t i = kTaskRows; i-- > 0;) {
    float sum = z[i] / diagonal[i];
    for (size_t k = i + 1; k < kTaskRows; ++k) sum = sum - l[k][i] * y[k];
    y[i] = sum;
  }
  for (size_t k = 3; k < kTaskRows; ++k) y[k] = y[k] * weight;
}

float JointStep(const RobotArrays& robot, const float y[kTaskRows], size_t c) {
  float dq = robot.J(0, c) * y[0];
  for (size_t k = 1; k < kTaskRows; ++k) dq = dq + robot.J(k, c) * y[k];
  return dq;
}

void StepRobot(const RobotArrays& robot, const IkParams& params) {
  float e[kTaskRows];
  PoseError(robot, 2.0f * params.orientation_weight, e);
  float y[kTaskRows];
  SolveTaskSpace(robot, params, e, y);
  float largest = 0.0f;
  for (size_t c = 0; c < robot.n; ++c) {
    const float size = std::fabs(JointStep(robot, y, c));
    largest = size > largest ? size : largest;
  }
  const float scale = largest > params.max_step ? params.max_step / largest : 1.0f;
  for (size_t c = 0; c < robot.n; ++c) {
    float value = robot.q.Array(c)[robot.r] + JointStep(robot, y, c) * scale;
    value = value < robot.joints[c].lower ? robot.joints[c].lower : value;
    value = value > robot.joints[c].upper ? robot.joints[c].upper : value;
    robot.q_out.Array(c)[robot.r] = value;
  }
}

}  // namespace

void DampedLeastSquaresStep(const JointControl* joints, size_t joint_count,
                            const ConstLanesView& link_pose, const ConstLanesView& target_pose,
                            const ConstLanesView& jacobian, const ConstLanesView& q,
                            const LanesView& q_out, const IkParams& params) {
  for (size_t r = 0; r < q_out.count; ++r) {
    StepRobot({joints, joint_count, link_pose, target_pose, jacobian, q, q_out, r}, params);
  }
}

}  // namespace swarm::reference
