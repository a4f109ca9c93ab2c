// swarm-bench-torque: whole torque-controlled steps of robot batches (RobotBatch::TorqueStep:
// controller + forward dynamics + integration + forward kinematics, fused per tile), the workload
// of a user who trains or tests torque controllers on 1e5 robots in lockstep.
//
// Scenarios, R robots each (--robots, default 1e5), 1 and 2 threads:
//   panda_pd_gravity        Panda arm, PD + gravity compensation, semi-implicit Euler, tracking
//                           the random task's targets (armature 0.1 per joint, dt 2 ms)
//   panda_computed_torque   the same with computed torque (M a + h: a CRBA and a factorisation
//                           more per step)
//   panda_pd_gravity_rk4    PD + gravity with RK4 (four forward dynamics per step)
//   ur5_pd_gravity          UR5, PD + gravity, Euler
//   solo12_stand            Solo12 (../shared/urdf) on the ground: floating base, four foot
//                           contacts, the stand task's PD + gravity, Euler, dt 1 ms; 200 untimed
//                           steps first so that every robot stands on its feet when timed
// The time of one step is the best round's; the table prints ms per step, M robot-steps/s and
// the memory per robot, with the target: a Panda step of 1e5 robots <= 10 ms on 2 threads.
//
// Before a scenario is timed its first 16 robots are stepped alone in a batch of 16 for the same
// warm-up steps and must agree bitwise with the large batch (a batch-size-dependent result stops
// the program), every state value must be finite, and the standing Solo12s must carry their
// weight on their feet (total normal force within 5% of m g).
//
//   swarm-bench-torque --robots=1e5 --rounds=3 --min-time=0.2
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bench/bench_common.h"
#include "bench/best_round_reporter.h"
#include "demos/command_line/flags.h"
#include "demos/command_line/runtime_flags.h"
#include "swarm/core/memory.h"
#include "swarm/core/simd.h"
#include "swarm/core/thread_pool.h"
#include "swarm/robots/robot_batch.h"
#include "swarm/robots/robot_model.h"
#include "swarm/robots/robot_tasks.h"

namespace swarm::bench {
namespace {

constexpr const char* kProgram = "swarm-bench-torque";
constexpr size_t kCheckRobots = 16;
constexpr double kTargetPandaMs = 10.0;
constexpr uint64_t kTargetRobots = 100'000;

struct Options {
  std::string robots_dir = SWARM_BENCH_ROBOTS_DIR;
  std::string solo12_urdf = SWARM_BENCH_SOLO12_URDF;
  uint64_t robots = 100'000;
  RoundOptions rounds{3, 0.2, 3, 0.2, 3};
  std::string simd = "auto";
};

[[noreturn]] void Die(const std::string& message) { Fail(kProgram, message); }

struct Scenario {
  const char* name;
  std::string urdf;
  bool floating_base = false;
  TorqueController controller = TorqueController::kPdGravity;
  TorqueIntegrator integrator = TorqueIntegrator::kSemiImplicitEuler;
  bool stand = false;
  float dt = 0.002f;
  uint64_t warmup_steps = 20;
};

std::vector<Scenario> Scenarios(const Options& options) {
  const std::string panda = options.robots_dir + "/panda_arm.urdf";
  std::vector<Scenario> scenarios = {
      {"panda_pd_gravity", panda},
      {"panda_computed_torque", panda, false, TorqueController::kComputedTorque},
      {"panda_pd_gravity_rk4", panda, false, TorqueController::kPdGravity,
       TorqueIntegrator::kRungeKutta4},
      {"ur5_pd_gravity", options.robots_dir + "/ur5.urdf"},
  };
  if (!options.solo12_urdf.empty()) {
    scenarios.push_back({"solo12_stand", options.solo12_urdf, true, TorqueController::kPdGravity,
                         TorqueIntegrator::kSemiImplicitEuler, true, 0.001f, 200});
  }
  return scenarios;
}

// The batch and task settings of a scenario (the stand values are the Solo12's: see README).
RobotBatchConfig ConfigFor(const Scenario& scenario, const RobotModel& model) {
  RobotBatchConfig config;
  config.control = DefaultJointControl(model);
  config.torque.enabled = true;
  config.torque.integrator = scenario.integrator;
  config.torque.dynamics.armature.assign(model.dof(), scenario.stand ? 3.6e-4 : 0.1);
  if (scenario.stand) {
    for (JointControl& joint : config.control) joint.kp = 20.0f, joint.kd = 0.3f;
    config.torque.contacts.enabled = true;  // the leaves: the four feet
  }
  return config;
}

RobotTaskParams TaskFor(const Scenario& scenario) {
  RobotTaskParams params;
  params.task = scenario.stand ? RobotTask::kStand : RobotTask::kRandom;
  params.torque_control = true;
  params.controller = scenario.controller;
  params.seed = 11;
  if (scenario.stand) {
    params.stand_posture = {0.0f, 0.8f,  -1.6f, 0.0f, 0.8f,  -1.6f,
                            0.0f, -0.8f, 1.6f,  0.0f, -0.8f, 1.6f};
    params.drop_height = 0.0f;  // feet on the ground from the start
  }
  return params;
}

// One scenario's batch, started and warmed up.
class TorqueWorkspace {
 public:
  TorqueWorkspace(const Scenario& scenario, size_t robots) : scenario_(scenario) {
    UrdfOptions urdf_options;
    urdf_options.floating_base = scenario.floating_base;
    Result<RobotModel> model = LoadUrdfFile(scenario.urdf, urdf_options);
    if (!model.ok()) Die(model.status().message());
    model_ = std::move(model).value();
    Start(robots, batch_, runner_);
  }
  TorqueWorkspace(const TorqueWorkspace&) = delete;
  TorqueWorkspace& operator=(const TorqueWorkspace&) = delete;

  const Scenario& scenario() const { return scenario_; }
  const RobotBatch& batch() const { return batch_; }
  void Step(ThreadPool& pool) {
    if (Status s = batch_.TorqueStep(pool, scenario_.dt, scenario_.controller); !s.ok()) {
      Die(s.message());
    }
  }

  // The checks of the header comment, on the warmed-up state.
  void Check() {
    RobotBatch small;
    RobotTaskRunner small_runner;
    Start(kCheckRobots, small, small_runner);
    const auto compare = [&](ConstLanesView large, ConstLanesView alone, const char* what) {
      for (size_t a = 0; a < large.arrays; ++a) {
        for (size_t r = 0; r < batch_.size(); ++r) {
          if (!std::isfinite(large.Array(a)[r])) {
            Die(std::string(scenario_.name) + ": " + what + " is not finite at robot " +
                std::to_string(r));
          }
        }
        if (std::memcmp(large.Array(a), alone.Array(a), kCheckRobots * sizeof(float)) != 0) {
          Die(std::string(scenario_.name) + ": " + what + " of the first robots differs alone");
        }
      }
    };
    const RobotBatch& large = batch_;
    compare(large.q(), std::as_const(small).q(), "q");
    compare(large.qd(), std::as_const(small).qd(), "qd");
    compare(large.torque(), std::as_const(small).torque(), "the torque");
    if (!scenario_.stand) return;
    double mass = 0.0;
    for (const LinkInertial& inertial : model_.inertials) mass += inertial.mass;
    const ConstLanesView forces = large.contact_forces();
    double worst = 0.0;
    for (size_t r = 0; r < large.size(); ++r) {
      double total = 0.0;
      for (size_t c = 0; c < forces.arrays; ++c) total += forces.Array(c)[r];
      worst = std::max(worst, std::abs(total / (mass * 9.81) - 1.0));
    }
    if (worst > 0.05) {
      Die(std::string(scenario_.name) + ": the feet carry the weight only to " +
          std::to_string(100.0 * worst) + "% after the warm-up");
    }
  }

 private:
  void Start(size_t robots, RobotBatch& batch, RobotTaskRunner& runner) {
    Result<RobotBatch> created =
        RobotBatch::Create(memory_, model_, robots, ConfigFor(scenario_, model_));
    if (!created.ok()) Die(created.status().message());
    batch = std::move(created).value();
    Result<RobotTaskRunner> started = RobotTaskRunner::Create(memory_, batch, TaskFor(scenario_));
    if (!started.ok()) Die(started.status().message());
    runner = std::move(started).value();
    ThreadPool pool(2);
    runner.Start(pool);
    for (uint64_t step = 0; step < scenario_.warmup_steps; ++step) {
      if (Status s = runner.Step(pool, step, scenario_.dt); !s.ok()) Die(s.message());
    }
  }

  Scenario scenario_;
  RobotModel model_;
  MemoryAccountant memory_;
  RobotBatch batch_;
  RobotTaskRunner runner_;
};

// The workspace of the scenario being timed (scenarios run one after another, so one lives).
std::unique_ptr<TorqueWorkspace>& Current() {
  static std::unique_ptr<TorqueWorkspace> current;
  return current;
}

TorqueWorkspace& WorkspaceOf(const Scenario& scenario, size_t robots) {
  std::unique_ptr<TorqueWorkspace>& current = Current();
  if (current == nullptr || std::string(current->scenario().name) != scenario.name) {
    current.reset();
    current = std::make_unique<TorqueWorkspace>(scenario, robots);
    current->Check();
  }
  return *current;
}

struct Row {
  double ms[2] = {0.0, 0.0};
  double bytes_per_robot = 0.0;
};
std::map<std::string, Row>& Rows() {
  static std::map<std::string, Row> rows;
  return rows;
}

void RegisterAll(const Options& options, const std::vector<Scenario>& scenarios, Pools& pools) {
  const Plan plan = PlanFor(options.rounds, options.robots, 1'000'000, 10'000'000);
  for (const Scenario& scenario : scenarios) {
    for (uint64_t round = 0; round < plan.rounds; ++round) {
      for (const int threads : {1, 2}) {
        ThreadPool& pool = pools.For(threads);
        const size_t robots = options.robots;
        Register(scenario.name, robots, threads, round, plan,
                 [&pool, &scenario, robots](benchmark::State& state) {
                   TorqueWorkspace& workspace = WorkspaceOf(scenario, robots);
                   Rows()[scenario.name].bytes_per_robot = workspace.batch().BytesPerRobot();
                   TimePasses(state, [&] { workspace.Step(pool); });
                   const double steps = static_cast<double>(robots) * state.iterations();
                   state.counters["M_robot_steps_per_second"] =
                       benchmark::Counter(steps * 1e-6, benchmark::Counter::kIsRate);
                   state.counters["ms_per_step"] = benchmark::Counter(
                       static_cast<double>(state.iterations()) * 1e-3,
                       benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
                 });
      }
    }
  }
}

void PrintTable(const std::map<RunKey, double>& best, const Options& options,
                const std::vector<Scenario>& scenarios) {
  std::printf("\n%s: torque-controlled steps of %llu robots, best round, SIMD %s (%s)\n", kProgram,
              static_cast<unsigned long long>(options.robots), ActiveSimdTarget().name.c_str(),
              ActiveSimdTarget().hwy_name.c_str());
  double load[3] = {0.0, 0.0, 0.0};
  if (getloadavg(load, 3) == 3) {
    std::printf("load average at the end: %.2f (1 min), %.2f (5 min) on %u hardware threads\n",
                load[0], load[1], std::thread::hardware_concurrency());
  }
  if (options.solo12_urdf.empty()) std::printf("solo12_stand: skipped (no Solo12 URDF)\n");
  std::printf("%-22s %12s %12s %12s %12s %10s  %s\n", "scenario", "1 thr ms", "2 thr ms",
              "1 thr M/s", "2 thr M/s", "B/robot", "target");
  int missed = 0;
  const double n = static_cast<double>(options.robots);
  for (const Scenario& scenario : scenarios) {
    Row& row = Rows()[scenario.name];
    for (const int threads : {1, 2}) {
      const auto it = best.find({scenario.name, options.robots, threads});
      if (it != best.end()) row.ms[threads - 1] = it->second * 1e3;
    }
    std::string target;
    if (std::string(scenario.name) == "panda_pd_gravity" && options.robots == kTargetRobots) {
      const bool met = row.ms[1] > 0.0 && row.ms[1] <= kTargetPandaMs;
      missed += !met;
      target = std::string("<= 10 ms on 2 threads: ") + (met ? "met" : "MISSED");
    }
    const auto rate = [&](double ms) { return ms > 0.0 ? n / ms * 1e-3 : 0.0; };
    std::printf("%-22s %12.3f %12.3f %12.2f %12.2f %10.0f  %s\n", scenario.name, row.ms[0],
                row.ms[1], rate(row.ms[0]), rate(row.ms[1]), row.bytes_per_robot, target.c_str());
  }
  std::printf("targets missed: %d\n", missed);
}

}  // namespace
}  // namespace swarm::bench

int main(int argc, char** argv) {
  swarm::bench::Options options;
  swarm::FlagSet flags(swarm::bench::kProgram,
                       "Torque-controlled robot batch steps (controller + forward dynamics + "
                       "integration + FK; a Solo12 standing on ground contacts), 1 and 2 threads. "
                       "Also accepts Google Benchmark's --benchmark_* flags.");
  flags.AddString("robots-dir", &options.robots_dir, "folder with panda_arm.urdf and ur5.urdf");
  flags.AddString("solo12-urdf", &options.solo12_urdf,
                  "the Solo12 URDF of the stand rows (empty: skip them)");
  flags.AddCount("robots", &options.robots, swarm::bench::kCheckRobots, 10'000'000,
                 "robots per batch");
  swarm::bench::AddRoundFlags(flags, options.rounds, "R < 1e6", "1e6 <= R < 1e7", nullptr);
  AddSimdFlag(flags, &options.simd);
  swarm::bench::StartBenchmark(swarm::bench::kProgram, flags, &argc, argv, &options.simd);
  const std::vector<swarm::bench::Scenario> scenarios = swarm::bench::Scenarios(options);
  swarm::bench::Pools pools;
  swarm::bench::RegisterAll(options, scenarios, pools);
  swarm::bench::BestRoundReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  swarm::bench::Current().reset();
  swarm::bench::PrintTable(reporter.best, options, scenarios);
  benchmark::Shutdown();
  return 0;
}
