// The best round of every benchmark run: Google Benchmark runs each (name, N, threads) once per
// interleaved round, and the best (smallest) time counts, because interference on a shared
// machine only ever slows a run down. Run names follow "<name>/N:<n>/threads:<t>/round:<r>/...".
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace swarm::bench {

// (name, N, threads) of "<name>/N:<n>/threads:<t>/round:<r>/...".
using RunKey = std::tuple<std::string, uint64_t, int>;

inline std::optional<RunKey> ParseRunName(const std::string& name) {
  const size_t n_at = name.find("/N:");
  const size_t threads_at = name.find("/threads:");
  if (n_at == std::string::npos || threads_at == std::string::npos) return std::nullopt;
  return RunKey{name.substr(0, n_at), std::stoull(name.substr(n_at + 3)),
                std::stoi(name.substr(threads_at + 9))};
}

// Keeps the best (smallest) seconds per iteration of every (name, N, threads) over its rounds:
// interference on a shared machine only ever slows a run down.
class BestRoundReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.error_occurred || run.iterations == 0) continue;
      const std::optional<RunKey> key = ParseRunName(run.benchmark_name());
      if (!key) continue;
      const double seconds = run.real_accumulated_time / static_cast<double>(run.iterations);
      auto [it, inserted] = best.try_emplace(*key, seconds);
      if (!inserted) it->second = std::min(it->second, seconds);
    }
    ConsoleReporter::ReportRuns(runs);
  }
  std::map<RunKey, double> best;
};

}  // namespace swarm::bench
