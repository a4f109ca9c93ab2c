// The narrow phase's double-precision reference (swarm/kernels/collision/narrow_phase_reference.h).
#include "swarm/kernels/collision/narrow_phase_reference.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>
#include <vector>

namespace swarm {
namespace {

using Vec = std::array<double, 3>;

double Dot(const Vec& a, const Vec& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

Vec Axis(const double frame[12], int k) { return {frame[3 + k], frame[6 + k], frame[9 + k]}; }

// p in the shape's frame: R^T (p - position).
Vec ToLocal(const double frame[12], const double p[3]) {
  const Vec r{p[0] - frame[0], p[1] - frame[1], p[2] - frame[2]};
  return {Dot(Axis(frame, 0), r), Dot(Axis(frame, 1), r), Dot(Axis(frame, 2), r)};
}

double Length(const Vec& v) { return std::sqrt(Dot(v, v)); }

Vec Normalized(const Vec& v) {
  const double length = Length(v);
  return {v[0] / length, v[1] / length, v[2] / length};
}

// The distance from p to the segment [a, b].
double SegmentDistance(const Vec& p, const Vec& a, const Vec& b) {
  const Vec ab{b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const Vec ap{p[0] - a[0], p[1] - a[1], p[2] - a[2]};
  const double t = std::clamp(Dot(ap, ab) / Dot(ab, ab), 0.0, 1.0);
  return Length({ap[0] - t * ab[0], ap[1] - t * ab[1], ap[2] - t * ab[2]});
}

// The distance from p to the triangle (a, b, c): to its plane where p's projection falls inside
// (all three edge functions of the same sign as the normal), else to the nearest edge.
double TriangleDistance(const Vec& p, const Vec& a, const Vec& b, const Vec& c) {
  const Vec ab{b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const Vec ac{c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const Vec n = Normalized({ab[1] * ac[2] - ab[2] * ac[1], ab[2] * ac[0] - ab[0] * ac[2],
                            ab[0] * ac[1] - ab[1] * ac[0]});
  const double height = Dot({p[0] - a[0], p[1] - a[1], p[2] - a[2]}, n);
  const Vec q{p[0] - height * n[0], p[1] - height * n[1], p[2] - height * n[2]};
  const auto edge_side = [&](const Vec& u, const Vec& v) {
    const Vec e{v[0] - u[0], v[1] - u[1], v[2] - u[2]};
    const Vec w{q[0] - u[0], q[1] - u[1], q[2] - u[2]};
    return Dot({e[1] * w[2] - e[2] * w[1], e[2] * w[0] - e[0] * w[2], e[0] * w[1] - e[1] * w[0]},
               n);
  };
  if (edge_side(a, b) >= 0 && edge_side(b, c) >= 0 && edge_side(c, a) >= 0) {
    return std::fabs(height);
  }
  return std::min({SegmentDistance(p, a, b), SegmentDistance(p, b, c), SegmentDistance(p, c, a)});
}

// A heightfield's signed distance: the nearest of all its triangles, negative below the surface
// (p under the height of the surface at its x, y: bilinear on the triangle that holds them);
// infinity beyond its rectangle.
double HeightfieldDistance(const ShapeGeometry& shape, const Vec& q) {
  const int rows = static_cast<int>(shape.rows), columns = static_cast<int>(shape.columns);
  const double dx = 2.0 * shape.size[0] / (columns - 1), dy = 2.0 * shape.size[1] / (rows - 1);
  const double u = (q[0] + shape.size[0]) / dx, v = (q[1] + shape.size[1]) / dy;
  if (!(u >= 0 && u <= columns - 1 && v >= 0 && v <= rows - 1)) return INFINITY;
  const auto point = [&](int r, int c) {
    return Vec{c * dx - shape.size[0], r * dy - shape.size[1],
               double{shape.heights[static_cast<size_t>(r) * columns + c]}};
  };
  double nearest = INFINITY;
  for (int r = 0; r + 1 < rows; ++r) {
    for (int c = 0; c + 1 < columns; ++c) {
      const Vec a = point(r, c), b = point(r + 1, c), e = point(r, c + 1), f = point(r + 1, c + 1);
      nearest = std::min({nearest, TriangleDistance(q, a, b, f), TriangleDistance(q, a, f, e)});
    }
  }
  const int c = std::min(static_cast<int>(u), columns - 2),
            r = std::min(static_cast<int>(v), rows - 2);
  const double fu = u - c, fv = v - r;
  const double h00 = point(r, c)[2], h01 = point(r, c + 1)[2], h10 = point(r + 1, c)[2],
               h11 = point(r + 1, c + 1)[2];
  const double under = fv >= fu ? h00 + fu * (h11 - h10) + fv * (h10 - h00)
                                : h00 + fu * (h01 - h00) + fv * (h11 - h01);
  return q[2] < under ? -nearest : nearest;
}

}  // namespace

double ReferenceShapeDistance(const ShapeGeometry& shape, const double frame[12],
                              const double p[3]) {
  const Vec q = ToLocal(frame, p);
  const double r = shape.size[0];
  switch (shape.type) {
    case ShapeType::kPlane:
      return q[2];
    case ShapeType::kHeightfield:
      return HeightfieldDistance(shape, q);
    case ShapeType::kSphere:
      return Length(q) - r;
    case ShapeType::kCapsule: {
      const double z = std::clamp(q[2], -double{shape.size[1]}, double{shape.size[1]});
      return Length({q[0], q[1], q[2] - z}) - r;
    }
    case ShapeType::kCylinder: {
      const double radial = std::hypot(q[0], q[1]) - r;
      const double axial = std::fabs(q[2]) - shape.size[1];
      const double outside = std::hypot(std::max(radial, 0.0), std::max(axial, 0.0));
      return outside + std::min(std::max(radial, axial), 0.0);
    }
    case ShapeType::kBox: {
      Vec over{};
      double largest = -1e300;
      for (int k = 0; k < 3; ++k) {
        const double e = std::fabs(q[k]) - shape.size[k];
        over[k] = std::max(e, 0.0);
        largest = std::max(largest, e);
      }
      return Length(over) + std::min(largest, 0.0);
    }
    case ShapeType::kEllipsoid:
      break;
  }
  return NAN;
}

double ReferenceSupport(const ShapeGeometry& shape, const double frame[12], const double l[3]) {
  const Vec direction{l[0], l[1], l[2]};
  const double centre = frame[0] * l[0] + frame[1] * l[1] + frame[2] * l[2];
  const double along_z = Dot(Axis(frame, 2), direction);
  switch (shape.type) {
    case ShapeType::kSphere:
      return centre + shape.size[0];
    case ShapeType::kCapsule:
      return centre + shape.size[1] * std::fabs(along_z) + shape.size[0];
    case ShapeType::kCylinder: {
      // The sine of the angle to the axis from the cross product, not sqrt(1 - cos^2), which
      // near the axis turns a rounding error of 1e-16 in cos^2 into 1e-8 in the sine.
      const Vec axis = Axis(frame, 2);
      const Vec across{axis[1] * l[2] - axis[2] * l[1], axis[2] * l[0] - axis[0] * l[2],
                       axis[0] * l[1] - axis[1] * l[0]};
      return centre + shape.size[1] * std::fabs(along_z) + shape.size[0] * Length(across);
    }
    case ShapeType::kBox: {
      double reach = centre;
      for (int k = 0; k < 3; ++k)
        reach += shape.size[k] * std::fabs(Dot(Axis(frame, k), direction));
      return reach;
    }
    default:
      return NAN;
  }
}

double ReferenceSeparation(const ShapeGeometry& a, const double frame_a[12], const ShapeGeometry& b,
                           const double frame_b[12], const double l[3]) {
  const double back[3] = {-l[0], -l[1], -l[2]};
  if (a.type == ShapeType::kPlane) {
    const Vec n = Axis(frame_a, 2);
    const double minus_n[3] = {-n[0], -n[1], -n[2]};
    const double plane = n[0] * frame_a[0] + n[1] * frame_a[1] + n[2] * frame_a[2];
    return -ReferenceSupport(b, frame_b, minus_n) - plane;
  }
  return -ReferenceSupport(a, frame_a, l) - ReferenceSupport(b, frame_b, back);
}

double ReferenceSignedDistance(const ShapeGeometry& a, const double frame_a[12],
                               const ShapeGeometry& b, const double frame_b[12], double normal[3]) {
  if (a.type == ShapeType::kPlane) {
    const Vec n = Axis(frame_a, 2);
    for (int k = 0; k < 3; ++k) normal[k] = n[k];
    return ReferenceSeparation(a, frame_a, b, frame_b, normal);
  }
  const auto separation = [&](const Vec& l) {
    return ReferenceSeparation(a, frame_a, b, frame_b, l.data());
  };
  // Evenly spread starts (a Fibonacci sphere), the best 16 refined.
  constexpr int kStarts = 4000, kRefined = 16;
  std::vector<std::pair<double, Vec>> starts;
  starts.reserve(kStarts);
  const double golden = M_PI * (3.0 - std::sqrt(5.0));
  for (int n = 0; n < kStarts; ++n) {
    const double z = 1.0 - (2.0 * n + 1.0) / kStarts;
    const double radius = std::sqrt(1.0 - z * z);
    const Vec l{radius * std::cos(golden * n), radius * std::sin(golden * n), z};
    starts.emplace_back(separation(l), l);
  }
  std::partial_sort(starts.begin(), starts.begin() + kRefined, starts.end(),
                    [](const auto& x, const auto& y) { return x.first > y.first; });
  double best = -1e300;
  Vec best_l{0, 0, 1};
  for (int s = 0; s < kRefined; ++s) {
    Vec l = starts[s].second;
    double value = starts[s].first;
    // Nelder-Mead in a chart of the sphere around l, restarted from its result with smaller
    // simplices: the separation has ridges (where the support point jumps) that a simplex
    // follows and coordinate steps do not.
    for (double size : {0.05, 1e-3, 1e-5, 1e-7}) {
      const Vec helper = std::fabs(l[0]) < 0.6 ? Vec{1, 0, 0} : Vec{0, 1, 0};
      const Vec t1 =
          Normalized({l[1] * helper[2] - l[2] * helper[1], l[2] * helper[0] - l[0] * helper[2],
                      l[0] * helper[1] - l[1] * helper[0]});
      const Vec t2{l[1] * t1[2] - l[2] * t1[1], l[2] * t1[0] - l[0] * t1[2],
                   l[0] * t1[1] - l[1] * t1[0]};
      const auto at = [&](const std::array<double, 2>& uv) {
        Vec point{};
        for (int k = 0; k < 3; ++k) point[k] = l[k] + uv[0] * t1[k] + uv[1] * t2[k];
        return Normalized(point);
      };
      const auto score = [&](const std::array<double, 2>& uv) { return separation(at(uv)); };
      std::array<std::array<double, 2>, 3> simplex{{{0, 0}, {size, 0}, {0, size}}};
      std::array<double, 3> values{score(simplex[0]), score(simplex[1]), score(simplex[2])};
      for (int iteration = 0; iteration < 2000; ++iteration) {
        // Best first (largest separation).
        std::array<int, 3> order{0, 1, 2};
        std::sort(order.begin(), order.end(), [&](int x, int y) { return values[x] > values[y]; });
        const auto& hi = simplex[order[0]];
        const auto& mid = simplex[order[1]];
        auto& lo = simplex[order[2]];
        double& lo_value = values[order[2]];
        if (std::fabs(hi[0] - lo[0]) + std::fabs(hi[1] - lo[1]) < 1e-14) break;
        const std::array<double, 2> centre{(hi[0] + mid[0]) / 2, (hi[1] + mid[1]) / 2};
        const auto along = [&](double t) {
          return std::array<double, 2>{centre[0] + t * (lo[0] - centre[0]),
                                       centre[1] + t * (lo[1] - centre[1])};
        };
        const std::array<double, 2> reflected = along(-1.0);
        const double reflected_value = score(reflected);
        if (reflected_value > values[order[0]]) {
          const std::array<double, 2> expanded = along(-2.0);
          const double expanded_value = score(expanded);
          lo = expanded_value > reflected_value ? expanded : reflected;
          lo_value = std::max(expanded_value, reflected_value);
        } else if (reflected_value > values[order[1]]) {
          lo = reflected;
          lo_value = reflected_value;
        } else {
          const std::array<double, 2> contracted = along(0.5);
          const double contracted_value = score(contracted);
          if (contracted_value > lo_value) {
            lo = contracted;
            lo_value = contracted_value;
          } else {  // shrink towards the best
            for (int v : {order[1], order[2]}) {
              simplex[v] = {(simplex[v][0] + hi[0]) / 2, (simplex[v][1] + hi[1]) / 2};
              values[v] = score(simplex[v]);
            }
          }
        }
      }
      const int top =
          static_cast<int>(std::max_element(values.begin(), values.end()) - values.begin());
      if (values[top] > value) {
        value = values[top];
        l = at(simplex[top]);
      }
    }
    if (value > best) {
      best = value;
      best_l = l;
    }
  }
  for (int k = 0; k < 3; ++k) normal[k] = best_l[k];
  return best;
}

}  // namespace swarm
