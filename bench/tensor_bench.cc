// swarm-bench-tensor: tensor reductions, elementwise ops and printing (swarm/tensor/tensor_ops.h,
// swarm/tensor/tensor_format.h) next to a plain read pass over the same bytes, in one binary so
// every ratio comes from one run on one machine state. numpy runs beside it (bench/numpy_tensor.py,
// scripts/bench.sh --suite tensor) and bench/numpy_tensor.py --table prints the comparison.
//
// Workloads (bytes counted per element, so GB/s and ns/element convert into each other):
//   read_pass        a SIMD loop that loads every vector of the f32[N] array and XORs the bits
//                    into four accumulators: no arithmetic to speak of, so it runs at the speed
//                    memory delivers (4 B per element). Compiled per target and dispatched like
//                    the kernels (it is in this file, below)
//   swarm_sum        Sum(f32[N] view): the deterministic double-lane sum (4 B)
//   swarm_mean       Mean(f32[N] view) (4 B)
//   swarm_add        Add(a, b, out), three f32[N] tensors (12 B: two read, one written)
//   swarm_add_row    Add(soa, row, soa): a [4] row broadcast onto an SoA Vec4Buffer seen as
//                    f32[N][4] with strides [1, lane_stride], in place (N particles, 32 B each:
//                    16 read, 16 written); the ops run four rows of N along the particles
//   swarm_format     FormatTensor of an f32[250000][4] SoA view (1e6 elements), default options
//                    (elided); its ns_per_element counter is the time per call
// N = 1e3 .. 1e8 for the reductions and read pass, 1e5 and 1e7 for the elementwise ops.
//
// Every result is checked before timing (sums against long double, adds against a scalar loop,
// the format's header), so a wrong kernel stops the program instead of producing a fast number.
// Rounds are interleaved as bench/bench_common.h describes.
//
//   swarm-bench-tensor --max-count=1e8 --simd=auto --rounds=3 --min-time=0.2
//       --memory-rounds=8 --memory-min-time=0.05 --large-rounds=3
//       --benchmark_out=bench/results/tensor.json --benchmark_out_format=json

// The read pass is compiled once per SIMD target: this file includes itself through Highway's
// foreach_target, and everything else is inside HWY_ONCE.
#include <cstddef>
#include <cstdint>
#include <cstring>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "bench/tensor_bench.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace swarm::bench {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// XOR of the bits of data[0, count): four independent accumulators keep the loop bound by loads.
inline uint32_t ReadPassImpl(const float* HWY_RESTRICT data, size_t count) {
  const hn::ScalableTag<float> df;
  const hn::RebindToUnsigned<decltype(df)> du;
  const size_t lanes = hn::Lanes(df);
  auto x0 = hn::Zero(du);
  auto x1 = hn::Zero(du);
  auto x2 = hn::Zero(du);
  auto x3 = hn::Zero(du);
  size_t i = 0;
  for (; i + 4 * lanes <= count; i += 4 * lanes) {
    x0 = hn::Xor(x0, hn::BitCast(du, hn::LoadU(df, data + i)));
    x1 = hn::Xor(x1, hn::BitCast(du, hn::LoadU(df, data + i + lanes)));
    x2 = hn::Xor(x2, hn::BitCast(du, hn::LoadU(df, data + i + 2 * lanes)));
    x3 = hn::Xor(x3, hn::BitCast(du, hn::LoadU(df, data + i + 3 * lanes)));
  }
  for (; i + lanes <= count; i += lanes) {
    x0 = hn::Xor(x0, hn::BitCast(du, hn::LoadU(df, data + i)));
  }
  const auto all = hn::Xor(hn::Xor(x0, x1), hn::Xor(x2, x3));
  HWY_ALIGN uint32_t lane_bits[hn::MaxLanes(decltype(du)())];
  hn::Store(all, du, lane_bits);
  uint32_t result = 0;
  for (size_t lane = 0; lane < lanes; ++lane) result ^= lane_bits[lane];
  for (; i < count; ++i) {
    uint32_t bits;
    std::memcpy(&bits, data + i, sizeof(bits));
    result ^= bits;
  }
  return result;
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm::bench
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>

#include "bench/bench_common.h"
#include "demos/command_line/flags.h"
#include "demos/command_line/runtime_flags.h"
#include "swarm/core/buffer.h"
#include "swarm/core/memory.h"
#include "swarm/core/simd.h"
#include "swarm/tensor/tensor.h"
#include "swarm/tensor/tensor_adapters.h"
#include "swarm/tensor/tensor_format.h"
#include "swarm/tensor/tensor_ops.h"

namespace swarm::bench {

HWY_EXPORT(ReadPassImpl);

namespace {

constexpr const char* kProgram = "swarm-bench-tensor";
constexpr uint64_t kCounts[] = {1'000, 10'000, 100'000, 1'000'000, 10'000'000, 100'000'000};
constexpr uint64_t kElementwiseCounts[] = {100'000, 10'000'000};
constexpr uint64_t kFormatElements = 1'000'000;  // f32[250000][4]
constexpr uint64_t kMemoryCount = 1'000'000;
constexpr uint64_t kLargeCount = 100'000'000;

struct Options {
  uint64_t max_count = kLargeCount;
  RoundOptions rounds;
  std::string simd = "auto";
};

[[noreturn]] void Die(const std::string& message) { Fail(kProgram, message); }

template <typename T>
T Check(Result<T> result) {
  if (!result.ok()) Die(result.status().message());
  return std::move(result).value();
}
void Check(const Status& status) {
  if (!status.ok()) Die(status.message());
}

Tensor MakeTensor(MemoryAccountant& memory, size_t count, uint32_t salt) {
  Tensor tensor = Check(Tensor::Create(memory, DType::kF32, {static_cast<int64_t>(count)}));
  auto* data = static_cast<float*>(tensor.view().data());
  for (size_t i = 0; i < count; ++i) data[i] = Pattern(i, salt);
  return tensor;
}

// f32[N] for the reductions and the read pass.
class ReduceWorkspace {
 public:
  explicit ReduceWorkspace(size_t count) : count_(count), values_(MakeTensor(memory_, count, 1)) {}
  size_t count() const { return count_; }
  TensorView view() { return values_.view(); }

 private:
  size_t count_;
  MemoryAccountant memory_;
  Tensor values_;
};

// a, b and out of swarm_add, and the SoA buffer of swarm_add_row.
class ElementwiseWorkspace {
 public:
  explicit ElementwiseWorkspace(size_t count)
      : count_(count),
        a_(MakeTensor(memory_, count, 2)),
        b_(MakeTensor(memory_, count, 3)),
        out_(MakeTensor(memory_, count, 4)),
        soa_(Check(Vec4Buffer::Create(memory_, count))) {
    const Vec4View lanes = soa_.view();
    for (size_t lane = 0; lane < 4; ++lane) {
      for (size_t i = 0; i < count; ++i) lanes.Lane(lane)[i] = Pattern(i, 5 + lane);
    }
  }
  size_t count() const { return count_; }
  TensorView a() { return a_.view(); }
  TensorView b() { return b_.view(); }
  TensorView out() { return out_.view(); }
  TensorView soa() { return TensorOf(soa_); }

 private:
  size_t count_;
  MemoryAccountant memory_;
  Tensor a_, b_, out_;
  Vec4Buffer soa_;
};

// An SoA buffer of count / 4 particles: `count` elements as f32[count / 4][4].
class FormatWorkspace {
 public:
  explicit FormatWorkspace(size_t count)
      : count_(count), soa_(Check(Vec4Buffer::Create(memory_, count / 4))) {
    const Vec4View lanes = soa_.view();
    for (size_t lane = 0; lane < 4; ++lane) {
      for (size_t i = 0; i < lanes.count; ++i) lanes.Lane(lane)[i] = Pattern(i, 9 + lane);
    }
  }
  size_t count() const { return count_; }
  TensorView soa() { return TensorOf(soa_); }

 private:
  size_t count_;
  MemoryAccountant memory_;
  Vec4Buffer soa_;
};

// A row that keeps the in-place adds bounded: +x then -x on alternate calls.
float g_row[2][4] = {{0.5f, -0.25f, 1.0f, 0.0f}, {-0.5f, 0.25f, -1.0f, 0.0f}};

void ReadPass(benchmark::State& state) {
  ReduceWorkspace& workspace = WorkspaceFor<ReduceWorkspace>(state);
  const auto* data = static_cast<const float*>(workspace.view().data());
  TimePasses(state, [&] {
    benchmark::DoNotOptimize(HWY_DYNAMIC_DISPATCH(ReadPassImpl)(data, workspace.count()));
  });
  ReportElements(state, workspace.count(), 4.0);
}

void SwarmSum(benchmark::State& state) {
  ReduceWorkspace& workspace = WorkspaceFor<ReduceWorkspace>(state);
  const TensorView view = workspace.view();
  TimePasses(state, [&] { benchmark::DoNotOptimize(Sum(view).value()); });
  ReportElements(state, workspace.count(), 4.0);
}

void SwarmMean(benchmark::State& state) {
  ReduceWorkspace& workspace = WorkspaceFor<ReduceWorkspace>(state);
  const TensorView view = workspace.view();
  TimePasses(state, [&] { benchmark::DoNotOptimize(Mean(view).value()); });
  ReportElements(state, workspace.count(), 4.0);
}

void SwarmAdd(benchmark::State& state) {
  ElementwiseWorkspace& workspace = WorkspaceFor<ElementwiseWorkspace>(state);
  const TensorView a = workspace.a();
  const TensorView b = workspace.b();
  const TensorView out = workspace.out();
  TimePasses(state, [&] { Check(Add(a, b, out)); });
  ReportElements(state, workspace.count(), 12.0);
}

void SwarmAddRow(benchmark::State& state) {
  ElementwiseWorkspace& workspace = WorkspaceFor<ElementwiseWorkspace>(state);
  const TensorView soa = workspace.soa();
  const int64_t row_shape[] = {4};
  const TensorView rows[2] = {Check(TensorView::Contiguous(g_row[0], DType::kF32, row_shape)),
                              Check(TensorView::Contiguous(g_row[1], DType::kF32, row_shape))};
  size_t call = 0;
  TimePasses(state, [&] { Check(Add(soa, rows[call++ % 2], soa)); });
  ReportElements(state, workspace.count(), 32.0, "ns_per_particle");
}

void SwarmFormat(benchmark::State& state) {
  FormatWorkspace& workspace = WorkspaceFor<FormatWorkspace>(state);
  const TensorView soa = workspace.soa();
  TimePasses(state, [&] { benchmark::DoNotOptimize(FormatTensor(soa)); });
  // One "element" per call: ns_per_element is the time of one FormatTensor.
  ReportElements(state, 1, 0.0);
}

// Checks every workload on its own data before anything is timed.
void CheckResults() {
  for (const size_t count : {size_t{1'000}, size_t{1'000'003}}) {
    ReduceWorkspace workspace(count);
    const auto* data = static_cast<const float*>(workspace.view().data());
    long double exact = 0.0L;
    long double magnitude = 0.0L;
    uint32_t bits = 0;
    for (size_t i = 0; i < count; ++i) {
      exact += data[i];
      magnitude += std::fabs(data[i]);
      uint32_t element;
      std::memcpy(&element, data + i, sizeof(element));
      bits ^= element;
    }
    const double sum = Check(Sum(workspace.view()));
    // The bound of swarm/kernels/tensor/row_kernels.h.
    const double bound =
        static_cast<double>(magnitude) * ((static_cast<double>(count) / 32.0 + 5.0) * 0x1p-53);
    if (std::fabs(sum - static_cast<double>(exact)) > bound) {
      Die("Sum is wrong at N = " + std::to_string(count));
    }
    if (HWY_DYNAMIC_DISPATCH(ReadPassImpl)(data, count) != bits) {
      Die("the read pass is wrong at N = " + std::to_string(count));
    }
  }
  ElementwiseWorkspace workspace(4'099);
  Check(Add(workspace.a(), workspace.b(), workspace.out()));
  const auto* a = static_cast<const float*>(workspace.a().data());
  const auto* b = static_cast<const float*>(workspace.b().data());
  const auto* out = static_cast<const float*>(workspace.out().data());
  for (size_t i = 0; i < workspace.count(); ++i) {
    if (out[i] != a[i] + b[i]) Die("Add is wrong at element " + std::to_string(i));
  }
  const TensorView soa = workspace.soa();
  const float before = Check(soa.At<float>({7, 2}));
  const int64_t row_shape[] = {4};
  Check(Add(soa, Check(TensorView::Contiguous(g_row[0], DType::kF32, row_shape)), soa));
  if (Check(soa.At<float>({7, 2})) != before + g_row[0][2]) Die("the row add is wrong");
  FormatWorkspace format_workspace(kFormatElements);
  const std::string text = FormatTensor(format_workspace.soa());
  if (text.rfind("f32[250000][4]", 0) != 0) Die("FormatTensor printed: " + text.substr(0, 80));
}

void RegisterAll(const Options& options) {
  for (const uint64_t count : kCounts) {
    if (count > options.max_count) break;
    const Plan plan = PlanFor(options.rounds, count, kMemoryCount, kLargeCount);
    for (uint64_t round = 0; round < plan.rounds; ++round) {
      Register("read_pass", count, 1, round, plan, ReadPass);
      Register("swarm_sum", count, 1, round, plan, SwarmSum);
      Register("swarm_mean", count, 1, round, plan, SwarmMean);
    }
  }
  for (const uint64_t count : kElementwiseCounts) {
    if (count > options.max_count) break;
    const Plan plan = PlanFor(options.rounds, count, kMemoryCount, kLargeCount);
    for (uint64_t round = 0; round < plan.rounds; ++round) {
      Register("swarm_add", count, 1, round, plan, SwarmAdd);
      Register("swarm_add_row", count, 1, round, plan, SwarmAddRow);
    }
  }
  const Plan plan = PlanFor(options.rounds, kFormatElements, kMemoryCount, kLargeCount);
  for (uint64_t round = 0; round < plan.rounds; ++round) {
    Register("swarm_format", kFormatElements, 1, round, plan, SwarmFormat);
  }
}

}  // namespace
}  // namespace swarm::bench

int main(int argc, char** argv) {
  using swarm::bench::Options;
  Options options;
  swarm::FlagSet flags("swarm-bench-tensor",
                       "Tensor sum/mean vs a read pass, elementwise adds and FormatTensor. Also "
                       "accepts Google Benchmark's --benchmark_* flags.");
  flags.AddCount("max-count", &options.max_count, 1'000, swarm::bench::kLargeCount,
                 "largest N of the reductions and elementwise ops");
  swarm::bench::AddRoundFlags(flags, options.rounds, "N < 1e6", "1e6 <= N < 1e8", "N = 1e8");
  AddSimdFlag(flags, &options.simd);
  swarm::bench::StartBenchmark(swarm::bench::kProgram, flags, &argc, argv, &options.simd);
  swarm::bench::CheckResults();
  swarm::bench::RegisterAll(options);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  swarm::bench::CurrentWorkspace<swarm::bench::ReduceWorkspace>().reset();
  swarm::bench::CurrentWorkspace<swarm::bench::ElementwiseWorkspace>().reset();
  swarm::bench::CurrentWorkspace<swarm::bench::FormatWorkspace>().reset();
  return 0;
}
#endif  // HWY_ONCE
