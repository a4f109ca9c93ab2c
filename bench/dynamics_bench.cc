// swarm-bench-dynamics: the batched rigid-body dynamics kernels
// (swarm/kernels/robots/dynamics/robot_dynamics.h) next to the per-robot double-precision textbook
// reference and MuJoCo, in one binary so that every ratio comes from one run on one machine state.
//
// For R = 1, 16, 1e3, 1e4, 1e5, 1e6 robots of one model, 1 and 2 threads:
//   rnea_*   inverse dynamics tau = M qdd + h (swarm: InverseDynamics; MuJoCo: mj_kinematics,
//            mj_comPos, mj_comVel, mj_rne)
//   crba_*   the mass matrix and its factorisation (swarm: MassMatrixAndFactor;
//            MuJoCo: mj_kinematics, mj_comPos, mj_crb, mj_factorM)
//   fd_*     forward dynamics qdd = FD(q, qd, tau) (swarm: ForwardDynamics, ABA; MuJoCo:
//            mj_forward with contacts and constraints disabled)
// *_kernel is swarm over SoA lane arrays (two threads take one half of the robots each, with
// their own scratch), *_mujoco MuJoCo 2.2.2 robot after robot over AoS doubles (one mjData per
// thread; only for fixed-base URDFs MuJoCo loads), *_reference the textbook reference
// (swarm/kernels/robots/dynamics/robot_dynamics_reference.h, double, one thread, up to 1e4 robots).
// Rates count robot evaluations per second.
//
// Before anything is timed, 1,000 robots are checked: the kernels against the reference (tau and
// M within 1e-4 of the largest entry, qdd within 1e-3) and MuJoCo against the reference (tau, M,
// qdd within 1e-4), so a wrong result stops the program instead of producing a fast number.
// Rounds interleave (bench/bench_common.h) and the best one counts. The table prints the ratios
// and the targets: per core at R >= 1e4, RNEA >= 30x MuJoCo, CRBA + factorisation and ABA >= 20x.
//
// Pinocchio's published per-core figures (a 7-DoF iiwa on a 3.8 GHz desktop core) print beside
// the tables as a second, cross-hardware reference.
//
//   swarm-bench-dynamics --urdf=assets/robots/ur5.urdf --max-robots=1e6 --rounds=3
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "bench/bench_common.h"
#include "bench/bench_lanes.h"
#include "bench/best_round_reporter.h"
#include "demos/command_line/flags.h"
#include "demos/command_line/runtime_flags.h"
#include "hwy/aligned_allocator.h"
#include "swarm/core/simd.h"
#include "swarm/core/thread_pool.h"
#include "swarm/kernels/robots/dynamics/robot_dynamics.h"
#include "swarm/kernels/robots/dynamics/robot_dynamics_reference.h"
#include "swarm/robots/dynamics_model.h"
#include "swarm/robots/robot_model.h"

#if SWARM_BENCH_HAVE_MUJOCO
#include "bench/dynamics_peer_mujoco.h"
#endif

namespace swarm::bench {
namespace {

constexpr const char* kProgram = "swarm-bench-dynamics";
constexpr uint64_t kRobotCounts[] = {1, 16, 1'000, 10'000, 100'000, 1'000'000};
constexpr uint64_t kMemoryCount = 100'000;
constexpr uint64_t kLargeCount = 1'000'000;
constexpr uint64_t kReferenceMaxRobots = 10'000;
constexpr uint64_t kMujocoMaxRobots = 100'000;
constexpr size_t kPeerSplitRobots = 1'000;
constexpr size_t kCheckRobots = 1'000;
constexpr uint64_t kTargetFromRobots = 10'000;
constexpr float kGravity[3] = {0.0f, 0.0f, -9.81f};
constexpr double kGravityDouble[3] = {0.0, 0.0, -9.81};
constexpr double kPi = 3.14159265358979323846;

// The worst relative error against the double reference over every robot CheckResults compared,
// per algorithm: swarm's float32 kernels and MuJoCo (double), reported beside the speed.
struct WorstErrors {
  double rnea = 0.0, crba = 0.0, aba = 0.0;
  double mujoco_rnea = 0.0, mujoco_crba = 0.0, mujoco_aba = 0.0;
  size_t robots = 0;
};
WorstErrors worst_errors;

struct Options {
  std::string urdf = SWARM_BENCH_DEFAULT_URDF;
  bool floating_base = false;
  uint64_t max_robots = kLargeCount;
  RoundOptions rounds{3, 0.2, 5, 0.05, 3};
  std::string simd = "auto";
};

[[noreturn]] void Die(const std::string& message) { Fail(kProgram, message); }

struct Robot {
  RobotModel model;
  std::unique_ptr<DynamicsModel> dynamics;
  DynamicsTree tree;
  std::string mujoco_status = "not built: CMake found no libmujoco-dev";
#if SWARM_BENCH_HAVE_MUJOCO
  std::unique_ptr<MujocoDynamics> mujoco;
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

void LoadRobot(const Options& options) {
  Robot& robot = TheRobot();
  UrdfOptions urdf_options;
  urdf_options.floating_base = options.floating_base;
  Result<RobotModel> model = LoadUrdfFile(options.urdf, urdf_options);
  if (!model.ok()) Die(model.status().message());
  robot.model = std::move(model).value();
  DynamicsOptions rigid_body_terms;
  rigid_body_terms.joint_friction = false;
  Result<DynamicsModel> dynamics = DynamicsModel::Build(robot.model, rigid_body_terms);
  if (!dynamics.ok()) Die(dynamics.status().message());
  robot.dynamics = std::make_unique<DynamicsModel>(std::move(dynamics).value());
  robot.tree = robot.dynamics->tree();
#if SWARM_BENCH_HAVE_MUJOCO
  if (options.floating_base) {
    robot.mujoco_status = "skipped: the URDF peer has no floating base";
    return;
  }
  Result<std::unique_ptr<MujocoDynamics>> mujoco =
      MujocoDynamics::Load(options.urdf, robot.model.QNames(), 2);
  if (!mujoco.ok()) {
    robot.mujoco_status = "skipped: " + mujoco.status().message();
    return;
  }
  robot.mujoco = std::move(mujoco).value();
  robot.mujoco_status = "MuJoCo 2.2.2";
#endif
}

// The state of robot r: joint values in [-pi, pi), rates in [-2, 2), accelerations in [-5, 5),
// torques in [-10, 10) (a floating base at a seeded position and orientation).
float StateValue(size_t robot, size_t column, uint32_t quantity) {
  const float pattern = Pattern(robot, static_cast<uint32_t>(column + 1 + quantity * 64));
  const float scale[] = {static_cast<float>(kPi), 2.0f, 5.0f, 10.0f};
  return scale[quantity] * pattern;
}

class DynamicsWorkspace {
 public:
  explicit DynamicsWorkspace(size_t robots) : robots_(robots) {
    const DynamicsTree& tree = TheRobot().tree;
    const size_t n = tree.velocity_count(), nq = tree.q_count();
    q_ = MakeLanes(robots, nq), qd_ = MakeLanes(robots, n), qdd_ = MakeLanes(robots, n);
    tau_ = MakeLanes(robots, n), tau_out_ = MakeLanes(robots, n);
    mass_ = MakeLanes(robots, n * n), factor_ = MakeLanes(robots, n * n);
    qdd_out_ = MakeLanes(robots, n);
    for (size_t t = 0; t < 2; ++t) {
      scratch_[t] = hwy::AllocateAligned<float>(RobotDynamicsScratchFloats(tree));
    }
    const LanesView* inputs[] = {&q_.view, &qd_.view, &qdd_.view, &tau_.view};
    for (uint32_t quantity = 0; quantity < 4; ++quantity) {
      const LanesView& view = *inputs[quantity];
      for (size_t a = 0; a < view.arrays; ++a) {
        for (size_t r = 0; r < robots; ++r) view.Array(a)[r] = StateValue(r, a, quantity);
      }
    }
    if (robots <= kMujocoMaxRobots) {
      q_aos_ = Aos(q_.view), qd_aos_ = Aos(qd_.view), qdd_aos_ = Aos(qdd_.view);
      tau_aos_ = Aos(tau_.view);
      out_aos_.resize(robots * n * n);
    }
  }
  DynamicsWorkspace(const DynamicsWorkspace&) = delete;
  DynamicsWorkspace& operator=(const DynamicsWorkspace&) = delete;
  size_t count() const { return robots_; }

  void Rnea(ThreadPool& pool) {
    Blocks(pool, [&](size_t begin, size_t n, float* scratch) {
      InverseDynamics(TheRobot().tree, kGravity, Slice(q_, begin, n), Slice(qd_, begin, n),
                      Slice(qdd_, begin, n), Slice(tau_out_, begin, n), scratch);
    });
  }
  void Crba(ThreadPool& pool) {
    Blocks(pool, [&](size_t begin, size_t n, float* scratch) {
      MassMatrixAndFactor(TheRobot().tree, Slice(q_, begin, n), Slice(mass_, begin, n),
                          Slice(factor_, begin, n), scratch);
    });
  }
  void Forward(ThreadPool& pool) {
    Blocks(pool, [&](size_t begin, size_t n, float* scratch) {
      ForwardDynamics(TheRobot().tree, kGravity, Slice(q_, begin, n), Slice(qd_, begin, n),
                      Slice(tau_, begin, n), Slice(qdd_out_, begin, n), scratch);
    });
  }
  // Robot after robot over AoS doubles; outputs discarded after a checksum the compiler keeps.
  void Reference(int which) {
    const DynamicsTree& tree = TheRobot().tree;
    const size_t n = tree.velocity_count(), nq = tree.q_count();
    double sum = 0.0;
    for (size_t r = 0; r < robots_; ++r) {
      const double* q = q_aos_.data() + r * nq;
      const double* qd = qd_aos_.data() + r * n;
      std::vector<double> out =
          which == 0   ? reference::RobotInverseDynamics(tree, kGravityDouble, q, qd,
                                                         qdd_aos_.data() + r * n)
          : which == 1 ? reference::RobotMassMatrix(tree, q)
                       : reference::RobotForwardDynamics(tree, kGravityDouble, q, qd,
                                                         tau_aos_.data() + r * n);
      sum += out[0];
    }
    benchmark::DoNotOptimize(sum);
  }
#if SWARM_BENCH_HAVE_MUJOCO
  void Mujoco(ThreadPool& pool, int which) {
    MujocoDynamics& mujoco = *TheRobot().mujoco;
    const size_t n = mujoco.dof();
    const size_t blocks = pool.num_threads() >= 2 && robots_ >= kPeerSplitRobots ? 2 : 1;
    pool.ParallelFor(blocks, [&](size_t block) {
      const size_t begin = robots_ * block / blocks;
      const size_t count = robots_ * (block + 1) / blocks - begin;
      const double* q = q_aos_.data() + begin * n;
      const double* qd = qd_aos_.data() + begin * n;
      double* out = out_aos_.data() + begin * n;
      if (which == 0) mujoco.InverseDynamics(q, qd, qdd_aos_.data() + begin * n, count, out, block);
      if (which == 1) mujoco.MassMatrix(q, count, nullptr, block);
      if (which == 2) mujoco.ForwardDynamics(q, qd, tau_aos_.data() + begin * n, count, out, block);
    });
  }
#endif

  void CheckResults(ThreadPool& pool);

 private:
  static ConstLanesView Slice(const Lanes& lanes, size_t begin, size_t n) {
    return lanes.view.Slice(begin, n);
  }
  static LanesView Slice(Lanes& lanes, size_t begin, size_t n) {
    return lanes.view.Slice(begin, n);
  }
  std::vector<double> Aos(const LanesView& view) const {
    std::vector<double> values(robots_ * view.arrays);
    for (size_t r = 0; r < robots_; ++r) {
      for (size_t a = 0; a < view.arrays; ++a) values[r * view.arrays + a] = view.Array(a)[r];
    }
    return values;
  }
  // pass(begin, n, scratch) over the robots: one call, or two halves (on vector boundaries).
  template <class Pass>
  void Blocks(ThreadPool& pool, const Pass& pass) {
    const size_t blocks = pool.num_threads() >= 2 && robots_ >= kPeerSplitRobots ? 2 : 1;
    pool.ParallelFor(blocks, [&](size_t block) {
      const size_t vectors = RoundUpToVector<float>(robots_) / kPadFloats;
      const size_t begin = std::min(robots_, vectors * block / blocks * kPadFloats);
      const size_t end = std::min(robots_, vectors * (block + 1) / blocks * kPadFloats);
      if (end > begin) pass(begin, end - begin, scratch_[block].get());
    });
  }

  size_t robots_;
  Lanes q_, qd_, qdd_, tau_, tau_out_, mass_, factor_, qdd_out_;
  hwy::AlignedFreeUniquePtr<float[]> scratch_[2];
  std::vector<double> q_aos_, qd_aos_, qdd_aos_, tau_aos_, out_aos_;
};

// max |got - want| / max(max |want|, floor) over one robot's values.
double RelativeError(const double* got, const std::vector<double>& want, double floor = 1.0) {
  double scale = floor, error = 0.0;
  for (size_t k = 0; k < want.size(); ++k) {
    scale = std::max(scale, std::fabs(want[k]));
    error = std::max(error, std::fabs(got[k] - want[k]));
  }
  return error / scale;
}

void DynamicsWorkspace::CheckResults(ThreadPool& pool) {
  const DynamicsTree& tree = TheRobot().tree;
  const size_t n = tree.velocity_count(), nq = tree.q_count();
  Rnea(pool);
  Crba(pool);
  Forward(pool);
  const auto robot_values = [&](const LanesView& view, size_t r) {
    std::vector<double> values(view.arrays);
    for (size_t a = 0; a < view.arrays; ++a) values[a] = view.Array(a)[r];
    return values;
  };
  const auto check = [&](const char* what, double error, double allowed, size_t r, double& worst) {
    worst = std::max(worst, error);
    if (!(error <= allowed)) {
      Die(std::string(what) + " differs from the reference at robot " + std::to_string(r) + ": " +
          std::to_string(error) + " relative (allowed " + std::to_string(allowed) + ")");
    }
  };
  std::vector<std::vector<double>> want_tau(robots_), want_mass(robots_), want_qdd(robots_);
  for (size_t r = 0; r < robots_; ++r) {
    const double* q = q_aos_.data() + r * nq;
    const double* qd = qd_aos_.data() + r * n;
    want_tau[r] =
        reference::RobotInverseDynamics(tree, kGravityDouble, q, qd, qdd_aos_.data() + r * n);
    want_mass[r] = reference::RobotMassMatrix(tree, q);
    want_qdd[r] =
        reference::RobotForwardDynamics(tree, kGravityDouble, q, qd, tau_aos_.data() + r * n);
    check("swarm's RNEA", RelativeError(robot_values(tau_out_.view, r).data(), want_tau[r]), 1e-4,
          r, worst_errors.rnea);
    check("swarm's CRBA", RelativeError(robot_values(mass_.view, r).data(), want_mass[r], 1e-12),
          1e-4, r, worst_errors.crba);
    check("swarm's ABA", RelativeError(robot_values(qdd_out_.view, r).data(), want_qdd[r]), 1e-3, r,
          worst_errors.aba);
  }
  worst_errors.robots += robots_;
#if SWARM_BENCH_HAVE_MUJOCO
  if (!TheRobot().has_mujoco()) return;
  MujocoDynamics& mujoco = *TheRobot().mujoco;
  std::vector<double> mass(robots_ * n * n);
  mujoco.InverseDynamics(q_aos_.data(), qd_aos_.data(), qdd_aos_.data(), robots_, out_aos_.data(),
                         0);
  for (size_t r = 0; r < robots_; ++r) {
    check("MuJoCo's mj_rne", RelativeError(out_aos_.data() + r * n, want_tau[r]), 1e-4, r,
          worst_errors.mujoco_rnea);
  }
  mujoco.MassMatrix(q_aos_.data(), robots_, mass.data(), 0);
  for (size_t r = 0; r < robots_; ++r) {
    check("MuJoCo's mj_crb", RelativeError(mass.data() + r * n * n, want_mass[r], 1e-12), 1e-4, r,
          worst_errors.mujoco_crba);
  }
  mujoco.ForwardDynamics(q_aos_.data(), qd_aos_.data(), tau_aos_.data(), robots_, out_aos_.data(),
                         0);
  for (size_t r = 0; r < robots_; ++r) {
    check("MuJoCo's mj_forward", RelativeError(out_aos_.data() + r * n, want_qdd[r]), 1e-4, r,
          worst_errors.mujoco_aba);
  }
#endif
}

void ReportEvaluations(benchmark::State& state, size_t robots) {
  const double evaluations = static_cast<double>(robots) * static_cast<double>(state.iterations());
  state.counters["M_evals_per_second"] =
      benchmark::Counter(evaluations * 1e-6, benchmark::Counter::kIsRate);
  state.counters["ns_per_robot"] = benchmark::Counter(
      evaluations * 1e-9, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

template <class Pass>
void Run(benchmark::State& state, const Pass& pass) {
  DynamicsWorkspace& workspace = WorkspaceFor<DynamicsWorkspace>(state);
  TimePasses(state, [&] { pass(workspace); });
  ReportEvaluations(state, workspace.count());
}

const char* const kAlgorithms[] = {"rnea", "crba", "fd"};

void RegisterAll(const Options& options, Pools& pools) {
  for (const uint64_t robots : kRobotCounts) {
    if (robots > options.max_robots) continue;
    const Plan plan = PlanFor(options.rounds, robots, kMemoryCount, kLargeCount);
    for (uint64_t round = 0; round < plan.rounds; ++round) {
      for (const int threads : {1, 2}) {
        ThreadPool& pool = pools.For(threads);
        for (int which = 0; which < 3; ++which) {
          const std::string name = kAlgorithms[which];
          Register(name + "_kernel", robots, threads, round, plan,
                   [&pool, which](benchmark::State& state) {
                     Run(state, [&](DynamicsWorkspace& w) {
                       if (which == 0) w.Rnea(pool);
                       if (which == 1) w.Crba(pool);
                       if (which == 2) w.Forward(pool);
                     });
                   });
          if (threads == 1 && robots <= kReferenceMaxRobots) {
            Register(name + "_reference", robots, threads, round, plan,
                     [which](benchmark::State& state) {
                       Run(state, [&](DynamicsWorkspace& w) { w.Reference(which); });
                     });
          }
#if SWARM_BENCH_HAVE_MUJOCO
          if (TheRobot().has_mujoco() && robots <= kMujocoMaxRobots) {
            Register(name + "_mujoco", robots, threads, round, plan,
                     [&pool, which](benchmark::State& state) {
                       Run(state, [&](DynamicsWorkspace& w) { w.Mujoco(pool, which); });
                     });
          }
#endif
        }
      }
    }
  }
}

void PrintTables(const std::map<RunKey, double>& best, const Options& options) {
  const Robot& robot = TheRobot();
  const auto rate = [&](const std::string& name, uint64_t robots, int threads) {
    const auto it = best.find({name, robots, threads});
    return it == best.end() ? 0.0 : static_cast<double>(robots) / it->second * 1e-6;
  };
  std::printf(
      "\n%s: rigid-body dynamics of '%s' (%zu bodies, %zu velocities%s) from %s, M robot "
      "evaluations/s, best round, SIMD %s (%s); MuJoCo: %s\n",
      kProgram, robot.model.name.c_str(), robot.tree.body_count, robot.tree.velocity_count(),
      robot.tree.floating_base ? ", floating base" : "", options.urdf.c_str(),
      ActiveSimdTarget().name.c_str(), ActiveSimdTarget().hwy_name.c_str(),
      robot.mujoco_status.c_str());
  double load[3] = {0.0, 0.0, 0.0};
  if (getloadavg(load, 3) == 3) {
    std::printf("load average at the end: %.2f (1 min), %.2f (5 min) on %u hardware threads\n",
                load[0], load[1], std::thread::hardware_concurrency());
  }
  const auto cell = [](double value, const char* format) {
    char text[32];
    if (value > 0.0) {
      std::snprintf(text, sizeof(text), format, value);
    } else {
      std::snprintf(text, sizeof(text), "%9s", "-");
    }
    return std::string(text);
  };
  int missed = 0;
  const double target_ratio[] = {30.0, 20.0, 20.0};
  for (int which = 0; which < 3; ++which) {
    const std::string name = kAlgorithms[which];
    std::printf("\n%s (target: >= %.0fx MuJoCo per core at R >= 1e4)\n", name.c_str(),
                target_ratio[which]);
    std::printf("%9s %3s %9s %9s %9s %10s %10s\n", "robots", "thr", "swarm", "reference", "mujoco",
                "swarm/mujo", "swarm/ref");
    for (const uint64_t robots : kRobotCounts) {
      for (const int threads : {1, 2}) {
        const double swarm = rate(name + "_kernel", robots, threads);
        if (swarm == 0.0) continue;
        const double reference = threads == 1 ? rate(name + "_reference", robots, 1) : 0.0;
        const double mujoco = rate(name + "_mujoco", robots, threads);
        std::string verdict;
        if (threads == 1 && robots >= kTargetFromRobots && mujoco > 0.0) {
          const bool met = swarm / mujoco >= target_ratio[which];
          missed += !met;
          verdict = met ? "  met" : "  MISSED";
        }
        std::printf("%9llu %3d %s %s %s %s %s%s\n", static_cast<unsigned long long>(robots),
                    threads, cell(swarm, "%9.2f").c_str(), cell(reference, "%9.3f").c_str(),
                    cell(mujoco, "%9.3f").c_str(),
                    cell(mujoco > 0 ? swarm / mujoco : 0.0, "%9.1fx").c_str(),
                    cell(reference > 0 ? swarm / reference : 0.0, "%9.1fx").c_str(),
                    verdict.c_str());
      }
    }
  }
  const DynamicsTree& tree = robot.tree;
  const size_t n = tree.velocity_count();
  std::printf(
      "\nmemory per robot: q, qd, tau, qdd %zu bytes; the mass matrix %zu bytes; scratch %zu "
      "KiB per thread (any R)\n",
      (tree.q_count() + 3 * n) * sizeof(float), n * n * sizeof(float),
      RobotDynamicsScratchFloats(tree) * sizeof(float) / 1024);
  if (worst_errors.robots > 0) {
    std::printf(
        "accuracy (worst error over the largest entry of the double reference, at least 1 for "
        "tau and qdd; %zu robots): swarm float32 RNEA %.1e, CRBA %.1e, ABA %.1e; MuJoCo (double) "
        "%.1e, %.1e, %.1e\n",
        worst_errors.robots, worst_errors.rnea, worst_errors.crba, worst_errors.aba,
        worst_errors.mujoco_rnea, worst_errors.mujoco_crba, worst_errors.mujoco_aba);
  }
  // Pinocchio's published per-core figures: a 7-DoF KUKA iiwa, one call at a time on one 3.8 GHz
  // desktop core (it batches only by threads), about 0.2 us per RNEA and 0.9 us per ABA. A
  // second reference measured on other hardware, so the ratio is a rough one.
  constexpr double kPinocchioRneaRate = 1.0 / 0.2, kPinocchioAbaRate = 1.0 / 0.9;  // M/s
  const double rnea = rate("rnea_kernel", kTargetFromRobots, 1);
  const double aba = rate("fd_kernel", kTargetFromRobots, 1);
  if (rnea > 0.0 && aba > 0.0) {
    std::printf(
        "\nPinocchio as published (7-DoF iiwa, one 3.8 GHz desktop core): RNEA %.1f M/s, ABA "
        "%.1f M/s; swarm per core at R = 1e4 here (%zu velocities): RNEA %.2f M/s (%.1fx), ABA "
        "%.2f M/s (%.1fx)\n",
        kPinocchioRneaRate, kPinocchioAbaRate, n, rnea, rnea / kPinocchioRneaRate, aba,
        aba / kPinocchioAbaRate);
  }
  std::printf("targets missed: %d\n", missed);
}

}  // namespace
}  // namespace swarm::bench

int main(int argc, char** argv) {
  using swarm::bench::kLargeCount;
  swarm::bench::Options options;
  swarm::FlagSet flags(swarm::bench::kProgram,
                       "Batched rigid-body dynamics (RNEA, CRBA + LTDL, ABA) vs the per-robot "
                       "double reference and MuJoCo, 1 and 2 threads. Also accepts Google "
                       "Benchmark's --benchmark_* flags.");
  flags.AddString("urdf", &options.urdf, "robot description with <inertial> elements");
  flags.AddSwitch("floating-base", &options.floating_base, "the root link moves freely");
  flags.AddCount("max-robots", &options.max_robots, 1, kLargeCount,
                 "largest robot count (1 .. 1e6)");
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
    swarm::bench::DynamicsWorkspace check(swarm::bench::kCheckRobots);
    check.CheckResults(pool);
  }
  swarm::bench::Pools pools;
  swarm::bench::RegisterAll(options, pools);
  swarm::bench::BestRoundReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  swarm::bench::CurrentWorkspace<swarm::bench::DynamicsWorkspace>().reset();
  swarm::bench::PrintTables(reporter.best, options);
  benchmark::Shutdown();
  return 0;
}
