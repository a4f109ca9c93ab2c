// Counter-based random numbers over float views: the generator every random draw of swarm's
// kernels uses (the emitters of swarm/kernels/particles/emit.h, the task generators of
// engine/robots).
//
// Deterministic like every kernel: a value depends only on (seed, stream, counter), so it has the
// same bits on every compiled SIMD target, tile and thread. Reference:
// swarm/kernels/base/random_reference.h.
#pragma once

#include <cstdint>

#include "swarm/kernels/base/views.h"

namespace swarm {

// Counter-based random numbers: element i of a call gets a value that depends only on
// (seed, stream, first_index + i), never on the SIMD width, the tile or the thread that computed
// it. The generator hashes the 32-bit counter with a seed-derived key through two rounds of an
// integer finaliser (Wellons' "lowbias32"); floats take the top 24 bits, so uniform values are
// multiples of 2^-24 in [0, 1). Counters wrap after 2^32 values per (seed, stream).
struct RandomStream {
  uint64_t seed = 0;
  uint32_t stream = 0;  // e.g. the step number, so each step draws fresh numbers
};
// out[i] = lo + (hi - lo) * u(first_index + i), u uniform in [0, 1). The result lies in
// [lo, hi]: rounding can give exactly hi when (hi - lo) is small next to |hi| (e.g. [100, 200)
// yields 200 for the largest u), so callers that need a half-open range must clamp.
void FillUniform(const FloatView& out, RandomStream random, uint32_t first_index, float lo,
                 float hi);

}  // namespace swarm
