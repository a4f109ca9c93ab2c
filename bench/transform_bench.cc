// swarm-bench-transform: the batched transform kernels against their peers and the memory
// roofline, all in one binary so that every ratio comes from one run on one machine state.
//
// Workloads (docs/design.md, "Reference workloads"), out of place (in -> out, in never changes), on
// SoA f32x4 points. Throughput counts the bytes each workload must read and write per element,
// whatever an implementation really moves (the AoS peers read whole vec4s), so GB/s and
// ns/element convert into each other:
//
//   transform_one_matrix   out = M p, one glm::mat4, TransformVectors(kPoints): reads x, y, z
//                          (kPoints takes w = 1 and never reads it), writes x, y, z, w = 1:
//                          12 + 16 = 28 B per point
//   transform_per_element  out = M[i] p[i], TransformVectorsPerElement(kHomogeneous): reads the
//                          matrix (64 B) and the whole point (16 B), writes 16 B: 96 B
//   rotate_per_element     out.xyz = rotate(q[i], p[i].xyz), out.w = p[i].w,
//                          RotateVectorsPerElement: reads q (16 B) and p (16 B), writes 16 B: 48 B
//   rotate_one_quat        the same with one quaternion, RotateVectors: 16 + 16 = 32 B
//
// Implementations of each workload:
//   swarm          the kernel on Vec4Buffer views; 1 thread calls it on the whole buffer, 2
//                  threads cut it into tiles with RunFused over a ThreadPool(2),
//                  TileSchedule{4096, 0} (N >= 1e5)
//   glm_aos_o2     the glm loop on std::vector<glm::vec4/mat4/quat>, -O2
//                  (bench/transform_peers_glm_o2.cc)
//   soa_native_o3  the plain scalar SoA loop, -O3 -march=native
//   (bench/transform_peers_soa_native.cc) roofline       a copy pass over exactly the workload's
//   bytes (its input lanes read once, its
//                  output lanes written once), -O3 -march=native, 1 thread and, for N >= 1e5, 2
//                  threads with the same tiles as swarm (bench/transform_peers_roofline.cc):
//                  one loop per output lane; roofline_fused: all lanes in one loop. The report
//                  takes the faster of the two as the roofline
// numpy is timed by bench/numpy_transform.py in the same scripts/bench.sh invocation.
//
// Before timing, every implementation is checked against glm on a small batch, so a wrong kernel
// or peer stops the program instead of producing a fast number. Rounds are interleaved as
// bench/bench_common.h describes; scripts/plot_transform.py reduces them and prints the table.
//
//   swarm-bench-transform --max-count=1e7 --simd=auto --rounds=5 --min-time=0.05
//       --memory-rounds=5 --memory-min-time=0.05
//       --benchmark_out=bench/results/transform.json --benchmark_out_format=json
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bench/bench_common.h"
#include "bench/transform_peers.h"
#include "bench/transform_peers_glm.h"
#include "demos/command_line/flags.h"
#include "demos/command_line/runtime_flags.h"
#include "swarm/core/buffer.h"
#include "swarm/core/lane_storage.h"
#include "swarm/core/memory.h"
#include "swarm/core/simd.h"
#include "swarm/core/thread_pool.h"
#include "swarm/core/tile_pipeline.h"
#include "swarm/kernels/base/views.h"
#include "swarm/kernels/geometry/quaternion.h"
#include "swarm/kernels/geometry/transform.h"

namespace swarm::bench {
namespace {

constexpr const char* kProgram = "swarm-bench-transform";
constexpr uint64_t kCounts[] = {1'000, 10'000, 100'000, 1'000'000, 10'000'000};
constexpr uint64_t kMaxCount = 10'000'000;
constexpr uint64_t kMemoryCount = 1'000'000;  // from here on the data leaves the caches
constexpr uint64_t kThreadedMinCount = 100'000;
constexpr uint64_t kCheckCount = 4'099;  // a few vectors of every target, and a remainder
constexpr TileSchedule kThreadedSchedule{4096, 0};

enum class Workload { kOneMatrix, kPerElementMatrix, kRotatePerElement, kRotateOne };
constexpr Workload kWorkloads[] = {Workload::kOneMatrix, Workload::kPerElementMatrix,
                                   Workload::kRotatePerElement, Workload::kRotateOne};

const char* WorkloadName(Workload workload) {
  switch (workload) {
    case Workload::kOneMatrix:
      return "transform_one_matrix";
    case Workload::kPerElementMatrix:
      return "transform_per_element";
    case Workload::kRotatePerElement:
      return "rotate_per_element";
    case Workload::kRotateOne:
      return "rotate_one_quat";
  }
  return "?";
}

// Bytes per element each workload must move (header comment).
double BytesPerElement(Workload workload) {
  switch (workload) {
    case Workload::kOneMatrix:
      return 12.0 + 16.0;
    case Workload::kPerElementMatrix:
      return 64.0 + 16.0 + 16.0;
    case Workload::kRotatePerElement:
      return 16.0 + 16.0 + 16.0;
    case Workload::kRotateOne:
      return 16.0 + 16.0;
  }
  return 0.0;
}

struct Options {
  uint64_t max_count = kMaxCount;
  RoundOptions rounds{5, 0.05, 5, 0.05, 0};
  std::string simd = "auto";
};

[[noreturn]] void Die(const std::string& message) { Fail(kProgram, message); }

glm::quat UnitQuaternion(size_t i, uint32_t salt) {
  glm::quat q(Pattern(i, salt + 3), Pattern(i, salt), Pattern(i, salt + 1), Pattern(i, salt + 2));
  const float length = glm::length(q);
  return length > 0.25f ? q / length : glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
}
glm::vec4 InitialPoint(size_t i) { return {Pattern(i, 1), Pattern(i, 2), Pattern(i, 3), 1.0f}; }
// A rigid transform (the model matrices of a scene): rotation and a translation in [-1, 1)^3.
glm::mat4 InitialMatrix(size_t i) {
  glm::mat4 m = glm::mat4_cast(UnitQuaternion(i, 10));
  m[3] = glm::vec4(Pattern(i, 20), Pattern(i, 21), Pattern(i, 22), 1.0f);
  return m;
}
glm::quat InitialQuaternion(size_t i) { return UnitQuaternion(i, 30); }

// The single matrix and quaternion: a rotation about a skew axis, a scale and a translation.
glm::mat4 OneMatrix() {
  glm::mat4 m = glm::mat4_cast(glm::normalize(glm::quat(0.8f, 0.3f, -0.4f, 0.2f))) * 1.5f;
  m[3] = glm::vec4(0.25f, -2.0f, 3.5f, 1.0f);
  return m;
}
glm::quat OneQuaternion() { return glm::normalize(glm::quat(0.9f, 0.2f, -0.3f, 0.25f)); }

// The memory of one N, built on first use: swarm's SoA buffers (points in and out, quaternions
// and 16-lane matrices) and the glm peers' AoS vectors. The SoA peer and the roofline run on the
// swarm buffers' own memory: same layout, alignment and pages as swarm, so the comparison is
// about the loops alone.
class Workspace {
 public:
  explicit Workspace(size_t count) : count_(count) {}
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  size_t count() const { return count_; }

  ConstVec4View points() { return Soa().points.view(); }
  Vec4View out() { return Soa().out.view(); }
  ConstVec4View quaternions() { return Soa().quaternions.view(); }
  ConstMat4View matrices() {
    SoaState& soa = Soa();
    return {soa.matrices.lane(0), count_, soa.matrices.capacity()};
  }
  std::span<const glm::vec4> aos_points() { return Aos().points; }
  std::span<glm::vec4> aos_out() { return Aos().out; }
  std::span<const glm::mat4> aos_matrices() { return Aos().matrices; }
  std::span<const glm::quat> aos_quaternions() { return Aos().quaternions; }

 private:
  struct SoaState {
    Vec4Buffer points;
    Vec4Buffer out;
    Vec4Buffer quaternions;
    LaneStorage<float, 16> matrices;
  };
  struct AosState {
    std::vector<glm::vec4> points;
    std::vector<glm::vec4> out;
    std::vector<glm::mat4> matrices;
    std::vector<glm::quat> quaternions;
  };

  Vec4Buffer MakeBuffer() {
    Result<Vec4Buffer> created = Vec4Buffer::Create(memory_, count_);
    if (!created.ok()) Die(created.status().message());
    return std::move(created).value();
  }

  SoaState& Soa() {
    if (soa_) return *soa_;
    soa_ = SoaState{MakeBuffer(), MakeBuffer(), MakeBuffer(),
                    LaneStorage<float, 16>(memory_, MemoryCategory::kParticles)};
    if (Status status = soa_->matrices.Resize(count_); !status.ok()) Die(status.message());
    const Vec4View points = soa_->points.view();
    const Vec4View quaternions = soa_->quaternions.view();
    for (size_t i = 0; i < count_; ++i) {
      const glm::vec4 p = InitialPoint(i);
      const glm::quat q = InitialQuaternion(i);
      const glm::mat4 m = InitialMatrix(i);
      for (int lane = 0; lane < 4; ++lane) {
        points.Lane(lane)[i] = p[lane];
        quaternions.Lane(lane)[i] = q[lane];  // glm::quat's operator[] is x, y, z, w
      }
      for (int lane = 0; lane < 16; ++lane) soa_->matrices.lane(lane)[i] = m[lane / 4][lane % 4];
    }
    return *soa_;
  }

  AosState& Aos() {
    if (aos_) return *aos_;
    aos_.emplace();
    aos_->points.resize(count_);
    aos_->out.resize(count_);
    aos_->matrices.resize(count_);
    aos_->quaternions.resize(count_);
    for (size_t i = 0; i < count_; ++i) {
      aos_->points[i] = InitialPoint(i);
      aos_->matrices[i] = InitialMatrix(i);
      aos_->quaternions[i] = InitialQuaternion(i);
    }
    return *aos_;
  }

  size_t count_;
  MemoryAccountant memory_;  // declared before the buffers it must outlive
  std::optional<SoaState> soa_;
  std::optional<AosState> aos_;
};

Workspace& WorkspaceFor(const benchmark::State& state) {
  return bench::WorkspaceFor<Workspace>(state);
}

ConstVec4Lanes LanesOf(const ConstVec4View& view) {
  return {view.x(), view.y(), view.z(), view.w()};
}
Vec4Lanes LanesOf(const Vec4View& view) { return {view.x(), view.y(), view.z(), view.w()}; }

// --- The implementations of each workload over [begin, begin + n) -------------------------------
// Each returns a stage callable (begin, n) bound to the workspace's memory; views are made once,
// outside the timed loop, and sliced per tile.

void RunSwarm(Workload workload, Workspace& workspace, size_t begin, size_t n) {
  [[maybe_unused]] static const glm::mat4 matrix = OneMatrix();
  [[maybe_unused]] static const glm::quat quaternion = OneQuaternion();
  const ConstVec4View in = workspace.points().Slice(begin, n);
  const Vec4View out = workspace.out().Slice(begin, n);
  switch (workload) {
    case Workload::kOneMatrix:
      TransformVectors(matrix, in, out, TransformParams{TransformMode::kPoints, false});
      return;
    case Workload::kPerElementMatrix:
      TransformVectorsPerElement(workspace.matrices().Slice(begin, n), in, out,
                                 TransformMode::kHomogeneous);
      return;
    case Workload::kRotatePerElement:
      RotateVectorsPerElement(workspace.quaternions().Slice(begin, n), in, out);
      return;
    case Workload::kRotateOne:
      RotateVectors(quaternion, in, out);
      return;
    default:
      Die("swarm kernel not built");
  }
}

void RunGlm(Workload workload, Workspace& workspace) {
  static const glm::mat4 matrix = OneMatrix();
  static const glm::quat quaternion = OneQuaternion();
  const std::span<const glm::vec4> in = workspace.aos_points();
  const std::span<glm::vec4> out = workspace.aos_out();
  switch (workload) {
    case Workload::kOneMatrix:
      GlmTransformPointsO2(matrix, in, out);
      return;
    case Workload::kPerElementMatrix:
      GlmTransformPerElementO2(workspace.aos_matrices(), in, out);
      return;
    case Workload::kRotatePerElement:
      GlmRotatePerElementO2(workspace.aos_quaternions(), in, out);
      return;
    case Workload::kRotateOne:
      GlmRotateO2(quaternion, in, out);
      return;
  }
}

void RunSoaNative(Workload workload, Workspace& workspace) {
  static const glm::mat4 matrix = OneMatrix();
  static const glm::quat quaternion = OneQuaternion();
  const ConstVec4Lanes in = LanesOf(workspace.points());
  const Vec4Lanes out = LanesOf(workspace.out());
  const size_t count = workspace.count();
  switch (workload) {
    case Workload::kOneMatrix:
      SoaTransformPointsNative(&matrix[0][0], in, out, count);
      return;
    case Workload::kPerElementMatrix: {
      const ConstMat4View m = workspace.matrices();
      const float* lanes[16];
      for (size_t lane = 0; lane < 16; ++lane) lanes[lane] = m.Lane(lane);
      SoaTransformPerElementNative(lanes, in, out, count);
      return;
    }
    case Workload::kRotatePerElement:
      SoaRotatePerElementNative(LanesOf(workspace.quaternions()), in, out, count);
      return;
    case Workload::kRotateOne: {
      const float q[4] = {quaternion.x, quaternion.y, quaternion.z, quaternion.w};
      SoaRotateNative(q, in, out, count);
      return;
    }
  }
}

// The lanes each workload reads and writes, for the roofline copy.
struct RooflineLanes {
  const float* inputs[20];
  size_t input_count = 0;
  float* outputs[4];
  size_t output_count = 4;
};

RooflineLanes RooflineLanesOf(Workload workload, Workspace& workspace) {
  RooflineLanes lanes;
  const ConstVec4View points = workspace.points();
  const Vec4View out = workspace.out();
  for (size_t lane = 0; lane < 4; ++lane) lanes.outputs[lane] = out.Lane(lane);
  const auto add = [&lanes](const float* lane) { lanes.inputs[lanes.input_count++] = lane; };
  const size_t point_lanes = workload == Workload::kOneMatrix ? 3 : 4;
  for (size_t lane = 0; lane < point_lanes; ++lane) add(points.Lane(lane));
  if (workload == Workload::kPerElementMatrix) {
    for (size_t lane = 0; lane < 16; ++lane) add(workspace.matrices().Lane(lane));
  }
  if (workload == Workload::kRotatePerElement) {
    for (size_t lane = 0; lane < 4; ++lane) add(workspace.quaternions().Lane(lane));
  }
  return lanes;
}

void RunRoofline(const RooflineLanes& lanes, bool fused, size_t begin, size_t n) {
  const float* inputs[20];
  float* outputs[4];
  for (size_t k = 0; k < lanes.input_count; ++k) inputs[k] = lanes.inputs[k] + begin;
  for (size_t j = 0; j < lanes.output_count; ++j) outputs[j] = lanes.outputs[j] + begin;
  (fused ? CopyLanesFused : CopyLanes)(inputs, lanes.input_count, outputs, lanes.output_count, n);
}

// --- Benchmarks
// -----------------------------------------------------------------------------------

void SwarmBenchmark(benchmark::State& state, Workload workload, ThreadPool& pool) {
  Workspace& workspace = WorkspaceFor(state);
  const auto stage = [&](size_t begin, size_t n) { RunSwarm(workload, workspace, begin, n); };
  TimePasses(state, [&] { RunOver(pool, workspace.count(), stage, kThreadedSchedule); });
  ReportElements(state, workspace.count(), BytesPerElement(workload));
}

void GlmBenchmark(benchmark::State& state, Workload workload) {
  Workspace& workspace = WorkspaceFor(state);
  TimePasses(state, [&] { RunGlm(workload, workspace); });
  ReportElements(state, workspace.count(), BytesPerElement(workload));
}

void SoaNativeBenchmark(benchmark::State& state, Workload workload) {
  Workspace& workspace = WorkspaceFor(state);
  TimePasses(state, [&] { RunSoaNative(workload, workspace); });
  ReportElements(state, workspace.count(), BytesPerElement(workload));
}

void RooflineBenchmark(benchmark::State& state, Workload workload, ThreadPool& pool, bool fused) {
  Workspace& workspace = WorkspaceFor(state);
  const RooflineLanes lanes = RooflineLanesOf(workload, workspace);
  const auto stage = [&](size_t begin, size_t n) { RunRoofline(lanes, fused, begin, n); };
  TimePasses(state, [&] { RunOver(pool, workspace.count(), stage, kThreadedSchedule); });
  ReportElements(state, workspace.count(), BytesPerElement(workload));
}

// --- Checks
// ---------------------------------------------------------------------------------------

glm::vec4 Expected(Workload workload, size_t i) {
  const glm::vec4 p = InitialPoint(i);
  switch (workload) {
    case Workload::kOneMatrix:
      return OneMatrix() * p;
    case Workload::kPerElementMatrix:
      return InitialMatrix(i) * p;
    case Workload::kRotatePerElement:
      return glm::vec4(InitialQuaternion(i) * glm::vec3(p), p.w);
    case Workload::kRotateOne:
      return glm::vec4(OneQuaternion() * glm::vec3(p), p.w);
  }
  return {};
}

void Poison(Workspace& workspace) {
  const Vec4View out = workspace.out();
  for (size_t lane = 0; lane < 4; ++lane) {
    for (size_t i = 0; i < workspace.count(); ++i) out.Lane(lane)[i] = NAN;
  }
  for (glm::vec4& value : workspace.aos_out()) value = glm::vec4(NAN);
}

// Compares every element of an implementation's output (SoA or AoS) with glm computed here, then
// poisons the outputs so that the next implementation starts from NaN.
void CheckOutput(Workload workload, const std::string& implementation, Workspace& workspace,
                 bool aos_output) {
  const Vec4View out = workspace.out();
  const std::span<glm::vec4> aos_out = workspace.aos_out();
  for (size_t i = 0; i < workspace.count(); ++i) {
    const glm::vec4 want = Expected(workload, i);
    for (int lane = 0; lane < 4; ++lane) {
      const float got = aos_output ? aos_out[i][lane] : out.Lane(lane)[i];
      // |values| < 8 here, and every implementation rounds a handful of products.
      if (!(std::fabs(got - want[lane]) <= 1e-5f * (1.0f + std::fabs(want[lane])))) {
        char message[256];
        std::snprintf(message, sizeof(message),
                      "%s %s is wrong at element %zu lane %d: got %.9g, expected %.9g (glm)",
                      WorkloadName(workload), implementation.c_str(), i, lane, got, want[lane]);
        Die(message);
      }
    }
  }
  Poison(workspace);
}

// Every implementation of every workload once on kCheckCount elements, against glm.
void CheckImplementations([[maybe_unused]] Pools& pools) {
  Workspace workspace(kCheckCount);
  Poison(workspace);
  for (const Workload workload : kWorkloads) {
    RunGlm(workload, workspace);
    CheckOutput(workload, "glm_aos_o2", workspace, true);
    RunSoaNative(workload, workspace);
    CheckOutput(workload, "soa_native_o3", workspace, false);
    for (const int threads : {1, 2}) {
      const auto stage = [&](size_t begin, size_t n) { RunSwarm(workload, workspace, begin, n); };
      RunOver(pools.For(threads), workspace.count(), stage, kThreadedSchedule);
      CheckOutput(workload, "swarm (" + std::to_string(threads) + " thread(s))", workspace, false);
    }
  }
}

// --- Registration
// ---------------------------------------------------------------------------------

void RegisterAll(const Options& options, Pools& pools) {
  for (const uint64_t count : kCounts) {
    if (count > options.max_count) continue;
    const Plan plan = PlanFor(options.rounds, count, kMemoryCount, UINT64_MAX);
    std::vector<int> thread_counts = {1};
    if (count >= kThreadedMinCount) thread_counts.push_back(2);
    for (uint64_t round = 0; round < plan.rounds; ++round) {
      for (const Workload workload : kWorkloads) {
        const std::string prefix = std::string(WorkloadName(workload)) + "/";
        for (const int threads : thread_counts) {
          ThreadPool& pool = pools.For(threads);
          Register(prefix + "swarm", count, threads, round, plan,
                   [workload, &pool](benchmark::State& state) {
                     SwarmBenchmark(state, workload, pool);
                   });
        }
        Register(prefix + "glm_aos_o2", count, 1, round, plan,
                 [workload](benchmark::State& state) { GlmBenchmark(state, workload); });
        Register(prefix + "soa_native_o3", count, 1, round, plan,
                 [workload](benchmark::State& state) { SoaNativeBenchmark(state, workload); });
        for (const int threads : thread_counts) {
          ThreadPool& pool = pools.For(threads);
          for (const bool fused : {false, true}) {
            Register(prefix + (fused ? "roofline_fused" : "roofline"), count, threads, round, plan,
                     [workload, &pool, fused](benchmark::State& state) {
                       RooflineBenchmark(state, workload, pool, fused);
                     });
          }
        }
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
                       "Batched transforms (one matrix, per-element matrices, quaternion "
                       "rotations): swarm vs glm AoS -O2, the SoA loop -O3 -march=native and the "
                       "copy roofline. Also accepts Google Benchmark's --benchmark_* flags.");
  flags.AddCount("max-count", &options.max_count, 1'000, swarm::bench::kMaxCount,
                 "largest N to run (N = 1e3, 1e4, ... up to it)");
  swarm::bench::AddRoundFlags(flags, options.rounds, "N < 1e6", "N >= 1e6", nullptr);
  AddSimdFlag(flags, &options.simd, " (swarm only)");
  swarm::bench::StartBenchmark(swarm::bench::kProgram, flags, &argc, argv, &options.simd);
  benchmark::AddCustomContext(
      "bytes_per_element",
      "transform_one_matrix 28 (kPoints: x, y, z read, x, y, z, w written), "
      "transform_per_element 96 (kHomogeneous: 64 B matrix + 16 B point read, 16 B written), "
      "rotate_per_element 48 (16 B quaternion + 16 B vector read, 16 B written), "
      "rotate_one_quat 32 (16 B read, 16 B written)");
  std::string kernels;
  for (const swarm::bench::Workload workload : swarm::bench::kWorkloads) {
    kernels += std::string(kernels.empty() ? "" : ",") + swarm::bench::WorkloadName(workload);
  }
  benchmark::AddCustomContext("swarm_kernels_built", kernels.empty() ? "none" : kernels);
  benchmark::AddCustomContext("rounds", std::to_string(options.rounds.rounds) + " below 1e6, " +
                                            std::to_string(options.rounds.memory_rounds) +
                                            " from 1e6");
  swarm::bench::Pools pools;
  swarm::bench::CheckImplementations(pools);
  swarm::bench::RegisterAll(options, pools);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  swarm::bench::CurrentWorkspace<swarm::bench::Workspace>().reset();
  return 0;
}
