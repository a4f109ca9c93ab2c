// How every benchmark program starts: one set of swarm flags next to Google Benchmark's.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "demos/command_line/flags.h"
#include "demos/command_line/program_exit.h"
#include "swarm/core/simd.h"

namespace swarm::bench {

// "<program>: <message>" on stderr and exit status 2 (demos/command_line/program_exit.h).
[[noreturn]] inline void Fail(const char* program, const std::string& message) {
  FailAndExit(program, InvalidArgument(message));
}

// The start every benchmark program shares: prints swarm's --help next to Google Benchmark's,
// lets Google Benchmark consume its --benchmark_* flags, parses the rest into `flags`, forces the
// SIMD target `*simd` names (bound to a flag, hence read after parsing) and records the running
// target in the JSON context. A bad flag or target exits with status 2.
inline void StartBenchmark(const char* program, FlagSet& flags, int* argc, char** argv,
                           const std::string* simd) {
  for (int i = 1; i < *argc; ++i) {
    if (std::string_view(argv[i]) == "--help") std::fputs(flags.Usage().c_str(), stdout);
  }
  benchmark::Initialize(argc, argv);
  if (Status s = flags.Parse(*argc, argv); !s.ok()) FailAndExit(program, s);
  if (Status s = ForceSimdTarget(*simd); !s.ok()) FailAndExit(program, s);
  const SimdTarget target = ActiveSimdTarget();
  benchmark::AddCustomContext("swarm_simd_target", target.name + " (" + target.hwy_name + ")");
}

}  // namespace swarm::bench
