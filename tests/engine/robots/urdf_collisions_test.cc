// URDF <collision> primitives (UrdfOptions::collisions, swarm/robots/robot_model.h): boxes,
// spheres and cylinders as MuJoCo's shapes on their links with their origins, against the
// numbers written in the URDF text below; a mesh refused naming its link or skipped, as asked;
// sizes that are not finite floats > 0 refused; nothing read by default.
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "swarm/robots/robot_model.h"

namespace swarm {
namespace {

using Catch::Matchers::Contains;

constexpr const char* kArm = R"(<robot name="arm">
  <link name="base">
    <collision name="plate"><origin xyz="0 0 -0.01" rpy="0 0 1.5707963267948966"/>
      <geometry><box size="0.4 0.3 0.02"/></geometry></collision>
  </link>
  <link name="forearm">
    <collision name="tube"><origin xyz="0 0 0.2"/>
      <geometry><cylinder radius="0.03" length="0.4"/></geometry></collision>
    <collision name="wrist"><origin xyz="0 0 0.4"/>
      <geometry><sphere radius="0.04"/></geometry></collision>
    <collision><geometry><mesh filename="forearm.stl"/></geometry></collision>
  </link>
  <joint name="elbow" type="revolute"><parent link="base"/><child link="forearm"/>
    <axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>)";

TEST_CASE("URDF collision primitives become MuJoCo's shapes on their links", "[robots]") {
  UrdfOptions options;
  SECTION("ignored by default") {
    Result<RobotModel> model = LoadUrdfString(kArm, options);
    REQUIRE(model.ok());
    CHECK(model->collision_shapes.empty());
  }
  SECTION("a mesh is an error naming its link") {
    options.collisions = UrdfCollisions::kPrimitives;
    Result<RobotModel> model = LoadUrdfString(kArm, options);
    REQUIRE_FALSE(model.ok());
    CHECK_THAT(model.status().message(),
               Contains("link 'forearm'") && Contains("has a mesh <collision>"));
  }
  SECTION("meshes skipped: half sizes, origins, names, links") {
    options.collisions = UrdfCollisions::kSkipMeshes;
    Result<RobotModel> model = LoadUrdfString(kArm, options);
    REQUIRE(model.ok());
    const auto& shapes = model->collision_shapes;
    REQUIRE(shapes.size() == 3);
    CHECK(shapes[0].name == "plate");
    CHECK(shapes[0].type == CollisionShapeType::kBox);
    CHECK(shapes[0].link == 0);
    CHECK(shapes[0].size == std::array<double, 3>{0.2, 0.15, 0.01});
    CHECK(shapes[0].position == std::array<double, 3>{0, 0, -0.01});
    // rpy (0, 0, pi/2): a quarter turn about z, (0, 0, sin pi/4, cos pi/4).
    CHECK(std::abs(shapes[0].quaternion[2] - std::sqrt(0.5)) < 1e-12);
    CHECK(std::abs(shapes[0].quaternion[3] - std::sqrt(0.5)) < 1e-12);
    CHECK(shapes[1].name == "tube");
    CHECK(shapes[1].type == CollisionShapeType::kCylinder);
    CHECK(shapes[1].link == 1);
    CHECK(shapes[1].size[0] == 0.03);
    CHECK(shapes[1].size[1] == 0.2);  // half the URDF's length
    CHECK(shapes[1].position == std::array<double, 3>{0, 0, 0.2});
    CHECK(shapes[2].type == CollisionShapeType::kSphere);
    CHECK(shapes[2].size[0] == 0.04);
    CHECK(shapes[2].contype == 1);
    CHECK(shapes[2].conaffinity == 1);
  }
  SECTION("sizes must be finite floats > 0") {
    options.collisions = UrdfCollisions::kPrimitives;
    std::string bad = kArm;
    bad.replace(bad.find("radius=\"0.04\""), 13, "radius=\"0\"");
    const std::string mesh =
        R"(<collision><geometry><mesh filename="forearm.stl"/></geometry></collision>)";
    bad.replace(bad.find(mesh), mesh.size(), "");
    Result<RobotModel> model = LoadUrdfString(bad, options);
    REQUIRE_FALSE(model.ok());
    CHECK_THAT(
        model.status().message(),
        Contains("link 'forearm'") && Contains("sphere of size 0: expected a finite float > 0"));
  }
}

}  // namespace
}  // namespace swarm
