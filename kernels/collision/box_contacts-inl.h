// Per-target code of the narrow phase's pairs with a box (swarm/kernels/collision/narrow_phase.h
// says what each pair computes): plane-box, sphere-box and capsule-box (a cylinder against a box
// as its capsule stand-in). Box-box has its own file (box_box_contact-inl.h).

#if defined(SWARM_KERNELS_BOX_CONTACTS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_BOX_CONTACTS_INL_H_
#undef SWARM_KERNELS_BOX_CONTACTS_INL_H_
#else
#define SWARM_KERNELS_BOX_CONTACTS_INL_H_
#endif

#include <cstddef>

#include "hwy/highway.h"
#include "kernels/base/loop-inl.h"
#include "kernels/collision/box_face-inl.h"
#include "kernels/collision/collision_math-inl.h"
#include "swarm/kernels/collision/narrow_phase.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

inline void PlaneBox(const ShapeGeometry& box, const ConstLanesView& plane_frames,
                     const ConstLanesView& box_frames, const LanesView& contacts) {
  const hn::ScalableTag<float> d;
  const FrameArrays plane(plane_frames), body(box_frames);
  const ContactArrays out(contacts, 4);
  const auto h0 = hn::Set(d, box.size[0]);
  const auto h1 = hn::Set(d, box.size[1]);
  const auto h2 = hn::Set(d, box.size[2]);
  ForEachVector(d, contacts.count, [&](size_t i, auto store) HWY_ATTR {
    using V = hn::Vec<decltype(d)>;
    V ox, oy, oz, nx, ny, nz, cx, cy, cz, e0x, e0y, e0z, e1x, e1y, e1z, e2x, e2y, e2z;
    LoadCentre(d, plane, i, ox, oy, oz);
    LoadAxis(d, plane, 2, i, nx, ny, nz);
    LoadCentre(d, body, i, cx, cy, cz);
    LoadAxis(d, body, 0, i, e0x, e0y, e0z);
    LoadAxis(d, body, 1, i, e1x, e1y, e1z);
    LoadAxis(d, body, 2, i, e2x, e2y, e2z);
    V fx, fy, fz, ux, uy, uz, vx, vy, vz, mx, my, mz;
    FaceTowards(hn::Neg(nx), hn::Neg(ny), hn::Neg(nz), cx, cy, cz, e0x, e0y, e0z, e1x, e1y, e1z,
                e2x, e2y, e2z, h0, h1, h2, fx, fy, fz, ux, uy, uz, vx, vy, vz, mx, my, mz);
    for (size_t corner = 0; corner < 4; ++corner) {
      V px, py, pz;
      FaceCorner(corner, fx, fy, fz, ux, uy, uz, vx, vy, vz, px, py, pz);
      StorePlanePoint(d, store, out, corner, i, ox, oy, oz, nx, ny, nz, px, py, pz);
    }
  });
}

// A point of the world in a box's frame (centre c, axes e0 e1 e2): (e_k . (p - c)).
template <class V>
HWY_INLINE void IntoBox(V cx, V cy, V cz, V e0x, V e0y, V e0z, V e1x, V e1y, V e1z, V e2x, V e2y,
                        V e2z, V px, V py, V pz, V& rx, V& ry, V& rz) {
  ToFrame(e0x, e0y, e0z, e1x, e1y, e1z, e2x, e2y, e2z, hn::Sub(px, cx), hn::Sub(py, cy),
          hn::Sub(pz, cz), rx, ry, rz);
}

inline void SphereBox(const ShapeGeometry& sphere, const ShapeGeometry& box,
                      const ConstLanesView& sphere_frames, const ConstLanesView& box_frames,
                      const LanesView& contacts) {
  const hn::ScalableTag<float> d;
  const FrameArrays ball(sphere_frames), body(box_frames);
  const ContactArrays out(contacts, 1);
  const auto r = hn::Set(d, sphere.size[0]);
  const auto h0 = hn::Set(d, box.size[0]);
  const auto h1 = hn::Set(d, box.size[1]);
  const auto h2 = hn::Set(d, box.size[2]);
  ForEachVector(d, contacts.count, [&](size_t i, auto store) HWY_ATTR {
    using V = hn::Vec<decltype(d)>;
    V sx, sy, sz, cx, cy, cz, e0x, e0y, e0z, e1x, e1y, e1z, e2x, e2y, e2z;
    LoadCentre(d, ball, i, sx, sy, sz);
    LoadCentre(d, body, i, cx, cy, cz);
    LoadAxis(d, body, 0, i, e0x, e0y, e0z);
    LoadAxis(d, body, 1, i, e1x, e1y, e1z);
    LoadAxis(d, body, 2, i, e2x, e2y, e2z);
    V lx, ly, lz, distance, px, py, pz, nx, ny, nz;
    IntoBox(cx, cy, cz, e0x, e0y, e0z, e1x, e1y, e1z, e2x, e2y, e2z, sx, sy, sz, lx, ly, lz);
    SphereBoxLocal(lx, ly, lz, r, h0, h1, h2, distance, px, py, pz, nx, ny, nz);
    FromFrame(e0x, e0y, e0z, e1x, e1y, e1z, e2x, e2y, e2z, px, py, pz, px, py, pz);
    FromFrame(e0x, e0y, e0z, e1x, e1y, e1z, e2x, e2y, e2z, nx, ny, nz, nx, ny, nz);
    StoreContact(d, store, out, 0, i, distance, hn::Add(px, cx), hn::Add(py, cy), hn::Add(pz, cz),
                 nx, ny, nz);
  });
}

// A capsule (or a cylinder's stand-in) and a box, in the box's frame: the end spheres, and the
// segment's point closest to the box's twelve edges (or, for a segment through the box, the
// middle of its part inside, pushed out through the nearest face) where it is closer than both
// ends by more than kMiddleLead.
inline void CapsuleBox(const ShapeGeometry& capsule, const ShapeGeometry& box,
                       const ConstLanesView& capsule_frames, const ConstLanesView& box_frames,
                       const LanesView& contacts) {
  constexpr float kMiddleLead = 1e-6f;  // m: ties of a segment lying along a face stay two points
  const hn::ScalableTag<float> d;
  const FrameArrays body(capsule_frames), cube(box_frames);
  const ContactArrays out(contacts, 3);
  const auto r = hn::Set(d, capsule.size[0]);
  const auto half = hn::Set(d, capsule.size[1]);
  const float sizes[3] = {box.size[0], box.size[1], box.size[2]};
  const auto h0 = hn::Set(d, sizes[0]);
  const auto h1 = hn::Set(d, sizes[1]);
  const auto h2 = hn::Set(d, sizes[2]);
  ForEachVector(d, contacts.count, [&](size_t i, auto store) HWY_ATTR {
    using V = hn::Vec<decltype(d)>;
    V cx, cy, cz, e0x, e0y, e0z, e1x, e1y, e1z, e2x, e2y, e2z, wx, wy, wz, ax, ay, az;
    LoadCentre(d, cube, i, cx, cy, cz);
    LoadAxis(d, cube, 0, i, e0x, e0y, e0z);
    LoadAxis(d, cube, 1, i, e1x, e1y, e1z);
    LoadAxis(d, cube, 2, i, e2x, e2y, e2z);
    LoadCentre(d, body, i, wx, wy, wz);
    LoadAxis(d, body, 2, i, ax, ay, az);
    V sx, sy, sz, tx, ty, tz;  // the segment's centre and axis in the box's frame
    IntoBox(cx, cy, cz, e0x, e0y, e0z, e1x, e1y, e1z, e2x, e2y, e2z, wx, wy, wz, sx, sy, sz);
    ToFrame(e0x, e0y, e0z, e1x, e1y, e1z, e2x, e2y, e2z, ax, ay, az, tx, ty, tz);
    const V zero = hn::Zero(d), one = hn::Set(d, 1.0f);
    // Writes a local contact in world terms.
    const auto emit = [&](size_t slot, V distance, V px, V py, V pz, V nx, V ny, V nz) HWY_ATTR {
      FromFrame(e0x, e0y, e0z, e1x, e1y, e1z, e2x, e2y, e2z, px, py, pz, px, py, pz);
      FromFrame(e0x, e0y, e0z, e1x, e1y, e1z, e2x, e2y, e2z, nx, ny, nz, nx, ny, nz);
      StoreContact(d, store, out, slot, i, distance, hn::Add(px, cx), hn::Add(py, cy),
                   hn::Add(pz, cz), nx, ny, nz);
    };
    V nearest_end = hn::Set(d, kNoContact);
    for (size_t end = 0; end < 2; ++end) {
      V px, py, pz, distance, qx, qy, qz, nx, ny, nz;
      AddScaled(sx, sy, sz, end == 0 ? hn::Neg(half) : half, tx, ty, tz, px, py, pz);
      SphereBoxLocal(px, py, pz, r, h0, h1, h2, distance, qx, qy, qz, nx, ny, nz);
      nearest_end = Smaller(nearest_end, distance);
      emit(end, distance, qx, qy, qz, nx, ny, nz);
    }
    // The segment against the twelve edges: edge (k, corner) runs along axis k at the corner's
    // signs on the other two axes.
    V best = hn::Set(d, kNoContact), bpx = zero, bpy = zero, bpz = zero, bqx = zero, bqy = zero,
      bqz = zero;
    for (size_t k = 0; k < 3; ++k) {
      const size_t k1 = (k + 1) % 3, k2 = (k + 2) % 3;
      const V hk = hn::Set(d, sizes[k]);
      for (size_t corner = 0; corner < 4; ++corner) {
        const float sign1 = (corner & 1) ? -1.0f : 1.0f, sign2 = (corner & 2) ? -1.0f : 1.0f;
        float centre[3] = {0, 0, 0}, axis[3] = {0, 0, 0};
        centre[k1] = sign1 * sizes[k1];
        centre[k2] = sign2 * sizes[k2];
        axis[k] = 1.0f;
        const V ex = hn::Set(d, centre[0]), ey = hn::Set(d, centre[1]), ez = hn::Set(d, centre[2]);
        const V dx = hn::Set(d, axis[0]), dy = hn::Set(d, axis[1]), dz = hn::Set(d, axis[2]);
        V s, t;
        ClosestSegments(sx, sy, sz, tx, ty, tz, half, ex, ey, ez, dx, dy, dz, hk, s, t);
        V px, py, pz, qx, qy, qz;
        AddScaled(sx, sy, sz, s, tx, ty, tz, px, py, pz);
        AddScaled(ex, ey, ez, t, dx, dy, dz, qx, qy, qz);
        const V gx = hn::Sub(qx, px), gy = hn::Sub(qy, py), gz = hn::Sub(qz, pz);
        const V gap = Dot3(gx, gy, gz, gx, gy, gz);
        const auto closer = hn::Lt(gap, best);
        best = hn::IfThenElse(closer, gap, best);
        bpx = hn::IfThenElse(closer, px, bpx);
        bpy = hn::IfThenElse(closer, py, bpy);
        bpz = hn::IfThenElse(closer, pz, bpz);
        bqx = hn::IfThenElse(closer, qx, bqx);
        bqy = hn::IfThenElse(closer, qy, bqy);
        bqz = hn::IfThenElse(closer, qz, bqz);
      }
    }
    V distance, px, py, pz, nx, ny, nz;
    SphereSphere(bpx, bpy, bpz, r, bqx, bqy, bqz, zero, distance, px, py, pz, nx, ny, nz);
    // The part of the segment inside the box: the parameters inside every slab.
    const V far = hn::Set(d, 3.0e38f);
    V enter = hn::Neg(half), leave = half;
    for (size_t k = 0; k < 3; ++k) {
      const V c = k == 0 ? sx : (k == 1 ? sy : sz);
      const V a = k == 0 ? tx : (k == 1 ? ty : tz);
      const V hk = k == 0 ? h0 : (k == 1 ? h1 : h2);
      const auto moving = hn::Gt(hn::Abs(a), hn::Set(d, 1e-12f));
      const V safe = hn::IfThenElse(moving, a, one);
      const V t1 = hn::Div(hn::Sub(hn::Neg(hk), c), safe);
      const V t2 = hn::Div(hn::Sub(hk, c), safe);
      const auto swapped = hn::Lt(t2, t1);
      V low = hn::IfThenElse(swapped, t2, t1), high = hn::IfThenElse(swapped, t1, t2);
      // A segment parallel to the slab is inside it everywhere or nowhere.
      const auto within = hn::Le(hn::Abs(c), hk);
      low = hn::IfThenElse(moving, low, hn::IfThenElse(within, hn::Neg(far), far));
      high = hn::IfThenElse(moving, high, hn::IfThenElse(within, far, hn::Neg(far)));
      enter = hn::IfThenElse(hn::Gt(low, enter), low, enter);
      leave = Smaller(leave, high);
    }
    const auto through = hn::Le(enter, leave);
    const V middle = hn::Mul(hn::Add(enter, leave), hn::Set(d, 0.5f));
    V mx, my, mz, inner, ix, iy, iz, jx, jy, jz;
    AddScaled(sx, sy, sz, middle, tx, ty, tz, mx, my, mz);
    SphereBoxLocal(mx, my, mz, r, h0, h1, h2, inner, ix, iy, iz, jx, jy, jz);
    distance = hn::IfThenElse(through, inner, distance);
    px = hn::IfThenElse(through, ix, px);
    py = hn::IfThenElse(through, iy, py);
    pz = hn::IfThenElse(through, iz, pz);
    nx = hn::IfThenElse(through, jx, nx);
    ny = hn::IfThenElse(through, jy, ny);
    nz = hn::IfThenElse(through, jz, nz);
    const auto leads = hn::Lt(distance, hn::Sub(nearest_end, hn::Set(d, kMiddleLead)));
    emit(2, hn::IfThenElse(leads, distance, hn::Set(d, kNoContact)), px, py, pz, nx, ny, nz);
  });
}

// The pairs of this file: b is a box; a is a plane, a sphere, or a capsule or cylinder (its
// capsule stand-in).
inline void CollideWithBoxImpl(const ShapeGeometry& a, const ShapeGeometry& b,
                               const ConstLanesView& frames_a, const ConstLanesView& frames_b,
                               const LanesView& contacts) {
  if (a.type == ShapeType::kPlane) return PlaneBox(b, frames_a, frames_b, contacts);
  if (a.type == ShapeType::kSphere) return SphereBox(a, b, frames_a, frames_b, contacts);
  return CapsuleBox(a, b, frames_a, frames_b, contacts);
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_BOX_CONTACTS_INL_H_
