// MJCF geoms and joints (engine/robots/mjcf_geom.h, mjcf_joint.h) against MuJoCo 2.2.2 compiling
// the same model in this process (mj_loadXML): every geom type, sizes, frames from pos with each
// orientation form and from fromto (along +z and against it), class defaults with partial vectors,
// and every contact parameter; a hinge's range in degrees and its axis. Frames to 1e-12 (MuJoCo's
// quaternion up to sign), everything else exactly or to 1e-15.
#include <mujoco/mujoco.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "engine/robots/mjcf_geom.h"
#include "engine/robots/mjcf_joint.h"
#include "tests/support/scratch_files.h"

namespace swarm {
namespace {

constexpr const char* kModel = R"(<mujoco>
  <compiler angle="degree" autolimits="true"/>
  <default>
    <geom friction="0.7" condim="4" solref="0.01 0.8"/>
    <default class="pad">
      <geom type="box" size="0.01 0.02 0.03" contype="2" conaffinity="5" priority="1"
            margin="0.002" gap="0.001" solimp="0.8 0.9 0.01 0.4 3" group="3"/>
    </default>
  </default>
  <worldbody>
    <geom name="floor" type="plane" size="5 4 0.1" friction="0.9 0.01"/>
    <body name="b" pos="0 0 1">
      <joint name="hinge" type="hinge" range="-30 60" axis="1 1 0"/>
      <inertial pos="0 0 0" mass="1" diaginertia="0.1 0.1 0.1"/>
      <geom name="sphere" size="0.05" pos="0.1 0.2 0.3" condim="1"/>
      <geom name="capsule" type="capsule" size="0.02 0.1" euler="30 0 45"/>
      <geom name="capsule_ft" type="capsule" size="0.03" fromto="0 0 0 0.1 0.2 -0.3"/>
      <geom name="cylinder_up" type="cylinder" size="0.04" fromto="0.1 0 0.5 0.1 0 0"/>
      <geom name="cylinder_down" type="cylinder" size="0.04" fromto="0 0 0 0 0 0.5"/>
      <geom name="box_ft" type="box" size="0.05" fromto="0 0 0 0 0.4 0"/>
      <geom name="ellipsoid" type="ellipsoid" size="0.1 0.2 0.3" quat="1 2 3 4"/>
      <geom name="pad" class="pad" xyaxes="0 1 0 -1 0 0" friction="0.5"/>
      <geom name="pad2" class="pad" axisangle="0 0 1 90" size="0.04"/>
    </body>
  </worldbody>
</mujoco>)";

struct ModelDeleter {
  void operator()(mjModel* model) const { mj_deleteModel(model); }
};

}  // namespace

TEST_CASE("MJCF geoms and joints: as MuJoCo 2.2.2 compiles the same model") {
  const std::string path = test::ScratchPath("mjcf_mujoco_test", "model.xml");
  std::ofstream(path) << kModel;
  char error[1000] = "";
  std::unique_ptr<mjModel, ModelDeleter> mujoco(mj_loadXML(path.c_str(), nullptr, error, 1000));
  INFO(error);
  REQUIRE(mujoco != nullptr);
  Result<MjcfDocument> document = ReadMjcfFile(path);
  REQUIRE(document.ok());
  Result<MjcfCompiler> compiler = ReadMjcfCompiler(*document);
  REQUIRE(compiler.ok());

  // Every geom of the model, depth first (the floor, then the body's).
  std::vector<uint32_t> geoms, stack{document->Children(0, "worldbody").at(0)};
  uint32_t hinge = 0;
  while (!stack.empty()) {
    const uint32_t e = stack.back();
    stack.pop_back();
    if (document->elements[e].tag == "geom") geoms.push_back(e);
    if (document->elements[e].tag == "joint") hinge = e;
    const std::vector<uint32_t>& children = document->elements[e].children;
    for (size_t k = children.size(); k-- > 0;) stack.push_back(children[k]);
  }
  REQUIRE(geoms.size() == static_cast<size_t>(mujoco->ngeom));
  for (uint32_t e : geoms) {
    Result<MjcfGeom> geom = ReadMjcfGeom(*document, e, *compiler);
    REQUIRE(geom.ok());
    INFO("geom " << geom->name);
    const int id = mj_name2id(mujoco.get(), mjOBJ_GEOM, geom->name.c_str());
    REQUIRE(id >= 0);
    CHECK(static_cast<int>(geom->type) == mujoco->geom_type[id]);
    for (int k = 0; k < 3; ++k) {
      CHECK(std::abs(geom->size[k] - mujoco->geom_size[3 * id + k]) < 1e-15);
      CHECK(std::abs(geom->pose.position[k] - mujoco->geom_pos[3 * id + k]) < 1e-12);
      CHECK(geom->friction[k] == mujoco->geom_friction[3 * id + k]);
    }
    const double* q = mujoco->geom_quat + 4 * id;
    const double sign = geom->pose.quaternion[0] * q[0] + geom->pose.quaternion[1] * q[1] +
                                    geom->pose.quaternion[2] * q[2] +
                                    geom->pose.quaternion[3] * q[3] <
                                0
                            ? -1.0
                            : 1.0;
    for (int k = 0; k < 4; ++k) CHECK(std::abs(geom->pose.quaternion[k] - sign * q[k]) < 1e-12);
    CHECK(geom->contype == mujoco->geom_contype[id]);
    CHECK(geom->conaffinity == mujoco->geom_conaffinity[id]);
    CHECK(geom->condim == mujoco->geom_condim[id]);
    CHECK(geom->priority == mujoco->geom_priority[id]);
    CHECK(geom->group == mujoco->geom_group[id]);
    for (int k = 0; k < 2; ++k) CHECK(geom->solref[k] == mujoco->geom_solref[2 * id + k]);
    for (int k = 0; k < 5; ++k) CHECK(geom->solimp[k] == mujoco->geom_solimp[5 * id + k]);
    CHECK(geom->margin == mujoco->geom_margin[id]);
    CHECK(geom->gap == mujoco->geom_gap[id]);
  }

  Result<MjcfJoint> joint = ReadMjcfJoint(*document, hinge, *compiler);
  REQUIRE(joint.ok());
  REQUIRE(mujoco->njnt == 1);
  CHECK(joint->limited == (mujoco->jnt_limited[0] != 0));
  for (int k = 0; k < 2; ++k) CHECK(std::abs(joint->range[k] - mujoco->jnt_range[k]) < 1e-15);
  for (int k = 0; k < 3; ++k) CHECK(std::abs(joint->axis[k] - mujoco->jnt_axis[k]) < 1e-15);
}

}  // namespace swarm
