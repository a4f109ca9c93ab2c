// The project's one assert pair. Kernels never fail at run time: their public entry points check
// preconditions once per call with SWARM_ASSERT, which stays on in every build type, because a
// violated precondition in a batched kernel writes out of bounds rather than crashing politely.
// SWARM_DASSERT is for checks inside loops and compiles away unless NDEBUG is unset.
#pragma once

namespace swarm::detail {
[[noreturn]] void AssertFailed(const char* condition, const char* file, int line);
}  // namespace swarm::detail

#define SWARM_ASSERT(condition)                                      \
  do {                                                               \
    if (!(condition)) {                                              \
      ::swarm::detail::AssertFailed(#condition, __FILE__, __LINE__); \
    }                                                                \
  } while (false)

#ifdef NDEBUG
#define SWARM_DASSERT(condition) \
  do {                           \
  } while (false)
#else
#define SWARM_DASSERT(condition) SWARM_ASSERT(condition)
#endif
