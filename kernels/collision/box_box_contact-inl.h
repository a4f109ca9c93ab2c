// Per-target code of the box-box narrow phase (swarm/kernels/collision/narrow_phase.h):
// separating axes, then either a clipped and reduced face manifold or one edge-edge point. Every
// lane evaluates all 15 axes, both the face and the edge result, and all 24 clip candidates, and
// selects; the clip candidates live in VectorScratch (docs/kernel-rules.md).
//
// The face manifold. The reference face is the face of the box that owns the best face axis,
// turned towards the other box; the incident face is the other box's face turned most against
// it. In the reference face's coordinates (x, y in the face, z the height above it) the clipped
// polygon's vertices are among 24 candidates: the incident face's 4 corners that lie inside the
// reference rectangle, the reference rectangle's 4 corners that lie inside the incident face's
// projection (at the incident face's height above them), and the 16 crossings of the incident
// face's edges with the rectangle's 4 sides. Candidates higher than the margin are dropped. Four
// are kept as Box2D reduces a manifold: the deepest, the one farthest from it, the one spanning
// the largest triangle with those two, and the one spanning the largest triangle on the other
// side of their line.

#if defined(SWARM_KERNELS_BOX_BOX_CONTACT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_BOX_BOX_CONTACT_INL_H_
#undef SWARM_KERNELS_BOX_BOX_CONTACT_INL_H_
#else
#define SWARM_KERNELS_BOX_BOX_CONTACT_INL_H_
#endif

#include <cstddef>

#include "hwy/highway.h"
#include "kernels/base/loop-inl.h"
#include "kernels/base/vector_scratch-inl.h"
#include "kernels/collision/box_face-inl.h"
#include "kernels/collision/collision_math-inl.h"
#include "swarm/kernels/collision/narrow_phase.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Scratch slots: the axes of A and B (x, y, z per axis), the incident face's corners (x, y, z in
// the reference face's coordinates), then the candidates (x, y, z).
inline constexpr size_t kIncidentSlot = 18;
inline constexpr size_t kCandidateSlot = kIncidentSlot + 12;
inline constexpr size_t kCandidates = 24;
inline constexpr size_t kBoxBoxSlots = kCandidateSlot + 3 * kCandidates;

template <class D>
using BoxBoxScratch = VectorScratch<D, kBoxBoxSlots>;

template <class D, class V = hn::Vec<D>>
HWY_INLINE void SetCandidate(D d, BoxBoxScratch<D>& scratch, size_t c, V x, V y, V z) {
  scratch.Set(d, kCandidateSlot + 3 * c, x);
  scratch.Set(d, kCandidateSlot + 3 * c + 1, y);
  scratch.Set(d, kCandidateSlot + 3 * c + 2, z);
}

// The separation of the boxes along unit axis l (negative: overlap):
// |l . (cb - ca)| - sum_k ha_k |l . A_k| - sum_k hb_k |l . B_k|.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Separation(D d, const BoxBoxScratch<D>& axes, V lx, V ly, V lz, V dx, V dy, V dz,
                        const float* ha, const float* hb) {
  V reach = hn::Zero(d);
  for (size_t k = 0; k < 3; ++k) {
    const V along_a =
        Dot3(lx, ly, lz, axes.Get(d, 3 * k), axes.Get(d, 3 * k + 1), axes.Get(d, 3 * k + 2));
    reach = hn::Add(reach, hn::Mul(hn::Set(d, ha[k]), hn::Abs(along_a)));
  }
  for (size_t k = 0; k < 3; ++k) {
    const V along_b =
        Dot3(lx, ly, lz, axes.Get(d, 9 + 3 * k), axes.Get(d, 10 + 3 * k), axes.Get(d, 11 + 3 * k));
    reach = hn::Add(reach, hn::Mul(hn::Set(d, hb[k]), hn::Abs(along_b)));
  }
  return hn::Sub(hn::Abs(Dot3(lx, ly, lz, dx, dy, dz)), reach);
}

inline void BoxBox(const ShapeGeometry& a, const ShapeGeometry& b, const ConstLanesView& frames_a,
                   const ConstLanesView& frames_b, float margin, const LanesView& contacts) {
  using D = hn::ScalableTag<float>;
  const D d;
  using V = hn::Vec<D>;
  const FrameArrays fa(frames_a), fb(frames_b);
  const ContactArrays out(contacts, 4);
  const float* ha = a.size;
  const float* hb = b.size;
  const V far = hn::Set(d, kNoContact);
  const V reach_margin = hn::Set(d, margin);
  BoxBoxScratch<D> scratch;
  ForEachVector(d, contacts.count, [&](size_t i, auto store) HWY_ATTR {
    V cax, cay, caz, cbx, cby, cbz;
    LoadCentre(d, fa, i, cax, cay, caz);
    LoadCentre(d, fb, i, cbx, cby, cbz);
    BoxBoxScratch<D>& axes = scratch;
    for (size_t k = 0; k < 3; ++k) {
      V x, y, z;
      LoadAxis(d, fa, k, i, x, y, z);
      axes.Set(d, 3 * k, x);
      axes.Set(d, 3 * k + 1, y);
      axes.Set(d, 3 * k + 2, z);
      LoadAxis(d, fb, k, i, x, y, z);
      axes.Set(d, 9 + 3 * k, x);
      axes.Set(d, 10 + 3 * k, y);
      axes.Set(d, 11 + 3 * k, z);
    }
    const V dx = hn::Sub(cbx, cax), dy = hn::Sub(cby, cay), dz = hn::Sub(cbz, caz);
    // The six face axes: A's then B's, the first of equal separations kept.
    V face_separation = hn::Set(d, -kNoContact), face_index = hn::Zero(d);
    for (size_t f = 0; f < 6; ++f) {
      const V separation = Separation(d, axes, axes.Get(d, 3 * f), axes.Get(d, 3 * f + 1),
                                      axes.Get(d, 3 * f + 2), dx, dy, dz, ha, hb);
      const auto better = hn::Gt(separation, face_separation);
      face_separation = hn::IfThenElse(better, separation, face_separation);
      face_index = hn::IfThenElse(better, hn::Set(d, static_cast<float>(f)), face_index);
    }
    // The nine edge axes A_i x B_j; nearly parallel edges (|A_i x B_j|^2 < 1e-6) have no axis.
    V edge_separation = hn::Set(d, -kNoContact), edge_a = hn::Zero(d), edge_b = hn::Zero(d);
    V lx = hn::Zero(d), ly = lx, lz = lx;
    for (size_t ai = 0; ai < 3; ++ai) {
      for (size_t bj = 0; bj < 3; ++bj) {
        V x, y, z;
        Cross(axes.Get(d, 3 * ai), axes.Get(d, 3 * ai + 1), axes.Get(d, 3 * ai + 2),
              axes.Get(d, 9 + 3 * bj), axes.Get(d, 10 + 3 * bj), axes.Get(d, 11 + 3 * bj), x, y, z);
        const V length_squared = Dot3(x, y, z, x, y, z);
        const auto usable = hn::Ge(length_squared, hn::Set(d, 1e-6f));
        const V inverse = hn::Div(
            hn::Set(d, 1.0f), hn::Sqrt(hn::IfThenElse(usable, length_squared, hn::Set(d, 1.0f))));
        x = hn::Mul(x, inverse);
        y = hn::Mul(y, inverse);
        z = hn::Mul(z, inverse);
        const V separation = hn::IfThenElse(
            usable, Separation(d, axes, x, y, z, dx, dy, dz, ha, hb), hn::Set(d, -kNoContact));
        const auto better = hn::Gt(separation, edge_separation);
        edge_separation = hn::IfThenElse(better, separation, edge_separation);
        edge_a = hn::IfThenElse(better, hn::Set(d, static_cast<float>(ai)), edge_a);
        edge_b = hn::IfThenElse(better, hn::Set(d, static_cast<float>(bj)), edge_b);
        lx = hn::IfThenElse(better, x, lx);
        ly = hn::IfThenElse(better, y, ly);
        lz = hn::IfThenElse(better, z, lz);
      }
    }
    const auto edge_wins =
        hn::Gt(edge_separation, hn::Add(face_separation, hn::Set(d, kEdgeAxisBias)));

    // The edge contact: the closest points of A's and B's edges along the axis, normal from A
    // to B.
    V edge_px, edge_py, edge_pz, enx, eny, enz;
    {
      const V sign = SignOf(Dot3(lx, ly, lz, dx, dy, dz));
      enx = hn::Mul(sign, lx);
      eny = hn::Mul(sign, ly);
      enz = hn::Mul(sign, lz);
      const auto a1 = hn::Eq(edge_a, hn::Set(d, 1.0f)), a2 = hn::Eq(edge_a, hn::Set(d, 2.0f));
      const auto b1 = hn::Eq(edge_b, hn::Set(d, 1.0f)), b2 = hn::Eq(edge_b, hn::Set(d, 2.0f));
      V pax = cax, pay = cay, paz = caz, pbx = cbx, pby = cby, pbz = cbz;
      for (size_t k = 0; k < 3; ++k) {
        const auto own_a = k == 0 ? hn::Not(hn::Or(a1, a2)) : (k == 1 ? a1 : a2);
        const auto own_b = k == 0 ? hn::Not(hn::Or(b1, b2)) : (k == 1 ? b1 : b2);
        const V ax = axes.Get(d, 3 * k), ay = axes.Get(d, 3 * k + 1), az = axes.Get(d, 3 * k + 2);
        const V bx = axes.Get(d, 9 + 3 * k), by = axes.Get(d, 10 + 3 * k),
                bz = axes.Get(d, 11 + 3 * k);
        // A's supporting edge lies towards B along every axis but its own, B's towards A.
        const V step_a = hn::IfThenZeroElse(
            own_a, hn::Mul(SignOf(Dot3(enx, eny, enz, ax, ay, az)), hn::Set(d, ha[k])));
        const V step_b = hn::IfThenZeroElse(
            own_b, hn::Mul(SignOf(Dot3(enx, eny, enz, bx, by, bz)), hn::Set(d, -hb[k])));
        AddScaled(pax, pay, paz, step_a, ax, ay, az, pax, pay, paz);
        AddScaled(pbx, pby, pbz, step_b, bx, by, bz, pbx, pby, pbz);
      }
      const V tax = PickOf3(a1, a2, axes.Get(d, 0), axes.Get(d, 3), axes.Get(d, 6));
      const V tay = PickOf3(a1, a2, axes.Get(d, 1), axes.Get(d, 4), axes.Get(d, 7));
      const V taz = PickOf3(a1, a2, axes.Get(d, 2), axes.Get(d, 5), axes.Get(d, 8));
      const V tbx = PickOf3(b1, b2, axes.Get(d, 9), axes.Get(d, 12), axes.Get(d, 15));
      const V tby = PickOf3(b1, b2, axes.Get(d, 10), axes.Get(d, 13), axes.Get(d, 16));
      const V tbz = PickOf3(b1, b2, axes.Get(d, 11), axes.Get(d, 14), axes.Get(d, 17));
      const V half_a = PickOf3(a1, a2, hn::Set(d, ha[0]), hn::Set(d, ha[1]), hn::Set(d, ha[2]));
      const V half_b = PickOf3(b1, b2, hn::Set(d, hb[0]), hn::Set(d, hb[1]), hn::Set(d, hb[2]));
      V s, t;
      ClosestSegments(pax, pay, paz, tax, tay, taz, half_a, pbx, pby, pbz, tbx, tby, tbz, half_b, s,
                      t);
      AddScaled(pax, pay, paz, s, tax, tay, taz, pax, pay, paz);
      AddScaled(pbx, pby, pbz, t, tbx, tby, tbz, pbx, pby, pbz);
      const V half = hn::Set(d, 0.5f);
      edge_px = hn::Mul(hn::Add(pax, pbx), half);
      edge_py = hn::Mul(hn::Add(pay, pby), half);
      edge_pz = hn::Mul(hn::Add(paz, pbz), half);
      // Apart, the axis's separation only bounds the distance from below: the edges' closest
      // points give the gap and its direction instead.
      const V gx = hn::Sub(pbx, pax), gy = hn::Sub(pby, pay), gz = hn::Sub(pbz, paz);
      V ux, uy, uz;
      NormalizeOr(gx, gy, gz, enx, eny, enz, ux, uy, uz);
      const auto apart = hn::Gt(edge_separation, hn::Zero(d));
      edge_separation = hn::IfThenElse(apart, Dot3(gx, gy, gz, ux, uy, uz), edge_separation);
      enx = hn::IfThenElse(apart, ux, enx);
      eny = hn::IfThenElse(apart, uy, eny);
      enz = hn::IfThenElse(apart, uz, enz);
    }

    // The face manifold: reference box R (the face axis's owner) and incident box I.
    const auto reference_is_a = hn::Lt(face_index, hn::Set(d, 3.0f));
    const V k = hn::IfThenElse(reference_is_a, face_index, hn::Sub(face_index, hn::Set(d, 3.0f)));
    const auto is1 = hn::Eq(k, hn::Set(d, 1.0f)), is2 = hn::Eq(k, hn::Set(d, 2.0f));
    const auto pick = [&](size_t slot_a) HWY_ATTR {
      return hn::IfThenElse(reference_is_a, axes.Get(d, slot_a), axes.Get(d, slot_a + 9));
    };
    const auto other = [&](size_t slot_a) HWY_ATTR {
      return hn::IfThenElse(reference_is_a, axes.Get(d, slot_a + 9), axes.Get(d, slot_a));
    };
    const V rcx = hn::IfThenElse(reference_is_a, cax, cbx);
    const V rcy = hn::IfThenElse(reference_is_a, cay, cby);
    const V rcz = hn::IfThenElse(reference_is_a, caz, cbz);
    const V icx = hn::IfThenElse(reference_is_a, cbx, cax);
    const V icy = hn::IfThenElse(reference_is_a, cby, cay);
    const V icz = hn::IfThenElse(reference_is_a, cbz, caz);
    const auto half_of = [&](const float* own, const float* theirs, size_t axis) HWY_ATTR {
      return hn::IfThenElse(reference_is_a, hn::Set(d, own[axis]), hn::Set(d, theirs[axis]));
    };
    V nx, ny, nz, ux, uy, uz, vx, vy, vz, hn_, hu, hv;
    CyclicAxes(is1, is2, pick(0), pick(1), pick(2), pick(3), pick(4), pick(5), pick(6), pick(7),
               pick(8), half_of(ha, hb, 0), half_of(ha, hb, 1), half_of(ha, hb, 2), nx, ny, nz, ux,
               uy, uz, vx, vy, vz, hn_, hu, hv);
    const V turn =
        SignOf(Dot3(nx, ny, nz, hn::Sub(icx, rcx), hn::Sub(icy, rcy), hn::Sub(icz, rcz)));
    nx = hn::Mul(turn, nx);
    ny = hn::Mul(turn, ny);
    nz = hn::Mul(turn, nz);
    V fx, fy, fz;  // the reference face's centre
    AddScaled(rcx, rcy, rcz, hn_, nx, ny, nz, fx, fy, fz);
    V gx, gy, gz, iux, iuy, iuz, ivx, ivy, ivz, mx, my, mz;
    FaceTowards(hn::Neg(nx), hn::Neg(ny), hn::Neg(nz), icx, icy, icz, other(0), other(1), other(2),
                other(3), other(4), other(5), other(6), other(7), other(8), half_of(hb, ha, 0),
                half_of(hb, ha, 1), half_of(hb, ha, 2), gx, gy, gz, iux, iuy, iuz, ivx, ivy, ivz,
                mx, my, mz);
    const V zero = hn::Zero(d), one = hn::Set(d, 1.0f);
    const auto kept = [&](V z) HWY_ATTR { return hn::Le(z, reach_margin); };
    // (a) the incident corners inside the reference rectangle.
    for (size_t m = 0; m < 4; ++m) {
      V px, py, pz;
      FaceCorner(m, gx, gy, gz, iux, iuy, iuz, ivx, ivy, ivz, px, py, pz);
      px = hn::Sub(px, fx);
      py = hn::Sub(py, fy);
      pz = hn::Sub(pz, fz);
      const V x = Dot3(px, py, pz, ux, uy, uz);
      const V y = Dot3(px, py, pz, vx, vy, vz);
      const V z = Dot3(px, py, pz, nx, ny, nz);
      scratch.Set(d, kIncidentSlot + 3 * m, x);
      scratch.Set(d, kIncidentSlot + 3 * m + 1, y);
      scratch.Set(d, kIncidentSlot + 3 * m + 2, z);
      const auto inside = hn::And(hn::And(hn::Le(hn::Abs(x), hu), hn::Le(hn::Abs(y), hv)), kept(z));
      SetCandidate(d, scratch, m, x, y, hn::IfThenElse(inside, z, far));
    }
    // (b) the reference corners inside the incident face's projection, at its height.
    const V lift_den = Dot3(nx, ny, nz, mx, my, mz);  // <= -1/sqrt(3): the faces oppose
    const V lift_g = Dot3(hn::Sub(gx, fx), hn::Sub(gy, fy), hn::Sub(gz, fz), mx, my, mz);
    const V lift_u = Dot3(ux, uy, uz, mx, my, mz);
    const V lift_v = Dot3(vx, vy, vz, mx, my, mz);
    for (size_t m = 0; m < 4; ++m) {
      const V x = (m == 1 || m == 2) ? hn::Neg(hu) : hu;
      const V y = m >= 2 ? hn::Neg(hv) : hv;
      auto all_left = hn::Eq(zero, zero);
      auto all_right = all_left;
      for (size_t e = 0; e < 4; ++e) {
        const size_t next = (e + 1) % 4;
        const V x0 = scratch.Get(d, kIncidentSlot + 3 * e),
                y0 = scratch.Get(d, kIncidentSlot + 3 * e + 1);
        const V ex = hn::Sub(scratch.Get(d, kIncidentSlot + 3 * next), x0);
        const V ey = hn::Sub(scratch.Get(d, kIncidentSlot + 3 * next + 1), y0);
        const V side = hn::Sub(hn::Mul(ex, hn::Sub(y, y0)), hn::Mul(ey, hn::Sub(x, x0)));
        all_left = hn::And(all_left, hn::Ge(side, zero));
        all_right = hn::And(all_right, hn::Le(side, zero));
      }
      const V z =
          hn::Div(hn::Sub(hn::Sub(lift_g, hn::Mul(x, lift_u)), hn::Mul(y, lift_v)), lift_den);
      const auto inside = hn::And(hn::Or(all_left, all_right), kept(z));
      SetCandidate(d, scratch, 4 + m, x, y, hn::IfThenElse(inside, z, far));
    }
    // (c) the incident edges' crossings with the rectangle's sides x = +-hu and y = +-hv.
    for (size_t e = 0; e < 4; ++e) {
      const size_t next = (e + 1) % 4;
      const V x0 = scratch.Get(d, kIncidentSlot + 3 * e),
              y0 = scratch.Get(d, kIncidentSlot + 3 * e + 1),
              z0 = scratch.Get(d, kIncidentSlot + 3 * e + 2);
      const V ex = hn::Sub(scratch.Get(d, kIncidentSlot + 3 * next), x0);
      const V ey = hn::Sub(scratch.Get(d, kIncidentSlot + 3 * next + 1), y0);
      const V ez = hn::Sub(scratch.Get(d, kIncidentSlot + 3 * next + 2), z0);
      for (size_t side = 0; side < 4; ++side) {
        const bool across_x = side < 2;  // the sides x = +-hu, then y = +-hv
        const V level = (side % 2 == 0) ? (across_x ? hu : hv) : hn::Neg(across_x ? hu : hv);
        const V start = across_x ? x0 : y0;
        const V run = across_x ? ex : ey;
        const auto crosses = hn::Gt(hn::Abs(run), hn::Set(d, 1e-12f));
        const V s = hn::Div(hn::Sub(level, start), hn::IfThenElse(crosses, run, one));
        const V x = across_x ? level : hn::Add(x0, hn::Mul(s, ex));
        const V y = across_x ? hn::Add(y0, hn::Mul(s, ey)) : level;
        const V z = hn::Add(z0, hn::Mul(s, ez));
        const V bound = across_x ? hv : hu;
        const V along = across_x ? y : x;
        const auto inside = hn::And(hn::And(crosses, hn::And(hn::Ge(s, zero), hn::Le(s, one))),
                                    hn::And(hn::Le(hn::Abs(along), bound), kept(z)));
        SetCandidate(d, scratch, 8 + 4 * e + side, x, y, hn::IfThenElse(inside, z, far));
      }
    }
    // The reduction: deepest, farthest from it, largest triangle, largest on the other side.
    const auto cx_of = [&](size_t c) HWY_ATTR { return scratch.Get(d, kCandidateSlot + 3 * c); };
    const auto cy_of = [&](size_t c)
                           HWY_ATTR { return scratch.Get(d, kCandidateSlot + 3 * c + 1); };
    const auto cz_of = [&](size_t c)
                           HWY_ATTR { return scratch.Get(d, kCandidateSlot + 3 * c + 2); };
    V x1 = zero, y1 = zero, z1 = far;
    for (size_t c = 0; c < kCandidates; ++c) {
      const auto deeper = hn::Lt(cz_of(c), z1);
      x1 = hn::IfThenElse(deeper, cx_of(c), x1);
      y1 = hn::IfThenElse(deeper, cy_of(c), y1);
      z1 = hn::IfThenElse(deeper, cz_of(c), z1);
    }
    const V tiny = hn::Set(d, 1e-12f);
    V x2 = zero, y2 = zero, z2 = far, best = tiny;
    for (size_t c = 0; c < kCandidates; ++c) {
      const V ddx = hn::Sub(cx_of(c), x1), ddy = hn::Sub(cy_of(c), y1);
      const V spread = hn::Add(hn::Mul(ddx, ddx), hn::Mul(ddy, ddy));
      const auto farther = hn::And(hn::Lt(cz_of(c), far), hn::Gt(spread, best));
      best = hn::IfThenElse(farther, spread, best);
      x2 = hn::IfThenElse(farther, cx_of(c), x2);
      y2 = hn::IfThenElse(farther, cy_of(c), y2);
      z2 = hn::IfThenElse(farther, cz_of(c), z2);
    }
    const V bx = hn::Sub(x2, x1), by = hn::Sub(y2, y1);
    const auto area_of = [&](size_t c) HWY_ATTR {
      return hn::Sub(hn::Mul(bx, hn::Sub(cy_of(c), y1)), hn::Mul(by, hn::Sub(cx_of(c), x1)));
    };
    V x3 = zero, y3 = zero, z3 = far, area3 = zero;
    best = tiny;
    for (size_t c = 0; c < kCandidates; ++c) {
      const V area = area_of(c);
      const auto larger = hn::And(hn::Lt(cz_of(c), far), hn::Gt(hn::Abs(area), best));
      best = hn::IfThenElse(larger, hn::Abs(area), best);
      area3 = hn::IfThenElse(larger, area, area3);
      x3 = hn::IfThenElse(larger, cx_of(c), x3);
      y3 = hn::IfThenElse(larger, cy_of(c), y3);
      z3 = hn::IfThenElse(larger, cz_of(c), z3);
    }
    const V opposite = hn::Neg(SignOf(area3));
    V x4 = zero, y4 = zero, z4 = far;
    best = tiny;
    for (size_t c = 0; c < kCandidates; ++c) {
      const V area = hn::Mul(opposite, area_of(c));
      const auto larger = hn::And(hn::Lt(cz_of(c), far), hn::Gt(area, best));
      best = hn::IfThenElse(larger, area, best);
      x4 = hn::IfThenElse(larger, cx_of(c), x4);
      y4 = hn::IfThenElse(larger, cy_of(c), y4);
      z4 = hn::IfThenElse(larger, cz_of(c), z4);
    }
    // Normal from A to B: the reference face's normal, turned round when B owns it.
    const V out_sign = hn::IfThenElse(reference_is_a, one, hn::Set(d, -1.0f));
    const V onx = hn::IfThenElse(edge_wins, enx, hn::Mul(out_sign, nx));
    const V ony = hn::IfThenElse(edge_wins, eny, hn::Mul(out_sign, ny));
    const V onz = hn::IfThenElse(edge_wins, enz, hn::Mul(out_sign, nz));
    for (size_t slot = 0; slot < 4; ++slot) {
      const V x = slot == 0 ? x1 : (slot == 1 ? x2 : (slot == 2 ? x3 : x4));
      const V y = slot == 0 ? y1 : (slot == 1 ? y2 : (slot == 2 ? y3 : y4));
      const V z = slot == 0 ? z1 : (slot == 1 ? z2 : (slot == 2 ? z3 : z4));
      V px, py, pz;
      AddScaled(fx, fy, fz, x, ux, uy, uz, px, py, pz);
      AddScaled(px, py, pz, y, vx, vy, vz, px, py, pz);
      AddScaled(px, py, pz, hn::Mul(z, hn::Set(d, 0.5f)), nx, ny, nz, px, py, pz);
      const auto empty = hn::Ge(z, far);
      px = hn::IfThenElseZero(hn::Not(empty), px);
      py = hn::IfThenElseZero(hn::Not(empty), py);
      pz = hn::IfThenElseZero(hn::Not(empty), pz);
      V distance = z;
      if (slot == 0) {
        distance = hn::IfThenElse(edge_wins, edge_separation, distance);
        px = hn::IfThenElse(edge_wins, edge_px, px);
        py = hn::IfThenElse(edge_wins, edge_py, py);
        pz = hn::IfThenElse(edge_wins, edge_pz, pz);
      } else {
        distance = hn::IfThenElse(edge_wins, far, distance);
      }
      StoreContact(d, store, out, slot, i, distance, px, py, pz, onx, ony, onz);
    }
  });
}

inline void CollideBoxesImpl(const ShapeGeometry& a, const ShapeGeometry& b,
                             const ConstLanesView& frames_a, const ConstLanesView& frames_b,
                             float margin, const LanesView& contacts) {
  BoxBox(a, b, frames_a, frames_b, margin, contacts);
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_BOX_BOX_CONTACT_INL_H_
