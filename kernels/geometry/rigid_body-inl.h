// Per-target code of the rigid-body kernels (swarm/kernels/geometry/rigid_body.h). Quaternion
// arithmetic comes from kernels/geometry/quaternion_math-inl.h and sin/cos from
// kernels/base/deterministic_math-inl.h, so every target rounds alike;
// kernels/geometry/rigid_body_reference.cc spells out the same order of operations.

#if defined(SWARM_KERNELS_RIGID_BODY_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_RIGID_BODY_INL_H_
#undef SWARM_KERNELS_RIGID_BODY_INL_H_
#else
#define SWARM_KERNELS_RIGID_BODY_INL_H_
#endif

#include <cstddef>

#include "hwy/highway.h"
#include "kernels/base/deterministic_math-inl.h"
#include "kernels/base/loop-inl.h"
#include "kernels/base/vector_scratch-inl.h"
#include "kernels/geometry/pose-inl.h"
#include "kernels/geometry/quaternion_math-inl.h"
#include "swarm/kernels/geometry/rigid_body.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The rigid-body step.
// Orientation: with world-frame angular velocity omega, dq/dt = 1/2 (omega, 0) q (left
// multiplication: omega is applied after the current orientation). For omega constant over the
// step the solution is exact:
//   q(t + dt) = exp(u) q(t),   u = (omega dt / 2, 0), a pure quaternion with |u| = h = |omega| dt
//   / 2.
// A pure quaternion squares to a negative real, u^2 = -h^2, so the exponential series splits into
//   exp(u) = sum_k (-1)^k h^2k / (2k)!  +  u sum_k (-1)^k h^2k / (2k+1)!  = cos(h) + u sin(h) / h,
// i.e. dq = (sinc(h) dt/2 omega, cos(h)): the unit quaternion of a rotation by 2 h = |omega| dt
// about omega / |omega|, so n steps at constant omega rotate by exactly n |omega| dt (up to
// rounding, which left multiplication by unit quaternions does not amplify).
// Writing sin(h) / |omega| as sinc(h) dt/2 removes the division by |omega|: Sinc
// (kernels/base/deterministic_math-inl.h) takes a Taylor polynomial for h < 1/4 in a per-lane
// select, so omega = 0 gives Sinc = 1 and Cos = 1 exactly, dq = (+-0, +-0, +-0, 1), and a tiny
// omega (1e-20, even one whose squares underflow) gives dq = (omega dt / 2, 1) with no NaN. The
// product with an exact identity returns q's components exactly (every other term is a product with
// zero; only the sign of a zero component may change), so for omega = 0 the only change to q is
// the renormalisation Normalize(q). Renormalising every step keeps |q| = 1 within a few ulp
// instead of letting rounding drift accumulate; a zero q becomes the identity (Normalize).
// Position: t += v dt, explicit in v (the caller's integrator updates v before or after).
// Order of operations (kernels/geometry/rigid_body_reference.cc repeats it): t + v dt per axis;
// |omega| = sqrt((wx wx + wy wy) + wz wz); h = |omega| (0.5 dt); s = Sinc(h) (0.5 dt);
// dq = (s wx, s wy, s wz, Cos(h)); q = Normalize(Multiply(dq, q)).
inline void IntegrateRigidBodiesImpl(const PoseView& poses, const ConstVec4View& linear_velocities,
                                     const ConstVec4View& angular_velocities, float dt_seconds) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const V dt = hn::Set(d, dt_seconds);
  const V half_dt = hn::Set(d, 0.5f * dt_seconds);
  ForEachVector(d, poses.count(), [&](size_t i, auto store) HWY_ATTR {
    V tx, ty, tz, vx, vy, vz;
    LoadVec3(d, poses.translation, i, tx, ty, tz);
    LoadVec3(d, linear_velocities, i, vx, vy, vz);
    const V moved_x = hn::Add(tx, hn::Mul(vx, dt));
    const V moved_y = hn::Add(ty, hn::Mul(vy, dt));
    const V moved_z = hn::Add(tz, hn::Mul(vz, dt));
    V omega_x, omega_y, omega_z;
    LoadVec3(d, angular_velocities, i, omega_x, omega_y, omega_z);
    const V omega_length = hn::Sqrt(hn::Add(
        hn::Add(hn::Mul(omega_x, omega_x), hn::Mul(omega_y, omega_y)), hn::Mul(omega_z, omega_z)));
    const V half_angle = hn::Mul(omega_length, half_dt);
    const V scale = hn::Mul(Sinc(d, half_angle), half_dt);
    const V dq_x = hn::Mul(scale, omega_x), dq_y = hn::Mul(scale, omega_y),
            dq_z = hn::Mul(scale, omega_z), dq_w = Cos(d, half_angle);
    V qx, qy, qz, qw;
    LoadQuat(d, poses.rotation, i, qx, qy, qz, qw);
    Multiply(dq_x, dq_y, dq_z, dq_w, qx, qy, qz, qw, qx, qy, qz, qw);
    Normalize(qx, qy, qz, qw, qx, qy, qz, qw);
    StoreQuat(d, qx, qy, qz, qw, poses.rotation, i, store);
    StorePoseXyz(d, moved_x, moved_y, moved_z, poses.translation, i, store);
  });
}

// I_w^-1 = R D R^T with D = diag(d0, d1, d2): (I_w^-1)_jl = sum_k (R_jk d_k) R_lk, summed in the
// order k = 0, 1, 2. Only j <= l is computed and mirrored, so the result is exactly symmetric
// (evaluating (R_lk d_k) R_jk separately could differ in the last bit).
inline void WorldInverseInertiaImpl(const ConstVec4View& rotations,
                                    const ConstVec4View& inverse_body_inertia,
                                    const Mat4View& out) {
  using D = hn::ScalableTag<float>;
  using V = hn::Vec<D>;
  const D d;
  ForEachVector(d, out.count, [&](size_t i, auto store) HWY_ATTR {
    // r(j, k) = R_jk (column k, row j), from scratch slot 3 k + j.
    VectorScratch<D, 9> rotation;
    LoadRotationMatrix(d, rotations, i, rotation);
    const auto r = [&](size_t j, size_t k) HWY_ATTR { return rotation.Get(d, 3 * k + j); };
    V d0, d1, d2;
    LoadVec3(d, inverse_body_inertia, i, d0, d1, d2);
    for (size_t row = 0; row < 3; ++row) {
      for (size_t column = row; column < 3; ++column) {
        const V value = hn::Add(hn::Add(hn::Mul(hn::Mul(r(row, 0), d0), r(column, 0)),
                                        hn::Mul(hn::Mul(r(row, 1), d1), r(column, 1))),
                                hn::Mul(hn::Mul(r(row, 2), d2), r(column, 2)));
        store(value, d, out.Element(column, row) + i);
        if (column != row) store(value, d, out.Element(row, column) + i);
      }
    }
    const V zero = hn::Zero(d);
    for (size_t k = 0; k < 3; ++k) {
      store(zero, d, out.Element(k, 3) + i);
      store(zero, d, out.Element(3, k) + i);
    }
    store(hn::Set(d, 1.0f), d, out.Element(3, 3) + i);
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_RIGID_BODY_INL_H_
