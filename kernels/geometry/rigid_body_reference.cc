#include "swarm/kernels/geometry/rigid_body_reference.h"

#include <cmath>

#include "swarm/kernels/geometry/quaternion_reference.h"

namespace swarm::reference {

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

}  // namespace swarm::reference
