// Software prefetch for kernels that walk an image's source rows from top to bottom.
//
// A filter reads each new source row once, shortly before the row below it; with frames that
// arrive from memory (a camera's DMA, or 64 frames of a batch that do not fit in cache) the
// hardware prefetcher, which restarts at every 4 KiB page, leaves the loads waiting on DRAM.
// Prefetching the same columns a few rows further down keeps those lines in flight. Measured on
// 64 frames of 320x240 f32 (bench/vision_bench.cc, cold caches, interleaved runs on a shared
// VM): Gaussian 5x5 and box 3x3 ran 20-40% faster with 3 rows of look-ahead; 8 rows measured the
// same within the noise.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hwy/cache_control.h"

namespace swarm {

inline constexpr size_t kPrefetchRowsAhead = 3;
inline constexpr size_t kCacheLineBytes = 64;

// The source row kPrefetchRowsAhead rows below `row`, kept as an address: near the bottom of an
// image it lies past the image (in a batch, in the next frame), which is harmless because a
// prefetch never faults, but it is not a pointer the kernel may read.
class RowPrefetcher {
 public:
  template <typename T>
  RowPrefetcher(const T* row, size_t row_stride)
      : ahead_(reinterpret_cast<uintptr_t>(row) + kPrefetchRowsAhead * row_stride * sizeof(T)) {}

  // Prefetches the line holding byte `offset` of the row ahead, once per cache line: callers
  // pass the offset of every vector they load (`vector_bytes` of source each), and only the
  // first vector of each line issues a prefetch.
  void AtByte(size_t offset, size_t vector_bytes) const {
    if (vector_bytes >= kCacheLineBytes || offset % kCacheLineBytes == 0) {
      hwy::Prefetch(reinterpret_cast<const uint8_t*>(ahead_ + offset));
    }
  }

 private:
  uintptr_t ahead_;
};

}  // namespace swarm
