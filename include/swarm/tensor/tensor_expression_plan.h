// The plan of a fused expression (swarm/tensor/tensor_expression.h): the broadcast layout of its
// views, how each view's elements reach a tile and how a tile's result reaches out. Evaluate
// makes one per call; PreparedExpression keeps one. Internal to those two.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "swarm/kernels/tensor/row_kernels.h"
#include "swarm/tensor/tensor.h"
#include "swarm/tensor/tensor_copy.h"

namespace swarm {

inline constexpr size_t kMaxExpressionViews = 16;
inline constexpr size_t kMaxExpressionSteps = 32;

namespace expression {

// Elements per tile at most: a multiple of every vector length.
inline constexpr size_t kTile = 2048;

// How a view's elements reach a tile: read in place (f32, C-contiguous on the broadcast shape),
// widened by the SIMD row kernel (f16, bf16, bool, u8, C-contiguous), or one element at a time
// (any other dtype or layout) with CopyInto's cast.
enum class Load : uint8_t { kInPlace, kWiden, kElements };

// The broadcast shape of a program's views, each view's strides on it (0 where it broadcasts),
// and the element count.
struct Layout {
  size_t rank = 0;
  std::array<int64_t, kMaxTensorRank> shape{};
  std::array<std::array<int64_t, kMaxTensorRank>, kMaxExpressionViews> strides{};
  std::array<Load, kMaxExpressionViews> load{};
  std::array<StorageType, kMaxExpressionViews> storage{};   // of kWiden views
  std::array<ElementToF32, kMaxExpressionViews> element{};  // of kElements views
  int64_t count = 1;
  size_t tile = kTile;                                      // elements per tile
  std::array<size_t, kMaxExpressionViews> copy_register{};  // of the views not read in place
};

// How a tile's result reaches out's elements.
struct Store {
  std::array<int64_t, kMaxTensorRank> strides{};
  bool direct = false;  // the last step writes into out (C-contiguous f32)
  bool stream = false;  // ... by non-temporal stores (out far larger than the caches)
  bool narrow = false;  // C-contiguous and narrowed by the row kernel
  StorageType storage = StorageType::kF16;
  F32ToElement element = nullptr;  // any other dtype or layout
};

}  // namespace expression
}  // namespace swarm
