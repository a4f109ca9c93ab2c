// Tests for CameraProject (swarm/kernels/geometry/transform.h): against the GLM reference on every
// compiled target (tolerance, then bits, visibility bytes exactly), against glm::project (x and
// depth bitwise, y with its upward window convention flipped), against GLM in double, across
// targets, in place, and on degenerate points (behind the camera, outside the frustum, NaN, w = 0).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <glm/ext/matrix_clip_space.hpp>
#include <glm/ext/matrix_projection.hpp>
#include <glm/ext/matrix_transform.hpp>
#include <glm/mat4x4.hpp>
#include <glm/trigonometric.hpp>
#include <glm/vec4.hpp>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "swarm/kernels/geometry/transform.h"
#include "swarm/kernels/geometry/transform_reference.h"
#include "tests/kernels/geometry/transform_fixture.h"
#include "tests/kernels/particles/particle_fixture.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

using test::ForEachTarget;
using test::kSizes;
using test::PaddedScalars;
using test::PaddedVec4;
using test::SameBits;
using test::TargetUnderTest;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr double kU = test::kUnitRoundoff;

// A 1920x1080 camera at (0, 2, 10) looking at the origin: the frustum spans z from 9.9 to -90.
CameraParams TestCamera() {
  CameraParams camera;
  const glm::mat4 view =
      glm::lookAt(glm::vec3(0.0f, 2.0f, 10.0f), glm::vec3(0.0f), glm::vec3(0.0f, 1.0f, 0.0f));
  const glm::mat4 projection = glm::perspective(glm::radians(60.0f), 16.0f / 9.0f, 0.1f, 100.0f);
  camera.view_projection = projection * view;
  camera.width_pixels = 1920.0f;
  camera.height_pixels = 1080.0f;
  return camera;
}

// Points in [-30, 30]^3: about a quarter inside the frustum, the rest beside it or behind the
// camera (z > 10), so both visibility outcomes occur in every vector.
PaddedVec4 RandomScenePoints(size_t count, uint32_t seed, float padding = 0.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> coordinate(-30.0f, 30.0f);
  PaddedVec4 points(count, padding);
  for (size_t i = 0; i < count; ++i) {
    points.Set(i, {coordinate(rng), coordinate(rng), coordinate(rng), coordinate(rng)});
  }
  return points;
}

std::string VisibleReport(const PaddedScalars<uint8_t>& got, const std::vector<uint8_t>& want) {
  size_t mismatches = 0;
  std::string first;
  for (size_t i = 0; i < want.size(); ++i) {
    if (got[i] != want[i] && mismatches++ == 0) {
      first = "visible[" + std::to_string(i) + "]: got " + std::to_string(got[i]) + ", want " +
              std::to_string(want[i]);
    }
  }
  return mismatches == 0 ? first : first + " (" + std::to_string(mismatches) + " mismatches)";
}

TEST_CASE("CameraProject matches the reference and itself on every target, also in place") {
  const CameraParams camera = TestCamera();
  for (const size_t count : kSizes) {
    for (const bool sentinel : {false, true}) {
      const float padding = sentinel ? test::kSentinelFloat : 0.0f;
      const uint8_t byte_padding = sentinel ? test::kSentinelByte : 0;
      INFO("count " << count << ", padding " << padding);
      const PaddedVec4 points =
          RandomScenePoints(count, static_cast<uint32_t>(count) + 61, padding);
      std::vector<glm::vec4> want(count);
      std::vector<uint8_t> want_visible(count);
      reference::CameraProject(camera, points.ToAos(), want, want_visible);
      std::optional<PaddedVec4> first_screen;
      std::optional<PaddedScalars<uint8_t>> first_visible;
      ForEachTarget([&](const TargetUnderTest& target) {
        INFO("target " << target.name);
        PaddedVec4 screen(count, padding);
        PaddedScalars<uint8_t> visible(count, byte_padding);
        CameraProject(camera, points.view(), screen.view(), visible.view());
        CHECK(test::detail::CompareVec4("screen", screen, want) == "");
        CHECK(test::BitwiseReport(screen, want) == "");
        CHECK(VisibleReport(visible, want_visible) == "");
        CHECK_FALSE(screen.PaddingMismatch(padding).has_value());
        CHECK_FALSE(visible.PaddingMismatch(byte_padding).has_value());

        PaddedVec4 in_place = points;
        PaddedScalars<uint8_t> in_place_visible(count, byte_padding);
        CameraProject(camera, in_place.view(), in_place.view(), in_place_visible.view());
        CHECK(in_place.BitwiseEqual(screen));
        CHECK(in_place_visible.BitwiseEqual(visible));
        if (!first_screen) {
          first_screen.emplace(screen);
          first_visible.emplace(visible);
        } else {
          CHECK(screen.BitwiseEqual(*first_screen));
          CHECK(visible.BitwiseEqual(*first_visible));
        }
      });
    }
  }
}

TEST_CASE("CameraProject agrees with glm::project and with GLM in double") {
  const CameraParams camera = TestCamera();
  const double width = camera.width_pixels;
  const double height = camera.height_pixels;
  const glm::vec4 viewport(0.0f, 0.0f, camera.width_pixels, camera.height_pixels);
  const glm::dmat4 vp(camera.view_projection);
  const size_t count = 100003;
  const PaddedVec4 points = RandomScenePoints(count, 67);
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    PaddedVec4 screen(count);
    PaddedScalars<uint8_t> visible(count);
    CameraProject(camera, points.view(), screen.view(), visible.view());
    size_t x_mismatches = 0, y_mismatches = 0, z_mismatches = 0, visibility_mismatches = 0;
    size_t double_mismatches = 0, visible_count = 0;
    for (size_t i = 0; i < count; ++i) {
      const glm::vec4 got = screen.Get(i);
      const glm::vec3 window =
          glm::project(glm::vec3(points.Get(i)), glm::mat4(1.0f), camera.view_projection, viewport);
      // x: same operations up to (ndc + 1) * 0.5 == ndc * 0.5 + 0.5 (exact scaling), so equal.
      x_mismatches += got.x != window.x;
      z_mismatches += !SameBits(got.z * 0.5f + 0.5f, window.z);
      // y: glm's window y grows upwards; the two roundings differ, bounded by a few ulps.
      const double flipped = height - static_cast<double>(window.y);
      y_mismatches += std::abs(got.y - flipped) >
                      8 * kU * (height + std::abs(double{got.y}) + std::abs(double{window.y}));
      // A visible point lies in the window and the depth range; a point clearly inside them in
      // front of the camera is visible.
      visible_count += visible[i];
      const bool in_window = window.x >= 0.0f && window.x <= width && window.y >= 0.0f &&
                             window.y <= height && window.z >= 0.0f && window.z <= 1.0f;
      const bool clearly_inside = got.w > 0.0f && window.x > 0.01 && window.x < width - 0.01 &&
                                  window.y > 0.01 && window.y < height - 0.01 && window.z > 1e-6f &&
                                  window.z < 1.0f - 1e-6f;
      visibility_mismatches += (visible[i] == 1 && !in_window) || (clearly_inside && !visible[i]);

      // Double: clip exactly, ndc with the quotient bound, then the exact pixel mapping.
      glm::dvec4 p(points.Get(i));
      p.w = 1.0;
      const test::Exact clip_w = test::Dot4(vp, 3, p);
      for (int row = 0; row < 3; ++row) {
        const std::optional<test::Exact> ndc = test::Quotient(test::Dot4(vp, row, p), clip_w);
        if (!ndc) continue;
        const double ndc_error = test::kDoubleAbsolute + test::kDoubleRelative * ndc->scale;
        double exact = ndc->value;
        double error = ndc_error;
        if (row == 0) exact = (ndc->value + 1.0) * 0.5 * width;
        if (row == 1) exact = (1.0 - ndc->value) * 0.5 * height;
        if (row < 2) {
          const double extent = row == 0 ? width : height;
          error = ndc_error * 0.5 * extent + 4 * kU * (extent + std::abs(exact));
        }
        double_mismatches += std::abs(got[row] - exact) > error;
      }
      double_mismatches += !test::CloseToExact(got.w, clip_w);
    }
    CHECK(x_mismatches == 0);
    CHECK(y_mismatches == 0);
    CHECK(z_mismatches == 0);
    CHECK(visibility_mismatches == 0);
    CHECK(double_mismatches == 0);
    CHECK(visible_count > count / 20);  // the scene is not trivially all outside
    CHECK(visible_count < count / 2);
  });
}

TEST_CASE("CameraProject: frustum boundaries are inclusive, NaN and infinity are invisible") {
  // With the identity as view-projection, clip = (x, y, z, 1): the frustum is the cube [-1, 1]^3.
  CameraParams camera;
  camera.width_pixels = 640.0f;
  camera.height_pixels = 480.0f;
  const float above_one = std::nextafter(1.0f, 2.0f);
  const std::vector<std::pair<glm::vec4, uint8_t>> cases = {
      {{0.0f, 0.0f, 0.0f, 7.0f}, 1},       {{1.0f, 1.0f, 1.0f, 0.0f}, 1},
      {{-1.0f, -1.0f, -1.0f, 0.0f}, 1},    {{above_one, 0.0f, 0.0f, 0.0f}, 0},
      {{0.0f, -above_one, 0.0f, 0.0f}, 0}, {{0.0f, 0.0f, above_one, 0.0f}, 0},
      {{kNaN, 0.0f, 0.0f, 0.0f}, 0},       {{0.0f, 0.0f, kNaN, 0.0f}, 0},
      {{kInf, 0.0f, 0.0f, 0.0f}, 0},       {{0.5f, -0.5f, 0.25f, kNaN}, 1},
  };
  PaddedVec4 points(cases.size());
  for (size_t i = 0; i < cases.size(); ++i) points.Set(i, cases[i].first);
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    PaddedVec4 screen(cases.size());
    PaddedScalars<uint8_t> visible(cases.size());
    CameraProject(camera, points.view(), screen.view(), visible.view());
    for (size_t i = 0; i < cases.size(); ++i) {
      INFO("case " << i);
      CHECK(visible[i] == cases[i].second);
    }
    CHECK(SameBits(screen.Get(0), glm::vec4(320.0f, 240.0f, 0.0f, 1.0f)));
    CHECK(SameBits(screen.Get(1), glm::vec4(640.0f, 0.0f, 1.0f, 1.0f)));  // top right, y down
    CHECK(SameBits(screen.Get(2), glm::vec4(0.0f, 480.0f, -1.0f, 1.0f)));
    CHECK(SameBits(screen.Get(9), glm::vec4(480.0f, 360.0f, 0.25f, 1.0f)));  // lane w unread
    CHECK(std::isnan(screen.Get(6).x));
    CHECK(std::isnan(screen.Get(7).z));
  });
}

TEST_CASE("CameraProject: points behind the camera or beyond near and far are invisible") {
  const CameraParams camera = TestCamera();
  // The camera at (0, 2, 10) looks down -z towards the origin; near 0.1, far 100.
  const std::vector<std::pair<glm::vec4, uint8_t>> cases = {
      {{0.0f, 0.0f, 0.0f, 0.0f}, 1},    // the look-at point
      {{0.0f, 2.0f, 15.0f, 0.0f}, 0},   // straight behind: clip.w < 0
      {{0.0f, 2.2f, 14.0f, 0.0f}, 0},   // behind, slightly off axis
      {{0.0f, 2.0f, 9.95f, 0.0f}, 0},   // in front, but nearer than the near plane
      {{0.0f, 2.0f, -95.0f, 0.0f}, 0},  // beyond the far plane
      {{0.0f, 2.0f, 10.0f, 0.0f}, 0},   // at the eye: clip.w = 0
      {{50.0f, 0.0f, 0.0f, 0.0f}, 0},   // far to the right
      {{0.0f, -30.0f, 0.0f, 0.0f}, 0},  // far below
      {{1.0f, 1.0f, -20.0f, 0.0f}, 1},  // inside, further away
  };
  PaddedVec4 points(cases.size());
  for (size_t i = 0; i < cases.size(); ++i) points.Set(i, cases[i].first);
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    PaddedVec4 screen(cases.size());
    PaddedScalars<uint8_t> visible(cases.size());
    CameraProject(camera, points.view(), screen.view(), visible.view());
    for (size_t i = 0; i < cases.size(); ++i) {
      INFO("case " << i);
      CHECK(visible[i] == cases[i].second);
    }
    CHECK(screen.Get(1).w < 0.0f);
    CHECK(std::abs(screen.Get(0).x - 960.0f) < 1e-3f);  // centred horizontally
  });
}

TEST_CASE("CameraProject with clip.w = 0 everywhere: IEEE screen values, all invisible") {
  CameraParams camera;
  camera.view_projection[3][3] = 0.0f;  // identity with a zero bottom row: clip.w = +0
  camera.width_pixels = 100.0f;
  camera.height_pixels = 100.0f;
  const size_t count = 21;
  const PaddedVec4 points = RandomScenePoints(count, 71);
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    PaddedVec4 screen(count);
    PaddedScalars<uint8_t> visible(count);
    CameraProject(camera, points.view(), screen.view(), visible.view());
    for (size_t i = 0; i < count; ++i) {
      INFO("element " << i);
      CHECK(visible[i] == 0);
      CHECK(std::isinf(screen.Get(i).x));
      CHECK(std::isinf(screen.Get(i).z));
      CHECK(screen.Get(i).w == 0.0f);
    }
    CHECK_FALSE(screen.PaddingMismatch(0.0f).has_value());
    CHECK_FALSE(visible.PaddingMismatch(0).has_value());
  });
}

}  // namespace
}  // namespace swarm
