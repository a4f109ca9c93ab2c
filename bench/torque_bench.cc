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
//   panda_random_torque     Panda, constant random torques within the effort limits per robot
//                           and joint (no controller), Euler: the joints run into their limits
//                           and stay there, pushed; 200 untimed steps first
//   ur5_pd_gravity          UR5, PD + gravity, Euler
//   solo12_stand            Solo12 (../shared/urdf) on the ground: floating base, four foot
//                           contacts (spheres of 0.016 m at the feet), the stand task's PD +
//                           gravity, Euler, dt 1 ms; 200 untimed steps first so that every robot
//                           stands on its feet when timed
// The time of one step is the best round's; the table prints ms per step, M robot-steps/s and
// the memory per robot, with the targets: a Panda step of 1e5 robots <= 10 ms on 2 threads, and
// each scenario with a MuJoCo row >= 20x MuJoCo's steps per core (1 thread).
//
// The cost of stability: panda_pd_gravity_explicit times the step swarm took before its joint
// limits became soft constraints (bench/explicit_torque_step.h: PD + gravity, explicit limit
// springs, forward dynamics, Euler, forward kinematics) on a copy of panda_pd_gravity's robots,
// and the table prints the constrained step's time over it.
//
// MuJoCo 2.2.2 beside them (when CMake finds libmujoco-dev), on one core: mj_step of
// --mujoco-robots robots (default 256) of panda_pd_gravity, panda_random_torque and solo12_stand,
// one after another through one mjData (bench/torque_peer_mujoco.h), on the same MJCF model
// (bench/mujoco_scene.h: the same inertials, armature, limits, solref and solimp, contacts, time
// step and Euler integrator) with the same controller, started from the state of the batch's first
// robots after its warm-up and stepped as many untimed steps again. The table prints MuJoCo's M
// robot-steps/s and swarm's rate per core over it (1 thread, and 2 threads halved). MuJoCo's
// Solo12s must also carry their weight (within 5% of m g).
//
// Before a scenario is timed its first 16 robots are stepped alone in a batch of 16 for the same
// warm-up steps and must agree bitwise with the large batch (a batch-size-dependent result stops
// the program), every state value must be finite, and the standing Solo12s must carry their
// weight on their feet (total normal force within 5% of m g).
//
// --torque-tile sets every batch's robots per torque-step tile (default: each batch's automatic
// tile, kAutoTorqueTileBytes), to compare tile sizes in one build.
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
#include "bench/explicit_torque_step.h"
#include "bench/mujoco_scene.h"
#include "bench/torque_peer_mujoco.h"
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
constexpr double kTargetMujocoRatio = 20.0;  // per core
constexpr uint64_t kTargetRobots = 100'000;
constexpr float kSoloFootRadius = 0.016f;  // m

struct Options {
  std::string robots_dir = SWARM_BENCH_ROBOTS_DIR;
  std::string solo12_urdf = SWARM_BENCH_SOLO12_URDF;
  uint64_t robots = 100'000;
  uint64_t mujoco_robots = 256;
  uint64_t torque_tile = 0;  // robots per torque-step tile; 0: the batch's default
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
  bool random_torques = false;  // constant random torques (with kNone)
  bool mujoco = false;          // a MuJoCo row beside it
  bool explicit_row = false;    // the explicit step's row beside it (fixed base)
  size_t torque_tile = 0;       // config.torque.schedule.tile_elements; 0: the default
};

std::vector<Scenario> Scenarios(const Options& options) {
  const std::string panda = options.robots_dir + "/panda_arm.urdf";
  std::vector<Scenario> scenarios = {
      {"panda_pd_gravity", panda},
      {"panda_computed_torque", panda, false, TorqueController::kComputedTorque},
      {"panda_pd_gravity_rk4", panda, false, TorqueController::kPdGravity,
       TorqueIntegrator::kRungeKutta4},
      {"panda_random_torque", panda, false, TorqueController::kNone,
       TorqueIntegrator::kSemiImplicitEuler, false, 0.002f, 200, true},
      {"ur5_pd_gravity", options.robots_dir + "/ur5.urdf"},
  };
  scenarios[0].mujoco = scenarios[3].mujoco = true;
  scenarios[0].explicit_row = true;
  if (!options.solo12_urdf.empty()) {
    scenarios.push_back({"solo12_stand", options.solo12_urdf, true, TorqueController::kPdGravity,
                         TorqueIntegrator::kSemiImplicitEuler, true, 0.001f, 200, false, true});
  }
  for (Scenario& scenario : scenarios) scenario.torque_tile = options.torque_tile;
  return scenarios;
}

// The batch and task settings of a scenario (the stand values are the Solo12's: see README).
RobotBatchConfig ConfigFor(const Scenario& scenario, const RobotModel& model) {
  RobotBatchConfig config;
  config.control = DefaultJointControl(model);
  config.torque.enabled = true;
  config.torque.integrator = scenario.integrator;
  config.torque.dynamics.armature.assign(model.dof(), scenario.stand ? 3.6e-4 : 0.1);
  if (scenario.torque_tile > 0) config.torque.schedule.tile_elements = scenario.torque_tile;
  if (scenario.stand) {
    for (JointControl& joint : config.control) joint.kp = 20.0f, joint.kd = 0.3f;
    config.torque.contacts.enabled = true;  // the leaves: the four feet
    config.torque.contacts.radius = kSoloFootRadius;
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
  TorqueWorkspace(const Scenario& scenario, size_t robots, size_t mujoco_robots)
      : scenario_(scenario) {
    UrdfOptions urdf_options;
    urdf_options.floating_base = scenario.floating_base;
    Result<RobotModel> model = LoadUrdfFile(scenario.urdf, urdf_options);
    if (!model.ok()) Die(model.status().message());
    model_ = std::move(model).value();
    Start(robots, batch_, runner_);
    Check();
    if (scenario.mujoco) StartMujoco(mujoco_robots);
  }
  TorqueWorkspace(const TorqueWorkspace&) = delete;
  TorqueWorkspace& operator=(const TorqueWorkspace&) = delete;

  const Scenario& scenario() const { return scenario_; }
  const RobotBatch& batch() const { return batch_; }
  // The explicit step on a copy of the batch's robots, made on first use.
  ExplicitTorqueSteps& Explicit() {
    if (explicit_ == nullptr) explicit_ = std::make_unique<ExplicitTorqueSteps>(batch_);
    return *explicit_;
  }
  // The MuJoCo peer (nullptr without one: mujoco_status() says why).
  MujocoTorquePeer* mujoco() { return mujoco_.get(); }
  const std::string& mujoco_status() const { return mujoco_status_; }
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
    const double mass = Mass();
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
  double Mass() const {
    double mass = 0.0;
    for (const LinkInertial& inertial : model_.inertials) mass += inertial.mass;
    return mass;
  }

  // The MuJoCo peer of the header comment, from the first robots' state (cyclically when the
  // batch has fewer), warmed up as many steps as the batch was.
  void StartMujoco(size_t robots) {
#if SWARM_BENCH_HAVE_MUJOCO
    MujocoTorquePeer::Control control;
    control.pd_gravity = scenario_.controller == TorqueController::kPdGravity;
    for (const JointControl& joint : batch_.config().control) {
      control.kp.push_back(joint.kp);
      control.kd.push_back(joint.kd);
      control.effort.push_back(joint.effort_limit);
    }
    Result<std::unique_ptr<MujocoTorquePeer>> peer = MujocoTorquePeer::Create(
        scenario_.urdf, JointColumnNames(model_),
        SceneOptionsOf(batch_, scenario_.dt, "", scenario_.name), control, robots);
    if (!peer.ok()) {
      mujoco_status_ = "skipped: " + peer.status().message();
      return;
    }
    mujoco_ = std::move(peer).value();
    const RobotBatch& batch = batch_;
    const ConstLanesView q = batch.q(), qd = batch.qd(), base = batch.base_velocity();
    const ConstLanesView command = control.pd_gravity ? batch.q_target() : batch.torque();
    for (size_t r = 0; r < robots; ++r) {
      const size_t from = r % batch.size();
      std::vector<double> state_q, velocities, commands;
      for (size_t k = 0; k < q.arrays; ++k) state_q.push_back(q.Array(k)[from]);
      for (size_t k = 0; k < base.arrays; ++k) velocities.push_back(base.Array(k)[from]);
      for (size_t k = 0; k < qd.arrays; ++k) velocities.push_back(qd.Array(k)[from]);
      for (size_t k = 0; k < command.arrays; ++k) commands.push_back(command.Array(k)[from]);
      mujoco_->SetRobot(r, state_q, velocities, commands);
    }
    for (uint64_t step = 0; step < scenario_.warmup_steps; ++step) {
      mujoco_->Step(scenario_.stand && step + 1 == scenario_.warmup_steps);
    }
    if (!mujoco_->Finite()) Die(std::string(scenario_.name) + ": MuJoCo's state is not finite");
    if (scenario_.stand) {
      for (size_t r = 0; r < robots; ++r) {
        const double share = mujoco_->normal_force(r) / (Mass() * 9.81);
        if (std::abs(share - 1.0) > 0.05) {
          Die(std::string(scenario_.name) + ": MuJoCo's feet carry " +
              std::to_string(100.0 * share) + "% of robot " + std::to_string(r) + "'s weight");
        }
      }
    }
    mujoco_status_ = "MuJoCo " + MujocoTorquePeer::Version();
#else
    (void)robots;
#endif
  }

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
    if (scenario_.random_torques) {
      // Uniform in [-effort, effort) per robot and joint, the same for a robot in any batch.
      const LanesView torque = batch.torque();
      for (size_t j = 0; j < torque.arrays; ++j) {
        const float effort = batch.config().control[j].effort_limit;
        for (size_t r = 0; r < torque.count; ++r) {
          torque.Array(j)[r] = effort * Pattern(r, static_cast<uint32_t>(j + 1));
        }
      }
    }
    for (uint64_t step = 0; step < scenario_.warmup_steps; ++step) {
      if (Status s = runner.Step(pool, step, scenario_.dt); !s.ok()) Die(s.message());
    }
  }

  Scenario scenario_;
  RobotModel model_;
  MemoryAccountant memory_;
  RobotBatch batch_;
  RobotTaskRunner runner_;
  std::unique_ptr<ExplicitTorqueSteps> explicit_;
  // Shared: its deleter is bound where it is made, so a build without MuJoCo needs no destructor.
  std::shared_ptr<MujocoTorquePeer> mujoco_;
  std::string mujoco_status_ =
      SWARM_BENCH_HAVE_MUJOCO ? "no MuJoCo row" : "not built: CMake found no libmujoco-dev";
};

// The workspace of the scenario being timed (scenarios run one after another, so one lives).
std::unique_ptr<TorqueWorkspace>& Current() {
  static std::unique_ptr<TorqueWorkspace> current;
  return current;
}

TorqueWorkspace& WorkspaceOf(const Scenario& scenario, size_t robots, size_t mujoco_robots) {
  std::unique_ptr<TorqueWorkspace>& current = Current();
  if (current == nullptr || std::string(current->scenario().name) != scenario.name) {
    current.reset();
    current = std::make_unique<TorqueWorkspace>(scenario, robots, mujoco_robots);
  }
  return *current;
}

struct Row {
  double ms[2] = {0.0, 0.0};
  double explicit_ms[2] = {0.0, 0.0};  // the explicit step's (explicit_row scenarios)
  bool explicit_finite = true;
  double bytes_per_robot = 0.0;
  double mujoco_rate = 0.0;  // M robot-steps/s on one core
  std::string mujoco_status;
};

std::string MujocoRowName(const Scenario& scenario) {
  return std::string(scenario.name) + "_mujoco";
}
std::string ExplicitRowName(const Scenario& scenario) {
  return std::string(scenario.name) + "_explicit";
}
std::map<std::string, Row>& Rows() {
  static std::map<std::string, Row> rows;
  return rows;
}

// MuJoCo's row of `scenario`: one core, options.mujoco_robots robots.
void RegisterMujoco(const Options& options, const Scenario& scenario, uint64_t round,
                    const Plan& plan) {
  const size_t robots = options.robots, mujoco_robots = options.mujoco_robots;
  Register(MujocoRowName(scenario), mujoco_robots, 1, round, plan,
           [&scenario, robots, mujoco_robots](benchmark::State& state) {
             TorqueWorkspace& workspace = WorkspaceOf(scenario, robots, mujoco_robots);
             Rows()[scenario.name].mujoco_status = workspace.mujoco_status();
             MujocoTorquePeer* peer = workspace.mujoco();
             if (peer == nullptr) {
               state.SkipWithError(workspace.mujoco_status().c_str());
               return;
             }
             TimePasses(state, [&] { peer->Step(); });
             if (!peer->Finite()) Die(std::string(scenario.name) + ": MuJoCo diverged");
             const double steps = static_cast<double>(mujoco_robots) * state.iterations();
             state.counters["M_robot_steps_per_second"] =
                 benchmark::Counter(steps * 1e-6, benchmark::Counter::kIsRate);
           });
}

// The explicit step's row of `scenario`: 1 and 2 threads on a copy of its robots.
void RegisterExplicit(const Options& options, const Scenario& scenario, uint64_t round,
                      const Plan& plan, Pools& pools) {
  for (const int threads : {1, 2}) {
    ThreadPool& pool = pools.For(threads);
    const size_t robots = options.robots, mujoco_robots = options.mujoco_robots;
    Register(ExplicitRowName(scenario), robots, threads, round, plan,
             [&pool, &scenario, robots, mujoco_robots](benchmark::State& state) {
               ExplicitTorqueSteps& steps = WorkspaceOf(scenario, robots, mujoco_robots).Explicit();
               TimePasses(state, [&] { steps.Step(pool, scenario.dt); });
               Rows()[scenario.name].explicit_finite = steps.Finite();
               state.counters["M_robot_steps_per_second"] =
                   benchmark::Counter(static_cast<double>(robots) * state.iterations() * 1e-6,
                                      benchmark::Counter::kIsRate);
             });
  }
}

void RegisterAll(const Options& options, const std::vector<Scenario>& scenarios, Pools& pools) {
  const Plan plan = PlanFor(options.rounds, options.robots, 1'000'000, 10'000'000);
  for (const Scenario& scenario : scenarios) {
    for (uint64_t round = 0; round < plan.rounds; ++round) {
      for (const int threads : {1, 2}) {
        ThreadPool& pool = pools.For(threads);
        const size_t robots = options.robots;
        const size_t mujoco_robots = options.mujoco_robots;
        Register(scenario.name, robots, threads, round, plan,
                 [&pool, &scenario, robots, mujoco_robots](benchmark::State& state) {
                   TorqueWorkspace& workspace = WorkspaceOf(scenario, robots, mujoco_robots);
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
      if (SWARM_BENCH_HAVE_MUJOCO && scenario.mujoco)
        RegisterMujoco(options, scenario, round, plan);
      if (scenario.explicit_row) RegisterExplicit(options, scenario, round, plan, pools);
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
  std::printf("%-22s %12s %12s %12s %12s %10s %12s %11s %11s  %s\n", "scenario", "1 thr ms",
              "2 thr ms", "1 thr M/s", "2 thr M/s", "B/robot", "MuJoCo M/s", "x MJ 1 thr",
              "x MJ/core 2", "target");
  int missed = 0;
  const double n = static_cast<double>(options.robots);
  for (const Scenario& scenario : scenarios) {
    Row& row = Rows()[scenario.name];
    for (const int threads : {1, 2}) {
      const auto it = best.find({scenario.name, options.robots, threads});
      if (it != best.end()) row.ms[threads - 1] = it->second * 1e3;
      const auto plain = best.find({ExplicitRowName(scenario), options.robots, threads});
      if (plain != best.end()) row.explicit_ms[threads - 1] = plain->second * 1e3;
    }
    std::string target;
    if (std::string(scenario.name) == "panda_pd_gravity" && options.robots == kTargetRobots) {
      const bool met = row.ms[1] > 0.0 && row.ms[1] <= kTargetPandaMs;
      missed += !met;
      target = std::string("<= 10 ms on 2 threads: ") + (met ? "met" : "MISSED");
    }
    const auto rate = [&](double ms) { return ms > 0.0 ? n / ms * 1e-3 : 0.0; };
    // MuJoCo's robot-steps per second on one core, and swarm's per core over it.
    const auto mujoco = best.find({MujocoRowName(scenario), options.mujoco_robots, 1});
    const bool has_mujoco =
        mujoco != best.end() && row.mujoco_status.starts_with("MuJoCo") && mujoco->second > 0.0;
    if (has_mujoco)
      row.mujoco_rate = static_cast<double>(options.mujoco_robots) / mujoco->second * 1e-6;
    const auto per_core = [&](double ms, int threads) {
      return has_mujoco && ms > 0.0 ? rate(ms) / threads / row.mujoco_rate : 0.0;
    };
    std::printf("%-22s %12.3f %12.3f %12.2f %12.2f %10.0f", scenario.name, row.ms[0], row.ms[1],
                rate(row.ms[0]), rate(row.ms[1]), row.bytes_per_robot);
    if (has_mujoco) {
      const bool met = per_core(row.ms[0], 1) >= kTargetMujocoRatio;
      missed += !met;
      if (!target.empty()) target += "; ";
      target += std::string(">= 20x MuJoCo per core: ") + (met ? "met" : "MISSED");
      std::printf(" %12.4f %11.1f %11.1f", row.mujoco_rate, per_core(row.ms[0], 1),
                  per_core(row.ms[1], 2));
    } else {
      std::printf(" %12s %11s %11s", "-", "-", "-");
    }
    std::printf("  %s\n", target.c_str());
  }
  for (const Scenario& scenario : scenarios) {
    const Row& row = Rows()[scenario.name];
    if (!scenario.explicit_row || row.explicit_ms[0] <= 0.0) continue;
    std::printf(
        "cost of stability, %s: the explicit step (no soft constraints) %.3f ms on 1 thread, "
        "%.3f ms on 2; the step with them takes %.2fx and %.2fx its time%s\n",
        scenario.name, row.explicit_ms[0], row.explicit_ms[1], row.ms[0] / row.explicit_ms[0],
        row.explicit_ms[1] > 0.0 ? row.ms[1] / row.explicit_ms[1] : 0.0,
        row.explicit_finite ? "" : " (the explicit step's robots went non-finite)");
  }
  for (const Scenario& scenario : scenarios) {
    const Row& row = Rows()[scenario.name];
    if (scenario.mujoco && !row.mujoco_status.empty()) {
      std::printf("%s MuJoCo row: %s\n", scenario.name, row.mujoco_status.c_str());
    }
  }
  if (!SWARM_BENCH_HAVE_MUJOCO) std::printf("MuJoCo rows: not built (no libmujoco-dev)\n");
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
  flags.AddCount("torque-tile", &options.torque_tile, 0, 1 << 20,
                 "robots per tile of the torque steps, a multiple of 64 (0: the batch's default)");
  flags.AddCount("mujoco-robots", &options.mujoco_robots, 1, 100'000,
                 "robots of the MuJoCo rows (stepped one after another on one core)");
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
