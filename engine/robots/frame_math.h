// Double-precision frame arithmetic for building robot models (internal to engine/robots): the
// rotation matrix of a unit quaternion, quaternion products and tensor rotation. The batched
// kernels have their own float versions; this is set-up code run once per model.
#pragma once

#include <array>
#include <cmath>

namespace swarm::frame_math {

using Vec3 = std::array<double, 3>;
using Quat = std::array<double, 4>;  // x y z w
using Mat3 = std::array<double, 9>;  // row-major

inline Mat3 RotationOf(const Quat& q) {
  const double x = q[0], y = q[1], z = q[2], w = q[3];
  return {1 - 2 * (y * y + z * z), 2 * (x * y - z * w),     2 * (x * z + y * w),
          2 * (x * y + z * w),     1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
          2 * (x * z - y * w),     2 * (y * z + x * w),     1 - 2 * (x * x + y * y)};
}

inline Vec3 Rotate(const Mat3& r, const Vec3& v) {
  return {r[0] * v[0] + r[1] * v[1] + r[2] * v[2], r[3] * v[0] + r[4] * v[1] + r[5] * v[2],
          r[6] * v[0] + r[7] * v[1] + r[8] * v[2]};
}

// a b (3 x 3 matrix product).
inline Mat3 Multiply(const Mat3& a, const Mat3& b) {
  Mat3 out{};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      out[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
    }
  }
  return out;
}

// a * b (Hamilton product).
inline Quat Multiply(const Quat& a, const Quat& b) {
  return {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
          a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
          a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
          a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
}

// The unit quaternion of rotation matrix r (Shepperd's method: from the largest of the trace and
// the diagonal, so no division by a small number).
inline Quat QuatOfRotation(const Mat3& r) {
  const double trace = r[0] + r[4] + r[8];
  Quat q;
  if (trace >= r[0] && trace >= r[4] && trace >= r[8]) {
    const double s = 2.0 * std::sqrt(1.0 + trace);
    q = {(r[7] - r[5]) / s, (r[2] - r[6]) / s, (r[3] - r[1]) / s, 0.25 * s};
  } else if (r[0] >= r[4] && r[0] >= r[8]) {
    const double s = 2.0 * std::sqrt(1.0 + r[0] - r[4] - r[8]);
    q = {0.25 * s, (r[1] + r[3]) / s, (r[2] + r[6]) / s, (r[7] - r[5]) / s};
  } else if (r[4] >= r[8]) {
    const double s = 2.0 * std::sqrt(1.0 + r[4] - r[0] - r[8]);
    q = {(r[1] + r[3]) / s, 0.25 * s, (r[5] + r[7]) / s, (r[2] - r[6]) / s};
  } else {
    const double s = 2.0 * std::sqrt(1.0 + r[8] - r[0] - r[4]);
    q = {(r[2] + r[6]) / s, (r[5] + r[7]) / s, 0.25 * s, (r[3] - r[1]) / s};
  }
  return q;
}

// The rotation by `angle` (radians) about unit axis `axis`.
inline Quat QuatOfAxisAngle(const Vec3& axis, double angle) {
  const double s = std::sin(0.5 * angle);
  return {axis[0] * s, axis[1] * s, axis[2] * s, std::cos(0.5 * angle)};
}

// R T R^T: a tensor given in a frame rotated by R, seen from the outer frame.
inline Mat3 RotateTensor(const Mat3& r, const Mat3& tensor) {
  Mat3 out{};
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 3; ++b) {
      double sum = 0.0;
      for (int k = 0; k < 3; ++k) {
        for (int l = 0; l < 3; ++l) sum += r[a * 3 + k] * tensor[k * 3 + l] * r[b * 3 + l];
      }
      out[a * 3 + b] = sum;
    }
  }
  return out;
}

}  // namespace swarm::frame_math
