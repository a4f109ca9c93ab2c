#include "demos/command_line/runtime_flags.h"

#include <algorithm>
#include <thread>

namespace swarm {

uint64_t DefaultThreads() {
  return std::clamp<uint64_t>(std::thread::hardware_concurrency(), 1, 256);
}

void AddThreadsFlag(FlagSet& flags, uint64_t* threads) {
  flags.AddCount("threads", threads, 1, 256, "threads in the pool (caller included)");
}

void AddSimdFlag(FlagSet& flags, std::string* simd, std::string_view help_suffix) {
  flags.AddString("simd", simd, SimdChoices() + std::string(help_suffix));
}

void AddMemoryLimitFlag(FlagSet& flags, size_t* memory_limit, std::string_view example) {
  flags.AddBytes("memory-limit", memory_limit, "memory budget, e.g. " + std::string(example));
}

}  // namespace swarm
