// Per-target code of the quaternion kernels (swarm/kernels/geometry/quaternion.h). The arithmetic
// lives in kernels/geometry/quaternion_math-inl.h and kernels/base/deterministic_math-inl.h; this
// file only loops.
//
// Aliasing: every kernel loads all inputs of a vector of elements before it stores any output of
// that vector, and element i depends only on element i of its inputs, so an output may be the
// very same view as an input (same data pointer and lane stride); partial overlaps are not
// supported.

#if defined(SWARM_KERNELS_QUATERNION_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_QUATERNION_INL_H_
#undef SWARM_KERNELS_QUATERNION_INL_H_
#else
#define SWARM_KERNELS_QUATERNION_INL_H_
#endif

#include <cstddef>

#include "hwy/highway.h"
#include "kernels/base/deterministic_math-inl.h"
#include "kernels/base/loop-inl.h"
#include "kernels/base/vector_scratch-inl.h"
#include "kernels/geometry/quaternion_math-inl.h"
#include "swarm/kernels/geometry/quaternion.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class D, class V = hn::Vec<D>>
HWY_INLINE void LoadVec3(D d, const float* const HWY_RESTRICT* lanes, size_t i, V& x, V& y, V& z) {
  x = hn::LoadU(d, lanes[0] + i);
  y = hn::LoadU(d, lanes[1] + i);
  z = hn::LoadU(d, lanes[2] + i);
}

// The quaternion is broadcast once per call; each element then costs 18 multiplies and 12
// additions with no shuffles, since SoA keeps x, y and z in separate registers.
inline void RotateVectorsImpl(const glm::quat& q, const ConstVec4View& in, const Vec4View& out) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const V qx = hn::Set(d, q.x), qy = hn::Set(d, q.y), qz = hn::Set(d, q.z), qw = hn::Set(d, q.w);
  const InOutLanes lanes(in, out);
  ForEachVector(d, out.count, [&](size_t i, auto store) HWY_ATTR {
    const V w = hn::LoadU(d, lanes.in[3] + i);
    V x, y, z;
    LoadVec3(d, lanes.in, i, x, y, z);
    Rotate(qx, qy, qz, qw, x, y, z, x, y, z);
    store(x, d, lanes.out[0] + i);
    store(y, d, lanes.out[1] + i);
    store(z, d, lanes.out[2] + i);
    store(w, d, lanes.out[3] + i);
  });
}

inline void RotateVectorsPerElementImpl(const ConstVec4View& q, const ConstVec4View& in,
                                        const Vec4View& out) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const InOutLanes lanes(in, out);
  const float* HWY_RESTRICT rotation[4] = {q.x(), q.y(), q.z(), q.w()};
  ForEachVector(d, out.count, [&](size_t i, auto store) HWY_ATTR {
    const V w = hn::LoadU(d, lanes.in[3] + i);
    const V qx = hn::LoadU(d, rotation[0] + i), qy = hn::LoadU(d, rotation[1] + i),
            qz = hn::LoadU(d, rotation[2] + i), qw = hn::LoadU(d, rotation[3] + i);
    V x, y, z;
    LoadVec3(d, lanes.in, i, x, y, z);
    Rotate(qx, qy, qz, qw, x, y, z, x, y, z);
    store(x, d, lanes.out[0] + i);
    store(y, d, lanes.out[1] + i);
    store(z, d, lanes.out[2] + i);
    store(w, d, lanes.out[3] + i);
  });
}

inline void MultiplyQuaternionsImpl(const ConstVec4View& a, const ConstVec4View& b,
                                    const Vec4View& out) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  ForEachVector(d, out.count, [&](size_t i, auto store) HWY_ATTR {
    V ax, ay, az, aw, bx, by, bz, bw;
    LoadQuat(d, b, i, bx, by, bz, bw);
    LoadQuat(d, a, i, ax, ay, az, aw);
    V x, y, z, w;
    Multiply(ax, ay, az, aw, bx, by, bz, bw, x, y, z, w);
    StoreQuat(d, x, y, z, w, out, i, store);
  });
}

inline void ConjugateQuaternionsImpl(const ConstVec4View& q, const Vec4View& out) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  ForEachVector(d, out.count, [&](size_t i, auto store) HWY_ATTR {
    V x, y, z, w;
    LoadQuat(d, q, i, x, y, z, w);
    Conjugate(x, y, z, w, x, y, z, w);
    StoreQuat(d, x, y, z, w, out, i, store);
  });
}

inline void NormalizeQuaternionsImpl(const ConstVec4View& q, const Vec4View& out) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  ForEachVector(d, out.count, [&](size_t i, auto store) HWY_ATTR {
    V x, y, z, w;
    LoadQuat(d, q, i, x, y, z, w);
    Normalize(x, y, z, w, x, y, z, w);
    StoreQuat(d, x, y, z, w, out, i, store);
  });
}

inline void QuaternionsToMatricesImpl(const ConstVec4View& q, const Mat4View& matrices) {
  using D = hn::ScalableTag<float>;
  using V = hn::Vec<D>;
  const D d;
  ForEachVector(d, matrices.count, [&](size_t i, auto store) HWY_ATTR {
    VectorScratch<D, 9> m;  // entry (column c, row r) in slot 3 c + r
    LoadRotationMatrix(d, q, i, m);
    const V zero = hn::Zero(d);
    for (size_t column = 0; column < 3; ++column) {
      for (size_t row = 0; row < 3; ++row) {
        store(m.Get(d, 3 * column + row), d, matrices.Element(column, row) + i);
      }
      store(zero, d, matrices.Element(column, 3) + i);
      store(zero, d, matrices.Element(3, column) + i);
    }
    store(hn::Set(d, 1.0f), d, matrices.Element(3, 3) + i);
  });
}

// Shepperd's method (S. W. Shepperd, "Quaternion from rotation matrix", J. Guidance and Control
// 1(3), 1978), in glm::quat_cast's order of operations. With trace t = m00 + m11 + m22 and a
// rotation matrix, the four candidates
//   4w^2 - 1 = t,   4x^2 - 1 = m00 - m11 - m22,   4y^2 - 1 = m11 - m00 - m22,
//   4z^2 - 1 = m22 - m00 - m11
// sum to 0, so the largest is >= 0 and its component c = sqrt(largest + 1) / 2 >= 1/2: dividing
// the off-diagonal sums and differences by 4c never loses accuracy or divides by zero. Which
// candidate wins is a per-lane select (later candidates win only when strictly larger, as in
// glm), and the whole quaternion is negated where w < 0 so the output has w >= 0 (q and -q are
// the same rotation). Off-diagonal terms use m<c><r> = column c, row r:
//   w-largest: (x, y, z) = (m12 - m21, m20 - m02, m01 - m10) / (4w)
//   x-largest: (w, y, z) = (m12 - m21, m01 + m10, m20 + m02) / (4x)
//   y-largest: (w, x, z) = (m20 - m02, m01 + m10, m12 + m21) / (4y)
//   z-largest: (w, x, y) = (m01 - m10, m20 + m02, m12 + m21) / (4z)
inline void MatricesToQuaternionsImpl(const ConstMat4View& matrices, const Vec4View& q) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  ForEachVector(d, q.count, [&](size_t i, auto store) HWY_ATTR {
    const auto element = [&](size_t column, size_t row)
                             HWY_ATTR { return hn::LoadU(d, matrices.Element(column, row) + i); };
    const V m00 = element(0, 0), m11 = element(1, 1), m22 = element(2, 2);
    const V m01 = element(0, 1), m10 = element(1, 0);
    const V m02 = element(0, 2), m20 = element(2, 0);
    const V m12 = element(1, 2), m21 = element(2, 1);
    const V four_x2_minus_1 = hn::Sub(hn::Sub(m00, m11), m22);
    const V four_y2_minus_1 = hn::Sub(hn::Sub(m11, m00), m22);
    const V four_z2_minus_1 = hn::Sub(hn::Sub(m22, m00), m11);
    const V four_w2_minus_1 = hn::Add(hn::Add(m00, m11), m22);
    V biggest = four_w2_minus_1;
    const auto x_wins = hn::Gt(four_x2_minus_1, biggest);
    biggest = hn::IfThenElse(x_wins, four_x2_minus_1, biggest);
    const auto y_wins = hn::Gt(four_y2_minus_1, biggest);
    biggest = hn::IfThenElse(y_wins, four_y2_minus_1, biggest);
    const auto z_wins = hn::Gt(four_z2_minus_1, biggest);
    biggest = hn::IfThenElse(z_wins, four_z2_minus_1, biggest);

    const V big = hn::Mul(hn::Sqrt(hn::Add(biggest, hn::Set(d, 1.0f))), hn::Set(d, 0.5f));
    const V mult = hn::Div(hn::Set(d, 0.25f), big);
    const V yz_difference = hn::Mul(hn::Sub(m12, m21), mult);
    const V zx_difference = hn::Mul(hn::Sub(m20, m02), mult);
    const V xy_difference = hn::Mul(hn::Sub(m01, m10), mult);
    const V xy_sum = hn::Mul(hn::Add(m01, m10), mult);
    const V zx_sum = hn::Mul(hn::Add(m20, m02), mult);
    const V yz_sum = hn::Mul(hn::Add(m12, m21), mult);

    V x = yz_difference, y = zx_difference, z = xy_difference, w = big;
    IfThenReplaceQuat(x_wins, big, xy_sum, zx_sum, yz_difference, x, y, z, w);
    IfThenReplaceQuat(y_wins, xy_sum, big, yz_sum, zx_difference, x, y, z, w);
    IfThenReplaceQuat(z_wins, zx_sum, yz_sum, big, xy_difference, x, y, z, w);
    IfNegateQuat(hn::Lt(w, hn::Zero(d)), x, y, z, w);
    StoreQuat(d, x, y, z, w, q, i, store);
  });
}

// Shorter arc: b is negated where dot(a, b) < 0, and cos_theta is the dot product of a and the
// (possibly negated) b. Negation is exact, so dot(a, -b) is exactly -dot(a, b).
template <class V>
HWY_INLINE void ShorterArc(V ax, V ay, V az, V aw, V& bx, V& by, V& bz, V& bw, V& cos_theta) {
  const V dot = Dot(ax, ay, az, aw, bx, by, bz, bw);
  const auto flip = hn::Lt(dot, hn::Zero(hn::DFromV<V>()));
  IfNegateQuat(flip, bx, by, bz, bw);
  cos_theta = hn::IfThenElse(flip, hn::Neg(dot), dot);
}

inline void NlerpQuaternionsImpl(const ConstVec4View& a, const ConstVec4View& b, float t,
                                 const Vec4View& out) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const V weight_b = hn::Set(d, t);
  const V weight_a = hn::Set(d, 1.0f - t);
  ForEachVector(d, out.count, [&](size_t i, auto store) HWY_ATTR {
    V ax, ay, az, aw, bx, by, bz, bw;
    LoadQuat(d, a, i, ax, ay, az, aw);
    LoadQuat(d, b, i, bx, by, bz, bw);
    V cos_theta;
    ShorterArc(ax, ay, az, aw, bx, by, bz, bw, cos_theta);
    V x, y, z, w;
    WeightedSum(ax, ay, az, aw, weight_a, bx, by, bz, bw, weight_b, x, y, z, w);
    Normalize(x, y, z, w, x, y, z, w);
    StoreQuat(d, x, y, z, w, out, i, store);
  });
}

// slerp(a, b; t) = (sin((1 - t) theta) a + sin(t theta) b) / sin(theta), theta = acos(dot(a, b))
// (Shoemake 1985), with theta from the deterministic Acos. Where cos(theta) > 1 - 2^-23 (theta
// below about 5e-4, the threshold glm::slerp uses) sin(theta) is too close to zero to divide by
// and the arc is indistinguishable from its chord, so those lanes take nlerp instead. Above the
// threshold, the rounding error of dot(a, b) makes theta inexact, but the weights depend on
// theta only at second order (sin(s theta) / sin(theta) = s (1 - (s^2 - 1) theta^2 / 6 + ...)),
// so the result stays within a few ulp of the true slerp.
inline void SlerpQuaternionsImpl(const ConstVec4View& a, const ConstVec4View& b, float t,
                                 const Vec4View& out) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const V t_vector = hn::Set(d, t);
  const V one_minus_t = hn::Set(d, 1.0f - t);
  const V nearly_one = hn::Set(d, 1.0f - 1.0f / 8388608.0f);
  const V one = hn::Set(d, 1.0f);
  ForEachVector(d, out.count, [&](size_t i, auto store) HWY_ATTR {
    V ax, ay, az, aw, bx, by, bz, bw;
    LoadQuat(d, a, i, ax, ay, az, aw);
    LoadQuat(d, b, i, bx, by, bz, bw);
    V cos_theta;
    ShorterArc(ax, ay, az, aw, bx, by, bz, bw, cos_theta);
    const auto tiny = hn::Gt(cos_theta, nearly_one);
    const V theta = Acos(d, cos_theta);
    const V sin_theta = hn::IfThenElse(tiny, one, Sin(d, theta));
    const V weight_a = hn::Div(Sin(d, hn::Mul(one_minus_t, theta)), sin_theta);
    const V weight_b = hn::Div(Sin(d, hn::Mul(t_vector, theta)), sin_theta);
    V x, y, z, w;
    WeightedSum(ax, ay, az, aw, weight_a, bx, by, bz, bw, weight_b, x, y, z, w);
    V chord_x, chord_y, chord_z, chord_w;
    WeightedSum(ax, ay, az, aw, one_minus_t, bx, by, bz, bw, t_vector, chord_x, chord_y, chord_z,
                chord_w);
    Normalize(chord_x, chord_y, chord_z, chord_w, chord_x, chord_y, chord_z, chord_w);
    IfThenReplaceQuat(tiny, chord_x, chord_y, chord_z, chord_w, x, y, z, w);
    StoreQuat(d, x, y, z, w, out, i, store);
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_QUATERNION_INL_H_
