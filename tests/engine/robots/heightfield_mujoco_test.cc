// Heightfields (swarm/robots/heightfield.h, MJCF <hfield>) against MuJoCo 2.2.2 reading and
// stepping the same files:
// - a PNG heightfield loads as MuJoCo compiles it: grid size, size, and the heights (MuJoCo's
//   normalised hfield_data times the elevation) to 1e-6 m; the same grid as .npy and as an
//   elevation attribute (which MuJoCo 2.2.2 does not read: swarm alone) gives the same heights;
// - a ball rolls down a heightfield ramp (slope 1 in 4) as MuJoCo's (distance after 1 s within
//   10%) and as rolling without slipping (a = 5/7 g sin(slope), within 1%);
// - the Go2 stands from its keyframe on bumpy ground (a heightfield of gentle waves, up to 3 cm)
//   under its position actuators: base height after 2 s within 1 cm of MuJoCo's.
// MuJoCo runs its solver to convergence (100 iterations) with the elliptic cone.
#include <mujoco/mujoco.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "swarm/core/memory.h"
#include "swarm/core/thread_pool.h"
#include "swarm/robots/heightfield.h"
#include "swarm/robots/mjcf_robot.h"
#include "swarm/robots/robot_batch.h"
#include "swarm/tensor/npy.h"
#include "swarm/tensor/tensor.h"
#include "swarm/vision/png.h"
#include "tests/engine/robots/mjcf_peer.h"

namespace swarm {
namespace {

std::string SceneFolder() {
  const std::string folder = std::string(SWARM_MUJOCO_SCENE_DIR) + "/heightfields";
  std::filesystem::create_directories(folder + "/assets");
  return folder;
}

// A grey PNG of rows x columns values (values[r * columns + c], row 0 at -y: the image's bottom
// row, as MuJoCo reads it).
void WriteGreyPng(const std::string& path, uint32_t rows, uint32_t columns,
                  const std::vector<uint8_t>& values) {
  MemoryAccountant memory;
  const Status saved = SavePngRows(memory, path, columns, rows, 1, [&](size_t y, auto row) {
    for (size_t x = 0; x < columns; ++x) row[x] = values[(rows - 1 - y) * columns + x];
  });
  REQUIRE(saved.ok());
}

void WriteText(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

MjcfRobot LoadSwarm(const std::string& path) {
  Result<MjcfRobot> robot = LoadMjcfFile(path);
  if (!robot.ok()) FAIL(robot.status().message());
  return std::move(robot).value();
}

const CollisionShape& ShapeNamed(const MjcfRobot& robot, const std::string& name) {
  for (const CollisionShape& shape : robot.collision_shapes) {
    if (shape.name == name) return shape;
  }
  FAIL("no shape " << name);
  return robot.collision_shapes.front();
}

// A world with a heightfield `terrain` and a free ball.
std::string BallScene(const std::string& hfield, const std::string& ball_position) {
  return "<mujoco model=\"ball on terrain\">\n"
         "  <option timestep=\"0.002\" cone=\"elliptic\"/>\n"
         "  <asset>" +
         hfield +
         "</asset>\n"
         "  <worldbody>\n"
         "    <geom name=\"terrain\" type=\"hfield\" hfield=\"terrain\"/>\n"
         "    <body pos=\"" +
         ball_position +
         "\"><freejoint/><geom type=\"sphere\" size=\"0.05\" mass=\"1\"/></body>\n"
         "  </worldbody>\n"
         "</mujoco>\n";
}

}  // namespace

TEST_CASE("heightfields: a PNG hfield loads as MuJoCo compiles it; .npy and elevation alike",
          "[mujoco][heightfield]") {
  const std::string folder = SceneFolder();
  constexpr uint32_t kRows = 9, kColumns = 12;
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> grey(0, 255);
  std::vector<uint8_t> values(kRows * kColumns);
  for (uint8_t& v : values) v = static_cast<uint8_t>(grey(rng));
  WriteGreyPng(folder + "/grid.png", kRows, kColumns, values);
  const std::string size = "size=\"1.5 0.8 0.3 0.1\"";
  WriteText(folder + "/png.xml",
            BallScene("<hfield name=\"terrain\" file=\"grid.png\" " + size + "/>", "0 0 1"));
  const MjcfRobot robot = LoadSwarm(folder + "/png.xml");
  const test::MujocoModel m = test::LoadMujoco(folder + "/png.xml");
  REQUIRE(m->nhfield == 1);
  CHECK(m->hfield_nrow[0] == int{kRows});
  CHECK(m->hfield_ncol[0] == int{kColumns});
  const CollisionShape& shape = ShapeNamed(robot, "terrain");
  REQUIRE(shape.type == CollisionShapeType::kHeightfield);
  REQUIRE(shape.heightfield != nullptr);
  CHECK(shape.heightfield->rows == kRows);
  CHECK(shape.heightfield->columns == kColumns);
  CHECK(shape.size ==
        std::array<double, 3>{m->hfield_size[0], m->hfield_size[1], m->hfield_size[3]});
  for (size_t i = 0; i < values.size(); ++i) {
    INFO("point " << i);
    CHECK(std::abs(shape.heightfield->heights[i] - m->hfield_data[i] * m->hfield_size[2]) < 1e-6);
  }
  // The same values as a float32 .npy, and as the elevation attribute.
  MemoryAccountant memory;
  Result<Tensor> npy = Tensor::Create(memory, DType::kF32, {kRows, kColumns});
  REQUIRE(npy.ok());
  std::string elevation;
  for (size_t i = 0; i < values.size(); ++i) {
    static_cast<float*>(npy->view().data())[i] = 0.5f * values[i] - 7.0f;  // scaled and shifted
    elevation += std::to_string(values[i]) + " ";
  }
  REQUIRE(SaveNpy(npy->view(), folder + "/grid.npy").ok());
  WriteText(folder + "/npy.xml",
            BallScene("<hfield name=\"terrain\" file=\"grid.npy\" " + size + "/>", "0 0 1"));
  WriteText(folder + "/elevation.xml",
            BallScene("<hfield name=\"terrain\" nrow=\"9\" ncol=\"12\" elevation=\"" + elevation +
                          "\" " + size + "/>",
                      "0 0 1"));
  for (const char* file : {"/npy.xml", "/elevation.xml"}) {
    INFO(file);
    const MjcfRobot other = LoadSwarm(folder + file);
    const CollisionShape& same = ShapeNamed(other, "terrain");
    REQUIRE(same.heightfield != nullptr);
    for (size_t i = 0; i < values.size(); ++i) {
      CHECK(std::abs(same.heightfield->heights[i] - shape.heightfield->heights[i]) < 1e-6);
    }
  }
}

TEST_CASE("heightfields: a ball rolls down a heightfield ramp as MuJoCo's and without slipping",
          "[mujoco][heightfield]") {
  const std::string folder = SceneFolder();
  // 52 columns rising by 5 grey levels each (0 .. 255: a plane), over x in [-1, 1] with an
  // elevation of 0.5 m: slope 0.25 along +x.
  constexpr uint32_t kRows = 5, kColumns = 52;
  std::vector<uint8_t> values(kRows * kColumns);
  for (uint32_t r = 0; r < kRows; ++r) {
    for (uint32_t c = 0; c < kColumns; ++c) values[r * kColumns + c] = static_cast<uint8_t>(5 * c);
  }
  WriteGreyPng(folder + "/ramp.png", kRows, kColumns, values);
  const double tangent = 0.25, radius = 0.05, start_x = 0.8;
  const double slope = std::atan(tangent);
  // The ball's centre one radius off the ramp along its normal.
  const double centre_x = start_x - radius * std::sin(slope);
  const double centre_z = tangent * (centre_x + 1.0) + radius / std::cos(slope) - 0.0001;
  WriteText(folder + "/ramp.xml",
            BallScene("<hfield name=\"terrain\" file=\"ramp.png\" size=\"1 0.5 0.5 0.1\"/>",
                      std::to_string(centre_x) + " 0 " + std::to_string(centre_z)));
  const MjcfRobot robot = LoadSwarm(folder + "/ramp.xml");
  test::MujocoModel m = test::LoadMujoco(folder + "/ramp.xml");
  m->opt.iterations = 100;
  test::MujocoData data(mj_makeData(m.get()));
  Result<RobotBatchConfig> config = MjcfContactConfig(robot);
  REQUIRE(config.ok());
  MemoryAccountant memory;
  ThreadPool pool(1);
  Result<RobotBatch> batch = RobotBatch::Create(memory, robot.model, 1, *config);
  REQUIRE(batch.ok());
  for (size_t k = 0; k < robot.q0.size(); ++k) batch->q().Array(k)[0] = float(robot.q0[k]);
  const int steps = 500;
  for (int step = 0; step < steps; ++step) {
    REQUIRE(batch->TorqueStep(pool, 0.002f, TorqueController::kNone).ok());
    mj_step(m.get(), data.get());
  }
  const auto travelled = [&](double x, double z) { return std::hypot(x - centre_x, z - centre_z); };
  const double swarm = travelled(batch->q().Array(0)[0], batch->q().Array(2)[0]);
  const double mujoco = travelled(data->qpos[0], data->qpos[2]);
  const double rolling = 0.5 * 5.0 / 7.0 * 9.81 * std::sin(slope);
  INFO("distance after 1 s: swarm " << swarm << " m, MuJoCo " << mujoco << " m, rolling " << rolling
                                    << " m");
  CHECK(std::abs(swarm - mujoco) < 0.1 * mujoco);
  CHECK(std::abs(swarm - rolling) < 0.01 * rolling);
  CHECK(std::abs(batch->q().Array(1)[0]) < 1e-4);
}

TEST_CASE("heightfields: the Go2 stands on bumpy ground as MuJoCo's", "[mujoco][heightfield]") {
  // MuJoCo reads the 2.2.2-compatible copy of go2_mjx.xml, swarm the original; both the same
  // terrain: waves of 3 cm over 8 m x 8 m in 5 cm cells, lowered by half their height.
  const test::MjcfPeer peer = test::PrepareMjcfPeer("unitree_go2", "go2_mjx.xml");
  const std::string copies = std::string(SWARM_MUJOCO_SCENE_DIR) + "/mjcf/unitree_go2";
  constexpr uint32_t kPoints = 161;
  std::vector<uint8_t> values(kPoints * kPoints);
  for (uint32_t r = 0; r < kPoints; ++r) {
    for (uint32_t c = 0; c < kPoints; ++c) {
      const double x = 0.05 * c, y = 0.05 * r;
      values[r * kPoints + c] = static_cast<uint8_t>(
          std::lround(127.5 + 127.5 * std::sin(2.1 * x) * std::cos(1.7 * y + 0.4)));
    }
  }
  const std::string terrain =
      "  <asset><hfield name=\"waves\" file=\"waves.png\" size=\"4 4 0.03 0.1\"/></asset>\n"
      "  <worldbody><geom name=\"terrain\" type=\"hfield\" hfield=\"waves\" "
      "pos=\"0 0 -0.015\"/></worldbody>\n";
  const auto scene = [&](const std::string& include) {
    return "<mujoco model=\"go2 on waves\">\n  <include file=\"" + include + "\"/>\n" + terrain +
           "</mujoco>\n";
  };
  // The model's meshdir is "assets": the terrain image goes there, beside each scene.
  std::filesystem::create_directories(copies + "/assets");
  WriteGreyPng(copies + "/assets/waves.png", kPoints, kPoints, values);
  WriteText(copies + "/go2_waves.xml", scene("go2_mjx.xml"));
  WriteText(copies + "/go2_waves_swarm.xml",
            scene(std::string(SWARM_SHARED_MJCF_DIR) + "/unitree_go2/go2_mjx.xml"));
  const MjcfRobot robot = LoadSwarm(copies + "/go2_waves_swarm.xml");
  test::MujocoModel m = test::LoadMujoco(copies + "/go2_waves.xml");
  m->opt.iterations = 100;
  test::MujocoData data(mj_makeData(m.get()));
  const int key_id = mj_name2id(m.get(), mjOBJ_KEY, "home");
  REQUIRE(key_id >= 0);
  mj_resetDataKeyframe(m.get(), data.get(), key_id);
  const MjcfRobotKeyframe* key = nullptr;
  for (const MjcfRobotKeyframe& k : robot.keyframes) {
    if (k.name == "home") key = &k;
  }
  REQUIRE(key != nullptr);
  Result<RobotBatchConfig> config = MjcfContactConfig(robot);
  REQUIRE(config.ok());
  MemoryAccountant memory;
  ThreadPool pool(1);
  Result<RobotBatch> batch = RobotBatch::Create(memory, robot.model, 1, *config);
  REQUIRE(batch.ok());
  for (size_t k = 0; k < key->q.size(); ++k) batch->q().Array(k)[0] = float(key->q[k]);
  for (size_t a = 0; a < key->ctrl.size(); ++a) batch->ctrl().Array(a)[0] = float(key->ctrl[a]);
  const int steps = static_cast<int>(std::lround(2.0 / robot.timestep));
  for (int step = 0; step < steps; ++step) {
    REQUIRE(batch->TorqueStep(pool, float(robot.timestep), TorqueController::kActuators).ok());
    mj_step(m.get(), data.get());
  }
  const double swarm = batch->q().Array(2)[0], mujoco = data->qpos[2];
  INFO("base height after 2 s: swarm " << swarm << " m, MuJoCo " << mujoco << " m");
  CHECK(std::abs(swarm - mujoco) < 0.01);
  CHECK(!batch->world_contact_pairs().empty());  // the feet against the terrain
}

}  // namespace swarm
