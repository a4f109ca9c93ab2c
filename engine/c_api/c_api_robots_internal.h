// What the C API's robot handles hold (c_api_robots.cc, c_api_robot_tasks.cc).
#pragma once

#include <memory>
#include <optional>

#include "engine/c_api/c_api_internal.h"
#include "swarm/robots/mjcf_robot.h"
#include "swarm/robots/robot_batch.h"
#include "swarm/robots/robot_model.h"

namespace swarm::c_api {

// A batch, the model it copied and the context whose accountant and threads it uses. Declared
// in this order so that the batch goes before the accountant it allocated from.
struct RobotBatchState {
  std::shared_ptr<ContextState> context;
  RobotModel model;
  RobotBatch batch;
};

}  // namespace swarm::c_api

struct swarm_robot_model_impl {
  swarm::RobotModel model;
  std::optional<swarm::MjcfRobot> mjcf;  // what an MJCF file adds (actuators, keyframes, ...)
};

struct swarm_robot_batch_impl {
  std::shared_ptr<swarm::c_api::RobotBatchState> state;
};
