// swarm-bench-interactions: one step of an interacting particle system (ParticleSystem::Step with
// ParticleConfig::interaction), 1 and 2 threads, in the configurations of the particle demo's
// scenes at the counts and below:
//   granular  200,000 grains (6 substeps per step: a tenth of the contact time each), a sand
//             dump settling on the floor;
//   fluid     100,000 particles, Position Based Fluids with 4 iterations, a dam break;
//   flock     250,000 boids with ~30 in view.
// Each system is created once per N and stepped kWarmUpSteps times before timing, so the
// particles have left their initial lattice (or random) layout; a timed step is the whole step:
// the grid, the sort into cell order and the neighbour lists (each step; granular: whenever the
// grains have moved the lists' skin apart), the model's passes and the integration, per substep.
// Counters: ms_per_step, particles_per_second, and in the table the bytes per particle of the
// whole system (state, grid, model arrays) from its memory accountant.
//
//   swarm-bench-interactions --max-particles=2.5e5 --rounds=3 --simd=auto
//       --benchmark_out=bench/results/interactions.json --benchmark_out_format=json
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "bench/bench_common.h"
#include "bench/best_round_reporter.h"
#include "demos/command_line/flags.h"
#include "demos/command_line/runtime_flags.h"
#include "swarm/core/memory.h"
#include "swarm/core/simd.h"
#include "swarm/core/thread_pool.h"
#include "swarm/particles/interaction_presets.h"
#include "swarm/particles/particle_system.h"

namespace swarm::bench {
namespace {

constexpr const char* kProgram = "swarm-bench-interactions";
constexpr float kStepSeconds = 1.0f / 60.0f;
constexpr int kWarmUpSteps = 30;
constexpr const char* kModels[] = {"granular", "fluid", "flock"};
// The count for each model, and the smaller counts measured below it.
constexpr uint64_t kTargetCounts[] = {200'000, 100'000, 250'000};
constexpr uint64_t kCounts[] = {10'000, 30'000, 100'000, 200'000, 250'000};

struct Options {
  uint64_t max_particles = 250'000;
  RoundOptions rounds;
  std::string simd = "auto";
};

[[noreturn]] void Die(const std::string& message) { Fail(kProgram, message); }

// The demo's scenes (swarm/particles/interaction_presets.h) in its 20 m box.
ParticleConfig ConfigFor(const std::string& model, uint64_t particles) {
  const BoxParams box{{-10.0f, 0.0f, -10.0f}, {10.0f, 20.0f, 10.0f}, 0.5f, 0.05f};
  if (model == "granular") return SandDumpPreset(box, particles);
  if (model == "fluid") return DamBreakPreset(box, particles);
  return FlockPreset(box, particles);
}

class Workspace {
 public:
  Workspace(const std::string& model, uint64_t count) : model_(model), count_(count) {
    Result<ParticleSystem> created =
        ParticleSystem::Create(memory_, count, ConfigFor(model, count));
    if (!created.ok()) Die(created.status().message());
    system_ = std::move(created).value();
    ThreadPool pool(2);
    for (int step = 0; step < kWarmUpSteps; ++step) Step(pool);
  }
  const std::string& model() const { return model_; }
  uint64_t count() const { return count_; }
  void Step(ThreadPool& pool) {
    if (Status s = system_.Step(kStepSeconds, pool); !s.ok()) Die(s.message());
  }
  double bytes_per_particle() const {
    return static_cast<double>(memory_.Total().bytes_in_use) / static_cast<double>(count_);
  }
  double neighbors() const { return system_.interactions().stats().average_neighbors; }

 private:
  std::string model_;
  uint64_t count_;
  MemoryAccountant memory_;
  ParticleSystem system_;
};

std::unique_ptr<Workspace>& Current() {
  static std::unique_ptr<Workspace> workspace;
  return workspace;
}

Workspace& WorkspaceFor(const std::string& model, uint64_t count) {
  std::unique_ptr<Workspace>& workspace = Current();
  if (!workspace || workspace->model() != model || workspace->count() != count) {
    workspace.reset();
    workspace = std::make_unique<Workspace>(model, count);
  }
  return *workspace;
}

std::map<std::pair<std::string, uint64_t>, std::pair<double, double>>& Facts() {
  static std::map<std::pair<std::string, uint64_t>, std::pair<double, double>> facts;
  return facts;
}

void RegisterAll(const Options& options, Pools& pools) {
  for (size_t m = 0; m < 3; ++m) {
    const std::string model = kModels[m];
    for (const uint64_t count : kCounts) {
      if (count > kTargetCounts[m] || count > options.max_particles) continue;
      const Plan plan = PlanFor(options.rounds, count, UINT64_MAX, UINT64_MAX);
      for (uint64_t round = 0; round < plan.rounds; ++round) {
        for (const int threads : {1, 2}) {
          ThreadPool& pool = pools.For(threads);
          Register(
              model + "_step", count, threads, round, plan,
              [model, count, &pool](benchmark::State& state) {
                Workspace& workspace = WorkspaceFor(model, count);
                TimePasses(state, [&] { workspace.Step(pool); });
                Facts()[{model, count}] = {workspace.bytes_per_particle(), workspace.neighbors()};
                state.counters["ms_per_step"] =
                    benchmark::Counter(static_cast<double>(state.iterations()) * 1e-3,
                                       benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
                state.counters["particles_per_second"] = benchmark::Counter(
                    static_cast<double>(count) * static_cast<double>(state.iterations()),
                    benchmark::Counter::kIsRate);
              });
        }
      }
    }
  }
}

void PrintTable(const std::map<RunKey, double>& best) {
  std::printf("\n%s: best round, SIMD %s; ms per step of 1/60 s (all substeps)\n", kProgram,
              ActiveSimdTarget().name.c_str());
  std::printf("%-9s %9s %11s %11s %14s %12s\n", "model", "N", "1 thread", "2 threads", "neighbours",
              "B/particle");
  for (size_t m = 0; m < 3; ++m) {
    for (const uint64_t count : kCounts) {
      const auto one = best.find({std::string(kModels[m]) + "_step", count, 1});
      const auto two = best.find({std::string(kModels[m]) + "_step", count, 2});
      if (one == best.end() || two == best.end()) continue;
      const auto facts = Facts()[{kModels[m], count}];
      std::printf("%-9s %9llu %11.2f %11.2f %14.1f %12.0f\n", kModels[m],
                  static_cast<unsigned long long>(count), one->second * 1e3, two->second * 1e3,
                  facts.second, facts.first);
    }
  }
}

}  // namespace
}  // namespace swarm::bench

int main(int argc, char** argv) {
  swarm::bench::Options options;
  swarm::FlagSet flags(swarm::bench::kProgram,
                       "One step of granular, fluid and flocking particle systems, 1 and 2 "
                       "threads. Also accepts Google Benchmark's --benchmark_* flags.");
  flags.AddCount("max-particles", &options.max_particles, 10'000, 250'000,
                 "largest N to run (1e4 always runs)");
  flags.AddCount("rounds", &options.rounds.rounds, 1, 100, "interleaved rounds");
  flags.AddNumber("min-time", &options.rounds.min_time_seconds, 0.001, 60.0,
                  "minimum timed seconds per run");
  AddSimdFlag(flags, &options.simd);
  swarm::bench::StartBenchmark(swarm::bench::kProgram, flags, &argc, argv, &options.simd);
  swarm::bench::Pools pools;
  swarm::bench::RegisterAll(options, pools);
  swarm::bench::BestRoundReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  swarm::bench::PrintTable(reporter.best);
  benchmark::Shutdown();
  swarm::bench::Current().reset();
  return 0;
}
