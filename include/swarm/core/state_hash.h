// A 64-bit hash of simulation state, for determinism tests and for users who want to check that
// two runs (other SIMD target, other thread count, other machine) produced the same bits.
// XXH3-64 (Debian's libxxhash) over the first `count` elements of each array, in the order added,
// each array's hash seeding the next; padding is not hashed. No allocation.
//
// Float arrays are hashed canonically: every NaN counts as the one quiet NaN 0x7fc00000. IEEE 754
// leaves NaN payloads and signs to the hardware (x86 produces the "default NaN" 0xffc00000 where
// aarch64 produces 0x7fc00000, and the two propagate payloads by different rules), so without
// this a state holding a NaN would hash differently on the two architectures although the
// simulation is the same. Everything else is hashed bit for bit: +0 and -0 differ, and so do
// denormals from their flushed zeros (swarm never enables flush-to-zero; see
// docs/determinism.md). AddBytes hashes raw bytes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "swarm/kernels/base/views.h"

namespace swarm {

// The bits state hashes see for a float: its own, except that every NaN is the one quiet NaN.
constexpr uint32_t CanonicalFloatBits(uint32_t bits) {
  const bool nan = (bits & 0x7f800000u) == 0x7f800000u && (bits & 0x007fffffu) != 0;
  return nan ? 0x7fc00000u : bits;
}

// SplitMix64's finalizer: a 64-bit mixing function, one value to one uniformly spread value.
constexpr uint64_t SplitMix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

class StateHasher {
 public:
  StateHasher& Add(ConstVec4View values);  // lanes x, y, z, w
  StateHasher& Add(ConstFloatView values);
  StateHasher& Add(ConstByteView values);
  StateHasher& AddBytes(const void* data, size_t bytes);
  uint64_t Digest() const { return hash_; }

 private:
  uint64_t hash_ = 0;
};

}  // namespace swarm
