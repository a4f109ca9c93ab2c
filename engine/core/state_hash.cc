#include "swarm/core/state_hash.h"

#define XXH_STATIC_LINKING_ONLY  // XXH3_state_t on the stack: hashing never allocates
#include <xxhash.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace swarm {
namespace {

// XXH3-64 of `count` floats with every NaN replaced by the quiet NaN (CanonicalFloatBits), fed
// through a small stack buffer; streaming XXH3 gives the same digest as one call over the whole
// (canonical) array.
uint64_t HashFloatsCanonically(const float* values, size_t count, uint64_t seed) {
  XXH3_state_t state;
  XXH3_64bits_reset_withSeed(&state, seed);
  constexpr size_t kChunk = 1024;
  uint32_t chunk[kChunk];
  for (size_t start = 0; start < count; start += kChunk) {
    const size_t n = std::min(kChunk, count - start);
    std::memcpy(chunk, values + start, n * sizeof(float));
    for (size_t i = 0; i < n; ++i) chunk[i] = CanonicalFloatBits(chunk[i]);
    XXH3_64bits_update(&state, chunk, n * sizeof(float));
  }
  return XXH3_64bits_digest(&state);
}

}  // namespace

StateHasher& StateHasher::AddBytes(const void* data, size_t bytes) {
  hash_ = XXH3_64bits_withSeed(data, bytes, hash_);
  return *this;
}

StateHasher& StateHasher::Add(ConstVec4View values) {
  for (size_t lane = 0; lane < 4; ++lane) {
    hash_ = HashFloatsCanonically(values.Lane(lane), values.count, hash_);
  }
  return *this;
}

StateHasher& StateHasher::Add(ConstFloatView values) {
  hash_ = HashFloatsCanonically(values.data, values.count, hash_);
  return *this;
}

StateHasher& StateHasher::Add(ConstByteView values) { return AddBytes(values.data, values.count); }

}  // namespace swarm
