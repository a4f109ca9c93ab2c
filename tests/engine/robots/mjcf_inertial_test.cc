// MJCF inertials (engine/robots/mjcf_inertial.h) against MuJoCo 2.2.2: mj_loadXML's compiled
// body_mass, body_ipos, body_iquat and body_inertia for the same <inertial> (a full tensor, and
// principal moments in a frame given by quat and by euler), turned back into the body-frame
// tensor R diag R^T with GLM: to 1e-12 for principal moments given in a frame, and to 1e-8 for a
// full tensor, which MuJoCo diagonalises iteratively (its mju_eig3 stops about 1e-9 short).
#include "engine/robots/mjcf_inertial.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <glm/gtc/quaternion.hpp>
#include <string>

#include "tests/support/scratch_files.h"

namespace swarm {
namespace {

using Catch::Matchers::Contains;

struct Read {
  MjcfDocument document;
  uint32_t inertial = 0;
};

// `file`: one per test case, which ctest may run in parallel.
Read ReadInertial(const std::string& attributes, const char* mass = "2",
                  const char* file = "model.xml") {
  const std::string path = test::ScratchPath("mjcf_inertial_test", file);
  std::ofstream(path) << "<mujoco><compiler angle=\"radian\"/><worldbody><body><joint/>\n"
                      << "<inertial pos=\"0.1 0 0\" mass=\"" << mass << "\" " << attributes
                      << "/></body></worldbody></mujoco>";
  Result<MjcfDocument> document = ReadMjcfFile(path);
  if (!document.ok()) FAIL(document.status().message());
  const uint32_t world = document->Children(0, "worldbody").at(0);
  const uint32_t body = document->Children(world, "body").at(0);
  const uint32_t inertial = document->Children(body, "inertial").at(0);
  return {std::move(document).value(), inertial};
}

// MuJoCo's compiled inertial: iquat (w x y z) and principal moments.
void CheckAgainstMujoco(const std::string& attributes, glm::dquat iquat, glm::dvec3 moments,
                        double tolerance) {
  INFO(attributes);
  const Read read = ReadInertial(attributes);
  MjcfCompiler radians;
  radians.degrees = false;
  Result<LinkInertial> inertial = ReadMjcfInertial(read.document, read.inertial, radians);
  REQUIRE(inertial.ok());
  CHECK(inertial->mass == 2.0);
  CHECK(inertial->com == std::array<double, 3>{0.1, 0, 0});
  const glm::dmat3 r = glm::mat3_cast(glm::normalize(iquat));
  const glm::dmat3 expected =
      r * glm::dmat3(moments.x, 0, 0, 0, moments.y, 0, 0, 0, moments.z) * glm::transpose(r);
  for (int row = 0; row < 3; ++row) {
    for (int col = 0; col < 3; ++col) {
      // glm is column-major: expected[col][row].
      CHECK(std::abs(inertial->inertia[3 * row + col] - expected[col][row]) < tolerance);
    }
  }
}

}  // namespace

TEST_CASE("MJCF inertials: the body-frame tensor MuJoCo 2.2.2 compiles") {
  CheckAgainstMujoco("fullinertia=\"0.3 0.2 0.25 0.01 0.02 0.03\"",
                     {0.822163793616679, 0.524374213043341, -0.116819019645522, 0.188233094353962},
                     {0.310711383762031, 0.253342912114914, 0.185945704123054}, 1e-8);
  CheckAgainstMujoco("diaginertia=\"0.3 0.2 0.1\" quat=\"0.9 0.1 0.3 0.2\"",
                     {0.923380516876639, 0.102597835208515, 0.307793505625546, 0.205195670417031},
                     {0.3, 0.2, 0.1}, 1e-12);
  CheckAgainstMujoco("diaginertia=\"0.3 0.2 0.1\" euler=\"0.5 -0.3 1.2\"",
                     {0.811574135780795, 0.120142476319776, -0.257628537989583, 0.510431918994843},
                     {0.3, 0.2, 0.1}, 1e-12);
  // MuJoCo takes the full tensor when both are given.
  CheckAgainstMujoco("fullinertia=\"0.3 0.2 0.25 0.01 0.02 0.03\" diaginertia=\"1 1 1\"",
                     {0.822163793616679, 0.524374213043341, -0.116819019645522, 0.188233094353962},
                     {0.310711383762031, 0.253342912114914, 0.185945704123054}, 1e-8);
}

TEST_CASE("MJCF inertials: bad inertials name the rule, file and line") {
  struct Case {
    const char* attributes;
    const char* mass;
    const char* expected;
  };
  const Case cases[] = {
      {"", "2", "needs diaginertia or fullinertia"},
      {"fullinertia=\"0.3 0.2 0.25 0 0 0\" quat=\"1 0 0 0\"", "2", "gives fullinertia and quat"},
      {"diaginertia=\"1 1 1\"", "-1", "mass must be >= 0"},
      {"diaginertia=\"1 -1 1\"", "2", "moments must be >= 0"},
      {"diaginertia=\"1 1 3\"", "2", "triangle inequality"},
      {"fullinertia=\"1 1 1 2 0 0\"", "2", "not positive definite"},
      {"fullinertia=\"1 1 3 0 0 0\"", "2", "triangle inequality"},
  };
  for (const Case& bad : cases) {
    INFO(bad.attributes);
    const Read read = ReadInertial(bad.attributes, bad.mass, "bad.xml");
    Result<LinkInertial> inertial = ReadMjcfInertial(read.document, read.inertial, MjcfCompiler{});
    REQUIRE_FALSE(inertial.ok());
    CHECK_THAT(inertial.status().message(), Contains("bad.xml:2: <inertial> "));
    CHECK_THAT(inertial.status().message(), Contains(bad.expected));
  }
}

}  // namespace swarm
