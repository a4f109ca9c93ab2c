// Per-target code of the robot kinematics kernels (kernels/robot_kinematics.h).
//
// Schedule: robots are cut into tiles of kKinematicsTileRobots; within a tile the joints run in
// order (outer loop) over the tile's vectors (inner loop). A tile's link poses stay in cache
// between a parent and its children, each joint's constants are broadcast once per tile, its
// evaluation formula (kernels/robot_joint_plan.h) is chosen once per tile, and the tile's vectors
// are independent dependency chains the core overlaps. Robots never interact,
// so the tiling changes no result.
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
#include "swarm/kernels/deterministic_math-inl.h"
#include "swarm/kernels/loop-inl.h"
#include "swarm/kernels/quaternion_math-inl.h"
#include "swarm/kernels/robot_joint_plan.h"
#include "swarm/kernels/robot_kinematics.h"

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

template <class V>
struct PoseV {
  QuatV<V> q;
  Vec3V<V> t;
};

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

template <class D, class Base>
HWY_INLINE PoseV<hn::Vec<D>> LoadLinkPose(D d, const Base& poses, size_t link, size_t i) {
  const auto* p = poses.Array(kPoseArrays * link) + i;
  const size_t s = poses.stride;
  return {{hn::LoadU(d, p + 3 * s), hn::LoadU(d, p + 4 * s), hn::LoadU(d, p + 5 * s),
           hn::LoadU(d, p + 6 * s)},
          {hn::LoadU(d, p), hn::LoadU(d, p + s), hn::LoadU(d, p + 2 * s)}};
}

template <class D, class Store>
HWY_INLINE void StoreLinkPose(D d, const PoseV<hn::Vec<D>>& pose, const LanesBase& poses,
                              size_t link, size_t i, Store store) {
  float* p = poses.Array(kPoseArrays * link) + i;
  const size_t s = poses.stride;
  store(pose.t.x, d, p);
  store(pose.t.y, d, p + s);
  store(pose.t.z, d, p + 2 * s);
  store(pose.q.x, d, p + 3 * s);
  store(pose.q.y, d, p + 4 * s);
  store(pose.q.z, d, p + 5 * s);
  store(pose.q.w, d, p + 6 * s);
}

// a (b_k e_k, b_w): the sparse Hamilton product of kernels/robot_joint_plan.h, with the axis
// fixed at compile time so the quaternion stays in registers.
template <int K, class V>
HWY_INLINE QuatV<V> SparseProductAbout(const QuatV<V>& a, V b_k, V b_w) {
  V comp[3] = {a.x, a.y, a.z};
  constexpr int I = K == 2 ? 0 : K + 1;
  constexpr int J = I == 2 ? 0 : I + 1;
  V out[3];
  const V w = hn::Sub(hn::Mul(a.w, b_w), hn::Mul(comp[K], b_k));
  out[K] = hn::Add(hn::Mul(a.w, b_k), hn::Mul(comp[K], b_w));
  out[I] = hn::Add(hn::Mul(comp[I], b_w), hn::Mul(comp[J], b_k));
  out[J] = hn::Sub(hn::Mul(comp[J], b_w), hn::Mul(comp[I], b_k));
  return {out[0], out[1], out[2], w};
}

template <class V>
HWY_INLINE QuatV<V> SparseProduct(const QuatV<V>& a, int k, V b_k, V b_w) {
  if (k == 0) return SparseProductAbout<0>(a, b_k, b_w);
  if (k == 1) return SparseProductAbout<1>(a, b_k, b_w);
  return SparseProductAbout<2>(a, b_k, b_w);
}

// Component k (0, 1, 2) of a quaternion's vector part.
template <class V>
HWY_INLINE V Component(const QuatV<V>& q, int k) {
  return k == 0 ? q.x : (k == 1 ? q.y : q.z);
}

// One joint's constants broadcast to every lane, and how to combine them.
template <class D>
struct JointVectors {
  using V = hn::Vec<D>;
  JointPlan plan;
  JointMotion motion;
  QuatV<V> origin_q;
  Vec3V<V> origin_t;
  Vec3V<V> axis;
  V multiplier, offset, half;
  const float* HWY_RESTRICT value;  // q array of this joint (unused for fixed joints)
  size_t parent_link;

  JointVectors(D d, const KinematicTree& tree, size_t joint_index, const ConstLanesBase& q)
      : JointVectors(d, tree, joint_index, q, PlanJoint(tree, joint_index)) {}

  JointVectors(D d, const KinematicTree& tree, size_t joint_index, const ConstLanesBase& q,
               const JointPlan& joint_plan)
      : plan(joint_plan) {
    const KinematicJoint& joint = tree.joints[joint_index];
    motion = joint.motion;
    const float* r = joint.origin_rotation;
    origin_q = {hn::Set(d, r[0]), hn::Set(d, r[1]), hn::Set(d, r[2]), hn::Set(d, r[3])};
    const float* t = joint.origin_translation;
    origin_t = {hn::Set(d, t[0]), hn::Set(d, t[1]), hn::Set(d, t[2])};
    axis = {hn::Set(d, joint.axis[0]), hn::Set(d, joint.axis[1]), hn::Set(d, joint.axis[2])};
    multiplier = hn::Set(d, joint.multiplier);
    offset = hn::Set(d, joint.offset);
    half = hn::Set(d, 0.5f);
    value = joint.q_index >= 0 ? q.Array(tree.joint_q_begin() + static_cast<size_t>(joint.q_index))
                               : nullptr;
    parent_link = joint.parent_link;
  }
};

// parent o origin o motion for one vector of robots (kernels/robot_joint_plan.h): the parent
// pose at element i of `poses`, the joint value at element q_i of its q array.
template <class D>
HWY_INLINE PoseV<hn::Vec<D>> EvaluateJoint(D d, const JointVectors<D>& joint,
                                           const LanesBase& poses, size_t i, size_t q_i) {
  using V = hn::Vec<D>;
  const JointPlan& plan = joint.plan;
  PoseV<V> pose;
  if (plan.parent_is_fixed_root) {
    pose = {joint.origin_q, joint.origin_t};
  } else {
    const PoseV<V> parent = LoadLinkPose(d, poses, joint.parent_link, i);
    if (plan.origin_rotation == OriginRotation::kIdentity) {
      pose.q = parent.q;
    } else if (plan.origin_rotation == OriginRotation::kCoordinateAxis) {
      pose.q = SparseProduct(parent.q, plan.origin_axis,
                             Component(joint.origin_q, plan.origin_axis), joint.origin_q.w);
    } else {
      pose.q = Multiply(parent.q, joint.origin_q);
    }
    pose.t = plan.origin_translation_zero ? parent.t
                                          : AddVec3(Rotate(parent.q, joint.origin_t), parent.t);
  }
  if (joint.motion == JointMotion::kFixed) return pose;
  V value = hn::LoadU(d, joint.value + q_i);
  if (plan.scaled_value) value = hn::Add(hn::Mul(joint.multiplier, value), joint.offset);
  if (joint.motion == JointMotion::kRevolute) {
    V s, c;
    SinCos(d, hn::Mul(value, joint.half), s, c);
    if (plan.motion_axis >= 0) {
      pose.q =
          SparseProduct(pose.q, plan.motion_axis, plan.motion_axis_negative ? hn::Neg(s) : s, c);
    } else {
      const QuatV<V> motion{hn::Mul(joint.axis.x, s), hn::Mul(joint.axis.y, s),
                            hn::Mul(joint.axis.z, s), c};
      pose.q = Multiply(pose.q, motion);
    }
  } else {
    const Vec3V<V> shift{hn::Mul(joint.axis.x, value), hn::Mul(joint.axis.y, value),
                         hn::Mul(joint.axis.z, value)};
    pose.t = AddVec3(Rotate(pose.q, shift), pose.t);
  }
  return pose;
}

// Link 0's pose for the vector of robots at q element q_i.
template <class D>
HWY_INLINE PoseV<hn::Vec<D>> RootPose(D d, const KinematicTree& tree, const ConstLanesBase& q,
                                      size_t q_i) {
  using V = hn::Vec<D>;
  if (tree.floating_base) {
    // q: x y z qw qx qy qz.
    const QuatV<V> rotation{hn::LoadU(d, q.Array(4) + q_i), hn::LoadU(d, q.Array(5) + q_i),
                            hn::LoadU(d, q.Array(6) + q_i), hn::LoadU(d, q.Array(3) + q_i)};
    return {Normalize(rotation),
            {hn::LoadU(d, q.Array(0) + q_i), hn::LoadU(d, q.Array(1) + q_i),
             hn::LoadU(d, q.Array(2) + q_i)}};
  }
  const V zero = hn::Zero(d);
  return {{zero, zero, zero, hn::Set(d, 1.0f)}, {zero, zero, zero}};
}

inline void ForwardKinematicsImpl(const KinematicTree& tree, const ConstLanesView& q_view,
                                  const LanesView& poses_view) {
  const hn::ScalableTag<float> d;
  const ConstLanesBase q{q_view.data, q_view.stride};
  const LanesBase poses{poses_view.data, poses_view.stride};
  const size_t count = poses_view.count;
  for (size_t tile = 0; tile < count; tile += kKinematicsTileRobots) {
    const size_t end = std::min(count, tile + kKinematicsTileRobots);
    ForEachVectorIn(d, tile, end, [&](size_t i, auto store) HWY_ATTR {
      StoreLinkPose(d, RootPose(d, tree, q, i), poses, 0, i, store);
    });
    for (size_t joint_index = 0; joint_index < tree.joint_count; ++joint_index) {
      const JointVectors<hn::ScalableTag<float>> joint(d, tree, joint_index, q);
      ForEachVectorIn(d, tile, end, [&](size_t i, auto store) HWY_ATTR {
        StoreLinkPose(d, EvaluateJoint(d, joint, poses, i, i), poses, joint_index + 1, i, store);
      });
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
      const Vec3V<V> axis{hn::Set(d, joint.axis[0]), hn::Set(d, joint.axis[1]),
                          hn::Set(d, joint.axis[2])};
      const size_t column = static_cast<size_t>(joint.q_index);
      ForEachVectorIn(d, tile, end, [&](size_t i, auto store) HWY_ATTR {
        const PoseV<V> child = LoadLinkPose(d, poses, joint_index + 1, i);
        const Vec3V<V> z = Rotate(child.q, axis);
        V rows[6];
        size_t row_count = 3;
        if (revolute) {
          const PoseV<V> end_link = LoadLinkPose(d, poses, link, i);
          const Vec3V<V> lever{hn::Sub(end_link.t.x, child.t.x), hn::Sub(end_link.t.y, child.t.y),
                               hn::Sub(end_link.t.z, child.t.z)};
          const Vec3V<V> linear = Cross(z, lever);
          rows[0] = linear.x, rows[1] = linear.y, rows[2] = linear.z;
          rows[3] = z.x, rows[4] = z.y, rows[5] = z.z;
          row_count = 6;
        } else {
          rows[0] = z.x, rows[1] = z.y, rows[2] = z.z;
        }
        for (size_t row = 0; row < row_count; ++row) {
          float* out = jacobian.Array(row * columns + column) + i;
          const V contribution = scaled ? hn::Mul(rows[row], multiplier) : rows[row];
          store(hn::Add(hn::LoadU(d, out), contribution), d, out);
        }
      });
    }
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_ROBOT_KINEMATICS_INL_H_
