// Per-target code of the narrow phase's pairs without boxes (swarm/kernels/collision/narrow_phase.h
// says what each pair computes): a plane with a sphere, capsule or cylinder, and spheres, capsules
// and cylinders with each other (a cylinder against a capsule or cylinder as its capsule stand-in).
// Loops run over whole vectors of lanes; every lane does the same operations.

#if defined(SWARM_KERNELS_PRIMITIVE_CONTACTS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_PRIMITIVE_CONTACTS_INL_H_
#undef SWARM_KERNELS_PRIMITIVE_CONTACTS_INL_H_
#else
#define SWARM_KERNELS_PRIMITIVE_CONTACTS_INL_H_
#endif

#include <cstddef>

#include "hwy/highway.h"
#include "kernels/base/loop-inl.h"
#include "kernels/collision/collision_math-inl.h"
#include "swarm/kernels/collision/narrow_phase.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

inline void PlaneSphere(const ShapeGeometry& sphere, const ConstLanesView& plane_frames,
                        const ConstLanesView& sphere_frames, const LanesView& contacts) {
  const hn::ScalableTag<float> d;
  const FrameArrays plane(plane_frames), ball(sphere_frames);
  const ContactArrays out(contacts, 1);
  const auto radius = hn::Set(d, sphere.size[0]);
  ForEachVector(d, contacts.count, [&](size_t i, auto store) HWY_ATTR {
    hn::Vec<decltype(d)> ox, oy, oz, nx, ny, nz, cx, cy, cz;
    LoadCentre(d, plane, i, ox, oy, oz);
    LoadAxis(d, plane, 2, i, nx, ny, nz);
    LoadCentre(d, ball, i, cx, cy, cz);
    AddScaled(cx, cy, cz, hn::Neg(radius), nx, ny, nz, cx, cy, cz);
    StorePlanePoint(d, store, out, 0, i, ox, oy, oz, nx, ny, nz, cx, cy, cz);
  });
}

inline void PlaneCapsule(const ShapeGeometry& capsule, const ConstLanesView& plane_frames,
                         const ConstLanesView& capsule_frames, const LanesView& contacts) {
  const hn::ScalableTag<float> d;
  const FrameArrays plane(plane_frames), body(capsule_frames);
  const ContactArrays out(contacts, 2);
  const auto radius = hn::Set(d, capsule.size[0]);
  const auto half = hn::Set(d, capsule.size[1]);
  ForEachVector(d, contacts.count, [&](size_t i, auto store) HWY_ATTR {
    hn::Vec<decltype(d)> ox, oy, oz, nx, ny, nz, cx, cy, cz, ax, ay, az;
    LoadCentre(d, plane, i, ox, oy, oz);
    LoadAxis(d, plane, 2, i, nx, ny, nz);
    LoadCentre(d, body, i, cx, cy, cz);
    LoadAxis(d, body, 2, i, ax, ay, az);
    AddScaled(cx, cy, cz, hn::Neg(radius), nx, ny, nz, cx, cy, cz);
    for (size_t end = 0; end < 2; ++end) {
      const auto along = end == 0 ? hn::Neg(half) : half;
      hn::Vec<decltype(d)> px, py, pz;
      AddScaled(cx, cy, cz, along, ax, ay, az, px, py, pz);
      StorePlanePoint(d, store, out, end, i, ox, oy, oz, nx, ny, nz, px, py, pz);
    }
  });
}

inline void PlaneCylinder(const ShapeGeometry& cylinder, const ConstLanesView& plane_frames,
                          const ConstLanesView& cylinder_frames, const LanesView& contacts) {
  const hn::ScalableTag<float> d;
  const FrameArrays plane(plane_frames), body(cylinder_frames);
  const ContactArrays out(contacts, 4);
  const auto radius = hn::Set(d, cylinder.size[0]);
  const auto half = hn::Set(d, cylinder.size[1]);
  ForEachVector(d, contacts.count, [&](size_t i, auto store) HWY_ATTR {
    using V = hn::Vec<decltype(d)>;
    V ox, oy, oz, nx, ny, nz, cx, cy, cz, ax, ay, az, ex, ey, ez;
    LoadCentre(d, plane, i, ox, oy, oz);
    LoadAxis(d, plane, 2, i, nx, ny, nz);
    LoadCentre(d, body, i, cx, cy, cz);
    LoadAxis(d, body, 0, i, ex, ey, ez);
    LoadAxis(d, body, 2, i, ax, ay, az);
    CylinderRimTowards(hn::Neg(nx), hn::Neg(ny), hn::Neg(nz), cx, cy, cz, ex, ey, ez, ax, ay, az,
                       radius, half, [&](size_t slot, V px, V py, V pz) HWY_ATTR {
                         StorePlanePoint(d, store, out, slot, i, ox, oy, oz, nx, ny, nz, px, py,
                                         pz);
                       });
  });
}

inline void SphereSpherePair(const ShapeGeometry& a, const ShapeGeometry& b,
                             const ConstLanesView& frames_a, const ConstLanesView& frames_b,
                             const LanesView& contacts) {
  const hn::ScalableTag<float> d;
  const FrameArrays fa(frames_a), fb(frames_b);
  const ContactArrays out(contacts, 1);
  const auto ra = hn::Set(d, a.size[0]);
  const auto rb = hn::Set(d, b.size[0]);
  ForEachVector(d, contacts.count, [&](size_t i, auto store) HWY_ATTR {
    hn::Vec<decltype(d)> ax, ay, az, bx, by, bz, distance, px, py, pz, nx, ny, nz;
    LoadCentre(d, fa, i, ax, ay, az);
    LoadCentre(d, fb, i, bx, by, bz);
    SphereSphere(ax, ay, az, ra, bx, by, bz, rb, distance, px, py, pz, nx, ny, nz);
    StoreContact(d, store, out, 0, i, distance, px, py, pz, nx, ny, nz);
  });
}

inline void SphereCapsule(const ShapeGeometry& sphere, const ShapeGeometry& capsule,
                          const ConstLanesView& sphere_frames, const ConstLanesView& capsule_frames,
                          const LanesView& contacts) {
  const hn::ScalableTag<float> d;
  const FrameArrays ball(sphere_frames), body(capsule_frames);
  const ContactArrays out(contacts, 1);
  const auto ra = hn::Set(d, sphere.size[0]);
  const auto rb = hn::Set(d, capsule.size[0]);
  const auto half = hn::Set(d, capsule.size[1]);
  ForEachVector(d, contacts.count, [&](size_t i, auto store) HWY_ATTR {
    hn::Vec<decltype(d)> sx, sy, sz, cx, cy, cz, ax, ay, az, distance, px, py, pz, nx, ny, nz;
    LoadCentre(d, ball, i, sx, sy, sz);
    LoadCentre(d, body, i, cx, cy, cz);
    LoadAxis(d, body, 2, i, ax, ay, az);
    const auto t = ClosestOnSegment(cx, cy, cz, ax, ay, az, half, sx, sy, sz);
    AddScaled(cx, cy, cz, t, ax, ay, az, cx, cy, cz);
    SphereSphere(sx, sy, sz, ra, cx, cy, cz, rb, distance, px, py, pz, nx, ny, nz);
    StoreContact(d, store, out, 0, i, distance, px, py, pz, nx, ny, nz);
  });
}

// In the cylinder's frame: the closest point of the solid cylinder to the sphere's centre when
// outside; inside, out through the nearer of the side and the nearer cap (the side on ties).
inline void SphereCylinder(const ShapeGeometry& sphere, const ShapeGeometry& cylinder,
                           const ConstLanesView& sphere_frames,
                           const ConstLanesView& cylinder_frames, const LanesView& contacts) {
  const hn::ScalableTag<float> d;
  const FrameArrays ball(sphere_frames), body(cylinder_frames);
  const ContactArrays out(contacts, 1);
  const auto rs = hn::Set(d, sphere.size[0]);
  const auto radius = hn::Set(d, cylinder.size[0]);
  const auto half = hn::Set(d, cylinder.size[1]);
  ForEachVector(d, contacts.count, [&](size_t i, auto store) HWY_ATTR {
    using V = hn::Vec<decltype(d)>;
    V sx, sy, sz, cx, cy, cz, ax, ay, az, ex, ey, ez;
    LoadCentre(d, ball, i, sx, sy, sz);
    LoadCentre(d, body, i, cx, cy, cz);
    LoadAxis(d, body, 0, i, ex, ey, ez);
    LoadAxis(d, body, 2, i, ax, ay, az);
    const V rx = hn::Sub(sx, cx), ry = hn::Sub(sy, cy), rz = hn::Sub(sz, cz);
    const V z = Dot3(rx, ry, rz, ax, ay, az);
    V ux, uy, uz;  // the radial direction
    AddScaled(rx, ry, rz, hn::Neg(z), ax, ay, az, ux, uy, uz);
    NormalizeOr(ux, uy, uz, ex, ey, ez, ux, uy, uz);
    const V rho = Dot3(rx, ry, rz, ux, uy, uz);
    const V zc = ClampTo(z, hn::Neg(half), half);
    const V rhoc = Smaller(rho, radius);
    V qx, qy, qz;
    AddScaled(cx, cy, cz, zc, ax, ay, az, qx, qy, qz);
    AddScaled(qx, qy, qz, rhoc, ux, uy, uz, qx, qy, qz);
    V nx, ny, nz;
    const V zero = hn::Zero(d);
    NormalizeOr(hn::Sub(qx, sx), hn::Sub(qy, sy), hn::Sub(qz, sz), zero, zero, hn::Set(d, 1.0f), nx,
                ny, nz);
    const V gap = Dot3(hn::Sub(qx, sx), hn::Sub(qy, sy), hn::Sub(qz, sz), nx, ny, nz);
    const V side_depth = hn::Sub(radius, rho);
    const V cap_depth = hn::Sub(half, hn::Abs(z));
    const auto through_cap = hn::Lt(cap_depth, side_depth);
    const auto inside = hn::And(hn::Le(hn::Abs(z), half), hn::Le(rho, radius));
    const V cap_sign = hn::Neg(SignOf(z));
    const V ix = hn::IfThenElse(through_cap, hn::Mul(cap_sign, ax), hn::Neg(ux));
    const V iy = hn::IfThenElse(through_cap, hn::Mul(cap_sign, ay), hn::Neg(uy));
    const V iz = hn::IfThenElse(through_cap, hn::Mul(cap_sign, az), hn::Neg(uz));
    nx = hn::IfThenElse(inside, ix, nx);
    ny = hn::IfThenElse(inside, iy, ny);
    nz = hn::IfThenElse(inside, iz, nz);
    const V depth = hn::IfThenElse(through_cap, cap_depth, side_depth);
    const V distance = hn::Sub(hn::IfThenElse(inside, hn::Neg(depth), gap), rs);
    const V reach = hn::Add(rs, hn::Mul(distance, hn::Set(d, 0.5f)));
    V px, py, pz;
    AddScaled(sx, sy, sz, reach, nx, ny, nz, px, py, pz);
    StoreContact(d, store, out, 0, i, distance, px, py, pz, nx, ny, nz);
  });
}

// Two capsules (a cylinder as its stand-in): one contact at the segments' closest points, or two
// at the ends of their overlap when they are parallel to within sin^2 <= 1e-4.
inline void CapsuleCapsule(const ShapeGeometry& a, const ShapeGeometry& b,
                           const ConstLanesView& frames_a, const ConstLanesView& frames_b,
                           const LanesView& contacts) {
  const hn::ScalableTag<float> d;
  const FrameArrays fa(frames_a), fb(frames_b);
  const ContactArrays out(contacts, 2);
  const auto ra = hn::Set(d, a.size[0]);
  const auto ha = hn::Set(d, a.size[1]);
  const auto rb = hn::Set(d, b.size[0]);
  const auto hb = hn::Set(d, b.size[1]);
  ForEachVector(d, contacts.count, [&](size_t i, auto store) HWY_ATTR {
    using V = hn::Vec<decltype(d)>;
    V c1x, c1y, c1z, a1x, a1y, a1z, c2x, c2y, c2z, a2x, a2y, a2z;
    LoadCentre(d, fa, i, c1x, c1y, c1z);
    LoadAxis(d, fa, 2, i, a1x, a1y, a1z);
    LoadCentre(d, fb, i, c2x, c2y, c2z);
    LoadAxis(d, fb, 2, i, a2x, a2y, a2z);
    V s, t;
    ClosestSegments(c1x, c1y, c1z, a1x, a1y, a1z, ha, c2x, c2y, c2z, a2x, a2y, a2z, hb, s, t);
    // b's ends along a's axis, and their overlap with a's segment.
    const V b_dot = Dot3(a1x, a1y, a1z, a2x, a2y, a2z);
    const V centre = Dot3(a1x, a1y, a1z, hn::Sub(c2x, c1x), hn::Sub(c2y, c1y), hn::Sub(c2z, c1z));
    const V reach = hn::Abs(hn::Mul(hb, b_dot));
    const V low = hn::IfThenElse(hn::Gt(hn::Sub(centre, reach), hn::Neg(ha)),
                                 hn::Sub(centre, reach), hn::Neg(ha));
    const V high = Smaller(hn::Add(centre, reach), ha);
    const auto parallel =
        hn::Le(hn::Sub(hn::Set(d, 1.0f), hn::Mul(b_dot, b_dot)), hn::Set(d, 1e-4f));
    const auto two = hn::And(parallel, hn::Lt(low, high));
    s = hn::IfThenElse(two, low, s);
    for (size_t slot = 0; slot < 2; ++slot) {
      const V along = slot == 0 ? s : high;
      V px, py, pz;
      AddScaled(c1x, c1y, c1z, along, a1x, a1y, a1z, px, py, pz);
      const V other = ClosestOnSegment(c2x, c2y, c2z, a2x, a2y, a2z, hb, px, py, pz);
      V qx, qy, qz;
      AddScaled(c2x, c2y, c2z, slot == 0 ? hn::IfThenElse(two, other, t) : other, a2x, a2y, a2z, qx,
                qy, qz);
      V distance, x, y, z, nx, ny, nz;
      SphereSphere(px, py, pz, ra, qx, qy, qz, rb, distance, x, y, z, nx, ny, nz);
      if (slot == 1) distance = hn::IfThenElse(two, distance, hn::Set(d, kNoContact));
      StoreContact(d, store, out, slot, i, distance, x, y, z, nx, ny, nz);
    }
  });
}

// The pairs of this file (a.type <= b.type; a cylinder against a capsule or cylinder collides as
// its capsule stand-in).
inline void CollidePrimitivesImpl(const ShapeGeometry& a, const ShapeGeometry& b,
                                  const ConstLanesView& frames_a, const ConstLanesView& frames_b,
                                  const LanesView& contacts) {
  if (a.type == ShapeType::kPlane) {
    if (b.type == ShapeType::kSphere) return PlaneSphere(b, frames_a, frames_b, contacts);
    if (b.type == ShapeType::kCapsule) return PlaneCapsule(b, frames_a, frames_b, contacts);
    return PlaneCylinder(b, frames_a, frames_b, contacts);
  }
  if (a.type == ShapeType::kSphere) {
    if (b.type == ShapeType::kSphere) return SphereSpherePair(a, b, frames_a, frames_b, contacts);
    if (b.type == ShapeType::kCapsule) return SphereCapsule(a, b, frames_a, frames_b, contacts);
    return SphereCylinder(a, b, frames_a, frames_b, contacts);
  }
  return CapsuleCapsule(a, b, frames_a, frames_b, contacts);
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_PRIMITIVE_CONTACTS_INL_H_
