// `swarm-robots run`, as one process or as the MPI ranks of a sharded run (rank_group.h). Rank r
// of N steps the robots RobotSliceOf(R, r, N) as one batch whose robot 0 is robot `first` of the
// run (RobotTaskParams::first_robot), with its own thread pool, so every robot does exactly what
// it does in a one-process run. The ranks meet only at agreements and gathers:
//   1. every rank loads the robot (URDF or MJCF); all agree (a failure anywhere ends every rank,
//      status 2);
//   2. every rank's flags and model files' bytes must match rank 0's (RunFingerprintText);
//   3. every rank allocates its batch, runner and recording under its own --memory-limit;
//   4. the steps, with a gather of the recorded robots to rank 0 at every recorded step, where
//      a failure (rank 0 writing the files) stops every rank after that step;
//   5. rank 0 gathers every rank's totals (run_totals.h) and report line, merges and prints.
// Only rank 0 prints and writes; an error is printed once, naming the rank that failed first.
#include "demos/robots/run_command.h"

#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "demos/command_line/file_roles.h"
#include "demos/robots/cli_common.h"
#include "demos/robots/progress_bar.h"
#include "demos/robots/run_report.h"
#include "demos/robots/run_totals.h"
#include "demos/robots/trajectory_recorder.h"
#include "swarm/core/buffer.h"
#include "swarm/core/input_file.h"
#include "swarm/core/simd.h"
#include "swarm/core/state_hash.h"
#include "swarm/core/thread_pool.h"
#include "swarm/robots/heightfield.h"
#include "swarm/robots/robot_batch.h"
#include "swarm/robots/robot_tasks.h"

namespace swarm {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

Result<RobotBatchConfig> BatchConfig(const RunOptions& options, const LoadedRobot& robot) {
  const RobotModel& model = robot.model;
  RobotBatchConfig config;
  config.control = DefaultJointControl(model);
  for (JointControl& joint : config.control) {
    if (options.kp >= 0.0) joint.kp = static_cast<float>(options.kp);
    if (options.kd >= 0.0) joint.kd = static_cast<float>(options.kd);
  }
  if (options.task.torque_control) {
    if (robot.mjcf) {
      // The file's armature, gravity and joint-limit softness.
      config.torque = MjcfTorqueConfig(*robot.mjcf).torque;
    } else {
      config.torque.enabled = true;
      config.torque.dynamics.armature.assign(model.dof(), options.armature);
      for (int k = 0; k < 3; ++k) config.torque.gravity[k] = static_cast<float>(options.gravity[k]);
      config.torque.limits.time_constant = static_cast<float>(options.limit_time_constant);
      config.torque.limits.damping_ratio = static_cast<float>(options.limit_damping_ratio);
    }
    config.torque.integrator = options.integrator;
    config.torque.limit_tolerance = static_cast<float>(options.limit_tolerance);
    config.torque.max_joint_speed = static_cast<float>(options.max_joint_speed);
    if (options.world_contacts) {
      MjcfRobot world = *robot.mjcf;
      if (!options.terrain.empty()) {
        // The terrain joins the file's world shapes, paired by the file's rules as a geom of the
        // world body with MuJoCo's default contact parameters.
        MemoryAccountant decoding;
        Result<HeightfieldGrid> grid = ReadHeightfieldGrid(decoding, options.terrain);
        if (!grid.ok()) return InvalidArgument("--terrain: " + grid.status().message());
        Result<std::shared_ptr<const Heightfield>> heights =
            NormalisedHeightfield(*grid, options.terrain_size[2]);
        if (!heights.ok()) return InvalidArgument("--terrain: " + heights.status().message());
        world.collision_shapes.push_back(HeightfieldShape(
            "terrain", *heights, options.terrain_size[0], options.terrain_size[1], 0.1));
        world.shape_body.push_back(0);
        world.shape_geom.push_back(-1);
      }
      Result<CollisionModel> collisions = MjcfCollisionModel(world);
      if (!collisions.ok()) return collisions.status();
      config.collisions = std::move(collisions).value();
      config.torque.world_contacts = true;
    }
    if (options.ground_contacts) {
      GroundContactConfig& contacts = config.torque.contacts;
      contacts.enabled = true;
      contacts.links = options.contact_links;
      contacts.radius = static_cast<float>(options.contact_radius);
      contacts.ground.soft.time_constant = static_cast<float>(options.ground_time_constant);
      contacts.ground.soft.damping_ratio = static_cast<float>(options.ground_damping_ratio);
      contacts.ground.friction = static_cast<float>(options.ground_friction);
    }
  }
  return config;
}

// What must be the same on every rank: the run's flags and the model files' bytes.
uint64_t RunFingerprint(const RunOptions& options, const std::vector<std::string>& files) {
  StateHasher hasher;
  const std::string text = RunFingerprintText(options);
  hasher.AddBytes(text.data(), text.size());
  // Read as the loader read them (swarm/core/input_file.h), within the same limit; a file that
  // changed since or cannot be read again hashes as its error, which no other rank shares.
  const bool mjcf = !options.source.mjcf.empty();
  for (const std::string& file : files) {
    Result<std::string> bytes =
        mjcf ? ReadInputFile(file, "MJCF file", options.source.max_mjcf_bytes, "--max-mjcf-bytes")
             : ReadInputFile(file, "URDF file", options.source.max_urdf_bytes, "--max-urdf-bytes");
    const std::string& hashed = bytes.ok() ? bytes.value() : bytes.status().message();
    hasher.AddBytes(hashed.data(), hashed.size());
  }
  return hasher.Digest();
}

// One rank's part of a run: its slice of the robots, its memory, batch, task and recording.
// Members are destroyed in the reverse of their order here, so the accountant and the pool
// outlive everything allocated from or run on them.
class RankRun {
 public:
  RankRun(const RunOptions& options, RankGroup& ranks)
      : options_(options),
        ranks_(ranks),
        slice_(RobotSliceOf(options.robots, ranks.rank(), ranks.size())),
        memory_(options.memory_limit),
        pool_(options.threads) {}

  // Steps 1 and 2 of the file comment, each ending in an agreement.
  Status Load() {
    Status loaded = LoadModel();
    if (Status agreed = ranks_.Agree(loaded); !agreed.ok()) return agreed;
    const uint64_t mine =
        RunFingerprint(options_, robot_ ? robot_->files : std::vector<std::string>{});
    const uint64_t root = ranks_.BroadcastWord(mine);
    Status same;
    if (mine != root) {
      same = InvalidArgument(
          "its flags or its model files' bytes differ from rank 0's; every rank of a run needs the "
          "same flags (all but --threads, --simd, --memory-limit, --no-progress, "
          "--max-urdf-bytes, --max-mjcf-bytes, --out and --max-output) and the same model files");
    }
    return ranks_.Agree(same);
  }

  Status Allocate() { return ranks_.Agree(AllocateLocal()); }

  // Step 4: the task's start and steps, recording along the way; every rank stops after the
  // first recorded step at which any rank has failed.
  Status Run(RunTimings& timings) {
    if (ranks_.is_root()) PrintRunHeader(options_, *batch_, pool_.num_threads(), ranks_.size());
    runner_->Start(pool_);
    Status status;
    const auto record = [&] {
      const Clock::time_point start = Clock::now();
      Status recorded = recorder_.Record(*batch_, ranks_);
      timings.recording_seconds += SecondsSince(start);
      if (status.ok()) status = recorded;
      return !ranks_.AnyOf(!status.ok());
    };
    if (plan_ && !record()) return ranks_.Agree(status);
    const float dt = static_cast<float>(options_.dt);
    ProgressBar progress(stderr,
                         ProgressBar::ModeFor(stderr, options_.progress && ranks_.is_root()),
                         options_.steps, options_.robots);
    uint64_t done = 0;
    bool stopped = false;  // some rank failed: the files stay incomplete, unrenamed
    while (done < options_.steps && !stopped) {
      const Clock::time_point step_start = Clock::now();
      if (status.ok()) status = runner_->Step(pool_, done, dt);
      stepping_seconds_ += SecondsSince(step_start);
      ++done;
      if (plan_ && plan_->IsRecordedStep(done)) stopped = !record();
      progress.Update(done);
    }
    progress.Finish(done);
    if (plan_ && !stopped && status.ok()) status = recorder_.Finish();
    timings.gather_seconds = recorder_.gather_seconds();
    return ranks_.Agree(status);
  }

  // This rank's totals: task errors, torques and energies, state digest, stepping time.
  RunTotals Totals() {
    FloatArray* errors = errors_of_;
    runner_->MeasureErrors(pool_, errors[0].span(), errors[1].span(), errors[2].span());
    RunTotals totals;
    totals.errors = runner_->Totals(errors[0].span(), errors[1].span(), errors[2].span());
    if (options_.task.torque_control) {
      // The errors' arrays are free again: kinetic and potential energy per robot.
      batch_->MeasureEnergy(pool_, errors[0].span(), errors[1].span());
      totals.torque = MeasureTorqueTotals(*batch_, errors[0].span(), errors[1].span());
    }
    totals.state_digest = batch_->StateDigest(pool_, slice_.first);
    totals.stepping_seconds = stepping_seconds_;
    return totals;
  }

  std::string ReportLine() const {
    return RankReportLine(ranks_.rank(), ranks_.host(), slice_, pool_.num_threads(),
                          stepping_seconds_, memory_);
  }

  const RobotBatch& batch() const { return *batch_; }
  const MemoryAccountant& memory() const { return memory_; }
  const RecordingPlan* plan() const { return plan_ ? &*plan_ : nullptr; }

 private:
  Status LoadModel() {
    if (Status s = ForceSimdTarget(options_.simd); !s.ok()) return s;
    Result<LoadedRobot> robot = LoadRobot(options_.source);
    if (!robot.ok()) return robot.status();
    // An MJCF model's includes are inputs too.
    const std::string ee_path = options_.out.empty() ? "" : EndEffectorOutputPath(options_.out);
    const FileUse outputs[] = {{"--out", options_.out, FileRole::kOutput},
                               {"--out's end-effector file", ee_path, FileRole::kOutput}};
    if (Status s = CheckDistinctFromModel(options_.source, *robot, outputs); !s.ok()) return s;
    robot_ = std::move(robot).value();
    model_ = robot_->model;
    return {};
  }

  Status AllocateLocal() {
    Result<RobotBatchConfig> configured = BatchConfig(options_, *robot_);
    if (!configured.ok()) return configured.status();
    RobotBatchConfig config = std::move(configured).value();
    if (!options_.end_effector.empty()) {
      Result<size_t> link = model_->FindLink(options_.end_effector);
      if (!link.ok()) return InvalidArgument("--end-effector: " + link.status().message());
      config.end_effector = link.value();
    }
    if (!options_.out.empty()) {
      // Only rank 0 writes, so only its --max-output applies.
      Result<RecordingPlan> planned =
          PlanRecording(options_.out, options_.steps, options_.record_every, options_.record_robots,
                        model_->q_count(), ranks_.is_root() ? options_.max_output : kNoBudget);
      if (!planned.ok()) return planned.status();
      plan_ = planned.value();
    }
    std::string what = std::to_string(slice_.count) + " robots of '" + model_->name + "'";
    if (ranks_.size() > 1)
      what += " (this rank's share of " + std::to_string(options_.robots) + ")";
    Result<RobotBatch> created = RobotBatch::Create(memory_, *model_, slice_.count, config);
    if (!created.ok()) return BudgetError(created.status(), options_.memory_limit, what);
    batch_.emplace(std::move(created).value());
    RobotTaskParams task = options_.task;
    task.first_robot = slice_.first;
    Result<RobotTaskRunner> runner = RobotTaskRunner::Create(memory_, *batch_, task);
    if (!runner.ok()) return BudgetError(runner.status(), options_.memory_limit, what);
    runner_.emplace(std::move(runner).value());
    // Final per-robot errors: position, orientation, joint tracking.
    for (FloatArray& array : errors_of_) {
      Result<FloatArray> allocated =
          FloatArray::Create(memory_, batch_->size(), MemoryCategory::kScratch);
      if (!allocated.ok()) return BudgetError(allocated.status(), options_.memory_limit, what);
      array = std::move(allocated).value();
    }
    if (plan_) {
      Result<TrajectoryRecorder> opened =
          TrajectoryRecorder::Create(memory_, *plan_, options_.robots, ranks_);
      if (!opened.ok()) {
        return BudgetError(opened.status(), options_.memory_limit,
                           "the recording of " + std::to_string(plan_->robots) + " robots");
      }
      recorder_ = std::move(opened).value();
    }
    return {};
  }

  const RunOptions& options_;
  RankGroup& ranks_;
  const RobotSlice slice_;
  MemoryAccountant memory_;
  ThreadPool pool_;
  std::optional<LoadedRobot> robot_;
  std::optional<RobotModel> model_;
  std::optional<RecordingPlan> plan_;
  std::optional<RobotBatch> batch_;
  std::optional<RobotTaskRunner> runner_;
  FloatArray errors_of_[3];
  TrajectoryRecorder recorder_;
  double stepping_seconds_ = 0.0;
};

}  // namespace

int RunRobots(const RunOptions& options, RankGroup& ranks) {
  const Clock::time_point start = Clock::now();
  // Checked before anything is loaded: enough robots for the ranks, and no output on the URDF or
  // on the other output. Agreed: with per-rank command lines (mpirun ... : ...) the ranks may see
  // different counts and paths.
  Status startable;
  if (options.robots < static_cast<uint64_t>(ranks.size())) {
    startable = InvalidArgument("--robots " + std::to_string(options.robots) +
                                " is fewer than the " + std::to_string(ranks.size()) +
                                " MPI ranks: every rank needs at least one robot");
  } else {
    const std::string ee_path = options.out.empty() ? "" : EndEffectorOutputPath(options.out);
    const FileUse files[] = {{options.source.flag(), options.source.path(), FileRole::kInput},
                             {"--out", options.out, FileRole::kOutput},
                             {"--out's end-effector file", ee_path, FileRole::kOutput}};
    startable = CheckDistinctFiles(files);
  }
  if (Status s = ranks.Agree(startable); !s.ok()) return FailAgreed(ranks, s);
  RankRun run(options, ranks);
  RunTimings timings;
  if (Status s = run.Load(); !s.ok()) return FailAgreed(ranks, s);
  if (Status s = run.Allocate(); !s.ok()) return FailAgreed(ranks, s);
  if (Status s = run.Run(timings); !s.ok()) return FailAgreed(ranks, s);

  // Step 5: every rank's totals and report line to rank 0, merged in rank order.
  const RunTotals mine = run.Totals();
  const Clock::time_point gather_start = Clock::now();
  const std::vector<uint64_t> words = ranks.GatherWords(mine.Words());
  const std::vector<std::string> rank_lines = ranks.GatherTexts(run.ReportLine());
  if (!ranks.is_root()) return 0;
  RunTotals totals;
  for (size_t r = 0; r < words.size() / RunTotals::kWords; ++r) {
    totals.Merge(RunTotals::FromWords(std::span<const uint64_t>(words)
                                          .subspan(r * RunTotals::kWords)
                                          .first<RunTotals::kWords>()));
  }
  if (options.task.torque_control) {
    if (Status s = CheckFinite(totals.torque.Summary()); !s.ok()) return Fail(kProgram, s);
  }
  timings.summary_seconds = SecondsSince(gather_start);
  timings.stepping_seconds = totals.stepping_seconds;
  timings.total_seconds = SecondsSince(start);
  PrintRunSummary(
      options, run.batch(), totals, timings, run.memory(), run.plan(),
      ranks.size() > 1 ? std::span<const std::string>(rank_lines) : std::span<const std::string>());
  return 0;
}

}  // namespace swarm
