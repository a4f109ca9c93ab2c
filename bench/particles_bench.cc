// swarm-bench-particles: one full particle step (swarm::ParticleSystem::Step) next to STREAM
// triad, in one binary so that the step's share of the memory roofline comes from one run on one
// machine state.
//
//   particle_step  ParticleSystem::Step(1/60 s) with a demo-like configuration: gravity, drag
//                  0.1 /s, the default box [-10, 10] x [0, 20] x [-10, 10], the attractor at the
//                  box centre (strength 50, softening 0.5), a fountain (box) emitter with
//                  lifetimes 1-3 s. Per tile the step runs attractor, Euler, box, ageing and
//                  respawn (swarm/particles/particle_system.h); 1 and 2 threads are ThreadPool(1)
//                  and ThreadPool(2) with the default TileSchedule.
//   stream_triad   a[i] = b[i] + s c[i] over three float arrays of 3 N elements each (36 B per
//                  particle, next to the step's 33 B of state it touches), tiled over the same
//                  pools like bench/integrate_bench.cc's triad; -O3 -march=native (roofline.cc).
//
// Bytes counted per particle (bytes_per_second), so that GB/s and ns/particle convert into each
// other and the two rows compare as bandwidths:
//   particle_step  61 B: positions and velocities x, y, z read and written (48 B), age read and
//                  written (8 B), lifetime read (4 B), dead flag written (1 B; AdvanceAge writes
//                  it and RespawnDead rereads it from cache in the same tile). Lanes w are not
//                  touched; the lifetimes of respawned particles (about 1% per step) are written
//                  but not counted.
//   stream_triad   12 B per element (two read, one written), 36 B per particle, as STREAM counts.
// The step writes back lines it has just read (all but the dead flags), so 61 B is nearly all of
// its memory traffic, while each store miss of the triad first reads the line of a it writes:
// 16 B of traffic per element against the 12 counted. A step/triad ratio above 100% is therefore
// not faster than memory; the table's last column compares with the triad's 16 B.
// Counters: ms_per_step (ms per Step or per triad pass), particles_per_second (Step only),
// ns_per_particle and bytes_per_second. After the runs a table gives, per N and thread count,
// the best round of each and both ratios. At N = 1e4 both 2-thread rows run on one thread: the
// pool gives each thread at least TileSchedule::min_elements_per_thread (32,768) elements.
//
// N = 1e4 .. 1e8 (about 4.1 GB of particle state plus 3.6 GB of triad arrays at 1e8). Each
// system is created once per N and first stepped kWarmUpSteps times, so that ages and deaths are
// spread as in a running demo before anything is timed; rounds are interleaved as
// bench/bench_common.h describes.
//
//   swarm-bench-particles --max-particles=1e8 --simd=auto --rounds=3 --min-time=0.2
//       --memory-rounds=8 --memory-min-time=0.05 --large-rounds=3
//       --benchmark_out=bench/results/particles.json --benchmark_out_format=json
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "bench/bench_common.h"
#include "bench/best_round_reporter.h"
#include "bench/peers.h"
#include "demos/command_line/flags.h"
#include "demos/command_line/runtime_flags.h"
#include "swarm/core/buffer.h"
#include "swarm/core/memory.h"
#include "swarm/core/simd.h"
#include "swarm/core/thread_pool.h"
#include "swarm/core/tile_pipeline.h"
#include "swarm/particles/particle_system.h"

namespace swarm::bench {
namespace {

constexpr const char* kProgram = "swarm-bench-particles";
constexpr double kStepBytesPerParticle = 61.0;
constexpr size_t kTriadElementsPerParticle = 3;
constexpr double kTriadBytesPerElement = 12.0;
constexpr double kTriadTrafficPerElement = 16.0;  // with the write-allocate read of a
constexpr uint64_t kCounts[] = {10'000, 100'000, 1'000'000, 10'000'000, 100'000'000};
constexpr uint64_t kMemoryCount = 1'000'000;  // from here on the state leaves L2 (and at 1e7, L3)
constexpr uint64_t kLargeCount = 100'000'000;
constexpr float kDtSeconds = 1.0f / 60.0f;
// lifetime_max / dt: by then every particle has died at least once, so ages are spread over the
// lifetimes and the respawn rate has settled.
constexpr int kWarmUpSteps = 180;

struct Options {
  uint64_t max_particles = kLargeCount;
  RoundOptions rounds;
  std::string simd = "auto";
};

[[noreturn]] void Die(const std::string& message) { Fail(kProgram, message); }

// A demo-like step: ParticleConfig's defaults (gravity, drag 0.1 /s, the box) with the attractor
// on at the box centre and a fountain emitter.
ParticleConfig DemoConfig() {
  ParticleConfig config;
  config.attractor_enabled = true;
  config.attractor.center = (config.box.min + config.box.max) * 0.5f;
  config.attractor.strength = 50.0f;
  config.attractor.softening = 0.5f;
  config.emitter.center = {0.0f, 1.0f, 0.0f};
  config.emitter.velocity = {0.0f, 12.0f, 0.0f};
  config.emitter.velocity_spread = {3.0f, 2.0f, 3.0f};
  return config;
}

FloatArray PatternArray(MemoryAccountant& memory, size_t count, uint32_t salt) {
  Result<FloatArray> created = FloatArray::Create(memory, count);
  if (!created.ok()) Die(created.status().message());
  FloatArray array = std::move(created).value();
  float* data = array.view().data;
  for (size_t i = 0; i < count; ++i) data[i] = Pattern(i, salt);
  return array;
}

// The memory of one N: the particle system (warmed up) and the triad's three arrays, built on
// first use and freed before the next N is built (bench/bench_common.h).
class Workspace {
 public:
  explicit Workspace(size_t count) : count_(count) {
    Result<ParticleSystem> created = ParticleSystem::Create(memory_, count, DemoConfig());
    if (!created.ok()) Die(created.status().message());
    system_ = std::move(created).value();
    ThreadPool warm_up_pool(2);
    for (int step = 0; step < kWarmUpSteps; ++step) Step(warm_up_pool);
    const size_t triad_count = kTriadElementsPerParticle * count;
    a_ = PatternArray(memory_, triad_count, 1);
    b_ = PatternArray(memory_, triad_count, 2);
    c_ = PatternArray(memory_, triad_count, 3);
  }
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  size_t count() const { return count_; }
  size_t triad_count() const { return a_.size(); }

  void Step(ThreadPool& pool) {
    if (Status s = system_.Step(kDtSeconds, pool); !s.ok()) Die(s.message());
  }
  float* a() { return a_.view().data; }
  const float* b() { return b_.view().data; }
  const float* c() { return c_.view().data; }

 private:
  size_t count_;
  MemoryAccountant memory_;  // declared before the buffers it must outlive
  ParticleSystem system_;
  FloatArray a_;
  FloatArray b_;
  FloatArray c_;
};

// 1.0f through a volatile read, so the compiler cannot fold the triad's multiply away. Not
// bench::RuntimeOne: benchmark::DoNotOptimize on a float local (google/benchmark 1.7.1, GCC 12)
// lets GCC drop the store and read an uninitialised stack slot (google/benchmark#903), and a
// denormal scale slows the triad several times.
float VolatileOne() {
  volatile float one = 1.0f;
  return one;
}

Workspace& WorkspaceFor(const benchmark::State& state) {
  return bench::WorkspaceFor<Workspace>(state);
}

void ReportCommon(benchmark::State& state, size_t count, double bytes_per_particle) {
  ReportElements(state, count, bytes_per_particle, "ns_per_particle");
  state.counters["ms_per_step"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * 1e-3,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void ParticleStep(benchmark::State& state, ThreadPool& pool) {
  Workspace& workspace = WorkspaceFor(state);
  TimePasses(state, [&] { workspace.Step(pool); });
  ReportCommon(state, workspace.count(), kStepBytesPerParticle);
  state.counters["particles_per_second"] = benchmark::Counter(
      static_cast<double>(workspace.count()) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate);
}

void Triad(benchmark::State& state, ThreadPool& pool) {
  Workspace& workspace = WorkspaceFor(state);
  float* a = workspace.a();
  const float* b = workspace.b();
  const float* c = workspace.c();
  const float scale = VolatileOne();
  const auto pass = [&](size_t begin, size_t n) {
    StreamTriad(a + begin, b + begin, c + begin, n, scale);
  };
  TimePasses(state, [&] { RunOver(pool, workspace.triad_count(), pass); });
  ReportCommon(state, workspace.count(),
               static_cast<double>(kTriadElementsPerParticle) * kTriadBytesPerElement);
}

void RegisterAll(const Options& options, Pools& pools) {
  for (const uint64_t count : kCounts) {
    if (count > options.max_particles && count != kCounts[0]) continue;
    const Plan plan = PlanFor(options.rounds, count, kMemoryCount, kLargeCount);
    for (uint64_t round = 0; round < plan.rounds; ++round) {
      for (const int threads : {1, 2}) {
        ThreadPool& pool = pools.For(threads);
        Register("particle_step", count, threads, round, plan,
                 [&pool](benchmark::State& state) { ParticleStep(state, pool); });
        Register("stream_triad", count, threads, round, plan,
                 [&pool](benchmark::State& state) { Triad(state, pool); });
      }
    }
  }
}

void PrintTable(const std::map<RunKey, double>& best) {
  std::printf(
      "\n%s: best round, SIMD %s; GB/s counts %.0f B per particle for the step and "
      "12 B per element (%zu per particle) for the triad\n",
      kProgram, ActiveSimdTarget().name.c_str(), kStepBytesPerParticle, kTriadElementsPerParticle);
  std::printf("%12s %7s %10s %14s %10s %11s %11s %15s\n", "N", "threads", "ms/step", "Mparticles/s",
              "step GB/s", "triad GB/s", "step/triad", "of triad 16 B");
  for (const uint64_t count : kCounts) {
    for (const int threads : {1, 2}) {
      const auto step = best.find({"particle_step", count, threads});
      const auto triad = best.find({"stream_triad", count, threads});
      if (step == best.end() || triad == best.end()) continue;
      const double particles = static_cast<double>(count);
      const double step_gbs = particles * kStepBytesPerParticle / step->second * 1e-9;
      const double triad_gbs =
          particles * kTriadElementsPerParticle * kTriadBytesPerElement / triad->second * 1e-9;
      const double ratio = step_gbs / triad_gbs;
      std::printf("%12llu %7d %10.3f %14.1f %10.2f %11.2f %10.0f%% %14.0f%%\n",
                  static_cast<unsigned long long>(count), threads, step->second * 1e3,
                  particles / step->second * 1e-6, step_gbs, triad_gbs, 100.0 * ratio,
                  100.0 * ratio * kTriadBytesPerElement / kTriadTrafficPerElement);
    }
  }
}

}  // namespace
}  // namespace swarm::bench

int main(int argc, char** argv) {
  using swarm::bench::kLargeCount;
  swarm::bench::Options options;
  swarm::FlagSet flags(swarm::bench::kProgram,
                       "ParticleSystem::Step (demo configuration) next to STREAM triad, 1 and 2 "
                       "threads. Also accepts Google Benchmark's --benchmark_* flags.");
  flags.AddCount("max-particles", &options.max_particles, swarm::bench::kCounts[0], kLargeCount,
                 "largest N to run (1e4 always runs)");
  swarm::bench::AddRoundFlags(flags, options.rounds, "N < 1e6", "1e6 <= N < 1e8", "N = 1e8");
  AddSimdFlag(flags, &options.simd);
  swarm::bench::StartBenchmark(swarm::bench::kProgram, flags, &argc, argv, &options.simd);
  benchmark::AddCustomContext("bytes_per_particle",
                              "step 61 (p, v xyz and age read + written, lifetime read, dead "
                              "flag written); triad 36 (3 elements of 12 B)");
  swarm::bench::Pools pools;
  swarm::bench::RegisterAll(options, pools);
  swarm::bench::BestRoundReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  swarm::bench::PrintTable(reporter.best);
  benchmark::Shutdown();
  swarm::bench::CurrentWorkspace<swarm::bench::Workspace>().reset();
  return 0;
}
