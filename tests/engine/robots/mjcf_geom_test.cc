// MJCF geoms (engine/robots/mjcf_geom.h): what MuJoCo refuses or a shape cannot be, each with the
// rule, element, file and line (the accepted forms are compared with MuJoCo 2.2.2 in
// mjcf_mujoco_test.cc).
#include "engine/robots/mjcf_geom.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <string>

#include "tests/support/scratch_files.h"

namespace swarm {

TEST_CASE("MJCF geoms: bad geoms name the rule, element, file and line") {
  using Catch::Matchers::Contains;
  struct Case {
    const char* geom;
    const char* expected;
  };
  const Case cases[] = {
      {R"(<geom type="cone" size="1"/>)", "type \"cone\": expected plane"},
      {R"(<geom type="sphere"/>)", "size[0] of a sphere must be > 0"},
      {R"(<geom type="capsule" size="0.1"/>)", "size[1] of a capsule must be > 0"},
      {R"(<geom type="box" size="0.1 0.1 -1"/>)", "size[2] of a box must be > 0"},
      {R"(<geom type="plane" size="1 -1 0"/>)", "size[1] of a plane must be >= 0"},
      {R"(<geom type="sphere" size="0.1" fromto="0 0 0 0 0 1"/>)", "fromto is for capsule"},
      {R"(<geom type="capsule" size="0.1" fromto="0 0 1 0 0 1"/>)", "two points coincide"},
      {R"(<geom type="capsule" size="0.1" fromto="0 0 0 0 0 1" pos="0 0 1"/>)", "nonzero pos"},
      {R"(<geom type="capsule" size="0.1" fromto="0 0 0 0 0 1" euler="0 0 1"/>)",
       "gives fromto and euler"},
      {R"(<geom size="0.1" condim="2"/>)", "condim 2: expected 1, 3, 4 or 6"},
      {R"(<geom size="0.1" contype="1.5"/>)", "contype must be an integer >= 0"},
      {R"(<geom size="0.1" conaffinity="-1"/>)", "conaffinity must be an integer >= 0"},
      {R"(<geom size="0.1" friction="-1"/>)", "friction must be >= 0"},
      {R"(<geom size="0.1" margin="-0.1"/>)", "margin and gap must be >= 0"},
      {R"(<geom size="0.1" solmix="-1"/>)", "solmix must be >= 0"},
      {R"(<geom type="mesh"/>)", "of type mesh names no mesh"},
  };
  for (const Case& bad : cases) {
    INFO(bad.geom);
    const std::string path = test::ScratchPath("mjcf_geom_test", "bad.xml");
    std::ofstream(path) << "<mujoco><worldbody><body>\n"
                        << bad.geom << "</body></worldbody></mujoco>";
    Result<MjcfDocument> document = ReadMjcfFile(path);
    REQUIRE(document.ok());
    const uint32_t world = document->Children(0, "worldbody").at(0);
    const uint32_t body = document->Children(world, "body").at(0);
    Result<MjcfGeom> geom =
        ReadMjcfGeom(*document, document->Children(body, "geom").at(0), MjcfCompiler{});
    REQUIRE_FALSE(geom.ok());
    CHECK_THAT(geom.status().message(), Contains("bad.xml:2: <geom> "));
    CHECK_THAT(geom.status().message(), Contains(bad.expected));
  }
}

}  // namespace swarm
