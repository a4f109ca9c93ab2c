// Tensor views of swarm's buffers and kernel views, without copying. Const inputs give read-only
// views. The layouts (strides in elements):
//   Vec4View / Vec4Buffer of N      f32[N][4]      strides [1, lane_stride]   (SoA lanes)
//   Mat4View / Mat4Buffer of N      f32[N][4][4]   strides [1, lane_stride, 4 * lane_stride],
//                                   indexed [i][row][column] like numpy's M[i] @ v
//   ArrayView<T> / PaddedArray<T>   T[N]           strides [1]
//   ImageView<T> / Image<T>         T[H][W]        strides [row_stride, 1]
//   ImageBatchView<T> / ImageBatch  T[B][H][W]     strides [image_stride, row_stride, 1]
//   LaneMajorTensor                 f32[R][J]      strides [1, lane_stride]   (robot batch state:
//                                   joint j of robots 0..R is one lane array)
// The padding a buffer keeps is never part of a view.
#pragma once

#include <cstddef>
#include <type_traits>

#include "swarm/kernels/base/views.h"
#include "swarm/tensor/tensor.h"

namespace swarm {

TensorView TensorOf(const Vec4View& view);
TensorView TensorOf(const ConstVec4View& view);
TensorView TensorOf(const Mat4View& view);
TensorView TensorOf(const ConstMat4View& view);

template <typename T>
TensorView TensorOf(const ArrayView<T>& view) {
  using Element = std::remove_const_t<T>;
  const int64_t shape[] = {static_cast<int64_t>(view.count)};
  const int64_t strides[] = {1};
  return TensorView::Create(const_cast<Element*>(view.data), DTypeOf<Element>(), shape, strides,
                            std::is_const_v<T>)
      .value();
}

template <typename T>
TensorView TensorOf(const ImageView<T>& view) {
  using Element = std::remove_const_t<T>;
  const int64_t shape[] = {static_cast<int64_t>(view.height), static_cast<int64_t>(view.width)};
  const int64_t strides[] = {static_cast<int64_t>(view.row_stride), 1};
  return TensorView::Create(const_cast<Element*>(view.data), DTypeOf<Element>(), shape, strides,
                            std::is_const_v<T>)
      .value();
}

template <typename T>
TensorView TensorOf(const ImageBatchView<T>& view) {
  using Element = std::remove_const_t<T>;
  const int64_t shape[] = {static_cast<int64_t>(view.count), static_cast<int64_t>(view.height),
                           static_cast<int64_t>(view.width)};
  const int64_t strides[] = {static_cast<int64_t>(view.image_stride),
                             static_cast<int64_t>(view.row_stride), 1};
  return TensorView::Create(const_cast<Element*>(view.data), DTypeOf<Element>(), shape, strides,
                            std::is_const_v<T>)
      .value();
}

// Owning buffers: anything with a view() the overloads above accept (Vec4Buffer, Mat4Buffer,
// PaddedArray<T>, Image<T>, ImageBatch<T>). A const buffer gives a read-only view.
template <typename Buffer>
auto TensorOf(Buffer& buffer) -> decltype(TensorOf(buffer.view())) {
  return TensorOf(buffer.view());
}

// `lanes` lane arrays of `count` floats each, `lane_stride` floats apart, as f32[count][lanes]:
// the SoA layout of robot batch state (one lane per joint). lane_stride >= count.
TensorView LaneMajorTensor(float* data, size_t count, size_t lanes, size_t lane_stride);
TensorView LaneMajorTensor(const float* data, size_t count, size_t lanes, size_t lane_stride);

}  // namespace swarm
