// Per-target code of the narrow phase's heightfield pairs (swarm/kernels/collision/narrow_phase.h
// says what each pair computes): points of a sphere, capsule, cylinder or box against the
// heightfield's triangulated surface, each the closest point of the surface among the triangles of
// the 2 x 2 cells around the grid point nearest to the point, signed by the side of the surface
// the point lies on. Loops
// run over whole vectors of lanes; the grid's heights are gathered per lane (each lane's point
// lies over its own cells), and every lane does the same operations.

#if defined(SWARM_KERNELS_HEIGHTFIELD_CONTACTS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_HEIGHTFIELD_CONTACTS_INL_H_
#undef SWARM_KERNELS_HEIGHTFIELD_CONTACTS_INL_H_
#else
#define SWARM_KERNELS_HEIGHTFIELD_CONTACTS_INL_H_
#endif

#include <cstddef>
#include <cstdint>

#include "hwy/highway.h"
#include "kernels/base/loop-inl.h"
#include "kernels/collision/box_face-inl.h"
#include "kernels/collision/collision_math-inl.h"
#include "swarm/kernels/collision/narrow_phase.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// A heightfield's grid as the loops use it (scalars only).
struct HeightfieldCells {
  const float* heights;
  int32_t columns;
  float half_x, half_y;
  float dx, dy;                 // the cells' sizes
  float last_column, last_row;  // columns - 1 and rows - 1
  float clear;                  // top + min(dx, dy) / 2: a point this high has no contact
  explicit HeightfieldCells(const ShapeGeometry& shape)
      : heights(shape.heights),
        columns(static_cast<int32_t>(shape.columns)),
        half_x(shape.size[0]),
        half_y(shape.size[1]),
        dx(2.0f * shape.size[0] / static_cast<float>(shape.columns - 1)),
        dy(2.0f * shape.size[1] / static_cast<float>(shape.rows - 1)),
        last_column(static_cast<float>(shape.columns - 1)),
        last_row(static_cast<float>(shape.rows - 1)),
        clear(shape.top + 0.5f * (dx < dy ? dx : dy)) {}
};

// The point q of the triangle (a, b, c) closest to p (Ericson, "Real-Time Collision Detection",
// 5.1.5: the Voronoi regions of the vertices, the edges and the face, tested in that order; here
// every region's point is computed and the first region that holds p selects its own); true in
// `face` where q lies inside the face (p - q along its normal). A point within kFaceSlack of the
// face's barycentric range counts as inside (q its projection, that little beyond an edge): a
// point over the edge between two triangles of one plane, which rounding may place in neither
// face, gets their exact normal instead of one from the tiny p - q of an edge.
inline constexpr float kFaceSlack = 1e-5f;

template <class V, class M = hn::Mask<hn::DFromV<V>>>
HWY_INLINE void ClosestOnTriangle(V px, V py, V pz, V ax, V ay, V az, V bx, V by, V bz, V cx, V cy,
                                  V cz, V& qx, V& qy, V& qz, M& face) {
  const hn::DFromV<V> d;
  const V zero = hn::Zero(d), one = hn::Set(d, 1.0f);
  const auto safe = [&](V x) HWY_ATTR { return hn::IfThenElse(hn::Eq(x, zero), one, x); };
  const V abx = hn::Sub(bx, ax), aby = hn::Sub(by, ay), abz = hn::Sub(bz, az);
  const V acx = hn::Sub(cx, ax), acy = hn::Sub(cy, ay), acz = hn::Sub(cz, az);
  const V apx = hn::Sub(px, ax), apy = hn::Sub(py, ay), apz = hn::Sub(pz, az);
  const V d1 = Dot3(abx, aby, abz, apx, apy, apz);
  const V d2 = Dot3(acx, acy, acz, apx, apy, apz);
  const V bpx = hn::Sub(px, bx), bpy = hn::Sub(py, by), bpz = hn::Sub(pz, bz);
  const V d3 = Dot3(abx, aby, abz, bpx, bpy, bpz);
  const V d4 = Dot3(acx, acy, acz, bpx, bpy, bpz);
  const V cpx = hn::Sub(px, cx), cpy = hn::Sub(py, cy), cpz = hn::Sub(pz, cz);
  const V d5 = Dot3(abx, aby, abz, cpx, cpy, cpz);
  const V d6 = Dot3(acx, acy, acz, cpx, cpy, cpz);
  const V vc = hn::Sub(hn::Mul(d1, d4), hn::Mul(d3, d2));
  const V vb = hn::Sub(hn::Mul(d5, d2), hn::Mul(d1, d6));
  const V va = hn::Sub(hn::Mul(d3, d6), hn::Mul(d5, d4));
  // The face: barycentric v, w.
  const V denominator = safe(hn::Add(hn::Add(va, vb), vc));
  const V v = hn::Div(vb, denominator), w = hn::Div(vc, denominator);
  const V fx = hn::Add(hn::Add(ax, hn::Mul(abx, v)), hn::Mul(acx, w));
  const V fy = hn::Add(hn::Add(ay, hn::Mul(aby, v)), hn::Mul(acy, w));
  const V fz = hn::Add(hn::Add(az, hn::Mul(abz, v)), hn::Mul(acz, w));
  qx = fx, qy = fy, qz = fz;
  // The regions in reverse order of the tests, so that the first test that holds wins.
  face = hn::Not(hn::Eq(zero, zero));
  const auto pick = [&](M in, V x, V y, V z) HWY_ATTR {
    face = hn::AndNot(in, face);
    qx = hn::IfThenElse(in, x, qx);
    qy = hn::IfThenElse(in, y, qy);
    qz = hn::IfThenElse(in, z, qz);
  };
  const V e43 = hn::Sub(d4, d3), e56 = hn::Sub(d5, d6);
  const V t_bc = hn::Div(e43, safe(hn::Add(e43, e56)));
  pick(hn::And(hn::Le(va, zero), hn::And(hn::Ge(e43, zero), hn::Ge(e56, zero))),
       hn::Add(bx, hn::Mul(hn::Sub(cx, bx), t_bc)), hn::Add(by, hn::Mul(hn::Sub(cy, by), t_bc)),
       hn::Add(bz, hn::Mul(hn::Sub(cz, bz), t_bc)));
  const V t_ac = hn::Div(d2, safe(hn::Sub(d2, d6)));
  pick(hn::And(hn::Le(vb, zero), hn::And(hn::Ge(d2, zero), hn::Le(d6, zero))),
       hn::Add(ax, hn::Mul(acx, t_ac)), hn::Add(ay, hn::Mul(acy, t_ac)),
       hn::Add(az, hn::Mul(acz, t_ac)));
  pick(hn::And(hn::Ge(d6, zero), hn::Le(d5, d6)), cx, cy, cz);
  const V t_ab = hn::Div(d1, safe(hn::Sub(d1, d3)));
  pick(hn::And(hn::Le(vc, zero), hn::And(hn::Ge(d1, zero), hn::Le(d3, zero))),
       hn::Add(ax, hn::Mul(abx, t_ab)), hn::Add(ay, hn::Mul(aby, t_ab)),
       hn::Add(az, hn::Mul(abz, t_ab)));
  pick(hn::And(hn::Ge(d3, zero), hn::Le(d4, d3)), bx, by, bz);
  pick(hn::And(hn::Le(d1, zero), hn::Le(d2, zero)), ax, ay, az);
  // Within the slack of the face: its projection.
  const V slack = hn::Mul(hn::Neg(hn::Set(d, kFaceSlack)), denominator);
  const auto near_face = hn::And(hn::And(hn::Ge(va, slack), hn::Ge(vb, slack)), hn::Ge(vc, slack));
  pick(near_face, fx, fy, fz);
  face = hn::Or(face, near_face);
}

// The contact of a sphere (centre p and radius in the heightfield's frame) with its surface, in
// that frame: the closest point q among the 8 triangles of the 2 x 2 cells around the grid point
// nearest to p (the first in row, column and triangle order on ties): exact where p is within
// half a cell of the surface. Where q lies inside its triangle, the normal
// is the triangle's and the distance p's height over its plane (exact however near p is); on an
// edge or a vertex, the distance is |p - q| signed by the side of the surface under p, and the
// normal (p - q) / |p - q| out of the surface (the triangle's where p lies on it). The distance
// less the radius; the point halfway between the surfaces. kNoContact (with the point p and the
// normal +z) where p's x or y lies beyond the heightfield or p is at least half a cell above its
// top; a vector of such lanes skips the surface.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void HeightfieldSphere(D d, const HeightfieldCells& grid, V px, V py, V pz, V radius,
                                  V& distance, V& ox, V& oy, V& oz, V& nx, V& ny, V& nz) {
  const hn::RebindToSigned<D> di;
  const V zero = hn::Zero(d), one = hn::Set(d, 1.0f);
  const V dx = hn::Set(d, grid.dx), dy = hn::Set(d, grid.dy);
  const V half_x = hn::Set(d, grid.half_x), half_y = hn::Set(d, grid.half_y);
  // Grid coordinates: column u, row v.
  const V u = hn::Div(hn::Add(px, half_x), dx);
  const V v = hn::Div(hn::Add(py, half_y), dy);
  const V last_column = hn::Set(d, grid.last_column), last_row = hn::Set(d, grid.last_row);
  const auto inside = hn::And(hn::And(hn::Ge(u, zero), hn::Le(u, last_column)),
                              hn::And(hn::Ge(v, zero), hn::Le(v, last_row)));
  const auto none = hn::Or(hn::Not(inside), hn::Ge(pz, hn::Set(d, grid.clear)));
  if (hn::AllTrue(d, none)) {
    distance = hn::Set(d, kNoContact);
    ox = px, oy = py, oz = pz;
    nx = zero, ny = zero, nz = one;
    return;
  }
  // p's cell (the last one on the far edges). The cells' indices come from u and v with NaN
  // taken as 0 (a NaN point, outside the contract, gets kNoContact above): every gather reads
  // inside the grid whatever the input.
  const auto numbers = hn::And(hn::Eq(u, u), hn::Eq(v, v));
  const V safe_u = hn::IfThenElseZero(numbers, u), safe_v = hn::IfThenElseZero(numbers, v);
  const V c0 = hn::Floor(ClampTo(safe_u, zero, hn::Sub(last_column, one)));
  const V r0 = hn::Floor(ClampTo(safe_v, zero, hn::Sub(last_row, one)));
  const auto column_of = [&](V c) HWY_ATTR { return hn::Sub(hn::Mul(c, dx), half_x); };
  const auto row_of = [&](V r) HWY_ATTR { return hn::Sub(hn::Mul(r, dy), half_y); };
  const auto columns = hn::Set(di, grid.columns);
  const auto height_at = [&](V r, V c) HWY_ATTR {
    const auto index = hn::Add(hn::Mul(hn::ConvertTo(di, r), columns), hn::ConvertTo(di, c));
    return hn::GatherIndex(d, grid.heights, index);
  };
  V best = hn::Set(d, kNoContact), qx = px, qy = py, qz = pz;
  // The best triangle's rises along a column and a row (its plane's slopes times dx and dy) and
  // whether q lies inside it.
  V rise_u = zero, rise_v = zero;
  auto in_face = hn::Eq(zero, one);
  V h00 = zero, h01 = zero, h10 = zero, h11 = zero;  // p's cell's corners: (row, column) offsets
  // The grid point nearest to p: the cells around it hold every point of the surface within half
  // a cell of p (and p's own cell).
  const V half = hn::Set(d, 0.5f);
  const V near_column = hn::Floor(hn::Add(ClampTo(safe_u, zero, last_column), half));
  const V near_row = hn::Floor(hn::Add(ClampTo(safe_v, zero, last_row), half));
  for (int row = -1; row <= 0; ++row) {
    const V r = ClampTo(hn::Add(near_row, hn::Set(d, static_cast<float>(row))), zero,
                        hn::Sub(last_row, one));
    const V y0 = row_of(r), y1 = row_of(hn::Add(r, one));
    for (int column = -1; column <= 0; ++column) {
      const V c = ClampTo(hn::Add(near_column, hn::Set(d, static_cast<float>(column))), zero,
                          hn::Sub(last_column, one));
      const V x0 = column_of(c), x1 = column_of(hn::Add(c, one));
      const V a = height_at(r, c), b = height_at(hn::Add(r, one), c);
      const V e = height_at(r, hn::Add(c, one)), f = height_at(hn::Add(r, one), hn::Add(c, one));
      const auto own = hn::And(hn::Eq(r, r0), hn::Eq(c, c0));
      h00 = hn::IfThenElse(own, a, h00), h01 = hn::IfThenElse(own, e, h01);
      h10 = hn::IfThenElse(own, b, h10), h11 = hn::IfThenElse(own, f, h11);
      // The cell's triangles along its diagonal from (r, c) to (r + 1, c + 1), as MuJoCo splits it:
      // (r, c), (r + 1, c), (r + 1, c + 1) and (r, c), (r + 1, c + 1), (r, c + 1).
      for (int triangle = 0; triangle < 2; ++triangle) {
        V tx, ty, tz;
        hn::Mask<D> face;
        if (triangle == 0) {
          ClosestOnTriangle(px, py, pz, x0, y0, a, x0, y1, b, x1, y1, f, tx, ty, tz, face);
        } else {
          ClosestOnTriangle(px, py, pz, x0, y0, a, x1, y1, f, x1, y0, e, tx, ty, tz, face);
        }
        const V ex = hn::Sub(px, tx), ey = hn::Sub(py, ty), ez = hn::Sub(pz, tz);
        const V squared = Dot3(ex, ey, ez, ex, ey, ez);
        const auto closer = hn::Lt(squared, best);
        best = hn::IfThenElse(closer, squared, best);
        qx = hn::IfThenElse(closer, tx, qx);
        qy = hn::IfThenElse(closer, ty, qy);
        qz = hn::IfThenElse(closer, tz, qz);
        rise_u = hn::IfThenElse(closer, triangle == 0 ? hn::Sub(f, b) : hn::Sub(e, a), rise_u);
        rise_v = hn::IfThenElse(closer, triangle == 0 ? hn::Sub(b, a) : hn::Sub(f, e), rise_v);
        in_face = hn::Or(hn::And(closer, face), hn::AndNot(closer, in_face));
      }
    }
  }
  // The best triangle's normal.
  V fx, fy, fz;
  NormalizeOr(hn::Neg(hn::Div(rise_u, dx)), hn::Neg(hn::Div(rise_v, dy)), one, zero, zero, one, fx,
              fy, fz);
  const V ex = hn::Sub(px, qx), ey = hn::Sub(py, qy), ez = hn::Sub(pz, qz);
  // On an edge or a vertex: the height of the surface under p (on p's cell's triangle) says
  // which side p is on.
  const V fu = hn::Sub(ClampTo(safe_u, zero, last_column), c0);
  const V fv = hn::Sub(ClampTo(safe_v, zero, last_row), r0);
  const auto upper = hn::Ge(fv, fu);  // the triangle (r, c), (r + 1, c), (r + 1, c + 1)
  const V slope_u = hn::IfThenElse(upper, hn::Sub(h11, h10), hn::Sub(h01, h00));
  const V slope_v = hn::IfThenElse(upper, hn::Sub(h10, h00), hn::Sub(h11, h01));
  const V under = hn::Add(hn::Add(h00, hn::Mul(fu, slope_u)), hn::Mul(fv, slope_v));
  const V side = hn::IfThenElse(hn::Lt(pz, under), hn::Set(d, -1.0f), one);
  V gx, gy, gz;
  NormalizeOr(hn::Mul(side, ex), hn::Mul(side, ey), hn::Mul(side, ez), fx, fy, fz, gx, gy, gz);
  nx = hn::IfThenElse(in_face, fx, gx);
  ny = hn::IfThenElse(in_face, fy, gy);
  nz = hn::IfThenElse(in_face, fz, gz);
  const V gap =
      hn::IfThenElse(in_face, Dot3(ex, ey, ez, fx, fy, fz), hn::Mul(side, hn::Sqrt(best)));
  distance = hn::Sub(gap, radius);
  AddScaled(qx, qy, qz, hn::Mul(distance, hn::Set(d, 0.5f)), nx, ny, nz, ox, oy, oz);
  distance = hn::IfThenElse(none, hn::Set(d, kNoContact), distance);
  ox = hn::IfThenElse(none, px, ox), oy = hn::IfThenElse(none, py, oy);
  oz = hn::IfThenElse(none, pz, oz);
  nx = hn::IfThenZeroElse(none, nx), ny = hn::IfThenZeroElse(none, ny);
  nz = hn::IfThenElse(none, one, nz);
}

// A world point p in the heightfield's frame (centre o, axes e0 e1 e2): (e_k . (p - o)).
template <class V>
HWY_INLINE void IntoHeightfield(V ox, V oy, V oz, V e0x, V e0y, V e0z, V e1x, V e1y, V e1z, V e2x,
                                V e2y, V e2z, V px, V py, V pz, V& rx, V& ry, V& rz) {
  ToFrame(e0x, e0y, e0z, e1x, e1y, e1z, e2x, e2y, e2z, hn::Sub(px, ox), hn::Sub(py, oy),
          hn::Sub(pz, oz), rx, ry, rz);
}

// Pairs of a heightfield (frames_a) with the shape b; `points(i, emit)` calls emit(slot, p,
// radius) for each of b's points in lanes i.. (world coordinates), whose contacts go to `slot`.
template <class PointsOf>
HWY_INLINE void HeightfieldPoints(const ShapeGeometry& heightfield, size_t slots,
                                  const ConstLanesView& frames_a, const LanesView& contacts,
                                  const PointsOf& points) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const HeightfieldCells grid(heightfield);
  const FrameArrays field(frames_a);
  const ContactArrays out(contacts, slots);
  ForEachVector(d, contacts.count, [&](size_t i, auto store) HWY_ATTR {
    V ox, oy, oz, e0x, e0y, e0z, e1x, e1y, e1z, e2x, e2y, e2z;
    LoadCentre(d, field, i, ox, oy, oz);
    LoadAxis(d, field, 0, i, e0x, e0y, e0z);
    LoadAxis(d, field, 1, i, e1x, e1y, e1z);
    LoadAxis(d, field, 2, i, e2x, e2y, e2z);
    points(i, e2x, e2y, e2z, [&](size_t slot, V px, V py, V pz, V radius) HWY_ATTR {
      V lx, ly, lz, distance, cx, cy, cz, nx, ny, nz;
      IntoHeightfield(ox, oy, oz, e0x, e0y, e0z, e1x, e1y, e1z, e2x, e2y, e2z, px, py, pz, lx, ly,
                      lz);
      HeightfieldSphere(d, grid, lx, ly, lz, radius, distance, cx, cy, cz, nx, ny, nz);
      FromFrame(e0x, e0y, e0z, e1x, e1y, e1z, e2x, e2y, e2z, cx, cy, cz, cx, cy, cz);
      FromFrame(e0x, e0y, e0z, e1x, e1y, e1z, e2x, e2y, e2z, nx, ny, nz, nx, ny, nz);
      StoreContact(d, store, out, slot, i, distance, hn::Add(cx, ox), hn::Add(cy, oy),
                   hn::Add(cz, oz), nx, ny, nz);
    });
  });
}

// The pairs of this file: a is the heightfield, b a sphere, capsule, cylinder or box.
inline void CollideWithHeightfieldImpl(const ShapeGeometry& a, const ShapeGeometry& b,
                                       const ConstLanesView& frames_a,
                                       const ConstLanesView& frames_b, const LanesView& contacts) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const FrameArrays body(frames_b);
  const V s0 = hn::Set(d, b.size[0]), s1 = hn::Set(d, b.size[1]), s2 = hn::Set(d, b.size[2]);
  const V zero = hn::Zero(d);
  const size_t slots = ContactSlotCount(a.type, b.type);
  HeightfieldPoints(
      a, slots, frames_a, contacts, [&](size_t i, V upx, V upy, V upz, const auto& emit) HWY_ATTR {
        V cx, cy, cz;
        LoadCentre(d, body, i, cx, cy, cz);
        if (b.type == ShapeType::kSphere) return emit(0, cx, cy, cz, s0);
        V ax, ay, az;
        LoadAxis(d, body, 2, i, ax, ay, az);
        if (b.type == ShapeType::kCapsule) {
          V px, py, pz;
          AddScaled(cx, cy, cz, hn::Neg(s1), ax, ay, az, px, py, pz);
          emit(0, px, py, pz, s0);
          AddScaled(cx, cy, cz, s1, ax, ay, az, px, py, pz);
          emit(1, px, py, pz, s0);
          return emit(2, cx, cy, cz, s0);
        }
        V ex, ey, ez;
        LoadAxis(d, body, 0, i, ex, ey, ez);
        const V downx = hn::Neg(upx), downy = hn::Neg(upy), downz = hn::Neg(upz);
        if (b.type == ShapeType::kCylinder) {
          return CylinderRimTowards(downx, downy, downz, cx, cy, cz, ex, ey, ez, ax, ay, az, s0, s1,
                                    [&](size_t slot, V px, V py, V pz)
                                        HWY_ATTR { emit(slot, px, py, pz, zero); });
        }
        V e1x, e1y, e1z, fx, fy, fz, ux, uy, uz, vx, vy, vz, mx, my, mz;
        LoadAxis(d, body, 1, i, e1x, e1y, e1z);
        FaceTowards(downx, downy, downz, cx, cy, cz, ex, ey, ez, e1x, e1y, e1z, ax, ay, az, s0, s1,
                    s2, fx, fy, fz, ux, uy, uz, vx, vy, vz, mx, my, mz);
        for (size_t corner = 0; corner < 4; ++corner) {
          V px, py, pz;
          FaceCorner(corner, fx, fy, fz, ux, uy, uz, vx, vy, vz, px, py, pz);
          emit(corner, px, py, pz, zero);
        }
      });
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_HEIGHTFIELD_CONTACTS_INL_H_
