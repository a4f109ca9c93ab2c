#include "swarm/kernels/geometry/pose_reference.h"

#include <cmath>
#include <glm/gtc/quaternion.hpp>

#include "swarm/kernels/base/assert.h"
#include "swarm/kernels/geometry/quaternion_reference.h"

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
  return {QuaternionProduct(a.rotation, b.rotation),
          Rotate(a.rotation, b.translation) + a.translation};
}

Pose Invert(const Pose& pose) {
  const glm::quat inverse_q = Conjugate(pose.rotation);
  return {inverse_q, -Rotate(inverse_q, pose.translation)};
}

Pose Relative(const Pose& a, const Pose& b) {
  const glm::quat inverse_qa = Conjugate(a.rotation);
  return {QuaternionProduct(inverse_qa, b.rotation),
          Rotate(inverse_qa, b.translation - a.translation)};
}

glm::vec3 Transform(const Pose& pose, const glm::vec3& point) {
  return Rotate(pose.rotation, point) + pose.translation;
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
