#include "swarm/core/state_hash.h"

#include <xxhash.h>

namespace swarm {

StateHasher& StateHasher::AddBytes(const void* data, size_t bytes) {
  hash_ = XXH3_64bits_withSeed(data, bytes, hash_);
  return *this;
}

StateHasher& StateHasher::Add(ConstVec4View values) {
  for (size_t lane = 0; lane < 4; ++lane) AddBytes(values.Lane(lane), values.count * sizeof(float));
  return *this;
}

StateHasher& StateHasher::Add(ConstFloatView values) {
  return AddBytes(values.data, values.count * sizeof(float));
}

StateHasher& StateHasher::Add(ConstByteView values) { return AddBytes(values.data, values.count); }

}  // namespace swarm
