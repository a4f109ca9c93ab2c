#include "demos/robots/run_command.h"

#include <chrono>
#include <cstdio>
#include <optional>

#include "demos/robots/cli_common.h"
#include "demos/robots/progress_bar.h"
#include "demos/robots/run_report.h"
#include "demos/robots/trajectory_recorder.h"
#include "swarm/core/buffer.h"
#include "swarm/core/simd.h"
#include "swarm/core/thread_pool.h"
#include "swarm/robots/robot_batch.h"
#include "swarm/robots/robot_tasks.h"

namespace swarm {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

int RunRobots(const RunOptions& options) {
  const Clock::time_point start = Clock::now();
  if (Status s = ForceSimdTarget(options.simd); !s.ok()) return Fail(s);
  Result<RobotModel> model =
      LoadRobotModel(options.urdf, options.floating_base, options.max_urdf_bytes);
  if (!model.ok()) return Fail(model.status());

  RobotBatchConfig config;
  config.control = DefaultJointControl(*model);
  for (JointControl& joint : config.control) {
    if (options.kp >= 0.0) joint.kp = static_cast<float>(options.kp);
    if (options.kd >= 0.0) joint.kd = static_cast<float>(options.kd);
  }
  if (options.task.torque_control) {
    config.torque.enabled = true;
    config.torque.dynamics.armature.assign(model->dof(), options.armature);
    for (int k = 0; k < 3; ++k) config.torque.gravity[k] = static_cast<float>(options.gravity[k]);
    config.torque.integrator = options.integrator;
    if (options.ground_contacts) {
      GroundContactConfig& contacts = config.torque.contacts;
      contacts.enabled = true;
      contacts.links = options.contact_links;
      contacts.radius = static_cast<float>(options.contact_radius);
      contacts.ground.stiffness = static_cast<float>(options.ground_stiffness);
      contacts.ground.damping = static_cast<float>(options.ground_damping);
      contacts.ground.friction = static_cast<float>(options.ground_friction);
    }
  }
  if (!options.end_effector.empty()) {
    Result<size_t> link = model->FindLink(options.end_effector);
    if (!link.ok()) return Fail(InvalidArgument("--end-effector: " + link.status().message()));
    config.end_effector = link.value();
  }
  std::optional<RecordingPlan> plan;
  if (!options.out.empty()) {
    Result<RecordingPlan> planned =
        PlanRecording(options.out, options.steps, options.record_every, options.record_robots,
                      model->q_count(), options.max_output);
    if (!planned.ok()) return Fail(planned.status());
    plan = planned.value();
  }

  MemoryAccountant memory(options.memory_limit);
  const std::string what = std::to_string(options.robots) + " robots of '" + model->name + "'";
  Result<RobotBatch> created = RobotBatch::Create(memory, model.value(), options.robots, config);
  if (!created.ok()) return FailAllocation(created.status(), options.memory_limit, what);
  RobotBatch& batch = created.value();
  Result<RobotTaskRunner> runner = RobotTaskRunner::Create(memory, batch, options.task);
  if (!runner.ok()) return FailAllocation(runner.status(), options.memory_limit, what);
  // Final per-robot errors: position, orientation, joint tracking.
  FloatArray errors_of[3];
  for (FloatArray& array : errors_of) {
    Result<FloatArray> allocated =
        FloatArray::Create(memory, batch.size(), MemoryCategory::kScratch);
    if (!allocated.ok()) return FailAllocation(allocated.status(), options.memory_limit, what);
    array = std::move(allocated).value();
  }
  TrajectoryRecorder recorder;
  if (plan) {
    Result<TrajectoryRecorder> opened = TrajectoryRecorder::Create(memory, *plan);
    if (!opened.ok()) {
      return FailAllocation(opened.status(), options.memory_limit, "the recording of " + what);
    }
    recorder = std::move(opened).value();
  }

  ThreadPool pool(options.threads);
  PrintRunHeader(options, batch, pool.num_threads());
  RunTimings timings;
  runner->Start(pool);
  const auto record = [&]() -> Status {
    const Clock::time_point record_start = Clock::now();
    Status status = recorder.Record(batch);
    timings.recording_seconds += SecondsSince(record_start);
    return status;
  };
  if (plan) {
    if (Status s = record(); !s.ok()) return Fail(s);
  }
  const float dt = static_cast<float>(options.dt);
  ProgressBar progress(stderr, ProgressBar::ModeFor(stderr, options.progress), options.steps,
                       options.robots);
  for (uint64_t step = 0; step < options.steps; ++step) {
    const Clock::time_point step_start = Clock::now();
    if (Status s = runner->Step(pool, step, dt); !s.ok()) return Fail(s);
    timings.stepping_seconds += SecondsSince(step_start);
    if (plan && plan->IsRecordedStep(step + 1)) {
      if (Status s = record(); !s.ok()) return Fail(s);
    }
    progress.Update(step + 1);
  }
  progress.Finish(options.steps);
  if (plan) {
    if (Status s = recorder.Finish(); !s.ok()) return Fail(s);
  }
  runner->MeasureErrors(pool, errors_of[0].span(), errors_of[1].span(), errors_of[2].span());
  const TaskErrorSummary errors =
      runner->Summarize(errors_of[0].span(), errors_of[1].span(), errors_of[2].span());
  std::optional<TorqueSummary> torque_summary;
  if (options.task.torque_control) {
    // The errors' arrays are free again: kinetic and potential energy per robot.
    batch.MeasureEnergy(pool, errors_of[0].span(), errors_of[1].span());
    torque_summary = SummarizeTorque(batch, errors_of[0].span(), errors_of[1].span());
  }
  timings.total_seconds = SecondsSince(start);
  PrintRunSummary(options, batch, errors, timings, memory, plan ? &*plan : nullptr,
                  batch.StateDigest(pool), torque_summary ? &*torque_summary : nullptr);
  return 0;
}

}  // namespace swarm
