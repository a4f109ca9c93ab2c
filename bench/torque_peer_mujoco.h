// MuJoCo's mj_step as the per-robot peer of RobotBatch::TorqueStep (bench/torque_bench.cc): the
// loop a MuJoCo user writes to step R robots of one model on one core, with one mjData reused
// robot after robot (each robot's qpos, qvel and solver warm start copied in, one step, copied
// out: an mjData per robot would be ~14 MB each with MuJoCo's default constraint buffers). The
// scene is bench/mujoco_scene.h's (the same model, armature, limits, contacts, time step and Euler
// integrator as the batch), the controller bench/mujoco_control.h's.
//
// Built only when CMake finds Debian's libmujoco-dev (2.2.2); this header names no MuJoCo type,
// so bench/torque_bench.cc compiles either way.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "bench/mujoco_scene.h"
#include "swarm/core/status.h"

namespace swarm::bench {

class MujocoTorquePeer {
 public:
  // Per joint column: PD gains and effort limit. With pd_gravity each robot's command is its PD
  // set point (TorqueController::kPdGravity), else its joint torques (kNone).
  struct Control {
    bool pd_gravity = true;
    std::vector<double> kp, kd, effort;
  };
  static Result<std::unique_ptr<MujocoTorquePeer>> Create(
      const std::string& urdf_path, const std::vector<std::string>& joint_names,
      const MujocoSceneOptions& scene, const Control& control, size_t robots);
  ~MujocoTorquePeer();
  MujocoTorquePeer(const MujocoTorquePeer&) = delete;
  MujocoTorquePeer& operator=(const MujocoTorquePeer&) = delete;

  size_t robots() const { return commands_.size(); }
  // Robot r's state in swarm's layout: q (a floating base's x y z qw qx qy qz, then the joint
  // columns) and velocities (a floating base's vx vy vz wx wy wz in its own frame, then the
  // joints), and its command per joint column.
  void SetRobot(size_t r, const std::vector<double>& q, const std::vector<double>& velocities,
                const std::vector<double>& command);
  // One step of every robot, one after another on the calling thread; with `measure` each
  // robot's contact normal forces of the step are summed into normal_force(r).
  void Step(bool measure = false);
  double normal_force(size_t r) const { return normal_forces_[r]; }
  // Every robot's qpos and qvel are finite.
  bool Finite() const;

  static std::string Version();

 private:
  MujocoTorquePeer() = default;

  struct Handles;  // the model, the mjData and the controller's scratch, kept out of this header
  std::unique_ptr<Handles> handles_;
  MujocoScene scene_;
  Control control_;
  std::vector<std::vector<double>> states_;  // per robot: qpos, qvel, qacc_warmstart
  std::vector<std::vector<double>> commands_;
  std::vector<double> normal_forces_;
};

}  // namespace swarm::bench
