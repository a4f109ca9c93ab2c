// Software prefetch into L2 (PrefetchToL2, PrefetchForWriteToL2; the robot dynamics kernels use
// them for their lane arrays), and RowPrefetcher for kernels that walk an image's source rows
// from top to bottom.
//
// A filter reads each new source row once, shortly before the row below it; with frames that
// arrive from memory (a camera's DMA, or 64 frames of a batch that do not fit in cache) the
// hardware prefetcher, which restarts at every 4 KiB page, leaves the loads waiting on DRAM.
// Prefetching the same columns a few rows further down keeps those lines in flight.
//
// The hint is "to L2" (prefetcht1 on x86), not "to L1": with the L1 hint, warm 1080p f32 passes
// (source in L3) ran 8-20% slower than without prefetch, with the L2 hint they run as fast. The
// likely cause: 1080p f32 rows are 7.5 KB, and a fourth row in a 48 KB L1 beside three source
// rows and two scratch rows evicts lines still in use.
//
// Measured with bench/vision_bench.cc on a shared 2-vCPU VM, best of 3 interleaved runs of each
// build, f32, one thread (prefetch vs none):
//   64 frames of 320x240, cold caches: Gaussian 5x5 1082-1105 -> 1462-1496 MP/s, box 3x3
//   1119-1197 -> 1599-1624, gradient magnitude 1012-1253 -> 1506-1527 (the batched target);
//   one 1920x1080 frame, cold: Gaussian +25%, gradient magnitude +25%, box within noise;
//   warm 1920x1080 frames, f32 and u8: within the run-to-run noise (+-10%).
// 3 rows of look-ahead and 6 measured the same within that noise.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hwy/base.h"  // HWY_INLINE

namespace swarm {

inline constexpr size_t kPrefetchRowsAhead = 3;
inline constexpr size_t kCacheLineBytes = 64;

// Prefetch for reading into the outer caches (locality 2: prefetcht1 on x86).
HWY_INLINE void PrefetchToL2(uintptr_t address) {
#if defined(__GNUC__)  // GCC and Clang
  __builtin_prefetch(reinterpret_cast<const void*>(address), /*rw=*/0, /*locality=*/2);
#else
  (void)address;
#endif
}

// Prefetch for writing into the outer caches (a line the caller will store to soon).
HWY_INLINE void PrefetchForWriteToL2(uintptr_t address) {
#if defined(__GNUC__)  // GCC and Clang
  __builtin_prefetch(reinterpret_cast<const void*>(address), /*rw=*/1, /*locality=*/2);
#else
  (void)address;
#endif
}

// The kRowsPerStep source rows that start kPrefetchRowsAhead rows below `row`, kept as an
// address: near the bottom of an image they lie past the image (in a batch, in the next frame),
// which is harmless because a prefetch never faults, but it is not a pointer the kernel may read.
// A loop that consumes two new source rows per step (output rows made in pairs, pyrDown's
// stride-2 rows) passes kRowsPerStep = 2; with one row per step it would prefetch every other
// row only.
template <size_t kRowsPerStep = 1>
class RowPrefetcher {
 public:
  template <typename T>
  RowPrefetcher(const T* row, size_t row_stride)
      : ahead_(reinterpret_cast<uintptr_t>(row) + kPrefetchRowsAhead * row_stride * sizeof(T)),
        row_bytes_(row_stride * sizeof(T)) {}

  // Prefetches the line holding byte `offset` of each row ahead, once per cache line: callers
  // pass the offset of every vector they load (`vector_bytes` of source each), and only the
  // first vector of each line issues prefetches.
  // Always inlined: GCC treats a prefetch as touching no memory, so a copy of this function left
  // out of line is judged free of side effects and the calls to it are deleted (GCC 12 did so in
  // every filter but pyrDown). tests/kernels/vision/prefetch_codegen_check.py checks the built
  // code.
  HWY_INLINE void AtByte(size_t offset, size_t vector_bytes) const {
    if (vector_bytes >= kCacheLineBytes || offset % kCacheLineBytes == 0) {
      for (size_t row = 0; row < kRowsPerStep; ++row) {
        PrefetchToL2(ahead_ + row * row_bytes_ + offset);
      }
    }
  }

 private:
  uintptr_t ahead_;
  size_t row_bytes_;
};

}  // namespace swarm
