// Smoothing filters on planar images, matching OpenCV 4.6 with its default border
// BORDER_REFLECT_101 (gfedcb|abcdefgh|gfedcba):
//   GaussianBlur  cv::GaussianBlur(src, dst, Size(k, k), sigma)         f32 and u8
//   BoxFilter     cv::blur(src, dst, Size(k, k))  (normalised box)      f32 and u8
//   PyramidDown   cv::pyrDown(src, dst)  (5-tap [1 4 6 4 1]/16, even rows/columns kept)   f32
//
// Layout of every filter (vision_filter-inl.h): for each output row (two at a time where the
// vertical taps allow, sharing their source loads), a vertical pass over the source rows it
// needs (row indices reflected, once per row) writes a scratch row, whose left and right margins
// are then filled with the reflected pixels, and a horizontal pass reads that scratch row with
// unaligned loads. No per-pixel border branch exists anywhere. f32 destinations of 4 MiB or
// more are written with non-temporal stores (they would not stay in cache; saves the
// read-for-ownership), completed with a store fence before the call returns.
//
// Reflection (OpenCV's borderInterpolate): an index p outside [0, n) is reflected about the
// edges without repeating the edge pixel, repeatedly while it stays outside, so kernels wider
// than the image still reflect; a single pixel (n == 1) repeats itself.
//
// Common preconditions (SWARM_ASSERT; the engine validates user input and returns errors):
// src and dst do not overlap; dst has the size stated per filter; ksize is odd; every view obeys
// the padding rules of swarm/kernels/base/views.h (rows may be read up to RoundUpToVector(width));
// the scratch holds at least the stated number of elements and is not shared between concurrent
// calls. `rows` selects the output rows to compute (the source is always read whole), so the
// engine can give each thread a band and its own scratch. Kernels never write row padding.
//
// Results are bitwise identical on every SIMD target and equal the scalar reference in
// swarm/kernels/vision/vision_filter_reference.h bit for bit (same operations in the same order).
#pragma once

#include <cstddef>
#include <cstdint>

#include "swarm/kernels/base/views.h"
#include "swarm/kernels/vision/frame_range.h"

namespace swarm {

// ---- Gaussian coefficients -------------------------------------------------------------------

// cv::getGaussianKernel(ksize, sigma, CV_64F) for sigma > 0 (OpenCV's getGaussianKernelBitExact):
// t_i = exp(x_i^2 * (-0.125 / sigma^2)) for x_i = 2i - (ksize - 1), i < ksize / 2; the sum
// 2 * sum(t_i) + 1 is accumulated in that order, then every tap is t_i * (1 / sum) and the centre
// 1 / sum. `out` receives ksize values. Preconditions: ksize odd, sigma > 0.
void GaussianCoefficients(size_t ksize, double sigma, double* out);
// The same converted to float, as cv::getGaussianKernel(ksize, sigma, CV_32F) and as
// cv::GaussianBlur uses on CV_32F images.
void GaussianCoefficients(size_t ksize, double sigma, float* out);
// OpenCV's ufixedpoint16 kernel for cv::GaussianBlur on CV_8U (smooth.dispatch.cpp,
// getGaussianKernelFixedPoint_ED): taps with 8 fractional bits (raw values, sum exactly 256),
// outer taps rounded half-to-even from the double kernel with the rounding error diffused
// inwards, the centre tap taking the remainder.
void GaussianFixedPointCoefficients(size_t ksize, double sigma, uint16_t* out);

// ---- Scratch sizes ---------------------------------------------------------------------------

// Floats of scratch an f32 GaussianBlur (coefficients + one padded row with margins) needs.
size_t GaussianScratchElements(size_t width, size_t ksize);
// Bytes of scratch a u8 GaussianBlur needs (32-bit integer coefficients and row).
size_t GaussianScratchBytes(size_t width, size_t ksize);
// Floats of scratch an f32 BoxFilter needs.
size_t BoxScratchElements(size_t width, size_t ksize);
// Bytes of scratch a u8 BoxFilter needs.
size_t BoxScratchBytes(size_t width, size_t ksize);
// Floats of scratch PyramidDown needs for a source `src_width` pixels wide.
size_t PyramidDownScratchElements(size_t src_width);

// ---- Gaussian --------------------------------------------------------------------------------

// cv::GaussianBlur(src, dst, Size(ksize, ksize), sigma, sigma, BORDER_REFLECT_101).
// Like OpenCV, a 1-row image is not filtered vertically and a 1-column image not horizontally
// (the kernel size in that direction becomes 1).
// f32: coefficients GaussianCoefficients(float); each pass computes, per pixel,
//   c[r] * p[0] + c[r+1] * (p[-1] + p[1]) + ... + c[2r] * (p[-r] + p[r])   (left to right),
// vertical pass first. OpenCV (row pass first, own summation order) differs by a few float ulps.
// u8: OpenCV's bit-exact fixed-point path (smooth.simd.hpp GaussianBlurFixedPoint): taps from
// GaussianFixedPointCoefficients, u8 x tap sums exact with 8 fractional bits, second pass exact
// with 16, result (sum + 2^15) >> 16. Integer sums are exact, so the pass order does not matter
// and the result equals OpenCV's bit for bit.
// Preconditions: ksize odd, sigma > 0, dst same size as src, ksize <= 4095,
// scratch.count >= GaussianScratchElements / GaussianScratchBytes(src.width, ksize).
void GaussianBlur(const ConstImageF32View& src, const ImageF32View& dst, size_t ksize, double sigma,
                  RowRange rows, const FloatView& scratch);
void GaussianBlur(const ConstImageU8View& src, const ImageU8View& dst, size_t ksize, double sigma,
                  RowRange rows, const ByteView& scratch);

// ---- Box -------------------------------------------------------------------------------------

// cv::blur(src, dst, Size(ksize, ksize)) = normalised cv::boxFilter, BORDER_REFLECT_101 (no
// 1-row special case: OpenCV shrinks the box only with BORDER_ISOLATED).
// f32: per pass p[0] + (p[-1] + p[1]) + ... + (p[-r] + p[r]), then times float(1 / ksize^2).
// OpenCV sums in double and scales in double; the difference is a few float ulps.
// u8: the exact integer sum s, then round(s / ksize^2) to nearest, as OpenCV (ksize^2 is odd,
// so there are no ties: its fixed-point divide and its cvRound(s * (1.0 / area)) both give it).
// Preconditions: ksize odd, dst same size as src, ksize <= 2047 (u8 sums fit 32 bits),
// scratch.count >= BoxScratchElements / BoxScratchBytes(src.width, ksize).
void BoxFilter(const ConstImageF32View& src, const ImageF32View& dst, size_t ksize, RowRange rows,
               const FloatView& scratch);
void BoxFilter(const ConstImageU8View& src, const ImageU8View& dst, size_t ksize, RowRange rows,
               const ByteView& scratch);

// ---- Pyramid ---------------------------------------------------------------------------------

// cv::pyrDown(src, dst) on f32: dst(x, y) = sum w_i w_j src(2x + i, 2y + j) / 256 over
// i, j in [-2, 2], w = [1 4 6 4 1], reflected indices; dst is ((w + 1) / 2, (h + 1) / 2).
// Per pass 6 p[0] + 4 (p[-1] + p[1]) + (p[-2] + p[2]), vertical first, then times 1/256
// (exact power of two). `rows` are rows of dst.
// Preconditions: dst.width == (src.width + 1) / 2, dst.height == (src.height + 1) / 2,
// scratch.count >= PyramidDownScratchElements(src.width).
void PyramidDown(const ConstImageF32View& src, const ImageF32View& dst, RowRange rows,
                 const FloatView& scratch);

// ---- Batches ---------------------------------------------------------------------------------

// One call filters frames `frames` of a batch (rows `rows` of each; all by default), with one
// scratch sized for one frame. Whether f32 output is streamed is decided from the whole batch's
// output (64 frames of 300 KB are 19 MB, which would not stay in cache), so threads that each
// take some of the frames store the way one thread taking them all would.
// Preconditions as above per frame, plus src.count == dst.count.
void GaussianBlurBatch(const ImageBatchView<const float>& src, const ImageBatchView<float>& dst,
                       size_t ksize, double sigma, const FloatView& scratch, RowRange rows = {},
                       FrameRange frames = {});
void GaussianBlurBatch(const ImageBatchView<const uint8_t>& src, const ImageBatchView<uint8_t>& dst,
                       size_t ksize, double sigma, const ByteView& scratch, RowRange rows = {},
                       FrameRange frames = {});
void BoxFilterBatch(const ImageBatchView<const float>& src, const ImageBatchView<float>& dst,
                    size_t ksize, const FloatView& scratch, RowRange rows = {},
                    FrameRange frames = {});
void BoxFilterBatch(const ImageBatchView<const uint8_t>& src, const ImageBatchView<uint8_t>& dst,
                    size_t ksize, const ByteView& scratch, RowRange rows = {},
                    FrameRange frames = {});
// `rows` are rows of dst.
void PyramidDownBatch(const ImageBatchView<const float>& src, const ImageBatchView<float>& dst,
                      const FloatView& scratch, RowRange rows = {}, FrameRange frames = {});

// OpenCV's borderInterpolate for BORDER_REFLECT_101: the index in [0, n) that p maps to.
// Precondition n > 0.
inline size_t Reflect101(ptrdiff_t p, size_t n) {
  const ptrdiff_t len = static_cast<ptrdiff_t>(n);
  if (len == 1) return 0;
  while (p < 0 || p >= len) {
    p = p < 0 ? -p : 2 * (len - 1) - p;
  }
  return static_cast<size_t>(p);
}

}  // namespace swarm
