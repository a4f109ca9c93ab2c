// The Solo12 quadruped of ../shared/urdf as the contact and stand tests use it: its standing
// posture and a torque-mode batch configuration with foot contacts that suits its 2.5 kg.
#pragma once

#include <array>
#include <string>

#include "swarm/robots/robot_batch.h"
#include "swarm/robots/robot_model.h"

namespace swarm::test {

inline std::string Solo12Path() { return std::string(SWARM_SHARED_URDF_DIR) + "/solo12.urdf"; }

// Hips level, thighs at 0.8 rad and knees at -1.6 rad (front), mirrored for the hind legs, so
// that each foot is under its hip.
inline constexpr std::array<float, 12> kSoloPosture = {0.0f, 0.8f,  -1.6f, 0.0f, 0.8f,  -1.6f,
                                                       0.0f, -0.8f, 1.6f,  0.0f, -0.8f, 1.6f};

// Torque mode with contacts at the leaves (the feet); the rotor inertia of Solo's motors through
// their 9:1 gears (about 4.5e-6 * 81 kg m^2) and gains kp 20, kd 0.3. Small tiles and threads
// from the first tile on, so that small batches exercise tiling and threads too.
inline RobotBatchConfig SoloStandConfig(const RobotModel& model) {
  RobotBatchConfig config;
  config.torque.enabled = true;
  config.torque.dynamics.armature.assign(model.dof(), 3.6e-4);
  config.torque.contacts.enabled = true;
  config.control = DefaultJointControl(model);
  for (JointControl& joint : config.control) joint.kp = 20.0f, joint.kd = 0.3f;
  config.schedule.tile_elements = 64;
  config.schedule.min_elements_per_thread = 1;
  config.torque.schedule = config.schedule;
  return config;
}

}  // namespace swarm::test
