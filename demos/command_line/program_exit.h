// How swarm's programs and benchmarks leave on bad input or a failed step: one line on stderr,
// "<program>: <message>", and exit status 2, so scripts tell a refused command line or input file
// (2) from a crash or a failed check (1).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "swarm/core/status.h"

namespace swarm {

inline constexpr int kExitBadInput = 2;

// Prints "<program>: <message>" to stderr and returns kExitBadInput (for `return Fail(...)` in
// main and the commands it calls).
int Fail(std::string_view program, const Status& status);

// Fail, then exit the process (for benchmarks, which fail while Google Benchmark owns main).
[[noreturn]] void FailAndExit(std::string_view program, const Status& status);

// An allocation's error with the flag that set the budget named first when the budget refused it:
// "--memory-limit=96 MiB is too small for <what>: <message>"; any other error as it is.
Status BudgetError(const Status& status, size_t memory_limit, const std::string& what);

}  // namespace swarm
