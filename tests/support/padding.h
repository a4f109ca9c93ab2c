// docs/design.md's buffer padding, spelled out here independently of the library's
// swarm/kernels/base/views.h so the layout tests compare the library against the rule rather than
// against itself: every lane array and attribute array is padded to one vector of the widest target
// the build can dispatch to. x86-64: AVX-512's 64 bytes. aarch64: 256 bytes, SVE's architectural
// maximum of 2048 bits (an SVE vector's length is known only at run time). Allocations stay 64-byte
// aligned on both.
#pragma once

#include <cstddef>

namespace swarm::test {

#if defined(__aarch64__)
inline constexpr size_t kExpectedPadBytes = 256;
#else
inline constexpr size_t kExpectedPadBytes = 64;
#endif
inline constexpr size_t kExpectedAlignBytes = 64;

// `count` elements of `element_bytes` each, rounded up to whole padding vectors.
constexpr size_t PaddedCount(size_t count, size_t element_bytes) {
  const size_t per_vector = kExpectedPadBytes / element_bytes;
  return (count + per_vector - 1) / per_vector * per_vector;
}
constexpr size_t PaddedFloats(size_t count) { return PaddedCount(count, sizeof(float)); }
constexpr size_t PaddedBytes(size_t count) { return PaddedCount(count, 1); }

}  // namespace swarm::test
