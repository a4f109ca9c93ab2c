// Per-target code of the robot kinematics kernels (swarm/kernels/robots/robot_kinematics.h).
//
// Schedule: robots are cut into tiles of kKinematicsTileRobots; within a tile the joints run in
// order (outer loop) over the tile's vectors (inner loop). A tile's link poses stay in cache
// between a parent and its children, each joint's constants are broadcast once per tile, its
// evaluation formula (kernels/robots/robot_joint_plan.h) is chosen once per tile, and the tile's
// vectors are independent dependency chains the core overlaps. Robots never interact, so the tiling
// changes no result.
//
// The last vector of a batch may be partial: it computes every lane (the padding of the input
// arrays makes the loads safe) but stores only the valid ones (StoreFirst), and a child reloads
// its parent from the output, so lanes past the count carry meaningless values that are never
// written anywhere.

#if defined(SWARM_KERNELS_ROBOT_KINEMATICS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_ROBOT_KINEMATICS_INL_H_
#undef SWARM_KERNELS_ROBOT_KINEMATICS_INL_H_
#else
#define SWARM_KERNELS_ROBOT_KINEMATICS_INL_H_
#endif

#include <algorithm>
#include <cstddef>

#include "hwy/highway.h"
#include "kernels/base/deterministic_math-inl.h"
#include "kernels/base/loop-inl.h"
#include "kernels/geometry/quaternion_math-inl.h"
#include "kernels/robots/robot_joint_plan.h"
#include "swarm/kernels/robots/robot_kinematics.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// A multiple of every target's lane count. 1024 robots keep a UR5 tile's poses (8 links x 7
// arrays x 4 KiB) in L2 with a parent's arrays still in L1 when its children run, and give each
// of the ~60 lane arrays a 4 KiB run, long enough for the hardware prefetchers once a batch
// outgrows the caches (measured on AVX-512: 64-robot tiles were up to 2x slower from R = 1e5 on,
// equal in cache).
inline constexpr size_t kKinematicsTileRobots = 1024;

// Hoisted lane arrays of a LanesView: array a of the view starts at data + a * stride.
struct LanesBase {
  float* HWY_RESTRICT data;
  size_t stride;
  float* Array(size_t a) const { return data + a * stride; }
};
struct ConstLanesBase {
  const float* HWY_RESTRICT data;
  size_t stride;
  const float* Array(size_t a) const { return data + a * stride; }
};

// A link pose travels as its seven components in the order of its arrays, px py pz qx qy qz qw
// (translation t, then rotation q), each one vector of robots.
template <class D, class Base, class V = hn::Vec<D>>
HWY_INLINE void LoadLinkPose(D d, const Base& poses, size_t link, size_t i, V& tx, V& ty, V& tz,
                             V& qx, V& qy, V& qz, V& qw) {
  const auto* p = poses.Array(kPoseArrays * link) + i;
  const size_t s = poses.stride;
  tx = hn::LoadU(d, p);
  ty = hn::LoadU(d, p + s);
  tz = hn::LoadU(d, p + 2 * s);
  qx = hn::LoadU(d, p + 3 * s);
  qy = hn::LoadU(d, p + 4 * s);
  qz = hn::LoadU(d, p + 5 * s);
  qw = hn::LoadU(d, p + 6 * s);
}

template <class D, class Store, class V = hn::Vec<D>>
HWY_INLINE void StoreLinkPose(D d, V tx, V ty, V tz, V qx, V qy, V qz, V qw, const LanesBase& poses,
                              size_t link, size_t i, Store store) {
  float* p = poses.Array(kPoseArrays * link) + i;
  const size_t s = poses.stride;
  store(tx, d, p);
  store(ty, d, p + s);
  store(tz, d, p + 2 * s);
  store(qx, d, p + 3 * s);
  store(qy, d, p + 4 * s);
  store(qz, d, p + 5 * s);
  store(qw, d, p + 6 * s);
}

// a = a (b_k e_k, b_w) in place, the sparse Hamilton product of kernels/robots/robot_joint_plan.h,
// with (a_k, a_i, a_j) the components of a along axis k and the two axes after it in cyclic order.
template <class V>
HWY_INLINE void SparseProductCyclic(V b_k, V b_w, V& a_k, V& a_i, V& a_j, V& a_w) {
  const V k = a_k, i = a_i, j = a_j, w = a_w;
  a_w = hn::Sub(hn::Mul(w, b_w), hn::Mul(k, b_k));
  a_k = hn::Add(hn::Mul(w, b_k), hn::Mul(k, b_w));
  a_i = hn::Add(hn::Mul(i, b_w), hn::Mul(j, b_k));
  a_j = hn::Sub(hn::Mul(j, b_w), hn::Mul(i, b_k));
}

// q = q (b_k e_k, b_w) in place for axis k = 0, 1, 2: the components are passed in the cyclic
// order starting at k, so each branch is the same product on named registers.
template <class V>
HWY_INLINE void SparseProduct(int k, V b_k, V b_w, V& qx, V& qy, V& qz, V& qw) {
  if (k == 0) return SparseProductCyclic(b_k, b_w, qx, qy, qz, qw);
  if (k == 1) return SparseProductCyclic(b_k, b_w, qy, qz, qx, qw);
  return SparseProductCyclic(b_k, b_w, qz, qx, qy, qw);
}

// Link 0's pose for the vector of robots at q element q_i.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void RootPose(D d, const KinematicTree& tree, const ConstLanesBase& q, size_t q_i, V& tx,
                         V& ty, V& tz, V& qx, V& qy, V& qz, V& qw) {
  if (tree.floating_base) {
    // q: x y z qw qx qy qz.
    tx = hn::LoadU(d, q.Array(0) + q_i);
    ty = hn::LoadU(d, q.Array(1) + q_i);
    tz = hn::LoadU(d, q.Array(2) + q_i);
    Normalize(hn::LoadU(d, q.Array(4) + q_i), hn::LoadU(d, q.Array(5) + q_i),
              hn::LoadU(d, q.Array(6) + q_i), hn::LoadU(d, q.Array(3) + q_i), qx, qy, qz, qw);
    return;
  }
  const V zero = hn::Zero(d);
  tx = zero, ty = zero, tz = zero;
  qx = zero, qy = zero, qz = zero, qw = hn::Set(d, 1.0f);
}

// Link joint_index + 1 = parent o origin o motion (kernels/robots/robot_joint_plan.h) for the
// robots [begin, end) of a tile: the parent's pose is read from `poses` (written by an earlier
// joint), the joint value from the joint's q array. The joint's constants are broadcast once into
// named registers before the loop over the tile's vectors, and its plan picks the formula.
template <class D>
HWY_INLINE void EvaluateJoint(D d, const KinematicTree& tree, size_t joint_index,
                              const ConstLanesBase& q, const LanesBase& poses, size_t begin,
                              size_t end) {
  using V = hn::Vec<D>;
  const KinematicJoint& joint = tree.joints[joint_index];
  const JointPlan plan = PlanJoint(tree, joint_index);
  const JointMotion motion = joint.motion;
  const size_t parent_link = joint.parent_link;
  const float* HWY_RESTRICT value_array =
      joint.q_index >= 0 ? q.Array(tree.joint_q_begin() + static_cast<size_t>(joint.q_index))
                         : nullptr;
  const float* r = joint.origin_rotation;
  const V origin_qx = hn::Set(d, r[0]), origin_qy = hn::Set(d, r[1]), origin_qz = hn::Set(d, r[2]),
          origin_qw = hn::Set(d, r[3]);
  // The one nonzero vector component of a kCoordinateAxis origin rotation.
  const V origin_q_axis =
      plan.origin_axis == 0 ? origin_qx : (plan.origin_axis == 1 ? origin_qy : origin_qz);
  const float* t = joint.origin_translation;
  const V origin_tx = hn::Set(d, t[0]), origin_ty = hn::Set(d, t[1]), origin_tz = hn::Set(d, t[2]);
  const V axis_x = hn::Set(d, joint.axis[0]), axis_y = hn::Set(d, joint.axis[1]),
          axis_z = hn::Set(d, joint.axis[2]);
  const V multiplier = hn::Set(d, joint.multiplier), offset = hn::Set(d, joint.offset);
  const V half = hn::Set(d, 0.5f);
  ForEachVectorIn(d, begin, end, [&](size_t i, auto store) HWY_ATTR {
    // parent o origin.
    V tx, ty, tz, qx, qy, qz, qw;
    if (plan.parent_is_fixed_root) {
      tx = origin_tx, ty = origin_ty, tz = origin_tz;
      qx = origin_qx, qy = origin_qy, qz = origin_qz, qw = origin_qw;
    } else {
      V parent_tx, parent_ty, parent_tz, parent_qx, parent_qy, parent_qz, parent_qw;
      LoadLinkPose(d, poses, parent_link, i, parent_tx, parent_ty, parent_tz, parent_qx, parent_qy,
                   parent_qz, parent_qw);
      qx = parent_qx, qy = parent_qy, qz = parent_qz, qw = parent_qw;
      if (plan.origin_rotation == OriginRotation::kCoordinateAxis) {
        SparseProduct(plan.origin_axis, origin_q_axis, origin_qw, qx, qy, qz, qw);
      } else if (plan.origin_rotation == OriginRotation::kGeneral) {
        Multiply(parent_qx, parent_qy, parent_qz, parent_qw, origin_qx, origin_qy, origin_qz,
                 origin_qw, qx, qy, qz, qw);
      }
      tx = parent_tx, ty = parent_ty, tz = parent_tz;
      if (!plan.origin_translation_zero) {
        Rotate(parent_qx, parent_qy, parent_qz, parent_qw, origin_tx, origin_ty, origin_tz, tx, ty,
               tz);
        tx = hn::Add(tx, parent_tx);
        ty = hn::Add(ty, parent_ty);
        tz = hn::Add(tz, parent_tz);
      }
    }
    // o motion(value).
    if (motion != JointMotion::kFixed) {
      V value = hn::LoadU(d, value_array + i);
      if (plan.scaled_value) value = hn::Add(hn::Mul(multiplier, value), offset);
      if (motion == JointMotion::kRevolute) {
        V s, c;
        SinCos(d, hn::Mul(value, half), s, c);
        if (plan.motion_axis >= 0) {
          SparseProduct(plan.motion_axis, plan.motion_axis_negative ? hn::Neg(s) : s, c, qx, qy, qz,
                        qw);
        } else {
          Multiply(qx, qy, qz, qw, hn::Mul(axis_x, s), hn::Mul(axis_y, s), hn::Mul(axis_z, s), c,
                   qx, qy, qz, qw);
        }
      } else {
        V shift_x, shift_y, shift_z;
        Rotate(qx, qy, qz, qw, hn::Mul(axis_x, value), hn::Mul(axis_y, value),
               hn::Mul(axis_z, value), shift_x, shift_y, shift_z);
        tx = hn::Add(shift_x, tx);
        ty = hn::Add(shift_y, ty);
        tz = hn::Add(shift_z, tz);
      }
    }
    StoreLinkPose(d, tx, ty, tz, qx, qy, qz, qw, poses, joint_index + 1, i, store);
  });
}

inline void ForwardKinematicsImpl(const KinematicTree& tree, const ConstLanesView& q_view,
                                  const LanesView& poses_view) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const ConstLanesBase q{q_view.data, q_view.stride};
  const LanesBase poses{poses_view.data, poses_view.stride};
  const size_t count = poses_view.count;
  for (size_t tile = 0; tile < count; tile += kKinematicsTileRobots) {
    const size_t end = std::min(count, tile + kKinematicsTileRobots);
    ForEachVectorIn(d, tile, end, [&](size_t i, auto store) HWY_ATTR {
      V tx, ty, tz, qx, qy, qz, qw;
      RootPose(d, tree, q, i, tx, ty, tz, qx, qy, qz, qw);
      StoreLinkPose(d, tx, ty, tz, qx, qy, qz, qw, poses, 0, i, store);
    });
    for (size_t joint_index = 0; joint_index < tree.joint_count; ++joint_index) {
      EvaluateJoint(d, tree, joint_index, q, poses, tile, end);
    }
  }
}

// True if link `ancestor` is `link` or lies on the path from the root to `link`.
inline bool OnPathToLink(const KinematicTree& tree, size_t ancestor, size_t link) {
  while (link > ancestor) link = tree.joints[link - 1].parent_link;
  return link == ancestor;
}

// Jacobian columns start at zero and each joint on the path adds its (scaled) contribution in
// joint index order: col = col + multiplier * (z x (p_link - p), z) for a revolute joint,
// col.linear = col.linear + multiplier * z for a prismatic one (angular rows untouched), with
// z = Rotate(q_child, axis) and p = t_child; the multiplication is skipped for multiplier 1.
inline void LinkJacobianImpl(const KinematicTree& tree, size_t link,
                             const ConstLanesView& poses_view, const LanesView& jacobian_view) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const ConstLanesBase poses{poses_view.data, poses_view.stride};
  const LanesBase jacobian{jacobian_view.data, jacobian_view.stride};
  const size_t columns = tree.joint_q_count();
  const size_t count = jacobian_view.count;
  for (size_t tile = 0; tile < count; tile += kKinematicsTileRobots) {
    const size_t end = std::min(count, tile + kKinematicsTileRobots);
    const V zero = hn::Zero(d);
    for (size_t a = 0; a < 6 * columns; ++a) {
      ForEachVectorIn(d, tile, end, [&](size_t i, auto store) HWY_ATTR {
        store(zero, d, jacobian.Array(a) + i);
      });
    }
    for (size_t joint_index = 0; joint_index < link; ++joint_index) {
      const KinematicJoint& joint = tree.joints[joint_index];
      if (joint.motion == JointMotion::kFixed || !OnPathToLink(tree, joint_index + 1, link)) {
        continue;
      }
      const bool revolute = joint.motion == JointMotion::kRevolute;
      const bool scaled = joint.multiplier != 1.0f;
      const V multiplier = hn::Set(d, joint.multiplier);
      const V axis_x = hn::Set(d, joint.axis[0]), axis_y = hn::Set(d, joint.axis[1]),
              axis_z = hn::Set(d, joint.axis[2]);
      const size_t column = static_cast<size_t>(joint.q_index);
      ForEachVectorIn(d, tile, end, [&](size_t i, auto store) HWY_ATTR {
        // jacobian(row, column) += (multiplier *) contribution.
        const auto accumulate = [&](size_t row, V contribution) HWY_ATTR {
          float* out = jacobian.Array(row * columns + column) + i;
          if (scaled) contribution = hn::Mul(contribution, multiplier);
          store(hn::Add(hn::LoadU(d, out), contribution), d, out);
        };
        V child_tx, child_ty, child_tz, child_qx, child_qy, child_qz, child_qw;
        LoadLinkPose(d, poses, joint_index + 1, i, child_tx, child_ty, child_tz, child_qx, child_qy,
                     child_qz, child_qw);
        V zx, zy, zz;
        Rotate(child_qx, child_qy, child_qz, child_qw, axis_x, axis_y, axis_z, zx, zy, zz);
        if (revolute) {
          V end_tx, end_ty, end_tz, end_qx, end_qy, end_qz, end_qw;
          LoadLinkPose(d, poses, link, i, end_tx, end_ty, end_tz, end_qx, end_qy, end_qz, end_qw);
          V linear_x, linear_y, linear_z;
          Cross(zx, zy, zz, hn::Sub(end_tx, child_tx), hn::Sub(end_ty, child_ty),
                hn::Sub(end_tz, child_tz), linear_x, linear_y, linear_z);
          accumulate(0, linear_x);
          accumulate(1, linear_y);
          accumulate(2, linear_z);
          accumulate(3, zx);
          accumulate(4, zy);
          accumulate(5, zz);
        } else {
          accumulate(0, zx);
          accumulate(1, zy);
          accumulate(2, zz);
        }
      });
    }
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_ROBOT_KINEMATICS_INL_H_
