#include "swarm/tensor/tensor_adapters.h"

namespace swarm {
namespace {

TensorView LaneMajor(const float* data, size_t count, size_t lanes, size_t lane_stride,
                     bool read_only) {
  SWARM_ASSERT(lane_stride >= count || lanes <= 1);
  const int64_t shape[] = {static_cast<int64_t>(count), static_cast<int64_t>(lanes)};
  const int64_t strides[] = {1, static_cast<int64_t>(lane_stride)};
  return TensorView::Create(const_cast<float*>(data), DType::kF32, shape, strides, read_only)
      .value();
}

TensorView Matrices(const float* data, size_t count, size_t lane_stride, bool read_only) {
  const auto stride = static_cast<int64_t>(lane_stride);
  const int64_t shape[] = {static_cast<int64_t>(count), 4, 4};
  const int64_t strides[] = {1, stride, 4 * stride};
  return TensorView::Create(const_cast<float*>(data), DType::kF32, shape, strides, read_only)
      .value();
}

}  // namespace

TensorView TensorOf(const Vec4View& view) {
  return LaneMajor(view.data, view.count, 4, view.lane_stride, false);
}
TensorView TensorOf(const ConstVec4View& view) {
  return LaneMajor(view.data, view.count, 4, view.lane_stride, true);
}
TensorView TensorOf(const Mat4View& view) {
  return Matrices(view.data, view.count, view.lane_stride, false);
}
TensorView TensorOf(const ConstMat4View& view) {
  return Matrices(view.data, view.count, view.lane_stride, true);
}

TensorView LaneMajorTensor(float* data, size_t count, size_t lanes, size_t lane_stride) {
  return LaneMajor(data, count, lanes, lane_stride, false);
}
TensorView LaneMajorTensor(const float* data, size_t count, size_t lanes, size_t lane_stride) {
  return LaneMajor(data, count, lanes, lane_stride, true);
}

}  // namespace swarm
