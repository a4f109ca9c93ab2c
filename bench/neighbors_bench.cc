// swarm-bench-neighbors: every point's neighbours within a radius, built and listed from scratch
// each time, as a particle step needs them: swarm's NeighborGrid next to nanoflann 1.4's k-d
// tree and a plain scalar uniform grid, in one binary (docs/design.md's neighbour workload).
//
// Workload: N points uniform in the unit cube, stored in random order (the order a particle
// system's storage drifts into), radius chosen for 30 neighbours in the interior (about 29 on
// average with the cube's faces). One iteration = build + every point's list:
//   swarm_grid         NeighborGrid::Build + ListNeighbors (rows in cell order, sorted indices:
//                      what interaction stages read), 1 and 2 threads
//   swarm_input_order  the same plus NeighborRowsInInputOrder (rows in input order, input
//                      indices ascending: what the C API and Python return)
//   scalar_grid        a plain uniform grid: cells of the radius, counting sort of the indices by
//                      cell, then for each point in storage order the 27 cells' points tested one
//                      by one and appended to compressed rows; one thread, -O3
//   nanoflann          KDTreeSingleIndexAdaptor (leaf size 10) built over the points, then one
//                      radiusSearch per point (unsorted results) copied into compressed rows;
//                      one thread
// Every implementation's neighbour count is checked against swarm's before timing.
// Counters: ms per build + query, particles_per_second; the table adds the ratios and the grid's
// memory per particle (grid + lists).
//
//   swarm-bench-neighbors --max-particles=1e6 --rounds=3 --simd=auto
//       --benchmark_out=bench/results/neighbors.json --benchmark_out_format=json
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <nanoflann.hpp>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "bench/bench_common.h"
#include "bench/best_round_reporter.h"
#include "demos/command_line/flags.h"
#include "demos/command_line/runtime_flags.h"
#include "swarm/core/buffer.h"
#include "swarm/core/memory.h"
#include "swarm/core/simd.h"
#include "swarm/core/thread_pool.h"
#include "swarm/particles/neighbor_grid.h"

namespace swarm::bench {
namespace {

constexpr const char* kProgram = "swarm-bench-neighbors";
constexpr uint64_t kCounts[] = {10'000, 100'000, 1'000'000};
constexpr double kInteriorNeighbors = 30.0;

struct Options {
  uint64_t max_particles = 1'000'000;
  RoundOptions rounds;
  std::string simd = "auto";
};

[[noreturn]] void Die(const std::string& message) { Fail(kProgram, message); }

// Compressed rows as the peers produce them.
struct Rows {
  std::vector<int64_t> offsets;
  std::vector<int32_t> indices;
};

// The plain scalar grid a programmer would write: one pass to count points per cell, a prefix
// sum, a scatter of indices, then each point's 27 cells in storage order.
void ScalarGrid(const std::vector<float>& x, const std::vector<float>& y,
                const std::vector<float>& z, float radius, Rows& rows) {
  const size_t n = x.size();
  const float inverse = 1.0f / radius;
  const int cells = static_cast<int>(1.0f * inverse) + 1;  // points are in [0, 1)
  const auto cell_of = [&](float v) { return std::min(static_cast<int>(v * inverse), cells - 1); };
  std::vector<uint32_t> start(static_cast<size_t>(cells) * cells * cells + 1, 0);
  std::vector<uint32_t> cell(n);
  for (size_t i = 0; i < n; ++i) {
    cell[i] =
        static_cast<uint32_t>((cell_of(z[i]) * cells + cell_of(y[i])) * cells + cell_of(x[i]));
    ++start[cell[i] + 1];
  }
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<uint32_t> cursor(start.begin(), start.end() - 1);
  std::vector<uint32_t> sorted(n);
  for (size_t i = 0; i < n; ++i) sorted[cursor[cell[i]]++] = static_cast<uint32_t>(i);
  const float radius_squared = radius * radius;
  rows.offsets.assign(1, 0);
  rows.indices.clear();
  for (size_t i = 0; i < n; ++i) {
    const int cx = cell_of(x[i]), cy = cell_of(y[i]), cz = cell_of(z[i]);
    for (int zz = std::max(cz - 1, 0); zz <= std::min(cz + 1, cells - 1); ++zz) {
      for (int yy = std::max(cy - 1, 0); yy <= std::min(cy + 1, cells - 1); ++yy) {
        for (int xx = std::max(cx - 1, 0); xx <= std::min(cx + 1, cells - 1); ++xx) {
          const size_t c = static_cast<size_t>((zz * cells + yy) * cells + xx);
          for (uint32_t k = start[c]; k < start[c + 1]; ++k) {
            const uint32_t j = sorted[k];
            const float dx = x[j] - x[i], dy = y[j] - y[i], dz = z[j] - z[i];
            if (j != i && dx * dx + dy * dy + dz * dz <= radius_squared) {
              rows.indices.push_back(static_cast<int32_t>(j));
            }
          }
        }
      }
    }
    rows.offsets.push_back(static_cast<int64_t>(rows.indices.size()));
  }
}

// nanoflann's dataset adaptor over the same coordinates.
struct Cloud {
  const std::vector<float>* x;
  const std::vector<float>* y;
  const std::vector<float>* z;
  size_t kdtree_get_point_count() const { return x->size(); }
  float kdtree_get_pt(size_t index, size_t dim) const {
    return dim == 0 ? (*x)[index] : dim == 1 ? (*y)[index] : (*z)[index];
  }
  template <class Box>
  bool kdtree_get_bbox(Box&) const {
    return false;
  }
};
using KdTree =
    nanoflann::KDTreeSingleIndexAdaptor<nanoflann::L2_Simple_Adaptor<float, Cloud>, Cloud, 3>;

void Nanoflann(const Cloud& cloud, float radius, Rows& rows) {
  KdTree tree(3, cloud, nanoflann::KDTreeSingleIndexAdaptorParams(10));
  tree.buildIndex();
  nanoflann::SearchParams params;
  params.sorted = false;
  std::vector<std::pair<uint32_t, float>> matches;  // the tree's IndexType
  rows.offsets.assign(1, 0);
  rows.indices.clear();
  const size_t n = cloud.kdtree_get_point_count();
  for (size_t i = 0; i < n; ++i) {
    const float query[3] = {(*cloud.x)[i], (*cloud.y)[i], (*cloud.z)[i]};
    tree.radiusSearch(query, radius * radius, matches, params);  // L2_Simple: squared radius
    for (const auto& [j, distance] : matches) {
      if (j != i) rows.indices.push_back(static_cast<int32_t>(j));
    }
    rows.offsets.push_back(static_cast<int64_t>(rows.indices.size()));
  }
}

// Bytes per particle of the grid and its lists, by N, recorded as each workspace is built.
std::map<uint64_t, double>& MemoryPerParticle() {
  static std::map<uint64_t, double> memory;
  return memory;
}

class Workspace {
 public:
  explicit Workspace(size_t count)
      : count_(count),
        radius_(static_cast<float>(std::cbrt(kInteriorNeighbors / (4.18879 * count)))),
        grid_(memory_),
        lists_(memory_) {
    std::mt19937 random(static_cast<uint32_t>(count));
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    x_.resize(count);
    y_.resize(count);
    z_.resize(count);
    for (size_t i = 0; i < count; ++i) {
      x_[i] = unit(random);
      y_[i] = unit(random);
      z_[i] = unit(random);
    }
    Result<Vec4Buffer> points = Vec4Buffer::Create(memory_, count);
    if (!points.ok()) Die(points.status().message());
    points_ = std::move(points).value();
    std::copy(x_.begin(), x_.end(), points_.view().x());
    std::copy(y_.begin(), y_.end(), points_.view().y());
    std::copy(z_.begin(), z_.end(), points_.view().z());
    offsets_ = PaddedArray<int64_t>::Create(memory_, 0).value();
    indices_ = PaddedArray<int32_t>::Create(memory_, 0).value();
    // Every implementation finds the same pairs (checked by their number).
    ThreadPool pool(1);
    SwarmGrid(pool, true);
    MemoryPerParticle()[count] = bytes_per_particle();
    Rows rows;
    ScalarGrid(x_, y_, z_, radius_, rows);
    Check("scalar_grid", rows.indices.size());
    Nanoflann({&x_, &y_, &z_}, radius_, rows);
    Check("nanoflann", rows.indices.size());
  }
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  size_t count() const { return count_; }
  size_t entries() const { return lists_.entries(); }
  double bytes_per_particle() const {
    return static_cast<double>(grid_.allocated_bytes() + lists_.allocated_bytes()) /
           static_cast<double>(count_);
  }

  void SwarmGrid(ThreadPool& pool, bool input_order) {
    if (Status s = grid_.Build(points_.view(), radius_, pool); !s.ok()) Die(s.message());
    if (Status s = grid_.ListNeighbors(radius_, pool, lists_); !s.ok()) Die(s.message());
    if (input_order) {
      if (Status s = NeighborRowsInInputOrder(grid_, lists_, pool, offsets_, indices_); !s.ok()) {
        Die(s.message());
      }
    }
  }
  void Scalar() { ScalarGrid(x_, y_, z_, radius_, rows_); }
  void KdTree() { Nanoflann({&x_, &y_, &z_}, radius_, rows_); }

 private:
  // Pairs within float rounding of the radius may differ (the scalar grid's cells are exactly
  // the radius, nanoflann sums its squares in its own order): a few per million at most.
  void Check(const char* name, size_t pairs) const {
    const size_t difference =
        pairs > lists_.entries() ? pairs - lists_.entries() : lists_.entries() - pairs;
    if (difference > 2 + lists_.entries() / 1'000'000) {
      Die(std::string(name) + " found " + std::to_string(pairs) + " neighbours, swarm " +
          std::to_string(lists_.entries()));
    }
  }

  size_t count_;
  float radius_;
  MemoryAccountant memory_;  // declared before everything it accounts
  std::vector<float> x_, y_, z_;
  Vec4Buffer points_;
  NeighborGrid grid_;
  NeighborLists lists_;
  PaddedArray<int64_t> offsets_;
  PaddedArray<int32_t> indices_;
  Rows rows_;
};

Workspace& WorkspaceFor(const benchmark::State& state) {
  return bench::WorkspaceFor<Workspace>(state);
}

template <class Pass>
void Time(benchmark::State& state, const Pass& pass) {
  Workspace& workspace = WorkspaceFor(state);
  TimePasses(state, pass);
  const double particles = static_cast<double>(workspace.count());
  state.counters["particles_per_second"] = benchmark::Counter(
      particles * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["ms_per_build_and_query"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * 1e-3,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["neighbors_per_particle"] = static_cast<double>(workspace.entries()) / particles;
}

void RegisterAll(const Options& options, Pools& pools) {
  for (const uint64_t count : kCounts) {
    if (count > options.max_particles && count != kCounts[0]) continue;
    const Plan plan = PlanFor(options.rounds, count, 1'000'000, UINT64_MAX);
    for (uint64_t round = 0; round < plan.rounds; ++round) {
      for (const int threads : {1, 2}) {
        ThreadPool& pool = pools.For(threads);
        Register("swarm_grid", count, threads, round, plan, [&pool](benchmark::State& state) {
          Time(state, [&] { WorkspaceFor(state).SwarmGrid(pool, false); });
        });
        Register("swarm_input_order", count, threads, round, plan,
                 [&pool](benchmark::State& state) {
                   Time(state, [&] { WorkspaceFor(state).SwarmGrid(pool, true); });
                 });
      }
      Register("scalar_grid", count, 1, round, plan,
               [](benchmark::State& state) { Time(state, [&] { WorkspaceFor(state).Scalar(); }); });
      Register("nanoflann", count, 1, round, plan,
               [](benchmark::State& state) { Time(state, [&] { WorkspaceFor(state).KdTree(); }); });
    }
  }
}

void PrintTable(const std::map<RunKey, double>& best, const std::map<uint64_t, double>& memory) {
  std::printf(
      "\n%s: best round, SIMD %s; M particles/s (build + every point's neighbour list), ratios "
      "against nanoflann and the scalar grid on one core\n",
      kProgram, ActiveSimdTarget().name.c_str());
  std::printf("%9s %7s %10s %10s %12s %12s %10s %10s %10s %11s\n", "N", "threads", "swarm",
              "in order", "scalar grid", "nanoflann", "x scalar", "x nanofl.", "in order x",
              "B/particle");
  for (const uint64_t count : kCounts) {
    const auto scalar = best.find({"scalar_grid", count, 1});
    const auto kd = best.find({"nanoflann", count, 1});
    if (scalar == best.end() || kd == best.end()) continue;
    const double n = static_cast<double>(count) * 1e-6;
    for (const int threads : {1, 2}) {
      const auto grid = best.find({"swarm_grid", count, threads});
      const auto ordered = best.find({"swarm_input_order", count, threads});
      if (grid == best.end() || ordered == best.end()) continue;
      std::printf("%9llu %7d %10.2f %10.2f %12.2f %12.3f %9.1fx %9.1fx %9.1fx %11.0f\n",
                  static_cast<unsigned long long>(count), threads, n / grid->second,
                  n / ordered->second, n / scalar->second, n / kd->second,
                  scalar->second / grid->second, kd->second / grid->second,
                  kd->second / ordered->second, memory.at(count));
    }
  }
  std::printf("targets per core: >= 30x nanoflann, >= 5x the scalar grid (~20 M particles/s)\n");
}

}  // namespace
}  // namespace swarm::bench

int main(int argc, char** argv) {
  swarm::bench::Options options;
  swarm::FlagSet flags(swarm::bench::kProgram,
                       "Neighbour lists of N points (~29 neighbours) rebuilt from scratch: swarm's "
                       "grid vs nanoflann and a scalar grid. Also accepts Google Benchmark's "
                       "--benchmark_* flags.");
  flags.AddCount("max-particles", &options.max_particles, swarm::bench::kCounts[0], 1'000'000,
                 "largest N to run (1e4 always runs)");
  swarm::bench::AddRoundFlags(flags, options.rounds, "N < 1e6", "N = 1e6", nullptr);
  AddSimdFlag(flags, &options.simd);
  swarm::bench::StartBenchmark(swarm::bench::kProgram, flags, &argc, argv, &options.simd);
  swarm::bench::Pools pools;
  swarm::bench::RegisterAll(options, pools);
  swarm::bench::BestRoundReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  swarm::bench::PrintTable(reporter.best, swarm::bench::MemoryPerParticle());
  benchmark::Shutdown();
  swarm::bench::CurrentWorkspace<swarm::bench::Workspace>().reset();
  return 0;
}
