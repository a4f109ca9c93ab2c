// Tests for kernels/quaternion.* that do not rely on a same-order copy of the code: every kernel
// against GLM's own functions in double precision, the quaternion identities, slerp's endpoints
// and constant angular speed, and the documented results for degenerate inputs. All on every
// compiled SIMD target.
//
// Tolerances are absolute on unit-sized results: a few float roundings of values <= 1 give errors
// of a few 2^-24 = 6e-8, so 1e-6 (17 ulp of 1) leaves room for accumulated rounding without
// hiding a wrong formula, whose errors are O(1).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <limits>
#include <random>
#include <vector>

#include "swarm/kernels/geometry/quaternion.h"
#include "tests/kernels/geometry/quaternion_fixture.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

using test::ForEachTarget;
using test::FromQuats;
using test::GetQuat;
using test::PaddedMat4;
using test::PaddedVec4;
using test::TargetUnderTest;
using test::ToQuats;

constexpr double kTolerance = 1e-6;
constexpr size_t kCount = 4099;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

double Distance(const glm::dquat& a, const glm::dquat& b) {
  return glm::length(glm::dvec4(a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w));
}
glm::dquat Double(const glm::quat& q) { return glm::dquat(q.w, q.x, q.y, q.z); }
// The same rotation as q with w >= 0.
glm::dquat Canonical(const glm::dquat& q) { return q.w < 0.0 ? -q : q; }
// The angle between two unit quaternions on the 4-sphere, accurate for small angles.
double ArcAngle(const glm::dquat& a, const glm::dquat& b) {
  const glm::dvec4 va(a.x, a.y, a.z, a.w), vb(b.x, b.y, b.z, b.w);
  return 2.0 * std::atan2(glm::length(va - vb), glm::length(va + vb));
}
bool AllNaN(const glm::quat& q) {
  return std::isnan(q.x) && std::isnan(q.y) && std::isnan(q.z) && std::isnan(q.w);
}

struct Pairs {
  std::vector<glm::quat> a = test::RandomUnitQuats(kCount, 101);
  std::vector<glm::quat> b = test::PartnerQuats(a, 102);
  PaddedVec4 a_buffer = FromQuats(a);
  PaddedVec4 b_buffer = FromQuats(b);
};

TEST_CASE("Rotations agree with glm in double precision and keep lengths") {
  const Pairs pairs;
  const PaddedVec4 vectors = test::RandomVectors(kCount, 103);
  const glm::quat q = glm::normalize(glm::quat(0.4f, 0.3f, -0.5f, 0.7f));
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    PaddedVec4 one(kCount), per_element(kCount);
    RotateVectors(q, vectors.view(), one.view());
    RotateVectorsPerElement(pairs.a_buffer.view(), vectors.view(), per_element.view());
    size_t wrong_one = 0, wrong_per_element = 0, wrong_length = 0, wrong_w = 0;
    for (size_t i = 0; i < kCount; ++i) {
      const glm::dvec3 v(glm::vec3(vectors.Get(i)));
      const double scale = glm::length(v);
      // Errors scale with |v| (up to 17 here): 1e-6 relative.
      if (glm::length(glm::dvec3(glm::vec3(one.Get(i))) - Double(q) * v) > kTolerance * scale) {
        ++wrong_one;
      }
      const glm::dvec3 got(glm::vec3(per_element.Get(i)));
      if (glm::length(got - Double(pairs.a[i]) * v) > kTolerance * scale) ++wrong_per_element;
      if (std::abs(glm::length(got) - scale) > kTolerance * scale) ++wrong_length;
      if (one.Get(i).w != vectors.Get(i).w || per_element.Get(i).w != vectors.Get(i).w) ++wrong_w;
    }
    CHECK(wrong_one == 0);
    CHECK(wrong_per_element == 0);
    CHECK(wrong_length == 0);
    CHECK(wrong_w == 0);
  });
}

TEST_CASE("Products, conjugates and normalization agree with glm in double precision") {
  const Pairs pairs;
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    PaddedVec4 product(kCount), conjugate(kCount), identity(kCount), normalized(kCount);
    MultiplyQuaternions(pairs.a_buffer.view(), pairs.b_buffer.view(), product.view());
    ConjugateQuaternions(pairs.a_buffer.view(), conjugate.view());
    MultiplyQuaternions(pairs.a_buffer.view(), conjugate.view(), identity.view());
    // Scaled copies of a: normalize must bring them back.
    std::vector<glm::quat> scaled = pairs.a;
    for (size_t i = 0; i < kCount; ++i)
      scaled[i] = scaled[i] * std::pow(2.0f, float(i % 41) - 20.0f) * 1.3f;
    const PaddedVec4 scaled_buffer = FromQuats(scaled);
    NormalizeQuaternions(scaled_buffer.view(), normalized.view());
    size_t wrong_product = 0, wrong_conjugate = 0, wrong_identity = 0, wrong_normalized = 0;
    for (size_t i = 0; i < kCount; ++i) {
      const glm::dquat a = Double(pairs.a[i]), b = Double(pairs.b[i]);
      if (Distance(Double(GetQuat(product, i)), a * b) > kTolerance) ++wrong_product;
      if (Distance(Double(GetQuat(conjugate, i)), glm::conjugate(a)) != 0.0) ++wrong_conjugate;
      // q q* = |q|^2 (1, 0, 0, 0) = identity for unit q.
      if (Distance(Double(GetQuat(identity, i)), glm::dquat(1.0, 0.0, 0.0, 0.0)) > kTolerance) {
        ++wrong_identity;
      }
      if (Distance(Double(GetQuat(normalized, i)), glm::normalize(Double(scaled[i]))) >
          kTolerance) {
        ++wrong_normalized;
      }
    }
    CHECK(wrong_product == 0);
    CHECK(wrong_conjugate == 0);
    CHECK(wrong_identity == 0);
    CHECK(wrong_normalized == 0);
  });
}

TEST_CASE("Matrix conversions agree with glm in double precision and round-trip to +-q") {
  const Pairs pairs;
  // Rotations where each of Shepperd's four candidates wins: identity and half turns about x,
  // y, z, plus the random ones.
  std::vector<glm::quat> q = pairs.a;
  q[0] = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  q[1] = glm::quat(0.0f, 1.0f, 0.0f, 0.0f);
  q[2] = glm::quat(0.0f, 0.0f, 1.0f, 0.0f);
  q[3] = glm::quat(0.0f, 0.0f, 0.0f, 1.0f);
  q[4] = glm::quat(0.0f, 0.0f, 0.0f, -1.0f);
  const PaddedVec4 q_buffer = FromQuats(q);
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    PaddedMat4 matrices(kCount);
    PaddedVec4 round_trip(kCount);
    QuaternionsToMatrices(q_buffer.view(), matrices.view());
    MatricesToQuaternions(matrices.view(), round_trip.view());
    size_t wrong_matrix = 0, wrong_border = 0, wrong_quat = 0, negative_w = 0;
    for (size_t i = 0; i < kCount; ++i) {
      const glm::mat4 m = matrices.Get(i);
      const glm::dmat3 want = glm::mat3_cast(Double(q[i]));
      for (int c = 0; c < 3; ++c) {
        for (int r = 0; r < 3; ++r) {
          if (std::abs(m[c][r] - want[c][r]) > kTolerance) ++wrong_matrix;
        }
        if (m[c][3] != 0.0f || m[3][c] != 0.0f) ++wrong_border;
      }
      if (m[3][3] != 1.0f) ++wrong_border;
      const glm::quat got = GetQuat(round_trip, i);
      if (got.w < 0.0f) ++negative_w;
      // Against glm's own Shepperd in double, and against the quaternion we started from.
      const glm::dquat glm_double = Canonical(glm::quat_cast(glm::dmat3(glm::mat3(m))));
      if (Distance(Double(got), glm_double) > kTolerance ||
          Distance(Double(got), Canonical(Double(q[i]))) > kTolerance) {
        // Half turns have w = 0, where q and -q are both canonical.
        if (!(q[i].w == 0.0f && Distance(Double(got), -Double(q[i])) <= kTolerance)) ++wrong_quat;
      }
    }
    CHECK(wrong_matrix == 0);
    CHECK(wrong_border == 0);
    CHECK(wrong_quat == 0);
    CHECK(negative_w == 0);
  });
}

TEST_CASE("Slerp and nlerp agree with glm in double precision, endpoints included") {
  const Pairs pairs;
  for (const float t : {0.0f, 0.1f, 0.5f, 0.9f, 1.0f}) {
    INFO("t " << t);
    ForEachTarget([&](const TargetUnderTest& target) {
      INFO("target " << target.name);
      PaddedVec4 slerp(kCount), nlerp(kCount);
      SlerpQuaternions(pairs.a_buffer.view(), pairs.b_buffer.view(), t, slerp.view());
      NlerpQuaternions(pairs.a_buffer.view(), pairs.b_buffer.view(), t, nlerp.view());
      size_t wrong_slerp = 0, wrong_nlerp = 0, wrong_endpoint = 0;
      for (size_t i = 0; i < kCount; ++i) {
        const glm::dquat a = Double(pairs.a[i]);
        glm::dquat b = Double(pairs.b[i]);
        if (Distance(Double(GetQuat(slerp, i)), glm::slerp(a, b, double{t})) > kTolerance) {
          ++wrong_slerp;
        }
        if (glm::dot(a, b) < 0.0) b = -b;
        const glm::dquat want_nlerp = glm::normalize(a * (1.0 - t) + b * double{t});
        if (Distance(Double(GetQuat(nlerp, i)), want_nlerp) > kTolerance) ++wrong_nlerp;
        const glm::dquat endpoint = t == 0.0f ? a : b;
        if ((t == 0.0f || t == 1.0f) &&
            Distance(Double(GetQuat(slerp, i)), endpoint) > kTolerance) {
          ++wrong_endpoint;
        }
      }
      CHECK(wrong_slerp == 0);
      CHECK(wrong_nlerp == 0);
      CHECK(wrong_endpoint == 0);
    });
  }
}

TEST_CASE("Slerp moves at constant angular speed, also when extrapolating") {
  // Rotations 0.1 .. 3.1 rad apart, so 0.05 .. 1.55 rad apart on the 4-sphere: sample
  // t = -0.5 .. 1.5 in steps of 1/16; each step must cover 1/16 of the arc (2e-6 rad tolerance).
  std::mt19937 rng(104);
  std::uniform_real_distribution<double> angle(0.1, 3.1);
  std::vector<glm::quat> a(257), b(257);
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = test::RandomUnitQuat(rng);
    b[i] = test::Perturbed(rng, a[i], angle(rng));
  }
  const PaddedVec4 a_buffer = FromQuats(a), b_buffer = FromQuats(b);
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    std::vector<std::vector<glm::quat>> samples;
    for (int k = -8; k <= 24; ++k) {
      PaddedVec4 out(a.size());
      SlerpQuaternions(a_buffer.view(), b_buffer.view(), static_cast<float>(k) / 16.0f, out.view());
      samples.push_back(ToQuats(out));
    }
    size_t uneven = 0, not_unit = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      glm::dquat near_b = Double(b[i]);
      if (glm::dot(Double(a[i]), near_b) < 0.0) near_b = -near_b;
      const double step = ArcAngle(Double(a[i]), near_b) / 16.0;
      for (size_t k = 0; k + 1 < samples.size(); ++k) {
        const double moved = ArcAngle(Double(samples[k][i]), Double(samples[k + 1][i]));
        if (std::abs(moved - step) > 2 * kTolerance) ++uneven;
        if (std::abs(glm::length(Double(samples[k][i])) - 1.0) > kTolerance) ++not_unit;
      }
    }
    CHECK(uneven == 0);
    CHECK(not_unit == 0);
  });
}

TEST_CASE("Degenerate quaternions give the documented results") {
  const glm::quat zero(0.0f, 0.0f, 0.0f, 0.0f);
  const glm::quat nan_x(1.0f, kNaN, 0.0f, 0.0f);
  const glm::quat unit = glm::normalize(glm::quat(0.4f, 0.3f, -0.5f, 0.7f));
  const glm::quat other = glm::normalize(glm::quat(-0.2f, 0.9f, 0.1f, 0.3f));
  // a[i], b[i]: zero, NaN, antipodal, equal, negative zero.
  const std::vector<glm::quat> a = {zero, nan_x, unit, unit, glm::quat(-0.0f, -0.0f, 0.0f, -0.0f)};
  const std::vector<glm::quat> b = {other, other, -unit, unit, other};
  const PaddedVec4 a_buffer = FromQuats(a), b_buffer = FromQuats(b);
  PaddedVec4 vectors(a.size());
  for (size_t i = 0; i < a.size(); ++i) vectors.Set(i, {1.0f, -2.0f, 3.0f, 9.0f});
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    PaddedVec4 normalized(a.size()), rotated(a.size());
    NormalizeQuaternions(a_buffer.view(), normalized.view());
    CHECK(GetQuat(normalized, 0) == glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
    CHECK(AllNaN(GetQuat(normalized, 1)));
    CHECK(GetQuat(normalized, 4) == glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
    // The zero quaternion leaves vectors unchanged (u = 0, w = 0); NaN spreads to x, y, z only.
    RotateVectorsPerElement(a_buffer.view(), vectors.view(), rotated.view());
    CHECK(rotated.Get(0) == vectors.Get(0));
    CHECK((std::isnan(rotated.Get(1).x) && std::isnan(rotated.Get(1).y) &&
           std::isnan(rotated.Get(1).z) && rotated.Get(1).w == 9.0f));

    for (const float t : {0.0f, 0.3f, 1.0f, -0.5f, 2.0f}) {
      INFO("t " << t);
      PaddedVec4 slerp(a.size()), nlerp(a.size());
      SlerpQuaternions(a_buffer.view(), b_buffer.view(), t, slerp.view());
      NlerpQuaternions(a_buffer.view(), b_buffer.view(), t, nlerp.view());
      for (const PaddedVec4* out : {&slerp, &nlerp}) {
        // Zero a: finite. NaN a: NaN everywhere. Antipodal or equal b: a itself.
        const glm::quat from_zero = GetQuat(*out, 0);
        CHECK((std::isfinite(from_zero.x) && std::isfinite(from_zero.y) &&
               std::isfinite(from_zero.z) && std::isfinite(from_zero.w)));
        CHECK(AllNaN(GetQuat(*out, 1)));
        CHECK(Distance(Double(GetQuat(*out, 2)), Double(unit)) <= kTolerance);
        CHECK(Distance(Double(GetQuat(*out, 3)), Double(unit)) <= kTolerance);
      }
    }

    PaddedMat4 matrices(3);
    matrices.Set(0, glm::mat4(0.0f));
    glm::mat4 nan_matrix(1.0f);
    nan_matrix[1][2] = kNaN;
    matrices.Set(1, nan_matrix);
    matrices.Set(2, glm::mat4(1.0f));
    PaddedVec4 from_matrices(3);
    MatricesToQuaternions(matrices.view(), from_matrices.view());
    CHECK(GetQuat(from_matrices, 0) == glm::quat(0.5f, 0.0f, 0.0f, 0.0f));
    CHECK(std::isnan(GetQuat(from_matrices, 1).x));
    CHECK(GetQuat(from_matrices, 2) == glm::quat(1.0f, 0.0f, 0.0f, 0.0f));

    PaddedMat4 from_zero(2);
    QuaternionsToMatrices(a_buffer.view().Slice(0, 2), from_zero.view());
    CHECK(from_zero.Get(0) == glm::mat4(1.0f));
    CHECK(std::isnan(from_zero.Get(1)[1][2]));
    CHECK(from_zero.Get(1)[3] == glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
  });
}

}  // namespace
}  // namespace swarm
