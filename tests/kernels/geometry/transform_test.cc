// Tests for kernels/transform.*: TransformVectors, TransformVectorsPerElement and
// MultiplyMatrices on every compiled SIMD target against the GLM reference (tolerance, then
// bits), against GLM in double precision (error bound in transform_fixture.h), across targets
// (bits), in place, and on degenerate inputs. CameraProject: transform_camera_test.cc.
#include "swarm/kernels/geometry/transform.h"

#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <functional>
#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec4.hpp>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "swarm/kernels/geometry/transform_reference.h"
#include "tests/kernels/geometry/transform_fixture.h"
#include "tests/kernels/particles/particle_fixture.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

using test::Exact;
using test::ForEachTarget;
using test::kSizes;
using test::PaddedMat4;
using test::PaddedVec4;
using test::SameBits;
using test::TargetUnderTest;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

struct ModeCase {
  TransformParams params;
  const char* name;
};
constexpr ModeCase kModes[] = {
    {{TransformMode::kPoints, false}, "points"},
    {{TransformMode::kPoints, true}, "points, divide"},
    {{TransformMode::kDirections, false}, "directions"},
    {{TransformMode::kHomogeneous, false}, "homogeneous"},
    {{TransformMode::kHomogeneous, true}, "homogeneous, divide"},
};

// The exact result of the documented transform, lane by lane; a lane is empty where a divide by
// a w too close to zero has no error bound.
std::array<std::optional<Exact>, 4> ExactTransform(const glm::mat4& matrix, const glm::vec4& v,
                                                   const TransformParams& params) {
  const glm::dmat4 m(matrix);
  glm::dvec4 dv(v);
  if (params.mode == TransformMode::kPoints) dv.w = 1.0;
  if (params.mode == TransformMode::kDirections) dv.w = 0.0;
  std::array<std::optional<Exact>, 4> out;
  const Exact w = test::Dot4(m, 3, dv);
  for (int r = 0; r < 3; ++r) {
    const Exact row = test::Dot4(m, r, dv);
    out[r] = params.perspective_divide ? test::Quotient(row, w) : row;
  }
  if (params.perspective_divide || params.mode == TransformMode::kPoints) {
    out[3] = Exact{1.0, 0.0};
  } else if (params.mode == TransformMode::kDirections) {
    out[3] = Exact{0.0, 0.0};
  } else {
    out[3] = w;
  }
  return out;
}

// Empty if every lane of `got` is within the double-precision error bound of the exact result.
std::string DoubleReport(const PaddedVec4& got, const std::vector<glm::vec4>& in,
                         const std::function<glm::mat4(size_t)>& matrix_of,
                         const TransformParams& params) {
  size_t mismatches = 0;
  size_t skipped = 0;
  std::string first;
  for (size_t i = 0; i < in.size(); ++i) {
    const auto exact = ExactTransform(matrix_of(i), in[i], params);
    for (int lane = 0; lane < 4; ++lane) {
      if (!exact[lane]) {
        ++skipped;
        continue;
      }
      const float g = got.Lane(static_cast<size_t>(lane))[i];
      if (!test::CloseToExact(g, *exact[lane]) && mismatches++ == 0) {
        first = "element " + std::to_string(i) + " lane " + std::to_string(lane) + ": got " +
                std::to_string(g) + ", exact " + std::to_string(exact[lane]->value);
      }
    }
  }
  // Ill-conditioned divides are rare with these inputs; many would mean a broken generator.
  if (skipped > in.size() / 100 + 3) first += " too many skipped: " + std::to_string(skipped);
  if (mismatches == 0) return first;
  return first + " (" + std::to_string(mismatches) + " mismatches)";
}

// Runs kernel(in, out) on every target: out must match the reference `want` within the stated
// tolerance and bitwise, the exact result within the error bound, keep its padding, give the same
// bits when run in place, and the same bits on every target.
void CheckVectorKernel(const PaddedVec4& in, float padding, const std::vector<glm::vec4>& want,
                       const std::function<glm::mat4(size_t)>& matrix_of,
                       const TransformParams& params,
                       const std::function<void(const ConstVec4View&, const Vec4View&)>& kernel) {
  const std::vector<glm::vec4> in_aos = in.ToAos();
  std::optional<PaddedVec4> first;
  std::string first_target;
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    PaddedVec4 out(in.count(), padding);
    kernel(in.view(), out.view());
    CHECK(test::detail::CompareVec4("out", out, want) == "");
    CHECK(test::BitwiseReport(out, want) == "");
    CHECK(DoubleReport(out, in_aos, matrix_of, params) == "");
    CHECK_FALSE(out.PaddingMismatch(padding).has_value());
    PaddedVec4 in_place = in;  // same padding value as `out`
    kernel(in_place.view(), in_place.view());
    CHECK(in_place.BitwiseEqual(out));
    if (!first) {
      first.emplace(out);
      first_target = target.name;
    } else {
      INFO("bitwise against target " << first_target);
      CHECK(out.BitwiseEqual(*first));
    }
  });
  REQUIRE(first.has_value());
}

TEST_CASE("TransformVectors matches the reference, GLM in double and itself on every target") {
  std::mt19937 rng(7);
  const glm::mat4 matrix = test::RandomMatrix(rng);
  for (const ModeCase& mode : kModes) {
    for (const size_t count : kSizes) {
      for (const float padding : {0.0f, test::kSentinelFloat}) {
        INFO(mode.name << ", count " << count << ", padding " << padding);
        const PaddedVec4 in =
            test::RandomVectors(count, static_cast<uint32_t>(count) + 99, padding);
        std::vector<glm::vec4> want(count);
        reference::TransformVectors(matrix, in.ToAos(), want, mode.params);
        CheckVectorKernel(
            in, padding, want, [&](size_t) { return matrix; }, mode.params,
            [&](const ConstVec4View& from, const Vec4View& to) {
              TransformVectors(matrix, from, to, mode.params);
            });
      }
    }
  }
}

TEST_CASE("TransformVectorsPerElement matches the reference, GLM in double and across targets") {
  for (const ModeCase& mode : kModes) {
    if (mode.params.perspective_divide) continue;
    for (const size_t count : kSizes) {
      for (const float padding : {0.0f, test::kSentinelFloat}) {
        INFO(mode.name << ", count " << count << ", padding " << padding);
        const uint32_t seed = static_cast<uint32_t>(count) + 5;
        const PaddedVec4 in = test::RandomVectors(count, seed, padding);
        const PaddedMat4 matrices = test::RandomMatrices(count, seed + 1, padding);
        const std::vector<glm::mat4> matrices_aos = matrices.ToAos();
        std::vector<glm::vec4> want(count);
        reference::TransformVectorsPerElement(matrices_aos, in.ToAos(), want, mode.params.mode);
        CheckVectorKernel(
            in, padding, want, [&](size_t i) { return matrices_aos[i]; }, mode.params,
            [&](const ConstVec4View& from, const Vec4View& to) {
              TransformVectorsPerElement(matrices.view(), from, to, mode.params.mode);
            });
      }
    }
  }
}

TEST_CASE("TransformVectors gives the bits of glm's own operators") {
  std::mt19937 rng(11);
  const glm::mat4 m = test::RandomMatrix(rng);
  const PaddedVec4 in = test::RandomVectors(1000, 3);
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    PaddedVec4 points(in.count()), directions(in.count()), homogeneous(in.count());
    TransformVectors(m, in.view(), points.view(), {TransformMode::kPoints, false});
    TransformVectors(m, in.view(), directions.view(), {TransformMode::kDirections, false});
    TransformVectors(m, in.view(), homogeneous.view(), {TransformMode::kHomogeneous, false});
    size_t mismatches = 0;
    for (size_t i = 0; i < in.count(); ++i) {
      const glm::vec4 v = in.Get(i);
      const glm::vec4 p = m * glm::vec4(glm::vec3(v), 1.0f);
      mismatches += !SameBits(points.Get(i), glm::vec4(glm::vec3(p), 1.0f));
      mismatches += !SameBits(directions.Get(i), glm::vec4(glm::mat3(m) * glm::vec3(v), 0.0f));
      mismatches += !SameBits(homogeneous.Get(i), m * v);
    }
    CHECK(mismatches == 0);
  });
}

TEST_CASE("Per-element matrices that are all equal give TransformVectors' bits") {
  std::mt19937 rng(13);
  const glm::mat4 m = test::RandomMatrix(rng);
  const size_t count = 1000;
  PaddedMat4 matrices(count);
  for (size_t i = 0; i < count; ++i) matrices.Set(i, m);
  const PaddedVec4 in = test::RandomVectors(count, 17);
  for (const TransformMode mode :
       {TransformMode::kPoints, TransformMode::kDirections, TransformMode::kHomogeneous}) {
    PaddedVec4 one(count), each(count);
    TransformVectors(m, in.view(), one.view(), {mode, false});
    TransformVectorsPerElement(matrices.view(), in.view(), each.view(), mode);
    CHECK(one.BitwiseEqual(each));
  }
}

TEST_CASE("Modes read only what they document") {
  // kPoints without divide: input w and the matrix's bottom row unread. kDirections: the
  // translation column unread, so even an infinite translation leaves directions finite.
  glm::mat4 m(1.0f);
  m[3] = glm::vec4(kInf, -kInf, kNaN, kNaN);  // translation column with a NaN bottom entry
  m[0][3] = kNaN;
  m[1][3] = kNaN;
  m[2][3] = kNaN;
  PaddedVec4 in(5);
  for (size_t i = 0; i < 5; ++i) in.Set(i, {1.0f + i, -2.0f, 3.0f, kNaN});
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    PaddedVec4 directions(5);
    TransformVectors(m, in.view(), directions.view(), {TransformMode::kDirections, false});
    glm::mat4 affine = m;
    affine[3] = glm::vec4(0.5f, 0.25f, -1.0f, kNaN);
    PaddedVec4 points(5);
    TransformVectors(affine, in.view(), points.view(), {TransformMode::kPoints, false});
    for (size_t i = 0; i < 5; ++i) {
      INFO("element " << i);
      CHECK(SameBits(directions.Get(i), glm::vec4(1.0f + i, -2.0f, 3.0f, 0.0f)));
      CHECK(SameBits(points.Get(i), glm::vec4(1.5f + i, -1.75f, 2.0f, 1.0f)));
    }
  });
}

TEST_CASE("Perspective divide by w = 0 gives the IEEE quotients, never a crash") {
  // Identity with a zero bottom row: clip = (x, y, z, 0), so x / 0 is +-inf and 0 / 0 is NaN.
  glm::mat4 flat(1.0f);
  flat[3][3] = 0.0f;
  const size_t count = 17;  // a full vector and a masked tail on every target
  PaddedVec4 in(count);
  for (size_t i = 0; i < count; ++i) in.Set(i, {1.0f, -2.0f, 0.0f, 0.0f});
  in.Set(16, {-1.0f, 2.0f, 0.0f, -0.0f});
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    PaddedVec4 points(count), homogeneous(count);
    TransformVectors(flat, in.view(), points.view(), {TransformMode::kPoints, true});
    TransformVectors(glm::mat4(1.0f), in.view(), homogeneous.view(),
                     {TransformMode::kHomogeneous, true});
    for (size_t i = 0; i < count; ++i) {
      INFO("element " << i);
      const glm::vec4 p = points.Get(i);
      const glm::vec4 h = homogeneous.Get(i);
      // kPoints: w = 0 * x + 0 * y + 0 * z + 0 = +0 (the signed zeros sum to +0 here).
      CHECK(p.x == (i == 16 ? -kInf : kInf));
      CHECK(p.y == (i == 16 ? kInf : -kInf));
      CHECK(std::isnan(p.z));
      CHECK(p.w == 1.0f);
      // kHomogeneous: w = (0 x + 0 y) + (0 z + 1 w) is +0 even for the input w = -0 of element
      // 16 (IEEE: +0 + -0 = +0), so the quotients are those of kPoints.
      CHECK(SameBits(h.x, p.x));
      CHECK(SameBits(h.y, p.y));
      CHECK(std::isnan(h.z));
      CHECK(h.w == 1.0f);
    }
    CHECK_FALSE(points.PaddingMismatch(0.0f).has_value());
  });
}

TEST_CASE("NaN inputs propagate to exactly the outputs that depend on them") {
  std::mt19937 rng(19);
  const glm::mat4 m = test::RandomMatrix(rng);  // no zero entries: every output reads every input
  const size_t count = 33;
  PaddedVec4 in = test::RandomVectors(count, 23);
  in.Lane(0)[5] = kNaN;   // x of element 5
  in.Lane(3)[20] = kNaN;  // w of element 20: read only by kHomogeneous
  PaddedMat4 matrices = test::RandomMatrices(count, 29);
  matrices.Lane(4 * 1 + 2)[7] = kNaN;  // m[1][2] of element 7: row 2 only
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    PaddedVec4 points(count), homogeneous(count), per_element(count);
    TransformVectors(m, in.view(), points.view(), {TransformMode::kPoints, false});
    TransformVectors(m, in.view(), homogeneous.view(), {TransformMode::kHomogeneous, false});
    TransformVectorsPerElement(matrices.view(), in.view(), per_element.view(),
                               TransformMode::kPoints);
    for (size_t i = 0; i < count; ++i) {
      INFO("element " << i);
      for (int lane = 0; lane < 4; ++lane) {
        const bool point_nan = i == 5 && lane < 3;
        CHECK(std::isnan(points.Get(i)[lane]) == point_nan);
        CHECK(std::isnan(homogeneous.Get(i)[lane]) == (i == 5 || i == 20));
        const bool per_element_nan = (i == 5 && lane < 3) || (i == 7 && lane == 2);
        CHECK(std::isnan(per_element.Get(i)[lane]) == per_element_nan);
      }
    }
  });
}

TEST_CASE("Tiles of one buffer are disjoint views: transforming one into another is allowed") {
  std::mt19937 rng(31);
  const glm::mat4 m = test::RandomMatrix(rng);
  // Tiles start on vector boundaries: multiples of kPadFloats (16 on x86, 64 on aarch64).
  constexpr size_t kTile = kPadFloats;
  PaddedVec4 buffer = test::RandomVectors(4 * kTile, 37);
  const std::vector<glm::vec4> before = buffer.ToAos();
  const Vec4View all = buffer.view();
  // out: elements 2 kTile .. 3 kTile + 4, read from elements 0 .. kTile + 4
  TransformVectors(m, all.Slice(0, kTile + 4), all.Slice(2 * kTile, kTile + 4));
  TransformVectors(m, all.Slice(0, kTile), all.Slice(0, kTile));  // in place on a tile
  for (size_t i = 0; i < 4 * kTile; ++i) {
    INFO("element " << i);
    glm::vec4 want = before[i];
    if (i < kTile) want = reference::TransformVector(m, before[i], {});
    if (i >= 2 * kTile && i < 3 * kTile + 4) {
      want = reference::TransformVector(m, before[i - 2 * kTile], {});
    }
    CHECK(SameBits(buffer.Get(i), want));
  }
}

std::string MatrixReport(const PaddedMat4& got, const std::vector<glm::mat4>& want,
                         const std::vector<glm::mat4>& a, const std::vector<glm::mat4>& b) {
  size_t close = 0, bits = 0, exact = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    const glm::mat4 g = got.Get(i);
    const glm::dmat4 da(a[i]), db(b[i]);
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 4; ++r) {
        close += !test::Close(g[c][r], want[i][c][r]);
        bits += !SameBits(g[c][r], want[i][c][r]);
        Exact e;
        for (int k = 0; k < 4; ++k) {
          e.value += da[k][r] * db[c][k];
          e.scale += std::abs(da[k][r] * db[c][k]);
        }
        exact += !test::CloseToExact(g[c][r], e);
      }
    }
  }
  if (close + bits + exact == 0) return {};
  return "outside tolerance " + std::to_string(close) + ", bit mismatches " + std::to_string(bits) +
         ", outside the double bound " + std::to_string(exact);
}

TEST_CASE("MultiplyMatrices matches glm's a * b, GLM in double and itself on every target") {
  for (const size_t count : kSizes) {
    for (const float padding : {0.0f, test::kSentinelFloat}) {
      INFO("count " << count << ", padding " << padding);
      const uint32_t seed = static_cast<uint32_t>(count) + 41;
      const PaddedMat4 a = test::RandomMatrices(count, seed, padding);
      const PaddedMat4 b = test::RandomMatrices(count, seed + 1, padding);
      const std::vector<glm::mat4> a_aos = a.ToAos(), b_aos = b.ToAos();
      std::vector<glm::mat4> want(count);
      reference::MultiplyMatrices(a_aos, b_aos, want);
      std::optional<PaddedMat4> first;
      ForEachTarget([&](const TargetUnderTest& target) {
        INFO("target " << target.name);
        PaddedMat4 out(count, padding);
        MultiplyMatrices(a.view(), b.view(), out.view());
        CHECK(MatrixReport(out, want, a_aos, b_aos) == "");
        CHECK_FALSE(out.PaddingMismatch(padding).has_value());
        if (!first) {
          first.emplace(out);
        } else {
          CHECK(out.BitwiseEqual(*first));
        }
      });
    }
  }
}

TEST_CASE("MultiplyMatrices: identity is exact and products compose with transforms") {
  const size_t count = 100;
  const PaddedMat4 a = test::RandomMatrices(count, 43);
  const PaddedMat4 b = test::RandomMatrices(count, 47);
  PaddedMat4 identity(count);
  for (size_t i = 0; i < count; ++i) identity.Set(i, glm::mat4(1.0f));
  PaddedMat4 a_identity(count), identity_a(count), ab(count);
  MultiplyMatrices(a.view(), identity.view(), a_identity.view());
  MultiplyMatrices(identity.view(), a.view(), identity_a.view());
  CHECK(a_identity.BitwiseEqual(a));  // entries are non-zero, so x + 0 = x exactly
  CHECK(identity_a.BitwiseEqual(a));

  // (a b) v against a (b v): both within a few ulps of the exact value, so within 1e-5 relative
  // of their common scale |a| |b| |v| (entries <= 2, v <= 10: terms up to 4 * 4 * 2 * 2 * 10).
  MultiplyMatrices(a.view(), b.view(), ab.view());
  const PaddedVec4 v = test::RandomVectors(count, 53);
  PaddedVec4 combined(count), b_v(count), a_b_v(count);
  TransformVectorsPerElement(ab.view(), v.view(), combined.view(), TransformMode::kHomogeneous);
  TransformVectorsPerElement(b.view(), v.view(), b_v.view(), TransformMode::kHomogeneous);
  TransformVectorsPerElement(a.view(), b_v.view(), a_b_v.view(), TransformMode::kHomogeneous);
  size_t mismatches = 0;
  for (size_t i = 0; i < count; ++i) {
    for (int lane = 0; lane < 4; ++lane) {
      mismatches += std::abs(combined.Get(i)[lane] - a_b_v.Get(i)[lane]) > 1e-5f * 640.0f;
    }
  }
  CHECK(mismatches == 0);
}

}  // namespace
}  // namespace swarm
