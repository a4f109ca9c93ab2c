// swarm-bench-tensor-calls: what one tensor call costs at every size, next to the plain loop a
// user would write over the same floats (bench/tensor_calls_peers.h: -O2, and -O3
// -march=native), in one binary so every ratio comes from one run. The question is the call's
// overhead (validation, planning, dispatch): at 3 elements a loop takes a couple of
// nanoseconds.
//
// Workloads, contiguous f32[N] tensors, N = 1, 3, 16, 100, 1e3, 1e4, 1e6, 1e7, 1e8:
//   swarm_sum   Sum(view) (the deterministic double-lane sum, swarm/tensor/tensor_ops.h)
//   swarm_add   Add(a, b, out)
//   prepared_sum, prepared_add   the same prepared once (PreparedSum, PreparedElementwise), run
//               per call
//   plain_sum_o2, plain_sum_native   float s = 0; s += x[i] (a sequential float sum)
//   plain_add_o2, plain_add_native   out[i] = a[i] + b[i]
//   swarm_chain       Evaluate(out, (a - b) * c + d): fused, one pass (tensor_expression.h)
//   prepared_chain    the same prepared once (PreparedExpression), run per call
//   swarm_chain_ops   the same as three calls, Sub, Mul and Add, through a temporary
//   eigen_sum, eigen_add, eigen_chain   Eigen 3.4 ArrayXf expressions on Map'd memory, -O3
//                     -march=native (when libeigen3-dev is installed)
//   plain_chain_o2, plain_chain_native   out[i] = (a[i] - b[i]) * c[i] + d[i] (the -O2 loop
//                     without FMA contraction would round the same; -march=native may fuse)
// Every result is checked before timing. The table gives ns per call, best of the rounds.
//
//   swarm-bench-tensor-calls --rounds=3 --min-time=0.1 --simd=auto
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>

#include "bench/bench_common.h"
#include "bench/best_round_reporter.h"
#include "bench/tensor_calls_peers.h"
#include "demos/command_line/flags.h"
#include "demos/command_line/runtime_flags.h"
#include "swarm/core/memory.h"
#include "swarm/core/simd.h"
#include "swarm/tensor/tensor.h"
#include "swarm/tensor/tensor_expression.h"
#include "swarm/tensor/tensor_ops.h"

namespace swarm::bench {
namespace {

constexpr const char* kProgram = "swarm-bench-tensor-calls";
constexpr uint64_t kCounts[] = {1, 3, 16, 100, 1'000, 10'000, 1'000'000, 10'000'000, 100'000'000};
constexpr const char* kRuns[] = {
    "swarm_sum", "prepared_sum", "plain_sum_o2", "plain_sum_native", "eigen_sum",
    "swarm_add", "prepared_add", "plain_add_o2", "plain_add_native", "eigen_add"};
constexpr size_t kRunCount = sizeof(kRuns) / sizeof(kRuns[0]);
constexpr const char* kChainRuns[] = {"swarm_chain",    "prepared_chain",     "swarm_chain_ops",
                                      "plain_chain_o2", "plain_chain_native", "eigen_chain"};
constexpr size_t kChainRunCount = sizeof(kChainRuns) / sizeof(kChainRuns[0]);

struct Options {
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

// a, b and out, f32[N] each.
class Workspace {
 public:
  explicit Workspace(size_t count)
      : count_(count),
        a_(Make(count, 1)),
        b_(Make(count, 2)),
        c_(Make(count, 5)),
        d_(Make(count, 6)),
        out_(Make(count, 3)),
        temporary_(Make(count, 4)) {}
  size_t count() const { return count_; }
  TensorView a() { return a_.view(); }
  TensorView b() { return b_.view(); }
  TensorView c() { return c_.view(); }
  TensorView d() { return d_.view(); }
  TensorView out() { return out_.view(); }
  TensorView temporary() { return temporary_.view(); }
  const float* c_data() { return static_cast<const float*>(c_.view().data()); }
  const float* d_data() { return static_cast<const float*>(d_.view().data()); }
  const float* a_data() { return static_cast<const float*>(a_.view().data()); }
  const float* b_data() { return static_cast<const float*>(b_.view().data()); }
  float* out_data() { return static_cast<float*>(out_.view().data()); }

 private:
  Tensor Make(size_t count, uint32_t salt) {
    Tensor tensor = Check(Tensor::Create(memory_, DType::kF32, {static_cast<int64_t>(count)}));
    auto* data = static_cast<float*>(tensor.view().data());
    for (size_t i = 0; i < count; ++i) data[i] = Pattern(i, salt);
    return tensor;
  }
  size_t count_;
  MemoryAccountant memory_;
  Tensor a_, b_, c_, d_, out_, temporary_;
};

// Checks every workload once at this N: the sums against long double, the adds element by
// element.
void CheckResults(Workspace& workspace) {
  const size_t n = workspace.count();
  long double exact = 0.0L;
  for (size_t i = 0; i < n; ++i) exact += workspace.a_data()[i];
  const double sum = Check(Sum(workspace.a()));
  if (std::abs(sum - static_cast<double>(exact)) > 1e-9 * static_cast<double>(n)) {
    Die("Sum is wrong at N = " + std::to_string(n));
  }
  for (const auto plain : {PlainSumO2, PlainSumNative}) {
    if (std::abs(plain(workspace.a_data(), n) - static_cast<double>(exact)) >
        1e-3 * static_cast<double>(n)) {
      Die("a plain sum is wrong at N = " + std::to_string(n));
    }
  }
  for (const auto chain :
       {+[](Workspace& w) { Check(Evaluate(w.out(), (w.a() - w.b()) * w.c() + w.d())); },
        +[](Workspace& w) {
          Check(PreparedExpression::Prepare(w.out(), (w.a() - w.b()) * w.c() + w.d())).Run();
        },
        +[](Workspace& w) {
          Check(Sub(w.a(), w.b(), w.temporary()));
          Check(Mul(w.temporary(), w.c(), w.temporary()));
          Check(Add(w.temporary(), w.d(), w.out()));
        }}) {
    chain(workspace);
    for (size_t i = 0; i < n; ++i) {
      const float* a = workspace.a_data();
      const float want =
          (a[i] - workspace.b_data()[i]) * workspace.c_data()[i] + workspace.d_data()[i];
      if (workspace.out_data()[i] != want) Die("a chain is wrong at element " + std::to_string(i));
    }
  }
  using Adder = void (*)(Workspace&);
  const Adder adders[] = {
      [](Workspace& w) { Check(Add(w.a(), w.b(), w.out())); },
      [](Workspace& w) { PlainAddO2(w.a_data(), w.b_data(), w.out_data(), w.count()); },
      [](Workspace& w) { PlainAddNative(w.a_data(), w.b_data(), w.out_data(), w.count()); }};
  for (const Adder add : adders) {
    for (size_t i = 0; i < n; ++i) workspace.out_data()[i] = -1.0f;
    add(workspace);
    for (size_t i = 0; i < n; ++i) {
      if (workspace.out_data()[i] != workspace.a_data()[i] + workspace.b_data()[i]) {
        Die("an add is wrong at element " + std::to_string(i) + " of " + std::to_string(n));
      }
    }
  }
}

Workspace& WorkspaceAt(benchmark::State& state) {
  static std::unique_ptr<Workspace> workspace;
  const auto count = static_cast<size_t>(state.range(0));
  if (!workspace || workspace->count() != count) {
    workspace.reset();
    workspace = std::make_unique<Workspace>(count);
    CheckResults(*workspace);
  }
  return *workspace;
}

void RegisterAll(const Options& options) {
  for (const uint64_t count : kCounts) {
    const Plan plan = PlanFor(options.rounds, count, UINT64_MAX, UINT64_MAX);
    for (uint64_t round = 0; round < plan.rounds; ++round) {
      Register("swarm_sum", count, 1, round, plan, [](benchmark::State& state) {
        Workspace& w = WorkspaceAt(state);
        const TensorView view = w.a();
        TimePasses(state, [&] { benchmark::DoNotOptimize(Sum(view).value()); });
      });
      Register("prepared_sum", count, 1, round, plan, [](benchmark::State& state) {
        Workspace& w = WorkspaceAt(state);
        const PreparedSum sum = Check(PreparedSum::Prepare(w.a()));
        TimePasses(state, [&] { benchmark::DoNotOptimize(sum.Run()); });
      });
      Register("plain_sum_o2", count, 1, round, plan, [](benchmark::State& state) {
        Workspace& w = WorkspaceAt(state);
        TimePasses(state, [&] { benchmark::DoNotOptimize(PlainSumO2(w.a_data(), w.count())); });
      });
      Register("plain_sum_native", count, 1, round, plan, [](benchmark::State& state) {
        Workspace& w = WorkspaceAt(state);
        TimePasses(state, [&] { benchmark::DoNotOptimize(PlainSumNative(w.a_data(), w.count())); });
      });
      Register("swarm_add", count, 1, round, plan, [](benchmark::State& state) {
        Workspace& w = WorkspaceAt(state);
        const TensorView a = w.a(), b = w.b(), out = w.out();
        TimePasses(state, [&] { benchmark::DoNotOptimize(Add(a, b, out).ok()); });
      });
      Register("prepared_add", count, 1, round, plan, [](benchmark::State& state) {
        Workspace& w = WorkspaceAt(state);
        const PreparedElementwise add =
            Check(PreparedElementwise::Prepare(BinaryOp::kAdd, w.a(), w.b(), w.out()));
        TimePasses(state, [&] { add.Run(); });
      });
      Register("swarm_chain", count, 1, round, plan, [](benchmark::State& state) {
        Workspace& w = WorkspaceAt(state);
        const TensorView a = w.a(), b = w.b(), c = w.c(), d = w.d(), out = w.out();
        TimePasses(state, [&] { benchmark::DoNotOptimize(Evaluate(out, (a - b) * c + d).ok()); });
      });
      Register("prepared_chain", count, 1, round, plan, [](benchmark::State& state) {
        Workspace& w = WorkspaceAt(state);
        const TensorView a = w.a(), b = w.b(), c = w.c(), d = w.d();
        const PreparedExpression chain =
            Check(PreparedExpression::Prepare(w.out(), (a - b) * c + d));
        TimePasses(state, [&] { chain.Run(); });
      });
      Register("swarm_chain_ops", count, 1, round, plan, [](benchmark::State& state) {
        Workspace& w = WorkspaceAt(state);
        const TensorView a = w.a(), b = w.b(), c = w.c(), d = w.d(), out = w.out();
        const TensorView t = w.temporary();
        TimePasses(state, [&] {
          benchmark::DoNotOptimize(Sub(a, b, t).ok());
          benchmark::DoNotOptimize(Mul(t, c, t).ok());
          benchmark::DoNotOptimize(Add(t, d, out).ok());
        });
      });
      Register("plain_chain_o2", count, 1, round, plan, [](benchmark::State& state) {
        Workspace& w = WorkspaceAt(state);
        TimePasses(state, [&] {
          PlainChainO2(w.a_data(), w.b_data(), w.c_data(), w.d_data(), w.out_data(), w.count());
        });
      });
      Register("plain_chain_native", count, 1, round, plan, [](benchmark::State& state) {
        Workspace& w = WorkspaceAt(state);
        TimePasses(state, [&] {
          PlainChainNative(w.a_data(), w.b_data(), w.c_data(), w.d_data(), w.out_data(), w.count());
        });
      });
#if SWARM_BENCH_EIGEN
      Register("eigen_sum", count, 1, round, plan, [](benchmark::State& state) {
        Workspace& w = WorkspaceAt(state);
        TimePasses(state, [&] { benchmark::DoNotOptimize(EigenSum(w.a_data(), w.count())); });
      });
      Register("eigen_add", count, 1, round, plan, [](benchmark::State& state) {
        Workspace& w = WorkspaceAt(state);
        TimePasses(state, [&] { EigenAdd(w.a_data(), w.b_data(), w.out_data(), w.count()); });
      });
      Register("eigen_chain", count, 1, round, plan, [](benchmark::State& state) {
        Workspace& w = WorkspaceAt(state);
        TimePasses(state, [&] {
          EigenChain(w.a_data(), w.b_data(), w.c_data(), w.d_data(), w.out_data(), w.count());
        });
      });
#endif
      Register("plain_add_o2", count, 1, round, plan, [](benchmark::State& state) {
        Workspace& w = WorkspaceAt(state);
        TimePasses(state, [&] { PlainAddO2(w.a_data(), w.b_data(), w.out_data(), w.count()); });
      });
      Register("plain_add_native", count, 1, round, plan, [](benchmark::State& state) {
        Workspace& w = WorkspaceAt(state);
        TimePasses(state, [&] { PlainAddNative(w.a_data(), w.b_data(), w.out_data(), w.count()); });
      });
    }
  }
}

void PrintTable(const std::map<RunKey, double>& best) {
  std::printf("\n%s: best round, SIMD %s; ns per call\n", kProgram,
              ActiveSimdTarget().name.c_str());
  std::printf("%9s", "N");
  for (const char* run : kRuns) std::printf(" %16s", run);
  std::printf(" %8s %8s %8s %8s %9s %9s\n", "sum/O2", "prep/O2", "add/O2", "prep/O2", "sum/Eig",
              "add/Eig");
  for (const uint64_t count : kCounts) {
    std::printf("%9llu", static_cast<unsigned long long>(count));
    double ns[kRunCount] = {};
    for (size_t r = 0; r < kRunCount; ++r) {
      const auto it = best.find({kRuns[r], count, 1});
      ns[r] = it == best.end() ? 0.0 : it->second * 1e9;
      std::printf(" %16.1f", ns[r]);
    }
    // swarm's times over the -O2 loop's: below 1 is faster than the loop.
    const auto ratio = [&](size_t run, size_t loop) {
      return ns[loop] > 0 ? ns[run] / ns[loop] : 0.0;
    };
    // Indices in kRuns: sums 0-4, adds 5-9.
    std::printf(" %8.2f %8.2f %8.2f %8.2f %9.2f %9.2f\n", ratio(0, 2), ratio(1, 2), ratio(5, 7),
                ratio(6, 7), ratio(1, 4), ratio(6, 9));
  }
  std::printf("\n(a - b) * c + d, ns per call, and GB/s at 20 B per element for the fused one\n");
  std::printf("%9s", "N");
  for (const char* run : kChainRuns) std::printf(" %18s", run);
  std::printf(" %10s %10s %10s %10s %10s\n", "ops/fused", "O2/fused", "Eig/fused", "Eig/prep",
              "GB/s");
  for (const uint64_t count : kCounts) {
    double ns[kChainRunCount] = {};
    std::printf("%9llu", static_cast<unsigned long long>(count));
    for (size_t r = 0; r < kChainRunCount; ++r) {
      const auto it = best.find({kChainRuns[r], count, 1});
      ns[r] = it == best.end() ? 0.0 : it->second * 1e9;
      std::printf(" %18.1f", ns[r]);
    }
    // Indices in kChainRuns: fused 0, prepared 1, ops 2, -O2 3, native 4, Eigen 5.
    const auto over = [&](size_t r, size_t base) { return ns[base] > 0 ? ns[r] / ns[base] : 0.0; };
    std::printf(" %10.2f %10.2f %10.2f %10.2f %10.2f\n", over(2, 0), over(3, 0), over(5, 0),
                over(5, 1), ns[0] > 0 ? 20.0 * static_cast<double>(count) / ns[0] : 0.0);
  }
}

}  // namespace
}  // namespace swarm::bench

int main(int argc, char** argv) {
  swarm::bench::Options options;
  swarm::FlagSet flags(swarm::bench::kProgram,
                       "The cost of one tensor call (Sum, Add) at every size next to a plain "
                       "loop. Also accepts Google Benchmark's --benchmark_* flags.");
  flags.AddCount("rounds", &options.rounds.rounds, 1, 100, "interleaved rounds");
  flags.AddNumber("min-time", &options.rounds.min_time_seconds, 0.001, 60.0,
                  "minimum timed seconds per run");
  AddSimdFlag(flags, &options.simd);
  swarm::bench::StartBenchmark(swarm::bench::kProgram, flags, &argc, argv, &options.simd);
  swarm::bench::RegisterAll(options);
  swarm::bench::BestRoundReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  swarm::bench::PrintTable(reporter.best);
  benchmark::Shutdown();
  return 0;
}
