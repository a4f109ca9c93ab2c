// A 64-bit hash of simulation state, for determinism tests and for users who want to check that
// two runs (other SIMD target, other thread count, other machine) produced the same bits.
// XXH3-64 (Debian's libxxhash) over the first `count` elements of each array, in the order added,
// each array's hash seeding the next; padding is not hashed. No allocation.
#pragma once

#include <cstddef>
#include <cstdint>

#include "swarm/kernels/views.h"

namespace swarm {

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
