// Checked, threaded and batched entry points for the vision kernels (swarm/vision/vision_ops.h).
#include "swarm/vision/vision_ops.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <utility>

#include "engine/vision/vision_ops_checks.h"
#include "swarm/kernels/vision/vision_convert.h"
#include "swarm/kernels/vision/vision_filter.h"

namespace swarm {

using namespace vision_internal;  // NOLINT: the shared checks of this engine part

// ---------------------------------------------------------------------------------------------
// VisionWorkspace

Status VisionWorkspace::Reserve(size_t threads, size_t float_elements, size_t byte_elements) {
  const size_t float_stride = RoundUpToVector<float>(std::max<size_t>(float_elements, 1));
  const size_t byte_stride = RoundUpToVector<uint8_t>(std::max<size_t>(byte_elements, 1));
  const size_t want_threads = std::max(threads, threads_);
  const size_t want_float = std::max(float_stride, float_stride_);
  const size_t want_byte = std::max(byte_stride, byte_stride_);
  if (want_threads == threads_ && want_float == float_stride_ && want_byte == byte_stride_) {
    return {};
  }
  // Allocate both new blocks before replacing either, so a refusal leaves the workspace whole.
  Result<FloatArray> floats =
      FloatArray::Create(*accountant_, want_threads * want_float, MemoryCategory::kScratch);
  if (!floats.ok()) {
    return Status(floats.status().code(), "vision scratch of " + std::to_string(want_threads) +
                                              " thread(s) x " + std::to_string(want_float) +
                                              " floats: " + floats.status().message());
  }
  Result<ByteArray> bytes =
      ByteArray::Create(*accountant_, want_threads * want_byte, MemoryCategory::kScratch);
  if (!bytes.ok()) {
    return Status(bytes.status().code(), "vision scratch of " + std::to_string(want_threads) +
                                             " thread(s) x " + std::to_string(want_byte) +
                                             " bytes: " + bytes.status().message());
  }
  floats_ = std::move(floats).value();
  bytes_ = std::move(bytes).value();
  threads_ = want_threads;
  float_stride_ = want_float;
  byte_stride_ = want_byte;
  ++growths_;
  return {};
}

FloatView VisionWorkspace::Floats(size_t thread) {
  SWARM_ASSERT(thread < threads_);
  return floats_.view().Slice(thread * float_stride_, float_stride_);
}

ByteView VisionWorkspace::Bytes(size_t thread) {
  SWARM_ASSERT(thread < threads_);
  return bytes_.view().Slice(thread * byte_stride_, byte_stride_);
}

size_t VisionWorkspace::allocated_bytes() const {
  return floats_.capacity() * sizeof(float) + bytes_.capacity();
}

// ---------------------------------------------------------------------------------------------
// Per-pixel operations: no scratch, bands only.

namespace {

// src and dst valid and the same size; dst either is src exactly or does not overlap it.
template <typename T>
Status CheckInPlaceAllowed(const char* op, ImageView<const T> src, ImageView<const T> dst) {
  if (Status s = CheckImage<T>(op, "src", src); !s.ok()) return s;
  if (Status s = CheckImage<T>(op, "dst", dst); !s.ok()) return s;
  if (Status s = CheckSameSize<T, T>(op, "src", src, "dst", dst); !s.ok()) return s;
  if (src.data == dst.data && src.row_stride == dst.row_stride) return {};
  if (!Overlap(src, dst)) return {};
  return InvalidArgument(std::string(op) + ": src and dst overlap without being the same image");
}

template <typename From, typename To>
Status CheckConversion(const char* op, ImageView<const From> src, ImageView<const To> dst) {
  if (Status s = CheckImage<From>(op, "src", src); !s.ok()) return s;
  if (Status s = CheckImage<To>(op, "dst", dst); !s.ok()) return s;
  if (Status s = CheckSameSize(op, "src", src, "dst", dst); !s.ok()) return s;
  return CheckNoOverlap(op, "src", src, "dst", dst);
}

Status CheckFinite(const char* op, const char* name, double value) {
  if (std::isfinite(value)) return {};
  return InvalidArgument(std::string(op) + ": " + name + " " + std::to_string(value) +
                         " is not allowed; expected a finite value");
}

}  // namespace

Status Threshold(ThreadPool& pool, ConstImageF32View src, ImageF32View dst, float threshold,
                 float max_value, ThresholdType type) {
  if (Status s = CheckInPlaceAllowed<float>("Threshold", src, dst); !s.ok()) return s;
  if (Status s = CheckFinite("Threshold", "threshold", threshold); !s.ok()) return s;
  if (Status s = CheckFinite("Threshold", "max_value", max_value); !s.ok()) return s;
  RunBands(pool, src.height,
           [&](size_t, RowRange rows) { Threshold(src, dst, threshold, max_value, type, rows); });
  return {};
}

Status Threshold(ThreadPool& pool, ConstImageU8View src, ImageU8View dst, uint8_t threshold,
                 uint8_t max_value, ThresholdType type) {
  if (Status s = CheckInPlaceAllowed<uint8_t>("Threshold", src, dst); !s.ok()) return s;
  RunBands(pool, src.height,
           [&](size_t, RowRange rows) { Threshold(src, dst, threshold, max_value, type, rows); });
  return {};
}

Status Threshold(ThreadPool& pool, ImageBatchView<const float> src, ImageBatchView<float> dst,
                 float threshold, float max_value, ThresholdType type) {
  if (Status s = CheckBatches<float>("Threshold", src, dst, true, true); !s.ok()) return s;
  if (Status s = CheckFinite("Threshold", "threshold", threshold); !s.ok()) return s;
  if (Status s = CheckFinite("Threshold", "max_value", max_value); !s.ok()) return s;
  RunFrames(pool, src.count, src.height, [&](size_t, FrameRange frames, RowRange rows) {
    for (size_t frame = frames.begin; frame < frames.end; ++frame) {
      Threshold(src.Image(frame), dst.Image(frame), threshold, max_value, type, rows);
    }
  });
  return {};
}

Status ConvertU8ToF32(ThreadPool& pool, ConstImageU8View src, ImageF32View dst, float scale,
                      float offset) {
  const char* op = "ConvertU8ToF32";
  if (Status s = CheckConversion<uint8_t, float>(op, src, dst); !s.ok()) return s;
  if (Status s = CheckFinite(op, "scale", scale); !s.ok()) return s;
  if (Status s = CheckFinite(op, "offset", offset); !s.ok()) return s;
  RunBands(pool, src.height,
           [&](size_t, RowRange rows) { ConvertU8ToF32(src, dst, scale, offset, rows); });
  return {};
}

Status ConvertF32ToU8(ThreadPool& pool, ConstImageF32View src, ImageU8View dst, float scale,
                      float offset) {
  const char* op = "ConvertF32ToU8";
  if (Status s = CheckConversion<float, uint8_t>(op, src, dst); !s.ok()) return s;
  if (Status s = CheckFinite(op, "scale", scale); !s.ok()) return s;
  if (Status s = CheckFinite(op, "offset", offset); !s.ok()) return s;
  RunBands(pool, src.height,
           [&](size_t, RowRange rows) { ConvertF32ToU8(src, dst, scale, offset, rows); });
  return {};
}

namespace {

template <typename T>
Status RgbToGrayPlanes(ThreadPool& pool, ImageView<const T> r, ImageView<const T> g,
                       ImageView<const T> b, ImageView<T> gray) {
  const char* op = "RgbToGray";
  if (Status s = CheckConversion<T, T>(op, r, gray); !s.ok()) return s;
  for (const auto& [name, plane] : {std::pair{"g", g}, std::pair{"b", b}}) {
    if (Status s = CheckImage<T>(op, name, plane); !s.ok()) return s;
    if (Status s = CheckSameSize(op, "r", r, name, plane); !s.ok()) return s;
    if (Status s = CheckNoOverlap(op, name, plane, "gray", ImageView<const T>(gray)); !s.ok()) {
      return s;
    }
  }
  RunBands(pool, r.height, [&](size_t, RowRange rows) { RgbToGray(r, g, b, gray, rows); });
  return {};
}

}  // namespace

Status RgbToGray(ThreadPool& pool, ConstImageU8View r, ConstImageU8View g, ConstImageU8View b,
                 ImageU8View gray) {
  return RgbToGrayPlanes<uint8_t>(pool, r, g, b, gray);
}

Status RgbToGray(ThreadPool& pool, ConstImageF32View r, ConstImageF32View g, ConstImageF32View b,
                 ImageF32View gray) {
  return RgbToGrayPlanes<float>(pool, r, g, b, gray);
}

// ---------------------------------------------------------------------------------------------
// Smoothing filters (swarm/kernels/vision/vision_filter.h)

namespace {

// The kernels' limits (swarm/kernels/vision/vision_filter.h): u8 box sums must fit 32 bits.
constexpr size_t kMaxGaussianSize = 4095;
constexpr size_t kMaxBoxSize = 2047;

template <typename T>
Status ReserveFor(VisionWorkspace& workspace, const ThreadPool& pool, size_t elements) {
  if constexpr (std::is_same_v<T, float>) {
    return workspace.Reserve(pool.num_threads(), elements, 0);
  } else {
    return workspace.Reserve(pool.num_threads(), 0, elements);
  }
}

template <typename T>
auto ScratchFor(VisionWorkspace& workspace, size_t thread) {
  if constexpr (std::is_same_v<T, float>) {
    return workspace.Floats(thread);
  } else {
    return workspace.Bytes(thread);
  }
}

template <typename T>
size_t GaussianScratch(size_t width, size_t ksize) {
  if constexpr (std::is_same_v<T, float>) {
    return GaussianScratchElements(width, ksize);
  } else {
    return GaussianScratchBytes(width, ksize);
  }
}

template <typename T>
size_t BoxScratch(size_t width, size_t ksize) {
  if constexpr (std::is_same_v<T, float>) {
    return BoxScratchElements(width, ksize);
  } else {
    return BoxScratchBytes(width, ksize);
  }
}

template <typename T>
Status GaussianSingle(VisionWorkspace& workspace, ThreadPool& pool, ImageView<const T> src,
                      ImageView<T> dst, size_t ksize, double sigma) {
  const char* op = "GaussianBlur";
  if (Status s = CheckSourceDestination<T>(op, src, dst); !s.ok()) return s;
  if (Status s = CheckKernelSize(op, ksize, kMaxGaussianSize); !s.ok()) return s;
  if (Status s = CheckSigma(op, sigma); !s.ok()) return s;
  if (Status s = ReserveFor<T>(workspace, pool, GaussianScratch<T>(src.width, ksize)); !s.ok()) {
    return s;
  }
  RunBands(pool, src.height, [&](size_t thread, RowRange rows) {
    GaussianBlur(src, dst, ksize, sigma, rows, ScratchFor<T>(workspace, thread));
  });
  return {};
}

template <typename T>
Status GaussianBatch(VisionWorkspace& workspace, ThreadPool& pool, ImageBatchView<const T> src,
                     ImageBatchView<T> dst, size_t ksize, double sigma) {
  const char* op = "GaussianBlur";
  if (Status s = CheckBatches<T>(op, src, dst, true, false); !s.ok()) return s;
  if (Status s = CheckKernelSize(op, ksize, kMaxGaussianSize); !s.ok()) return s;
  if (Status s = CheckSigma(op, sigma); !s.ok()) return s;
  if (Status s = ReserveFor<T>(workspace, pool, GaussianScratch<T>(src.width, ksize)); !s.ok()) {
    return s;
  }
  RunFrames(pool, src.count, src.height, [&](size_t thread, FrameRange frames, RowRange rows) {
    GaussianBlurBatch(src, dst, ksize, sigma, ScratchFor<T>(workspace, thread), rows, frames);
  });
  return {};
}

template <typename T>
Status BoxSingle(VisionWorkspace& workspace, ThreadPool& pool, ImageView<const T> src,
                 ImageView<T> dst, size_t ksize) {
  const char* op = "BoxFilter";
  if (Status s = CheckSourceDestination<T>(op, src, dst); !s.ok()) return s;
  if (Status s = CheckKernelSize(op, ksize, kMaxBoxSize); !s.ok()) return s;
  if (Status s = ReserveFor<T>(workspace, pool, BoxScratch<T>(src.width, ksize)); !s.ok()) {
    return s;
  }
  RunBands(pool, src.height, [&](size_t thread, RowRange rows) {
    BoxFilter(src, dst, ksize, rows, ScratchFor<T>(workspace, thread));
  });
  return {};
}

template <typename T>
Status BoxBatch(VisionWorkspace& workspace, ThreadPool& pool, ImageBatchView<const T> src,
                ImageBatchView<T> dst, size_t ksize) {
  const char* op = "BoxFilter";
  if (Status s = CheckBatches<T>(op, src, dst, true, false); !s.ok()) return s;
  if (Status s = CheckKernelSize(op, ksize, kMaxBoxSize); !s.ok()) return s;
  if (Status s = ReserveFor<T>(workspace, pool, BoxScratch<T>(src.width, ksize)); !s.ok()) {
    return s;
  }
  RunFrames(pool, src.count, src.height, [&](size_t thread, FrameRange frames, RowRange rows) {
    BoxFilterBatch(src, dst, ksize, ScratchFor<T>(workspace, thread), rows, frames);
  });
  return {};
}

Status CheckPyramidSize(size_t src_width, size_t src_height, size_t dst_width, size_t dst_height) {
  const size_t want_width = (src_width + 1) / 2;
  const size_t want_height = (src_height + 1) / 2;
  if (dst_width == want_width && dst_height == want_height) return {};
  return InvalidArgument("PyramidDown: dst is " + SizeText(dst_width, dst_height) +
                         " pixels but a src of " + SizeText(src_width, src_height) + " needs " +
                         SizeText(want_width, want_height) +
                         " ((width + 1) / 2 x (height + 1) / 2)");
}

}  // namespace

Status GaussianBlur(VisionWorkspace& workspace, ThreadPool& pool, ConstImageF32View src,
                    ImageF32View dst, size_t ksize, double sigma) {
  return GaussianSingle<float>(workspace, pool, src, dst, ksize, sigma);
}

Status GaussianBlur(VisionWorkspace& workspace, ThreadPool& pool, ConstImageU8View src,
                    ImageU8View dst, size_t ksize, double sigma) {
  return GaussianSingle<uint8_t>(workspace, pool, src, dst, ksize, sigma);
}

Status GaussianBlur(VisionWorkspace& workspace, ThreadPool& pool, ImageBatchView<const float> src,
                    ImageBatchView<float> dst, size_t ksize, double sigma) {
  return GaussianBatch<float>(workspace, pool, src, dst, ksize, sigma);
}

Status GaussianBlur(VisionWorkspace& workspace, ThreadPool& pool, ImageBatchView<const uint8_t> src,
                    ImageBatchView<uint8_t> dst, size_t ksize, double sigma) {
  return GaussianBatch<uint8_t>(workspace, pool, src, dst, ksize, sigma);
}

Status BoxFilter(VisionWorkspace& workspace, ThreadPool& pool, ConstImageF32View src,
                 ImageF32View dst, size_t ksize) {
  return BoxSingle<float>(workspace, pool, src, dst, ksize);
}

Status BoxFilter(VisionWorkspace& workspace, ThreadPool& pool, ConstImageU8View src,
                 ImageU8View dst, size_t ksize) {
  return BoxSingle<uint8_t>(workspace, pool, src, dst, ksize);
}

Status BoxFilter(VisionWorkspace& workspace, ThreadPool& pool, ImageBatchView<const float> src,
                 ImageBatchView<float> dst, size_t ksize) {
  return BoxBatch<float>(workspace, pool, src, dst, ksize);
}

Status BoxFilter(VisionWorkspace& workspace, ThreadPool& pool, ImageBatchView<const uint8_t> src,
                 ImageBatchView<uint8_t> dst, size_t ksize) {
  return BoxBatch<uint8_t>(workspace, pool, src, dst, ksize);
}

Status PyramidDown(VisionWorkspace& workspace, ThreadPool& pool, ConstImageF32View src,
                   ImageF32View dst) {
  const char* op = "PyramidDown";
  if (Status s = CheckImage<float>(op, "src", src); !s.ok()) return s;
  if (Status s = CheckImage<float>(op, "dst", dst); !s.ok()) return s;
  if (Status s = CheckPyramidSize(src.width, src.height, dst.width, dst.height); !s.ok()) {
    return s;
  }
  if (Status s = CheckNoOverlap(op, "src", src, "dst", ConstImageF32View(dst)); !s.ok()) return s;
  if (Status s = ReserveFor<float>(workspace, pool, PyramidDownScratchElements(src.width));
      !s.ok()) {
    return s;
  }
  RunBands(pool, dst.height, [&](size_t thread, RowRange rows) {
    PyramidDown(src, dst, rows, workspace.Floats(thread));
  });
  return {};
}

Status PyramidDown(VisionWorkspace& workspace, ThreadPool& pool, ImageBatchView<const float> src,
                   ImageBatchView<float> dst) {
  const char* op = "PyramidDown";
  if (Status s = CheckBatches<float>(op, src, dst, false, false); !s.ok()) return s;
  if (Status s = CheckPyramidSize(src.width, src.height, dst.width, dst.height); !s.ok()) {
    return s;
  }
  if (Status s = ReserveFor<float>(workspace, pool, PyramidDownScratchElements(src.width));
      !s.ok()) {
    return s;
  }
  RunFrames(pool, src.count, dst.height, [&](size_t thread, FrameRange frames, RowRange rows) {
    PyramidDownBatch(src, dst, workspace.Floats(thread), rows, frames);
  });
  return {};
}

}  // namespace swarm
