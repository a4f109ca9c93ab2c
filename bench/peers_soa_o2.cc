// The scalar SoA peer compiled -O2 (bench/CMakeLists.txt): what a portable build gets.
#include "bench/peers.h"
#include "bench/soa_euler_loop.h"

namespace swarm::bench {

void SoaEulerO2(SoaLanes positions, SoaLanes velocities, size_t count,
                const EulerConstants& constants) {
  SoaEulerLoop(positions, velocities, count, constants);
}

}  // namespace swarm::bench
