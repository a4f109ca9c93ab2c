// The contact pairs' edge cases (swarm/robots/contact_pairs.h) that the comparison with MuJoCo
// (contact_pairs_mujoco_test.cc) cannot show: an ellipsoid that collides is an error naming it,
// two planes never pair, <flag contact="disable"> leaves no pair, and a pair naming a shape the
// robot lacks is an error. The expected pairs are counted by hand from the models below.
#include "swarm/robots/contact_pairs.h"

#include <catch2/catch.hpp>
#include <string>

#include "swarm/robots/mjcf_robot.h"

namespace swarm {
namespace {

using Catch::Matchers::Contains;

std::string Model(const std::string& option, const std::string& world) {
  return "<mujoco>" + option + "<worldbody>" + world +
         R"(<body name="ball" pos="0 0 1"><freejoint/><geom name="ball" size="0.1"/></body>
            </worldbody></mujoco>)";
}

Result<std::vector<ContactPair>> PairsOf(const std::string& text) {
  Result<MjcfRobot> robot = LoadMjcfString(text, "pairs.xml");
  REQUIRE(robot.ok());
  return MjcfContactPairs(*robot);
}

TEST_CASE("contact pairs: ellipsoids, planes, the contact flag, bad pairs", "[robots]") {
  SECTION("a colliding ellipsoid is an error naming it") {
    Result<std::vector<ContactPair>> pairs =
        PairsOf(Model("", R"(<geom name="egg" type="ellipsoid" size="0.1 0.2 0.3"/>)"));
    REQUIRE_FALSE(pairs.ok());
    CHECK_THAT(pairs.status().message(), Contains("'egg' is an ellipsoid"));
  }
  SECTION("a visual ellipsoid is no shape, so no error") {
    Result<std::vector<ContactPair>> pairs = PairsOf(
        Model("", R"(<geom type="ellipsoid" size="0.1 0.2 0.3" contype="0" conaffinity="0"/>)"));
    REQUIRE(pairs.ok());
    CHECK(pairs->empty());
  }
  SECTION("two planes never pair; each pairs with the ball, plane first") {
    Result<std::vector<ContactPair>> pairs = PairsOf(Model("", R"(<geom type="plane" size="1 1 1"/>
                             <body name="ramp"><geom type="plane" size="1 1 1"/></body>)"));
    REQUIRE(pairs.ok());
    REQUIRE(pairs->size() == 2);
    for (const ContactPair& pair : *pairs) CHECK(pair.shape2 == 2);  // the ball, last
  }
  SECTION("<flag contact=\"disable\"> leaves no pair") {
    Result<std::vector<ContactPair>> pairs = PairsOf(Model(
        R"(<option><flag contact="disable"/></option>)", R"(<geom type="plane" size="1 1 1"/>)"));
    REQUIRE(pairs.ok());
    CHECK(pairs->empty());
  }
  SECTION("a pair naming a shape the robot lacks is an error") {
    Result<MjcfRobot> robot = LoadMjcfString(Model("", ""), "pairs.xml");
    REQUIRE(robot.ok());
    robot->collision_pairs.push_back({0, 7});
    Result<std::vector<ContactPair>> pairs = MjcfContactPairs(*robot);
    REQUIRE_FALSE(pairs.ok());
    CHECK_THAT(pairs.status().message(), Contains("names a shape the robot does not have"));
  }
}

}  // namespace
}  // namespace swarm
