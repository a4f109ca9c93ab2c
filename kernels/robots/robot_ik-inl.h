// Per-target code of the damped-least-squares IK step (swarm/kernels/robots/robot_ik.h). Every lane
// is one robot and runs exactly the sequence of operations listed in
// swarm/kernels/robots/robot_ik_reference.h.
//
// The weighted problem. With W = diag(1, 1, 1, w, w, w) (w = orientation_weight) the step
// minimises |W (e - J dq)|^2 + lambda^2 |dq|^2, whose solution is
//   dq = (W J)^T ((W J)(W J)^T + lambda^2 I)^-1 W e.
// W e is the error of swarm/kernels/robots/robot_ik.h (the orientation part already carries w).
// Weighting the Jacobian's angular rows too is what makes w = 0 a position-only step: the angular
// block of the system becomes lambda^2 I with a zero right-hand side, so it neither pulls nor
// resists. The weight is applied to the 6x6 system rather than to the 6 n Jacobian entries: (W J)(W
// J)^T is J J^T with its angular-angular block times w^2 and its mixed block times w, and (W J)^T y
// is J^T (W y).
//
// Registers. A vector of robots keeps its 6 errors, the 21 distinct entries of the symmetric
// matrix, its 15 + 6 LDL^T factors and the 6 solution values in VectorScratch slots (SVE vectors
// cannot be array elements). Every loop over task rows is unrolled completely (HWY_UNROLL), so
// each slot index is a constant and on x86 the compiler keeps the slots in registers (measured on
// AVX-512, 6 joints: 9.6 ns per robot unrolled, 15.2 ns with the slots left in memory); nothing
// depends on the number of joints, so any joint count works without allocation. The Jacobian is
// read three times per vector (for the matrix, the largest joint step and the final step) instead
// of keeping dq: its 6 n vectors of this group of robots are still in L1, and recomputing dq is
// cheaper than a joint-count-sized scratch array.
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
#include "kernels/base/loop-inl.h"
#include "kernels/base/vector_scratch-inl.h"
#include "kernels/geometry/quaternion_math-inl.h"
#include "swarm/kernels/base/views.h"
#include "swarm/kernels/robots/robot_ik.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

inline constexpr size_t kIkTaskRows = 6;

// Array pointers hoisted out of the views (see kernels/base/loop-inl.h InOutLanes for why). q and
// q_out may be the same arrays, so they are not restrict-qualified.
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

// One vector per task row (errors, right-hand sides, solutions), and the 21 entries r >= s of a
// symmetric or lower triangular 6x6 matrix of vectors, row by row: entry (r, s) is slot
// LowerSlot(r, s). Both are VectorScratch (SVE vectors cannot be array elements).
inline constexpr size_t kIkTriangleSlots = kIkTaskRows * (kIkTaskRows + 1) / 2;
template <class D>
using TaskVectors = VectorScratch<D, kIkTaskRows>;
template <class D>
using LowerTriangle = VectorScratch<D, kIkTriangleSlots>;
constexpr size_t LowerSlot(size_t r, size_t s) { return r * (r + 1) / 2 + s; }

// W e for lanes i.. (swarm/kernels/robots/robot_ik.h): position error, then 2 w vec(q_target
// q_link^*) in the hemisphere w >= 0, chosen per lane by the sign of the error quaternion's w.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void PoseErrorVector(D d, const IkArrays& arrays, size_t i, V two_weight,
                                TaskVectors<D>& e) {
  const auto link = [&](size_t k) HWY_ATTR { return hn::LoadU(d, arrays.link[k] + i); };
  const auto target = [&](size_t k) HWY_ATTR { return hn::LoadU(d, arrays.target[k] + i); };
  for (size_t k = 0; k < 3; ++k) e.Set(d, k, hn::Sub(target(k), link(k)));
  V link_x, link_y, link_z, link_w;
  Conjugate(link(3), link(4), link(5), link(6), link_x, link_y, link_z, link_w);
  V x, y, z, w;
  Multiply(target(3), target(4), target(5), target(6), link_x, link_y, link_z, link_w, x, y, z, w);
  const auto flip = hn::Lt(w, hn::Zero(d));
  e.Set(d, 3, hn::Mul(hn::IfThenElse(flip, hn::Neg(x), x), two_weight));
  e.Set(d, 4, hn::Mul(hn::IfThenElse(flip, hn::Neg(y), y), two_weight));
  e.Set(d, 5, hn::Mul(hn::IfThenElse(flip, hn::Neg(z), z), two_weight));
}

// Returns W y with y = ((W J)(W J)^T + lambda^2 I)^-1 W e, by LDL^T without pivoting: the matrix
// is symmetric positive definite for lambda > 0, so every pivot D[j] >= lambda^2 > 0 in exact
// arithmetic and the factorisation needs no square roots (unlike Cholesky) and no row exchanges.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void SolveTaskSpaceVector(D d, const IkArrays& arrays, size_t i, V weight,
                                     V weight_squared, V lambda_squared, const TaskVectors<D>& e,
                                     TaskVectors<D>& y) {
  // a(r, s), s <= r: sums over the joint columns in increasing order.
  LowerTriangle<D> a;
  TaskVectors<D> column;
  const auto load_column = [&](size_t c) HWY_ATTR {
    HWY_UNROLL(kIkTaskRows)
    for (size_t r = 0; r < kIkTaskRows; ++r) column.Set(d, r, hn::LoadU(d, arrays.J(r, c) + i));
  };
  const auto product = [&](size_t r, size_t s)
                           HWY_ATTR { return hn::Mul(column.Get(d, r), column.Get(d, s)); };
  load_column(0);
  HWY_UNROLL(kIkTaskRows)
  for (size_t r = 0; r < kIkTaskRows; ++r) {
    HWY_UNROLL(kIkTaskRows)
    for (size_t s = 0; s <= r; ++s) a.Set(d, LowerSlot(r, s), product(r, s));
  }
  for (size_t c = 1; c < arrays.joint_count; ++c) {
    load_column(c);
    HWY_UNROLL(kIkTaskRows)
    for (size_t r = 0; r < kIkTaskRows; ++r) {
      HWY_UNROLL(kIkTaskRows)
      for (size_t s = 0; s <= r; ++s) {
        a.Set(d, LowerSlot(r, s), hn::Add(a.Get(d, LowerSlot(r, s)), product(r, s)));
      }
    }
  }
  HWY_UNROLL(kIkTaskRows)
  for (size_t r = 3; r < kIkTaskRows; ++r) {
    HWY_UNROLL(kIkTaskRows)
    for (size_t s = 0; s <= r; ++s) {
      a.Set(d, LowerSlot(r, s),
            hn::Mul(a.Get(d, LowerSlot(r, s)), s >= 3 ? weight_squared : weight));
    }
  }
  HWY_UNROLL(kIkTaskRows)
  for (size_t r = 0; r < kIkTaskRows; ++r) {
    a.Set(d, LowerSlot(r, r), hn::Add(a.Get(d, LowerSlot(r, r)), lambda_squared));
  }

  // The factors in one triangle: l(r, j) of L below the diagonal (L's unit diagonal is implicit)
  // and the pivots D[j] on it.
  LowerTriangle<D> l;
  const auto diagonal = [&](size_t j) HWY_ATTR { return l.Get(d, LowerSlot(j, j)); };
  HWY_UNROLL(kIkTaskRows)
  for (size_t j = 0; j < kIkTaskRows; ++j) {
    TaskVectors<D> scaled;
    HWY_UNROLL(kIkTaskRows)
    for (size_t k = 0; k < j; ++k) {
      scaled.Set(d, k, hn::Mul(l.Get(d, LowerSlot(j, k)), diagonal(k)));
    }
    V pivot = a.Get(d, LowerSlot(j, j));
    HWY_UNROLL(kIkTaskRows)
    for (size_t k = 0; k < j; ++k) {
      pivot = hn::Sub(pivot, hn::Mul(l.Get(d, LowerSlot(j, k)), scaled.Get(d, k)));
    }
    l.Set(d, LowerSlot(j, j), pivot);
    HWY_UNROLL(kIkTaskRows)
    for (size_t r = j + 1; r < kIkTaskRows; ++r) {
      V sum = a.Get(d, LowerSlot(r, j));
      HWY_UNROLL(kIkTaskRows)
      for (size_t k = 0; k < j; ++k) {
        sum = hn::Sub(sum, hn::Mul(l.Get(d, LowerSlot(r, k)), scaled.Get(d, k)));
      }
      l.Set(d, LowerSlot(r, j), hn::Div(sum, pivot));
    }
  }
  TaskVectors<D> z;
  HWY_UNROLL(kIkTaskRows)
  for (size_t r = 0; r < kIkTaskRows; ++r) {
    V sum = e.Get(d, r);
    HWY_UNROLL(kIkTaskRows)
    for (size_t k = 0; k < r; ++k) {
      sum = hn::Sub(sum, hn::Mul(l.Get(d, LowerSlot(r, k)), z.Get(d, k)));
    }
    z.Set(d, r, sum);
  }
  // Back substitution, r = 5 down to 0.
  HWY_UNROLL(kIkTaskRows)
  for (size_t step = 0; step < kIkTaskRows; ++step) {
    const size_t r = kIkTaskRows - 1 - step;
    V sum = hn::Div(z.Get(d, r), diagonal(r));
    HWY_UNROLL(kIkTaskRows)
    for (size_t k = r + 1; k < kIkTaskRows; ++k) {
      sum = hn::Sub(sum, hn::Mul(l.Get(d, LowerSlot(k, r)), y.Get(d, k)));
    }
    y.Set(d, r, sum);
  }
  HWY_UNROLL(kIkTaskRows)
  for (size_t r = 3; r < kIkTaskRows; ++r) y.Set(d, r, hn::Mul(y.Get(d, r), weight));
}

// dq[c] = J[.][c] . y, summed over the rows in order.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V JointStepVector(D d, const IkArrays& arrays, size_t i, size_t c,
                             const TaskVectors<D>& y) {
  V dq = hn::Mul(hn::LoadU(d, arrays.J(0, c) + i), y.Get(d, 0));
  HWY_UNROLL(kIkTaskRows)
  for (size_t k = 1; k < kIkTaskRows; ++k) {
    dq = hn::Add(dq, hn::Mul(hn::LoadU(d, arrays.J(k, c) + i), y.Get(d, k)));
  }
  return dq;
}

inline void DampedLeastSquaresStepImpl(const JointControl* joints, size_t joint_count,
                                       const ConstLanesView& link_pose,
                                       const ConstLanesView& target_pose,
                                       const ConstLanesView& jacobian, const ConstLanesView& q,
                                       const LanesView& q_out, const IkParams& params) {
  using D = hn::ScalableTag<float>;
  using V = hn::Vec<D>;
  const D d;
  const IkArrays arrays(link_pose, target_pose, jacobian, q, q_out, joint_count);
  // The per-call scalars, broadcast once.
  const float w = params.orientation_weight;
  const V two_weight = hn::Set(d, 2.0f * w);
  const V weight = hn::Set(d, w);
  const V weight_squared = hn::Set(d, w * w);
  const V lambda_squared = hn::Set(d, params.damping * params.damping);
  const V max_step = hn::Set(d, params.max_step);
  ForEachVector(d, q_out.count, [&](size_t i, auto store) HWY_ATTR {
    TaskVectors<D> e;
    PoseErrorVector(d, arrays, i, two_weight, e);
    TaskVectors<D> y;
    SolveTaskSpaceVector(d, arrays, i, weight, weight_squared, lambda_squared, e, y);

    // Uniform scaling keeps the step's direction; the compare ignores NaN (never selected).
    V largest = hn::Zero(d);
    for (size_t c = 0; c < joint_count; ++c) {
      const V size = hn::Abs(JointStepVector(d, arrays, i, c, y));
      largest = hn::IfThenElse(hn::Gt(size, largest), size, largest);
    }
    const V scale =
        hn::IfThenElse(hn::Gt(largest, max_step), hn::Div(max_step, largest), hn::Set(d, 1.0f));

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
