// Dispatch and precondition checks for the pixel-format kernels
// (swarm/kernels/vision/vision_convert.h).
#include "swarm/kernels/vision/vision_convert.h"

#include <algorithm>
#include <cstdint>
#include <type_traits>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/vision/vision_convert-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/vision/vision_convert-inl.h"

#if HWY_ONCE
namespace swarm {

HWY_EXPORT(DeinterleaveImpl);
HWY_EXPORT(InterleaveImpl);
HWY_EXPORT(RgbToGrayU8Impl);
HWY_EXPORT(RgbToGrayF32Impl);
HWY_EXPORT(ConvertU8ToF32Impl);
HWY_EXPORT(ConvertF32ToU8Impl);
HWY_EXPORT(ThresholdF32Impl);
HWY_EXPORT(ThresholdU8Impl);

namespace {

// A planar view as swarm/kernels/base/views.h promises it: aligned rows padded to whole vectors.
template <typename T>
bool ValidPlane(const ImageView<T>& view) {
  return view.data != nullptr && view.width >= 1 && view.height >= 1 &&
         view.row_stride % kPadElements<std::remove_const_t<T>> == 0 &&
         view.row_stride >= view.width && reinterpret_cast<uintptr_t>(view.data) % kAlignBytes == 0;
}

template <typename A, typename B>
bool SameSize(const A& a, const B& b) {
  return a.width == b.width && a.height == b.height;
}

bool ValidInterleaved(const ConstInterleavedU8View& view) {
  return view.data != nullptr && view.width >= 1 && view.height >= 1 &&
         (view.channels == 1 || view.channels == 3 || view.channels == 4) &&
         view.row_bytes >= view.width * view.channels;
}

// The clamped [begin, end) of `rows` in an image of `height` rows.
struct Rows {
  size_t begin;
  size_t end;
};
Rows Clamp(RowRange rows, size_t height) {
  const size_t end = std::min(rows.end, height);
  SWARM_ASSERT(rows.begin <= end);
  return {rows.begin, end};
}

template <typename T>
void CheckUnary(const ImageView<const T>& src, const ImageView<T>& dst) {
  SWARM_ASSERT(ValidPlane(src) && ValidPlane(dst) && SameSize(src, dst));
}

}  // namespace

void Deinterleave(const ConstInterleavedU8View& src, std::span<const ImageU8View> planes,
                  RowRange rows) {
  SWARM_ASSERT(ValidInterleaved(src) && planes.size() == src.channels);
  for (const ImageU8View& plane : planes) SWARM_ASSERT(ValidPlane(plane) && SameSize(src, plane));
  const Rows r = Clamp(rows, src.height);
  HWY_DYNAMIC_DISPATCH(DeinterleaveImpl)(src, planes.data(), r.begin, r.end);
}

void Interleave(std::span<const ConstImageU8View> planes, const InterleavedU8View& dst,
                RowRange rows) {
  SWARM_ASSERT(ValidInterleaved(dst) && planes.size() == dst.channels);
  for (const ConstImageU8View& plane : planes) {
    SWARM_ASSERT(ValidPlane(plane) && SameSize(dst, plane));
  }
  const Rows r = Clamp(rows, dst.height);
  HWY_DYNAMIC_DISPATCH(InterleaveImpl)(planes.data(), dst, r.begin, r.end);
}

void RgbToGray(const ConstImageU8View& r, const ConstImageU8View& g, const ConstImageU8View& b,
               const ImageU8View& gray, RowRange rows) {
  SWARM_ASSERT(ValidPlane(r) && ValidPlane(g) && ValidPlane(b) && ValidPlane(gray) &&
               SameSize(r, gray) && SameSize(g, gray) && SameSize(b, gray));
  const Rows range = Clamp(rows, gray.height);
  HWY_DYNAMIC_DISPATCH(RgbToGrayU8Impl)(r, g, b, gray, range.begin, range.end);
}

void RgbToGray(const ConstImageF32View& r, const ConstImageF32View& g, const ConstImageF32View& b,
               const ImageF32View& gray, RowRange rows) {
  SWARM_ASSERT(ValidPlane(r) && ValidPlane(g) && ValidPlane(b) && ValidPlane(gray) &&
               SameSize(r, gray) && SameSize(g, gray) && SameSize(b, gray));
  const Rows range = Clamp(rows, gray.height);
  HWY_DYNAMIC_DISPATCH(RgbToGrayF32Impl)(r, g, b, gray, range.begin, range.end);
}

void ConvertU8ToF32(const ConstImageU8View& src, const ImageF32View& dst, float scale, float offset,
                    RowRange rows) {
  SWARM_ASSERT(ValidPlane(src) && ValidPlane(dst) && SameSize(src, dst));
  const Rows r = Clamp(rows, dst.height);
  HWY_DYNAMIC_DISPATCH(ConvertU8ToF32Impl)(src, dst, scale, offset, r.begin, r.end);
}

void ConvertF32ToU8(const ConstImageF32View& src, const ImageU8View& dst, float scale, float offset,
                    RowRange rows) {
  SWARM_ASSERT(ValidPlane(src) && ValidPlane(dst) && SameSize(src, dst));
  const Rows r = Clamp(rows, dst.height);
  HWY_DYNAMIC_DISPATCH(ConvertF32ToU8Impl)(src, dst, scale, offset, r.begin, r.end);
}

void Threshold(const ConstImageF32View& src, const ImageF32View& dst, float thresh, float max_value,
               ThresholdType type, RowRange rows) {
  CheckUnary<float>(src, dst);
  const Rows r = Clamp(rows, dst.height);
  HWY_DYNAMIC_DISPATCH(ThresholdF32Impl)(src, dst, thresh, max_value, type, r.begin, r.end);
}

void Threshold(const ConstImageU8View& src, const ImageU8View& dst, uint8_t thresh,
               uint8_t max_value, ThresholdType type, RowRange rows) {
  CheckUnary<uint8_t>(src, dst);
  const Rows r = Clamp(rows, dst.height);
  HWY_DYNAMIC_DISPATCH(ThresholdU8Impl)(src, dst, thresh, max_value, type, r.begin, r.end);
}

}  // namespace swarm
#endif  // HWY_ONCE
