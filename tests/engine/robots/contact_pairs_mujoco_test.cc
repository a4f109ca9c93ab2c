// The contact pairs of the MJCF models of ../shared/mjcf (swarm/robots/contact_pairs.h) against
// the geom pairs MuJoCo 2.2.2 collides in the same file (its compatible copy): with every geom's
// margin raised to 100 m, mj_forward's broad and narrow phases report a contact for every pair
// that passes MuJoCo's filters, with MuJoCo's mixed condim, friction, solref and solimp. The two
// sets of pairs must be equal and the parameters equal to 1e-12.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "swarm/core/memory.h"
#include "swarm/core/thread_pool.h"
#include "swarm/robots/contact_pairs.h"
#include "swarm/robots/robot_batch.h"
#include "swarm/robots/robot_collisions.h"
#include "tests/engine/robots/mjcf_peer.h"

namespace swarm {
namespace {

struct Case {
  const char* folder;
  const char* file;
};

// MuJoCo's geom type of a shape type: ShapeType follows mjtGeom.
int MujocoTypeOf(ShapeType type) { return static_cast<int>(type); }

// Compares swarm's pairs of `shapes` with MuJoCo's of the same file (its model `m`); returns
// MuJoCo's deepest contact of each pair, by swarm's pair index.
std::vector<double> ComparePairs(const std::vector<CollisionShape>& shapes,
                                 const std::vector<ContactPair>& pairs, mjModel* m) {
  std::vector<double> deepest;
  for (int g = 0; g < m->ngeom; ++g) m->geom_margin[g] = 100.0;
  for (int p = 0; p < m->npair; ++p) m->pair_margin[p] = 100.0;
  m->nconmax = 100000;
  test::MujocoData data(mj_makeData(m));
  if (m->nkey > 0) mju_copy(data->qpos, m->key_qpos, m->nq);
  mj_forward(m, data.get());
  // MuJoCo's pairs in its geom numbering, with the first contact's parameters.
  std::map<std::pair<int, int>, const mjContact*> theirs;
  std::map<std::pair<int, int>, double> their_deepest;
  for (int i = 0; i < data->ncon; ++i) {
    const mjContact& contact = data->contact[i];
    const auto key = std::minmax(contact.geom1, contact.geom2);
    theirs.emplace(key, &contact);
    const auto [it, inserted] = their_deepest.emplace(key, contact.dist);
    if (!inserted) it->second = std::min(it->second, contact.dist);
  }
  // MuJoCo's colliding geoms in its order are swarm's shapes in theirs (the compatible copy
  // drops the visual mesh geoms, so geom indices differ from the file's).
  std::vector<int> geom_of_shape;
  for (int g = 0; g < m->ngeom; ++g) {
    bool named = false;
    for (int p = 0; p < m->npair; ++p) named |= m->pair_geom1[p] == g || m->pair_geom2[p] == g;
    if (m->geom_contype[g] != 0 || m->geom_conaffinity[g] != 0 || named) geom_of_shape.push_back(g);
  }
  REQUIRE(geom_of_shape.size() == shapes.size());
  for (size_t s = 0; s < geom_of_shape.size(); ++s) {
    const int g = geom_of_shape[s];
    CHECK(m->geom_type[g] == MujocoTypeOf(shapes[s].type));
    CHECK(std::fabs(m->geom_size[3 * g] - shapes[s].size[0]) < 1e-9);
  }
  std::set<std::pair<int, int>> ours;
  for (const ContactPair& pair : pairs) {
    const int g1 = geom_of_shape[pair.shape1], g2 = geom_of_shape[pair.shape2];
    INFO("geoms " << g1 << " " << g2 << " on bodies "
                  << mj_id2name(m, mjOBJ_BODY, m->geom_bodyid[g1]) << " and "
                  << mj_id2name(m, mjOBJ_BODY, m->geom_bodyid[g2]));
    CHECK(ours.insert(std::minmax(g1, g2)).second);  // no pair twice
    const auto found = theirs.find(std::minmax(g1, g2));
    REQUIRE(found != theirs.end());
    const mjContact& contact = *found->second;
    CHECK(contact.dim == pair.condim);
    for (int k = 0; k < 5; ++k) CHECK(std::fabs(contact.friction[k] - pair.friction[k]) < 1e-12);
    for (int k = 0; k < 2; ++k) CHECK(std::fabs(contact.solref[k] - pair.solref[k]) < 1e-12);
    for (int k = 0; k < 5; ++k) CHECK(std::fabs(contact.solimp[k] - pair.solimp[k]) < 1e-12);
    // MuJoCo's geom1 is the one of lower type, as swarm's shape1.
    CHECK(contact.geom1 == g1);
    CHECK(contact.geom2 == g2);
    deepest.push_back(their_deepest[std::minmax(g1, g2)]);
  }
  CHECK(ours.size() == theirs.size());
  for (const auto& [geoms, contact] : theirs) {
    INFO("MuJoCo's pair of geoms " << geoms.first << " " << geoms.second);
    CHECK(ours.count(geoms) == 1);
  }
  return deepest;
}

void ComparePairs(const MjcfRobot& robot, mjModel* m) {
  Result<std::vector<ContactPair>> pairs = MjcfContactPairs(robot);
  REQUIRE(pairs.ok());
  ComparePairs(robot.collision_shapes, *pairs, m);
}

TEST_CASE("MJCF contact pairs: the pairs and parameters MuJoCo 2.2.2 collides", "[mujoco]") {
  const Case kCases[] = {{"unitree_go2", "scene_mjx.xml"},
                         {"anybotics_anymal_c", "scene_mjx.xml"},
                         {"unitree_g1", "scene_mjx.xml"},
                         {"franka_emika_panda", "mjx_scene.xml"}};
  for (const Case& c : kCases) {
    INFO(c.folder << "/" << c.file);
    test::MjcfPeer peer = test::PrepareMjcfPeer(c.folder, c.file);
    ComparePairs(peer.robot, peer.mujoco.get());
  }
}

// Every rule at once: world and static-body shapes, a welded hand, a body with two joints (a
// massless link between), priorities, solmix (one zero), contype/conaffinity bits, an exclude of
// two bodies, an explicit pair with its own parameters naming a shape whose bits are zero, with
// the parent filter on and off.
constexpr const char* kRulesModel = R"(<mujoco model="rules">
  <option><flag filterparent="FILTER"/></option>
  <worldbody>
    <geom name="floor" type="plane" size="0 0 1"/>
    <geom name="wall" type="box" size="1 0.1 1" pos="0 2 1"/>
    <body name="table" pos="1 0 0.4"><geom name="top" type="box" size="0.3 0.3 0.02"/></body>
    <body name="base" pos="0 0 1">
      <freejoint/>
      <geom name="torso" type="box" size="0.2 0.1 0.05" priority="1" friction="0.7 0.01 0.001"
            solref="0.01 0.8"/>
      <body name="arm" pos="0.2 0 0">
        <joint name="j1" axis="0 1 0"/>
        <joint name="j2" axis="0 0 1"/>
        <geom name="upper" type="capsule" fromto="0 0 0 0.3 0 0" size="0.03" solmix="3"
              solref="0.03 1.2" solimp="0.8 0.9 0.002 0.4 2"/>
        <body name="forearm" pos="0.3 0 0">
          <joint name="j3" axis="0 1 0"/>
          <geom name="lower" type="capsule" fromto="0 0 0 0.3 0 0" size="0.025" condim="4"
                contype="2" conaffinity="3"/>
          <body name="hand" pos="0.3 0 0">
            <geom name="palm" type="sphere" size="0.04" friction="1.2 0.02 0.002"/>
            <geom name="finger" type="cylinder" size="0.01 0.03" pos="0.05 0 0" contype="0"
                  conaffinity="0"/>
          </body>
        </body>
      </body>
      <body name="leg" pos="-0.2 0 0">
        <joint name="j4" type="slide" axis="0 0 1"/>
        <geom name="shin" type="sphere" size="0.05" solmix="0"/>
      </body>
    </body>
  </worldbody>
  <contact>
    <exclude body1="arm" body2="leg"/>
    <exclude body1="table" body2="hand"/>
    <pair geom1="finger" geom2="floor" friction="0.5 0.5 0.01 0.001 0.001" solref="0.015 1"/>
  </contact>
</mujoco>
)";

TEST_CASE("MJCF contact pairs: every filter and mixing rule, as MuJoCo 2.2.2", "[mujoco]") {
  for (const char* filter : {"enable", "disable"}) {
    INFO("filterparent " << filter);
    std::string text = kRulesModel;
    text.replace(text.find("FILTER"), 6, filter);
    const std::string path =
        std::string(SWARM_MUJOCO_SCENE_DIR) + "/contact_rules_" + filter + ".xml";
    std::filesystem::create_directories(SWARM_MUJOCO_SCENE_DIR);
    std::ofstream(path, std::ios::binary) << text;
    Result<MjcfRobot> robot = LoadMjcfFile(path);
    REQUIRE(robot.ok());
    test::MujocoModel mujoco = test::LoadMujoco(path);
    ComparePairs(*robot, mujoco.get());
  }
}
// A URDF's <collision> primitives: a base plate (welded to the world, as MuJoCo imports a fixed
// base), a forearm on a hinge with a cylinder and a sphere, a hand fixed to it with a sphere
// (one rigid body with the forearm) and a finger on a hinge below the hand with a sphere (the
// forearm's child body): the pairs MuJoCo collides, and the sphere-plate distances at q = 0.
constexpr const char* kUrdfArm = R"(<robot name="arm">
  <link name="base"><collision name="plate"><origin xyz="0 0 -0.01"/>
    <geometry><box size="0.4 0.3 0.02"/></geometry></collision></link>
  <link name="forearm">
    <collision name="tube"><origin xyz="0 0 0.2"/>
      <geometry><cylinder radius="0.03" length="0.4"/></geometry></collision>
    <collision name="wrist"><origin xyz="0.1 0 0.4"/>
      <geometry><sphere radius="0.04"/></geometry></collision>
    <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="hand"><collision name="palm"><origin xyz="0 0.05 0"/>
      <geometry><sphere radius="0.03"/></geometry></collision>
    <inertial><mass value="0.5"/><inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="finger"><collision name="tip"><origin xyz="0 0 -0.35"/>
      <geometry><sphere radius="0.02"/></geometry></collision>
    <inertial><mass value="0.1"/><inertia ixx="0.0001" iyy="0.0001" izz="0.0001" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="elbow" type="revolute"><parent link="base"/><child link="forearm"/>
    <origin xyz="0 0 0.05"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="mount" type="fixed"><parent link="forearm"/><child link="hand"/>
    <origin xyz="0 0 0.45"/></joint>
  <joint name="knuckle" type="revolute"><parent link="hand"/><child link="finger"/>
    <axis xyz="1 0 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>)";

TEST_CASE("URDF contact pairs and distances: as MuJoCo 2.2.2 imports the URDF", "[mujoco]") {
  const std::string path = std::string(SWARM_MUJOCO_SCENE_DIR) + "/contact_pairs_arm.urdf";
  std::filesystem::create_directories(SWARM_MUJOCO_SCENE_DIR);
  std::ofstream(path, std::ios::binary) << kUrdfArm;
  UrdfOptions options;
  options.collisions = UrdfCollisions::kPrimitives;
  Result<RobotModel> model = LoadUrdfFile(path, options);
  REQUIRE(model.ok());
  Result<CollisionModel> collisions = UrdfCollisionModel(*model);
  REQUIRE(collisions.ok());
  test::MujocoModel mujoco = test::LoadMujoco(path);
  const std::vector<double> theirs =
      ComparePairs(collisions->shapes, collisions->pairs, mujoco.get());
  CHECK(collisions->pairs.size() == 4);  // the plate with each of the others

  MemoryAccountant accountant;
  RobotBatchConfig config;
  config.collisions = *collisions;
  Result<RobotBatch> batch = RobotBatch::Create(accountant, *model, 1, config);
  REQUIRE(batch.ok());
  ThreadPool pool(1);
  batch->DetectContacts(pool);
  const CollisionPlan& plan = *batch->collision_plan();
  for (size_t p = 0; p < plan.pair_count(); ++p) {
    const ContactPair& pair = collisions->pairs[p];
    if (collisions->shapes[pair.shape1].type != ShapeType::kSphere) continue;  // MuJoCo: exact
    INFO("pair " << p << " " << collisions->shapes[pair.shape1].name);
    const float ours = batch->contacts().Array(kContactArrays * plan.first_slot(p))[0];
    CHECK(std::fabs(ours - theirs[p]) < 1e-6);
  }
}

}  // namespace
}  // namespace swarm
