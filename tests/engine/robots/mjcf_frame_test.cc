// MJCF compiler settings and frames (engine/robots/mjcf_frame.h) against GLM's double-precision
// quaternions: each orientation form of the XML reference built independently (angleAxis
// products for Euler sequences, quat_cast of the frame's axes, the shortest rotation between two
// vectors), compared as rotation matrices to 1e-12.
#include "engine/robots/mjcf_frame.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <glm/gtc/quaternion.hpp>
#define GLM_ENABLE_EXPERIMENTAL
#include <glm/gtx/quaternion.hpp>
#include <numbers>
#include <string>

#include "tests/support/scratch_files.h"

namespace swarm {
namespace {

using Catch::Matchers::Contains;

MjcfDocument ReadText(const std::string& name, const std::string& text) {
  const std::string path = test::ScratchPath("mjcf_frame_test", name);
  std::ofstream(path, std::ios::binary) << text;
  Result<MjcfDocument> document = ReadMjcfFile(path);
  if (!document.ok()) FAIL(document.status().message());
  return std::move(document).value();
}

// The <geom>s of a model's worldbody, in order.
std::vector<uint32_t> Geoms(const MjcfDocument& document) {
  const uint32_t world = document.Children(0, "worldbody").at(0);
  return document.Children(world, "geom");
}

void CheckRotation(const MjcfPose& pose, const glm::dquat& expected) {
  const glm::dquat q(pose.quaternion[0], pose.quaternion[1], pose.quaternion[2],
                     pose.quaternion[3]);
  CHECK(std::abs(glm::length(q) - 1.0) < 1e-12);
  const glm::dmat3 a = glm::mat3_cast(q), b = glm::mat3_cast(glm::normalize(expected));
  for (int c = 0; c < 3; ++c) {
    for (int r = 0; r < 3; ++r) CHECK(std::abs(a[c][r] - b[c][r]) < 1e-12);
  }
}

MjcfPose PoseOf(const MjcfDocument& document, uint32_t element, const MjcfCompiler& compiler) {
  Result<MjcfPose> pose = ReadMjcfPose(document, element, compiler);
  if (!pose.ok()) FAIL(pose.status().message());
  return pose.value();
}

glm::dquat Turn(double radians, int axis) {
  glm::dvec3 v(0.0);
  v[axis] = 1.0;
  return glm::angleAxis(radians, v);
}

}  // namespace

TEST_CASE("MJCF frames: every orientation form, in degrees and radians, as GLM builds it") {
  const double pi = std::numbers::pi;
  SECTION("degrees (MJCF's default), the default intrinsic xyz sequence") {
    const MjcfDocument document = ReadText("degrees.xml", R"(<mujoco><worldbody>
      <geom pos="1 2 3" quat="2 0 0 2"/>
      <geom axisangle="1 1 0 90"/>
      <geom euler="30 -45 60"/>
      <geom xyaxes="0 1 0 -1 0.3 0"/>
      <geom zaxis="1 1 1"/>
      <geom zaxis="0 0 -2"/>
      <geom/>
    </worldbody></mujoco>)");
    Result<MjcfCompiler> compiler = ReadMjcfCompiler(document);
    REQUIRE(compiler.ok());
    CHECK(compiler->degrees);
    const std::vector<uint32_t> geoms = Geoms(document);
    std::vector<MjcfPose> poses;
    for (uint32_t geom : geoms) {
      Result<MjcfPose> pose = ReadMjcfPose(document, geom, *compiler);
      REQUIRE(pose.ok());
      poses.push_back(*pose);
    }
    CHECK(poses[0].position == std::array<double, 3>{1, 2, 3});
    CheckRotation(poses[0], glm::dquat(2, 0, 0, 2));
    CheckRotation(poses[1], glm::angleAxis(pi / 2, glm::normalize(glm::dvec3(1, 1, 0))));
    CheckRotation(poses[2], Turn(pi / 6, 0) * Turn(-pi / 4, 1) * Turn(pi / 3, 2));  // moving axes
    // xyaxes: y made orthogonal to x, z = x cross y; the matrix's columns.
    const glm::dvec3 x = glm::normalize(glm::dvec3(0, 1, 0));
    const glm::dvec3 y =
        glm::normalize(glm::dvec3(-1, 0.3, 0) - glm::dot(x, glm::dvec3(-1, 0.3, 0)) * x);
    CheckRotation(poses[3], glm::quat_cast(glm::dmat3(x, y, glm::cross(x, y))));
    CheckRotation(poses[4],
                  glm::rotation(glm::dvec3(0, 0, 1), glm::normalize(glm::dvec3(1, 1, 1))));
    CheckRotation(poses[5], Turn(pi, 0));  // opposite to +z: a half turn about x
    CheckRotation(poses[6], glm::dquat(1, 0, 0, 0));
  }
  SECTION("radians and a fixed-axis (extrinsic) sequence") {
    const MjcfDocument document = ReadText("radians.xml", R"(<mujoco>
      <compiler angle="radian" eulerseq="ZYX"/>
      <worldbody><geom euler="0.3 -0.2 1.1"/><geom axisangle="0 0 1 2"/></worldbody></mujoco>)");
    Result<MjcfCompiler> compiler = ReadMjcfCompiler(document);
    REQUIRE(compiler.ok());
    CHECK_FALSE(compiler->degrees);
    const std::vector<uint32_t> geoms = Geoms(document);
    // Fixed axes: each turn is applied after the ones before, so it multiplies on the left.
    CheckRotation(PoseOf(document, geoms[0], *compiler),
                  Turn(1.1, 0) * Turn(-0.2, 1) * Turn(0.3, 2));
    CheckRotation(PoseOf(document, geoms[1], *compiler), Turn(2.0, 2));
  }
  SECTION("a mixed sequence: moving and fixed axes") {
    const MjcfDocument document = ReadText("mixed.xml", R"(<mujoco>
      <compiler angle="radian" eulerseq="xYz"/>
      <worldbody><geom euler="0.5 0.25 -0.75"/></worldbody></mujoco>)");
    Result<MjcfCompiler> compiler = ReadMjcfCompiler(document);
    REQUIRE(compiler.ok());
    CheckRotation(PoseOf(document, Geoms(document)[0], *compiler),
                  Turn(0.25, 1) * Turn(0.5, 0) * Turn(-0.75, 2));
  }
  SECTION("a pose from the element's class") {
    const MjcfDocument document = ReadText("class.xml", R"(<mujoco><compiler angle="radian"/>
      <default><default class="pad"><geom pos="0.1 0 0" euler="0 0 0.5"/></default></default>
      <worldbody><geom class="pad" pos="0.2"/></worldbody></mujoco>)");
    Result<MjcfCompiler> compiler = ReadMjcfCompiler(document);
    REQUIRE(compiler.ok());
    Result<MjcfPose> pose = ReadMjcfPose(document, Geoms(document)[0], *compiler);
    REQUIRE(pose.ok());
    CHECK(pose->position == std::array<double, 3>{0.2, 0, 0});
    CheckRotation(*pose, Turn(0.5, 2));
  }
}

TEST_CASE("MJCF frames: bad settings and orientations name the element, file and line") {
  struct Case {
    const char* text;
    const char* expected;
  };
  const Case cases[] = {
      {"<mujoco><compiler angle=\"grad\"/></mujoco>", "angle \"grad\": expected degree or radian"},
      {"<mujoco><compiler eulerseq=\"xyw\"/></mujoco>", "eulerseq \"xyw\""},
      {"<mujoco><compiler autolimits=\"1\"/></mujoco>", "autolimits \"1\""},
      {"<mujoco><worldbody>\n<geom quat=\"1 0 0 0\" euler=\"0 0 1\"/></worldbody></mujoco>",
       "bad.xml:2: <geom> gives quat and euler"},
      {"<mujoco><worldbody><geom quat=\"0 0 0 0\"/></worldbody></mujoco>", "quat is zero"},
      {"<mujoco><worldbody><geom axisangle=\"0 0 0 1\"/></worldbody></mujoco>", "zero axis"},
      {"<mujoco><worldbody><geom xyaxes=\"1 0 0 2 0 0\"/></worldbody></mujoco>",
       "parallel to its x axis"},
      {"<mujoco><worldbody><geom zaxis=\"0 0 0\"/></worldbody></mujoco>", "zaxis is zero"},
      {"<mujoco><worldbody><geom pos=\"1 2 3 4\"/></worldbody></mujoco>",
       "expected at most 3 numbers"},
  };
  for (const Case& bad : cases) {
    INFO(bad.text);
    const MjcfDocument document = ReadText("bad.xml", bad.text);
    Result<MjcfCompiler> compiler = ReadMjcfCompiler(document);
    if (!compiler.ok()) {
      CHECK_THAT(compiler.status().message(), Contains(bad.expected));
      CHECK_THAT(compiler.status().message(), Contains("bad.xml:1"));
      continue;
    }
    Result<MjcfPose> pose = ReadMjcfPose(document, Geoms(document).at(0), *compiler);
    REQUIRE_FALSE(pose.ok());
    CHECK_THAT(pose.status().message(), Contains(bad.expected));
  }
}

}  // namespace swarm
