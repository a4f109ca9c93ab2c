// swarm-bench-mjcf: full torque steps of MJCF robots driven by their own actuators and touching
// their floor (RobotBatch::TorqueStep with TorqueController::kActuators, MjcfContactConfig: the
// actuators, the narrow phase of every pair of a robot shape with a world shape, the contacts'
// and joint limits' constraints, dynamics, integration, forward kinematics), the MuJoCo Menagerie
// models of ../shared/mjcf (their scene files: the robot and its floor), R robots each (--robots,
// default 1e5), 1 and 2 threads, against MuJoCo 2.2.2's mj_step of the same file (its
// 2.2.2-compatible copy, bench/mjcf_compat.h, written to --copies-dir, with the file's solver
// settings) on one core; and the contacts of the same robots alone (forward kinematics and the
// narrow phase of every contact pair, self-collision too: RobotBatch::DetectContacts) against
// MuJoCo's mj_kinematics + mj_collision.
//
// Scenarios: go2, anymal_c and g1 (floating base) standing on the floor from their first keyframe
// toward ctrl a little off the keyframe's, per robot, at the file's time step; go2 and anymal_c
// the same on rough ground (the model file and a heightfield of waves up to 4 cm in 5 cm cells
// over 8 m x 8 m instead of the floor, the robots spread over it; MuJoCo's copy gets the same
// heights through hfield_data, as 2.2.2 reads no elevation attribute); and the Panda (fixed
// base) from the file's pose over its floor (its coupled fingers, a mimic joint, take the
// contacts' dense added inertia). 50 untimed steps first on both sides; the contact rows collide
// the robots where those steps left them.
//
// The tables print ms per step, M robot-steps/s, MuJoCo's M robot-steps/s and swarm's rate per
// core over it (1 thread, and 2 threads halved); the contact table also the pairs and slots per
// robot.
//
//   swarm-bench-mjcf --robots=1e5 --rounds=3 --min-time=0.2
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench/bench_common.h"
#include "bench/bench_start.h"
#include "bench/best_round_reporter.h"
#include "demos/command_line/flags.h"
#include "demos/command_line/runtime_flags.h"
#include "swarm/core/memory.h"
#include "swarm/core/simd.h"
#include "swarm/core/thread_pool.h"
#include "swarm/robots/mjcf_robot.h"
#include "swarm/robots/robot_batch.h"

#if SWARM_BENCH_HAVE_MUJOCO
#include <mujoco/mujoco.h>

#include "bench/mjcf_compat.h"
#endif

namespace swarm::bench {
namespace {

constexpr const char* kProgram = "swarm-bench-mjcf";
constexpr double kTargetMujocoRatio = 20.0;  // per core
constexpr int kWarmupSteps = 50;

struct Options {
  std::string mjcf_dir = SWARM_BENCH_MJCF_DIR;
  std::string copies_dir = "mjcf_bench_copies";
  uint64_t robots = 100'000;
  uint64_t mujoco_robots = 64;
  RoundOptions rounds{3, 0.2, 3, 0.2, 3};
  std::string simd = "auto";
};

[[noreturn]] void Die(const std::string& message) { Fail(kProgram, message); }

struct Scenario {
  const char* name;
  const char* folder;
  const char* file;
  bool terrain = false;  // `file` is the model alone, placed on the waves below
};
// The scene files: the robot and its floor (the steps' rows do not collide; the contact rows
// collide the robot with itself and the floor); the terrain scenarios' model files.
constexpr Scenario kScenarios[] = {{"go2", "unitree_go2", "scene_mjx.xml"},
                                   {"anymal_c", "anybotics_anymal_c", "scene_mjx.xml"},
                                   {"go2_rough", "unitree_go2", "go2_mjx.xml", true},
                                   {"anymal_rough", "anybotics_anymal_c", "anymal_c_mjx.xml", true},
                                   {"g1", "unitree_g1", "scene_mjx.xml"},
                                   {"panda", "franka_emika_panda", "mjx_scene.xml"}};

// The rough ground: 161 x 161 heights over 8 m x 8 m, waves normalised to [0, 1] (MuJoCo's
// hfield_data), 4 cm high, its middle at z = 0.
constexpr int kTerrainPoints = 161;
std::vector<double> TerrainHeights() {
  std::vector<double> heights;
  for (int r = 0; r < kTerrainPoints; ++r) {
    for (int c = 0; c < kTerrainPoints; ++c) {
      heights.push_back(std::sin(0.105 * c) * std::cos(0.085 * r + 0.4));
    }
  }
  const auto [low, high] = std::minmax_element(heights.begin(), heights.end());
  const double minimum = *low, range = *high - *low;
  for (double& h : heights) h = (h - minimum) / range;  // as swarm's loader normalises them
  return heights;
}
// A scene of the model file `include` on the rough ground: with its heights written out (swarm)
// or only the grid's size (MuJoCo 2.2.2, filled in after loading).
std::string TerrainScene(const std::string& include, bool with_heights) {
  std::string xml = "<mujoco model=\"rough ground\">\n  <include file=\"" + include +
                    "\"/>\n  <asset><hfield name=\"waves\" nrow=\"161\" ncol=\"161\" "
                    "size=\"4 4 0.04 0.1\"";
  if (with_heights) {
    xml += " elevation=\"";
    for (double h : TerrainHeights()) xml += std::to_string(h) + " ";
    xml += "\"";
  }
  return xml +
         "/></asset>\n  <worldbody><geom name=\"ground\" type=\"hfield\" hfield=\"waves\" "
         "pos=\"0 0 -0.02\"/></worldbody>\n</mujoco>\n";
}
void WriteFile(const std::string& path, const std::string& text) {
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr || std::fputs(text.c_str(), file) < 0 || std::fclose(file) != 0) {
    Die("cannot write " + path);
  }
}
// Robot r's place on the rough ground: a 10 x 10 grid of 60 cm steps around the middle.
double SpreadX(size_t r) { return 0.6 * double(r % 10) - 2.7; }
double SpreadY(size_t r) { return 0.6 * double(r / 10 % 10) - 2.7; }

// Robot r's start (the first keyframe, else the file's pose) and ctrl (the keyframe's, else the
// start's joint values where an actuator's range allows, plus a per-robot offset).
struct Start {
  std::vector<double> q;
  std::vector<std::vector<double>> ctrl;  // per actuator: one value per robot
};

Start StartOf(const MjcfRobot& robot, size_t robots) {
  Start start;
  start.q = robot.keyframes.empty() ? robot.q0 : robot.keyframes[0].q;
  for (size_t a = 0; a < robot.actuators.size(); ++a) {
    const MjcfRobotActuator& actuator = robot.actuators[a];
    const double base = robot.keyframes.empty() ? 0.0 : robot.keyframes[0].ctrl[a];
    std::vector<double>& values = start.ctrl.emplace_back(robots);
    for (size_t r = 0; r < robots; ++r) {
      double value = base + 0.2 * std::sin(0.7 * double(r) + double(a));
      if (actuator.ctrl_limited) {
        value = std::min(std::max(value, actuator.ctrl_range[0]), actuator.ctrl_range[1]);
      }
      values[r] = value;
    }
  }
  return start;
}

// Contact pairs and slots per robot of each scenario, and the contacts its step evaluates, for
// the tables (workspaces come and go).
std::map<std::string, std::pair<size_t, size_t>>& ContactCounts() {
  static std::map<std::string, std::pair<size_t, size_t>> counts;
  return counts;
}
std::map<std::string, size_t>& StepContacts() {
  static std::map<std::string, size_t> counts;
  return counts;
}

class Workspace {
 public:
  Workspace(const Options& options, const Scenario& scenario) : terrain_(scenario.terrain) {
    std::string path = options.mjcf_dir + "/" + scenario.folder + "/" + scenario.file;
    if (terrain_) {
      const std::string folder = options.copies_dir + "/" + scenario.folder;
      std::filesystem::create_directories(folder);
      const std::string scene = folder + "/" + scenario.name + "_swarm.xml";
      WriteFile(scene, TerrainScene(std::filesystem::absolute(path).string(), true));
      path = scene;
    }
    Result<MjcfRobot> robot = LoadMjcfFile(path);
    if (!robot.ok()) Die(robot.status().message());
    robot_ = std::move(robot).value();
    Result<RobotBatchConfig> config = MjcfContactConfig(robot_);
    if (!config.ok()) Die(config.status().message());
    Result<RobotBatch> batch = RobotBatch::Create(memory_, robot_.model, options.robots, *config);
    if (!batch.ok()) Die(batch.status().message());
    batch_.emplace(std::move(batch).value());
    start_ = StartOf(robot_, options.robots);
    for (size_t r = 0; r < options.robots; ++r) {
      for (size_t k = 0; k < start_.q.size(); ++k) batch_->q().Array(k)[r] = float(start_.q[k]);
      if (terrain_) {
        batch_->q().Array(0)[r] += float(SpreadX(r));
        batch_->q().Array(1)[r] += float(SpreadY(r));
      }
      for (size_t a = 0; a < start_.ctrl.size(); ++a) {
        batch_->ctrl().Array(a)[r] = float(start_.ctrl[a][r]);
      }
    }
    ThreadPool pool(1);
    for (int step = 0; step < kWarmupSteps; ++step) Step(pool);
    for (size_t k = 0; k < batch_->q().arrays; ++k) {
      for (size_t r = 0; r < options.robots; ++r) {
        if (!std::isfinite(batch_->q().Array(k)[r]))
          Die(std::string(scenario.name) + ": not finite");
      }
    }
    // The contact rows: a kinematic batch of the same robots at the warmed-up poses, with the
    // file's collision shapes and pairs.
    Result<CollisionModel> collisions = MjcfCollisionModel(robot_);
    if (!collisions.ok()) Die(collisions.status().message());
    RobotBatchConfig contact_config;
    contact_config.collisions = std::move(collisions).value();
    Result<RobotBatch> contacts =
        RobotBatch::Create(memory_, robot_.model, options.robots, contact_config);
    if (!contacts.ok()) Die(contacts.status().message());
    contacts_.emplace(std::move(contacts).value());
    const CollisionPlan& plan = *contacts_->collision_plan();
    ContactCounts()[scenario.name] = {plan.pair_count(), plan.slot_count()};
    StepContacts()[scenario.name] = batch_->contact_points().size();
    for (size_t k = 0; k < batch_->q().arrays; ++k) {
      std::copy_n(batch_->q().Array(k), options.robots, contacts_->q().Array(k));
    }
#if SWARM_BENCH_HAVE_MUJOCO
    OpenMujoco(options, scenario);
#endif
  }
  ~Workspace() {
#if SWARM_BENCH_HAVE_MUJOCO
    if (data_ != nullptr) mj_deleteData(data_);
    if (model_ != nullptr) mj_deleteModel(model_);
#endif
  }
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  void Step(ThreadPool& pool) {
    const Status status =
        batch_->TorqueStep(pool, float(robot_.timestep), TorqueController::kActuators);
    if (!status.ok()) Die(status.message());
  }
  // Forward kinematics and every contact pair of every robot.
  void Detect(ThreadPool& pool) {
    contacts_->ForwardKinematics(pool);
    contacts_->DetectContacts(pool);
  }
  const RobotBatch& batch() const { return *batch_; }
  bool has_mujoco() const { return mujoco_status_.empty(); }
  const std::string& mujoco_status() const { return mujoco_status_; }

#if SWARM_BENCH_HAVE_MUJOCO
  // MuJoCo's contacts of every robot at its warmed-up pose: mj_kinematics and mj_collision (its
  // broad phase, then the narrow phase of the pairs it keeps), one robot after another.
  void DetectMujoco() {
    const size_t nq = static_cast<size_t>(model_->nq);
    const int flags = model_->opt.disableflags;
    model_->opt.disableflags &= ~mjDSBL_CONTACT;
    for (size_t r = 0; r < mujoco_robots_; ++r) {
      std::copy_n(mujoco_state_.data() + r * (nq + static_cast<size_t>(model_->nv)), nq,
                  data_->qpos);
      mj_kinematics(model_, data_);
      mj_collision(model_, data_);
    }
    model_->opt.disableflags = flags;
  }

  // One step of every MuJoCo robot, one after another through one mjData.
  void StepMujoco() {
    const size_t nq = static_cast<size_t>(model_->nq), nv = static_cast<size_t>(model_->nv);
    const size_t nu = static_cast<size_t>(model_->nu);
    for (size_t r = 0; r < mujoco_robots_; ++r) {
      std::copy_n(mujoco_state_.data() + r * (nq + nv), nq, data_->qpos);
      std::copy_n(mujoco_state_.data() + r * (nq + nv) + nq, nv, data_->qvel);
      for (size_t a = 0; a < nu; ++a) data_->ctrl[a] = start_.ctrl[a][r];
      mj_step(model_, data_);
      std::copy_n(data_->qpos, nq, mujoco_state_.data() + r * (nq + nv));
      std::copy_n(data_->qvel, nv, mujoco_state_.data() + r * (nq + nv) + nq);
    }
  }
#endif

 private:
#if SWARM_BENCH_HAVE_MUJOCO
  void OpenMujoco(const Options& options, const Scenario& scenario) {
    const std::string source = options.mjcf_dir + "/" + scenario.folder;
    const std::string copies = options.copies_dir + "/" + scenario.folder;
    static std::map<std::string, std::vector<double>> ranges;  // joint ranges of first copies
    const auto joint_range = [](const std::string& path, const std::string& joint) {
      char error[1000] = "";
      mjModel* m = mj_loadXML(path.c_str(), nullptr, error, sizeof(error));
      if (m == nullptr) Die(path + ": " + error);
      const int id = mj_name2id(m, mjOBJ_JOINT, joint.c_str());
      std::vector<double> range{m->jnt_range[2 * id], m->jnt_range[2 * id + 1]};
      mj_deleteModel(m);
      return range;
    };
    WriteMujoco222Copies(source, copies, joint_range);
    std::string file = copies + "/" + scenario.file;
    if (terrain_) {
      file = copies + "/" + scenario.name + "_mujoco.xml";
      WriteFile(file, TerrainScene(scenario.file, false));
    }
    char error[1000] = "";
    model_ = mj_loadXML(file.c_str(), nullptr, error, sizeof(error));
    if (model_ == nullptr) {
      mujoco_status_ = std::string("MuJoCo could not load the copy: ") + error;
      return;
    }
    if (terrain_) {
      const std::vector<double> heights = TerrainHeights();
      for (size_t i = 0; i < heights.size(); ++i) model_->hfield_data[i] = float(heights[i]);
    }
    data_ = mj_makeData(model_);
    mujoco_robots_ = std::min<size_t>(options.mujoco_robots, options.robots);
    const size_t nq = static_cast<size_t>(model_->nq), nv = static_cast<size_t>(model_->nv);
    mujoco_state_.assign(mujoco_robots_ * (nq + nv), 0.0);
    for (size_t r = 0; r < mujoco_robots_; ++r) {
      // The key's qpos when it has one, else MuJoCo's qpos0: the same start as swarm's.
      const double* qpos = model_->nkey > 0 ? model_->key_qpos : model_->qpos0;
      std::copy_n(qpos, nq, mujoco_state_.data() + r * (nq + nv));
      if (terrain_) {
        mujoco_state_[r * (nq + nv)] += SpreadX(r);
        mujoco_state_[r * (nq + nv) + 1] += SpreadY(r);
      }
    }
    for (int step = 0; step < kWarmupSteps; ++step) StepMujoco();
  }
  mjModel* model_ = nullptr;
  mjData* data_ = nullptr;
  size_t mujoco_robots_ = 0;
  std::vector<double> mujoco_state_;
#endif
  bool terrain_ = false;
  MemoryAccountant memory_;
  MjcfRobot robot_;
  std::optional<RobotBatch> batch_;
  std::optional<RobotBatch> contacts_;
  Start start_;
  std::string mujoco_status_ = SWARM_BENCH_HAVE_MUJOCO ? "" : "not built (no libmujoco-dev)";
};

std::map<std::string, std::unique_ptr<Workspace>>& Workspaces() {
  static std::map<std::string, std::unique_ptr<Workspace>> workspaces;
  return workspaces;
}

Workspace& WorkspaceOf(const Options& options, const Scenario& scenario) {
  std::unique_ptr<Workspace>& workspace = Workspaces()[scenario.name];
  if (!workspace) {
    Workspaces().clear();  // one scenario's batch at a time
    Workspaces()[scenario.name] = std::make_unique<Workspace>(options, scenario);
    return *Workspaces()[scenario.name];
  }
  return *workspace;
}

std::string MujocoName(const Scenario& scenario) { return std::string(scenario.name) + "_mujoco"; }
std::string ContactsName(const Scenario& scenario) {
  return std::string(scenario.name) + "_contacts";
}

void RegisterAll(const Options& options, Pools& pools) {
  const Plan plan = PlanFor(options.rounds, options.robots, 1'000'000, 10'000'000);
  for (const Scenario& scenario : kScenarios) {
    for (uint64_t round = 0; round < plan.rounds; ++round) {
      for (const int threads : {1, 2}) {
        ThreadPool& pool = pools.For(threads);
        Register(scenario.name, options.robots, threads, round, plan,
                 [&options, &scenario, &pool](benchmark::State& state) {
                   Workspace& workspace = WorkspaceOf(options, scenario);
                   TimePasses(state, [&] { workspace.Step(pool); });
                 });
      }
#if SWARM_BENCH_HAVE_MUJOCO
      Register(MujocoName(scenario), options.mujoco_robots, 1, round, plan,
               [&options, &scenario](benchmark::State& state) {
                 Workspace& workspace = WorkspaceOf(options, scenario);
                 if (!workspace.has_mujoco()) {
                   state.SkipWithError(workspace.mujoco_status().c_str());
                   return;
                 }
                 TimePasses(state, [&] { workspace.StepMujoco(); });
               });
#endif
      for (const int threads : {1, 2}) {
        ThreadPool& pool = pools.For(threads);
        Register(ContactsName(scenario), options.robots, threads, round, plan,
                 [&options, &scenario, &pool](benchmark::State& state) {
                   Workspace& workspace = WorkspaceOf(options, scenario);
                   TimePasses(state, [&] { workspace.Detect(pool); });
                 });
      }
#if SWARM_BENCH_HAVE_MUJOCO
      Register(ContactsName(scenario) + "_mujoco", options.mujoco_robots, 1, round, plan,
               [&options, &scenario](benchmark::State& state) {
                 Workspace& workspace = WorkspaceOf(options, scenario);
                 if (!workspace.has_mujoco()) {
                   state.SkipWithError(workspace.mujoco_status().c_str());
                   return;
                 }
                 TimePasses(state, [&] { workspace.DetectMujoco(); });
               });
#endif
    }
  }
}

void PrintTable(const std::map<RunKey, double>& best, const Options& options) {
  std::printf(
      "\n%s: MJCF robots stepped by their actuators on their floor (contacts: the world contacts "
      "each step evaluates), %llu robots, best round, SIMD %s\n",
      kProgram, static_cast<unsigned long long>(options.robots), ActiveSimdTarget().name.c_str());
  std::printf("%-12s %8s %10s %10s %10s %10s %12s %11s %11s  %s\n", "robot", "contacts", "1 thr ms",
              "2 thr ms", "1 thr M/s", "2 thr M/s", "MuJoCo M/s", "x MJ 1 thr", "x MJ/core 2",
              "target");
  int missed = 0;
  const double n = static_cast<double>(options.robots);
  for (const Scenario& scenario : kScenarios) {
    double ms[2] = {0, 0};
    for (int threads : {1, 2}) {
      const auto it = best.find({scenario.name, options.robots, threads});
      if (it != best.end()) ms[threads - 1] = it->second * 1e3;
    }
    const auto rate = [&](double t) { return t > 0 ? n / t * 1e-3 : 0.0; };
    const auto mujoco = best.find({MujocoName(scenario), options.mujoco_robots, 1});
    const double mujoco_rate =
        mujoco != best.end() && mujoco->second > 0
            ? static_cast<double>(options.mujoco_robots) / mujoco->second * 1e-6
            : 0.0;
    std::printf("%-12s %8zu %10.3f %10.3f %10.2f %10.2f", scenario.name,
                StepContacts()[scenario.name], ms[0], ms[1], rate(ms[0]), rate(ms[1]));
    if (mujoco_rate > 0) {
      const double one = rate(ms[0]) / mujoco_rate, two = rate(ms[1]) / 2 / mujoco_rate;
      const bool met = one >= kTargetMujocoRatio;
      missed += !met;
      std::printf(" %12.4f %11.1f %11.1f  >= 20x MuJoCo per core: %s\n", mujoco_rate, one, two,
                  met ? "met" : "MISSED");
    } else {
      std::printf(" %12s %11s %11s\n", "-", "-", "-");
    }
  }
  std::printf("targets missed: %d\n", missed);

  std::printf(
      "\ncontacts: forward kinematics and the narrow phase of every contact pair (swarm) "
      "against mj_kinematics + mj_collision (MuJoCo: broad phase, then its kept pairs)\n");
  std::printf("%-12s %6s %6s %10s %10s %10s %10s %12s %11s %11s\n", "robot", "pairs", "slots",
              "1 thr ms", "2 thr ms", "1 thr M/s", "2 thr M/s", "MuJoCo M/s", "x MJ 1 thr",
              "x MJ/core 2");
  for (const Scenario& scenario : kScenarios) {
    double ms[2] = {0, 0};
    for (int threads : {1, 2}) {
      const auto it = best.find({ContactsName(scenario), options.robots, threads});
      if (it != best.end()) ms[threads - 1] = it->second * 1e3;
    }
    const auto rate = [&](double t) { return t > 0 ? n / t * 1e-3 : 0.0; };
    const auto mujoco = best.find({ContactsName(scenario) + "_mujoco", options.mujoco_robots, 1});
    const double mujoco_rate =
        mujoco != best.end() && mujoco->second > 0
            ? static_cast<double>(options.mujoco_robots) / mujoco->second * 1e-6
            : 0.0;
    const auto [pairs, slots] = ContactCounts()[scenario.name];
    std::printf("%-12s %6zu %6zu %10.3f %10.3f %10.2f %10.2f", scenario.name, pairs, slots, ms[0],
                ms[1], rate(ms[0]), rate(ms[1]));
    if (mujoco_rate > 0) {
      std::printf(" %12.4f %11.1f %11.1f\n", mujoco_rate, rate(ms[0]) / mujoco_rate,
                  rate(ms[1]) / 2 / mujoco_rate);
    } else {
      std::printf(" %12s %11s %11s\n", "-", "-", "-");
    }
  }
}

}  // namespace
}  // namespace swarm::bench

int main(int argc, char** argv) {
  swarm::bench::Options options;
  swarm::FlagSet flags(swarm::bench::kProgram,
                       "Torque steps of MJCF robots driven by their actuators, 1 and 2 threads, "
                       "against MuJoCo 2.2.2 per core. Also accepts Google Benchmark's "
                       "--benchmark_* flags.");
  flags.AddString("mjcf-dir", &options.mjcf_dir, "the folder of the MuJoCo Menagerie models");
  flags.AddString("copies-dir", &options.copies_dir,
                  "where MuJoCo 2.2.2's copies of the models are written");
  flags.AddCount("robots", &options.robots, 16, 10'000'000, "robots per batch");
  flags.AddCount("mujoco-robots", &options.mujoco_robots, 1, 100'000,
                 "robots of the MuJoCo rows (stepped one after another on one core)");
  swarm::bench::AddRoundFlags(flags, options.rounds, "R < 1e6", "1e6 <= R < 1e7", nullptr);
  AddSimdFlag(flags, &options.simd);
  swarm::bench::StartBenchmark(swarm::bench::kProgram, flags, &argc, argv, &options.simd);
  swarm::bench::Pools pools;
  swarm::bench::RegisterAll(options, pools);
  swarm::bench::BestRoundReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  swarm::bench::Workspaces().clear();
  swarm::bench::PrintTable(reporter.best, options);
  benchmark::Shutdown();
  return 0;
}
