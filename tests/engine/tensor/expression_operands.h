// Operands for the fused expression tests: f32 views (or any dtype's) of random shapes,
// broadcasts and layouts over their own storage, and their values and bits.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <vector>

#include "swarm/core/memory.h"
#include "swarm/tensor/tensor.h"
#include "swarm/tensor/tensor_copy.h"

namespace swarm::test::expression_operands {

// A view of `shape` with a random layout over its own storage: each axis stepped by 1, 2 or -1,
// and the axes transposed half the time (or C-contiguous when `plain`).
struct Operand {
  Tensor storage;
  TensorView view;
};

inline Operand MakeOperand(MemoryAccountant& memory, const std::vector<int64_t>& shape,
                           std::mt19937& rng, bool plain, DType dtype = DType::kF32) {
  std::vector<int64_t> storage_shape = shape;
  std::vector<AxisSlice> slices(shape.size());
  const bool transpose = !plain && shape.size() > 1 && rng() % 2 == 0;
  if (transpose) std::reverse(storage_shape.begin(), storage_shape.end());
  for (size_t axis = 0; axis < shape.size(); ++axis) {
    const int64_t step = plain ? 1 : std::array<int64_t, 3>{1, 2, -1}[rng() % 3];
    storage_shape[axis] *= std::abs(step);
    slices[axis].step = step;
    slices[axis].start_omitted = true;
  }
  Tensor storage = Tensor::Create(memory, dtype, storage_shape).value();
  TensorView view = storage.view().Sliced(slices).value();
  if (transpose) view = view.Transposed();
  REQUIRE(std::equal(view.shape().begin(), view.shape().end(), shape.begin(), shape.end()));
  return {std::move(storage), view};
}

inline void Fill(const TensorView& view, std::mt19937& rng, double specials) {
  std::uniform_real_distribution<float> value(-4.0f, 4.0f);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  const float special[] = {0.0f, -0.0f, std::numeric_limits<float>::infinity(),
                           -std::numeric_limits<float>::infinity(),
                           std::numeric_limits<float>::quiet_NaN()};
  ForEachIndex(view.shape(), [&](const int64_t* index) {
    *reinterpret_cast<float*>(view.ElementAddress(index)) =
        coin(rng) < specials ? special[rng() % 5] : value(rng);
  });
}

inline std::vector<uint32_t> Bits(const TensorView& view) {
  std::vector<uint32_t> bits;
  ForEachIndex(view.shape(), [&](const int64_t* index) {
    bits.push_back(std::bit_cast<uint32_t>(*reinterpret_cast<float*>(view.ElementAddress(index))));
  });
  return bits;
}

// A random shape of rank 1-3 and a broadcast partner: some axes 1, sometimes fewer axes.
inline std::vector<int64_t> RandomShape(std::mt19937& rng) {
  std::vector<int64_t> shape(1 + rng() % 3);
  for (int64_t& extent : shape) extent = 1 + static_cast<int64_t>(rng() % 23);
  return shape;
}
inline std::vector<int64_t> BroadcastPartner(const std::vector<int64_t>& shape, std::mt19937& rng) {
  std::vector<int64_t> partner(shape.begin() + static_cast<ptrdiff_t>(rng() % shape.size()),
                               shape.end());
  for (int64_t& extent : partner) {
    if (rng() % 3 == 0) extent = 1;
  }
  return partner;
}

}  // namespace swarm::test::expression_operands
