// Per-target spatial algebra and scratch slots shared by the robot dynamics algorithms
// (swarm/kernels/robots/dynamics/robot_dynamics.h): rnea-inl.h, crba-inl.h, tree_factor-inl.h
// and aba-inl.h each include it and compile in their own translation unit (rnea.cc, crba.cc,
// tree_factor.cc, aba.cc).
//
//
// Schedule: one vector of robots at a time runs a whole algorithm (forward pass over the bodies,
// backward pass, ...), keeping each body's spatial quantities in scratch slots: slot k is one
// vector at scratch + k * Lanes(d), so a UR5's ~500 slots are 32 KB on AVX-512, in L1. The
// algorithms index bodies and matrix entries in loops, which sizeless SVE vectors cannot do in
// registers (docs/kernel-rules.md); on x86 the compiler forwards most constant-offset slots to
// registers within a body.
//
// Spatial algebra (Featherstone 2008, chapter 2), in body coordinates, angular part first: a
// motion vector m = (w, v), a force f = (n, F). The transform from a parent's coordinates to its
// child's, X = (E, r) with E the rotation from parent to child coordinates and r the child origin
// in the parent's: X m = (E w, E (v - r x w)), and forces go back with X^T f = (E^T n + r x E^T F,
// E^T F). Cross products: m1 x m2 = (w1 x w2, w1 x v2 + v1 x w2), m x* f = (w x n + v x F, w x F).
// A spatial inertia is [[A, B], [B^T, C]] (I m = (A w + B v, B^T w + C v)); a rigid body's is
// A = rotational inertia about the origin, B = h x (h = first moment), C = mass * 1.
//
// The last vector of a batch may be partial: it computes every lane (the inputs' padding makes
// the loads safe) and stores only the valid ones (StoreFirst).

#if defined(SWARM_KERNELS_ROBOTS_DYNAMICS_SPATIAL_ALGEBRA_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_ROBOTS_DYNAMICS_SPATIAL_ALGEBRA_INL_H_
#undef SWARM_KERNELS_ROBOTS_DYNAMICS_SPATIAL_ALGEBRA_INL_H_
#else
#define SWARM_KERNELS_ROBOTS_DYNAMICS_SPATIAL_ALGEBRA_INL_H_
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>

#include "hwy/highway.h"
#include "kernels/base/deterministic_math-inl.h"
#include "kernels/base/loop-inl.h"
#include "kernels/base/row_prefetch.h"
#include "kernels/geometry/quaternion_math-inl.h"
#include "kernels/robots/dynamics/robot_dynamics_layout.h"
#include "swarm/kernels/robots/dynamics/robot_dynamics.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace dl = dynamics_layout;

static_assert(hn::MaxLanes(hn::ScalableTag<float>()) <= kPadFloats,
              "RobotDynamicsScratchFloats sizes a slot as kPadFloats floats");

// Scratch slots of one vector of robots: slot k at base + k * Lanes(d). The stride is the
// target's lane count, a compile-time constant on x86 and NEON, so the compiler sees which slots
// are distinct and forwards stores to later loads.
struct Slots {
  float* HWY_RESTRICT base;
  const float* joints;  // the joint table (dynamics_layout::WriteJointTable)
};

// Hoisted lane arrays of a LanesView (array a at data + a * stride).
struct InLanes {
  const float* HWY_RESTRICT data;
  size_t stride;
  const float* Array(size_t a) const { return data + a * stride; }
};
struct OutLanes {
  float* HWY_RESTRICT data;
  size_t stride;
  float* Array(size_t a) const { return data + a * stride; }
};

template <class D>
HWY_INLINE hn::Vec<D> Get(D d, const Slots& s, size_t slot) {
  return hn::Load(d, s.base + slot * hn::Lanes(d));
}
template <class D, class V>
HWY_INLINE void Put(D d, const Slots& s, size_t slot, V v) {
  hn::Store(v, d, s.base + slot * hn::Lanes(d));
}
template <class D>
HWY_INLINE void PutZero(D d, const Slots& s, size_t first, size_t count) {
  for (size_t k = 0; k < count; ++k) Put(d, s, first + k, hn::Zero(d));
}
template <class D>
HWY_INLINE void CopySlots(D d, const Slots& s, size_t from, size_t to, size_t count) {
  for (size_t k = 0; k < count; ++k) Put(d, s, to + k, Get(d, s, from + k));
}

inline size_t BodySlot(size_t body, size_t field) { return body * dl::kBodySlots + field; }

// ---------------------------------------------------------------------------------------------
// Joints.

using dl::JointSubspace;

// Body b's joint from the table the call wrote.
inline JointSubspace JointOf(const Slots& s, size_t body) {
  JointSubspace joint;
  std::memcpy(static_cast<void*>(&joint), s.joints + body * dl::kJointFloats, sizeof(joint));
  return joint;
}

// x, or -x for an axis along -e_k.
template <class V>
HWY_INLINE V Signed(const JointSubspace& joint, V x) {
  return joint.negative ? hn::Neg(x) : x;
}

// The two coordinates other than the aligned axis k, in cyclic order: a = k + 1, b = k + 2.
inline size_t CyclicNext(int k, size_t step) { return (static_cast<size_t>(k) + step) % 3; }

// S^T f: the axis against the torque (revolute) or the force (prismatic) of f.
template <class D>
HWY_INLINE hn::Vec<D> MotionSubspaceDot(D d, const JointSubspace& joint, const Slots& s, size_t f) {
  const size_t at = joint.revolute ? f : f + 3;
  if (joint.aligned >= 0) return Signed(joint, Get(d, s, at + static_cast<size_t>(joint.aligned)));
  return hn::Add(hn::Add(hn::Mul(hn::Set(d, joint.axis[0]), Get(d, s, at)),
                         hn::Mul(hn::Set(d, joint.axis[1]), Get(d, s, at + 1))),
                 hn::Mul(hn::Set(d, joint.axis[2]), Get(d, s, at + 2)));
}

// S^T f for f = (n, F) in registers: as MotionSubspaceDot.
template <class D, class V>
HWY_INLINE V MotionSubspaceDotValues(D d, const JointSubspace& joint, V nx, V ny, V nz, V fx, V fy,
                                     V fz) {
  const V x = joint.revolute ? nx : fx, y = joint.revolute ? ny : fy, z = joint.revolute ? nz : fz;
  switch (joint.aligned) {
    case 0:
      return Signed(joint, x);
    case 1:
      return Signed(joint, y);
    case 2:
      return Signed(joint, z);
    default:
      return hn::Add(
          hn::Add(hn::Mul(hn::Set(d, joint.axis[0]), x), hn::Mul(hn::Set(d, joint.axis[1]), y)),
          hn::Mul(hn::Set(d, joint.axis[2]), z));
  }
}

// out = S rate (6 slots).
template <class D, class V>
HWY_INLINE void MotionSubspaceTimes(D d, const JointSubspace& joint, V rate, const Slots& s,
                                    size_t out) {
  const size_t part = joint.revolute ? out : out + 3, other = joint.revolute ? out + 3 : out;
  PutZero(d, s, other, 3);
  if (joint.aligned >= 0) {
    PutZero(d, s, part, 3);
    return Put(d, s, part + static_cast<size_t>(joint.aligned), Signed(joint, rate));
  }
  HWY_UNROLL(32)
  for (size_t k = 0; k < 3; ++k) Put(d, s, part + k, hn::Mul(hn::Set(d, joint.axis[k]), rate));
}

// out += S rate.
template <class D, class V>
HWY_INLINE void AddMotionSubspaceTimes(D d, const JointSubspace& joint, V rate, const Slots& s,
                                       size_t out) {
  const size_t part = joint.revolute ? out : out + 3;
  if (joint.aligned >= 0) {
    const size_t slot = part + static_cast<size_t>(joint.aligned);
    return Put(d, s, slot, hn::Add(Get(d, s, slot), Signed(joint, rate)));
  }
  HWY_UNROLL(32)
  for (size_t k = 0; k < 3; ++k) {
    Put(d, s, part + k, hn::Add(Get(d, s, part + k), hn::Mul(hn::Set(d, joint.axis[k]), rate)));
  }
}

// (rx, ry, rz) = (x, y, z) x (u e_k) for u = +-rate along the aligned axis k: component k + 1 is
// (k + 2's) u, component k + 2 is -(k + 1's) u, component k is zero.
template <class D, class V>
HWY_INLINE void CrossAligned(D d, const JointSubspace& joint, V u, V x, V y, V z, V& rx, V& ry,
                             V& rz) {
  // Named cases: sizeless vectors cannot live in arrays (docs/kernel-rules.md).
  if (joint.aligned == 0) {
    rx = hn::Zero(d), ry = hn::Mul(z, u), rz = hn::Neg(hn::Mul(y, u));
  } else if (joint.aligned == 1) {
    ry = hn::Zero(d), rz = hn::Mul(x, u), rx = hn::Neg(hn::Mul(z, u));
  } else {
    rz = hn::Zero(d), rx = hn::Mul(y, u), ry = hn::Neg(hn::Mul(x, u));
  }
}

// out = m x (S rate), the velocity-product term of a joint moving at `rate` in a body moving at
// m: revolute (w x u, v x u), prismatic (0, w x u) for u = axis rate. out aliases not m.
template <class D, class V>
HWY_INLINE void CrossJointMotion(D d, const JointSubspace& joint, V rate, const Slots& s, size_t m,
                                 size_t out) {
  const V wx = Get(d, s, m), wy = Get(d, s, m + 1), wz = Get(d, s, m + 2);
  V x, y, z;
  if (joint.aligned < 0) {
    const V ux = hn::Mul(hn::Set(d, joint.axis[0]), rate),
            uy = hn::Mul(hn::Set(d, joint.axis[1]), rate),
            uz = hn::Mul(hn::Set(d, joint.axis[2]), rate);
    if (joint.revolute) {
      Cross(wx, wy, wz, ux, uy, uz, x, y, z);
      Put(d, s, out, x), Put(d, s, out + 1, y), Put(d, s, out + 2, z);
      Cross(Get(d, s, m + 3), Get(d, s, m + 4), Get(d, s, m + 5), ux, uy, uz, x, y, z);
    } else {
      PutZero(d, s, out, 3);
      Cross(wx, wy, wz, ux, uy, uz, x, y, z);
    }
    Put(d, s, out + 3, x), Put(d, s, out + 4, y), Put(d, s, out + 5, z);
    return;
  }
  const V u = Signed(joint, rate);
  if (joint.revolute) {
    CrossAligned(d, joint, u, wx, wy, wz, x, y, z);
    Put(d, s, out, x), Put(d, s, out + 1, y), Put(d, s, out + 2, z);
    CrossAligned(d, joint, u, Get(d, s, m + 3), Get(d, s, m + 4), Get(d, s, m + 5), x, y, z);
  } else {
    PutZero(d, s, out, 3);
    CrossAligned(d, joint, u, wx, wy, wz, x, y, z);
  }
  Put(d, s, out + 3, x), Put(d, s, out + 4, y), Put(d, s, out + 5, z);
}

// Row i of E = R_axis^T R_o^T into slots e + 3 i ..: E(i, j) = sum_k R_axis(k, i) R_o(j, k), with
// (k0, k1, k2) column i of R_axis and R_o the constant origin rotation (row-major).
template <class D, class V>
HWY_INLINE void RotatedRow(D d, const Slots& s, size_t e, size_t i, V k0, V k1, V k2,
                           const float* o) {
  HWY_UNROLL(32)
  for (size_t j = 0; j < 3; ++j) {
    Put(d, s, e + 3 * i + j,
        hn::Add(hn::Add(hn::Mul(k0, hn::Set(d, o[3 * j])), hn::Mul(k1, hn::Set(d, o[3 * j + 1]))),
                hn::Mul(k2, hn::Set(d, o[3 * j + 2]))));
  }
}

// The joint's transform X = (E, r) at joint value `value` into the body's kE and kR slots. The
// body frame is origin o motion(value): revolute R = R_o R_axis(value) (Rodrigues:
// c 1 + s [axis]x + (1 - c) axis axis^T), r = p_o; prismatic R = R_o, r = p_o + R_o axis value;
// E = R^T. About an aligned axis k, R_axis is the plane rotation of coordinates a = k + 1 and
// b = k + 2 (columns a = c e_a + s e_b and b = -s e_a + c e_b, column k = e_k, s negated for
// -e_k), so row k of E is constant and rows a and b take two products each.
// JointTransformFrom takes a revolute joint's sine and cosine of `value` (SinCos) as given.
template <class D, class V>
HWY_INLINE void JointTransformFrom(D d, const DynamicsBody& body, const JointSubspace& joint,
                                   V value, V sine, V cosine, const Slots& s, size_t b) {
  const size_t e = BodySlot(b, dl::kE), r = BodySlot(b, dl::kR);
  const float* o = body.origin_rotation;
  const float* p = body.origin_translation;
  const float* a = joint.axis;
  if (joint.plain) {  // E(a, a) = E(b, b) = c, E(a, b) = -E(b, a) = s; r = p (+ axis value)
    if (joint.revolute) {
      sine = Signed(joint, sine);
      const size_t ia = CyclicNext(joint.aligned, 1), ib = CyclicNext(joint.aligned, 2);
      Put(d, s, e + 3 * ia + ia, cosine), Put(d, s, e + 3 * ia + ib, sine);
      Put(d, s, e + 3 * ib + ia, hn::Neg(sine)), Put(d, s, e + 3 * ib + ib, cosine);
    }
    HWY_UNROLL(32)
    for (size_t i = 0; i < 3; ++i) {
      const V offset = hn::Set(d, p[i]);
      Put(d, s, r + i, joint.revolute ? offset : hn::Add(hn::Mul(hn::Set(d, a[i]), value), offset));
    }
    return;
  }
  if (joint.revolute && joint.aligned >= 0) {
    sine = Signed(joint, sine);
    const size_t k = static_cast<size_t>(joint.aligned), ia = CyclicNext(joint.aligned, 1),
                 ib = CyclicNext(joint.aligned, 2);
    HWY_UNROLL(32)
    for (size_t j = 0; j < 3; ++j) {
      const V oa = hn::Set(d, o[3 * j + ia]), ob = hn::Set(d, o[3 * j + ib]);
      Put(d, s, e + 3 * k + j, hn::Set(d, o[3 * j + k]));
      Put(d, s, e + 3 * ia + j, hn::Add(hn::Mul(cosine, oa), hn::Mul(sine, ob)));
      Put(d, s, e + 3 * ib + j, hn::Sub(hn::Mul(cosine, ob), hn::Mul(sine, oa)));
    }
    Put(d, s, r, hn::Set(d, p[0])), Put(d, s, r + 1, hn::Set(d, p[1]));
    Put(d, s, r + 2, hn::Set(d, p[2]));
    return;
  }
  if (joint.revolute) {
    const V t = hn::Sub(hn::Set(d, 1.0f), cosine);
    const V ax = hn::Set(d, a[0]), ay = hn::Set(d, a[1]), az = hn::Set(d, a[2]);
    const V tx = hn::Mul(t, ax), ty = hn::Mul(t, ay), tz = hn::Mul(t, az);
    const V sx = hn::Mul(sine, ax), sy = hn::Mul(sine, ay), sz = hn::Mul(sine, az);
    // R_axis, row-major, into the temporaries of E's slots is not possible (E is the output), so
    // E(i, j) = sum_k R_axis(k, i) R_o(j, k) is formed from named entries.
    const V r00 = hn::Add(cosine, hn::Mul(tx, ax)), r01 = hn::Sub(hn::Mul(tx, ay), sz),
            r02 = hn::Add(hn::Mul(tx, az), sy);
    const V r10 = hn::Add(hn::Mul(tx, ay), sz), r11 = hn::Add(cosine, hn::Mul(ty, ay)),
            r12 = hn::Sub(hn::Mul(ty, az), sx);
    const V r20 = hn::Sub(hn::Mul(tx, az), sy), r21 = hn::Add(hn::Mul(ty, az), sx),
            r22 = hn::Add(cosine, hn::Mul(tz, az));
    RotatedRow(d, s, e, 0, r00, r10, r20, o);
    RotatedRow(d, s, e, 1, r01, r11, r21, o);
    RotatedRow(d, s, e, 2, r02, r12, r22, o);
    Put(d, s, r, hn::Set(d, p[0])), Put(d, s, r + 1, hn::Set(d, p[1]));
    Put(d, s, r + 2, hn::Set(d, p[2]));
    return;
  }
  HWY_UNROLL(32)
  for (size_t i = 0; i < 3; ++i) {
    HWY_UNROLL(32)
    for (size_t j = 0; j < 3; ++j) Put(d, s, e + 3 * i + j, hn::Set(d, o[3 * j + i]));
    // (R_o axis)_i value + p_i.
    const float shift = o[3 * i] * a[0] + o[3 * i + 1] * a[1] + o[3 * i + 2] * a[2];
    Put(d, s, r + i, hn::Add(hn::Mul(hn::Set(d, shift), value), hn::Set(d, p[i])));
  }
}

template <class D, class V>
HWY_INLINE void JointTransform(D d, const DynamicsBody& body, const JointSubspace& joint, V value,
                               const Slots& s, size_t b) {
  V sine = hn::Zero(d), cosine = hn::Zero(d);
  if (joint.revolute) SinCos(d, value, sine, cosine);
  JointTransformFrom(d, body, joint, value, sine, cosine, s, b);
}

// Where a kernel takes the revolute joints' sines and cosines (JointTrig): loaded from `in` (the
// lanes of array 2 (b - 1) and 2 (b - 1) + 1 for body b), or computed from the joint values and,
// when `out` is set, also put in slots out + 2 (b - 1) and out + 2 (b - 1) + 1, which
// StoreComputedTrig stores to `values` (zeros for a prismatic joint).
inline constexpr size_t kNoTrigSlots = ~size_t{0};
struct TrigLanes {
  InLanes in{nullptr, 0};
  size_t out = kNoTrigSlots;
  OutLanes values{nullptr, 0};
  size_t arrays = 0;
};

// The TrigLanes of a kernel on `tree` given `trig` (or none), with `regions` its scratch's.
inline TrigLanes TrigLanesOf(const DynamicsTree& tree, const JointTrig* trig,
                             const dl::Regions& regions) {
  TrigLanes lanes;
  if (trig == nullptr) return lanes;
  if (trig->known) {
    lanes.in = InLanes{trig->values.data, trig->values.stride};
  } else {
    lanes.out = regions.trig;
    lanes.values = OutLanes{trig->values.data, trig->values.stride};
    lanes.arrays = JointTrigArrays(tree);
  }
  return lanes;
}

// The sines and cosines the vector at lane i computed into trig's slots, to its output arrays.
template <class D, class Store>
HWY_INLINE void StoreComputedTrig(D d, const Slots& s, const TrigLanes& trig, size_t i,
                                  Store store) {
  for (size_t k = 0; k < trig.arrays; ++k)
    store(Get(d, s, trig.out + k), d, trig.values.Array(k) + i);
}

// JointTransform with the sine and cosine from (or into) `trig`, for the vector at lane i.
template <class D, class V>
HWY_INLINE void JointTransformWith(D d, const TrigLanes& trig, size_t i, const DynamicsBody& body,
                                   const JointSubspace& joint, V value, const Slots& s, size_t b) {
  V sine = hn::Zero(d), cosine = hn::Zero(d);
  const size_t first = 2 * (b - 1);
  if (trig.in.data != nullptr) {
    if (joint.revolute) {
      sine = hn::LoadU(d, trig.in.Array(first) + i);
      cosine = hn::LoadU(d, trig.in.Array(first + 1) + i);
    }
  } else {
    if (joint.revolute) SinCos(d, value, sine, cosine);
    if (trig.out != kNoTrigSlots) {
      Put(d, s, trig.out + first, sine), Put(d, s, trig.out + first + 1, cosine);
    }
  }
  JointTransformFrom(d, body, joint, value, sine, cosine, s, b);
}

// ---------------------------------------------------------------------------------------------
// 3-vectors and 3 x 3 matrices in slots (matrix entry (i, j) at slot m + 3 i + j).

// (rx, ry, rz) = E (x, y, z), or E^T (x, y, z) when `transpose`.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void RotateBy(D d, const Slots& s, size_t e, bool transpose, V x, V y, V z, V& rx, V& ry,
                         V& rz) {
  // Entry (row, column) of E is slot e + 3 row + column; of E^T, e + 3 column + row.
  const size_t across = transpose ? 3 : 1, down = transpose ? 1 : 3;
  rx = hn::Add(hn::Add(hn::Mul(Get(d, s, e), x), hn::Mul(Get(d, s, e + across), y)),
               hn::Mul(Get(d, s, e + 2 * across), z));
  ry = hn::Add(hn::Add(hn::Mul(Get(d, s, e + down), x), hn::Mul(Get(d, s, e + down + across), y)),
               hn::Mul(Get(d, s, e + down + 2 * across), z));
  rz = hn::Add(
      hn::Add(hn::Mul(Get(d, s, e + 2 * down), x), hn::Mul(Get(d, s, e + 2 * down + across), y)),
      hn::Mul(Get(d, s, e + 2 * down + 2 * across), z));
}

// Component I of (x, y, z), chosen at compile time.
template <size_t I, class V>
HWY_INLINE V& Component(V& x, V& y, V& z) {
  if constexpr (I == 0) {
    return x;
  } else if constexpr (I == 1) {
    return y;
  } else {
    return z;
  }
}

// The plane rotation E of a plain revolute joint about axis K (JointSubspace::plain): its four
// entries E(a, a), E(a, b), E(b, a), E(b, b) for a = K + 1, b = K + 2; E(K, K) = 1.
template <size_t K>
struct PlaneRotation {
  static constexpr size_t a = (K + 1) % 3, b = (K + 2) % 3;
  static constexpr size_t aa = 3 * a + a, ab = 3 * a + b, ba = 3 * b + a, bb = 3 * b + b;
};

// (x, y, z) = E (x, y, z), or E^T (x, y, z) when kTranspose, for the plane rotation about K.
template <size_t K, bool kTranspose, class D, class V>
HWY_INLINE void PlaneRotate(D d, const Slots& s, size_t e, V& x, V& y, V& z) {
  using P = PlaneRotation<K>;
  V& va = Component<P::a>(x, y, z);
  V& vb = Component<P::b>(x, y, z);
  const V ab = Get(d, s, e + (kTranspose ? P::ba : P::ab));
  const V ba = Get(d, s, e + (kTranspose ? P::ab : P::ba));
  const V new_a = hn::Add(hn::Mul(Get(d, s, e + P::aa), va), hn::Mul(ab, vb));
  vb = hn::Add(hn::Mul(ba, va), hn::Mul(Get(d, s, e + P::bb), vb));
  va = new_a;
}

// (x, y, z) = E (x, y, z), or E^T (x, y, z) when kTranspose, for a joint's E at slot e: the
// plane rotation of a plain revolute joint, nothing for a plain prismatic one, else RotateBy.
template <bool kTranspose, class D, class V>
HWY_INLINE void RotateByJoint(D d, const JointSubspace& joint, const Slots& s, size_t e, V& x, V& y,
                              V& z) {
  if (!joint.plain) {
    V rx, ry, rz;
    RotateBy(d, s, e, kTranspose, x, y, z, rx, ry, rz);
    x = rx, y = ry, z = rz;
  } else if (joint.revolute) {
    if (joint.aligned == 0) {
      PlaneRotate<0, kTranspose>(d, s, e, x, y, z);
    } else if (joint.aligned == 1) {
      PlaneRotate<1, kTranspose>(d, s, e, x, y, z);
    } else {
      PlaneRotate<2, kTranspose>(d, s, e, x, y, z);
    }
  }
}

// out = op(a) op(b) for 3 x 3 matrices, op the transpose where asked; out aliases neither.
template <class D>
HWY_INLINE void MatMul3(D d, const Slots& s, size_t a, bool transpose_a, size_t b, bool transpose_b,
                        size_t out) {
  HWY_UNROLL(32)
  for (size_t i = 0; i < 3; ++i) {
    HWY_UNROLL(32)
    for (size_t j = 0; j < 3; ++j) {
      const auto a_at = [&](size_t k) HWY_ATTR {
        return Get(d, s, transpose_a ? a + 3 * k + i : a + 3 * i + k);
      };
      const auto b_at = [&](size_t k) HWY_ATTR {
        return Get(d, s, transpose_b ? b + 3 * j + k : b + 3 * k + j);
      };
      Put(d, s, out + 3 * i + j,
          hn::Add(hn::Add(hn::Mul(a_at(0), b_at(0)), hn::Mul(a_at(1), b_at(1))),
                  hn::Mul(a_at(2), b_at(2))));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Spatial vectors in 6 slots (angular first).

// (wx .. oz) = X in for the joint's X = (E, r) at slots e, r: (E w, E (v - r x w)).
template <class D, class V>
HWY_INLINE void MotionToChildValues(D d, const JointSubspace& joint, const Slots& s, size_t e,
                                    size_t r, size_t in, V& wx, V& wy, V& wz, V& ox, V& oy, V& oz) {
  wx = Get(d, s, in), wy = Get(d, s, in + 1), wz = Get(d, s, in + 2);
  const V vx = Get(d, s, in + 3), vy = Get(d, s, in + 4), vz = Get(d, s, in + 5);
  V cx, cy, cz;
  Cross(Get(d, s, r), Get(d, s, r + 1), Get(d, s, r + 2), wx, wy, wz, cx, cy, cz);
  RotateByJoint<false>(d, joint, s, e, wx, wy, wz);
  ox = hn::Sub(vx, cx), oy = hn::Sub(vy, cy), oz = hn::Sub(vz, cz);
  RotateByJoint<false>(d, joint, s, e, ox, oy, oz);
}

// out = X in (MotionToChildValues). out may alias in.
template <class D>
HWY_INLINE void MotionToChild(D d, const JointSubspace& joint, const Slots& s, size_t e, size_t r,
                              size_t in, size_t out) {
  hn::Vec<D> wx, wy, wz, ox, oy, oz;
  MotionToChildValues(d, joint, s, e, r, in, wx, wy, wz, ox, oy, oz);
  Put(d, s, out, wx), Put(d, s, out + 1, wy), Put(d, s, out + 2, wz);
  Put(d, s, out + 3, ox), Put(d, s, out + 4, oy), Put(d, s, out + 5, oz);
}

// (n, F) = X^T (n, F) = (E^T n + r x E^T F, E^T F) for the joint's X = (E, r) at slots e, r.
template <class D, class V>
HWY_INLINE void ForceToParentValues(D d, const JointSubspace& joint, const Slots& s, size_t e,
                                    size_t r, V& nx, V& ny, V& nz, V& fx, V& fy, V& fz) {
  RotateByJoint<true>(d, joint, s, e, nx, ny, nz);
  RotateByJoint<true>(d, joint, s, e, fx, fy, fz);
  V cx, cy, cz;
  Cross(Get(d, s, r), Get(d, s, r + 1), Get(d, s, r + 2), fx, fy, fz, cx, cy, cz);
  nx = hn::Add(nx, cx), ny = hn::Add(ny, cy), nz = hn::Add(nz, cz);
}

// out = X^T in (or out += X^T in when `accumulate`) for the joint's X at slots e, r. out may
// alias in when not accumulating.
template <class D>
HWY_INLINE void ForceToParent(D d, const JointSubspace& joint, const Slots& s, size_t e, size_t r,
                              size_t in, size_t out, bool accumulate) {
  using V = hn::Vec<D>;
  V nx = Get(d, s, in), ny = Get(d, s, in + 1), nz = Get(d, s, in + 2);
  V fx = Get(d, s, in + 3), fy = Get(d, s, in + 4), fz = Get(d, s, in + 5);
  ForceToParentValues(d, joint, s, e, r, nx, ny, nz, fx, fy, fz);
  const auto put = [&](size_t k, V value) HWY_ATTR {
    Put(d, s, out + k, accumulate ? hn::Add(Get(d, s, out + k), value) : value);
  };
  put(0, nx), put(1, ny), put(2, nz), put(3, fx), put(4, fy), put(5, fz);
}

// out = base + m x* f (force cross product (w x n + v x F, w x F)) for f = (n, F) in registers:
// base is out's slots, or zero when `from_zero` (the same bits as clearing out first).
template <class D, class V>
HWY_INLINE void CrossForceFromValues(D d, const Slots& s, size_t m, V nx, V ny, V nz, V fx, V fy,
                                     V fz, size_t out, bool from_zero) {
  const V wx = Get(d, s, m), wy = Get(d, s, m + 1), wz = Get(d, s, m + 2);
  const V vx = Get(d, s, m + 3), vy = Get(d, s, m + 4), vz = Get(d, s, m + 5);
  const auto base = [&](size_t k) HWY_ATTR { return from_zero ? hn::Zero(d) : Get(d, s, out + k); };
  V x, y, z, x2, y2, z2;
  Cross(wx, wy, wz, nx, ny, nz, x, y, z);
  Cross(vx, vy, vz, fx, fy, fz, x2, y2, z2);
  Put(d, s, out, hn::Add(base(0), hn::Add(x, x2)));
  Put(d, s, out + 1, hn::Add(base(1), hn::Add(y, y2)));
  Put(d, s, out + 2, hn::Add(base(2), hn::Add(z, z2)));
  Cross(wx, wy, wz, fx, fy, fz, x, y, z);
  Put(d, s, out + 3, hn::Add(base(3), x));
  Put(d, s, out + 4, hn::Add(base(4), y));
  Put(d, s, out + 5, hn::Add(base(5), z));
}

// out += m x* f (force cross product): (w x n + v x F, w x F).
template <class D>
HWY_INLINE void AddCrossForce(D d, const Slots& s, size_t m, size_t f, size_t out) {
  CrossForceFromValues(d, s, m, Get(d, s, f), Get(d, s, f + 1), Get(d, s, f + 2), Get(d, s, f + 3),
                       Get(d, s, f + 4), Get(d, s, f + 5), out, false);
}

// (o0 .. o5) = I m for a body's rigid inertia: (I_O w + h x v, mass v - h x w).
template <class D, class V>
HWY_INLINE void RigidInertiaTimesValues(D d, const DynamicsBody& body, const Slots& s, size_t m,
                                        V& o0, V& o1, V& o2, V& o3, V& o4, V& o5) {
  const float* I = body.rotational_inertia;  // xx yy zz xy xz yz
  const V ixx = hn::Set(d, I[0]), iyy = hn::Set(d, I[1]), izz = hn::Set(d, I[2]);
  const V ixy = hn::Set(d, I[3]), ixz = hn::Set(d, I[4]), iyz = hn::Set(d, I[5]);
  const V hx = hn::Set(d, body.first_moment[0]), hy = hn::Set(d, body.first_moment[1]),
          hz = hn::Set(d, body.first_moment[2]);
  const V mass = hn::Set(d, body.mass);
  const V wx = Get(d, s, m), wy = Get(d, s, m + 1), wz = Get(d, s, m + 2);
  const V vx = Get(d, s, m + 3), vy = Get(d, s, m + 4), vz = Get(d, s, m + 5);
  V cx, cy, cz;
  Cross(hx, hy, hz, vx, vy, vz, cx, cy, cz);
  o0 = hn::Add(hn::Add(hn::Add(hn::Mul(ixx, wx), hn::Mul(ixy, wy)), hn::Mul(ixz, wz)), cx);
  o1 = hn::Add(hn::Add(hn::Add(hn::Mul(ixy, wx), hn::Mul(iyy, wy)), hn::Mul(iyz, wz)), cy);
  o2 = hn::Add(hn::Add(hn::Add(hn::Mul(ixz, wx), hn::Mul(iyz, wy)), hn::Mul(izz, wz)), cz);
  Cross(hx, hy, hz, wx, wy, wz, cx, cy, cz);
  o3 = hn::Sub(hn::Mul(mass, vx), cx);
  o4 = hn::Sub(hn::Mul(mass, vy), cy);
  o5 = hn::Sub(hn::Mul(mass, vz), cz);
}

// out = I m for a body's rigid inertia (RigidInertiaTimesValues). out aliases not m.
template <class D>
HWY_INLINE void RigidInertiaTimes(D d, const DynamicsBody& body, const Slots& s, size_t m,
                                  size_t out) {
  hn::Vec<D> o0, o1, o2, o3, o4, o5;
  RigidInertiaTimesValues(d, body, s, m, o0, o1, o2, o3, o4, o5);
  Put(d, s, out, o0), Put(d, s, out + 1, o1), Put(d, s, out + 2, o2);
  Put(d, s, out + 3, o3), Put(d, s, out + 4, o4), Put(d, s, out + 5, o5);
}

// The 27 slots of a spatial inertia: A (9), B (9), C (9), row-major.
inline constexpr size_t kInertiaA = 0, kInertiaB = 9, kInertiaC = 18;

// Slots `ia` = the body's rigid inertia: A = I_O, B = h x, C = mass 1.
template <class D>
HWY_INLINE void SetRigidInertia(D d, const DynamicsBody& body, const Slots& s, size_t ia) {
  const float* I = body.rotational_inertia;
  const float* h = body.first_moment;
  const float a[9] = {I[0], I[3], I[4], I[3], I[1], I[5], I[4], I[5], I[2]};
  const float b[9] = {0.0f, -h[2], h[1], h[2], 0.0f, -h[0], -h[1], h[0], 0.0f};
  HWY_UNROLL(32)
  for (size_t k = 0; k < 9; ++k) {
    Put(d, s, ia + kInertiaA + k, hn::Set(d, a[k]));
    Put(d, s, ia + kInertiaB + k, hn::Set(d, b[k]));
    Put(d, s, ia + kInertiaC + k, hn::Set(d, k % 4 == 0 ? body.mass : 0.0f));
  }
}

// (o0 .. o5) = I m for a spatial inertia in slots: (A w + B v, B^T w + C v).
template <class D, class V>
HWY_INLINE void InertiaTimesValues(D d, const Slots& s, size_t ia, size_t m, V& o0, V& o1, V& o2,
                                   V& o3, V& o4, V& o5) {
  const V wx = Get(d, s, m), wy = Get(d, s, m + 1), wz = Get(d, s, m + 2);
  const V vx = Get(d, s, m + 3), vy = Get(d, s, m + 4), vz = Get(d, s, m + 5);
  V ax, ay, az, bx, by, bz;
  RotateBy(d, s, ia + kInertiaA, false, wx, wy, wz, ax, ay, az);
  RotateBy(d, s, ia + kInertiaB, false, vx, vy, vz, bx, by, bz);
  o0 = hn::Add(ax, bx), o1 = hn::Add(ay, by), o2 = hn::Add(az, bz);
  RotateBy(d, s, ia + kInertiaB, true, wx, wy, wz, ax, ay, az);
  RotateBy(d, s, ia + kInertiaC, false, vx, vy, vz, bx, by, bz);
  o3 = hn::Add(ax, bx), o4 = hn::Add(ay, by), o5 = hn::Add(az, bz);
}

// out = I m for a spatial inertia in slots (InertiaTimesValues). out aliases not m.
template <class D>
HWY_INLINE void InertiaTimes(D d, const Slots& s, size_t ia, size_t m, size_t out) {
  hn::Vec<D> o0, o1, o2, o3, o4, o5;
  InertiaTimesValues(d, s, ia, m, o0, o1, o2, o3, o4, o5);
  Put(d, s, out, o0), Put(d, s, out + 1, o1), Put(d, s, out + 2, o2);
  Put(d, s, out + 3, o3), Put(d, s, out + 4, o4), Put(d, s, out + 5, o5);
}

// Index into xx yy zz xy xz yz of the symmetric entry (i, j).
inline size_t SymmetricIndex(size_t i, size_t j) {
  if (i == j) return i;
  const size_t low = i < j ? i : j, high = i < j ? j : i;
  return low == 0 ? (high == 1 ? 3 : 4) : 5;
}

// Slot offsets of the entries (i, j) of a 3 x 3 matrix: all nine, row-major, or the six of a
// symmetric one (xx yy zz xy xz yz).
struct FullEntries {
  static constexpr bool kSymmetric = false;
  static size_t At(size_t i, size_t j) { return 3 * i + j; }
};
struct SymmetricEntries {
  static constexpr bool kSymmetric = true;
  static size_t At(size_t i, size_t j) { return SymmetricIndex(i, j); }
};

// The entries of E^T M E for the plane rotation E about K (PlaneRotation) with entries eaa, eab,
// eba, ebb, M's entry (i, j) being at(i, j): put(i, j, value) takes each. With u_j column j of E
// (u_K = e_K, u_a = E(a, a) e_a + E(b, a) e_b, u_b = E(a, b) e_a + E(b, b) e_b), entry (i, j) is
// u_i^T M u_j: entry (K, K) is M's, row and column K take two products per entry, and the (a, b)
// block is E2^T (M2 E2) for the 2 x 2 blocks. A symmetric M gets the entries (K, K), (K, a),
// (K, b), (a, a), (a, b), (b, b) only, for the caller to mirror, so it stays exactly symmetric.
template <size_t K, class V, class At, class PutEntry>
HWY_INLINE void PlaneCongruenceEntries(bool symmetric, V eaa, V eab, V eba, V ebb, const At& at,
                                       const PutEntry& put) {
  using P = PlaneRotation<K>;
  constexpr size_t a = P::a, b = P::b;
  const auto pair = [](V x0, V y0, V x1, V y1)
                        HWY_ATTR { return hn::Add(hn::Mul(x0, y0), hn::Mul(x1, y1)); };
  put(K, K, at(K, K));
  put(K, a, pair(at(K, a), eaa, at(K, b), eba));
  put(K, b, pair(at(K, a), eab, at(K, b), ebb));
  if (!symmetric) {
    put(a, K, pair(eaa, at(a, K), eba, at(b, K)));
    put(b, K, pair(eab, at(a, K), ebb, at(b, K)));
  }
  // P = M2 E2, column by column.
  const V p_aa = pair(at(a, a), eaa, at(a, b), eba), p_ba = pair(at(b, a), eaa, at(b, b), eba);
  const V p_ab = pair(at(a, a), eab, at(a, b), ebb), p_bb = pair(at(b, a), eab, at(b, b), ebb);
  put(a, a, pair(eaa, p_aa, eba, p_ba));
  put(a, b, pair(eaa, p_ab, eba, p_bb));
  put(b, b, pair(eab, p_ab, ebb, p_bb));
  if (!symmetric) put(b, a, pair(eab, p_aa, ebb, p_ba));
}

// out = E^T M E (PlaneCongruenceEntries) for the plane rotation E about K at slot e and M at slot
// m, laid out as In; out laid out as Out. A symmetric M (kSymmetricM) gets its entries mirrored
// into a full Out.
template <size_t K, bool kSymmetricM, class In, class Out, class D>
HWY_INLINE void PlaneCongruence(D d, const Slots& s, size_t e, size_t m, size_t out) {
  using V = hn::Vec<D>;
  using P = PlaneRotation<K>;
  const auto at = [&](size_t i, size_t j) HWY_ATTR { return Get(d, s, m + In::At(i, j)); };
  const auto put = [&](size_t i, size_t j, V value) HWY_ATTR {
    Put(d, s, out + Out::At(i, j), value);
    if (kSymmetricM && !Out::kSymmetric && i != j) Put(d, s, out + Out::At(j, i), value);
  };
  PlaneCongruenceEntries<K>(kSymmetricM, Get(d, s, e + P::aa), Get(d, s, e + P::ab),
                            Get(d, s, e + P::ba), Get(d, s, e + P::bb), at, put);
}

// PlaneCongruence for a plain revolute joint's axis.
template <bool kSymmetricM, class In, class Out, class D>
HWY_INLINE void JointPlaneCongruence(D d, const JointSubspace& joint, const Slots& s, size_t e,
                                     size_t m, size_t out) {
  if (joint.aligned == 0) {
    PlaneCongruence<0, kSymmetricM, In, Out>(d, s, e, m, out);
  } else if (joint.aligned == 1) {
    PlaneCongruence<1, kSymmetricM, In, Out>(d, s, e, m, out);
  } else {
    PlaneCongruence<2, kSymmetricM, In, Out>(d, s, e, m, out);
  }
}

// out = E^T M E for a symmetric M (full 3 x 3 in slots): product = M E, then the entries on and
// above the diagonal of E^T product, mirrored below, so out is exactly symmetric.
template <class D>
HWY_INLINE void RotateSymmetric(D d, const Slots& s, size_t e, size_t m, size_t product,
                                size_t out) {
  MatMul3(d, s, m, false, e, false, product);
  HWY_UNROLL(32)
  for (size_t i = 0; i < 3; ++i) {
    HWY_UNROLL(32)
    for (size_t j = i; j < 3; ++j) {
      const hn::Vec<D> entry =
          hn::Add(hn::Add(hn::Mul(Get(d, s, e + i), Get(d, s, product + j)),
                          hn::Mul(Get(d, s, e + 3 + i), Get(d, s, product + 3 + j))),
                  hn::Mul(Get(d, s, e + 6 + i), Get(d, s, product + 6 + j)));
      Put(d, s, out + 3 * i + j, entry);
      Put(d, s, out + 3 * j + i, entry);
    }
  }
}

// out = I S for a spatial inertia in slots and the body's motion subspace: revolute S = (axis, 0)
// gives (A axis, B^T axis), prismatic S = (0, axis) gives (B axis, C axis); for an aligned axis
// these are column k of A or B and row k of B or column k of C.
template <class D>
HWY_INLINE void InertiaColumn(D d, const JointSubspace& joint, const Slots& s, size_t ia,
                              size_t out) {
  using V = hn::Vec<D>;
  const size_t top = ia + (joint.revolute ? kInertiaA : kInertiaB);
  const size_t bottom = ia + (joint.revolute ? kInertiaB : kInertiaC);
  if (joint.aligned >= 0) {
    const size_t k = static_cast<size_t>(joint.aligned);
    HWY_UNROLL(32)
    for (size_t row = 0; row < 3; ++row) {
      Put(d, s, out + row, Signed(joint, Get(d, s, top + 3 * row + k)));
      // B^T e_k is row k of B; C e_k is column k of C.
      Put(d, s, out + 3 + row,
          Signed(joint, Get(d, s, joint.revolute ? bottom + 3 * k + row : bottom + 3 * row + k)));
    }
    return;
  }
  const V ax = hn::Set(d, joint.axis[0]), ay = hn::Set(d, joint.axis[1]),
          az = hn::Set(d, joint.axis[2]);
  V x, y, z;
  RotateBy(d, s, top, false, ax, ay, az, x, y, z);
  Put(d, s, out, x), Put(d, s, out + 1, y), Put(d, s, out + 2, z);
  RotateBy(d, s, bottom, joint.revolute, ax, ay, az, x, y, z);
  Put(d, s, out + 3, x), Put(d, s, out + 4, y), Put(d, s, out + 5, z);
}

// The entry (i, j) of a 3 x 3 matrix held in nine named registers (sizeless vectors cannot live
// in arrays: docs/kernel-rules.md), for indices the compiler knows once loops are unrolled.
template <class V>
HWY_INLINE V& Entry3(size_t i, size_t j, V& m00, V& m01, V& m02, V& m10, V& m11, V& m12, V& m20,
                     V& m21, V& m22) {
  if (i == 0) return j == 0 ? m00 : (j == 1 ? m01 : m02);
  if (i == 1) return j == 0 ? m10 : (j == 1 ? m11 : m12);
  return j == 0 ? m20 : (j == 1 ? m21 : m22);
}

// AddCongruent for a plain revolute joint about axis K: the same operations, so the same bits,
// as the general path below with PlaneCongruence, but the rotated blocks A', B', C' and
// B_new = B' + r x C' stay in registers and are consumed as they are made, instead of going
// through 36 temporary slots; only the parent's blocks are stored. (The general path was a third
// of ABA's time on AVX-512, most of it its temporaries' stores and loads.)
template <size_t K, class D>
HWY_INLINE void AddPlaneCongruent(D d, const Slots& s, size_t e, size_t r, size_t child,
                                  size_t parent) {
  using V = hn::Vec<D>;
  using P = PlaneRotation<K>;
  const V eaa = Get(d, s, e + P::aa), eab = Get(d, s, e + P::ab);
  const V eba = Get(d, s, e + P::ba), ebb = Get(d, s, e + P::bb);
  // E^T M E of the child's block at `block` into m.. (PlaneCongruenceEntries): a symmetric block
  // gets the entries on one side of the diagonal, mirrored.
  const auto congruence = [&](size_t block, bool symmetric, V& m00, V& m01, V& m02, V& m10, V& m11,
                              V& m12, V& m20, V& m21, V& m22) HWY_ATTR {
    const auto at = [&](size_t i, size_t j)
                        HWY_ATTR { return Get(d, s, child + block + 3 * i + j); };
    const auto put = [&](size_t i, size_t j, V value) HWY_ATTR {
      Entry3(i, j, m00, m01, m02, m10, m11, m12, m20, m21, m22) = value;
      if (symmetric && i != j) Entry3(j, i, m00, m01, m02, m10, m11, m12, m20, m21, m22) = value;
    };
    PlaneCongruenceEntries<K>(symmetric, eaa, eab, eba, ebb, at, put);
  };
  V c00, c01, c02, c10, c11, c12, c20, c21, c22;
  V b00, b01, b02, b10, b11, b12, b20, b21, b22;
  congruence(kInertiaC, true, c00, c01, c02, c10, c11, c12, c20, c21, c22);
  congruence(kInertiaB, false, b00, b01, b02, b10, b11, b12, b20, b21, b22);
  const auto c_at = [&](size_t i, size_t j) HWY_ATTR {
    return Entry3(i, j, c00, c01, c02, c10, c11, c12, c20, c21, c22);
  };
  const auto b_at = [&](size_t i, size_t j) HWY_ATTR {
    return Entry3(i, j, b00, b01, b02, b10, b11, b12, b20, b21, b22);
  };
  const V rx = Get(d, s, r), ry = Get(d, s, r + 1), rz = Get(d, s, r + 2);
  // B_new = B' + r x C', column by column.
  V n00, n01, n02, n10, n11, n12, n20, n21, n22;
  HWY_UNROLL(32)
  for (size_t j = 0; j < 3; ++j) {
    V x, y, z;
    Cross(rx, ry, rz, c_at(0, j), c_at(1, j), c_at(2, j), x, y, z);
    Entry3(0, j, n00, n01, n02, n10, n11, n12, n20, n21, n22) = hn::Add(b_at(0, j), x);
    Entry3(1, j, n00, n01, n02, n10, n11, n12, n20, n21, n22) = hn::Add(b_at(1, j), y);
    Entry3(2, j, n00, n01, n02, n10, n11, n12, n20, n21, n22) = hn::Add(b_at(2, j), z);
  }
  const auto n_at = [&](size_t i, size_t j) HWY_ATTR {
    return Entry3(i, j, n00, n01, n02, n10, n11, n12, n20, n21, n22);
  };
  HWY_UNROLL(32)
  for (size_t i = 0; i < 3; ++i) {
    HWY_UNROLL(32)
    for (size_t j = 0; j < 3; ++j) {
      const size_t slot = parent + kInertiaB + 3 * i + j;
      Put(d, s, slot, hn::Add(Get(d, s, slot), n_at(i, j)));
    }
  }
  V a00, a01, a02, a10, a11, a12, a20, a21, a22;
  congruence(kInertiaA, true, a00, a01, a02, a10, a11, a12, a20, a21, a22);
  // A(i, j) += A'(i, j) + (r x B_new[j, :])_i + (r x B'[i, :])_j, and C(i, j) += C'(i, j), for
  // j >= i, mirrored.
  HWY_UNROLL(32)
  for (size_t i = 0; i < 3; ++i) {
    V bi_x, bi_y, bi_z;  // r x B'[i, :]
    Cross(rx, ry, rz, b_at(i, 0), b_at(i, 1), b_at(i, 2), bi_x, bi_y, bi_z);
    HWY_UNROLL(32)
    for (size_t j = i; j < 3; ++j) {
      V bj_x, bj_y, bj_z;  // r x B_new[j, :]
      Cross(rx, ry, rz, n_at(j, 0), n_at(j, 1), n_at(j, 2), bj_x, bj_y, bj_z);
      const V bj_i = i == 0 ? bj_x : (i == 1 ? bj_y : bj_z);
      const V bi_j = j == 0 ? bi_x : (j == 1 ? bi_y : bi_z);
      const V a_new = hn::Add(hn::Add(Get(d, s, parent + kInertiaA + 3 * i + j),
                                      Entry3(i, j, a00, a01, a02, a10, a11, a12, a20, a21, a22)),
                              hn::Add(bj_i, bi_j));
      Put(d, s, parent + kInertiaA + 3 * i + j, a_new);
      Put(d, s, parent + kInertiaA + 3 * j + i, a_new);
      const V c_new = hn::Add(Get(d, s, parent + kInertiaC + 3 * i + j), c_at(i, j));
      Put(d, s, parent + kInertiaC + 3 * i + j, c_new);
      Put(d, s, parent + kInertiaC + 3 * j + i, c_new);
    }
  }
}

// parent += X^T child X for X = (E, r): with A', B', C' the blocks rotated into the parent's
// orientation (E^T . E), C += C', B += B' + r x C', A += A' + r x B_new^T - B' r x, where
// B_new = B' + r x C' (Featherstone eq. 2.66 in block form). A and C are computed on and above
// the diagonal and mirrored, so they stay exactly symmetric. Uses 36 temporaries at `temp`.
// A plain joint's blocks take PlaneCongruence (revolute) or none at all (prismatic: E = 1).
template <class D>
HWY_INLINE void AddCongruent(D d, const JointSubspace& joint, const Slots& s, size_t e, size_t r,
                             size_t child, size_t parent, size_t temp) {
  using V = hn::Vec<D>;
  if (joint.plain && joint.revolute) {
    if (joint.aligned == 0) return AddPlaneCongruent<0>(d, s, e, r, child, parent);
    if (joint.aligned == 1) return AddPlaneCongruent<1>(d, s, e, r, child, parent);
    return AddPlaneCongruent<2>(d, s, e, r, child, parent);
  }
  const size_t product = temp;
  size_t a_rot = temp + 9, b_rot = temp + 18, c_rot = temp + 27;
  if (!joint.plain) {
    RotateSymmetric(d, s, e, child + kInertiaA, product, a_rot);
    MatMul3(d, s, child + kInertiaB, false, e, false, product);
    MatMul3(d, s, e, true, product, false, b_rot);
    RotateSymmetric(d, s, e, child + kInertiaC, product, c_rot);
  } else if (joint.revolute) {
    JointPlaneCongruence<true, FullEntries, FullEntries>(d, joint, s, e, child + kInertiaA, a_rot);
    JointPlaneCongruence<false, FullEntries, FullEntries>(d, joint, s, e, child + kInertiaB, b_rot);
    JointPlaneCongruence<true, FullEntries, FullEntries>(d, joint, s, e, child + kInertiaC, c_rot);
  } else {
    a_rot = child + kInertiaA, b_rot = child + kInertiaB, c_rot = child + kInertiaC;
  }
  const V rx = Get(d, s, r), ry = Get(d, s, r + 1), rz = Get(d, s, r + 2);
  // b_new = B' + r x C' column by column (r x M has columns r x M[:, j]); kept in `product`.
  HWY_UNROLL(32)
  for (size_t j = 0; j < 3; ++j) {
    V x, y, z;
    Cross(rx, ry, rz, Get(d, s, c_rot + j), Get(d, s, c_rot + 3 + j), Get(d, s, c_rot + 6 + j), x,
          y, z);
    Put(d, s, product + j, hn::Add(Get(d, s, b_rot + j), x));
    Put(d, s, product + 3 + j, hn::Add(Get(d, s, b_rot + 3 + j), y));
    Put(d, s, product + 6 + j, hn::Add(Get(d, s, b_rot + 6 + j), z));
  }
  HWY_UNROLL(32)
  for (size_t k = 0; k < 9; ++k) {
    Put(d, s, parent + kInertiaB + k,
        hn::Add(Get(d, s, parent + kInertiaB + k), Get(d, s, product + k)));
  }
  // A(i, j) += A'(i, j) + (r x B_new[j, :])_i + (r x B'[i, :])_j, for j >= i.
  HWY_UNROLL(32)
  for (size_t i = 0; i < 3; ++i) {
    V bi_x, bi_y, bi_z;  // r x B'[i, :]
    Cross(rx, ry, rz, Get(d, s, b_rot + 3 * i), Get(d, s, b_rot + 3 * i + 1),
          Get(d, s, b_rot + 3 * i + 2), bi_x, bi_y, bi_z);
    HWY_UNROLL(32)
    for (size_t j = i; j < 3; ++j) {
      V bj_x, bj_y, bj_z;  // r x B_new[j, :]
      Cross(rx, ry, rz, Get(d, s, product + 3 * j), Get(d, s, product + 3 * j + 1),
            Get(d, s, product + 3 * j + 2), bj_x, bj_y, bj_z);
      const V bj_i = i == 0 ? bj_x : (i == 1 ? bj_y : bj_z);
      const V bi_j = j == 0 ? bi_x : (j == 1 ? bi_y : bi_z);
      const V a =
          hn::Add(hn::Add(Get(d, s, parent + kInertiaA + 3 * i + j), Get(d, s, a_rot + 3 * i + j)),
                  hn::Add(bj_i, bi_j));
      Put(d, s, parent + kInertiaA + 3 * i + j, a);
      Put(d, s, parent + kInertiaA + 3 * j + i, a);
      const V c = hn::Add(Get(d, s, parent + kInertiaC + 3 * i + j), Get(d, s, c_rot + 3 * i + j));
      Put(d, s, parent + kInertiaC + 3 * i + j, c);
      Put(d, s, parent + kInertiaC + 3 * j + i, c);
    }
  }
}

// A rigid-body inertia as 10 slots: mass, first moment h (3) and the rotational inertia about
// the origin (6: xx yy zz xy xz yz). The composite inertias of CRBA are rigid-body inertias, so
// they transform by the parallel-axis theorem instead of the general 6 x 6 congruence.
inline constexpr size_t kRigidMass = 0, kRigidFirstMoment = 1, kRigidInertia = 4;

template <class D>
HWY_INLINE void SetRigidParams(D d, const DynamicsBody& body, const Slots& s, size_t params) {
  Put(d, s, params + kRigidMass, hn::Set(d, body.mass));
  HWY_UNROLL(32)
  for (size_t k = 0; k < 3; ++k) {
    Put(d, s, params + kRigidFirstMoment + k, hn::Set(d, body.first_moment[k]));
  }
  HWY_UNROLL(32)
  for (size_t k = 0; k < 6; ++k) {
    Put(d, s, params + kRigidInertia + k, hn::Set(d, body.rotational_inertia[k]));
  }
}

// out = I m for rigid params in slots: (I_O w + h x v, mass v - h x w). out aliases not m.
template <class D>
HWY_INLINE void RigidParamsTimes(D d, const Slots& s, size_t params, size_t m, size_t out) {
  using V = hn::Vec<D>;
  const auto inertia = [&](size_t i, size_t j) HWY_ATTR {
    return Get(d, s, params + kRigidInertia + SymmetricIndex(i, j));
  };
  const V hx = Get(d, s, params + kRigidFirstMoment),
          hy = Get(d, s, params + kRigidFirstMoment + 1),
          hz = Get(d, s, params + kRigidFirstMoment + 2);
  const V mass = Get(d, s, params + kRigidMass);
  const V wx = Get(d, s, m), wy = Get(d, s, m + 1), wz = Get(d, s, m + 2);
  const V vx = Get(d, s, m + 3), vy = Get(d, s, m + 4), vz = Get(d, s, m + 5);
  V cx, cy, cz;
  Cross(hx, hy, hz, vx, vy, vz, cx, cy, cz);
  HWY_UNROLL(32)
  for (size_t i = 0; i < 3; ++i) {
    const V row = hn::Add(hn::Add(hn::Mul(inertia(i, 0), wx), hn::Mul(inertia(i, 1), wy)),
                          hn::Mul(inertia(i, 2), wz));
    Put(d, s, out + i, hn::Add(row, i == 0 ? cx : (i == 1 ? cy : cz)));
  }
  Cross(hx, hy, hz, wx, wy, wz, cx, cy, cz);
  Put(d, s, out + 3, hn::Sub(hn::Mul(mass, vx), cx));
  Put(d, s, out + 4, hn::Sub(hn::Mul(mass, vy), cy));
  Put(d, s, out + 5, hn::Sub(hn::Mul(mass, vz), cz));
}

// out = I S for rigid params in slots (CRBA's F = Ic S), `temp` 6 slots: revolute S = (axis, 0)
// gives (I_O axis, -h x axis), prismatic S = (0, axis) gives (h x axis, mass axis). For an axis
// along +-e_k with a = k + 1, b = k + 2: h x e_k = h_b e_a - h_a e_b.
template <class D>
HWY_INLINE void RigidInertiaColumn(D d, const JointSubspace& joint, const Slots& s, size_t params,
                                   size_t out, size_t temp) {
  if (joint.aligned < 0) {
    MotionSubspaceTimes(d, joint, hn::Set(d, 1.0f), s, temp);
    return RigidParamsTimes(d, s, params, temp, out);
  }
  const size_t k = static_cast<size_t>(joint.aligned), a = CyclicNext(joint.aligned, 1),
               b = CyclicNext(joint.aligned, 2);
  const auto h = [&](size_t i) HWY_ATTR { return Get(d, s, params + kRigidFirstMoment + i); };
  // h x e_k into `cross`'s a and b components, zero at k, signed for -e_k.
  const size_t cross = joint.revolute ? out + 3 : out;
  Put(d, s, cross + k, hn::Zero(d));
  Put(d, s, cross + a, Signed(joint, joint.revolute ? hn::Neg(h(b)) : h(b)));
  Put(d, s, cross + b, Signed(joint, joint.revolute ? h(a) : hn::Neg(h(a))));
  if (joint.revolute) {
    HWY_UNROLL(32)
    for (size_t i = 0; i < 3; ++i) {
      Put(d, s, out + i, Signed(joint, Get(d, s, params + kRigidInertia + SymmetricIndex(i, k))));
    }
    return;
  }
  PutZero(d, s, out + 3, 3);
  Put(d, s, out + 3 + k, Signed(joint, Get(d, s, params + kRigidMass)));
}

// parent += X^T child X for rigid params and X = (E, r): with h' = E^T h (the first moment in
// the parent's orientation) the parallel-axis theorem moved to the parent's origin gives
//   mass += m,  h += h' + m r,
//   I += E^T I E + m (|r|^2 1 - r r^T) + 2 (r . h') 1 - r h'^T - h' r^T.
// Uses 15 temporaries at `temp`; a plain joint's E^T I E takes PlaneCongruence (revolute) or
// none (prismatic).
template <class D>
HWY_INLINE void AddRigidCongruent(D d, const JointSubspace& joint, const Slots& s, size_t e,
                                  size_t r, size_t child, size_t parent, size_t temp) {
  using V = hn::Vec<D>;
  const V m = Get(d, s, child + kRigidMass);
  V hx = Get(d, s, child + kRigidFirstMoment), hy = Get(d, s, child + kRigidFirstMoment + 1),
    hz = Get(d, s, child + kRigidFirstMoment + 2);
  RotateByJoint<true>(d, joint, s, e, hx, hy, hz);
  const V rx = Get(d, s, r), ry = Get(d, s, r + 1), rz = Get(d, s, r + 2);
  // E^T I E as six parameters (xx yy zz xy xz yz).
  size_t rotated_inertia = temp + 9;
  if (!joint.plain) {
    // product = I E (full 3 x 3 in temp), then the upper triangle of E^T product.
    HWY_UNROLL(32)
    for (size_t k = 0; k < 3; ++k) {
      HWY_UNROLL(32)
      for (size_t j = 0; j < 3; ++j) {
        const auto inertia = [&](size_t a, size_t b) HWY_ATTR {
          return Get(d, s, child + kRigidInertia + SymmetricIndex(a, b));
        };
        Put(d, s, temp + 3 * k + j,
            hn::Add(hn::Add(hn::Mul(inertia(k, 0), Get(d, s, e + j)),
                            hn::Mul(inertia(k, 1), Get(d, s, e + 3 + j))),
                    hn::Mul(inertia(k, 2), Get(d, s, e + 6 + j))));
      }
    }
    HWY_UNROLL(32)
    for (size_t i = 0; i < 3; ++i) {
      HWY_UNROLL(32)
      for (size_t j = i; j < 3; ++j) {
        Put(d, s, rotated_inertia + SymmetricIndex(i, j),
            hn::Add(hn::Add(hn::Mul(Get(d, s, e + i), Get(d, s, temp + j)),
                            hn::Mul(Get(d, s, e + 3 + i), Get(d, s, temp + 3 + j))),
                    hn::Mul(Get(d, s, e + 6 + i), Get(d, s, temp + 6 + j))));
      }
    }
  } else if (joint.revolute) {
    JointPlaneCongruence<true, SymmetricEntries, SymmetricEntries>(
        d, joint, s, e, child + kRigidInertia, rotated_inertia);
  } else {
    rotated_inertia = child + kRigidInertia;
  }
  const V r_squared = hn::Add(hn::Add(hn::Mul(rx, rx), hn::Mul(ry, ry)), hn::Mul(rz, rz));
  const V r_dot_h = hn::Add(hn::Add(hn::Mul(rx, hx), hn::Mul(ry, hy)), hn::Mul(rz, hz));
  const V diagonal_shift = hn::Add(hn::Mul(m, r_squared), hn::Add(r_dot_h, r_dot_h));
  const auto component = [](size_t k, V x, V y, V z)
                             HWY_ATTR { return k == 0 ? x : (k == 1 ? y : z); };
  HWY_UNROLL(32)
  for (size_t i = 0; i < 3; ++i) {
    HWY_UNROLL(32)
    for (size_t j = i; j < 3; ++j) {
      const V rotated = Get(d, s, rotated_inertia + SymmetricIndex(i, j));
      const V ri = component(i, rx, ry, rz), rj = component(j, rx, ry, rz);
      const V hi = component(i, hx, hy, hz), hj = component(j, hx, hy, hz);
      V shift =
          hn::Neg(hn::Add(hn::Mul(m, hn::Mul(ri, rj)), hn::Add(hn::Mul(ri, hj), hn::Mul(hi, rj))));
      if (i == j) shift = hn::Add(shift, diagonal_shift);
      const size_t slot = parent + kRigidInertia + SymmetricIndex(i, j);
      Put(d, s, slot, hn::Add(Get(d, s, slot), hn::Add(rotated, shift)));
    }
  }
  Put(d, s, parent + kRigidMass, hn::Add(Get(d, s, parent + kRigidMass), m));
  Put(d, s, parent + kRigidFirstMoment,
      hn::Add(Get(d, s, parent + kRigidFirstMoment), hn::Add(hx, hn::Mul(m, rx))));
  Put(d, s, parent + kRigidFirstMoment + 1,
      hn::Add(Get(d, s, parent + kRigidFirstMoment + 1), hn::Add(hy, hn::Mul(m, ry))));
  Put(d, s, parent + kRigidFirstMoment + 2,
      hn::Add(Get(d, s, parent + kRigidFirstMoment + 2), hn::Add(hz, hn::Mul(m, rz))));
}

// A body's joint value, rate and (optionally) acceleration from the lane arrays.
struct JointInputs {
  size_t q_array, velocity_array;
};
inline JointInputs JointArrays(const DynamicsTree& tree, const DynamicsBody& body) {
  const size_t column = static_cast<size_t>(body.q_index);
  return {tree.joint_q_begin() + column, tree.joint_velocity_begin() + column};
}

// A mimic coupling's joint value multiplier q + offset and rate multiplier qd; an independent
// joint's are q and qd themselves, without the products.
template <class D, class V>
HWY_INLINE V CoupledValue(D d, const DynamicsBody& body, V x) {
  if (body.multiplier == 1.0f && body.offset == 0.0f) return x;
  return hn::Add(hn::Mul(hn::Set(d, body.multiplier), x), hn::Set(d, body.offset));
}
template <class D, class V>
HWY_INLINE V CoupledRate(D d, const DynamicsBody& body, V x) {
  return body.multiplier == 1.0f ? x : hn::Mul(hn::Set(d, body.multiplier), x);
}

// damping v + friction v / sqrt(v^2 + eps^2), the joint's passive resistance to rate v.
template <class D, class V>
HWY_INLINE V JointResistance(D d, const DynamicsTree& tree, const DynamicsBody& body, V rate) {
  V resistance = hn::Mul(hn::Set(d, body.damping), rate);
  if (body.friction != 0.0f) {
    const V eps = hn::Set(d, tree.friction_velocity);
    const V smooth = hn::Div(rate, hn::Sqrt(hn::Add(hn::Mul(rate, rate), hn::Mul(eps, eps))));
    resistance = hn::Add(resistance, hn::Mul(hn::Set(d, body.friction), smooth));
  }
  return resistance;
}

// ---------------------------------------------------------------------------------------------
// The root.

// Body 0's E = R^T for a floating base's orientation (q arrays 3..6: qw qx qy qz, normalised; a
// zero quaternion is the identity).
template <class D>
HWY_INLINE void BaseRotation(D d, const InLanes& q, size_t i, const Slots& s) {
  using V = hn::Vec<D>;
  V x, y, z, w;
  Normalize(hn::LoadU(d, q.Array(4) + i), hn::LoadU(d, q.Array(5) + i),
            hn::LoadU(d, q.Array(6) + i), hn::LoadU(d, q.Array(3) + i), x, y, z, w);
  V m00, m01, m02, m10, m11, m12, m20, m21, m22;  // m<c><r>: column c, row r of R
  RotationMatrix(x, y, z, w, m00, m01, m02, m10, m11, m12, m20, m21, m22);
  const size_t e = BodySlot(0, dl::kE);  // E(i, j) = R(j, i) = m<i><j>
  Put(d, s, e, m00), Put(d, s, e + 1, m01), Put(d, s, e + 2, m02);
  Put(d, s, e + 3, m10), Put(d, s, e + 4, m11), Put(d, s, e + 5, m12);
  Put(d, s, e + 6, m20), Put(d, s, e + 7, m21), Put(d, s, e + 8, m22);
}

// Body 0's velocity: zero for a fixed base; a floating base's (w, v) from qd's (v, w).
template <class D>
HWY_INLINE void RootVelocity(D d, const DynamicsTree& tree, const InLanes& qd, size_t i,
                             const Slots& s) {
  const size_t v = BodySlot(0, dl::kV);
  if (!tree.floating_base) return PutZero(d, s, v, 6);
  HWY_UNROLL(32)
  for (size_t k = 0; k < 3; ++k) {
    Put(d, s, v + k, hn::LoadU(d, qd.Array(3 + k) + i));
    Put(d, s, v + 3 + k, hn::LoadU(d, qd.Array(k) + i));
  }
}

// out = (0, -g) in body 0's coordinates, the fictitious upward acceleration that stands for
// gravity (Featherstone 5.3): world coordinates for a fixed base, E g rotated for a floating one.
template <class D>
HWY_INLINE void NegativeGravity(D d, const DynamicsTree& tree, const float gravity[3],
                                const Slots& s, size_t out) {
  using V = hn::Vec<D>;
  PutZero(d, s, out, 3);
  V gx = hn::Set(d, gravity[0]), gy = hn::Set(d, gravity[1]), gz = hn::Set(d, gravity[2]);
  if (tree.floating_base) RotateBy(d, s, BodySlot(0, dl::kE), false, gx, gy, gz, gx, gy, gz);
  Put(d, s, out + 3, hn::Neg(gx)), Put(d, s, out + 4, hn::Neg(gy)), Put(d, s, out + 5, hn::Neg(gz));
}

// ---------------------------------------------------------------------------------------------
// Running an algorithm over a batch: one vector of robots at a time, results stored from their
// slots.

template <class D, class Store>
HWY_INLINE void StoreSlots(D d, const Slots& s, size_t first, size_t count, const OutLanes& out,
                           size_t i, Store store) {
  for (size_t k = 0; k < count; ++k) store(Get(d, s, first + k), d, out.Array(k) + i);
}

// The slots of `scratch` for `tree`, with its joint table written.
inline Slots PrepareScratch(const DynamicsTree& tree, float* scratch) {
  dl::WriteJointTable(tree, scratch);
  return {scratch, scratch + dl::JointTableOffset(tree.body_count, tree.velocity_count())};
}

// The slots a vector of robots works in: a copy of the scratch base local to the loop body, which
// the compiler keeps in a register (the shared one, captured by reference, is re-read from memory
// after every vector store, which may alias it: ABA ran 30% faster with the local copy on AVX-512).
// Not on targets with sizeless vectors (SVE): there, with the base in a register, GCC 12 moved slot
// loads past stores to the same slot (wrong inverse dynamics for the Panda with its mimic finger
// under qemu), so those targets keep the shared base, whose every access it leaves in order.
inline const Slots& VectorSlots(const Slots& local, const Slots& shared) {
#if HWY_HAVE_SCALABLE
  (void)local;
  return shared;
#else
  (void)shared;
  return local;
#endif
}

// Software prefetch into L2 of each lane array's vector kPrefetchVectorsAhead vectors past lane
// i (for writing when kWrite). A vector of robots takes thousands of cycles here, but its loads
// and first stores touch a line in every input and output array: for a mass matrix with its
// factor that is a hundred streams, too many for the hardware prefetcher, and at 1e5 robots
// MassMatrixAndFactor waited on DRAM at every vector (40% of its rate at 1e4). Addresses past an
// array's end are harmless: a prefetch never faults. Always inlined (HWY_INLINE): GCC deletes
// calls to an out-of-line function that only prefetches (kernels/base/row_prefetch.h).
inline constexpr size_t kPrefetchVectorsAhead = 2;
template <bool kWrite, class D>
HWY_INLINE void PrefetchLanes(D d, const float* data, size_t stride, size_t arrays, size_t i) {
  const uintptr_t ahead =
      reinterpret_cast<uintptr_t>(data + i) + kPrefetchVectorsAhead * hn::Lanes(d) * sizeof(float);
  for (size_t a = 0; a < arrays; ++a) {
    const uintptr_t address = ahead + a * stride * sizeof(float);
    kWrite ? PrefetchForWriteToL2(address) : PrefetchToL2(address);
  }
}
// Mass matrices of many robots (kStreamMassMatrixBytes or more, on vector-aligned arrays) are
// stored past the cache (StreamAll), which skips reading every output line before writing it;
// their lines are then not prefetched.
// The bytes of `outputs` when they could be streamed (vector-aligned arrays), else 0.
inline size_t StreamableBytes(std::initializer_list<const LanesView*> outputs) {
  size_t bytes = 0;
  for (const LanesView* view : outputs) {
    if (!IsVectorAligned(view->data) || (view->stride * sizeof(float)) % kAlignBytes != 0) {
      return 0;
    }
    bytes += view->arrays * view->count * sizeof(float);
  }
  return bytes;
}
inline bool StreamsOutputs(std::initializer_list<const LanesView*> outputs) {
  return StreamableBytes(outputs) >= kStreamMassMatrixBytes;
}

template <class D>
HWY_INLINE void PrefetchInputs(D d, const ConstLanesView& view, size_t i) {
  PrefetchLanes<false>(d, view.data, view.stride, view.arrays, i);
}
template <class D>
HWY_INLINE void PrefetchOutputs(D d, const LanesView& view, size_t i) {
  PrefetchLanes<true>(d, view.data, view.stride, view.arrays, i);
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_ROBOTS_DYNAMICS_SPATIAL_ALGEBRA_INL_H_
