// Per-target geometry shared by the narrow-phase kernels (swarm/kernels/collision/narrow_phase.h):
// 3-vector arithmetic (Dot3 and Cross are the quaternion kernels'), reading shape frames, writing
// contact slots, and the closest-point routines the pairs are built from. A 3-vector is three
// vectors of lanes (x, y, z) passed by value and returned through references (docs/kernel-rules.md:
// no vectors in structs or arrays). Every function fixes its order of correctly rounded operations;
// selects replace branches, so every lane does the same work.

#if defined(SWARM_KERNELS_COLLISION_MATH_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_COLLISION_MATH_INL_H_
#undef SWARM_KERNELS_COLLISION_MATH_INL_H_
#else
#define SWARM_KERNELS_COLLISION_MATH_INL_H_
#endif

#include <cstddef>

#include "hwy/highway.h"
#include "kernels/base/loop-inl.h"
#include "kernels/geometry/quaternion_math-inl.h"
#include "swarm/kernels/base/views.h"
#include "swarm/kernels/collision/narrow_phase.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// r = a + s b.
template <class V>
HWY_INLINE void AddScaled(V ax, V ay, V az, V s, V bx, V by, V bz, V& rx, V& ry, V& rz) {
  rx = hn::Add(ax, hn::Mul(s, bx));
  ry = hn::Add(ay, hn::Mul(s, by));
  rz = hn::Add(az, hn::Mul(s, bz));
}

// x limited to [low, high] by compare and select (low first).
template <class V>
HWY_INLINE V ClampTo(V x, V low, V high) {
  x = hn::IfThenElse(hn::Lt(x, low), low, x);
  return hn::IfThenElse(hn::Gt(x, high), high, x);
}

// The smaller of a and b, a on ties (inputs finite by contract).
template <class V>
HWY_INLINE V Smaller(V a, V b) {
  return hn::IfThenElse(hn::Lt(b, a), b, a);
}

// -1 where x < 0, else +1.
template <class V>
HWY_INLINE V SignOf(V x) {
  const hn::DFromV<V> d;
  return hn::IfThenElse(hn::Lt(x, hn::Zero(d)), hn::Set(d, -1.0f), hn::Set(d, 1.0f));
}

// r = v / |v|, or the fallback where |v|^2 <= tiny (coincident points, a degenerate direction).
template <class V>
HWY_INLINE void NormalizeOr(V x, V y, V z, V fallback_x, V fallback_y, V fallback_z, V& rx, V& ry,
                            V& rz) {
  const hn::DFromV<V> d;
  const V length_squared = Dot3(x, y, z, x, y, z);
  const auto degenerate = hn::Le(length_squared, hn::Set(d, 1e-24f));
  const V inverse = hn::Div(hn::Set(d, 1.0f),
                            hn::Sqrt(hn::IfThenElse(degenerate, hn::Set(d, 1.0f), length_squared)));
  rx = hn::IfThenElse(degenerate, fallback_x, hn::Mul(x, inverse));
  ry = hn::IfThenElse(degenerate, fallback_y, hn::Mul(y, inverse));
  rz = hn::IfThenElse(degenerate, fallback_z, hn::Mul(z, inverse));
}

// The four rim points of a cylinder (centre c, unit x axis e, unit axis a, radius, half length)
// that reach farthest along the unit direction `down` (into a plane whose normal is -down):
// emit(slot, p) gets the farthest rim point of the lower cap (slot 0) and of the upper one (1), and
// the lower cap's rim points at +-120 degrees from its farthest (2, 3). A cylinder on a cap stands
// on three points, on its side on two.
template <class V, class Emit>
HWY_INLINE void CylinderRimTowards(V downx, V downy, V downz, V cx, V cy, V cz, V ex, V ey, V ez,
                                   V ax, V ay, V az, V radius, V half, const Emit& emit) {
  const hn::DFromV<V> d;
  // cos and sin of 120 degrees.
  const V cos120 = hn::Set(d, -0.5f);
  const V sin120 = hn::Set(d, 0.8660254037844386f);
  // The rim direction that points most along `down`: down without its part along the axis (the
  // cylinder's x axis when it stands upright, where every rim point is equally low).
  const V k = hn::Neg(Dot3(downx, downy, downz, ax, ay, az));
  V wx, wy, wz;
  NormalizeOr(hn::Add(hn::Mul(k, ax), downx), hn::Add(hn::Mul(k, ay), downy),
              hn::Add(hn::Mul(k, az), downz), ex, ey, ez, wx, wy, wz);
  V sx, sy, sz;  // a x w, the rim's other direction
  Cross(ax, ay, az, wx, wy, wz, sx, sy, sz);
  // The lower cap is the one on the side the axis leaves the plane from.
  const V toward_low = hn::Mul(hn::Neg(SignOf(k)), half);
  V lx, ly, lz, ux, uy, uz;
  AddScaled(cx, cy, cz, toward_low, ax, ay, az, lx, ly, lz);
  AddScaled(cx, cy, cz, hn::Neg(toward_low), ax, ay, az, ux, uy, uz);
  V px, py, pz;
  AddScaled(lx, ly, lz, radius, wx, wy, wz, px, py, pz);
  emit(0, px, py, pz);
  AddScaled(ux, uy, uz, radius, wx, wy, wz, px, py, pz);
  emit(1, px, py, pz);
  const V back = hn::Mul(radius, cos120);
  const V side = hn::Mul(radius, sin120);
  AddScaled(lx, ly, lz, back, wx, wy, wz, lx, ly, lz);
  AddScaled(lx, ly, lz, side, sx, sy, sz, px, py, pz);
  emit(2, px, py, pz);
  AddScaled(lx, ly, lz, hn::Neg(side), sx, sy, sz, px, py, pz);
  emit(3, px, py, pz);
}

// The lane pointers of one shape's frames, hoisted out of the loop (stores may alias them).
struct FrameArrays {
  const float* HWY_RESTRICT a[kShapeFrameArrays];
  explicit FrameArrays(const ConstLanesView& frames) {
    for (size_t k = 0; k < kShapeFrameArrays; ++k) a[k] = frames.Array(k);
  }
};

template <class D, class V = hn::Vec<D>>
HWY_INLINE void LoadCentre(D d, const FrameArrays& f, size_t i, V& x, V& y, V& z) {
  x = hn::LoadU(d, f.a[0] + i);
  y = hn::LoadU(d, f.a[1] + i);
  z = hn::LoadU(d, f.a[2] + i);
}

// Column `axis` of the rotation: the shape's axis in the world.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void LoadAxis(D d, const FrameArrays& f, size_t axis, size_t i, V& x, V& y, V& z) {
  x = hn::LoadU(d, f.a[3 + axis] + i);
  y = hn::LoadU(d, f.a[6 + axis] + i);
  z = hn::LoadU(d, f.a[9 + axis] + i);
}

// The lane pointers of a pair's contact slots.
struct ContactArrays {
  float* HWY_RESTRICT a[kContactArrays * kMaxContactSlots];
  ContactArrays(const LanesView& contacts, size_t slots) {
    for (size_t k = 0; k < kContactArrays * slots; ++k) a[k] = contacts.Array(k);
  }
};

template <class D, class Store, class V = hn::Vec<D>>
HWY_INLINE void StoreContact(D d, Store store, const ContactArrays& c, size_t slot, size_t i,
                             V distance, V px, V py, V pz, V nx, V ny, V nz) {
  float* HWY_RESTRICT const* out = c.a + kContactArrays * slot;
  store(distance, d, out[0] + i);
  store(px, d, out[1] + i);
  store(py, d, out[2] + i);
  store(pz, d, out[3] + i);
  store(nx, d, out[4] + i);
  store(ny, d, out[5] + i);
  store(nz, d, out[6] + i);
}

// The contact of a point p (a shape's support point towards the plane) with the plane through o
// with unit normal n: distance n . (p - o), point p - n distance / 2, normal n (plane to shape).
template <class D, class Store, class V = hn::Vec<D>>
HWY_INLINE void StorePlanePoint(D d, Store store, const ContactArrays& out, size_t slot, size_t i,
                                V ox, V oy, V oz, V nx, V ny, V nz, V px, V py, V pz) {
  const V distance = Dot3(nx, ny, nz, hn::Sub(px, ox), hn::Sub(py, oy), hn::Sub(pz, oz));
  V cx, cy, cz;
  AddScaled(px, py, pz, hn::Mul(distance, hn::Set(d, -0.5f)), nx, ny, nz, cx, cy, cz);
  StoreContact(d, store, out, slot, i, distance, cx, cy, cz, nx, ny, nz);
}

// The contact of a sphere (centre a, radius ra) with a sphere (centre b, radius rb): normal from a
// to b (+z where the centres coincide), distance |b - a| - ra - rb, point halfway between the
// surfaces, a + n (ra + distance / 2).
template <class V>
HWY_INLINE void SphereSphere(V ax, V ay, V az, V ra, V bx, V by, V bz, V rb, V& distance, V& px,
                             V& py, V& pz, V& nx, V& ny, V& nz) {
  const hn::DFromV<V> d;
  const V dx = hn::Sub(bx, ax), dy = hn::Sub(by, ay), dz = hn::Sub(bz, az);
  const V zero = hn::Zero(d);
  NormalizeOr(dx, dy, dz, zero, zero, hn::Set(d, 1.0f), nx, ny, nz);
  const V length = Dot3(dx, dy, dz, nx, ny, nz);
  distance = hn::Sub(hn::Sub(length, ra), rb);
  const V reach = hn::Add(ra, hn::Mul(distance, hn::Set(d, 0.5f)));
  AddScaled(ax, ay, az, reach, nx, ny, nz, px, py, pz);
}

// The parameter t in [-half, half] of the point of the segment centre c + t axis (unit axis)
// closest to p.
template <class V>
HWY_INLINE V ClosestOnSegment(V cx, V cy, V cz, V ax, V ay, V az, V half, V px, V py, V pz) {
  const V t = Dot3(hn::Sub(px, cx), hn::Sub(py, cy), hn::Sub(pz, cz), ax, ay, az);
  return ClampTo(t, hn::Neg(half), half);
}

// The closest points of two segments c1 + s a1 (s in [-h1, h1]) and c2 + t a2 (t in [-h2, h2]),
// unit axes (Ericson, "Real-Time Collision Detection", 5.1.9, for centred segments): s from the
// lines' closest points (0 for parallel lines), t the closest to c1 + s a1, then s again the
// closest to c2 + t a2.
template <class V>
HWY_INLINE void ClosestSegments(V c1x, V c1y, V c1z, V a1x, V a1y, V a1z, V h1, V c2x, V c2y, V c2z,
                                V a2x, V a2y, V a2z, V h2, V& s, V& t) {
  const hn::DFromV<V> d;
  const V rx = hn::Sub(c1x, c2x), ry = hn::Sub(c1y, c2y), rz = hn::Sub(c1z, c2z);
  const V b = Dot3(a1x, a1y, a1z, a2x, a2y, a2z);
  const V c = Dot3(a1x, a1y, a1z, rx, ry, rz);
  const V f = Dot3(a2x, a2y, a2z, rx, ry, rz);
  const V denominator = hn::Sub(hn::Set(d, 1.0f), hn::Mul(b, b));
  const auto parallel = hn::Le(denominator, hn::Set(d, 1e-12f));
  const V safe = hn::IfThenElse(parallel, hn::Set(d, 1.0f), denominator);
  s = hn::IfThenElseZero(hn::Not(parallel), hn::Div(hn::Sub(hn::Mul(b, f), c), safe));
  s = ClampTo(s, hn::Neg(h1), h1);
  t = ClampTo(hn::Add(hn::Mul(b, s), f), hn::Neg(h2), h2);
  s = ClampTo(hn::Sub(hn::Mul(b, t), c), hn::Neg(h1), h1);
}

// The contact of a sphere (centre s in the box's frame, radius r) with a box of half sizes h:
// outside, towards the box's closest point; with the centre inside, out through the nearest face
// (the lower axis on ties). The normal (from the sphere to the box) and point stay in the box's
// frame.
template <class V>
HWY_INLINE void SphereBoxLocal(V sx, V sy, V sz, V r, V hx, V hy, V hz, V& distance, V& px, V& py,
                               V& pz, V& nx, V& ny, V& nz) {
  const hn::DFromV<V> d;
  const V qx = ClampTo(sx, hn::Neg(hx), hx);
  const V qy = ClampTo(sy, hn::Neg(hy), hy);
  const V qz = ClampTo(sz, hn::Neg(hz), hz);
  const V dx = hn::Sub(qx, sx), dy = hn::Sub(qy, sy), dz = hn::Sub(qz, sz);
  const V zero = hn::Zero(d);
  V ox, oy, oz;
  NormalizeOr(dx, dy, dz, zero, zero, hn::Set(d, 1.0f), ox, oy, oz);
  const V outside_gap = Dot3(dx, dy, dz, ox, oy, oz);
  // Inside: the depth to each face pair, the smallest wins; the sphere leaves through that face,
  // so the normal points the other way, into the box.
  const V depth_x = hn::Sub(hx, hn::Abs(sx));
  const V depth_y = hn::Sub(hy, hn::Abs(sy));
  const V depth_z = hn::Sub(hz, hn::Abs(sz));
  const auto use_y = hn::Lt(depth_y, depth_x);
  V depth = hn::IfThenElse(use_y, depth_y, depth_x);
  const auto use_z = hn::Lt(depth_z, depth);
  depth = hn::IfThenElse(use_z, depth_z, depth);
  const auto pick_x = hn::Not(hn::Or(use_y, use_z));
  const auto pick_y = hn::AndNot(use_z, use_y);
  const V ix = hn::IfThenElseZero(pick_x, hn::Neg(SignOf(sx)));
  const V iy = hn::IfThenElseZero(pick_y, hn::Neg(SignOf(sy)));
  const V iz = hn::IfThenElseZero(use_z, hn::Neg(SignOf(sz)));
  const auto inside = hn::Le(Dot3(dx, dy, dz, dx, dy, dz), zero);
  nx = hn::IfThenElse(inside, ix, ox);
  ny = hn::IfThenElse(inside, iy, oy);
  nz = hn::IfThenElse(inside, iz, oz);
  distance = hn::Sub(hn::IfThenElse(inside, hn::Neg(depth), outside_gap), r);
  const V reach = hn::Add(r, hn::Mul(distance, hn::Set(d, 0.5f)));
  AddScaled(sx, sy, sz, reach, nx, ny, nz, px, py, pz);
}

// v in a frame with axes (u, v, w): (u . v, v . v, w . v).
template <class V>
HWY_INLINE void ToFrame(V ux, V uy, V uz, V vx, V vy, V vz, V wx, V wy, V wz, V x, V y, V z, V& rx,
                        V& ry, V& rz) {
  const V a = Dot3(ux, uy, uz, x, y, z);
  const V b = Dot3(vx, vy, vz, x, y, z);
  const V c = Dot3(wx, wy, wz, x, y, z);
  rx = a;
  ry = b;
  rz = c;
}

// Local coordinates back to the world: x u + y v + z w.
template <class V>
HWY_INLINE void FromFrame(V ux, V uy, V uz, V vx, V vy, V vz, V wx, V wy, V wz, V x, V y, V z,
                          V& rx, V& ry, V& rz) {
  const V a = hn::Add(hn::Add(hn::Mul(x, ux), hn::Mul(y, vx)), hn::Mul(z, wx));
  const V b = hn::Add(hn::Add(hn::Mul(x, uy), hn::Mul(y, vy)), hn::Mul(z, wy));
  const V c = hn::Add(hn::Add(hn::Mul(x, uz), hn::Mul(y, vz)), hn::Mul(z, wz));
  rx = a;
  ry = b;
  rz = c;
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_COLLISION_MATH_INL_H_
