// C API: robot tasks (swarm/robots/robot_tasks.h) on the caller's robot batches.
#include <algorithm>
#include <array>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "engine/c_api/c_api_internal.h"
#include "engine/c_api/c_api_robots_internal.h"
#include "swarm/core/buffer.h"
#include "swarm/robots/robot_tasks.h"

struct swarm_robot_task_impl {
  std::shared_ptr<swarm::c_api::RobotBatchState> batch;  // declared first: outlives the runner
  std::optional<swarm::RobotTaskRunner> runner;
};

static_assert(static_cast<int>(swarm::RobotTask::kReach) == SWARM_TASK_REACH &&
              static_cast<int>(swarm::RobotTask::kTrack) == SWARM_TASK_TRACK &&
              static_cast<int>(swarm::RobotTask::kRandom) == SWARM_TASK_RANDOM &&
              static_cast<int>(swarm::RobotTask::kStand) == SWARM_TASK_STAND);
static_assert(swarm::TaskErrorTotals::kWords == SWARM_TASK_TOTALS_WORDS);
static_assert(static_cast<int>(swarm::TorqueController::kNone) == SWARM_TORQUE_NONE &&
              static_cast<int>(swarm::TorqueController::kPdGravity) == SWARM_TORQUE_PD_GRAVITY &&
              static_cast<int>(swarm::TorqueController::kComputedTorque) ==
                  SWARM_TORQUE_COMPUTED_TORQUE);

using swarm::c_api::Guarded;
using swarm::c_api::NullArgument;
using swarm::c_api::Report;

namespace {

swarm::TaskErrorTotals TotalsOf(const swarm_task_totals& totals) {
  return swarm::TaskErrorTotals::FromWords(
      std::span<const uint64_t, SWARM_TASK_TOTALS_WORDS>(totals.words));
}

}  // namespace

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

swarm_status swarm_robot_task_totals(swarm_robot_task task, swarm_task_totals* out) {
  constexpr const char* kFunction = "swarm_robot_task_totals";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (task == nullptr) return NullArgument(kFunction, "task");
    if (out == nullptr) return NullArgument(kFunction, "out");
    swarm::c_api::RobotBatchState& state = *task->batch;
    std::lock_guard<std::mutex> lock(state.context->kernel_mutex);
    // Per-robot errors, in scratch memory under the context's budget.
    swarm::FloatArray errors[3];
    for (swarm::FloatArray& array : errors) {
      swarm::Result<swarm::FloatArray> allocated = swarm::FloatArray::Create(
          state.context->memory, state.batch.size(), swarm::MemoryCategory::kScratch);
      if (!allocated.ok()) return Report(kFunction, allocated.status());
      array = std::move(allocated).value();
    }
    task->runner->MeasureErrors(state.context->pool, errors[0].span(), errors[1].span(),
                                errors[2].span());
    const std::array<uint64_t, SWARM_TASK_TOTALS_WORDS> words =
        task->runner->Totals(errors[0].span(), errors[1].span(), errors[2].span()).Words();
    std::copy(words.begin(), words.end(), out->words);
    return SWARM_OK;
  });
}

swarm_status swarm_task_totals_merge(swarm_task_totals* into, const swarm_task_totals* other) {
  constexpr const char* kFunction = "swarm_task_totals_merge";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (into == nullptr) return NullArgument(kFunction, "into");
    if (other == nullptr) return NullArgument(kFunction, "other");
    swarm::TaskErrorTotals merged = TotalsOf(*into);
    merged.Merge(TotalsOf(*other));
    const std::array<uint64_t, SWARM_TASK_TOTALS_WORDS> words = merged.Words();
    std::copy(words.begin(), words.end(), into->words);
    return SWARM_OK;
  });
}

swarm_status swarm_task_totals_summary(const swarm_task_totals* totals, swarm_task_summary* out) {
  constexpr const char* kFunction = "swarm_task_totals_summary";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (totals == nullptr) return NullArgument(kFunction, "totals");
    if (out == nullptr) return NullArgument(kFunction, "out");
    const swarm::TaskErrorSummary summary = TotalsOf(*totals).Summary();
    *out = swarm_task_summary{summary.robots,
                              summary.successes,
                              summary.SuccessRate(),
                              summary.mean_position_m,
                              summary.max_position_m,
                              summary.mean_orientation_rad,
                              summary.max_orientation_rad,
                              summary.mean_joint_error,
                              summary.max_joint_error};
    return SWARM_OK;
  });
}

}  // extern "C"
