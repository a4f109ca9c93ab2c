// Validation and band splitting shared by the vision entry points (engine/vision/vision_ops.cc,
// engine/vision/vision_ops_gradient.cc). Not part of the API (installed with the other engine
// headers only because the install rule takes them all); include swarm/vision/vision_ops.h
// instead.
#pragma once

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "swarm/core/status.h"
#include "swarm/core/thread_pool.h"
#include "swarm/kernels/base/views.h"
#include "swarm/kernels/vision/frame_range.h"

namespace swarm::vision_internal {

inline std::string SizeText(size_t width, size_t height) {
  return std::to_string(width) + " x " + std::to_string(height);
}

// A view a kernel can take: at least one pixel, rows padded to whole vectors, aligned data.
template <typename T>
inline Status CheckImage(const char* op, const char* name, ImageView<const T> image) {
  const std::string what =
      std::string(op) + ": " + name + " (" + SizeText(image.width, image.height) + " pixels)";
  if (image.width == 0 || image.height == 0) {
    return InvalidArgument(what + " is empty: width and height must be at least 1");
  }
  if (image.data == nullptr) return InvalidArgument(what + " has no data");
  if (image.row_stride < RoundUpToVector<T>(image.width) ||
      image.row_stride % kPadElements<T> != 0) {
    return InvalidArgument(what + " has row_stride " + std::to_string(image.row_stride) +
                           "; expected a multiple of " + std::to_string(kPadElements<T>) +
                           " elements of at least " +
                           std::to_string(RoundUpToVector<T>(image.width)));
  }
  if (reinterpret_cast<uintptr_t>(image.data) % kAlignBytes != 0) {
    return InvalidArgument(what + " data is not " + std::to_string(kAlignBytes) + "-byte aligned");
  }
  return {};
}

template <typename A, typename B>
inline Status CheckSameSize(const char* op, const char* a_name, ImageView<const A> a,
                            const char* b_name, ImageView<const B> b) {
  if (a.width == b.width && a.height == b.height) return {};
  return InvalidArgument(std::string(op) + ": " + b_name + " is " + SizeText(b.width, b.height) +
                         " pixels but " + a_name + " is " + SizeText(a.width, a.height) +
                         "; they must be the same size");
}

// Byte ranges from the first pixel to the last pixel, compared across element types.
template <typename A, typename B>
bool Overlap(ImageView<const A> a, ImageView<const B> b) {
  const auto begin_a = reinterpret_cast<uintptr_t>(a.data);
  const auto begin_b = reinterpret_cast<uintptr_t>(b.data);
  const uintptr_t end_a = begin_a + ((a.height - 1) * a.row_stride + a.width) * sizeof(A);
  const uintptr_t end_b = begin_b + ((b.height - 1) * b.row_stride + b.width) * sizeof(B);
  return begin_a < end_b && begin_b < end_a;
}

template <typename A, typename B>
inline Status CheckNoOverlap(const char* op, const char* a_name, ImageView<const A> a,
                             const char* b_name, ImageView<const B> b) {
  if (!Overlap(a, b)) return {};
  return InvalidArgument(std::string(op) + ": " + a_name + " and " + b_name +
                         " overlap; the filter reads source rows around each output row, so "
                         "it cannot run in place");
}

// src valid, dst valid, same size, no overlap.
template <typename T>
inline Status CheckSourceDestination(const char* op, ImageView<const T> src,
                                     ImageView<const T> dst) {
  if (Status s = CheckImage<T>(op, "src", src); !s.ok()) return s;
  if (Status s = CheckImage<T>(op, "dst", dst); !s.ok()) return s;
  if (Status s = CheckSameSize<T, T>(op, "src", src, "dst", dst); !s.ok()) return s;
  return CheckNoOverlap<T, T>(op, "src", src, "dst", dst);
}

inline Status CheckKernelSize(const char* op, size_t ksize, size_t max_ksize) {
  if (ksize % 2 == 1 && ksize <= max_ksize) return {};
  return InvalidArgument(std::string(op) + ": ksize " + std::to_string(ksize) +
                         " is not allowed; expected an odd size in [1, " +
                         std::to_string(max_ksize) + "]");
}

inline Status CheckSigma(const char* op, double sigma) {
  if (std::isfinite(sigma) && sigma > 0) return {};
  return InvalidArgument(std::string(op) + ": sigma " + std::to_string(sigma) +
                         " is not allowed; expected a finite value > 0");
}

// A batch: count >= 1, frames valid (checked through frame 0's view, the stride rule covers the
// rest), image_stride covering a frame.
template <typename T>
inline Status CheckBatch(const char* op, const char* name, ImageBatchView<const T> batch) {
  if (batch.count == 0) {
    return InvalidArgument(std::string(op) + ": " + name + " has no frames (count 0)");
  }
  const ImageView<const T> first{batch.data, batch.width, batch.height, batch.row_stride};
  if (Status s = CheckImage<T>(op, name, first); !s.ok()) return s;
  if (batch.image_stride < batch.row_stride * batch.height ||
      batch.image_stride % kPadElements<T> != 0) {
    return InvalidArgument(std::string(op) + ": " + name + " has image_stride " +
                           std::to_string(batch.image_stride) + "; expected a multiple of " +
                           std::to_string(kPadElements<T>) + " of at least " +
                           std::to_string(batch.row_stride * batch.height));
  }
  return {};
}

template <typename T>
ImageView<const T> Whole(ImageBatchView<const T> batch) {
  // The whole allocation as one tall image, for the overlap test.
  return {batch.data, batch.width,
          (batch.count - 1) * (batch.image_stride / batch.row_stride) + batch.height,
          batch.row_stride};
}

template <typename T>
inline Status CheckBatches(const char* op, ImageBatchView<const T> src, ImageBatchView<const T> dst,
                           bool same_size, bool allow_in_place) {
  if (Status s = CheckBatch<T>(op, "src", src); !s.ok()) return s;
  if (Status s = CheckBatch<T>(op, "dst", dst); !s.ok()) return s;
  if (src.count != dst.count) {
    return InvalidArgument(std::string(op) + ": dst has " + std::to_string(dst.count) +
                           " frames but src has " + std::to_string(src.count) +
                           "; they must have the same count");
  }
  if (same_size && (src.width != dst.width || src.height != dst.height)) {
    return InvalidArgument(std::string(op) + ": dst frames are " + SizeText(dst.width, dst.height) +
                           " pixels but src frames are " + SizeText(src.width, src.height) +
                           "; they must be the same size");
  }
  if (allow_in_place && src.data == dst.data && src.row_stride == dst.row_stride &&
      src.image_stride == dst.image_stride) {
    return {};
  }
  return CheckNoOverlap<T, T>(op, "src", Whole(src), "dst", Whole(dst));
}

// Output rows are handed out in chunks so that a thread that runs slower (a shared core, a
// vCPU the host preempts) does less of the image instead of keeping the other waiting. Threads
// work in pairs on a two-ended range of chunks: thread 2k takes chunks from the top of its
// pair's rows down, thread 2k + 1 from the bottom up, until they meet. Each thread thus starts
// on the rows the static split would give it, and stays on them from call to call, so the rows
// it reads are still in its cache. Every chunk is computed from the whole source, so the bits do
// not depend on who computes what.
class TwoEndedChunks {
 public:
  void Reset(uint32_t count) { ends_.store(count, std::memory_order_relaxed); }
  // The next chunk from the top (front) or bottom (back), or false once the ends have met.
  bool Take(bool front, uint32_t* chunk) {
    uint64_t ends = ends_.load(std::memory_order_relaxed);
    for (;;) {
      const uint32_t top = static_cast<uint32_t>(ends >> 32);
      const uint32_t bottom = static_cast<uint32_t>(ends);
      if (top >= bottom) return false;
      const uint64_t next = front ? ends + (uint64_t{1} << 32) : ends - 1;
      if (ends_.compare_exchange_weak(ends, next, std::memory_order_relaxed)) {
        *chunk = front ? top : bottom - 1;
        return true;
      }
    }
  }

 private:
  std::atomic<uint64_t> ends_ = 0;  // top chunk << 32 | one past the bottom chunk
};

// Chunks per thread: enough that the last one is a small part of a band (1080 rows on two
// threads: 67-row chunks), few enough that each call's fixed cost stays negligible.
inline constexpr size_t kChunksPerThread = 8;
// Thread pairs that share chunks (on the stack, so that running allocates nothing); pools with
// more threads than 2 * kMaxChunkedPairs fall back to one fixed band per thread.
inline constexpr size_t kMaxChunkedPairs = 32;

// Runs body(thread, rows) over all output rows: the bands of threads 2k and 2k + 1 of the static
// split (rows [height * t / T, height * (t + 1) / T)) shared in chunks as above; a lone last
// thread computes its band in one call.
// `thread` is the index of the thread running the call, so it also selects the scratch.
template <class Body>
void RunBands(ThreadPool& pool, size_t height, const Body& body) {
  const size_t threads = std::min(pool.num_threads(), height);
  const size_t groups = (threads + 1) / 2;
  if (groups > kMaxChunkedPairs) {
    pool.ParallelFor(threads, [&](size_t thread) {
      body(thread, RowRange{height * thread / threads, height * (thread + 1) / threads});
    });
    return;
  }
  const size_t chunks_per_group = std::min<size_t>(height / threads, kChunksPerThread) * 2;
  TwoEndedChunks shared[kMaxChunkedPairs];
  for (size_t g = 0; g < groups; ++g) shared[g].Reset(static_cast<uint32_t>(chunks_per_group));
  pool.ParallelFor(threads, [&](size_t thread) {
    const size_t group = thread / 2;
    const size_t first_row = height * (2 * group) / threads;
    const size_t rows = height * std::min(2 * group + 2, threads) / threads - first_row;
    const bool alone = thread + 1 == threads && thread % 2 == 0;
    if (alone) {
      body(thread, RowRange{first_row, first_row + rows});
      return;
    }
    uint32_t chunk = 0;
    while (shared[group].Take(thread % 2 == 0, &chunk)) {
      body(thread, RowRange{first_row + rows * chunk / chunks_per_group,
                            first_row + rows * (chunk + 1) / chunks_per_group});
    }
  });
}

// Runs body(thread, frames, rows) over every frame of a batch. With at least as many frames as
// threads each thread takes one run of whole frames (frames [count * t / T, count * (t + 1) / T),
// all rows) in one call, so a batched kernel sees them together; with fewer, each frame is cut
// into ceil(T / count) bands and each (frame, band) unit is one call.
template <class Body>
void RunFrames(ThreadPool& pool, size_t count, size_t height, const Body& body) {
  const size_t threads = pool.num_threads();
  if (count >= threads) {
    pool.ParallelFor(threads, [&](size_t thread) {
      body(thread, FrameRange{count * thread / threads, count * (thread + 1) / threads},
           RowRange{});
    });
    return;
  }
  const size_t bands = std::min(height, (threads + count - 1) / count);
  const size_t units = count * bands;
  const size_t tasks = std::min(threads, units);
  pool.ParallelFor(tasks, [&](size_t thread) {
    for (size_t unit = units * thread / tasks; unit < units * (thread + 1) / tasks; ++unit) {
      const size_t frame = unit / bands;
      const size_t band = unit % bands;
      body(thread, FrameRange{frame, frame + 1},
           RowRange{height * band / bands, height * (band + 1) / bands});
    }
  });
}

}  // namespace swarm::vision_internal
