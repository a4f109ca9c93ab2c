// The flags every swarm program and benchmark shares, declared once so that they read and check
// the same everywhere: --threads (the pool, the caller included), --simd (the kernels' target,
// forced through swarm/core/simd.h) and --memory-limit (the accountant's budget).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "demos/command_line/flags.h"
#include "swarm/core/simd.h"

namespace swarm {

// The machine's hardware threads, clamped to what --threads accepts (1..256).
uint64_t DefaultThreads();

// --threads N, 1..256.
void AddThreadsFlag(FlagSet& flags, uint64_t* threads);
// --simd NAME: auto or a target of this architecture (SimdChoices()), then `help_suffix`
// (" (swarm only)" where a benchmark's peers ignore it).
void AddSimdFlag(FlagSet& flags, std::string* simd, std::string_view help_suffix = "");
// --memory-limit SIZE ("96M", "1.5G"; 0 is none), with `example` in its help.
void AddMemoryLimitFlag(FlagSet& flags, size_t* memory_limit, std::string_view example = "256M");

}  // namespace swarm
