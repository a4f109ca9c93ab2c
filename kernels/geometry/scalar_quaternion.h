// Scalar quaternion arithmetic in the order of operations of
// kernels/geometry/quaternion_math-inl.h, for the bitwise references of the robot kernels
// (robot_kinematics_reference.cc, robot_torque_reference.cc): with -ffp-contract=off each function
// rounds exactly like its vector twin. Internal to kernels/.
#pragma once

#include <cmath>

namespace swarm::scalar_quaternion {

struct Quat {
  float v[3];  // x y z
  float w;
};
struct Vec3 {
  float v[3];
};

// kernels/geometry/quaternion_math-inl.h Multiply.
inline Quat Multiply(const Quat& a, const Quat& b) {
  const float ax = a.v[0], ay = a.v[1], az = a.v[2], aw = a.w;
  const float bx = b.v[0], by = b.v[1], bz = b.v[2], bw = b.w;
  Quat r;
  r.w = ((aw * bw - ax * bx) - ay * by) - az * bz;
  r.v[0] = ((aw * bx + ax * bw) + ay * bz) - az * by;
  r.v[1] = ((aw * by - ax * bz) + ay * bw) + az * bx;
  r.v[2] = ((aw * bz + ax * by) - ay * bx) + az * bw;
  return r;
}

inline Vec3 Cross(const Vec3& a, const Vec3& b) {
  return {{a.v[1] * b.v[2] - a.v[2] * b.v[1], a.v[2] * b.v[0] - a.v[0] * b.v[2],
           a.v[0] * b.v[1] - a.v[1] * b.v[0]}};
}

// kernels/geometry/quaternion_math-inl.h Rotate: v + ((u x v) w + u x (u x v)) 2.
inline Vec3 Rotate(const Quat& q, const Vec3& v) {
  const Vec3 u{{q.v[0], q.v[1], q.v[2]}};
  const Vec3 uv = Cross(u, v);
  const Vec3 uuv = Cross(u, uv);
  Vec3 r;
  for (int k = 0; k < 3; ++k) r.v[k] = v.v[k] + (uv.v[k] * q.w + uuv.v[k]) * 2.0f;
  return r;
}

inline Vec3 Add(const Vec3& a, const Vec3& b) {
  return {{a.v[0] + b.v[0], a.v[1] + b.v[1], a.v[2] + b.v[2]}};
}

// kernels/geometry/quaternion_math-inl.h Normalize: divide by sqrt(((xx + yy) + zz) + ww); zero ->
// identity.
inline Quat Normalize(const Quat& q) {
  const float length =
      std::sqrt(((q.v[0] * q.v[0] + q.v[1] * q.v[1]) + q.v[2] * q.v[2]) + q.w * q.w);
  if (length == 0.0f) return {{0.0f, 0.0f, 0.0f}, 1.0f};
  return {{q.v[0] / length, q.v[1] / length, q.v[2] / length}, q.w / length};
}

}  // namespace swarm::scalar_quaternion
