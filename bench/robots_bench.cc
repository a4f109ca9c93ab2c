// swarm-bench-robots: batched robot kinematics and control (swarm/robots/robot_batch.h over
// kernels/robot_*.h) next to per-robot loops and MuJoCo, in one binary so that every ratio comes
// from one run on one machine state (docs/design.md's robot workload: 6-DOF arm FK, UR5
// parameters).
//
// Forward kinematics of every link, R = 1, 16, 1e3, 1e4, 1e5, 1e6 robots, 1 and 2 threads:
//   fk_batch      RobotBatch::ForwardKinematics over ThreadPool(1) / ThreadPool(2) (tiles of the
//                 batch's default TileSchedule: tiles of 1,024 robots, each thread at least
//                 4,096, so below 8,192 robots the 2-thread rows run on one thread)
//   fk_kernel     the raw kernel ForwardKinematics (swarm/kernels/robots/robot_kinematics.h) over
//   all robots
//                 in one call, 1 thread
//   fk_reference  the same-op-order scalar reference
//   (swarm/kernels/robots/robot_kinematics_reference.h
//                 RobotForwardKinematics), robot after robot over per-robot (AoS) arrays, 1 thread
//   fk_glm        a natural per-robot glm loop over AoS arrays (bench/robots_peer_glm.h, -O2)
//   fk_mujoco     MuJoCo 2.2.2: per robot, qpos = q, mj_kinematics, body poses (xpos, xquat)
//                 copied out, one mjData per thread (bench/robots_peer_mujoco.h); only when CMake
//                 found libmujoco-dev and MuJoCo loads the URDF (it needs a URDF without meshes)
// The per-robot loops use the second thread from 1,000 robots on (two halves of the robots).
// Every implementation reads the same joint values (seeded, in [-pi, pi)) and writes every link
// pose of every robot to memory; the rate counted is robot evaluations per second.
//
// Control, R = 1e5 (--control-robots), 1 and 2 threads:
//   control_step  RobotBatch::ControlStep (PD torques + integration with limits + FK, fused per
//                 tile), dt = 2 ms, toward seeded joint targets
//   ik_step       RobotBatch::IkStep (end-effector Jacobian + one damped-least-squares step) toward
//                 seeded reachable end-effector poses
// The memory per robot (RobotBatch::BytesPerRobot and the MemoryAccountant report) is printed.
//
// Before anything is timed every implementation is checked on 1,000 robots: the batch, the raw
// kernel and the reference agree bitwise, glm and MuJoCo within 1e-5 m and 1e-5 rad, so a wrong
// result stops the program instead of producing a fast number. Rounds are interleaved (all
// implementations, then all again, bench/bench_common.h) and the best round counts. At the end a
// table prints M evaluations/s, the ratios and the targets (>= 30x MuJoCo per core and
// >= 45 M/s at R >= 1e4 on one thread; a control step of 1e5 robots <= 10 ms on two threads).
//
//   swarm-bench-robots --urdf=assets/robots/ur5.urdf --max-robots=1e6 --control-robots=1e5
//       --simd=auto --rounds=3 --min-time=0.2 --memory-rounds=5 --memory-min-time=0.05
//       --large-rounds=3 --benchmark_out=bench/results/robots.json --benchmark_out_format=json
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "bench/bench_common.h"
#include "bench/best_round_reporter.h"
#include "bench/robots_peer_glm.h"
#include "demos/command_line/flags.h"
#include "demos/command_line/runtime_flags.h"
#include "swarm/core/memory.h"
#include "swarm/core/simd.h"
#include "swarm/core/thread_pool.h"
#include "swarm/kernels/robots/robot_kinematics.h"
#include "swarm/kernels/robots/robot_kinematics_reference.h"
#include "swarm/robots/robot_batch.h"
#include "swarm/robots/robot_model.h"

#if SWARM_BENCH_HAVE_MUJOCO
#include "bench/robots_peer_mujoco.h"
#endif

namespace swarm::bench {
namespace {

constexpr const char* kProgram = "swarm-bench-robots";
constexpr uint64_t kRobotCounts[] = {1, 16, 1'000, 10'000, 100'000, 1'000'000};
// From here on a batch's state (~0.4 KB per UR5) leaves a core's L2, and at 1e6 the L3.
constexpr uint64_t kMemoryCount = 100'000;
constexpr uint64_t kLargeCount = 1'000'000;
// The per-robot loops split the robots over two threads from here on: below it waking the
// second thread costs more than it saves.
constexpr size_t kPeerSplitRobots = 1'000;
constexpr float kDtSeconds = 0.002f;
constexpr size_t kCheckRobots = 1'000;
constexpr double kCheckMetres = 1e-5;
constexpr double kCheckRadians = 1e-5;
constexpr double kPi = 3.14159265358979323846;
// Issue 7's targets.
constexpr uint64_t kTargetFromRobots = 10'000;
constexpr double kTargetMujocoRatio = 30.0;
constexpr double kTargetEvalsPerSecond = 45e6;
constexpr double kTargetControlMs = 10.0;

struct Options {
  std::string urdf = SWARM_BENCH_DEFAULT_URDF;
  uint64_t max_robots = kLargeCount;
  uint64_t control_robots = 100'000;
  RoundOptions rounds{3, 0.2, 5, 0.05, 3};
  std::string simd = "auto";
};

[[noreturn]] void Die(const std::string& message) { Fail(kProgram, message); }

void Check(const Status& status) {
  if (!status.ok()) Die(status.message());
}

// The model every workspace uses, loaded once in main.
struct Robot {
  RobotModel model;
  std::vector<KinematicJoint> kinematic_joints;
  KinematicTree tree;
  std::vector<GlmJoint> glm_joints;
  std::string mujoco_status = "not built: CMake found no libmujoco-dev";
#if SWARM_BENCH_HAVE_MUJOCO
  std::unique_ptr<MujocoKinematics> mujoco;
  std::vector<size_t> link_of_body;  // swarm link index of each MuJoCo body
#endif

  bool has_mujoco() const {
#if SWARM_BENCH_HAVE_MUJOCO
    return mujoco != nullptr;
#else
    return false;
#endif
  }
};

Robot& TheRobot() {
  static Robot robot;
  return robot;
}

std::vector<GlmJoint> GlmJointsOf(const KinematicTree& tree) {
  std::vector<GlmJoint> joints(tree.joint_count);
  for (size_t i = 0; i < tree.joint_count; ++i) {
    const KinematicJoint& from = tree.joints[i];
    GlmJoint& to = joints[i];
    to.parent_link = from.parent_link;
    to.motion = from.motion == JointMotion::kRevolute    ? GlmJoint::Motion::kRevolute
                : from.motion == JointMotion::kPrismatic ? GlmJoint::Motion::kPrismatic
                                                         : GlmJoint::Motion::kFixed;
    to.q_index = from.q_index < 0 ? 0 : tree.joint_q_begin() + static_cast<size_t>(from.q_index);
    to.multiplier = from.multiplier;
    to.offset = from.offset;
    const float* r = from.origin_rotation;
    to.origin_rotation = glm::quat(r[3], r[0], r[1], r[2]);
    to.origin_translation = glm::vec3(from.origin_translation[0], from.origin_translation[1],
                                      from.origin_translation[2]);
    to.axis = glm::vec3(from.axis[0], from.axis[1], from.axis[2]);
  }
  return joints;
}

void LoadRobot(const Options& options) {
  Robot& robot = TheRobot();
  Result<RobotModel> loaded = LoadUrdfFile(options.urdf);
  if (!loaded.ok()) Die(loaded.status().message());
  robot.model = std::move(loaded).value();
  if (robot.model.floating_base) Die("the benchmark's robot must have a fixed base");
  robot.tree = BuildKinematicTree(robot.model, robot.kinematic_joints);
  robot.glm_joints = GlmJointsOf(robot.tree);
#if SWARM_BENCH_HAVE_MUJOCO
  Result<std::unique_ptr<MujocoKinematics>> mujoco =
      MujocoKinematics::Load(options.urdf, robot.model.QNames(), 2);
  if (!mujoco.ok()) {
    robot.mujoco_status = "skipped: " + mujoco.status().message();
    return;
  }
  robot.mujoco = std::move(mujoco).value();
  for (const std::string& body : robot.mujoco->body_names()) {
    Result<size_t> link = robot.model.FindLink(body);
    if (!link.ok()) Die("MuJoCo body '" + body + "' is no link of swarm's model");
    robot.link_of_body.push_back(link.value());
  }
  robot.mujoco_status = "MuJoCo " + MujocoKinematics::Version();
#endif
}

// Joint value j of robot r, in [-pi, pi): the same for every implementation and batch size.
float JointValue(size_t robot, size_t column, uint32_t salt = 0) {
  return static_cast<float>(kPi) * Pattern(robot, static_cast<uint32_t>(column + 1 + salt * 64));
}

// The memory of one robot count: a batch (its q is the FK input, link_poses the output) and
// every peer's arrays, built on first use and freed before the next count (bench_common.h).
class FkWorkspace {
 public:
  explicit FkWorkspace(size_t robots) : robots_(robots) {
    const Robot& robot = TheRobot();
    Result<RobotBatch> created = RobotBatch::Create(memory_, robot.model, robots);
    if (!created.ok()) Die(created.status().message());
    batch_ = std::move(created).value();
    const size_t q_count = robot.tree.q_count;
    q_aos_.resize(robots * q_count);
    const LanesView q = batch_.q();
    for (size_t column = 0; column < q_count; ++column) {
      float* array = q.Array(column);
      for (size_t r = 0; r < robots; ++r) {
        array[r] = JointValue(r, column);
        q_aos_[r * q_count + column] = array[r];
      }
    }
    glm_poses_.resize(robots * robot.tree.link_count());
    reference_poses_.resize(robots * kPoseArrays * robot.tree.link_count());
#if SWARM_BENCH_HAVE_MUJOCO
    if (robot.has_mujoco()) {
      q_mujoco_.assign(q_aos_.begin(), q_aos_.end());
      mujoco_poses_.resize(robots * robot.mujoco->body_count() * kMujocoPoseValues);
    }
#endif
  }
  FkWorkspace(const FkWorkspace&) = delete;
  FkWorkspace& operator=(const FkWorkspace&) = delete;

  size_t count() const { return robots_; }

  void Batch(ThreadPool& pool) { batch_.ForwardKinematics(pool); }
  void Kernel() { ForwardKinematics(TheRobot().tree, batch_.q(), batch_.link_poses()); }
  // Robot after robot over per-robot (AoS) arrays, the layout a per-robot loop keeps.
  void Reference() {
    const KinematicTree& tree = TheRobot().tree;
    const size_t pose_values = kPoseArrays * tree.link_count();
    for (size_t r = 0; r < robots_; ++r) {
      reference::RobotForwardKinematics(tree, q_aos_.data() + r * tree.q_count, 1,
                                        reference_poses_.data() + r * pose_values, 1);
    }
  }
  void Glm(ThreadPool& pool) {
    const Robot& robot = TheRobot();
    const size_t q_count = robot.tree.q_count;
    const size_t links = robot.tree.link_count();
    RunPeer(pool, [&](size_t begin, size_t n, size_t) {
      GlmForwardKinematics(robot.glm_joints, q_count, q_aos_.data() + begin * q_count, n,
                           glm_poses_.data() + begin * links);
    });
  }
#if SWARM_BENCH_HAVE_MUJOCO
  void Mujoco(ThreadPool& pool) {
    MujocoKinematics& mujoco = *TheRobot().mujoco;
    const size_t q_count = mujoco.q_count();
    const size_t pose_values = mujoco.body_count() * kMujocoPoseValues;
    RunPeer(pool, [&](size_t begin, size_t n, size_t worker) {
      mujoco.Evaluate(q_mujoco_.data() + begin * q_count, n,
                      mujoco_poses_.data() + begin * pose_values, worker);
    });
  }
#endif

  // Stops the program unless every implementation computed the same link poses (see the head
  // of this file for the tolerances).
  void CheckResults(ThreadPool& pool);

 private:
  // pass(begin, n, worker) over the robots: one call, or two halves on two threads.
  template <class Pass>
  void RunPeer(ThreadPool& pool, const Pass& pass) {
    const size_t blocks = pool.num_threads() >= 2 && robots_ >= kPeerSplitRobots ? 2 : 1;
    pool.ParallelFor(blocks, [&](size_t block) {
      const size_t begin = robots_ * block / blocks;
      pass(begin, robots_ * (block + 1) / blocks - begin, block);
    });
  }

  size_t robots_;
  MemoryAccountant memory_;  // declared before the batches it must outlive
  RobotBatch batch_;
  std::vector<float> q_aos_;            // robot r's q at r * q_count
  std::vector<float> reference_poses_;  // robot r's 7 * links pose values at r * 7 * links
  std::vector<GlmPose> glm_poses_;
#if SWARM_BENCH_HAVE_MUJOCO
  std::vector<double> q_mujoco_;
  std::vector<double> mujoco_poses_;
#endif
};

// Position and rotation differences of two poses (the rotation angle of a^-1 b; quaternions in
// either hemisphere).
struct PoseError {
  double metres = 0.0;
  double radians = 0.0;
};

PoseError Difference(const double a_position[3], const double a_xyzw[4], const double b_position[3],
                     const double b_xyzw[4]) {
  double squared = 0.0;
  for (int k = 0; k < 3; ++k) {
    const double difference = a_position[k] - b_position[k];
    squared += difference * difference;
  }
  const double norm_a = std::sqrt(a_xyzw[0] * a_xyzw[0] + a_xyzw[1] * a_xyzw[1] +
                                  a_xyzw[2] * a_xyzw[2] + a_xyzw[3] * a_xyzw[3]);
  const double norm_b = std::sqrt(b_xyzw[0] * b_xyzw[0] + b_xyzw[1] * b_xyzw[1] +
                                  b_xyzw[2] * b_xyzw[2] + b_xyzw[3] * b_xyzw[3]);
  double dot = 0.0;
  for (int k = 0; k < 4; ++k) dot += a_xyzw[k] * b_xyzw[k];
  const double cosine = std::min(1.0, std::abs(dot) / (norm_a * norm_b));
  return {std::sqrt(squared), 2.0 * std::acos(cosine)};
}

void FkWorkspace::CheckResults(ThreadPool& pool) {
  const Robot& robot = TheRobot();
  const size_t links = robot.tree.link_count();
  Batch(pool);
  const LanesView batch_poses = batch_.link_poses();
  std::vector<float> batch_copy(batch_poses.arrays * robots_);
  for (size_t a = 0; a < batch_poses.arrays; ++a) {
    std::memcpy(batch_copy.data() + a * robots_, batch_poses.Array(a), robots_ * sizeof(float));
  }
  Kernel();
  Reference();
  for (size_t a = 0; a < batch_poses.arrays; ++a) {
    if (std::memcmp(batch_copy.data() + a * robots_, batch_poses.Array(a),
                    robots_ * sizeof(float)) != 0) {
      Die("the raw kernel and RobotBatch::ForwardKinematics differ in pose array " +
          std::to_string(a));
    }
    for (size_t r = 0; r < robots_; ++r) {
      const float reference = reference_poses_[r * batch_poses.arrays + a];
      if (std::memcmp(&reference, batch_poses.Array(a) + r, sizeof(float)) != 0) {
        Die("the scalar reference and RobotBatch::ForwardKinematics differ at robot " +
            std::to_string(r) + ", pose array " + std::to_string(a) + ": " +
            std::to_string(reference) + " vs " + std::to_string(batch_poses.Array(a)[r]));
      }
    }
  }
  // The batch's pose of link l of robot r, in double.
  const auto batch_pose = [&](size_t r, size_t link, double position[3], double xyzw[4]) {
    for (int k = 0; k < 3; ++k) position[k] = batch_poses.Array(kPoseArrays * link + k)[r];
    for (int k = 0; k < 4; ++k) xyzw[k] = batch_poses.Array(kPoseArrays * link + 3 + k)[r];
  };
  const auto check = [&](const char* peer, size_t r, size_t link, const double position[3],
                         const double xyzw[4]) {
    double batch_position[3], batch_xyzw[4];
    batch_pose(r, link, batch_position, batch_xyzw);
    const PoseError error = Difference(batch_position, batch_xyzw, position, xyzw);
    if (!(error.metres <= kCheckMetres && error.radians <= kCheckRadians)) {
      Die(std::string(peer) + " and swarm differ at robot " + std::to_string(r) + ", link '" +
          robot.model.links[link] + "': " + std::to_string(error.metres) + " m, " +
          std::to_string(error.radians) + " rad (allowed " + std::to_string(kCheckMetres) + " m, " +
          std::to_string(kCheckRadians) + " rad)");
    }
  };
  Glm(pool);
  for (size_t r = 0; r < robots_; ++r) {
    for (size_t link = 0; link < links; ++link) {
      const GlmPose& pose = glm_poses_[r * links + link];
      const double position[3] = {pose.translation.x, pose.translation.y, pose.translation.z};
      const double xyzw[4] = {pose.rotation.x, pose.rotation.y, pose.rotation.z, pose.rotation.w};
      check("the glm loop", r, link, position, xyzw);
    }
  }
#if SWARM_BENCH_HAVE_MUJOCO
  if (robot.has_mujoco()) {
    Mujoco(pool);
    const size_t bodies = robot.mujoco->body_count();
    for (size_t r = 0; r < robots_; ++r) {
      for (size_t body = 0; body < bodies; ++body) {
        const double* pose = mujoco_poses_.data() + (r * bodies + body) * kMujocoPoseValues;
        const double xyzw[4] = {pose[4], pose[5], pose[6], pose[3]};
        check("MuJoCo", r, robot.link_of_body[body], pose, xyzw);
      }
    }
  }
#endif
}

// A batch stepping toward seeded joint targets, with seeded reachable end-effector goals (the
// end-effector poses of other seeded configurations) for IK.
class ControlWorkspace {
 public:
  explicit ControlWorkspace(size_t robots) : robots_(robots) {
    const Robot& robot = TheRobot();
    Result<RobotBatch> created = RobotBatch::Create(memory_, robot.model, robots);
    if (!created.ok()) Die(created.status().message());
    batch_ = std::move(created).value();
    ThreadPool pool(2);
    Fill(batch_.q(), 2);
    batch_.ForwardKinematics(pool);
    const LanesView poses = batch_.link_poses();
    const LanesView goal = batch_.target_pose();
    for (size_t k = 0; k < kPoseArrays; ++k) {
      std::memcpy(goal.Array(k), poses.Array(kPoseArrays * batch_.end_effector() + k),
                  robots * sizeof(float));
    }
    Fill(batch_.q(), 0);
    Fill(batch_.q_target(), 1);
    batch_.ForwardKinematics(pool);
  }
  ControlWorkspace(const ControlWorkspace&) = delete;
  ControlWorkspace& operator=(const ControlWorkspace&) = delete;

  size_t count() const { return robots_; }
  void ControlStep(ThreadPool& pool) { Check(batch_.ControlStep(pool, kDtSeconds)); }
  void IkStep(ThreadPool& pool) { batch_.IkStep(pool); }

 private:
  // Joint values of salt `salt`, halved so they start inside every UR-class limit.
  void Fill(const LanesView& view, uint32_t salt) {
    for (size_t column = 0; column < view.arrays; ++column) {
      float* array = view.Array(column);
      for (size_t r = 0; r < robots_; ++r) array[r] = 0.5f * JointValue(r, column, salt);
    }
  }

  size_t robots_;
  MemoryAccountant memory_;
  RobotBatch batch_;
};

FkWorkspace& FkFor(const benchmark::State& state) {
  CurrentWorkspace<ControlWorkspace>().reset();
  return WorkspaceFor<FkWorkspace>(state);
}
ControlWorkspace& ControlFor(const benchmark::State& state) {
  CurrentWorkspace<FkWorkspace>().reset();
  return WorkspaceFor<ControlWorkspace>(state);
}

void ReportEvaluations(benchmark::State& state, size_t robots) {
  const double evaluations = static_cast<double>(robots) * static_cast<double>(state.iterations());
  state.counters["M_evals_per_second"] =
      benchmark::Counter(evaluations * 1e-6, benchmark::Counter::kIsRate);
  state.counters["ns_per_robot"] = benchmark::Counter(
      evaluations * 1e-9, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void ReportSteps(benchmark::State& state, size_t robots) {
  ReportEvaluations(state, robots);
  state.counters["ms_per_step"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * 1e-3,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

template <class Pass>
void FkBenchmark(benchmark::State& state, const Pass& pass) {
  FkWorkspace& workspace = FkFor(state);
  TimePasses(state, [&] { pass(workspace); });
  ReportEvaluations(state, workspace.count());
}

void RegisterAll(const Options& options, Pools& pools) {
  const bool mujoco = TheRobot().has_mujoco();
  for (const uint64_t robots : kRobotCounts) {
    if (robots > options.max_robots) continue;
    const Plan plan = PlanFor(options.rounds, robots, kMemoryCount, kLargeCount);
    for (uint64_t round = 0; round < plan.rounds; ++round) {
      for (const int threads : {1, 2}) {
        ThreadPool& pool = pools.For(threads);
        Register("fk_batch", robots, threads, round, plan, [&pool](benchmark::State& state) {
          FkBenchmark(state, [&](FkWorkspace& w) { w.Batch(pool); });
        });
        if (threads == 1) {
          Register("fk_kernel", robots, threads, round, plan, [](benchmark::State& state) {
            FkBenchmark(state, [](FkWorkspace& w) { w.Kernel(); });
          });
          Register("fk_reference", robots, threads, round, plan, [](benchmark::State& state) {
            FkBenchmark(state, [](FkWorkspace& w) { w.Reference(); });
          });
        }
        Register("fk_glm", robots, threads, round, plan, [&pool](benchmark::State& state) {
          FkBenchmark(state, [&](FkWorkspace& w) { w.Glm(pool); });
        });
#if SWARM_BENCH_HAVE_MUJOCO
        if (mujoco) {
          Register("fk_mujoco", robots, threads, round, plan, [&pool](benchmark::State& state) {
            FkBenchmark(state, [&](FkWorkspace& w) { w.Mujoco(pool); });
          });
        }
#else
        (void)mujoco;
#endif
      }
    }
  }
  const uint64_t robots = options.control_robots;
  const Plan plan = PlanFor(options.rounds, robots, kMemoryCount, kLargeCount);
  for (uint64_t round = 0; round < plan.rounds; ++round) {
    for (const int threads : {1, 2}) {
      ThreadPool& pool = pools.For(threads);
      Register("control_step", robots, threads, round, plan, [&pool](benchmark::State& state) {
        ControlWorkspace& workspace = ControlFor(state);
        TimePasses(state, [&] { workspace.ControlStep(pool); });
        ReportSteps(state, workspace.count());
      });
      Register("ik_step", robots, threads, round, plan, [&pool](benchmark::State& state) {
        ControlWorkspace& workspace = ControlFor(state);
        TimePasses(state, [&] { workspace.IkStep(pool); });
        ReportSteps(state, workspace.count());
      });
    }
  }
}

std::string Verdict(bool met) { return met ? "met" : "MISSED"; }

void PrintTables(const std::map<RunKey, double>& best, const Options& options) {
  const Robot& robot = TheRobot();
  // Million robot evaluations per second of (name, robots, threads), 0 if it did not run.
  const auto rate = [&](const char* name, uint64_t robots, int threads) {
    const auto it = best.find({name, robots, threads});
    return it == best.end() ? 0.0 : static_cast<double>(robots) / it->second * 1e-6;
  };
  const auto ratio = [](double a, double b) { return b > 0.0 ? a / b : 0.0; };
  std::printf(
      "\n%s: forward kinematics of every link of '%s' (%zu links, %zu dof) from %s, "
      "M robot evaluations/s, best round, SIMD %s (%s); MuJoCo: %s\n",
      kProgram, robot.model.name.c_str(), robot.tree.link_count(), robot.model.dof(),
      options.urdf.c_str(), ActiveSimdTarget().name.c_str(), ActiveSimdTarget().hwy_name.c_str(),
      robot.mujoco_status.c_str());
  // Other work on the machine slows every row; the load average says how much there was.
  double load[3] = {0.0, 0.0, 0.0};
  if (getloadavg(load, 3) == 3) {
    std::printf("load average at the end: %.2f (1 min), %.2f (5 min) on %u hardware threads\n",
                load[0], load[1], std::thread::hardware_concurrency());
  }
  std::printf("%9s %3s %9s %9s %9s %9s %9s %11s %11s  %s\n", "robots", "thr", "batch", "kernel",
              "reference", "glm", "mujoco", "batch/mujo", "batch/ref", "targets (1 thread)");
  int missed = 0;
  for (const uint64_t robots : kRobotCounts) {
    for (const int threads : {1, 2}) {
      const double batch = rate("fk_batch", robots, threads);
      if (batch == 0.0) continue;
      const double kernel = rate("fk_kernel", robots, threads);
      const double reference = rate("fk_reference", robots, 1);
      const double glm = rate("fk_glm", robots, threads);
      const double mujoco = rate("fk_mujoco", robots, threads);
      std::string targets;
      if (threads == 1 && robots >= kTargetFromRobots) {
        const bool fast = batch * 1e6 >= kTargetEvalsPerSecond;
        missed += !fast;
        targets = ">= 45 M/s: " + Verdict(fast);
        if (robot.has_mujoco()) {
          const bool ratio_met = ratio(batch, mujoco) >= kTargetMujocoRatio;
          missed += !ratio_met;
          targets += "; >= 30x MuJoCo: " + Verdict(ratio_met);
        } else {
          targets += "; >= 30x MuJoCo: no MuJoCo rows";
        }
      }
      const auto cell = [](double value) {
        char text[32];
        if (value > 0.0) {
          std::snprintf(text, sizeof(text), "%9.2f", value);
        } else {
          std::snprintf(text, sizeof(text), "%9s", "-");
        }
        return std::string(text);
      };
      const auto ratio_cell = [](double value) {
        char text[32];
        if (value > 0.0) {
          std::snprintf(text, sizeof(text), "%10.1fx", value);
        } else {
          std::snprintf(text, sizeof(text), "%11s", "-");
        }
        return std::string(text);
      };
      std::printf("%9llu %3d %s %s %s %s %s %s %s  %s\n", static_cast<unsigned long long>(robots),
                  threads, cell(batch).c_str(), cell(threads == 1 ? kernel : 0.0).c_str(),
                  cell(threads == 1 ? reference : 0.0).c_str(), cell(glm).c_str(),
                  cell(mujoco).c_str(), ratio_cell(ratio(batch, mujoco)).c_str(),
                  ratio_cell(ratio(batch, threads == 1 ? reference : 0.0)).c_str(),
                  targets.c_str());
    }
  }
  std::printf(
      "2-thread rows: the batch runs on one thread below 8,192 robots (RobotBatchConfig's "
      "schedule gives each thread at least 4,096), the per-robot loops from 1,000 robots on use "
      "two; batch/mujo at 2 threads "
      "compares the two 2-thread rates.\n");

  const uint64_t robots = options.control_robots;
  std::printf("\ncontrol, %llu robots (ms per step, best round; M robot-steps/s):\n",
              static_cast<unsigned long long>(robots));
  for (const char* name : {"control_step", "ik_step"}) {
    double ms[2] = {0.0, 0.0};
    for (const int threads : {1, 2}) {
      const auto it = best.find({name, robots, threads});
      if (it != best.end()) ms[threads - 1] = it->second * 1e3;
    }
    std::string target;
    if (std::string(name) == "control_step") {
      const bool met = ms[1] > 0.0 && ms[1] <= kTargetControlMs;
      if (robots == 100'000) {
        missed += !met;
        target = "  target <= 10 ms on 2 threads: " + Verdict(met);
      }
    }
    const double n = static_cast<double>(robots);
    std::printf("  %-13s 1 thread %8.3f ms (%7.1f M/s)   2 threads %8.3f ms (%7.1f M/s)%s\n", name,
                ms[0], ms[0] > 0 ? n / ms[0] * 1e-3 : 0.0, ms[1],
                ms[1] > 0 ? n / ms[1] * 1e-3 : 0.0, target.c_str());
  }
  std::printf("\ntargets missed: %d\n", missed);
}

// The memory of a batch of the control size, from a fresh accountant.
void PrintMemory(const Options& options) {
  MemoryAccountant memory;
  Result<RobotBatch> batch = RobotBatch::Create(memory, TheRobot().model, options.control_robots);
  if (!batch.ok()) Die(batch.status().message());
  std::printf("\nmemory of a batch of %llu robots: %s allocated, %.1f bytes per robot\n%s\n",
              static_cast<unsigned long long>(options.control_robots),
              FormatBytes(batch->allocated_bytes()).c_str(), batch->BytesPerRobot(),
              memory.Report().c_str());
}

}  // namespace
}  // namespace swarm::bench

int main(int argc, char** argv) {
  using swarm::bench::kLargeCount;
  swarm::bench::Options options;
  swarm::FlagSet flags(swarm::bench::kProgram,
                       "Batched robot forward kinematics vs per-robot loops and MuJoCo, and "
                       "control/IK steps, 1 and 2 threads. Also accepts Google Benchmark's "
                       "--benchmark_* flags.");
  flags.AddString("urdf", &options.urdf, "robot description (MuJoCo needs one without meshes)");
  flags.AddCount("max-robots", &options.max_robots, 1, kLargeCount,
                 "largest robot count of the FK rows (1 .. 1e6)");
  flags.AddCount("control-robots", &options.control_robots, 1, 10'000'000,
                 "robots of the control and IK rows");
  swarm::bench::AddRoundFlags(flags, options.rounds, "R < 1e5", "1e5 <= R < 1e6", "R = 1e6");
  AddSimdFlag(flags, &options.simd, " (swarm only)");
  swarm::bench::StartBenchmark(swarm::bench::kProgram, flags, &argc, argv, &options.simd);
  swarm::bench::LoadRobot(options);
  benchmark::AddCustomContext("robot_urdf", options.urdf);
  benchmark::AddCustomContext("mujoco", swarm::bench::TheRobot().mujoco_status);
  std::printf("%s: MuJoCo rows: %s\n", swarm::bench::kProgram,
              swarm::bench::TheRobot().mujoco_status.c_str());
  {
    swarm::ThreadPool pool(2);
    swarm::bench::FkWorkspace check(swarm::bench::kCheckRobots);
    check.CheckResults(pool);
  }
  swarm::bench::Pools pools;
  swarm::bench::RegisterAll(options, pools);
  swarm::bench::BestRoundReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  swarm::bench::CurrentWorkspace<swarm::bench::FkWorkspace>().reset();
  swarm::bench::CurrentWorkspace<swarm::bench::ControlWorkspace>().reset();
  swarm::bench::PrintTables(reporter.best, options);
  swarm::bench::PrintMemory(options);
  benchmark::Shutdown();
  return 0;
}
