// Plain scalar references for the pose kernels (swarm/kernels/geometry/pose.h): one pose at a time
// in glm types, the way a game programmer writes it. They perform the same correctly rounded
// operations in the same order as the kernels (kernels/geometry/pose-inl.h,
// kernels/geometry/quaternion_math-inl.h), so with -ffp-contract=off ComposePoses, InvertPoses,
// RelativePoses, TransformPointsByPoses and WorldInverseInertia agree with the kernels to the bit.
// IntegrateRigidBody uses std::sin and std::cos where the kernel uses the project's polynomials, so
// it agrees only within a few ulp.
//
// The double-precision helpers at the end are independent of that order: tests use them to check
// the float results against the mathematics rather than against a copy of the same code.
#pragma once

#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <span>

namespace swarm::reference {

// T(p) = rotate(rotation, p) + translation.
struct Pose {
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};  // glm order (w, x, y, z)
  glm::vec3 translation{0.0f};
};

Pose Compose(const Pose& a, const Pose& b);   // a o b
Pose Invert(const Pose& pose);                // inverse(pose)
Pose Relative(const Pose& a, const Pose& b);  // inverse(a) o b
glm::vec3 Transform(const Pose& pose, const glm::vec3& point);

// Batches, for benchmarks: out[i] = f(a[i], b[i]). Spans of one call have equal sizes.
void ComposePoses(std::span<const Pose> a, std::span<const Pose> b, std::span<Pose> out);
void InvertPoses(std::span<const Pose> poses, std::span<Pose> out);
void RelativePoses(std::span<const Pose> a, std::span<const Pose> b, std::span<Pose> relative);
void TransformPointsByPoses(std::span<const Pose> poses, std::span<const glm::vec3> points,
                            std::span<glm::vec3> out);

// The 4x4 matrix of a pose in double: [R(q) t; 0 1] with R the rotation matrix of the unit
// quaternion q computed in double (glm::mat3_cast), from the float pose as stored.
glm::dmat4 PoseMatrix(const Pose& pose);

}  // namespace swarm::reference
