// Plumbing shared by swarm's benchmark programs (bench/integrate_bench.cc, tensor_bench.cc,
// bench/transform_bench.cc): rounds and timing plans, the one-workspace-per-N cache, timing with
// an untimed warm-up pass, per-element counters, tiled runs over a thread pool and registration of
// interleaved rounds.
//
// Every benchmark is registered once per round, rounds interleaved at each N (implementation A,
// B, C, ... then A, B, C, ... again), so that slow phases of a shared machine hit every
// implementation alike; scripts/bench_report.py reduces the rounds to the best one (interference
// only ever slows a run down) or the median. Names are "<name>/N:<n>/threads:<t>/round:<r>".
//
// This header has inline functions and includes Highway-dispatching engine headers: never include
// it from a -march=native translation unit (bench/peers.h explains why).
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>

#include "bench/bench_start.h"
#include "demos/command_line/flags.h"
#include "swarm/core/thread_pool.h"
#include "swarm/core/tile_pipeline.h"

namespace swarm::bench {

// Rounds and timed seconds per run, by N. Below memory_count the loops run from cache and runs
// are steady. From memory_count on they stream from memory whose bandwidth other tenants of the
// machine take and give back within seconds, so more and shorter rounds give each implementation
// more chances at a quiet moment. From large_count on one pass takes ~0.1 s: fewer rounds.
struct RoundOptions {
  uint64_t rounds = 3;
  double min_time_seconds = 0.2;
  uint64_t memory_rounds = 8;
  double memory_min_time_seconds = 0.05;
  uint64_t large_rounds = 3;
};

struct Plan {
  uint64_t rounds;
  double min_time_seconds;
};

inline Plan PlanFor(const RoundOptions& options, uint64_t count, uint64_t memory_count,
                    uint64_t large_count) {
  if (count >= large_count) return {options.large_rounds, options.min_time_seconds};
  if (count >= memory_count) return {options.memory_rounds, options.memory_min_time_seconds};
  return {options.rounds, options.min_time_seconds};
}

// --rounds, --min-time, --memory-rounds, --memory-min-time and, if large_label is not null,
// --large-rounds; the labels name the ranges of N ("N < 1e6", "1e6 <= N < 1e8", "N = 1e8").
inline void AddRoundFlags(FlagSet& flags, RoundOptions& options, const std::string& cache_label,
                          const std::string& memory_label, const char* large_label) {
  flags.AddCount("rounds", &options.rounds, 1, 100, "interleaved rounds for " + cache_label);
  std::string min_time_help = "minimum timed seconds per run for " + cache_label;
  if (large_label != nullptr) min_time_help += std::string(" and ") + large_label;
  flags.AddNumber("min-time", &options.min_time_seconds, 0.001, 60.0, min_time_help);
  flags.AddCount("memory-rounds", &options.memory_rounds, 1, 100,
                 "interleaved rounds for " + memory_label);
  flags.AddNumber("memory-min-time", &options.memory_min_time_seconds, 0.001, 60.0,
                  "minimum timed seconds per run for " + memory_label);
  if (large_label != nullptr) {
    flags.AddCount("large-rounds", &options.large_rounds, 1, 100,
                   std::string("interleaved rounds at ") + large_label);
  }
}

// A finite value in [-1, 1) that depends only on (i, salt): every layout gets the same data.
inline float Pattern(size_t i, uint32_t salt) {
  uint32_t x = static_cast<uint32_t>(i) * 0x9e3779b1u ^ (salt * 0x85ebca6bu);
  x ^= x >> 15;
  x *= 0x2c1b3c6du;
  x ^= x >> 12;
  return static_cast<float>(x >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

// The memory of one N, built on first use. Only one workspace of a type lives at a time and
// benchmarks are registered N by N, so each N allocates once. Workspace is constructible from
// a size_t count and has count().
template <class Workspace>
std::unique_ptr<Workspace>& CurrentWorkspace() {
  static std::unique_ptr<Workspace> workspace;
  return workspace;
}

template <class Workspace>
Workspace& WorkspaceFor(const benchmark::State& state) {
  const size_t count = static_cast<size_t>(state.range(0));
  std::unique_ptr<Workspace>& workspace = CurrentWorkspace<Workspace>();
  if (!workspace || workspace->count() != count) {
    workspace.reset();  // free the previous N before allocating the next
    workspace = std::make_unique<Workspace>(count);
  }
  return *workspace;
}

// Times `pass` after one untimed pass. The untimed pass matters for large N: the first touch of
// a few GB after other benchmarks ran pays page-table and TLB refills (very costly on a VM with
// shadow paging), which are not the loop's cost.
template <class Pass>
void TimePasses(benchmark::State& state, const Pass& pass) {
  pass();
  benchmark::ClobberMemory();
  for (auto _ : state) {
    pass();
    benchmark::ClobberMemory();
  }
}

// bytes_per_second from `bytes_per_element`, and the counter `ns_counter` in ns per element
// (kIsRate divides by the real time since every benchmark uses UseRealTime; kInvert turns
// elements per second into seconds per element, and the 1e-9 makes those nanoseconds).
inline void ReportElements(benchmark::State& state, size_t count, double bytes_per_element,
                           const char* ns_counter = "ns_per_element") {
  const double elements = static_cast<double>(count) * static_cast<double>(state.iterations());
  state.SetBytesProcessed(static_cast<int64_t>(elements * bytes_per_element));
  state.counters[ns_counter] = benchmark::Counter(
      elements * 1e-9, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// A scale factor of 1.0 the compiler cannot see through. (A volatile read, not DoNotOptimize on
// a local: with GCC 12 and Google Benchmark 1.7.1 that can drop the store and return garbage,
// google/benchmark#903, and a denormal scale slows the triad several times.)
inline float RuntimeOne() {
  volatile float one = 1.0f;
  return one;
}

// Runs stage(begin, n) over [0, count): directly on one thread, in tiles of `schedule` on more.
template <class Stage>
void RunOver(ThreadPool& pool, size_t count, const Stage& stage,
             TileSchedule schedule = TileSchedule{}) {
  if (pool.num_threads() == 1) {
    stage(0, count);
  } else {
    RunFused(pool, count, schedule, stage);
  }
}

struct Pools {
  ThreadPool one{1};
  ThreadPool two{2};
  ThreadPool& For(int threads) { return threads == 1 ? one : two; }
};

template <class Function>
void Register(const std::string& name, uint64_t count, int threads, uint64_t round,
              const Plan& plan, Function function) {
  benchmark::RegisterBenchmark(name.c_str(), function)
      ->Args({static_cast<int64_t>(count), threads, static_cast<int64_t>(round)})
      ->ArgNames({"N", "threads", "round"})
      ->MinTime(plan.min_time_seconds)
      ->UseRealTime();
}

}  // namespace swarm::bench
