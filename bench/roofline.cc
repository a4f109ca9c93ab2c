// Memory roofline loops for the integration benchmark, compiled -O3 -march=native
// (bench/CMakeLists.txt) so they run at the best speed this machine's compiler can reach. Like the
// -march=native peer, this file includes nothing with inline functions (bench/peers.h).
#include "bench/peers.h"

namespace swarm::bench {

void ScaleLanesInPlace(float* const* lanes, size_t lane_count, size_t count, float scale) {
  for (size_t lane = 0; lane + 1 < lane_count; lane += 2) {
    float* __restrict first = lanes[lane];
    float* __restrict second = lanes[lane + 1];
    for (size_t i = 0; i < count; ++i) {
      first[i] = first[i] * scale;
      second[i] = second[i] * scale;
    }
  }
}

void StreamTriad(float* a, const float* b, const float* c, size_t count, float scale) {
  float* __restrict out = a;
  const float* __restrict in_b = b;
  const float* __restrict in_c = c;
  for (size_t i = 0; i < count; ++i) out[i] = in_b[i] + scale * in_c[i];
}

}  // namespace swarm::bench
