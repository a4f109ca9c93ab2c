#include "swarm/kernels/base/random_reference.h"

#include "swarm/kernels/base/lowbias32.h"

namespace swarm::reference {

float Uniform(RandomStream random, uint32_t counter) {
  const uint32_t seed_low = static_cast<uint32_t>(random.seed);
  const uint32_t seed_high = static_cast<uint32_t>(random.seed >> 32);
  const uint32_t first = LowBias32(seed_low ^ LowBias32(seed_high ^ 0x9e3779b9u));
  const uint32_t second = LowBias32(first ^ random.stream ^ 0x85ebca6bu);
  const uint32_t bits = LowBias32(LowBias32(counter ^ first) + second);
  return static_cast<float>(bits >> 8) * (1.0f / 16777216.0f);
}

void FillUniform(std::span<float> out, RandomStream random, uint32_t first_index, float lo,
                 float hi) {
  for (size_t i = 0; i < out.size(); ++i) {
    out[i] = lo + Uniform(random, first_index + static_cast<uint32_t>(i)) * (hi - lo);
  }
}

}  // namespace swarm::reference
