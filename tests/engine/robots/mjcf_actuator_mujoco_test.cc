// MJCF actuators in a torque step (TorqueController::kActuators, MjcfTorqueConfig) against MuJoCo
// 2.2.2 stepping the same Menagerie models (the 2.2.2-compatible copies of mjcf_peer.h) with the
// same ctrl:
// - the Panda's position servos from the file's pose toward a reachable ctrl: where they settle
//   against gravity (an equilibrium that does not depend on the integrator) within 1e-5 rad, and
//   the way there within 0.01 rad (MuJoCo's implicit integrator, swarm's semi-implicit Euler with
//   the velocity terms implicit);
// - a Go2 falling freely (no ground) from its keyframe while its servos move its legs: the
//   joints' motion (MuJoCo's Euler integrates kv explicitly, swarm implicitly).
#include <mujoco/mujoco.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "swarm/core/memory.h"
#include "swarm/core/thread_pool.h"
#include "swarm/robots/mjcf_robot.h"
#include "swarm/robots/robot_batch.h"
#include "tests/engine/robots/mjcf_peer.h"

namespace swarm {
namespace {

// Steps swarm's batch and MuJoCo from `start` (swarm's q) with `ctrl`, in steps of the file's time
// step, and returns the largest difference of any joint's value at each of `checkpoints` (step
// counts).
std::vector<double> JointDifferences(const test::MjcfPeer& peer, const std::vector<double>& start,
                                     const std::vector<double>& ctrl,
                                     const std::vector<int>& checkpoints) {
  const MjcfRobot& robot = peer.robot;
  const mjModel* m = peer.mujoco.get();
  test::MujocoData data(mj_makeData(m));
  MemoryAccountant memory;
  ThreadPool pool(1);
  Result<RobotBatch> batch = RobotBatch::Create(memory, robot.model, 1, MjcfTorqueConfig(robot));
  if (!batch.ok()) FAIL(batch.status().message());
  for (size_t k = 0; k < start.size(); ++k) batch->q().Array(k)[0] = float(start[k]);
  for (size_t a = 0; a < ctrl.size(); ++a) batch->ctrl().Array(a)[0] = float(ctrl[a]);
  std::vector<double> q(start.size());
  for (size_t k = 0; k < q.size(); ++k) q[k] = batch->q().Array(k)[0];
  test::SetQpos(robot, m, q, data->qpos);
  for (size_t a = 0; a < ctrl.size(); ++a) data->ctrl[a] = ctrl[a];
  const float dt = static_cast<float>(robot.timestep);
  std::vector<double> differences;
  int step = 0;
  for (int checkpoint : checkpoints) {
    for (; step < checkpoint; ++step) {
      const Status status = batch->TorqueStep(pool, dt, TorqueController::kActuators);
      REQUIRE(status.ok());
      mj_step(m, data.get());
    }
    std::vector<double> qpos(m->nq);
    for (size_t k = 0; k < q.size(); ++k) q[k] = batch->q().Array(k)[0];
    test::SetQpos(robot, m, q, qpos.data());
    double largest = 0.0;
    for (int j = 0; j < m->njnt; ++j) {
      if (m->jnt_type[j] == mjJNT_FREE) continue;
      const int address = m->jnt_qposadr[j];
      largest = std::max(largest, std::abs(qpos[address] - data->qpos[address]));
    }
    differences.push_back(largest);
  }
  return differences;
}

}  // namespace

TEST_CASE("MJCF actuators: the Panda's servos settle where MuJoCo's do", "[mujoco]") {
  const test::MjcfPeer peer = test::PrepareMjcfPeer("franka_emika_panda", "mjx_scene.xml");
  // The home pose of the Panda's single-cube scene (its keyframe's ctrl), fingers open.
  const std::vector<double> ctrl{0.0, 0.3, 0.0, -1.57079, 0.0, 2.0, -0.7853, 0.04};
  const int settle = static_cast<int>(3.0 / peer.robot.timestep);
  const std::vector<double> differences =
      JointDifferences(peer, peer.robot.q0, ctrl, {20, 60, settle});
  INFO("largest joint difference after 0.1 s " << differences[0] << ", 0.3 s " << differences[1]
                                               << ", 3 s " << differences[2]);
  CHECK(differences[0] < 0.01);  // 1.2e-3 measured
  CHECK(differences[1] < 0.01);  // 2.8e-3
  CHECK(differences[2] < 1e-5);  // 6e-7: the same equilibrium
}

TEST_CASE("MJCF actuators: a falling Go2 moves its legs as MuJoCo's", "[mujoco]") {
  const test::MjcfPeer peer = test::PrepareMjcfPeer("unitree_go2", "scene_mjx.xml");
  // No ground in either (swarm does not read collision shapes yet).
  peer.mujoco->opt.disableflags |= mjDSBL_CONTACT;
  // From the keyframe's pose (its joints within their limits), toward ctrl a little off it.
  const MjcfRobotKeyframe& home = peer.robot.keyframes.at(0);
  std::vector<double> ctrl = home.ctrl;
  for (size_t a = 0; a < ctrl.size(); ++a) ctrl[a] += 0.2 * std::sin(double(a));
  const std::vector<double> differences = JointDifferences(peer, home.q, ctrl, {25, 100, 250});
  INFO("largest joint difference after 0.05 s " << differences[0] << ", 0.2 s " << differences[1]
                                                << ", 0.5 s " << differences[2]);
  CHECK(differences[0] < 3e-3);  // 5.5e-4 measured
  CHECK(differences[1] < 3e-3);  // 1.0e-4
  CHECK(differences[2] < 3e-3);
}

}  // namespace swarm
