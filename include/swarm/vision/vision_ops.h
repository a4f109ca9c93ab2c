// Checked, threaded and batched entry points for the vision kernels (swarm/kernels/vision/).
//
// Each entry point validates everything first (sizes, shapes, kernel size, sigma, the pyrDown
// destination size) and returns kInvalidArgument with a message naming the parameter and the
// values given, without touching dst. Then it splits the output rows over the threads of the pool
// (RowRange chunks; each thread starts on its band of the static split and takes over rows its
// partner has not reached, see RunBands in vision_ops_checks.h); every kernel computes an output
// row from the whole source alone, so the result is bitwise identical for any number of threads.
// Batched variants run all N frames of an ImageBatchView in one call: each thread hands its run
// of frames to the batched kernel, and when there are fewer frames than threads each frame is
// also cut into bands.
//
// Kernels that need temporary rows take scratch from a VisionWorkspace, created once by the
// caller: it holds one scratch slice per thread from the MemoryAccountant (category kScratch)
// and grows only when a wider image or more threads arrive, so steady-state frames allocate
// nothing. A workspace must not be used by two calls at once.
//
//   MemoryAccountant memory;
//   VisionWorkspace workspace(memory);
//   ThreadPool pool(2);
//   Status s = GaussianBlur(workspace, pool, src.view(), dst.view(), 5, 1.0);
//
// Border handling and rounding are the kernels' (OpenCV's BORDER_REFLECT_101 and saturate_cast
// rounding; see the kernel headers for the citations).
#pragma once

#include <cstddef>
#include <cstdint>

#include "swarm/core/buffer.h"
#include "swarm/core/memory.h"
#include "swarm/core/status.h"
#include "swarm/core/thread_pool.h"
#include "swarm/kernels/base/views.h"
#include "swarm/kernels/vision/vision_convert.h"
#include "swarm/kernels/vision/vision_gradient.h"

namespace swarm {

class VisionWorkspace {
 public:
  explicit VisionWorkspace(MemoryAccountant& accountant) : accountant_(&accountant) {}
  VisionWorkspace(const VisionWorkspace&) = delete;
  VisionWorkspace& operator=(const VisionWorkspace&) = delete;

  // Makes sure each of `threads` threads has at least `float_elements` floats and
  // `byte_elements` bytes of scratch. Allocates only when a request exceeds what is held (the
  // old block is kept if the new one is refused); an error names the request.
  Status Reserve(size_t threads, size_t float_elements, size_t byte_elements);

  // Thread `thread`'s scratch; valid until the next Reserve that grows.
  FloatView Floats(size_t thread);
  ByteView Bytes(size_t thread);

  // Number of times Reserve allocated (tests check steady state allocates nothing).
  uint64_t growths() const { return growths_; }
  size_t allocated_bytes() const;

 private:
  MemoryAccountant* accountant_;
  FloatArray floats_;
  ByteArray bytes_;
  size_t threads_ = 0;
  size_t float_stride_ = 0;  // elements per thread, a multiple of kPadElements<float>
  size_t byte_stride_ = 0;
  uint64_t growths_ = 0;
};

// Separable Gaussian blur, coefficients as cv::getGaussianKernel(ksize, sigma), border
// reflect-101 (cv::GaussianBlur with sigmaY = sigmaX). ksize odd >= 1, sigma > 0 and finite;
// src and dst the same size and not overlapping.
Status GaussianBlur(VisionWorkspace& workspace, ThreadPool& pool, ConstImageF32View src,
                    ImageF32View dst, size_t ksize, double sigma);
Status GaussianBlur(VisionWorkspace& workspace, ThreadPool& pool, ConstImageU8View src,
                    ImageU8View dst, size_t ksize, double sigma);

// Normalised box filter of ksize x ksize (cv::blur), border reflect-101; ksize odd >= 1.
Status BoxFilter(VisionWorkspace& workspace, ThreadPool& pool, ConstImageF32View src,
                 ImageF32View dst, size_t ksize);
Status BoxFilter(VisionWorkspace& workspace, ThreadPool& pool, ConstImageU8View src,
                 ImageU8View dst, size_t ksize);

// Sobel / Scharr 3x3 derivatives and gradient magnitude in one fused pass (kernels/
// vision_gradient.h, cv::Sobel / cv::Scharr with border reflect-101, then cv::magnitude): every
// present output of `out` (a default view, data == nullptr, is skipped; at least one must be
// present) has src's size and overlaps nothing. f32 sources give f32 outputs; u8 sources give
// exact int16 derivatives (CV_16S) and an f32 magnitude.
Status Gradient(VisionWorkspace& workspace, ThreadPool& pool, GradientFilter filter,
                ConstImageF32View src, const GradientOutputsF32& out);
Status Gradient(VisionWorkspace& workspace, ThreadPool& pool, GradientFilter filter,
                ConstImageU8View src, const GradientOutputsU8& out);
// Sobel dx and dy only; magnitude only (dx and dy never leave registers).
Status Sobel(VisionWorkspace& workspace, ThreadPool& pool, ConstImageF32View src, ImageF32View dx,
             ImageF32View dy);
Status Sobel(VisionWorkspace& workspace, ThreadPool& pool, ConstImageU8View src, ImageS16View dx,
             ImageS16View dy);
Status GradientMagnitude(VisionWorkspace& workspace, ThreadPool& pool, ConstImageF32View src,
                         ImageF32View dst);
Status GradientMagnitude(VisionWorkspace& workspace, ThreadPool& pool, ConstImageU8View src,
                         ImageF32View dst);

// cv::pyrDown: 5-tap Gaussian then every second row and column; dst must be
// ((width + 1) / 2) x ((height + 1) / 2).
Status PyramidDown(VisionWorkspace& workspace, ThreadPool& pool, ConstImageF32View src,
                   ImageF32View dst);

// cv::threshold with THRESH_BINARY or THRESH_TRUNC (ThresholdType,
// swarm/kernels/vision/vision_convert.h); src and dst may be the same image (in place) but must not
// overlap otherwise.
Status Threshold(ThreadPool& pool, ConstImageF32View src, ImageF32View dst, float threshold,
                 float max_value, ThresholdType type);
Status Threshold(ThreadPool& pool, ConstImageU8View src, ImageU8View dst, uint8_t threshold,
                 uint8_t max_value, ThresholdType type);

// Conversions (swarm/kernels/vision/vision_convert.h): cv::Mat::convertTo with scale and offset,
// and COLOR_RGB2GRAY from three planes. Same size rules; dst may alias nothing.
Status ConvertU8ToF32(ThreadPool& pool, ConstImageU8View src, ImageF32View dst, float scale,
                      float offset);
Status ConvertF32ToU8(ThreadPool& pool, ConstImageF32View src, ImageU8View dst, float scale,
                      float offset);
Status RgbToGray(ThreadPool& pool, ConstImageU8View r, ConstImageU8View g, ConstImageU8View b,
                 ImageU8View gray);
Status RgbToGray(ThreadPool& pool, ConstImageF32View r, ConstImageF32View g, ConstImageF32View b,
                 ImageF32View gray);

// Batched forms: every frame of src filtered into the same frame of dst (same count and size).
Status GaussianBlur(VisionWorkspace& workspace, ThreadPool& pool, ImageBatchView<const float> src,
                    ImageBatchView<float> dst, size_t ksize, double sigma);
Status GaussianBlur(VisionWorkspace& workspace, ThreadPool& pool, ImageBatchView<const uint8_t> src,
                    ImageBatchView<uint8_t> dst, size_t ksize, double sigma);
Status BoxFilter(VisionWorkspace& workspace, ThreadPool& pool, ImageBatchView<const float> src,
                 ImageBatchView<float> dst, size_t ksize);
Status BoxFilter(VisionWorkspace& workspace, ThreadPool& pool, ImageBatchView<const uint8_t> src,
                 ImageBatchView<uint8_t> dst, size_t ksize);
Status Gradient(VisionWorkspace& workspace, ThreadPool& pool, GradientFilter filter,
                ImageBatchView<const float> src, const GradientBatchOutputsF32& out);
Status Gradient(VisionWorkspace& workspace, ThreadPool& pool, GradientFilter filter,
                ImageBatchView<const uint8_t> src, const GradientBatchOutputsU8& out);
Status GradientMagnitude(VisionWorkspace& workspace, ThreadPool& pool,
                         ImageBatchView<const float> src, ImageBatchView<float> dst);
Status GradientMagnitude(VisionWorkspace& workspace, ThreadPool& pool,
                         ImageBatchView<const uint8_t> src, ImageBatchView<float> dst);
Status PyramidDown(VisionWorkspace& workspace, ThreadPool& pool, ImageBatchView<const float> src,
                   ImageBatchView<float> dst);
Status Threshold(ThreadPool& pool, ImageBatchView<const float> src, ImageBatchView<float> dst,
                 float threshold, float max_value, ThresholdType type);

}  // namespace swarm
