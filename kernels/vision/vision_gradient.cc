// Dispatch and precondition checks for the gradient kernels
// (swarm/kernels/vision/vision_gradient.h).
#include "swarm/kernels/vision/vision_gradient.h"

#include <algorithm>
#include <type_traits>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/vision/vision_gradient-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/vision/vision_gradient-inl.h"

#if HWY_ONCE
namespace swarm {

HWY_EXPORT(GradientF32Impl);
HWY_EXPORT(GradientU8Impl);
HWY_EXPORT(MagnitudeImpl);

namespace {

template <typename A, typename B>
bool SameShape(const ImageView<A>& a, const ImageView<B>& b) {
  return a.width == b.width && a.height == b.height;
}

template <typename T>
bool ValidLayout(const ImageView<T>& image) {
  return image.row_stride % kPadElements<std::remove_const_t<T>> == 0 &&
         image.row_stride >= image.width;
}

// The checks shared by both source types; Out is GradientOutputsF32 or GradientOutputsU8.
template <typename Src, class Out>
const char* ArgumentsError(const ImageView<Src>& src, const Out& out, size_t scratch_elements,
                           RowRange rows) {
  if (src.width == 0 || src.height == 0) return "gradient: the source image is empty";
  if (src.data == nullptr) return "gradient: the source image has no data";
  if (!ValidLayout(src)) return "gradient: source row stride is not padded to whole vectors";
  if (out.dx.data == nullptr && out.dy.data == nullptr && out.magnitude.data == nullptr) {
    return "gradient: no output requested";
  }
  if (out.dx.data != nullptr && (!SameShape(src, out.dx) || !ValidLayout(out.dx))) {
    return "gradient: dx shape or row stride differs from the source";
  }
  if (out.dy.data != nullptr && (!SameShape(src, out.dy) || !ValidLayout(out.dy))) {
    return "gradient: dy shape or row stride differs from the source";
  }
  if (out.magnitude.data != nullptr &&
      (!SameShape(src, out.magnitude) || !ValidLayout(out.magnitude))) {
    return "gradient: magnitude shape or row stride differs from the source";
  }
  if (scratch_elements < GradientScratchElements(src.width)) {
    return "gradient: scratch smaller than GradientScratchElements(width)";
  }
  if (rows.begin > src.height) return "gradient: row range begins past the last row";
  return nullptr;
}

size_t ClampEnd(RowRange rows, size_t height) { return std::min(rows.end, height); }

// Images (or batches) whose outputs total kStreamOutputBytes or more stream their f32 vectors
// past the cache (see ForEachVectorMaybeStreamed in loop-inl.h). The decision counts the whole
// image, not the rows of one call, so that the bands two threads split a frame into store the way
// the whole frame does (half of a 1080p f32 output is just under the threshold).
template <typename T>
size_t BytesWritten(const ImageView<T>& image, size_t rows) {
  return image.data == nullptr ? 0 : rows * image.width * sizeof(T);
}

// Streaming needs every f32 output row of every image on a vector boundary (views promise it for
// rows; checked anyway, with the batch's image stride, because a misaligned Stream faults where
// StoreU would not).
template <class Out>
bool ShouldStream(const Out& out, size_t rows, size_t images, bool image_strides_aligned) {
  const size_t bytes = images * (BytesWritten(out.dx, rows) + BytesWritten(out.dy, rows) +
                                 BytesWritten(out.magnitude, rows));
  return bytes >= kStreamOutputBytes && IsVectorAligned(out.dx.data) &&
         IsVectorAligned(out.dy.data) && IsVectorAligned(out.magnitude.data) &&
         image_strides_aligned;
}

template <typename T>
bool ImageStrideAligned(const ImageBatchView<T>& batch) {
  return batch.data == nullptr || (batch.image_stride * sizeof(T)) % kAlignBytes == 0;
}

template <typename Src, class Out>
void GradientChecked(GradientFilter filter, const ImageView<const Src>& src, const Out& out,
                     const FloatView& scratch, RowRange rows, bool stream) {
  SWARM_ASSERT(GradientArgumentsError(src, out, scratch.count, rows) == nullptr);
  const size_t end = ClampEnd(rows, src.height);
  if constexpr (std::is_same_v<Src, float>) {
    HWY_DYNAMIC_DISPATCH(GradientF32Impl)(filter, src, out, scratch, rows.begin, end, stream);
  } else {
    HWY_DYNAMIC_DISPATCH(GradientU8Impl)(filter, src, out, scratch, rows.begin, end, stream);
  }
}

template <typename T>
ImageView<T> ImageOrEmpty(const ImageBatchView<T>& batch, size_t index) {
  return batch.data == nullptr ? ImageView<T>{} : batch.Image(index);
}

template <typename T, typename Src>
bool MatchesBatch(const ImageBatchView<T>& out, const ImageBatchView<Src>& src) {
  return out.data == nullptr ||
         (out.count == src.count && out.image_stride >= out.row_stride * out.height);
}

}  // namespace

size_t GradientScratchElements(size_t width) {
  return 2 * (RoundUpToVector<float>(width) + 2 * kPadFloats);
}

const char* GradientArgumentsError(const ConstImageF32View& src, const GradientOutputsF32& out,
                                   size_t scratch_elements, RowRange rows) {
  return ArgumentsError(src, out, scratch_elements, rows);
}

const char* GradientArgumentsError(const ConstImageU8View& src, const GradientOutputsU8& out,
                                   size_t scratch_elements, RowRange rows) {
  return ArgumentsError(src, out, scratch_elements, rows);
}

void Gradient(GradientFilter filter, const ConstImageF32View& src, const GradientOutputsF32& out,
              const FloatView& scratch, RowRange rows) {
  GradientChecked(filter, src, out, scratch, rows, ShouldStream(out, src.height, 1, true));
}

void Gradient(GradientFilter filter, const ConstImageU8View& src, const GradientOutputsU8& out,
              const FloatView& scratch, RowRange rows) {
  GradientChecked(filter, src, out, scratch, rows, ShouldStream(out, src.height, 1, true));
}

namespace {

// One Gradient per image; the streaming decision is taken for the whole batch (64 small frames
// write as much as one large frame).
template <typename Src, class Out, class BatchOut>
void GradientBatchImpl(GradientFilter filter, const ImageBatchView<const Src>& src,
                       const BatchOut& out, const FloatView& scratch, RowRange rows,
                       FrameRange frames) {
  SWARM_ASSERT(MatchesBatch(out.dx, src) && MatchesBatch(out.dy, src) &&
               MatchesBatch(out.magnitude, src));
  if (src.count == 0) return;
  const auto image_outputs = [&](size_t i) {
    return Out{ImageOrEmpty(out.dx, i), ImageOrEmpty(out.dy, i), ImageOrEmpty(out.magnitude, i)};
  };
  const bool stream = ShouldStream(image_outputs(0), src.height, src.count,
                                   ImageStrideAligned(out.dx) && ImageStrideAligned(out.dy) &&
                                       ImageStrideAligned(out.magnitude));
  for (size_t i = frames.begin; i < frames.EndFor(src.count); ++i) {
    GradientChecked(filter, src.Image(i), image_outputs(i), scratch, rows, stream);
  }
}

}  // namespace

void GradientBatch(GradientFilter filter, const ImageBatchView<const float>& src,
                   const GradientBatchOutputsF32& out, const FloatView& scratch, RowRange rows,
                   FrameRange frames) {
  GradientBatchImpl<float, GradientOutputsF32>(filter, src, out, scratch, rows, frames);
}

void GradientBatch(GradientFilter filter, const ImageBatchView<const uint8_t>& src,
                   const GradientBatchOutputsU8& out, const FloatView& scratch, RowRange rows,
                   FrameRange frames) {
  GradientBatchImpl<uint8_t, GradientOutputsU8>(filter, src, out, scratch, rows, frames);
}

void SobelDx(const ConstImageF32View& src, const ImageF32View& dx, const FloatView& scratch,
             RowRange rows) {
  Gradient(GradientFilter::kSobel, src, GradientOutputsF32{.dx = dx}, scratch, rows);
}
void SobelDy(const ConstImageF32View& src, const ImageF32View& dy, const FloatView& scratch,
             RowRange rows) {
  Gradient(GradientFilter::kSobel, src, GradientOutputsF32{.dy = dy}, scratch, rows);
}
void SobelDx(const ConstImageU8View& src, const ImageS16View& dx, const FloatView& scratch,
             RowRange rows) {
  Gradient(GradientFilter::kSobel, src, GradientOutputsU8{.dx = dx}, scratch, rows);
}
void SobelDy(const ConstImageU8View& src, const ImageS16View& dy, const FloatView& scratch,
             RowRange rows) {
  Gradient(GradientFilter::kSobel, src, GradientOutputsU8{.dy = dy}, scratch, rows);
}
void SobelMagnitude(const ConstImageF32View& src, const ImageF32View& magnitude,
                    const FloatView& scratch, RowRange rows) {
  Gradient(GradientFilter::kSobel, src, GradientOutputsF32{.magnitude = magnitude}, scratch, rows);
}
void SobelMagnitude(const ConstImageU8View& src, const ImageF32View& magnitude,
                    const FloatView& scratch, RowRange rows) {
  Gradient(GradientFilter::kSobel, src, GradientOutputsU8{.magnitude = magnitude}, scratch, rows);
}

void GradientMagnitude(const ConstImageF32View& dx, const ConstImageF32View& dy,
                       const ImageF32View& magnitude, RowRange rows) {
  SWARM_ASSERT(SameShape(dx, dy) && SameShape(dx, magnitude) && ValidLayout(dx) &&
               ValidLayout(dy) && ValidLayout(magnitude) && rows.begin <= dx.height);
  HWY_DYNAMIC_DISPATCH(MagnitudeImpl)(dx, dy, magnitude, rows.begin, ClampEnd(rows, dx.height));
}

}  // namespace swarm
#endif  // HWY_ONCE
