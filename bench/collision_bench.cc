// swarm-bench-collision: the narrow phase alone (swarm/kernels/collision/narrow_phase.h), pair
// type by pair type, in pairs per second on one core: CollideShapes over N lanes (--lanes,
// default 4096: one robot tile's worth, in cache) at random poses near contact, against MuJoCo
// 2.2.2's collision function for the same pair (mjCOLLISIONFUNC, bench/mujoco_collision.h) called
// once per pose over the same poses.
//
// The table prints M pairs/s for swarm and MuJoCo and their ratio.
//
//   swarm-bench-collision --lanes=4096 --rounds=3 --min-time=0.2
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "bench/bench_common.h"
#include "bench/bench_lanes.h"
#include "bench/bench_start.h"
#include "bench/best_round_reporter.h"
#include "demos/command_line/flags.h"
#include "demos/command_line/runtime_flags.h"
#include "swarm/core/simd.h"
#include "swarm/kernels/collision/narrow_phase.h"

#if SWARM_BENCH_HAVE_MUJOCO
#include "bench/mujoco_collision.h"
#endif

namespace swarm::bench {
namespace {

constexpr const char* kProgram = "swarm-bench-collision";
constexpr float kMargin = 0.01f;

struct Options {
  uint64_t lanes = 4096;
  RoundOptions rounds{3, 0.2, 3, 0.2, 3};
  std::string simd = "auto";
};

struct PairCase {
  std::string name;
  ShapeGeometry a, b;
};

// A heightfield of 64 x 64 random heights up to 5 cm over 4 m x 4 m (6.3 cm cells), centred where
// the poses put plane-like shapes.
const ShapeGeometry& Terrain() {
  static const std::vector<float> heights = [] {
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> height(0.0f, 0.05f);
    std::vector<float> out(64 * 64);
    for (float& h : out) h = height(rng);
    return out;
  }();
  static const ShapeGeometry shape = [] {
    ShapeGeometry field = ShapeOf(ShapeType::kHeightfield, 2.0f, 2.0f, 0.1f);
    field.heights = heights.data();
    field.rows = field.columns = 64;
    field.top = 0.05f;
    return field;
  }();
  return shape;
}

std::vector<PairCase> Cases() {
  const ShapeGeometry plane = ShapeOf(ShapeType::kPlane, 0);
  const ShapeGeometry field = Terrain();
  const ShapeGeometry sphere = ShapeOf(ShapeType::kSphere, 0.03f);
  const ShapeGeometry capsule = ShapeOf(ShapeType::kCapsule, 0.04f, 0.1f);
  const ShapeGeometry cylinder = ShapeOf(ShapeType::kCylinder, 0.05f, 0.08f);
  const ShapeGeometry box = ShapeOf(ShapeType::kBox, 0.1f, 0.08f, 0.06f);
  return {{"plane-sphere", plane, sphere},
          {"plane-capsule", plane, capsule},
          {"plane-cylinder", plane, cylinder},
          {"plane-box", plane, box},
          {"hfield-sphere", field, sphere},
          {"hfield-capsule", field, capsule},
          {"hfield-cylinder", field, cylinder},
          {"hfield-box", field, box},
          {"sphere-sphere", sphere, sphere},
          {"sphere-capsule", sphere, capsule},
          {"sphere-cylinder", sphere, cylinder},
          {"sphere-box", sphere, box},
          {"capsule-capsule", capsule, capsule},
          {"capsule-box", capsule, box},
          {"box-box", box, box}};
}

// Frames of one shape per lane: a random rotation (normalised Gaussian quaternion) and a centre;
// b's centre within 0.05 to 0.25 m of a's (a plane: within 0.1 m above or below it; a heightfield,
// level at the origin: at random x, y over it, 0 to 0.1 m above z = 0).
struct Poses {
  Lanes a, b;
};

void RandomFrame(std::mt19937& rng, const double centre[3], LanesView frames, size_t lane) {
  std::normal_distribution<double> gauss;
  double q[4], norm = 0;
  for (double& v : q) {
    v = gauss(rng);
    norm += v * v;
  }
  norm = std::sqrt(norm);
  const double x = q[0] / norm, y = q[1] / norm, z = q[2] / norm, w = q[3] / norm;
  const double rotation[9] = {
      1 - 2 * (y * y + z * z), 2 * (x * y - z * w),     2 * (x * z + y * w),
      2 * (x * y + z * w),     1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
      2 * (x * z - y * w),     2 * (y * z + x * w),     1 - 2 * (x * x + y * y)};
  for (size_t k = 0; k < 3; ++k) frames.Array(k)[lane] = static_cast<float>(centre[k]);
  for (size_t k = 0; k < 9; ++k) frames.Array(3 + k)[lane] = static_cast<float>(rotation[k]);
}

Poses MakePoses(const PairCase& pair, size_t lanes) {
  Poses poses{MakeLanes(lanes, kShapeFrameArrays), MakeLanes(lanes, kShapeFrameArrays)};
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0), reach(0.05, 0.25);
  for (size_t lane = 0; lane < lanes; ++lane) {
    if (pair.a.type == ShapeType::kHeightfield) {
      for (size_t k = 0; k < kShapeFrameArrays; ++k) {
        poses.a.view.Array(k)[lane] = k == 3 || k == 7 || k == 11 ? 1.0f : 0.0f;
      }
      const double centre[3] = {1.8 * unit(rng), 1.8 * unit(rng), 0.05 + 0.05 * unit(rng)};
      RandomFrame(rng, centre, poses.b.view, lane);
      continue;
    }
    const double origin[3] = {unit(rng), unit(rng), unit(rng)};
    RandomFrame(rng, origin, poses.a.view, lane);
    double offset[3] = {unit(rng), unit(rng), unit(rng)};
    const double length =
        std::sqrt(offset[0] * offset[0] + offset[1] * offset[1] + offset[2] * offset[2]) + 1e-9;
    const double distance = pair.a.type == ShapeType::kPlane ? 0.1 * unit(rng) : reach(rng);
    double centre[3];
    for (size_t k = 0; k < 3; ++k) {
      const double along = pair.a.type == ShapeType::kPlane ? poses.a.view.Array(5 + 3 * k)[lane]
                                                            : offset[k] / length;
      centre[k] = origin[k] + distance * along;
    }
    RandomFrame(rng, centre, poses.b.view, lane);
  }
  return poses;
}

struct Workspace {
  PairCase pair;
  Poses poses;
  Lanes contacts;
#if SWARM_BENCH_HAVE_MUJOCO
  std::vector<mjContact> found = std::vector<mjContact>(mjMAXCONPAIR);
#endif
};

std::map<std::string, Workspace>& Workspaces() {
  static std::map<std::string, Workspace> workspaces;
  return workspaces;
}

Workspace& WorkspaceOf(const PairCase& pair, size_t lanes) {
  auto it = Workspaces().find(pair.name);
  if (it == Workspaces().end()) {
    const size_t slots = ContactSlotCount(pair.a.type, pair.b.type);
    it = Workspaces()
             .emplace(pair.name, Workspace{pair, MakePoses(pair, lanes),
                                           MakeLanes(lanes, kContactArrays * slots)})
             .first;
  }
  return it->second;
}

std::string MujocoName(const PairCase& pair) { return pair.name + "_mujoco"; }

void RegisterAll(const Options& options) {
  const Plan plan = PlanFor(options.rounds, options.lanes, 1'000'000, 10'000'000);
  for (uint64_t round = 0; round < plan.rounds; ++round) {
    for (const PairCase& pair : Cases()) {
      Register(pair.name, options.lanes, 1, round, plan, [&options, pair](benchmark::State& state) {
        Workspace& w = WorkspaceOf(pair, options.lanes);
        TimePasses(state, [&] {
          CollideShapes(w.pair.a, w.pair.b, w.poses.a.view, w.poses.b.view, kMargin,
                        w.contacts.view);
        });
      });
#if SWARM_BENCH_HAVE_MUJOCO
      Register(MujocoName(pair), options.lanes, 1, round, plan,
               [&options, pair](benchmark::State& state) {
                 Workspace& w = WorkspaceOf(pair, options.lanes);
                 Result<MujocoShapePair> mujoco = MujocoShapePair::Make(w.pair.a, w.pair.b);
                 if (!mujoco.ok()) {
                   state.SkipWithError(mujoco.status().message().c_str());
                   return;
                 }
                 TimePasses(state, [&] {
                   float fa[12], fb[12];
                   int total = 0;
                   for (size_t lane = 0; lane < options.lanes; ++lane) {
                     for (size_t k = 0; k < 12; ++k) {
                       fa[k] = w.poses.a.view.Array(k)[lane];
                       fb[k] = w.poses.b.view.Array(k)[lane];
                     }
                     total += mujoco->Collide(fa, fb, kMargin, w.found.data());
                   }
                   benchmark::DoNotOptimize(total);
                 });
               });
#endif
    }
  }
}

void PrintTable(const std::map<RunKey, double>& best, const Options& options) {
  std::printf("\n%s: narrow phase, %llu poses per pair type, one core, best round, SIMD %s\n",
              kProgram, static_cast<unsigned long long>(options.lanes),
              ActiveSimdTarget().name.c_str());
  std::printf("%-16s %14s %14s %10s\n", "pair", "swarm M/s", "MuJoCo M/s", "x MuJoCo");
  const double n = static_cast<double>(options.lanes);
  for (const PairCase& pair : Cases()) {
    const auto ours = best.find({pair.name, options.lanes, 1});
    const auto theirs = best.find({MujocoName(pair), options.lanes, 1});
    const double rate = ours != best.end() ? n / ours->second * 1e-6 : 0.0;
    const double peer = theirs != best.end() ? n / theirs->second * 1e-6 : 0.0;
    std::printf("%-16s %14.1f %14.2f %10.1f\n", pair.name.c_str(), rate, peer,
                peer > 0 ? rate / peer : 0.0);
  }
}

}  // namespace
}  // namespace swarm::bench

int main(int argc, char** argv) {
  swarm::bench::Options options;
  swarm::FlagSet flags(swarm::bench::kProgram,
                       "The narrow phase per pair type against MuJoCo 2.2.2's collision "
                       "functions, pairs per second on one core. Also accepts Google Benchmark's "
                       "--benchmark_* flags.");
  flags.AddCount("lanes", &options.lanes, 16, 10'000'000, "poses per pair type");
  swarm::bench::AddRoundFlags(flags, options.rounds, "N < 1e6", "1e6 <= N < 1e7", nullptr);
  AddSimdFlag(flags, &options.simd);
  swarm::bench::StartBenchmark(swarm::bench::kProgram, flags, &argc, argv, &options.simd);
  swarm::bench::RegisterAll(options);
  swarm::bench::BestRoundReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  swarm::bench::PrintTable(reporter.best, options);
  swarm::bench::Workspaces().clear();
  benchmark::Shutdown();
  return 0;
}
