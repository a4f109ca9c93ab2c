// Plain scalar references for the quaternion kernels (swarm/kernels/geometry/quaternion.h), written
// the way a game programmer writes them: arrays of glm::quat / glm::vec4 / glm::mat4, one element
// at a time, GLM's own functions where they round like the kernels. Each performs the same
// correctly rounded operations in the same order as the kernels, so with -ffp-contract=off the
// results agree to the bit (tests/kernels/geometry/quaternion_test.cc checks that):
//   - rotate is glm's quat * vec3, mat3_cast and quat_cast are glm's (plus the w >= 0 sign fix);
//   - the product, normalize, nlerp and slerp are spelled out, because glm's operator* sums the
//     y and z terms in another order than kernels/geometry/quaternion_math-inl.h, glm::normalize
//     multiplies by 1 / |q| where the kernels divide, and glm::slerp falls back to an
//     unnormalized lerp and uses std::sin / std::acos (slerp here uses the scalar mirrors in
//     swarm/kernels/base/deterministic_math_reference.h).
// Tests also compare against GLM's own functions in double precision, which catches an error that
// a same-order copy would share.
#pragma once

#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec4.hpp>
#include <span>

namespace swarm::reference {

// Single elements, as the batch functions below evaluate them.
glm::quat QuaternionProduct(const glm::quat& a, const glm::quat& b);  // apply b, then a
glm::quat NormalizedQuaternion(const glm::quat& q);                   // identity where |q| == 0
glm::quat QuaternionFromMatrix(const glm::mat3& m);                   // Shepperd, w >= 0
glm::quat Nlerp(const glm::quat& a, const glm::quat& b, float t);
glm::quat Slerp(const glm::quat& a, const glm::quat& b, float t);

// Batches: out[i] = f(in[i]). Spans of one call have equal sizes; lane w of vectors is copied.
void RotateVectors(const glm::quat& q, std::span<const glm::vec4> in, std::span<glm::vec4> out);
void RotateVectorsPerElement(std::span<const glm::quat> q, std::span<const glm::vec4> in,
                             std::span<glm::vec4> out);
void MultiplyQuaternions(std::span<const glm::quat> a, std::span<const glm::quat> b,
                         std::span<glm::quat> out);
void ConjugateQuaternions(std::span<const glm::quat> q, std::span<glm::quat> out);
void NormalizeQuaternions(std::span<const glm::quat> q, std::span<glm::quat> out);
void QuaternionsToMatrices(std::span<const glm::quat> q, std::span<glm::mat4> out);
void MatricesToQuaternions(std::span<const glm::mat4> matrices, std::span<glm::quat> out);
void NlerpQuaternions(std::span<const glm::quat> a, std::span<const glm::quat> b, float t,
                      std::span<glm::quat> out);
void SlerpQuaternions(std::span<const glm::quat> a, std::span<const glm::quat> b, float t,
                      std::span<glm::quat> out);

}  // namespace swarm::reference
