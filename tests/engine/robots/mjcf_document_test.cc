// MJCF reading (engine/robots/mjcf_document.h): the MuJoCo Menagerie models of ../shared/mjcf
// against MuJoCo 2.2.2's compiled models of the same files (element counts and resolved
// defaults; the files were made loadable for 2.2.2 by deleting or rewriting its unknown
// attributes, which changes none of the values compared here), and MuJoCo's documented default,
// include and vector rules on small models written here.
#include "engine/robots/mjcf_document.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <string>
#include <vector>

#include "tests/support/scratch_files.h"

namespace swarm {
namespace {

using Catch::Matchers::Contains;

const std::string kMjcfDir = SWARM_SHARED_MJCF_DIR;
const std::string kScratch = "mjcf_document_test";

std::string Write(const std::string& name, const std::string& text) {
  const std::string path = test::ScratchPath(kScratch, name);
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

MjcfDocument Read(const std::string& path) {
  Result<MjcfDocument> document = ReadMjcfFile(path);
  if (!document.ok()) FAIL(document.status().message());
  return std::move(document).value();
}

// The elements with tag `tag` below `from` (depth first), skipping <default> sections.
std::vector<uint32_t> Find(const MjcfDocument& document, uint32_t from, const std::string& tag) {
  std::vector<uint32_t> found, stack{from};
  while (!stack.empty()) {
    const uint32_t e = stack.back();
    stack.pop_back();
    if (e != from && document.elements[e].tag == tag) found.push_back(e);
    const std::vector<uint32_t>& children = document.elements[e].children;
    for (size_t k = children.size(); k-- > 0;) {
      if (document.elements[children[k]].tag != "default") stack.push_back(children[k]);
    }
  }
  return found;
}

uint32_t Named(const MjcfDocument& document, const std::string& tag, const std::string& name) {
  for (uint32_t e : Find(document, 0, tag)) {
    const std::string* n = document.elements[e].Find("name");
    if (n != nullptr && *n == name) return e;
  }
  FAIL("no <" << tag << " name=\"" << name << "\">");
  return 0;
}

std::vector<double> Numbers(const MjcfDocument& document, uint32_t element, const char* name,
                            std::vector<double> builtin) {
  Result<std::vector<double>> values = MjcfNumbers(document, element, name, std::move(builtin));
  if (!values.ok()) FAIL(values.status().message());
  return values.value();
}

}  // namespace

TEST_CASE("MJCF: every model of ../shared/mjcf reads with MuJoCo's element counts") {
  // MuJoCo 2.2.2's mj_loadXML of each file: nbody - 1 (bodies besides the world), njnt, ngeom,
  // nu and nkey.
  struct Expected {
    const char* file;
    size_t files, bodies, joints, geoms, actuators, keys;
  };
  const Expected models[] = {
      {"anybotics_anymal_c/anymal_c_mjx.xml", 1, 13, 13, 42, 12, 1},
      {"anybotics_anymal_c/scene_mjx.xml", 2, 13, 13, 43, 12, 1},
      {"franka_emika_panda/mjx_panda.xml", 1, 11, 9, 80, 8, 0},
      {"franka_emika_panda/mjx_scene.xml", 2, 11, 9, 81, 8, 0},
      {"franka_emika_panda/mjx_single_cube.xml", 3, 13, 10, 83, 8, 3},
      {"unitree_g1/g1_mjx.xml", 1, 30, 30, 62, 29, 0},
      {"unitree_g1/scene_mjx.xml", 2, 30, 30, 63, 29, 2},
      {"unitree_go2/go2_mjx.xml", 1, 13, 13, 56, 12, 1},
      {"unitree_go2/scene_mjx.xml", 2, 13, 13, 57, 12, 1},
  };
  for (const Expected& model : models) {
    INFO(model.file);
    const MjcfDocument document = Read(kMjcfDir + "/" + model.file);
    CHECK(document.files.size() == model.files);
    const std::vector<uint32_t> worldbody = Find(document, 0, "worldbody");
    size_t bodies = 0, joints = 0, geoms = 0;
    for (uint32_t world : worldbody) {
      bodies += Find(document, world, "body").size();
      joints += Find(document, world, "joint").size() + Find(document, world, "freejoint").size();
      geoms += Find(document, world, "geom").size();
    }
    CHECK(bodies == model.bodies);
    CHECK(joints == model.joints);
    CHECK(geoms == model.geoms);
    size_t actuators = 0, keys = 0;
    for (uint32_t actuator : Find(document, 0, "actuator")) {
      actuators += document.elements[actuator].children.size();
    }
    for (uint32_t keyframe : Find(document, 0, "keyframe")) {
      keys += document.Children(keyframe, "key").size();
    }
    CHECK(actuators == model.actuators);
    CHECK(keys == model.keys);
  }
}

TEST_CASE("MJCF: defaults resolve as MuJoCo compiles the Menagerie models") {
  // Values of MuJoCo 2.2.2's compiled models of the same files (mjModel fields named).
  SECTION("Go2: joint damping and armature from its classes (jnt/dof_damping, dof_armature)") {
    const MjcfDocument document = Read(kMjcfDir + "/unitree_go2/go2_mjx.xml");
    for (const char* joint : {"FL_hip_joint", "RR_calf_joint"}) {
      const uint32_t e = Named(document, "joint", joint);
      CHECK(Numbers(document, e, "damping", {0.0})[0] == 2.0);
      CHECK(Numbers(document, e, "armature", {0.0})[0] == 0.01);
    }
    // A foot's class sets all three friction values; the robot's class "0.6" keeps the
    // torsional and rolling ones (geom_friction 0.6 0.005 0.0001).
    CHECK(Numbers(document, Named(document, "geom", "FL"), "friction", {1, 0.005, 0.0001}) ==
          std::vector<double>{0.8, 0.02, 0.01});
  }
  SECTION("G1: contype 0 written after the nested classes still reaches them (geom_contype)") {
    const MjcfDocument document = Read(kMjcfDir + "/unitree_g1/g1_mjx.xml");
    const std::vector<uint32_t> geoms = Find(document, 0, "geom");
    REQUIRE(geoms.size() == 62);
    for (uint32_t geom : geoms) {
      INFO(document.Where(geom));
      CHECK(Numbers(document, geom, "contype", {1})[0] == 0.0);
      CHECK(Numbers(document, geom, "conaffinity", {1})[0] == 0.0);
    }
  }
  SECTION(
      "Panda: one actuator default per class, general's then position's (actuator_forcerange)") {
    const MjcfDocument document = Read(kMjcfDir + "/franka_emika_panda/mjx_panda.xml");
    CHECK(Numbers(document, Named(document, "position", "actuator1"), "forcerange", {0, 0}) ==
          std::vector<double>{-100, 100});
    CHECK(Numbers(document, Named(document, "position", "actuator5"), "forcerange", {0, 0}) ==
          std::vector<double>{-12, 12});
  }
  SECTION("ANYmal: the free joint takes no class defaults (dof_damping of the base 0)") {
    const MjcfDocument document = Read(kMjcfDir + "/anybotics_anymal_c/anymal_c_mjx.xml");
    const std::vector<uint32_t> free = Find(document, 0, "freejoint");
    REQUIRE(free.size() == 1);
    CHECK(Numbers(document, free[0], "damping", {0.0})[0] == 0.0);
    CHECK(Numbers(document, Named(document, "joint", "LF_HAA"), "damping", {0.0})[0] == 1.0);
  }
}

TEST_CASE("MJCF: classes, childclass and partial vectors follow MuJoCo's rules") {
  const std::string path = Write("classes.xml", R"(<mujoco>
  <default>
    <default class="arm">
      <geom friction="0.6"/>
      <default class="pad"><geom friction="0.9 0.01"/></default>
      <joint damping="3"/>
      <general forcerange="-87 87"/>
      <position forcerange="-100 100" kp="10"/>
    </default>
    <joint damping="1" armature="0.5"/>
    <geom contype="0"/>
  </default>
  <worldbody>
    <geom name="floor"/>
    <body name="base" childclass="arm">
      <freejoint/>
      <geom name="a"/>
      <geom name="b" class="pad" friction="0.7"/>
      <body name="link">
        <joint name="j"/>
        <geom name="c" class="main" pos="+.5 -2 1e3"/>
      </body>
    </body>
  </worldbody>
  <actuator><motor name="m" joint="j"/><motor name="n" class="arm" joint="j"/></actuator>
</mujoco>)");
  const MjcfDocument document = Read(path);
  REQUIRE(document.classes.size() == 3);
  const std::vector<double> friction{1, 0.005, 0.0001};  // MuJoCo's geom friction
  // main's contype 0 is written after its nested class and still reaches it.
  CHECK(Numbers(document, Named(document, "geom", "floor"), "contype", {1})[0] == 0.0);
  CHECK(Numbers(document, Named(document, "geom", "floor"), "friction", friction) == friction);
  CHECK(Numbers(document, Named(document, "geom", "a"), "contype", {1})[0] == 0.0);
  CHECK(Numbers(document, Named(document, "geom", "a"), "friction", friction) ==
        std::vector<double>{0.6, 0.005, 0.0001});
  // class= replaces the childclass; each level overwrites only the values it gives.
  CHECK(Numbers(document, Named(document, "geom", "b"), "friction", friction) ==
        std::vector<double>{0.7, 0.01, 0.0001});
  CHECK(Numbers(document, Named(document, "geom", "c"), "friction", friction) == friction);
  CHECK(Numbers(document, Named(document, "geom", "c"), "pos", {0, 0, 0}) ==
        std::vector<double>{0.5, -2, 1000});  // "+.5 -2 1e3": strtod's forms
  // The childclass reaches the joint of a child body; the free joint takes no defaults.
  const uint32_t joint = Named(document, "joint", "j");
  CHECK(Numbers(document, joint, "damping", {0})[0] == 3.0);
  CHECK(Numbers(document, joint, "armature", {0})[0] == 0.5);
  const uint32_t free = Find(document, 0, "freejoint")[0];
  CHECK(Numbers(document, free, "damping", {0})[0] == 0.0);
  // Actuators ignore childclass; every actuator tag of a class shares one default.
  CHECK(Numbers(document, Named(document, "motor", "m"), "forcerange", {0, 0}) ==
        std::vector<double>{0, 0});
  CHECK(Numbers(document, Named(document, "motor", "n"), "forcerange", {0, 0}) ==
        std::vector<double>{-100, 100});
  Result<std::string> kp = MjcfText(document, Named(document, "motor", "n"), "kp", "1");
  REQUIRE(kp.ok());
  CHECK(*kp == "10");
}

TEST_CASE("MJCF: includes splice a file's elements, paths from the main file's folder") {
  Write("inc/parts/arm.xml", R"(<mujoco><worldbody><body name="arm"><joint name="elbow"/>
    </body></worldbody><include file="parts/more.xml"/></mujoco>)");
  Write("inc/parts/more.xml", "<anything><actuator><motor joint=\"elbow\"/></actuator></anything>");
  const std::string main = Write("inc/scene.xml", R"(<mujoco>
  <include file="parts/arm.xml"/>
  <worldbody><geom name="floor"/></worldbody>
</mujoco>)");
  const MjcfDocument document = Read(main);
  CHECK(document.files.size() == 3);
  const MjcfElement& root = document.elements[0];
  std::vector<std::string> tags;
  for (uint32_t child : root.children) tags.push_back(document.elements[child].tag);
  CHECK(tags == std::vector<std::string>{"worldbody", "actuator", "worldbody"});
  const uint32_t elbow = Named(document, "joint", "elbow");
  CHECK_THAT(document.Where(elbow), Contains("arm.xml:1"));
}

TEST_CASE("MJCF: bad files give errors naming the file, line and problem") {
  struct Case {
    const char* name;
    const char* text;
    const char* expected;
  };
  const Case cases[] = {
      {"root.xml", "<robot/>", "root.xml:1: the root element is <robot>, expected <mujoco>"},
      {"class.xml", "<mujoco>\n<worldbody><geom class=\"nope\"/></worldbody></mujoco>",
       "class.xml:2: <geom> class \"nope\" names no <default> class"},
      {"number.xml", "<mujoco>\n\n<worldbody><geom friction=\"1 x\"/></worldbody></mujoco>",
       "number.xml:3: <geom> attribute 'friction' (\"1 x\"): \"x\" is not a decimal number"},
      {"long.xml", "<mujoco><worldbody><geom friction=\"1 2 3 4\"/></worldbody></mujoco>",
       "attribute 'friction' (\"1 2 3 4\"): expected at most 3 numbers"},
      {"inf.xml", "<mujoco><worldbody><geom friction=\"inf\"/></worldbody></mujoco>",
       "values must be finite"},
      {"nested.xml", "<mujoco><default>\n<default/></default></mujoco>",
       "nested.xml:2: a nested <default> needs a class name"},
      {"twice.xml",
       "<mujoco><default><default class=\"a\"/>\n<default class=\"a\"/></default></mujoco>",
       "twice.xml:2: class \"a\" is defined twice"},
      {"self.xml", "<mujoco>\n<include file=\"self.xml\"/></mujoco>",
       "self.xml:2: <include file=\"self.xml\">: the file is already part of the model"},
      {"missing.xml", "<mujoco><include file=\"none.xml\"/></mujoco>", "none.xml"},
      {"noattr.xml", "<mujoco><include/></mujoco>", "<include> needs a file attribute"},
      {"broken.xml", "<mujoco><worldbody></mujoco>", "broken.xml: line 1"},
  };
  for (const Case& bad : cases) {
    INFO(bad.name);
    const std::string path = Write(bad.name, bad.text);
    Result<MjcfDocument> document = ReadMjcfFile(path);
    if (document.ok()) {
      // Attribute problems surface when the attribute is read.
      const std::vector<uint32_t> geoms = Find(*document, 0, "geom");
      REQUIRE(geoms.size() == 1);
      Result<std::vector<double>> friction =
          MjcfNumbers(*document, geoms[0], "friction", {1, 0, 0});
      REQUIRE_FALSE(friction.ok());
      CHECK_THAT(friction.status().message(), Contains(bad.expected));
    } else {
      CHECK_THAT(document.status().message(), Contains(bad.expected));
    }
  }
}

TEST_CASE("MJCF: untrusted files meet their limits with a clear error") {
  // Nesting past the depth limit (the strict XML gate counts it before anything is built).
  std::string deep = "<mujoco><worldbody>";
  for (size_t k = 0; k < kMjcfMaxDepth + 10; ++k) deep += "<body>";
  for (size_t k = 0; k < kMjcfMaxDepth + 10; ++k) deep += "</body>";
  deep += "</worldbody></mujoco>";
  Result<MjcfDocument> too_deep = ReadMjcfFile(Write("deep.xml", deep));
  REQUIRE_FALSE(too_deep.ok());
  CHECK_THAT(too_deep.status().message(), Contains("deep.xml"));
  CHECK_THAT(too_deep.status().message(),
             Contains("is nested " + std::to_string(kMjcfMaxDepth + 1)));
  // The bytes of all files together.
  Write("big/part.xml", "<mujoco><worldbody>" + std::string(4000, ' ') + "</worldbody></mujoco>");
  const std::string big = Write("big/main.xml", "<mujoco><include file=\"part.xml\"/></mujoco>");
  MjcfReadOptions small;
  small.max_bytes = 3000;
  Result<MjcfDocument> too_big = ReadMjcfFile(big, small);
  REQUIRE_FALSE(too_big.ok());
  CHECK_THAT(too_big.status().message(), Contains("part.xml"));
  CHECK_THAT(too_big.status().message(), Contains("max_bytes"));
  // The number of files.
  Write("chain/a.xml", "<mujoco><include file=\"b.xml\"/></mujoco>");
  Write("chain/b.xml", "<mujoco><include file=\"c.xml\"/></mujoco>");
  Write("chain/c.xml", "<mujoco/>");
  MjcfReadOptions two_files;
  two_files.max_files = 2;
  Result<MjcfDocument> too_many =
      ReadMjcfFile(test::ScratchPath(kScratch, "chain/a.xml"), two_files);
  REQUIRE_FALSE(too_many.ok());
  CHECK_THAT(too_many.status().message(), Contains("max_files"));
  CHECK(ReadMjcfFile(test::ScratchPath(kScratch, "chain/a.xml")).ok());
}

}  // namespace swarm
