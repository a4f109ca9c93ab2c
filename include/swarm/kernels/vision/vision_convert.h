// Pixel-format kernels for the vision family: interleaved <-> planar u8, RGB -> gray, u8 <-> f32
// with scale and offset, and fixed thresholds. Each matches the OpenCV 4.6 operation named in its
// comment (tests/kernels/vision/vision_convert_test.cc checks them against OpenCV on every target).
//
// Every kernel is per pixel, deterministic (same bits on every SIMD target: integer paths are
// exact, float paths use separate Mul/Add under -ffp-contract=off and an exact rounding) and
// computes only the output rows in `rows` (RowRange, end clamped to the height) so the engine can
// split an image into bands across threads.
//
// Preconditions (checked once per call with SWARM_ASSERT):
//   - planar views follow swarm/kernels/base/views.h (rows padded to whole vectors, 64-byte
//   aligned); the
//     kernels read whole vectors inside the padding but write only [0, width) of each row;
//   - all views of one call have the same width and height, width and height >= 1;
//   - an output may alias an input of the same element type exactly (in place) but must not
//     overlap it otherwise.
// Reference implementations: swarm/kernels/vision/vision_convert_reference.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "swarm/kernels/base/views.h"

namespace swarm {

// Interleaved 8-bit pixels as stored in files and camera buffers: `height` rows of `width` pixels
// of `channels` bytes each (gray; R, G, B; or R, G, B, A), row y at data + y * row_bytes with
// row_bytes >= width * channels. Rows are NOT padded: kernels touch only the first
// width * channels bytes of each row and never read or write beyond them.
template <typename Byte>
struct BasicInterleavedView {
  Byte* data = nullptr;
  size_t width = 0;
  size_t height = 0;
  size_t channels = 0;  // 1, 3 or 4
  size_t row_bytes = 0;

  Byte* Row(size_t y) const { return data + y * row_bytes; }
  operator BasicInterleavedView<const uint8_t>() const {
    return {data, width, height, channels, row_bytes};
  }
};
using InterleavedU8View = BasicInterleavedView<uint8_t>;
using ConstInterleavedU8View = BasicInterleavedView<const uint8_t>;

// Splits interleaved pixels into planes: planes[c].Row(y)[x] = src.Row(y)[x * channels + c].
// planes.size() == src.channels (1, 3 or 4); the planes match src's width and height. Same as
// cv::split of a CV_8UC3 / CV_8UC4 Mat.
void Deinterleave(const ConstInterleavedU8View& src, std::span<const ImageU8View> planes,
                  RowRange rows = {});
// The inverse (cv::merge): dst.Row(y)[x * channels + c] = planes[c].Row(y)[x]. Bytes of a dst
// row past width * channels are not written.
void Interleave(std::span<const ConstImageU8View> planes, const InterleavedU8View& dst,
                RowRange rows = {});

// cv::cvtColor(rgb, gray, COLOR_RGB2GRAY) for CV_8U, bit-exact: OpenCV 4.6's fixed-point BT.601
// weights with 15 fractional bits (imgproc/src/color.hpp: RY15 = 9798, GY15 = 19235, BY15 = 3735,
// gray_shift = 15; its SIMD and scalar paths both use them) and round-half-up:
//   gray = (R * 9798 + G * 19235 + B * 3735 + 16384) >> 15.
// (The 14-bit weights 4899/9617/1868 of older OpenCV differ by 1 on 0.26% of inputs; the test
// checks every one of the 2^24 RGB triples against cv::cvtColor.)
void RgbToGray(const ConstImageU8View& r, const ConstImageU8View& g, const ConstImageU8View& b,
               const ImageU8View& gray, RowRange rows = {});
// COLOR_RGB2GRAY for CV_32F with OpenCV's float weights R2YF = 0.299f, G2YF = 0.587f,
// B2YF = 0.114f, evaluated as (R * 0.299f + G * 0.587f) + B * 0.114f with every product and sum
// rounded to float. OpenCV's SIMD path associates the same way but fuses the last two steps
// (v_fma) on FMA-capable CPUs, which no deterministic kernel can do on SSE4 or SCALAR, so results
// differ from OpenCV's by at most about one ulp (~6e-8 for values in [0, 1]).
void RgbToGray(const ConstImageF32View& r, const ConstImageF32View& g, const ConstImageF32View& b,
               const ImageF32View& gray, RowRange rows = {});

// cv::Mat::convertTo(dst, CV_32F, scale, offset): dst = float(src) * scale + offset, one float
// multiply then one float add. OpenCV fuses them (v_fma) on FMA-capable CPUs: results differ by at
// most one rounding (<= 1 ulp of the result); with offset 0 or an exact product they are equal.
void ConvertU8ToF32(const ConstImageU8View& src, const ImageF32View& dst, float scale = 1.0f,
                    float offset = 0.0f, RowRange rows = {});
// cv::Mat::convertTo(dst, CV_8U, scale, offset): v = src * scale + offset in float (multiply,
// then add), then saturate_cast<uchar>: round half to even (cvRound), clamp to [0, 255].
// NaN gives 0, as in OpenCV. Differences from OpenCV: (1) it fuses multiply and add on
// FMA-capable CPUs, so when the unfused v lands within one rounding of a .5 boundary the result
// can differ by 1 (about 5 pixels per million for a scale like 0.7 with an offset; never with
// scale 1 or offset 0, where the two agree exactly); (2) on x86 its int conversion overflows for
// v >= 2^31 and for +Inf and then returns 0 (on aarch64 it saturates); here every v > 255 gives
// 255 on both.
void ConvertF32ToU8(const ConstImageF32View& src, const ImageU8View& dst, float scale = 1.0f,
                    float offset = 0.0f, RowRange rows = {});

// cv::threshold types supported.
enum class ThresholdType : uint8_t {
  kBinary,    // THRESH_BINARY: dst = src > thresh ? max_value : 0
  kTruncate,  // THRESH_TRUNC:  dst = src > thresh ? thresh : src (max_value unused)
};
// cv::threshold on CV_32F. A NaN source pixel compares false: kBinary gives 0, kTruncate keeps
// the NaN (OpenCV's own SIMD and scalar paths disagree on NaN; this is its scalar semantics).
void Threshold(const ConstImageF32View& src, const ImageF32View& dst, float thresh, float max_value,
               ThresholdType type, RowRange rows = {});
// cv::threshold on CV_8U with an integer threshold (OpenCV floors a fractional one first).
void Threshold(const ConstImageU8View& src, const ImageU8View& dst, uint8_t thresh,
               uint8_t max_value, ThresholdType type, RowRange rows = {});

}  // namespace swarm
