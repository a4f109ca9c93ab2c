// Tests for the pose kernels of swarm/kernels/geometry/pose.h (compose, invert, relative, transform
// points): each against its bitwise scalar reference and against double-precision matrix algebra on
// every compiled SIMD target (tests/kernels/geometry/pose_fixture.h), in-place aliasing,
// associativity, and degenerate inputs. Rigid-body integration and inertia: rigid_body_test.cc.
#include "swarm/kernels/geometry/pose.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <glm/geometric.hpp>
#include <glm/mat4x4.hpp>
#include <limits>
#include <random>
#include <string>

#include "swarm/kernels/geometry/pose_reference.h"
#include "tests/kernels/geometry/pose_fixture.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

using reference::Pose;
using reference::PoseMatrix;
using test::Arrays;
using test::CompareRigidMatrices;
using test::ErrorBound;
using test::ForEachTarget;
using test::GetPose;
using test::TargetUnderTest;

// Tolerance of the double-precision checks, absolute on rotation-matrix entries and relative to
// (1 + the translations involved) on translations. Each float result is a short sum of products
// of numbers of magnitude <= 1 (quaternion components) or <= |t| (translations): a Hamilton
// product component sums four products (at most 4 roundings, each <= u times a partial sum below
// 2), a rotation adds two cross products and a scaled sum (about 8 roundings relative to |t|),
// and the input quaternions are unit only within about u. The first-order bound is below 24 u in
// every case (1.4e-6); the largest error measured over 2e5 random pose pairs was 6 u.
constexpr double kMatrixTolerance = 24 * test::kFloatRoundoff;

// Array indices of the kernel calls below.
enum : size_t {
  kARotation,
  kATranslation,
  kBRotation,
  kBTranslation,
  kOutRotation,
  kOutTranslation
};

double Length(const glm::vec3& v) { return glm::length(glm::dvec3(v)); }

// Two random pose batches and an output pose batch full of random values.
Arrays TwoPosesAndOutput(size_t count, std::mt19937& rng, float padding) {
  Arrays arrays;
  test::AddRandomPoses(arrays, rng, count, padding);
  test::AddRandomPoses(arrays, rng, count, padding);
  arrays.push_back(test::RandomLanes(rng, count, 4, padding));
  arrays.push_back(test::RandomLanes(rng, count, 4, padding));
  return arrays;
}

Arrays OnePoseAndOutput(size_t count, std::mt19937& rng, float padding) {
  Arrays arrays;
  test::AddRandomPoses(arrays, rng, count, padding);
  arrays.push_back(test::RandomLanes(rng, count, 4, padding));  // unused slot kBRotation
  arrays.push_back(test::RandomLanes(rng, count, 4, padding));  // unused slot kBTranslation
  arrays.push_back(test::RandomLanes(rng, count, 4, padding));
  arrays.push_back(test::RandomLanes(rng, count, 4, padding));
  return arrays;
}

PoseView A(Arrays& arrays) { return test::Poses(arrays, kARotation, kATranslation); }
PoseView B(Arrays& arrays) { return test::Poses(arrays, kBRotation, kBTranslation); }
PoseView Out(Arrays& arrays) { return test::Poses(arrays, kOutRotation, kOutTranslation); }
Pose GetA(const Arrays& arrays, size_t i) { return GetPose(arrays, kARotation, kATranslation, i); }
Pose GetB(const Arrays& arrays, size_t i) { return GetPose(arrays, kBRotation, kBTranslation, i); }
Pose GetOut(const Arrays& arrays, size_t i) {
  return GetPose(arrays, kOutRotation, kOutTranslation, i);
}
void SetOut(Arrays& arrays, size_t i, const Pose& pose) {
  test::SetPose(arrays, kOutRotation, kOutTranslation, i, pose);
}

TEST_CASE("ComposePoses matches the reference and the product of pose matrices") {
  test::CheckKernelOnEveryTarget(
      TwoPosesAndOutput, [](Arrays& p) { ComposePoses(A(p), B(p), Out(p)); },
      [](Arrays& p) {
        for (size_t i = 0; i < p[0].count(); ++i)
          SetOut(p, i, reference::Compose(GetA(p, i), GetB(p, i)));
      },
      [](const Arrays& input, const Arrays& got) {
        ErrorBound rotation("rotation"), translation("translation");
        for (size_t i = 0; i < got[0].count(); ++i) {
          const Pose a = GetA(input, i), b = GetB(input, i);
          CompareRigidMatrices(PoseMatrix(GetOut(got, i)), PoseMatrix(a) * PoseMatrix(b),
                               kMatrixTolerance, Length(a.translation) + Length(b.translation), i,
                               rotation, translation);
        }
        return rotation.Report() + translation.Report();
      });
}

TEST_CASE("InvertPoses matches the reference and pose o inverse is the identity") {
  test::CheckKernelOnEveryTarget(
      OnePoseAndOutput, [](Arrays& p) { InvertPoses(A(p), Out(p)); },
      [](Arrays& p) {
        for (size_t i = 0; i < p[0].count(); ++i) SetOut(p, i, reference::Invert(GetA(p, i)));
      },
      [](const Arrays& input, const Arrays& got) {
        ErrorBound rotation("rotation"), translation("translation");
        for (size_t i = 0; i < got[0].count(); ++i) {
          const Pose pose = GetA(input, i);
          CompareRigidMatrices(PoseMatrix(pose) * PoseMatrix(GetOut(got, i)), glm::dmat4(1.0),
                               kMatrixTolerance, Length(pose.translation), i, rotation,
                               translation);
        }
        return rotation.Report() + translation.Report();
      });
}

TEST_CASE("RelativePoses matches the reference and a o relative is b") {
  test::CheckKernelOnEveryTarget(
      TwoPosesAndOutput, [](Arrays& p) { RelativePoses(A(p), B(p), Out(p)); },
      [](Arrays& p) {
        for (size_t i = 0; i < p[0].count(); ++i)
          SetOut(p, i, reference::Relative(GetA(p, i), GetB(p, i)));
      },
      [](const Arrays& input, const Arrays& got) {
        ErrorBound rotation("rotation"), translation("translation");
        for (size_t i = 0; i < got[0].count(); ++i) {
          const Pose a = GetA(input, i), b = GetB(input, i);
          CompareRigidMatrices(PoseMatrix(a) * PoseMatrix(GetOut(got, i)), PoseMatrix(b),
                               kMatrixTolerance, Length(a.translation) + Length(b.translation), i,
                               rotation, translation);
        }
        return rotation.Report() + translation.Report();
      });
}

// Points use the slots of pose b's rotation (x, y, z, w = data to copy); out is kOutRotation.
TEST_CASE("TransformPointsByPoses matches the reference and the pose matrix times the point") {
  test::CheckKernelOnEveryTarget(
      OnePoseAndOutput,
      [](Arrays& p) { TransformPointsByPoses(A(p), p[kBRotation].vec4(), p[kOutRotation].vec4()); },
      [](Arrays& p) {
        for (size_t i = 0; i < p[0].count(); ++i) {
          const glm::vec4 point = p[kBRotation].Get4(i);
          p[kOutRotation].Set4(
              i, glm::vec4(reference::Transform(GetA(p, i), glm::vec3(point)), point.w));
        }
      },
      [](const Arrays& input, const Arrays& got) {
        ErrorBound point_error("point");
        for (size_t i = 0; i < got[0].count(); ++i) {
          const Pose pose = GetA(input, i);
          const glm::dvec4 point(glm::dvec3(glm::vec3(input[kBRotation].Get4(i))), 1.0);
          const glm::dvec3 want(PoseMatrix(pose) * point);
          const glm::dvec3 result(glm::vec3(got[kOutRotation].Get4(i)));
          const double error = glm::length(result - want);
          point_error.Add(
              error,
              kMatrixTolerance * (1.0 + Length(pose.translation) + glm::length(glm::dvec3(point))),
              i);
        }
        return point_error.Report();
      });
}

// The same batch computed out of place, and in place through each aliasing the header allows.
TEST_CASE("Pose kernels give the same bits in place as out of place") {
  std::mt19937 rng(99);
  for (const size_t count : {size_t{17}, size_t{1000}}) {
    INFO("count " << count);
    const Arrays input = TwoPosesAndOutput(count, rng, 0.0f);
    ForEachTarget([&](const TargetUnderTest& target) {
      INFO("target " << target.name);
      // Rotation lanes x, y, z, w and translation lanes x, y, z (translation.w is the caller's).
      const auto same_as_out = [&](const Arrays& separate, const Arrays& in_place, size_t rotation,
                                   size_t translation) {
        bool same = true;
        for (size_t lane = 0; lane < 4; ++lane) {
          same &= std::memcmp(separate[kOutRotation].Lane(lane), in_place[rotation].Lane(lane),
                              count * sizeof(float)) == 0;
          if (lane < 3) {
            same &= std::memcmp(separate[kOutTranslation].Lane(lane),
                                in_place[translation].Lane(lane), count * sizeof(float)) == 0;
          }
        }
        return same;
      };
      {
        Arrays separate = input, into_a = input, into_b = input;
        ComposePoses(A(separate), B(separate), Out(separate));
        ComposePoses(A(into_a), B(into_a), A(into_a));
        ComposePoses(A(into_b), B(into_b), B(into_b));
        CHECK(same_as_out(separate, into_a, kARotation, kATranslation));
        CHECK(same_as_out(separate, into_b, kBRotation, kBTranslation));
      }
      {
        Arrays separate = input, into_a = input, into_b = input;
        RelativePoses(A(separate), B(separate), Out(separate));
        RelativePoses(A(into_a), B(into_a), A(into_a));
        RelativePoses(A(into_b), B(into_b), B(into_b));
        CHECK(same_as_out(separate, into_a, kARotation, kATranslation));
        CHECK(same_as_out(separate, into_b, kBRotation, kBTranslation));
      }
      {
        Arrays separate = input, into_a = input;
        InvertPoses(A(separate), Out(separate));
        InvertPoses(A(into_a), A(into_a));
        CHECK(same_as_out(separate, into_a, kARotation, kATranslation));
      }
      Arrays separate = input, into_a = input;
      TransformPointsByPoses(A(separate), separate[kBRotation].vec4(),
                             separate[kOutRotation].vec4());
      TransformPointsByPoses(A(into_a), into_a[kBRotation].vec4(), into_a[kBRotation].vec4());
      CHECK(separate[kOutRotation].BitwiseEqual(into_a[kBRotation]));
    });
  }
}

TEST_CASE("ComposePoses is associative within rounding") {
  // (a o b) o c and a o (b o c) each take two float compositions; every result stays within the
  // double value by kMatrixTolerance (ComposePoses test above), so they differ by at most twice
  // that: quaternion components within 2 * 24 u per composition, translations relative to
  // 1 + |ta| + |tb| + |tc|.
  std::mt19937 rng(7);
  const size_t count = 1000;
  Arrays abc;
  for (int pose = 0; pose < 3; ++pose) test::AddRandomPoses(abc, rng, count, 0.0f);
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    Arrays p = abc;
    const PoseView a = test::Poses(p, 0, 1), b = test::Poses(p, 2, 3), c = test::Poses(p, 4, 5);
    Arrays left = abc, right = abc;  // results land in slots 0-1 of each
    const PoseView left_out = test::Poses(left, 0, 1), right_out = test::Poses(right, 2, 3);
    ComposePoses(a, b, left_out);
    ComposePoses(left_out, c, left_out);
    ComposePoses(b, c, right_out);
    ComposePoses(a, right_out, right_out);
    ErrorBound rotation("quaternion"), translation("translation");
    for (size_t i = 0; i < count; ++i) {
      const Pose l = GetPose(left, 0, 1, i), r = GetPose(right, 2, 3, i);
      double q_error = 0.0;
      for (int k = 0; k < 4; ++k)
        q_error = std::max(q_error, std::abs(double{l.rotation[k]} - r.rotation[k]));
      const double scale = Length(GetPose(abc, 0, 1, i).translation) +
                           Length(GetPose(abc, 2, 3, i).translation) +
                           Length(GetPose(abc, 4, 5, i).translation);
      rotation.Add(q_error, 2 * kMatrixTolerance, i);
      translation.Add(glm::length(glm::dvec3(l.translation) - glm::dvec3(r.translation)),
                      2 * kMatrixTolerance * (1.0 + scale), i);
    }
    CHECK(rotation.Report() == "");
    CHECK(translation.Report() == "");
  });
}

TEST_CASE("Pose kernels on a zero quaternion and NaN give the documented results") {
  // Documented in swarm/kernels/geometry/pose.h: a zero quaternion moves points like the identity
  // (rotate(0, v) = v) and composes to a zero quaternion; a NaN makes exactly the outputs computed
  // from it NaN (a's quaternion: everything; b's quaternion: the output quaternion only; a
  // translation: the output translation only) and leaves every other element alone.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::mt19937 rng(3);
  const size_t count = 19;
  Arrays input = TwoPosesAndOutput(count, rng, 0.0f);
  const size_t zero_a = 2, zero_b = 4, nan_rotation = 9, nan_translation = 13, nan_b_rotation = 15;
  input[kARotation].SetQuat(zero_a, glm::quat(0.0f, 0.0f, 0.0f, 0.0f));
  input[kBRotation].SetQuat(zero_b, glm::quat(0.0f, 0.0f, 0.0f, 0.0f));
  input[kARotation].Lane(1)[nan_rotation] = nan;
  input[kBTranslation].Lane(2)[nan_translation] = nan;
  input[kBRotation].Lane(3)[nan_b_rotation] = nan;
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    Arrays composed = input, inverted = input, relative = input, transformed = input;
    ComposePoses(A(composed), B(composed), Out(composed));
    InvertPoses(A(inverted), Out(inverted));
    RelativePoses(A(relative), B(relative), Out(relative));
    TransformPointsByPoses(A(transformed), transformed[kBTranslation].vec4(),
                           transformed[kOutRotation].vec4());
    for (size_t i = 0; i < count; ++i) {
      INFO("element " << i);
      const Pose a = GetA(input, i), b = GetB(input, i);
      const Pose want_compose = reference::Compose(a, b);
      const Pose want_invert = reference::Invert(a);
      const Pose want_relative = reference::Relative(a, b);
      const glm::vec3 want_point = reference::Transform(a, glm::vec3(input[kBTranslation].Get4(i)));
      for (int k = 0; k < 4; ++k) {
        CHECK(test::SameValue(GetOut(composed, i).rotation[k], want_compose.rotation[k]));
        CHECK(test::SameValue(GetOut(inverted, i).rotation[k], want_invert.rotation[k]));
        CHECK(test::SameValue(GetOut(relative, i).rotation[k], want_relative.rotation[k]));
      }
      for (int k = 0; k < 3; ++k) {
        CHECK(test::SameValue(GetOut(composed, i).translation[k], want_compose.translation[k]));
        CHECK(test::SameValue(GetOut(inverted, i).translation[k], want_invert.translation[k]));
        CHECK(test::SameValue(GetOut(relative, i).translation[k], want_relative.translation[k]));
        CHECK(test::SameValue(transformed[kOutRotation].Get4(i)[k], want_point[k]));
      }
      const bool translation_nan = i == nan_rotation || i == nan_translation;
      const Pose out = GetOut(composed, i);
      CHECK(std::isnan(out.translation.x) == translation_nan);
      CHECK(std::isnan(out.rotation.w) == (i == nan_rotation || i == nan_b_rotation));
    }
    // The documented zero-quaternion results, spelled out.
    const Pose a = GetA(input, zero_a), b = GetB(input, zero_a);
    CHECK(GetOut(composed, zero_a).rotation == glm::quat(0.0f, 0.0f, 0.0f, 0.0f));
    CHECK(GetOut(composed, zero_a).translation == b.translation + a.translation);
    CHECK(GetOut(inverted, zero_a).translation == -a.translation);
    CHECK(glm::vec3(transformed[kOutRotation].Get4(zero_a)) ==
          glm::vec3(input[kBTranslation].Get4(zero_a)) + a.translation);
    CHECK(GetOut(composed, zero_b).rotation == glm::quat(0.0f, 0.0f, 0.0f, 0.0f));
  });
}

}  // namespace
}  // namespace swarm
