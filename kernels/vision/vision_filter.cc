// Dispatch, preconditions, scratch layout and Gaussian coefficients of the smoothing filters.
//
// Scratch layout (all sizes multiples of kPadFloats elements of 4 bytes, so every part starts
// on a vector boundary): [coefficients (Gaussian only)] 2 x [margin | row | margin], where the
// margins hold RoundUpToVector(radius) elements and the row RoundUpToVector(width); two rows so
// that output rows can be made in pairs (vision_filter-inl.h, VerticalFixedPair).
#include "swarm/kernels/vision/vision_filter.h"

#include <cmath>
#include <cstdint>
#include <type_traits>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/vision/vision_filter-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/vision/vision_filter-inl.h"

#if HWY_ONCE
namespace swarm {

HWY_EXPORT(GaussianF32Impl);
HWY_EXPORT(GaussianU8Impl);
HWY_EXPORT(BoxF32Impl);
HWY_EXPORT(BoxU8Impl);
HWY_EXPORT(PyramidDownImpl);

namespace {

// Largest kernel sizes whose integer sums fit int32: u8 box 255 * ksize^2, u8 Gaussian sums
// are bounded by 255 * 2^16 whatever the size (the fixed-point taps sum to 256).
constexpr size_t kMaxBoxKsize = 2047;
constexpr size_t kMaxGaussianKsize = 4095;

size_t Padded(size_t n) { return RoundUpToVector<float>(n); }

// Elements (floats or int32) of one scratch row with its two margins.
size_t RowElements(size_t width, size_t radius) { return 2 * Padded(radius) + Padded(width); }

size_t PyramidMargin() { return Padded(2); }

// Non-temporal stores for destinations that cannot stay in cache anyway (measured on 1920x1080
// f32, 8 MB); they need vector-aligned rows, which ValidImage's stride rule gives once the base
// is aligned. A batch decides once for all its frames: 64 frames of 300 KB are 19 MB of output
// even though each frame alone would fit in cache.
bool StreamOutput(const ImageF32View& dst) {
  return dst.height * dst.row_stride * sizeof(float) >= kStreamOutputBytes &&
         IsVectorAligned(dst.data);
}
bool StreamOutput(const ImageBatchView<float>& dst) {
  return dst.count * dst.image_stride * sizeof(float) >= kStreamOutputBytes &&
         IsVectorAligned(dst.data) && (dst.image_stride * sizeof(float)) % kAlignBytes == 0;
}

template <typename T>
bool ValidImage(const ImageView<T>& image) {
  return image.data != nullptr && image.width > 0 && image.height > 0 &&
         image.row_stride % kPadElements<std::remove_const_t<T>> == 0 &&
         image.row_stride >= RoundUpToVector<std::remove_const_t<T>>(image.width);
}

template <typename T>
bool Disjoint(const ImageView<const T>& a, const ImageView<T>& b) {
  const auto a_begin = reinterpret_cast<uintptr_t>(a.data);
  const auto b_begin = reinterpret_cast<uintptr_t>(b.data);
  const uintptr_t a_end = a_begin + a.height * a.row_stride * sizeof(T);
  const uintptr_t b_end = b_begin + b.height * b.row_stride * sizeof(T);
  return a_end <= b_begin || b_end <= a_begin;
}

template <typename T>
bool ValidSameShape(const ImageView<const T>& src, const ImageView<T>& dst, RowRange rows) {
  return ValidImage(src) && ValidImage(dst) && src.width == dst.width && src.height == dst.height &&
         Disjoint(src, dst) && rows.begin <= rows.end;
}

template <typename T>
bool ValidBatch(const ImageBatchView<const T>& src, const ImageBatchView<T>& dst) {
  return src.count == dst.count && src.count > 0 &&
         src.image_stride >= src.height * src.row_stride &&
         dst.image_stride >= dst.height * dst.row_stride;
}

int32_t* AsInt32(const ByteView& scratch) {
  SWARM_ASSERT(reinterpret_cast<uintptr_t>(scratch.data) % alignof(int32_t) == 0);
  return reinterpret_cast<int32_t*>(scratch.data);
}

// OpenCV's getGaussianKernelBitExact for sigma > 0, evaluated tap by tap so that no storage is
// needed: the normaliser first, then tap(i) = t_i * (1 / sum) for i <= ksize / 2.
class GaussianTaps {
 public:
  GaussianTaps(size_t ksize, double sigma)
      : ksize_(static_cast<int64_t>(ksize)), scale2x_(-0.125 / (sigma * sigma)) {
    SWARM_ASSERT(ksize % 2 == 1 && sigma > 0.0);
    double sum = 0.0;
    for (size_t i = 0; i < ksize / 2; ++i) sum += Unnormalized(i);
    sum *= 2.0;
    sum += 1.0;
    inverse_sum_ = 1.0 / sum;
  }
  double Tap(size_t i) const {
    return i == static_cast<size_t>(ksize_ / 2) ? inverse_sum_ : Unnormalized(i) * inverse_sum_;
  }

 private:
  double Unnormalized(size_t i) const {
    const int64_t x = 2 * static_cast<int64_t>(i) + 1 - ksize_;
    return std::exp(static_cast<double>(x * x) * scale2x_);
  }
  int64_t ksize_;
  double scale2x_;
  double inverse_sum_ = 0.0;
};

// Error diffusion from the outside in (getGaussianKernelFixedPoint_ED, 8 fraction bits); cvRound
// is round-half-to-even (lrint); the centre takes what is left of 256.
template <typename T>
void FixedPointTaps(size_t ksize, double sigma, T* out) {
  const GaussianTaps taps(ksize, sigma);
  double error = 0.0;
  int64_t sum = 0;
  for (size_t i = 0; i < ksize / 2; ++i) {
    const double adjusted = taps.Tap(i) * 256.0 + error;
    const int64_t rounded = std::llrint(adjusted);
    error = adjusted - static_cast<double>(rounded);
    out[i] = out[ksize - 1 - i] = static_cast<T>(rounded);
    sum += rounded;
  }
  out[ksize / 2] = static_cast<T>(256 - 2 * sum);
}

// The 1-row / 1-column rule of cv::GaussianBlur: that direction's kernel becomes [1].
struct Radii {
  size_t x;
  size_t y;
};
template <typename T>
Radii GaussianRadii(const ImageView<const T>& src, size_t ksize) {
  return {src.width == 1 ? 0 : ksize / 2, src.height == 1 ? 0 : ksize / 2};
}

void RunGaussianF32(const ConstImageF32View& src, const ImageF32View& dst, size_t ksize,
                    RowRange rows, const FloatView& scratch, bool stream) {
  static constexpr float kOne = 1.0f;
  const Radii r = GaussianRadii(src, ksize);
  const float* center = scratch.data + ksize / 2;
  HWY_DYNAMIC_DISPATCH(GaussianF32Impl)
  (src, dst, r.x == 0 ? &kOne : center, r.x, r.y == 0 ? &kOne : center, r.y, rows,
   scratch.data + Padded(ksize), RowElements(src.width, ksize / 2), Padded(ksize / 2), stream);
}

void RunGaussianU8(const ConstImageU8View& src, const ImageU8View& dst, size_t ksize, RowRange rows,
                   int32_t* scratch) {
  static constexpr int32_t kOne = 256;
  const Radii r = GaussianRadii(src, ksize);
  const int32_t* center = scratch + ksize / 2;
  HWY_DYNAMIC_DISPATCH(GaussianU8Impl)
  (src, dst, r.x == 0 ? &kOne : center, r.x, r.y == 0 ? &kOne : center, r.y, rows,
   scratch + Padded(ksize), RowElements(src.width, ksize / 2), Padded(ksize / 2));
}

float BoxScale(size_t ksize) {
  return static_cast<float>(1.0 / static_cast<double>(ksize * ksize));
}

void RunBoxF32(const ConstImageF32View& src, const ImageF32View& dst, size_t ksize, RowRange rows,
               const FloatView& scratch, bool stream) {
  HWY_DYNAMIC_DISPATCH(BoxF32Impl)
  (src, dst, ksize / 2, BoxScale(ksize), rows, scratch.data, RowElements(src.width, ksize / 2),
   Padded(ksize / 2), stream);
}

bool ValidPyramid(const ConstImageF32View& src, const ImageF32View& dst, RowRange rows) {
  return ValidImage(src) && ValidImage(dst) && dst.width == (src.width + 1) / 2 &&
         dst.height == (src.height + 1) / 2 && Disjoint(src, dst) && rows.begin <= rows.end;
}

void RunPyramidDown(const ConstImageF32View& src, const ImageF32View& dst, RowRange rows,
                    const FloatView& scratch, bool stream) {
  HWY_DYNAMIC_DISPATCH(PyramidDownImpl)
  (src, dst, rows, scratch.data, PyramidDownScratchElements(src.width), PyramidMargin(), stream);
}

}  // namespace

void GaussianCoefficients(size_t ksize, double sigma, double* out) {
  const GaussianTaps taps(ksize, sigma);
  for (size_t i = 0; i <= ksize / 2; ++i) out[i] = out[ksize - 1 - i] = taps.Tap(i);
}

void GaussianCoefficients(size_t ksize, double sigma, float* out) {
  const GaussianTaps taps(ksize, sigma);
  for (size_t i = 0; i <= ksize / 2; ++i) {
    out[i] = out[ksize - 1 - i] = static_cast<float>(taps.Tap(i));
  }
}

void GaussianFixedPointCoefficients(size_t ksize, double sigma, uint16_t* out) {
  FixedPointTaps(ksize, sigma, out);
}

size_t GaussianScratchElements(size_t width, size_t ksize) {
  return Padded(ksize) + 2 * RowElements(width, ksize / 2);
}
size_t GaussianScratchBytes(size_t width, size_t ksize) {
  return sizeof(int32_t) * GaussianScratchElements(width, ksize);
}
size_t BoxScratchElements(size_t width, size_t ksize) { return 2 * RowElements(width, ksize / 2); }
size_t BoxScratchBytes(size_t width, size_t ksize) {
  return sizeof(int32_t) * BoxScratchElements(width, ksize);
}
size_t PyramidDownScratchElements(size_t src_width) {
  return 2 * PyramidMargin() + 2 * Padded((src_width + 1) / 2);
}

void GaussianBlur(const ConstImageF32View& src, const ImageF32View& dst, size_t ksize, double sigma,
                  RowRange rows, const FloatView& scratch) {
  SWARM_ASSERT(ValidSameShape(src, dst, rows) && ksize % 2 == 1 && ksize <= kMaxGaussianKsize &&
               sigma > 0.0 && scratch.count >= GaussianScratchElements(src.width, ksize));
  GaussianCoefficients(ksize, sigma, scratch.data);
  RunGaussianF32(src, dst, ksize, rows, scratch, StreamOutput(dst));
}

void GaussianBlur(const ConstImageU8View& src, const ImageU8View& dst, size_t ksize, double sigma,
                  RowRange rows, const ByteView& scratch) {
  SWARM_ASSERT(ValidSameShape(src, dst, rows) && ksize % 2 == 1 && ksize <= kMaxGaussianKsize &&
               sigma > 0.0 && scratch.count >= GaussianScratchBytes(src.width, ksize));
  int32_t* scratch32 = AsInt32(scratch);
  FixedPointTaps(ksize, sigma, scratch32);
  RunGaussianU8(src, dst, ksize, rows, scratch32);
}

void BoxFilter(const ConstImageF32View& src, const ImageF32View& dst, size_t ksize, RowRange rows,
               const FloatView& scratch) {
  SWARM_ASSERT(ValidSameShape(src, dst, rows) && ksize % 2 == 1 && ksize <= kMaxBoxKsize &&
               scratch.count >= BoxScratchElements(src.width, ksize));
  RunBoxF32(src, dst, ksize, rows, scratch, StreamOutput(dst));
}

void BoxFilter(const ConstImageU8View& src, const ImageU8View& dst, size_t ksize, RowRange rows,
               const ByteView& scratch) {
  SWARM_ASSERT(ValidSameShape(src, dst, rows) && ksize % 2 == 1 && ksize <= kMaxBoxKsize &&
               scratch.count >= BoxScratchBytes(src.width, ksize));
  HWY_DYNAMIC_DISPATCH(BoxU8Impl)
  (src, dst, ksize / 2, rows, AsInt32(scratch), RowElements(src.width, ksize / 2),
   Padded(ksize / 2));
}

void PyramidDown(const ConstImageF32View& src, const ImageF32View& dst, RowRange rows,
                 const FloatView& scratch) {
  SWARM_ASSERT(ValidPyramid(src, dst, rows) &&
               scratch.count >= PyramidDownScratchElements(src.width));
  RunPyramidDown(src, dst, rows, scratch, StreamOutput(dst));
}

void GaussianBlurBatch(const ImageBatchView<const float>& src, const ImageBatchView<float>& dst,
                       size_t ksize, double sigma, const FloatView& scratch, RowRange rows,
                       FrameRange frames) {
  SWARM_ASSERT(ValidBatch(src, dst));
  SWARM_ASSERT(ksize % 2 == 1 && ksize <= kMaxGaussianKsize && sigma > 0.0 &&
               scratch.count >= GaussianScratchElements(src.width, ksize));
  GaussianCoefficients(ksize, sigma, scratch.data);
  const bool stream = StreamOutput(dst);
  for (size_t i = frames.begin; i < frames.EndFor(src.count); ++i) {
    SWARM_ASSERT(ValidSameShape(src.Image(i), dst.Image(i), rows));
    RunGaussianF32(src.Image(i), dst.Image(i), ksize, rows, scratch, stream);
  }
}

void GaussianBlurBatch(const ImageBatchView<const uint8_t>& src, const ImageBatchView<uint8_t>& dst,
                       size_t ksize, double sigma, const ByteView& scratch, RowRange rows,
                       FrameRange frames) {
  SWARM_ASSERT(ValidBatch(src, dst));
  SWARM_ASSERT(ksize % 2 == 1 && ksize <= kMaxGaussianKsize && sigma > 0.0 &&
               scratch.count >= GaussianScratchBytes(src.width, ksize));
  int32_t* scratch32 = AsInt32(scratch);
  FixedPointTaps(ksize, sigma, scratch32);
  for (size_t i = frames.begin; i < frames.EndFor(src.count); ++i) {
    SWARM_ASSERT(ValidSameShape(src.Image(i), dst.Image(i), rows));
    RunGaussianU8(src.Image(i), dst.Image(i), ksize, rows, scratch32);
  }
}

void BoxFilterBatch(const ImageBatchView<const float>& src, const ImageBatchView<float>& dst,
                    size_t ksize, const FloatView& scratch, RowRange rows, FrameRange frames) {
  SWARM_ASSERT(ValidBatch(src, dst) && ksize % 2 == 1 && ksize <= kMaxBoxKsize &&
               scratch.count >= BoxScratchElements(src.width, ksize));
  const bool stream = StreamOutput(dst);
  for (size_t i = frames.begin; i < frames.EndFor(src.count); ++i) {
    SWARM_ASSERT(ValidSameShape(src.Image(i), dst.Image(i), rows));
    RunBoxF32(src.Image(i), dst.Image(i), ksize, rows, scratch, stream);
  }
}

void BoxFilterBatch(const ImageBatchView<const uint8_t>& src, const ImageBatchView<uint8_t>& dst,
                    size_t ksize, const ByteView& scratch, RowRange rows, FrameRange frames) {
  SWARM_ASSERT(ValidBatch(src, dst));
  for (size_t i = frames.begin; i < frames.EndFor(src.count); ++i) {
    BoxFilter(src.Image(i), dst.Image(i), ksize, rows, scratch);
  }
}

void PyramidDownBatch(const ImageBatchView<const float>& src, const ImageBatchView<float>& dst,
                      const FloatView& scratch, RowRange rows, FrameRange frames) {
  SWARM_ASSERT(ValidBatch(src, dst) && scratch.count >= PyramidDownScratchElements(src.width));
  const bool stream = StreamOutput(dst);
  for (size_t i = frames.begin; i < frames.EndFor(src.count); ++i) {
    SWARM_ASSERT(ValidPyramid(src.Image(i), dst.Image(i), rows));
    RunPyramidDown(src.Image(i), dst.Image(i), rows, scratch, stream);
  }
}

}  // namespace swarm
#endif  // HWY_ONCE
