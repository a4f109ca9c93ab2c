// Copies and dtype casts between tensor views of any strides.
//
// Casts follow C++ conversion where it is defined and saturate where it is not, so that no input
// is undefined behaviour: float -> integer truncates toward zero, clamps to the target's range
// and maps NaN to 0; integer -> integer wraps modulo 2^bits (as numpy's astype); complex -> real
// keeps the real part; real -> complex has a zero imaginary part; f16 and bf16 round to nearest
// (ties to even) and bool is "not zero" (swarm/kernels/tensor/small_floats.h).
#pragma once

#include "swarm/core/memory.h"
#include "swarm/core/status.h"
#include "swarm/tensor/tensor.h"

namespace swarm {

// Copies src into dst element by element, casting when the dtypes differ. Shapes must be equal,
// dst writable, and the two views must not overlap in memory unless they are the same view
// (checked; an error leaves dst unchanged).
Status CopyInto(const TensorView& src, const TensorView& dst);

// A new contiguous C-order tensor holding src's elements as `dtype`.
Result<Tensor> Copy(MemoryAccountant& accountant, const TensorView& src, DType dtype,
                    MemoryCategory category = MemoryCategory::kTensors);
inline Result<Tensor> Copy(MemoryAccountant& accountant, const TensorView& src) {
  return Copy(accountant, src, src.dtype());
}

// One element cast as CopyInto casts it, to f32 from a dtype and from f32 to a dtype: the
// functions for `dtype` (fused expressions load and store views of any dtype with them).
using ElementToF32 = float (*)(const void* element);
using F32ToElement = void (*)(float value, void* element);
ElementToF32 LoadAsF32(DType dtype);
F32ToElement StoreFromF32(DType dtype);

// Calls visit(const int64_t* index) for every element of `shape` in C order (last axis fastest).
template <typename Visit>
void ForEachIndex(std::span<const int64_t> shape, Visit&& visit) {
  for (int64_t extent : shape) {
    if (extent == 0) return;
  }
  std::array<int64_t, kMaxTensorRank> index{};
  const size_t rank = shape.size();
  while (true) {
    visit(static_cast<const int64_t*>(index.data()));
    size_t axis = rank;
    while (axis > 0) {
      --axis;
      if (++index[axis] < shape[axis]) break;
      index[axis] = 0;
      if (axis == 0) return;
    }
    if (rank == 0) return;
  }
}

}  // namespace swarm
