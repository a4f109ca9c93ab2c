// Plain scalar references for the rigid-body kernels (swarm/kernels/geometry/rigid_body.h), one
// body at a time in glm types. WorldInverseInertia performs the kernel's operations in the same
// order and agrees to the bit; IntegrateRigidBody uses std::sin and std::cos where the kernel uses
// the project's polynomials, so it agrees only within a few ulp.
#pragma once

#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <glm/vec3.hpp>

#include "swarm/kernels/geometry/pose_reference.h"

namespace swarm::reference {

// One rigid-body step (swarm/kernels/geometry/rigid_body.h IntegrateRigidBodies) with std::sin /
// std::cos.
void IntegrateRigidBody(Pose& pose, const glm::vec3& linear_velocity,
                        const glm::vec3& angular_velocity, float dt_seconds);
// R diag(inverse_body_inertia) R^T with R the rotation matrix of q (exactly symmetric).
glm::mat3 WorldInverseInertia(const glm::quat& q, const glm::vec3& inverse_body_inertia);

}  // namespace swarm::reference
