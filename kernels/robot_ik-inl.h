// Per-target code of the damped-least-squares IK step (kernels/robot_ik.h). Every lane is one
// robot and runs exactly the sequence of operations listed in kernels/robot_ik_reference.h.
//
// The weighted problem. With W = diag(1, 1, 1, w, w, w) (w = orientation_weight) the step
// minimises |W (e - J dq)|^2 + lambda^2 |dq|^2, whose solution is
//   dq = (W J)^T ((W J)(W J)^T + lambda^2 I)^-1 W e.
// W e is the error of kernels/robot_ik.h (the orientation part already carries w). Weighting the
// Jacobian's angular rows too is what makes w = 0 a position-only step: the angular block of the
// system becomes lambda^2 I with a zero right-hand side, so it neither pulls nor resists. The
// weight is applied to the 6x6 system rather than to the 6 n Jacobian entries: (W J)(W J)^T is
// J J^T with its angular-angular block times w^2 and its mixed block times w, and (W J)^T y is
// J^T (W y).
//
// Registers. A vector of robots keeps its 6 errors, the 21 distinct entries of the symmetric
// matrix, its 15 + 6 LDL^T factors and the 6 solution values in fixed-size local arrays (the
// compiler keeps most in registers); nothing depends on the number of joints, so any joint count
// works without allocation. The Jacobian is read three times per vector (for the matrix, the
// largest joint step and the final step) instead of keeping dq: its 6 n vectors of this group of
// robots are still in L1, and recomputing dq is cheaper than a joint-count-sized scratch array.
//
// NaN: a NaN in a robot's inputs reaches some or all of that robot's q_out (compares with NaN are
// false, so neither the step limit nor the position clamp replaces it) and never another robot's.

#if defined(SWARM_KERNELS_ROBOT_IK_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_ROBOT_IK_INL_H_
#undef SWARM_KERNELS_ROBOT_IK_INL_H_
#else
#define SWARM_KERNELS_ROBOT_IK_INL_H_
#endif

#include <cstddef>

#include "hwy/highway.h"
#include "swarm/kernels/loop-inl.h"
#include "swarm/kernels/quaternion_math-inl.h"
#include "swarm/kernels/robot_ik.h"
#include "swarm/kernels/views.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

inline constexpr size_t kIkTaskRows = 6;

// Array pointers hoisted out of the views (see kernels/loop-inl.h InOutLanes for why). q and q_out
// may be the same arrays, so they are not restrict-qualified.
struct IkArrays {
  const float* HWY_RESTRICT link[7];
  const float* HWY_RESTRICT target[7];
  const float* HWY_RESTRICT jacobian;
  size_t jacobian_stride;
  const float* q;
  size_t q_stride;
  float* q_out;
  size_t q_out_stride;
  size_t joint_count;

  IkArrays(const ConstLanesView& link_pose, const ConstLanesView& target_pose,
           const ConstLanesView& jacobian_view, const ConstLanesView& q_view,
           const LanesView& q_out_view, size_t joints)
      : jacobian(jacobian_view.data),
        jacobian_stride(jacobian_view.stride),
        q(q_view.data),
        q_stride(q_view.stride),
        q_out(q_out_view.data),
        q_out_stride(q_out_view.stride),
        joint_count(joints) {
    for (size_t k = 0; k < 7; ++k) {
      link[k] = link_pose.Array(k);
      target[k] = target_pose.Array(k);
    }
  }

  const float* J(size_t row, size_t column) const {
    return jacobian + (row * joint_count + column) * jacobian_stride;
  }
};

// The per-call scalars, broadcast once.
template <class V>
struct IkConstants {
  V two_weight, weight, weight_squared, lambda_squared, max_step;
};

// W e for lanes i.. (kernels/robot_ik.h): position error, then 2 w vec(q_target q_link^*) in the
// hemisphere w >= 0, chosen per lane by the sign of the error quaternion's w.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void PoseErrorVector(D d, const IkArrays& arrays, size_t i, V two_weight,
                                V e[kIkTaskRows]) {
  for (size_t k = 0; k < 3; ++k) {
    e[k] = hn::Sub(hn::LoadU(d, arrays.target[k] + i), hn::LoadU(d, arrays.link[k] + i));
  }
  const QuatV<V> target{hn::LoadU(d, arrays.target[3] + i), hn::LoadU(d, arrays.target[4] + i),
                        hn::LoadU(d, arrays.target[5] + i), hn::LoadU(d, arrays.target[6] + i)};
  const QuatV<V> link{hn::LoadU(d, arrays.link[3] + i), hn::LoadU(d, arrays.link[4] + i),
                      hn::LoadU(d, arrays.link[5] + i), hn::LoadU(d, arrays.link[6] + i)};
  const QuatV<V> error = Multiply(target, Conjugate(link));
  const auto flip = hn::Lt(error.w, hn::Zero(d));
  e[3] = hn::Mul(hn::IfThenElse(flip, hn::Neg(error.x), error.x), two_weight);
  e[4] = hn::Mul(hn::IfThenElse(flip, hn::Neg(error.y), error.y), two_weight);
  e[5] = hn::Mul(hn::IfThenElse(flip, hn::Neg(error.z), error.z), two_weight);
}

// Returns W y with y = ((W J)(W J)^T + lambda^2 I)^-1 W e, by LDL^T without pivoting: the matrix
// is symmetric positive definite for lambda > 0, so every pivot D[j] >= lambda^2 > 0 in exact
// arithmetic and the factorisation needs no square roots (unlike Cholesky) and no row exchanges.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void SolveTaskSpaceVector(D d, const IkArrays& arrays, size_t i,
                                     const IkConstants<V>& constants, const V e[kIkTaskRows],
                                     V y[kIkTaskRows]) {
  // a[r][s], s <= r: sums over the joint columns in increasing order.
  V a[kIkTaskRows][kIkTaskRows];
  {
    V column[kIkTaskRows];
    for (size_t r = 0; r < kIkTaskRows; ++r) column[r] = hn::LoadU(d, arrays.J(r, 0) + i);
    for (size_t r = 0; r < kIkTaskRows; ++r) {
      for (size_t s = 0; s <= r; ++s) a[r][s] = hn::Mul(column[r], column[s]);
    }
  }
  for (size_t c = 1; c < arrays.joint_count; ++c) {
    V column[kIkTaskRows];
    for (size_t r = 0; r < kIkTaskRows; ++r) column[r] = hn::LoadU(d, arrays.J(r, c) + i);
    for (size_t r = 0; r < kIkTaskRows; ++r) {
      for (size_t s = 0; s <= r; ++s) a[r][s] = hn::Add(a[r][s], hn::Mul(column[r], column[s]));
    }
  }
  for (size_t r = 3; r < kIkTaskRows; ++r) {
    for (size_t s = 0; s <= r; ++s) {
      a[r][s] = hn::Mul(a[r][s], s >= 3 ? constants.weight_squared : constants.weight);
    }
  }
  for (size_t r = 0; r < kIkTaskRows; ++r) a[r][r] = hn::Add(a[r][r], constants.lambda_squared);

  V l[kIkTaskRows][kIkTaskRows];
  V diagonal[kIkTaskRows];
  for (size_t j = 0; j < kIkTaskRows; ++j) {
    V scaled[kIkTaskRows];
    for (size_t k = 0; k < j; ++k) scaled[k] = hn::Mul(l[j][k], diagonal[k]);
    V pivot = a[j][j];
    for (size_t k = 0; k < j; ++k) pivot = hn::Sub(pivot, hn::Mul(l[j][k], scaled[k]));
    diagonal[j] = pivot;
    for (size_t r = j + 1; r < kIkTaskRows; ++r) {
      V sum = a[r][j];
      for (size_t k = 0; k < j; ++k) sum = hn::Sub(sum, hn::Mul(l[r][k], scaled[k]));
      l[r][j] = hn::Div(sum, pivot);
    }
  }
  V z[kIkTaskRows];
  for (size_t r = 0; r < kIkTaskRows; ++r) {
    V sum = e[r];
    for (size_t k = 0; k < r; ++k) sum = hn::Sub(sum, hn::Mul(l[r][k], z[k]));
    z[r] = sum;
  }
  for (size_t r = kIkTaskRows; r-- > 0;) {
    V sum = hn::Div(z[r], diagonal[r]);
    for (size_t k = r + 1; k < kIkTaskRows; ++k) sum = hn::Sub(sum, hn::Mul(l[k][r], y[k]));
    y[r] = sum;
  }
  for (size_t r = 3; r < kIkTaskRows; ++r) y[r] = hn::Mul(y[r], constants.weight);
}

// dq[c] = J[.][c] . y, summed over the rows in order.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V JointStepVector(D d, const IkArrays& arrays, size_t i, size_t c,
                             const V y[kIkTaskRows]) {
  V dq = hn::Mul(hn::LoadU(d, arrays.J(0, c) + i), y[0]);
  for (size_t k = 1; k < kIkTaskRows; ++k) {
    dq = hn::Add(dq, hn::Mul(hn::LoadU(d, arrays.J(k, c) + i), y[k]));
  }
  return dq;
}

inline void DampedLeastSquaresStepImpl(const JointControl* joints, size_t joint_count,
                                       const ConstLanesView& link_pose,
                                       const ConstLanesView& target_pose,
                                       const ConstLanesView& jacobian, const ConstLanesView& q,
                                       const LanesView& q_out, const IkParams& params) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const IkArrays arrays(link_pose, target_pose, jacobian, q, q_out, joint_count);
  const float weight = params.orientation_weight;
  const IkConstants<V> constants{
      hn::Set(d, 2.0f * weight), hn::Set(d, weight), hn::Set(d, weight * weight),
      hn::Set(d, params.damping * params.damping), hn::Set(d, params.max_step)};
  ForEachVector(d, q_out.count, [&](size_t i, auto store) HWY_ATTR {
    V e[kIkTaskRows];
    PoseErrorVector(d, arrays, i, constants.two_weight, e);
    V y[kIkTaskRows];
    SolveTaskSpaceVector(d, arrays, i, constants, e, y);

    // Uniform scaling keeps the step's direction; the compare ignores NaN (never selected).
    V largest = hn::Zero(d);
    for (size_t c = 0; c < joint_count; ++c) {
      const V size = hn::Abs(JointStepVector(d, arrays, i, c, y));
      largest = hn::IfThenElse(hn::Gt(size, largest), size, largest);
    }
    const V scale = hn::IfThenElse(hn::Gt(largest, constants.max_step),
                                   hn::Div(constants.max_step, largest), hn::Set(d, 1.0f));

    for (size_t c = 0; c < joint_count; ++c) {
      const V dq = JointStepVector(d, arrays, i, c, y);
      V value = hn::Add(hn::LoadU(d, arrays.q + c * arrays.q_stride + i), hn::Mul(dq, scale));
      const V lower = hn::Set(d, joints[c].lower);
      const V upper = hn::Set(d, joints[c].upper);
      value = hn::IfThenElse(hn::Lt(value, lower), lower, value);
      value = hn::IfThenElse(hn::Gt(value, upper), upper, value);
      store(value, d, arrays.q_out + c * arrays.q_out_stride + i);
    }
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_ROBOT_IK_INL_H_
