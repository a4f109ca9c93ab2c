// C API: particle interactions (neighbour lists of a point set).
#include <mutex>
#include <string>

#include "swarm/c_api/c_api_internal.h"
#include "swarm/particles/neighbor_grid.h"
#include "swarm/tensor/tensor.h"

namespace swarm::c_api {
namespace {

// The tensor's x, y, z columns copied into a vec4 buffer (any strides; column 3 of an [N, 4]
// tensor is not read).
Result<Vec4Buffer> PointsFrom(MemoryAccountant& memory, const TensorView& points) {
  if (points.dtype() != DType::kF32 || points.rank() != 2 ||
      (points.shape(1) != 3 && points.shape(1) != 4)) {
    std::string shape;
    for (size_t axis = 0; axis < points.rank(); ++axis) {
      shape.append(1, '[').append(std::to_string(points.shape(axis))).append(1, ']');
    }
    return InvalidArgument("points must be an f32 tensor [N, 3] or [N, 4], got " +
                           std::string(DTypeName(points.dtype())) + shape);
  }
  const size_t count = static_cast<size_t>(points.shape(0));
  Result<Vec4Buffer> buffer = Vec4Buffer::Create(memory, count, MemoryCategory::kParticles);
  if (!buffer.ok()) return buffer.status();
  const float* data = static_cast<const float*>(points.data());
  const Vec4View to = buffer->view();
  for (size_t i = 0; i < count; ++i) {
    const float* row = data + static_cast<int64_t>(i) * points.stride(0);
    for (size_t axis = 0; axis < 3; ++axis) {
      to.Lane(axis)[i] = row[static_cast<int64_t>(axis) * points.stride(1)];
    }
  }
  return buffer;
}

Result<Tensor> NewIndexTensor(MemoryAccountant& memory, DType dtype, size_t count) {
  const int64_t shape[] = {static_cast<int64_t>(count)};
  return Tensor::Create(memory, dtype, shape);
}

}  // namespace
}  // namespace swarm::c_api

using swarm::DType;
using swarm::MemoryAccountant;
using swarm::NeighborGrid;
using swarm::NeighborLists;
using swarm::Result;
using swarm::Status;
using swarm::Tensor;
using swarm::Vec4Buffer;
using swarm::c_api::Guarded;
using swarm::c_api::NullArgument;
using swarm::c_api::Report;

extern "C" {

swarm_status swarm_neighbors(swarm_context context, swarm_tensor points, float radius,
                             swarm_buffer* offsets, swarm_buffer* indices) {
  constexpr const char* kFunction = "swarm_neighbors";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (context == nullptr) return NullArgument(kFunction, "context");
    if (points == nullptr) return NullArgument(kFunction, "points");
    if (offsets == nullptr) return NullArgument(kFunction, "offsets");
    if (indices == nullptr) return NullArgument(kFunction, "indices");
    swarm::c_api::ContextState& state = *context->state;
    MemoryAccountant& memory = state.memory;
    Result<Vec4Buffer> copied = swarm::c_api::PointsFrom(memory, points->view);
    if (!copied.ok()) return Report(kFunction, copied.status());
    NeighborGrid grid(memory);
    NeighborLists lists(memory);
    std::lock_guard<std::mutex> lock(state.kernel_mutex);
    if (Status s = grid.Build(copied->view(), radius, state.pool); !s.ok()) {
      return Report(kFunction, s);
    }
    if (Status s = grid.ListNeighbors(radius, state.pool, lists); !s.ok()) {
      return Report(kFunction, s);
    }
    Result<Tensor> row_offsets = swarm::c_api::NewIndexTensor(memory, DType::kS64, grid.size() + 1);
    if (!row_offsets.ok()) return Report(kFunction, row_offsets.status());
    Result<Tensor> row_indices = swarm::c_api::NewIndexTensor(memory, DType::kS32, lists.entries());
    if (!row_indices.ok()) return Report(kFunction, row_indices.status());
    const std::span<int64_t> offset_span(static_cast<int64_t*>(row_offsets->view().data()),
                                         grid.size() + 1);
    const std::span<int32_t> index_span(static_cast<int32_t*>(row_indices->view().data()),
                                        lists.entries());
    if (Status s = NeighborRowsInInputOrder(grid, lists, state.pool, offset_span, index_span);
        !s.ok()) {
      return Report(kFunction, s);
    }
    swarm_buffer new_offsets = nullptr;
    swarm_buffer new_indices = nullptr;
    if (swarm_status s =
            swarm::c_api::NewBuffer(context->state, std::move(row_offsets).value(), &new_offsets);
        s != SWARM_OK) {
      return s;
    }
    if (swarm_status s =
            swarm::c_api::NewBuffer(context->state, std::move(row_indices).value(), &new_indices);
        s != SWARM_OK) {
      swarm_buffer_release(new_offsets);
      return s;
    }
    *offsets = new_offsets;
    *indices = new_indices;
    return SWARM_OK;
  });
}

}  // extern "C"
