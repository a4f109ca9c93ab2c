// Copies and casts between tensor views: strided layouts copied element for element, casts with
// the documented rules, and refused copies leave the destination unchanged.
#include "swarm/tensor/tensor_copy.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>

#include "swarm/core/buffer.h"
#include "swarm/tensor/tensor_adapters.h"

namespace swarm {
namespace {

template <typename To, typename From>
To CastOne(From value) {
  MemoryAccountant memory;
  Tensor src = Tensor::Create(memory, DTypeOf<From>(), {1}).value();
  REQUIRE(src.view().Set<From>({0}, value).ok());
  Tensor dst = Copy(memory, src.view(), DTypeOf<To>()).value();
  return dst.view().template At<To>({0}).value();
}

TEST_CASE("Casts truncate, saturate, wrap and split complex values as documented") {
  CHECK(CastOne<int32_t>(2.7f) == 2);
  CHECK(CastOne<int32_t>(-2.7f) == -2);
  CHECK(CastOne<int32_t>(std::numeric_limits<float>::quiet_NaN()) == 0);
  CHECK(CastOne<int32_t>(1e10f) == std::numeric_limits<int32_t>::max());
  CHECK(CastOne<int32_t>(-1e10f) == std::numeric_limits<int32_t>::min());
  CHECK(CastOne<uint8_t>(-1.0) == 0);
  CHECK(CastOne<int64_t>(std::numeric_limits<double>::infinity()) ==
        std::numeric_limits<int64_t>::max());
  CHECK(CastOne<uint64_t>(1.5e19) == uint64_t{15000000000000000000u});
  CHECK(CastOne<uint8_t>(int32_t{300}) == 44);
  CHECK(CastOne<int8_t>(uint16_t{200}) == -56);
  CHECK(CastOne<float>(std::complex<float>(1.5f, 2.0f)) == 1.5f);
  CHECK(CastOne<std::complex<double>>(3.0f) == std::complex<double>(3.0, 0.0));
  CHECK(CastOne<std::complex<float>>(std::complex<double>(0.1, -0.2)) ==
        std::complex<float>(0.1f, -0.2f));
  CHECK(CastOne<double>(std::numeric_limits<uint64_t>::max()) == 18446744073709551616.0);
  CHECK(CastOne<float>(16777217) == 16777216.0f);
}

TEST_CASE("Copy gathers a strided SoA view into C order") {
  MemoryAccountant memory;
  Vec4Buffer buffer = Vec4Buffer::Create(memory, 21).value();
  for (size_t i = 0; i < 21; ++i) {
    const auto f = static_cast<float>(i);
    buffer.Set(i, glm::vec4(f, 10 * f, 100 * f, -f));
  }
  const TensorView reversed = TensorOf(buffer).Sliced({{0, kSliceEnd, -2, true}}).value();
  Tensor copy = Copy(memory, reversed, DType::kF64).value();
  REQUIRE(copy.view().TypeString() == "f64[11][4]");
  REQUIRE(copy.view().IsContiguous());
  const auto* values = static_cast<const double*>(copy.view().data());
  for (size_t row = 0; row < 11; ++row) {
    const glm::vec4 expected = buffer.Get(20 - 2 * row);
    for (int lane = 0; lane < 4; ++lane) CHECK(values[row * 4 + lane] == expected[lane]);
  }
  Tensor transposed = Copy(memory, TensorOf(buffer).Transposed()).value();
  REQUIRE(transposed.view().TypeString() == "f32[4][21]");
  for (int64_t lane = 0; lane < 4; ++lane) {
    for (int64_t i = 0; i < 21; ++i) {
      CHECK(transposed.view().At<float>({lane, i}).value() == buffer.Get(i)[lane]);
    }
  }
}

TEST_CASE("Refused copies name the problem and leave the destination unchanged") {
  MemoryAccountant memory;
  Tensor src = Tensor::Create(memory, DType::kF32, {4, 4}).value();
  Tensor dst = Tensor::Create(memory, DType::kF32, {4, 3}).value();
  REQUIRE(dst.view().Set<float>({0, 0}, 9.0f).ok());
  Status shape = CopyInto(src.view(), dst.view());
  REQUIRE_FALSE(shape.ok());
  CHECK_THAT(shape.message(), Catch::Contains("f32[4][4]") && Catch::Contains("f32[4][3]") &&
                                  Catch::Contains("differ in shape"));
  const Tensor& constant = dst;
  Status read_only = CopyInto(src.view().Sliced({{}, {0, 3}}).value(), constant.view());
  REQUIRE_FALSE(read_only.ok());
  CHECK_THAT(read_only.message(), Catch::Contains("read-only"));
  CHECK(dst.view().At<float>({0, 0}).value() == 9.0f);

  REQUIRE(src.view().Set<float>({1, 1}, 5.0f).ok());
  Status overlap = CopyInto(src.view(), src.view().Transposed());
  REQUIRE_FALSE(overlap.ok());
  CHECK_THAT(overlap.message(), Catch::Contains("overlap"));
  CHECK(src.view().At<float>({1, 1}).value() == 5.0f);
  CHECK(CopyInto(src.view(), src.view()).ok());

  // A broadcast destination (stride 0) would receive every source row in turn.
  const int64_t square[] = {4, 4};
  const int64_t broadcast_strides[] = {0, 1};
  const TensorView broadcast =
      TensorView::Create(dst.view().data(), DType::kF32, square, broadcast_strides).value();
  Status self_overlap = CopyInto(src.view(), broadcast);
  REQUIRE_FALSE(self_overlap.ok());
  CHECK_THAT(self_overlap.message(), Catch::Contains("overlap each other"));
  CHECK(dst.view().At<float>({0, 0}).value() == 9.0f);

  MemoryAccountant small(/*budget_bytes=*/32);
  Result<Tensor> over = Copy(small, src.view());
  REQUIRE_FALSE(over.ok());
  CHECK(over.status().code() == ErrorCode::kOverBudget);
}

}  // namespace
}  // namespace swarm
