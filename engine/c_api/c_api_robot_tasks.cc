// C API: robot tasks (swarm/robots/robot_tasks.h) on the caller's robot batches.
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "swarm/c_api/c_api_internal.h"
#include "swarm/c_api/c_api_robots_internal.h"
#include "swarm/robots/robot_tasks.h"

struct swarm_robot_task_impl {
  std::shared_ptr<swarm::c_api::RobotBatchState> batch;  // declared first: outlives the runner
  std::optional<swarm::RobotTaskRunner> runner;
};

static_assert(static_cast<int>(swarm::RobotTask::kReach) == SWARM_TASK_REACH &&
              static_cast<int>(swarm::RobotTask::kTrack) == SWARM_TASK_TRACK &&
              static_cast<int>(swarm::RobotTask::kRandom) == SWARM_TASK_RANDOM &&
              static_cast<int>(swarm::RobotTask::kStand) == SWARM_TASK_STAND);
static_assert(static_cast<int>(swarm::TorqueController::kNone) == SWARM_TORQUE_NONE &&
              static_cast<int>(swarm::TorqueController::kPdGravity) == SWARM_TORQUE_PD_GRAVITY &&
              static_cast<int>(swarm::TorqueController::kComputedTorque) ==
                  SWARM_TORQUE_COMPUTED_TORQUE);

using swarm::c_api::Guarded;
using swarm::c_api::NullArgument;
using swarm::c_api::Report;

extern "C" {

swarm_status swarm_robot_task_create(swarm_robot_batch batch, const swarm_robot_task_desc* desc,
                                     swarm_robot_task* out) {
  constexpr const char* kFunction = "swarm_robot_task_create";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (batch == nullptr) return NullArgument(kFunction, "batch");
    if (desc == nullptr) return NullArgument(kFunction, "desc");
    if (out == nullptr) return NullArgument(kFunction, "out");
    const int task = swarm::c_api::EnumValue(desc->task);
    if (task < SWARM_TASK_REACH || task > SWARM_TASK_STAND) {
      return swarm::c_api::Fail(
          SWARM_INVALID_ARGUMENT,
          std::string(kFunction) + ": task " + std::to_string(task) + " is not one of 0..3");
    }
    const int controller = swarm::c_api::EnumValue(desc->controller);
    if (controller < SWARM_TORQUE_NONE || controller > SWARM_TORQUE_COMPUTED_TORQUE) {
      return swarm::c_api::Fail(SWARM_INVALID_ARGUMENT, std::string(kFunction) + ": controller " +
                                                            std::to_string(controller) +
                                                            " is not one of 0..2");
    }
    swarm::RobotTaskParams params;
    params.task = static_cast<swarm::RobotTask>(task);
    params.seed = desc->seed;
    params.first_robot = desc->first_robot;
    params.torque_control = desc->torque_control;
    params.controller = static_cast<swarm::TorqueController>(controller);
    auto handle = std::make_unique<swarm_robot_task_impl>();
    handle->batch = batch->state;
    swarm::c_api::RobotBatchState& state = *handle->batch;
    std::lock_guard<std::mutex> lock(state.context->kernel_mutex);
    swarm::Result<swarm::RobotTaskRunner> runner =
        swarm::RobotTaskRunner::Create(state.context->memory, state.batch, params);
    if (!runner.ok()) return Report(kFunction, runner.status());
    handle->runner.emplace(std::move(runner).value());
    handle->runner->Start(state.context->pool);
    *out = handle.release();
    return SWARM_OK;
  });
}

swarm_status swarm_robot_task_step(swarm_robot_task task, uint64_t step, float dt) {
  constexpr const char* kFunction = "swarm_robot_task_step";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (task == nullptr) return NullArgument(kFunction, "task");
    swarm::c_api::RobotBatchState& state = *task->batch;
    std::lock_guard<std::mutex> lock(state.context->kernel_mutex);
    return Report(kFunction, task->runner->Step(state.context->pool, step, dt));
  });
}

void swarm_robot_task_destroy(swarm_robot_task task) { delete task; }

}  // extern "C"
