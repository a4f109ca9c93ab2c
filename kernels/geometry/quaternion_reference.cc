#include "swarm/kernels/geometry/quaternion_reference.h"

#include <cmath>

#include "swarm/kernels/base/deterministic_math_reference.h"

namespace swarm::reference {
namespace {

// ((ax bx + ay by) + az bz) + aw bw, the kernels' order (glm::dot pairs the terms differently).
float Dot(const glm::quat& a, const glm::quat& b) {
  return ((a.x * b.x + a.y * b.y) + a.z * b.z) + a.w * b.w;
}

// Shorter arc: b negated where dot(a, b) < 0; returns the dot of a and the (possibly negated) b.
float ShorterArc(const glm::quat& a, glm::quat& b) {
  const float dot = Dot(a, b);
  if (dot < 0.0f) {
    b = -b;
    return -dot;
  }
  return dot;
}

// a sa + b sb per component.
glm::quat WeightedSum(const glm::quat& a, float sa, const glm::quat& b, float sb) {
  return glm::quat(a.w * sa + b.w * sb, a.x * sa + b.x * sb, a.y * sa + b.y * sb,
                   a.z * sa + b.z * sb);
}

}  // namespace

glm::quat QuaternionProduct(const glm::quat& a, const glm::quat& b) {
  glm::quat r;
  r.w = ((a.w * b.w - a.x * b.x) - a.y * b.y) - a.z * b.z;
  r.x = ((a.w * b.x + a.x * b.w) + a.y * b.z) - a.z * b.y;
  r.y = ((a.w * b.y - a.x * b.z) + a.y * b.w) + a.z * b.x;
  r.z = ((a.w * b.z + a.x * b.y) - a.y * b.x) + a.z * b.w;
  return r;
}

glm::quat NormalizedQuaternion(const glm::quat& q) {
  const float length = std::sqrt(Dot(q, q));
  if (length == 0.0f) return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  return glm::quat(q.w / length, q.x / length, q.y / length, q.z / length);
}

glm::quat QuaternionFromMatrix(const glm::mat3& m) {
  const glm::quat q = glm::quat_cast(m);
  return q.w < 0.0f ? -q : q;
}

glm::quat Nlerp(const glm::quat& a, const glm::quat& b, float t) {
  glm::quat near_b = b;
  ShorterArc(a, near_b);
  return NormalizedQuaternion(WeightedSum(a, 1.0f - t, near_b, t));
}

glm::quat Slerp(const glm::quat& a, const glm::quat& b, float t) {
  glm::quat near_b = b;
  const float cos_theta = ShorterArc(a, near_b);
  if (cos_theta > 1.0f - 1.0f / 8388608.0f) {
    return NormalizedQuaternion(WeightedSum(a, 1.0f - t, near_b, t));
  }
  const float theta = Acos(cos_theta);
  const float sin_theta = Sin(theta);
  const float weight_a = Sin((1.0f - t) * theta) / sin_theta;
  const float weight_b = Sin(t * theta) / sin_theta;
  return WeightedSum(a, weight_a, near_b, weight_b);
}

void RotateVectors(const glm::quat& q, std::span<const glm::vec4> in, std::span<glm::vec4> out) {
  for (size_t i = 0; i < in.size(); ++i) {
    out[i] = glm::vec4(q * glm::vec3(in[i]), in[i].w);
  }
}

void RotateVectorsPerElement(std::span<const glm::quat> q, std::span<const glm::vec4> in,
                             std::span<glm::vec4> out) {
  for (size_t i = 0; i < in.size(); ++i) {
    out[i] = glm::vec4(q[i] * glm::vec3(in[i]), in[i].w);
  }
}

void MultiplyQuaternions(std::span<const glm::quat> a, std::span<const glm::quat> b,
                         std::span<glm::quat> out) {
  for (size_t i = 0; i < a.size(); ++i) out[i] = QuaternionProduct(a[i], b[i]);
}

void ConjugateQuaternions(std::span<const glm::quat> q, std::span<glm::quat> out) {
  for (size_t i = 0; i < q.size(); ++i) out[i] = glm::conjugate(q[i]);
}

void NormalizeQuaternions(std::span<const glm::quat> q, std::span<glm::quat> out) {
  for (size_t i = 0; i < q.size(); ++i) out[i] = NormalizedQuaternion(q[i]);
}

void QuaternionsToMatrices(std::span<const glm::quat> q, std::span<glm::mat4> out) {
  for (size_t i = 0; i < q.size(); ++i) out[i] = glm::mat4_cast(q[i]);
}

void MatricesToQuaternions(std::span<const glm::mat4> matrices, std::span<glm::quat> out) {
  for (size_t i = 0; i < matrices.size(); ++i) {
    out[i] = QuaternionFromMatrix(glm::mat3(matrices[i]));
  }
}

void NlerpQuaternions(std::span<const glm::quat> a, std::span<const glm::quat> b, float t,
                      std::span<glm::quat> out) {
  for (size_t i = 0; i < a.size(); ++i) out[i] = Nlerp(a[i], b[i], t);
}

void SlerpQuaternions(std::span<const glm::quat> a, std::span<const glm::quat> b, float t,
                      std::span<glm::quat> out) {
  for (size_t i = 0; i < a.size(); ++i) out[i] = Slerp(a[i], b[i], t);
}

}  // namespace swarm::reference
