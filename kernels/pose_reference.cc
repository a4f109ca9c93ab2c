#include "kernels/pose_reference.h"

#include <cmath>
#include <glm/gtc/quaternion.hpp>

#include "kernels/assert.h"
#include "kernels/quaternion_reference.h"

namespace swarm::reference {
namespace {

glm::vec3 Cross(const glm::vec3& a, const glm::vec3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

glm::quat Conjugate(const glm::quat& q) { return glm::quat(q.w, -q.x, -q.y, -q.z); }

glm::vec3 Rotate(const glm::quat& q, const glm::vec3& v) {
  const glm::vec3 u(q.x, q.y, q.z);
  const glm::vec3 uv = Cross(u, v);
  const glm::vec3 uuv = Cross(u, uv);
  return v + (uv * q.w + uuv) * 2.0f;
}

}  // namespace

Pose Compose(const Pose& a, const Pose& b) {
  return {QuaternionProduct(a.rotation, b.rotation), Rotate(a.rotation, b.translation) + a.translation};
}

Pose Invert(const Pose& pose) {
  const glm::quat inverse_q = Conjugate(pose.rotation);
  return {inverse_q, -Rotate(inverse_q, pose.translation)};
}

Pose Relative(const Pose& a, const Pose& b) {
  const glm::quat inverse_qa = Conjugate(a.rotation);
  return {QuaternionProduct(inverse_qa, b.rotation), Rotate(inverse_qa, b.translation - a.translation)};
}

glm::vec3 Transform(const Pose& pose, const glm::vec3& point) {
  return Rotate(pose.rotation, point) + pose.translation;
}

void IntegrateRigidBody(Pose& pose, const glm::vec3& linear_velocity,
                        const glm::vec3& angular_velocity, float dt_seconds) {
  const float half_dt = 0.5f * dt_seconds;
  pose.translation = pose.translation + linear_velocity * dt_seconds;
  const glm::vec3& omega = angular_velocity;
  const float half_angle =
      std::sqrt((omega.x * omega.x + omega.y * omega.y) + omega.z * omega.z) * half_dt;
  const float sinc = half_angle == 0.0f ? 1.0f : std::sin(half_angle) / half_angle;
  const float scale = sinc * half_dt;
  const glm::quat dq(std::cos(half_angle), scale * omega.x, scale * omega.y, scale * omega.z);
  pose.rotation = NormalizedQuaternion(QuaternionProduct(dq, pose.rotation));
}

glm::mat3 WorldInverseInertia(const glm::quat& q, const glm::vec3& inverse_body_inertia) {
  // r[k][j] is row j of column k (glm order), so R_jk = r[k][j].
  const glm::mat3 r = glm::mat3_cast(q);
  glm::mat3 out(0.0f);
  for (int row = 0; row < 3; ++row) {
    for (int column = row; column < 3; ++column) {
      const float value = ((r[0][row] * inverse_body_inertia.x) * r[0][column] +
                           (r[1][row] * inverse_body_inertia.y) * r[1][column]) +
                          (r[2][row] * inverse_body_inertia.z) * r[2][column];
      out[column][row] = value;
      out[row][column] = value;
    }
  }
  return out;
}

void ComposePoses(std::span<const Pose> a, std::span<const Pose> b, std::span<Pose> out) {
  SWARM_ASSERT(a.size() == out.size() && b.size() == out.size());
  for (size_t i = 0; i < out.size(); ++i) out[i] = Compose(a[i], b[i]);
}

void InvertPoses(std::span<const Pose> poses, std::span<Pose> out) {
  SWARM_ASSERT(poses.size() == out.size());
  for (size_t i = 0; i < out.size(); ++i) out[i] = Invert(poses[i]);
}

void RelativePoses(std::span<const Pose> a, std::span<const Pose> b, std::span<Pose> relative) {
  SWARM_ASSERT(a.size() == relative.size() && b.size() == relative.size());
  for (size_t i = 0; i < relative.size(); ++i) relative[i] = Relative(a[i], b[i]);
}

void TransformPointsByPoses(std::span<const Pose> poses, std::span<const glm::vec3> points,
                            std::span<glm::vec3> out) {
  SWARM_ASSERT(poses.size() == out.size() && points.size() == out.size());
  for (size_t i = 0; i < out.size(); ++i) out[i] = Transform(poses[i], points[i]);
}

glm::dmat4 PoseMatrix(const Pose& pose) {
  const glm::dquat q = glm::normalize(
      glm::dquat(pose.rotation.w, pose.rotation.x, pose.rotation.y, pose.rotation.z));
  glm::dmat4 m(glm::mat3_cast(q));
  m[3] = glm::dvec4(glm::dvec3(pose.translation), 1.0);
  return m;
}

}  // namespace swarm::reference
