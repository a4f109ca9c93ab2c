#include "swarm/kernels/base/assert.h"

#include <cstdio>
#include <cstdlib>

namespace swarm::detail {

void AssertFailed(const char* condition, const char* file, int line) {
  std::fprintf(stderr, "swarm: precondition failed: %s (%s:%d)\n", condition, file, line);
  std::abort();
}

}  // namespace swarm::detail
