// The harnesses' check of a reader's promise: a broken promise is a crash, so libFuzzer keeps the
// input that broke it.
#pragma once

namespace swarm::fuzz {

inline void Require(bool condition) {
  if (!condition) __builtin_trap();
}

}  // namespace swarm::fuzz
