// The scalar SoA peer compiled -O3 -march=native (bench/CMakeLists.txt): the best the compiler
// does for a non-portable build. This translation unit must not include Highway (1.0.3 does not
// compile with -march=native on AVX-512 Zen) nor any header with inline functions (bench/peers.h).
#include "bench/peers.h"
#include "bench/soa_euler_loop.h"

namespace swarm::bench {

void SoaEulerNative(SoaLanes positions, SoaLanes velocities, size_t count,
                    const EulerConstants& constants) {
  SoaEulerLoop(positions, velocities, count, constants);
}

}  // namespace swarm::bench
