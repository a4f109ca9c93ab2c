// Non-owning views that every kernel takes. A view is a pointer, an element count and, for f32x4
// data, the distance in floats between the lane arrays. Views never own memory and never expose
// padding: kernels read whole vectors (the padding makes that safe) but write only `count`
// elements, so the zero padding an owning buffer promises stays zero.
//
// Layout of an f32x4 view (lane-major structure of arrays):
//   x[0..count) at data, y at data + lane_stride, z at data + 2 * lane_stride, w at + 3 * stride.
// lane_stride is a multiple of kPadFloats and data is kAlignBytes-aligned, so every lane array
// starts kAlignBytes-aligned and may be read up to RoundUpToVector(count) elements.
#pragma once

#include <cstddef>
#include <cstdint>

#include "swarm/kernels/base/assert.h"

namespace swarm {

// The widest vector of any compiled target; kernels/base/loop-inl.h checks each target's
// HWY_MAX_BYTES against it at compile time. x86: AVX-512's 64 bytes. aarch64: SVE's architectural
// maximum of 2048 bits, because an SVE vector's length is known only at run time (128 to 2048
// bits: 16 bytes on Neoverse V2 and in Apple-class cores, 32 on Graviton 3, up to 256 in qemu).
#if defined(__aarch64__)
inline constexpr size_t kMaxVectorBytes = 256;
#else
inline constexpr size_t kMaxVectorBytes = 64;
#endif
// Alignment of every allocation and of every lane array: a cache line, and AVX-512's vector (its
// streaming stores need it). NEON and SVE loads and stores need no alignment, so aarch64 keeps
// 64 bytes too instead of SVE's possible 256.
inline constexpr size_t kAlignBytes = 64;
// Lane arrays and scalar attribute arrays are padded to a multiple of this many elements of their
// type: one vector of the widest compiled target.
template <typename T>
inline constexpr size_t kPadElements = kMaxVectorBytes / sizeof(T);
inline constexpr size_t kPadFloats = kPadElements<float>;

// Kernels whose output reaches this many bytes in one call (or one batch) write it with
// non-temporal stores: several times a core's L2, so data that cannot stay in cache anyway does
// not evict what can. Streaming needs vector-aligned addresses (IsVectorAligned).
inline constexpr size_t kStreamOutputBytes = size_t{4} << 20;
inline bool IsVectorAligned(const void* pointer) {
  return reinterpret_cast<uintptr_t>(pointer) % kAlignBytes == 0;
}

template <typename T>
constexpr size_t RoundUpToVector(size_t count) {
  return (count + kPadElements<T> - 1) / kPadElements<T> * kPadElements<T>;
}

// A padded array of scalars (mass, age, ...). T is float or uint8_t.
template <typename T>
struct ArrayView {
  T* data = nullptr;
  size_t count = 0;

  // Elements [begin, begin + n). begin must be a multiple of the padding so vectors stay aligned.
  ArrayView Slice(size_t begin, size_t n) const {
    SWARM_ASSERT(begin % kPadElements<T> == 0 && begin + n <= count);
    return {data + begin, n};
  }
  operator ArrayView<const T>() const { return {data, count}; }
};

using FloatView = ArrayView<float>;
using ConstFloatView = ArrayView<const float>;
using ByteView = ArrayView<uint8_t>;
using ConstByteView = ArrayView<const uint8_t>;

// N f32x4 vectors stored as four lane arrays; Float is float or const float.
template <typename Float>
struct BasicVec4View {
  Float* data = nullptr;
  size_t count = 0;
  size_t lane_stride = 0;  // in floats, a multiple of kPadFloats, >= count

  Float* Lane(size_t lane) const { return data + lane * lane_stride; }
  Float* x() const { return Lane(0); }
  Float* y() const { return Lane(1); }
  Float* z() const { return Lane(2); }
  Float* w() const { return Lane(3); }

  // Elements [begin, begin + n): a view with the same lane stride.
  BasicVec4View Slice(size_t begin, size_t n) const {
    SWARM_ASSERT(begin % kPadFloats == 0 && begin + n <= count);
    return {data + begin, n, lane_stride};
  }
  operator BasicVec4View<const float>() const { return {data, count, lane_stride}; }
};

using Vec4View = BasicVec4View<float>;
using ConstVec4View = BasicVec4View<const float>;

// N 4x4 matrices as 16 lane arrays, column-major like glm::mat4: element (column c, row r) of
// matrix i is Lane(4 * c + r)[i]. Same padding and stride rules as BasicVec4View.
template <typename Float>
struct BasicMat4View {
  Float* data = nullptr;
  size_t count = 0;
  size_t lane_stride = 0;

  Float* Lane(size_t lane) const { return data + lane * lane_stride; }
  Float* Element(size_t column, size_t row) const { return Lane(4 * column + row); }
  BasicMat4View Slice(size_t begin, size_t n) const {
    SWARM_ASSERT(begin % kPadFloats == 0 && begin + n <= count);
    return {data + begin, n, lane_stride};
  }
  operator BasicMat4View<const float>() const { return {data, count, lane_stride}; }
};

using Mat4View = BasicMat4View<float>;
using ConstMat4View = BasicMat4View<const float>;

// N rigid poses: a unit quaternion (lanes x, y, z, w of `rotation`) and a translation (lanes
// x, y, z of `translation`; its lane w is never read or written).
template <typename Float>
struct BasicPoseView {
  BasicVec4View<Float> rotation;
  BasicVec4View<Float> translation;

  size_t count() const { return rotation.count; }
  // Both halves describe the same elements (the kernels' precondition on every pose view).
  bool consistent() const { return rotation.count == translation.count; }
  BasicPoseView Slice(size_t begin, size_t n) const {
    return {rotation.Slice(begin, n), translation.Slice(begin, n)};
  }
  operator BasicPoseView<const float>() const { return {rotation, translation}; }
};

using PoseView = BasicPoseView<float>;
using ConstPoseView = BasicPoseView<const float>;

// N robots' values of `arrays` per-robot quantities (joint angles, link pose components, Jacobian
// entries), structure of arrays over the robot index: quantity j of robot r is Array(j)[r], so one
// vector holds one quantity of 16 robots (AVX-512). Same padding and stride rules as
// BasicVec4View: `stride` is a multiple of kPadFloats and >= count, data is kAlignBytes-aligned.
template <typename Float>
struct BasicLanesView {
  Float* data = nullptr;
  size_t count = 0;   // robots
  size_t stride = 0;  // floats between consecutive arrays
  size_t arrays = 0;  // quantities per robot

  Float* Array(size_t index) const {
    SWARM_ASSERT(index < arrays);
    return data + index * stride;
  }
  // Robots [begin, begin + n): same arrays and stride.
  BasicLanesView Slice(size_t begin, size_t n) const {
    SWARM_ASSERT(begin % kPadFloats == 0 && begin + n <= count);
    return {data + begin, n, stride, arrays};
  }
  // Quantities [first, first + n) of the same robots.
  BasicLanesView Arrays(size_t first, size_t n) const {
    SWARM_ASSERT(first + n <= arrays);
    return {data + first * stride, count, stride, n};
  }
  operator BasicLanesView<const float>() const { return {data, count, stride, arrays}; }
};

using LanesView = BasicLanesView<float>;
using ConstLanesView = BasicLanesView<const float>;

// A planar single-channel image of T (float or uint8_t): `height` rows of `width` pixels, row y
// starting at data + y * row_stride. row_stride (in elements) is a multiple of kPadElements<T> and
// data is kAlignBytes-aligned, so every row starts on a vector boundary and may be read up to
// RoundUpToVector<T>(width); the padding at the end of each row is zero in owning images and
// kernels never write it. Multi-channel images are several planes.
template <typename T>
struct ImageView {
  T* data = nullptr;
  size_t width = 0;
  size_t height = 0;
  size_t row_stride = 0;

  T* Row(size_t y) const { return data + y * row_stride; }
  // Rows [begin, begin + n) as an image (for splitting work into bands).
  ImageView Rows(size_t begin, size_t n) const {
    SWARM_ASSERT(begin + n <= height);
    return {data + begin * row_stride, width, n, row_stride};
  }
  operator ImageView<const T>() const { return {data, width, height, row_stride}; }
};

using ImageF32View = ImageView<float>;
using ConstImageF32View = ImageView<const float>;
using ImageU8View = ImageView<uint8_t>;
using ConstImageU8View = ImageView<const uint8_t>;

// N images of the same size in one allocation, image k starting at data + k * image_stride
// (a multiple of row_stride).
template <typename T>
struct ImageBatchView {
  T* data = nullptr;
  size_t count = 0;
  size_t width = 0;
  size_t height = 0;
  size_t row_stride = 0;
  size_t image_stride = 0;

  ImageView<T> Image(size_t index) const {
    SWARM_ASSERT(index < count);
    return {data + index * image_stride, width, height, row_stride};
  }
  operator ImageBatchView<const T>() const {
    return {data, count, width, height, row_stride, image_stride};
  }
};

// The output rows [begin, end) a vision kernel computes (end is clamped to the image height), so
// the engine can split one image into bands across threads; the source is always the whole image
// because a band's filter taps read the rows around it.
struct RowRange {
  size_t begin = 0;
  size_t end = SIZE_MAX;
};

// True if every view covers the same number of elements (kernel preconditions).
template <typename First, typename... Rest>
constexpr bool SameCount(const First& first, const Rest&... rest) {
  return ((rest.count == first.count) && ...);
}

}  // namespace swarm
