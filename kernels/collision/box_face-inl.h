// Per-target selection of a box's face, shared by the narrow phase's box pairs
// (swarm/kernels/collision/narrow_phase.h): the face whose outward normal points most along a
// direction, as its centre and two half edges, chosen per lane by selects.

#if defined(SWARM_KERNELS_BOX_FACE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_BOX_FACE_INL_H_
#undef SWARM_KERNELS_BOX_FACE_INL_H_
#else
#define SWARM_KERNELS_BOX_FACE_INL_H_
#endif

#include <cstddef>

#include "hwy/highway.h"
#include "kernels/collision/collision_math-inl.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// v0, v1 or v2 for the axis index k in {0, 1, 2} given as the masks is1 (k == 1), is2 (k == 2).
template <class M, class V>
HWY_INLINE V PickOf3(M is1, M is2, V v0, V v1, V v2) {
  return hn::IfThenElse(is2, v2, hn::IfThenElse(is1, v1, v0));
}

// The axes (e_k, e_k+1, e_k+2) and half sizes of a box in the cyclic order that starts at k (a
// right-handed frame): n, u, v and their half sizes hn_, hu, hv.
template <class M, class V>
HWY_INLINE void CyclicAxes(M is1, M is2, V e0x, V e0y, V e0z, V e1x, V e1y, V e1z, V e2x, V e2y,
                           V e2z, V h0, V h1, V h2, V& nx, V& ny, V& nz, V& ux, V& uy, V& uz, V& vx,
                           V& vy, V& vz, V& hn_, V& hu, V& hv) {
  nx = PickOf3(is1, is2, e0x, e1x, e2x);
  ny = PickOf3(is1, is2, e0y, e1y, e2y);
  nz = PickOf3(is1, is2, e0z, e1z, e2z);
  ux = PickOf3(is1, is2, e1x, e2x, e0x);
  uy = PickOf3(is1, is2, e1y, e2y, e0y);
  uz = PickOf3(is1, is2, e1z, e2z, e0z);
  vx = PickOf3(is1, is2, e2x, e0x, e1x);
  vy = PickOf3(is1, is2, e2y, e0y, e1y);
  vz = PickOf3(is1, is2, e2z, e0z, e1z);
  hn_ = PickOf3(is1, is2, h0, h1, h2);
  hu = PickOf3(is1, is2, h1, h2, h0);
  hv = PickOf3(is1, is2, h2, h0, h1);
}

// The face of the box (centre c, axes e0 e1 e2, half sizes h0 h1 h2) whose outward normal m has
// the largest dot product with `dir` (the lower axis on ties): its centre f and half edges u, v
// (f +- u +- v are its corners). Its corners include the box's corner farthest along dir.
template <class V>
HWY_INLINE void FaceTowards(V dx, V dy, V dz, V cx, V cy, V cz, V e0x, V e0y, V e0z, V e1x, V e1y,
                            V e1z, V e2x, V e2y, V e2z, V h0, V h1, V h2, V& fx, V& fy, V& fz,
                            V& ux, V& uy, V& uz, V& vx, V& vy, V& vz, V& mx, V& my, V& mz) {
  const V k0 = Dot3(dx, dy, dz, e0x, e0y, e0z);
  const V k1 = Dot3(dx, dy, dz, e1x, e1y, e1z);
  const V k2 = Dot3(dx, dy, dz, e2x, e2y, e2z);
  const auto over1 = hn::Gt(hn::Abs(k1), hn::Abs(k0));
  const V best = hn::IfThenElse(over1, hn::Abs(k1), hn::Abs(k0));
  const auto is2 = hn::Gt(hn::Abs(k2), best);
  const auto is1 = hn::AndNot(is2, over1);
  V hn_, hu, hv;
  CyclicAxes(is1, is2, e0x, e0y, e0z, e1x, e1y, e1z, e2x, e2y, e2z, h0, h1, h2, mx, my, mz, ux, uy,
             uz, vx, vy, vz, hn_, hu, hv);
  const V sign = SignOf(PickOf3(is1, is2, k0, k1, k2));
  mx = hn::Mul(sign, mx);
  my = hn::Mul(sign, my);
  mz = hn::Mul(sign, mz);
  AddScaled(cx, cy, cz, hn_, mx, my, mz, fx, fy, fz);
  ux = hn::Mul(hu, ux);
  uy = hn::Mul(hu, uy);
  uz = hn::Mul(hu, uz);
  vx = hn::Mul(hv, vx);
  vy = hn::Mul(hv, vy);
  vz = hn::Mul(hv, vz);
}

// Corner `corner` of a face (centre f, half edges u, v) in the order (+u +v), (-u +v), (-u -v),
// (+u -v): around the face.
template <class V>
HWY_INLINE void FaceCorner(size_t corner, V fx, V fy, V fz, V ux, V uy, V uz, V vx, V vy, V vz,
                           V& px, V& py, V& pz) {
  const bool minus_u = corner == 1 || corner == 2;
  const bool minus_v = corner >= 2;
  px = minus_u ? hn::Sub(fx, ux) : hn::Add(fx, ux);
  py = minus_u ? hn::Sub(fy, uy) : hn::Add(fy, uy);
  pz = minus_u ? hn::Sub(fz, uz) : hn::Add(fz, uz);
  px = minus_v ? hn::Sub(px, vx) : hn::Add(px, vx);
  py = minus_v ? hn::Sub(py, vy) : hn::Add(py, vy);
  pz = minus_v ? hn::Sub(pz, vz) : hn::Add(pz, vz);
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_BOX_FACE_INL_H_
