// swarm-bench-integrate: the Euler integration kernel against its peers and the memory roofline,
// all in one binary so that every ratio comes from one run on one machine state.
//
// Workload (docs/design.md, "Reference workloads"): v += (g - k v) dt;  p += v dt on SoA f32x4, w
// carried through. Throughput counts 64 B per particle (p and v, 16 B each, read and written),
// whatever an implementation really moves, so GB/s and ns/particle convert into each other:
//
//   swarm_euler       swarm::IntegrateEuler on Vec4Buffer views; 1 thread calls it on the whole
//                     buffer, 2 threads split it into tiles with RunFused + ThreadPool(2)
//   swarm_euler_callsite_views
//                     the same, 1 thread, with the views built at every call (N <= 1e3 only)
//   glm_aos_o2        the glm::vec4 AoS loop, -O2                    (bench/peers_glm_o2.cc)
//   soa_scalar_o2     the plain scalar SoA loop, -O2                 (bench/peers_soa_o2.cc)
//   soa_native_o3     the same SoA loop, -O3 -march=native           (bench/peers_soa_native.cc)
//   roofline_inplace  x[i] = x[i] * s over all 8 lane arrays of p and v (64 B/particle), -O3
//                     -march=native, 1 and 2 threads (same tile split as swarm)
//   roofline_xyz      the same pass over the 6 lane arrays Euler touches (x, y, z of p and v:
//                     48 B/particle, and its GB/s counts those 48 B)
//   stream_triad      a[i] = b[i] + s c[i] over 4 arrays' worth of floats per particle; GB/s
//                     counts 12 B per element as STREAM does (the write-allocate read is not
//                     counted), ns_per_particle is per 4 elements of each array
//   pipeline_fused    ApplyAttractor, IntegrateEuler, CollideBox tile by tile (RunFused) and the
//   pipeline_separate same stages pass by pass (RunStageByStage), at N = 1e7
//
// Rounds are interleaved as bench/bench_common.h describes; scripts/plot_bench.py reduces them to
// the best one or the median. Buffers are allocated once per N, outside the timed loops, and
// filled with finite values.
//
//   swarm-bench-integrate --max-count=1e8 --simd=auto --rounds=3 --min-time=0.2
//       --memory-rounds=8 --memory-min-time=0.05 --large-rounds=3
//       --benchmark_out=bench/results/integrate.json --benchmark_out_format=json
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <glm/vec4.hpp>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bench/bench_common.h"
#include "bench/peers.h"
#include "bench/peers_glm.h"
#include "demos/command_line/flags.h"
#include "demos/command_line/runtime_flags.h"
#include "swarm/core/buffer.h"
#include "swarm/core/memory.h"
#include "swarm/core/simd.h"
#include "swarm/core/thread_pool.h"
#include "swarm/core/tile_pipeline.h"
#include "swarm/kernels/particles/integrate.h"

namespace swarm::bench {
namespace {

constexpr double kParticleBytes = 64.0;
constexpr double kXyzParticleBytes = 48.0;
constexpr double kTriadBytesPerElement = 12.0;
constexpr uint64_t kCounts[] = {16, 1'000, 10'000, 100'000, 1'000'000, 10'000'000, 100'000'000};
constexpr uint64_t kMemoryCount = 1'000'000;  // from here on the data leaves the caches
constexpr uint64_t kPipelineCount = 10'000'000;
constexpr uint64_t kLargeCount = 100'000'000;
constexpr uint64_t kCallSiteMaxCount = 1'000;

struct Options {
  uint64_t max_count = kLargeCount;
  RoundOptions rounds;
  std::string simd = "auto";
};

Plan PlanFor(const Options& options, uint64_t count) {
  return PlanFor(options.rounds, count, kMemoryCount, kLargeCount);
}

// Gravity has a component on every axis and drag is positive, so every velocity lane tends to
// g / k instead of decaying towards zero: a decaying lane turns subnormal after ~5e4 steps (small
// N runs millions) and the benchmark would time the FPU's subnormal path instead of the loop.
const EulerParams kEuler{glm::vec3(0.5f, -9.81f, 0.25f), 0.1f, 1.0f / 60.0f};
const AttractorParams kAttractor{glm::vec3(0.0f), 1.0f, 0.1f, 1.0f / 60.0f};
const BoxParams kBox{};

EulerConstants PeerConstants() {
  return {{kEuler.gravity.x, kEuler.gravity.y, kEuler.gravity.z},
          kEuler.drag_per_second,
          kEuler.dt_seconds};
}

glm::vec4 InitialPosition(size_t i) {
  return {Pattern(i, 1), Pattern(i, 2), Pattern(i, 3), 1.0f};  // w: e.g. a colour index
}
glm::vec4 InitialVelocity(size_t i) { return {Pattern(i, 4), Pattern(i, 5), Pattern(i, 6), 0.0f}; }

constexpr const char* kProgram = "swarm-bench-integrate";

[[noreturn]] void Die(const std::string& message) { Fail(kProgram, message); }

Vec4Buffer MakeSwarmBuffer(MemoryAccountant& memory, size_t count, glm::vec4 (*initial)(size_t)) {
  Result<Vec4Buffer> created = Vec4Buffer::Create(memory, count);
  if (!created.ok()) Die(created.status().message());
  Vec4Buffer buffer = std::move(created).value();
  const Vec4View view = buffer.view();
  for (size_t i = 0; i < count; ++i) {
    const glm::vec4 value = initial(i);
    for (int lane = 0; lane < 4; ++lane) view.Lane(lane)[i] = value[lane];
  }
  return buffer;
}

// The memory of one N, built on first use: swarm's two Vec4Buffers and the glm peer's two
// std::vector<glm::vec4>. Only one workspace lives at a time and benchmarks are registered N by
// N, so each N allocates once (6.4 GB at 1e8).
//
// The SoA peers and the roofline run on the Vec4Buffers' own memory: they get the same layout,
// alignment and pages as swarm, so the comparison is about the loops alone. Triad writes the
// position lanes from the velocity lanes and the glm positions (read only); it leaves finite
// values behind, which is all the next benchmark needs.
class Workspace {
 public:
  explicit Workspace(size_t count) : count_(count) {}
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  size_t count() const { return count_; }

  Vec4Buffer& positions_buffer() { return Swarm().positions; }
  Vec4Buffer& velocities_buffer() { return Swarm().velocities; }
  Vec4View positions() { return Swarm().positions.view(); }
  Vec4View velocities() { return Swarm().velocities.view(); }
  std::span<glm::vec4> aos_positions() { return Aos().positions; }
  std::span<glm::vec4> aos_velocities() { return Aos().velocities; }

 private:
  struct SwarmState {
    Vec4Buffer positions;
    Vec4Buffer velocities;
  };
  struct AosState {
    std::vector<glm::vec4> positions;
    std::vector<glm::vec4> velocities;
  };

  SwarmState& Swarm() {
    if (!swarm_) {
      swarm_ = SwarmState{MakeSwarmBuffer(memory_, count_, InitialPosition),
                          MakeSwarmBuffer(memory_, count_, InitialVelocity)};
    }
    return *swarm_;
  }
  AosState& Aos() {
    if (!aos_) {
      aos_.emplace();
      aos_->positions.resize(count_);
      aos_->velocities.resize(count_);
      for (size_t i = 0; i < count_; ++i) {
        aos_->positions[i] = InitialPosition(i);
        aos_->velocities[i] = InitialVelocity(i);
      }
    }
    return *aos_;
  }

  size_t count_;
  MemoryAccountant memory_;  // declared before the buffers it must outlive
  std::optional<SwarmState> swarm_;
  std::optional<AosState> aos_;
};

Workspace& WorkspaceFor(const benchmark::State& state) {
  return bench::WorkspaceFor<Workspace>(state);
}

// 64 B per particle, reported as ns_per_particle.
void ReportParticles(benchmark::State& state, size_t count, double bytes_per_particle) {
  ReportElements(state, count, bytes_per_particle, "ns_per_particle");
}

// One thread: one IntegrateEuler call over the whole buffers, with the views made once outside
// the timed loop (the peers get their pointers the same way). Two threads: RunFused tiles, each
// stage call slicing the views, as the engine does.
void SwarmEuler(benchmark::State& state, ThreadPool& pool) {
  Workspace& workspace = WorkspaceFor(state);
  const Vec4View positions = workspace.positions();
  const Vec4View velocities = workspace.velocities();
  if (pool.num_threads() == 1) {
    TimePasses(state, [&] { IntegrateEuler(positions, velocities, kEuler); });
  } else {
    const auto integrate = [&](size_t begin, size_t n) {
      IntegrateEuler(positions.Slice(begin, n), velocities.Slice(begin, n), kEuler);
    };
    TimePasses(state, [&] { RunFused(pool, workspace.count(), TileSchedule{}, integrate); });
  }
  ReportParticles(state, workspace.count(), kParticleBytes);
}

// The game-loop spelling, IntegrateEuler(positions.view(), velocities.view(), params): the views
// are built right before every call. Only at small N, where the per-call cost shows.
void SwarmEulerCallSiteViews(benchmark::State& state) {
  Workspace& workspace = WorkspaceFor(state);
  Vec4Buffer& positions = workspace.positions_buffer();
  Vec4Buffer& velocities = workspace.velocities_buffer();
  TimePasses(state, [&] { IntegrateEuler(positions.view(), velocities.view(), kEuler); });
  ReportParticles(state, workspace.count(), kParticleBytes);
}

void GlmAosO2(benchmark::State& state) {
  Workspace& workspace = WorkspaceFor(state);
  const std::span<glm::vec4> positions = workspace.aos_positions();
  const std::span<glm::vec4> velocities = workspace.aos_velocities();
  const glm::vec4 gravity(kEuler.gravity, 0.0f);
  TimePasses(state, [&] {
    GlmEulerO2(positions, velocities, gravity, kEuler.drag_per_second, kEuler.dt_seconds);
  });
  ReportParticles(state, workspace.count(), kParticleBytes);
}

void SoaPeer(benchmark::State& state,
             void (*peer)(SoaLanes, SoaLanes, size_t, const EulerConstants&)) {
  Workspace& workspace = WorkspaceFor(state);
  const Vec4View p = workspace.positions();
  const Vec4View v = workspace.velocities();
  const SoaLanes positions{p.x(), p.y(), p.z()};
  const SoaLanes velocities{v.x(), v.y(), v.z()};
  const EulerConstants constants = PeerConstants();
  TimePasses(state, [&] { peer(positions, velocities, workspace.count(), constants); });
  ReportParticles(state, workspace.count(), kParticleBytes);
}

// The in-place pass over the bytes swarm_euler streams: lanes x, y, z (and w) of p and v, each
// position lane paired with the matching velocity lane (bench/peers.h).
void Roofline(benchmark::State& state, ThreadPool& pool, size_t lane_count) {
  Workspace& workspace = WorkspaceFor(state);
  const Vec4View p = workspace.positions();
  const Vec4View v = workspace.velocities();
  float* const lanes[8] = {p.x(), v.x(), p.y(), v.y(), p.z(), v.z(), p.w(), v.w()};
  const float scale = RuntimeOne();
  const auto pass = [&](size_t begin, size_t n) {
    float* tile_lanes[8];
    for (size_t lane = 0; lane < lane_count; ++lane) tile_lanes[lane] = lanes[lane] + begin;
    ScaleLanesInPlace(tile_lanes, lane_count, n, scale);
  };
  TimePasses(state, [&] { RunOver(pool, workspace.count(), pass); });
  ReportParticles(state, workspace.count(), lane_count == 8 ? kParticleBytes : kXyzParticleBytes);
}

// a = the 4 position lanes, b = the 4 velocity lanes, c = the glm positions seen as 4 arrays
// of N floats.
void Triad(benchmark::State& state, ThreadPool& pool) {
  Workspace& workspace = WorkspaceFor(state);
  const size_t count = workspace.count();
  const Vec4View a = workspace.positions();
  const Vec4View b = workspace.velocities();
  const float* c = &workspace.aos_positions()[0][0];
  const float scale = RuntimeOne();
  const auto pass = [&](size_t begin, size_t n) {
    for (size_t lane = 0; lane < 4; ++lane) {
      StreamTriad(a.Lane(lane) + begin, b.Lane(lane) + begin, c + lane * count + begin, n, scale);
    }
  };
  TimePasses(state, [&] { RunOver(pool, count, pass); });
  ReportParticles(state, count, 4 * kTriadBytesPerElement);
}

void Pipeline(benchmark::State& state, ThreadPool& pool, bool fused) {
  Workspace& workspace = WorkspaceFor(state);
  const size_t count = workspace.count();
  const Vec4View positions = workspace.positions();
  const Vec4View velocities = workspace.velocities();
  const auto forces = [&](size_t begin, size_t n) {
    ApplyAttractor(positions.Slice(begin, n), velocities.Slice(begin, n), kAttractor);
  };
  const auto integrate = [&](size_t begin, size_t n) {
    IntegrateEuler(positions.Slice(begin, n), velocities.Slice(begin, n), kEuler);
  };
  const auto collide = [&](size_t begin, size_t n) {
    CollideBox(positions.Slice(begin, n), velocities.Slice(begin, n), kBox);
  };
  TimePasses(state, [&] {
    if (fused) {
      RunFused(pool, count, TileSchedule{}, forces, integrate, collide);
    } else {
      RunStageByStage(pool, count, TileSchedule{}, forces, integrate, collide);
    }
  });
  ReportParticles(state, count, kParticleBytes);
}

void RegisterAll(const Options& options, Pools& pools) {
  for (const uint64_t count : kCounts) {
    if (count > options.max_count && count != kCounts[0]) continue;
    const Plan plan = PlanFor(options, count);
    for (uint64_t round = 0; round < plan.rounds; ++round) {
      for (const int threads : {1, 2}) {
        ThreadPool& pool = pools.For(threads);
        Register("swarm_euler", count, threads, round, plan,
                 [&pool](benchmark::State& state) { SwarmEuler(state, pool); });
      }
      if (count <= kCallSiteMaxCount) {
        Register("swarm_euler_callsite_views", count, 1, round, plan, SwarmEulerCallSiteViews);
      }
      Register("glm_aos_o2", count, 1, round, plan, GlmAosO2);
      Register("soa_scalar_o2", count, 1, round, plan,
               [](benchmark::State& state) { SoaPeer(state, SoaEulerO2); });
      Register("soa_native_o3", count, 1, round, plan,
               [](benchmark::State& state) { SoaPeer(state, SoaEulerNative); });
      for (const int threads : {1, 2}) {
        ThreadPool& pool = pools.For(threads);
        Register("roofline_inplace", count, threads, round, plan,
                 [&pool](benchmark::State& state) { Roofline(state, pool, 8); });
        Register("roofline_xyz", count, threads, round, plan,
                 [&pool](benchmark::State& state) { Roofline(state, pool, 6); });
        Register("stream_triad", count, threads, round, plan,
                 [&pool](benchmark::State& state) { Triad(state, pool); });
      }
    }
    if (count != kPipelineCount) continue;
    for (uint64_t round = 0; round < plan.rounds; ++round) {
      for (const int threads : {1, 2}) {
        ThreadPool& pool = pools.For(threads);
        Register("pipeline_fused", count, threads, round, plan,
                 [&pool](benchmark::State& state) { Pipeline(state, pool, true); });
        Register("pipeline_separate", count, threads, round, plan,
                 [&pool](benchmark::State& state) { Pipeline(state, pool, false); });
      }
    }
  }
}

}  // namespace
}  // namespace swarm::bench

int main(int argc, char** argv) {
  using swarm::bench::Options;
  Options options;
  swarm::FlagSet flags(swarm::bench::kProgram,
                       "Euler integration: swarm vs glm AoS, scalar SoA and the memory roofline. "
                       "Also accepts Google Benchmark's --benchmark_* flags.");
  flags.AddCount("max-count", &options.max_count, 16, swarm::bench::kLargeCount,
                 "largest N to run (16 always runs)");
  swarm::bench::AddRoundFlags(flags, options.rounds, "N < 1e6", "1e6 <= N < 1e8", "N = 1e8");
  AddSimdFlag(flags, &options.simd, " (swarm only)");
  swarm::bench::StartBenchmark(swarm::bench::kProgram, flags, &argc, argv, &options.simd);
  benchmark::AddCustomContext("bytes_per_particle", "64 (p and v, 16 B each, read and written)");
  std::string rounds = std::to_string(options.rounds.rounds) + " below 1e6, ";
  rounds += std::to_string(options.rounds.memory_rounds) + " for 1e6..1e7, ";
  rounds += std::to_string(options.rounds.large_rounds) + " at 1e8";
  benchmark::AddCustomContext("rounds", rounds);
  swarm::bench::Pools pools;
  swarm::bench::RegisterAll(options, pools);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  swarm::bench::CurrentWorkspace<swarm::bench::Workspace>().reset();
  return 0;
}
