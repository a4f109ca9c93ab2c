// Image gradients: Sobel 3x3 and Scharr 3x3 derivatives in x and y, and the gradient magnitude,
// on f32 images (f32 outputs) and u8 images (int16 derivatives, f32 magnitude), single images and
// batches. One fused pass produces any subset of {dx, dy, magnitude} from the source.
//
// OpenCV semantics matched (OpenCV 4.6, modules/imgproc/src/deriv.cpp):
//   cv::Sobel(src, dst, ddepth, 1, 0, 3, 1, 0, BORDER_REFLECT_101)  -> dx, kSobel
//   cv::Sobel(src, dst, ddepth, 0, 1, 3, 1, 0, BORDER_REFLECT_101)  -> dy, kSobel
//   cv::Scharr(src, dst, ddepth, 1, 0, 1, 0, BORDER_REFLECT_101)    -> dx, kScharr (dy likewise)
//   cv::magnitude(dx, dy, magnitude)                                 -> sqrt(dx^2 + dy^2)
// with ddepth CV_32F for f32 sources and CV_16S for u8 sources. Border reflect-101 mirrors about
// the edge pixel without repeating it (index -1 -> 1, n -> n - 2; a 1-pixel dimension reads
// index 0, as cv::borderInterpolate does).
//
// The kernels are separable: smoothing w = [a b a] (Sobel a = 1, b = 2; Scharr a = 3, b = 10)
// across the derivative direction and [-1 0 1] along it. Per output row y, with rows r0 = y - 1,
// r1 = y, r2 = y + 1 (reflected), the vertical combinations are computed once per column
//   s[x] = a * (r0[x] + r2[x]) + b * r1[x]           (Sobel: (r0[x] + r2[x]) + (r1[x] + r1[x]))
//   t[x] = r2[x] - r0[x]
// into two scratch rows with reflected margins s[-1], s[width], and reused for both outputs:
//   dx[x] = s[x + 1] - s[x - 1]
//   dy[x] = a * (t[x - 1] + t[x + 1]) + b * t[x]     (Sobel: (t[x-1] + t[x+1]) + (t[x] + t[x]))
//   magnitude[x] = Sqrt(dx[x] * dx[x] + dy[x] * dy[x])
// f32: this order is fixed, each step a correctly rounded Add/Sub/Mul/Sqrt (no FMA, no rsqrt), so
// results are bitwise equal on every SIMD target and thread split, and dx, dy and magnitude from
// the fused pass have the bits of the separate calls. OpenCV sums in its own order (row filter
// first), so f32 dx, dy differ from cv::Sobel/cv::Scharr by 1-2 ulp (measured <= 2.5e-7 of the
// value range; tests allow 1e-5). cv::magnitude may fuse its multiply-add (v_muladd), so
// magnitudes can differ from it in the last bit. u8: all sums are exact integers (|dx|, |dy| <=
// 1020 Sobel, 8160 Scharr), so int16 dx, dy equal OpenCV's CV_16S output exactly; the u8
// magnitude is Sqrt(fx * fx + fy * fy) of the f32-converted exact derivatives, which for Sobel
// (dx^2 + dy^2 < 2^24, exact) equals cv::magnitude of OpenCV's converted CV_16S results exactly,
// and for Scharr to within an ulp.
//
// Large outputs (kStreamOutputBytes or more for the whole image or batch, whatever rows one call
// computes) are stored with non-temporal Stream for whole vectors when every output is
// kAlignBytes-aligned; values are the same either way, only cache behaviour differs. Calls return
// after a store fence.
//
// Preconditions (checked once per call with SWARM_ASSERT; GradientArgumentsError gives the reason
// as text so boundaries can report it): source and every present output have the same non-zero
// width and height; rows.begin <= height (rows.end is clamped); scratch holds at least
// GradientScratchElements(width) floats and overlaps nothing else; outputs overlap neither the
// source nor each other. An output with data == nullptr is not computed. Only the pixels of rows
// [rows.begin, rows.end) are written; row padding is never written. The source is read whole
// (rows.begin - 1 and rows.end are the band's neighbours), up to RoundUpToVector(width) per row.
#pragma once

#include <cstddef>
#include <cstdint>

#include "swarm/kernels/base/views.h"
#include "swarm/kernels/vision/frame_range.h"

namespace swarm {

enum class GradientFilter : uint8_t {
  kSobel,   // cv::Sobel, ksize 3: smoothing [1 2 1], derivative [-1 0 1]
  kScharr,  // cv::Scharr: smoothing [3 10 3], derivative [-1 0 1]
};

using ImageS16View = ImageView<int16_t>;
using ConstImageS16View = ImageView<const int16_t>;

// Outputs of one fused pass over an f32 image; leave a view default (data == nullptr) to skip it.
struct GradientOutputsF32 {
  ImageF32View dx = {};
  ImageF32View dy = {};
  ImageF32View magnitude = {};
};

// Outputs of one fused pass over a u8 image: exact int16 derivatives (CV_16S), f32 magnitude.
struct GradientOutputsU8 {
  ImageS16View dx = {};
  ImageS16View dy = {};
  ImageF32View magnitude = {};
};

// Batched outputs: same shapes and count as the source batch; default views are skipped.
struct GradientBatchOutputsF32 {
  ImageBatchView<float> dx = {};
  ImageBatchView<float> dy = {};
  ImageBatchView<float> magnitude = {};
};
struct GradientBatchOutputsU8 {
  ImageBatchView<int16_t> dx = {};
  ImageBatchView<int16_t> dy = {};
  ImageBatchView<float> magnitude = {};
};

// Minimum scratch size in floats for a source `width` pixels wide (f32 or u8): two rows of
// vertical combinations with one vector of margin on each side. Contents on entry do not matter.
size_t GradientScratchElements(size_t width);

// nullptr if the arguments satisfy the preconditions above, else a static message naming the
// first violated one (e.g. "gradient: dx shape differs from the source").
const char* GradientArgumentsError(const ConstImageF32View& src, const GradientOutputsF32& out,
                                   size_t scratch_elements, RowRange rows = {});
const char* GradientArgumentsError(const ConstImageU8View& src, const GradientOutputsU8& out,
                                   size_t scratch_elements, RowRange rows = {});

// The fused pass: every present output of rows [rows.begin, rows.end) in one sweep of the source.
void Gradient(GradientFilter filter, const ConstImageF32View& src, const GradientOutputsF32& out,
              const FloatView& scratch, RowRange rows = {});
void Gradient(GradientFilter filter, const ConstImageU8View& src, const GradientOutputsU8& out,
              const FloatView& scratch, RowRange rows = {});

// The fused pass on frames `frames` of a batch (all by default; rows applies to each image); the
// scratch is reused. Streaming is decided from the whole batch's outputs, whichever frames one
// call computes.
void GradientBatch(GradientFilter filter, const ImageBatchView<const float>& src,
                   const GradientBatchOutputsF32& out, const FloatView& scratch, RowRange rows = {},
                   FrameRange frames = {});
void GradientBatch(GradientFilter filter, const ImageBatchView<const uint8_t>& src,
                   const GradientBatchOutputsU8& out, const FloatView& scratch, RowRange rows = {},
                   FrameRange frames = {});

// Single-output conveniences over Gradient with GradientFilter::kSobel.
void SobelDx(const ConstImageF32View& src, const ImageF32View& dx, const FloatView& scratch,
             RowRange rows = {});
void SobelDy(const ConstImageF32View& src, const ImageF32View& dy, const FloatView& scratch,
             RowRange rows = {});
void SobelDx(const ConstImageU8View& src, const ImageS16View& dx, const FloatView& scratch,
             RowRange rows = {});
void SobelDy(const ConstImageU8View& src, const ImageS16View& dy, const FloatView& scratch,
             RowRange rows = {});
// Magnitude only, fused (dx and dy never leave registers).
void SobelMagnitude(const ConstImageF32View& src, const ImageF32View& magnitude,
                    const FloatView& scratch, RowRange rows = {});
void SobelMagnitude(const ConstImageU8View& src, const ImageF32View& magnitude,
                    const FloatView& scratch, RowRange rows = {});

// cv::magnitude: magnitude = Sqrt(dx * dx + dy * dy) per pixel, for rows [rows.begin, rows.end).
// All three images have the same shape; magnitude may alias dx or dy (pixel-wise).
void GradientMagnitude(const ConstImageF32View& dx, const ConstImageF32View& dy,
                       const ImageF32View& magnitude, RowRange rows = {});

}  // namespace swarm
