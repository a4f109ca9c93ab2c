// The plain scalar SoA transform loops compiled -O3 -march=native (bench/CMakeLists.txt): what
// someone who writes the SoA loops by hand gets from the compiler for a non-portable build. This
// translation unit must not include Highway (1.0.3 does not compile with -march=native on AVX-512
// Zen) nor any header with inline functions (bench/transform_peers.h).
//
// __restrict sits on the parameters of the inner functions: that is what such code adds so the
// compiler vectorises without alias checks (GCC ignores it on local copies of the pointers). The
// arithmetic is written in glm's order (matrix * vector as a pairwise sum), so the loops compute
// what the glm peers compute; -O3 -march=native contracts it into FMAs, as such a build would.
#include "bench/transform_peers.h"

namespace swarm::bench {
namespace {

void TransformPoints(const float* matrix, const float* __restrict x, const float* __restrict y,
                     const float* __restrict z, float* __restrict out_x, float* __restrict out_y,
                     float* __restrict out_z, float* __restrict out_w, size_t count) {
  const float m00 = matrix[0], m01 = matrix[1], m02 = matrix[2];
  const float m10 = matrix[4], m11 = matrix[5], m12 = matrix[6];
  const float m20 = matrix[8], m21 = matrix[9], m22 = matrix[10];
  const float m30 = matrix[12], m31 = matrix[13], m32 = matrix[14];
  for (size_t i = 0; i < count; ++i) {
    out_x[i] = (m00 * x[i] + m10 * y[i]) + (m20 * z[i] + m30);
    out_y[i] = (m01 * x[i] + m11 * y[i]) + (m21 * z[i] + m31);
    out_z[i] = (m02 * x[i] + m12 * y[i]) + (m22 * z[i] + m32);
    out_w[i] = 1.0f;
  }
}

// m<c><r>: lane of column c, row r.
void TransformPerElement(
    const float* __restrict m00, const float* __restrict m01, const float* __restrict m02,
    const float* __restrict m03, const float* __restrict m10, const float* __restrict m11,
    const float* __restrict m12, const float* __restrict m13, const float* __restrict m20,
    const float* __restrict m21, const float* __restrict m22, const float* __restrict m23,
    const float* __restrict m30, const float* __restrict m31, const float* __restrict m32,
    const float* __restrict m33, const float* __restrict x, const float* __restrict y,
    const float* __restrict z, const float* __restrict w, float* __restrict out_x,
    float* __restrict out_y, float* __restrict out_z, float* __restrict out_w, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    out_x[i] = (m00[i] * x[i] + m10[i] * y[i]) + (m20[i] * z[i] + m30[i] * w[i]);
    out_y[i] = (m01[i] * x[i] + m11[i] * y[i]) + (m21[i] * z[i] + m31[i] * w[i]);
    out_z[i] = (m02[i] * x[i] + m12[i] * y[i]) + (m22[i] * z[i] + m32[i] * w[i]);
    out_w[i] = (m03[i] * x[i] + m13[i] * y[i]) + (m23[i] * z[i] + m33[i] * w[i]);
  }
}

// glm's quat * vec3: uv = cross(q.xyz, v); uuv = cross(q.xyz, uv); v + (uv * q.w + uuv) * 2.
void Rotate(float qx, float qy, float qz, float qw, const float* __restrict x,
            const float* __restrict y, const float* __restrict z, const float* __restrict w,
            float* __restrict out_x, float* __restrict out_y, float* __restrict out_z,
            float* __restrict out_w, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    const float uvx = qy * z[i] - qz * y[i];
    const float uvy = qz * x[i] - qx * z[i];
    const float uvz = qx * y[i] - qy * x[i];
    const float uuvx = qy * uvz - qz * uvy;
    const float uuvy = qz * uvx - qx * uvz;
    const float uuvz = qx * uvy - qy * uvx;
    out_x[i] = x[i] + (uvx * qw + uuvx) * 2.0f;
    out_y[i] = y[i] + (uvy * qw + uuvy) * 2.0f;
    out_z[i] = z[i] + (uvz * qw + uuvz) * 2.0f;
    out_w[i] = w[i];
  }
}

void RotatePerElement(const float* __restrict qx, const float* __restrict qy,
                      const float* __restrict qz, const float* __restrict qw,
                      const float* __restrict x, const float* __restrict y,
                      const float* __restrict z, const float* __restrict w, float* __restrict out_x,
                      float* __restrict out_y, float* __restrict out_z, float* __restrict out_w,
                      size_t count) {
  for (size_t i = 0; i < count; ++i) {
    const float uvx = qy[i] * z[i] - qz[i] * y[i];
    const float uvy = qz[i] * x[i] - qx[i] * z[i];
    const float uvz = qx[i] * y[i] - qy[i] * x[i];
    const float uuvx = qy[i] * uvz - qz[i] * uvy;
    const float uuvy = qz[i] * uvx - qx[i] * uvz;
    const float uuvz = qx[i] * uvy - qy[i] * uvx;
    out_x[i] = x[i] + (uvx * qw[i] + uuvx) * 2.0f;
    out_y[i] = y[i] + (uvy * qw[i] + uuvy) * 2.0f;
    out_z[i] = z[i] + (uvz * qw[i] + uuvz) * 2.0f;
    out_w[i] = w[i];
  }
}

}  // namespace

void SoaTransformPointsNative(const float* matrix, ConstVec4Lanes in, Vec4Lanes out, size_t count) {
  TransformPoints(matrix, in.x, in.y, in.z, out.x, out.y, out.z, out.w, count);
}

void SoaTransformPerElementNative(const float* const* m, ConstVec4Lanes in, Vec4Lanes out,
                                  size_t count) {
  TransformPerElement(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], m[9], m[10], m[11],
                      m[12], m[13], m[14], m[15], in.x, in.y, in.z, in.w, out.x, out.y, out.z,
                      out.w, count);
}

void SoaRotateNative(const float* q, ConstVec4Lanes in, Vec4Lanes out, size_t count) {
  Rotate(q[0], q[1], q[2], q[3], in.x, in.y, in.z, in.w, out.x, out.y, out.z, out.w, count);
}

void SoaRotatePerElementNative(ConstVec4Lanes q, ConstVec4Lanes in, Vec4Lanes out, size_t count) {
  RotatePerElement(q.x, q.y, q.z, q.w, in.x, in.y, in.z, in.w, out.x, out.y, out.z, out.w, count);
}

}  // namespace swarm::bench
