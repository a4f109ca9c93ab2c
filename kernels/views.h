// Non-owning views that every kernel takes. A view is a pointer, an element count and, for f32x4
// data, the distance in floats between the lane arrays. Views never own memory and never expose
// padding: kernels read whole vectors (the padding makes that safe) but write only `count`
// elements, so the zero padding an owning buffer promises stays zero.
//
// Layout of an f32x4 view (lane-major structure of arrays):
//   x[0..count) at data, y at data + lane_stride, z at data + 2 * lane_stride, w at + 3 * stride.
// lane_stride is a multiple of kPadFloats and data is kAlignBytes-aligned, so every lane array
// starts on a vector boundary and may be read up to RoundUpToVector(count) elements.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/assert.h"

namespace swarm {

// The widest vector of any compiled target (AVX-512: 64 bytes); kernels/loop-inl.h checks each
// target's HWY_MAX_BYTES against it at compile time.
inline constexpr size_t kMaxVectorBytes = 64;
// Alignment of every allocation and of every lane array.
inline constexpr size_t kAlignBytes = kMaxVectorBytes;
// Lane arrays and scalar attribute arrays are padded to a multiple of this many elements of their
// type: one vector of the widest compiled target.
template <typename T>
inline constexpr size_t kPadElements = kMaxVectorBytes / sizeof(T);
inline constexpr size_t kPadFloats = kPadElements<float>;

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

}  // namespace swarm
