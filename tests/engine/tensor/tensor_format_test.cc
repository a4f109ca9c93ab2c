// Nx-style printing: the exact layout for small tensors, elision that keeps both ends of every
// axis, and a cost that depends on what is printed rather than on the tensor's size.
#include "swarm/tensor/tensor_format.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <complex>
#include <limits>

#include "swarm/core/buffer.h"
#include "swarm/tensor/tensor_adapters.h"

namespace swarm {
namespace {

TEST_CASE("Small tensors print whole with their type header") {
  MemoryAccountant memory;
  Tensor t = Tensor::Create(memory, DType::kF32, {2, 3}).value();
  const float values[] = {1.0f,
                          -2.5f,
                          0.1f,
                          3e-8f,
                          std::numeric_limits<float>::infinity(),
                          std::numeric_limits<float>::quiet_NaN()};
  std::memcpy(t.view().data(), values, sizeof(values));
  CHECK(FormatTensor(t.view()) ==
        "f32[2][3]\n"
        "[\n"
        "  [1.0, -2.5, 0.1],\n"
        "  [3e-08, Inf, NaN]\n"
        "]");

  Tensor ints = Tensor::Create(memory, DType::kS16, {4}).value();
  const int16_t numbers[] = {-3, 0, 7, 32767};
  std::memcpy(ints.view().data(), numbers, sizeof(numbers));
  CHECK(FormatTensor(ints.view()) == "s16[4]\n[-3, 0, 7, 32767]");

  Tensor complex = Tensor::Create(memory, DType::kC64, {2}).value();
  const std::complex<float> pair[] = {{1.0f, 2.0f}, {0.5f, -1.0f}};
  std::memcpy(complex.view().data(), pair, sizeof(pair));
  CHECK(FormatTensor(complex.view()) == "c64[2]\n[1.0+2.0i, 0.5-1.0i]");

  Tensor scalar = Tensor::Create(memory, DType::kF64, {}).value();
  REQUIRE(scalar.view().Set<double>({}, 0.25).ok());
  CHECK(FormatTensor(scalar.view()) == "f64\n0.25");
  Tensor empty = Tensor::Create(memory, DType::kU8, {0, 3}).value();
  CHECK(FormatTensor(empty.view()) == "u8[0][3]\n[]");
}

TEST_CASE("Large views elide the middle of every axis and keep both ends") {
  MemoryAccountant memory;
  Vec4Buffer buffer = Vec4Buffer::Create(memory, 250'000).value();
  for (size_t i = 0; i < buffer.size(); ++i) {
    buffer.Set(i, glm::vec4(static_cast<float>(i), 1.0f, 2.0f, 3.0f));
  }
  const std::string text = FormatTensor(TensorOf(buffer), {.limit = 1000, .edge_items = 2});
  CHECK(text ==
        "f32[250000][4]\n"
        "[\n"
        "  [0.0, 1.0, 2.0, 3.0],\n"
        "  [1.0, 1.0, 2.0, 3.0],\n"
        "  ...,\n"
        "  [249998.0, 1.0, 2.0, 3.0],\n"
        "  [249999.0, 1.0, 2.0, 3.0]\n"
        "]");
  // Every axis long enough is elided, inner ones included.
  Tensor wide = Tensor::Create(memory, DType::kU8, {10, 10, 10}).value();
  const std::string cube = FormatTensor(wide.view(), {.limit = 100, .edge_items = 1});
  CHECK(std::count(cube.begin(), cube.end(), '\n') == 13);
  CHECK(cube.find("[0, ..., 0]") != std::string::npos);
}

}  // namespace
}  // namespace swarm
