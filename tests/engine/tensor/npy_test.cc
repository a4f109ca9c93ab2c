// Tests for swarm/tensor/npy.h, round trips: every dtype through SaveNpy and LoadNpy for shapes of
// rank 0 to 4 (zero-size axes included) from C- and Fortran-order tensors; non-contiguous views
// (reversed and stepped slices, transposes, permutations, broadcast zero strides, a Vec4Buffer's
// SoA view, a gather larger than the writer's stack buffer) written in C order; the exact header
// bytes numpy writes. Expected values come from closed-form formulas of the element index,
// visited by the test's own odometer, never from the library's iteration. Files go to
// npy_test_files/ in the working directory (the build tree, where ctest runs the test).
#include "swarm/tensor/npy.h"

#include <catch2/catch.hpp>
#include <complex>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "swarm/core/buffer.h"
#include "swarm/tensor/tensor_adapters.h"
#include "tests/engine/tensor/npy_test_values.h"
#include "tests/support/every_index.h"

namespace swarm {
namespace {

std::string TestPath(const std::string& name) {
  std::filesystem::create_directories("npy_test_files");
  return "npy_test_files/" + name;
}

using test::EveryIndex;

using test::ValueAt;

std::vector<int64_t> ShapeOf(const TensorView& view) {
  return {view.shape().begin(), view.shape().end()};
}

// Loads `path` and checks dtype, shape, C-order contiguity and every element against
// expected(index) with exact equality (all test values are exact in their type).
template <typename T, typename Expected>
void CheckFile(const std::string& path, const std::vector<int64_t>& shape, Expected&& expected) {
  MemoryAccountant memory;
  Result<Tensor> loaded = LoadNpy(memory, path);
  INFO(path);
  REQUIRE(loaded.ok());
  const TensorView view = loaded->view();
  REQUIRE(view.dtype() == DTypeOf<T>());
  REQUIRE(ShapeOf(view) == shape);
  REQUIRE(view.IsContiguous());
  const T* data = static_cast<const T*>(view.data());
  size_t mismatches = 0;
  EveryIndex(shape, [&](const std::vector<int64_t>& index, int64_t n) {
    if (!(data[n] == expected(index))) ++mismatches;
  });
  CHECK(mismatches == 0);
}

const std::vector<std::vector<int64_t>> kShapes = {
    {}, {0}, {1}, {7}, {3, 4}, {4, 0}, {2, 3, 5}, {2, 0, 3}, {1, 1, 1}, {2, 3, 1, 4}, {3, 1, 0, 2},
};

}  // namespace

TEST_CASE("SaveNpy then LoadNpy keeps every dtype and shape of a C-order tensor") {
  MemoryAccountant memory;
  for (size_t d = 0; d < kDTypeCount; ++d) {
    const auto dtype = static_cast<DType>(d);
    if (!HasNpyDescr(dtype)) continue;  // bf16: see the next test
    VisitDType(dtype, [&](auto zero) {
      using T = decltype(zero);
      for (const std::vector<int64_t>& shape : kShapes) {
        Result<Tensor> tensor = Tensor::Create(memory, dtype, shape);
        REQUIRE(tensor.ok());
        T* data = static_cast<T*>(tensor->view().data());
        EveryIndex(shape, [&](const std::vector<int64_t>&, int64_t n) { data[n] = ValueAt<T>(n); });
        const std::string path =
            TestPath(std::string("c_") + DTypeName(dtype) + "_" + std::to_string(shape.size()) +
                     "_" + std::to_string(tensor->view().size()) + ".npy");
        REQUIRE(SaveNpy(tensor->view(), path).ok());
        CheckFile<T>(path, shape, [&](const std::vector<int64_t>& index) {
          int64_t n = 0;
          for (size_t axis = 0; axis < shape.size(); ++axis) n = n * shape[axis] + index[axis];
          return ValueAt<T>(n);
        });
      }
    });
  }
  CHECK(memory.Total().live_allocations == 0);
}

TEST_CASE("SaveNpy refuses bf16, which numpy has no dtype for, and writes no file") {
  MemoryAccountant memory;
  Result<Tensor> tensor = Tensor::Create(memory, DType::kBF16, {2, 3});
  REQUIRE(tensor.ok());
  const std::string path = TestPath("bf16.npy");
  std::filesystem::remove(path);
  const Status status = SaveNpy(tensor->view(), path);
  CHECK(status.message() == ".npy file '" + path +
                                "': numpy has no bf16 dtype, so a bf16[2][3] cannot be saved as "
                                ".npy (Copy it to f32 first)");
  CHECK_FALSE(std::filesystem::exists(path));
  CHECK_FALSE(HasNpyDescr(DType::kBF16));
  CHECK(HasNpyDescr(DType::kF16));
  CHECK(NpyHeaderBytes(DType::kF16, std::vector<int64_t>{2}).find("'<f2'") != std::string::npos);
  CHECK(NpyHeaderBytes(DType::kBool, std::vector<int64_t>{2}).find("'|b1'") != std::string::npos);
}

TEST_CASE("SaveNpy writes a Fortran-order tensor in C order") {
  MemoryAccountant memory;
  for (DType dtype : {DType::kF32, DType::kS16, DType::kC128}) {
    VisitDType(dtype, [&](auto zero) {
      using T = decltype(zero);
      for (const std::vector<int64_t>& shape : kShapes) {
        Result<Tensor> tensor =
            Tensor::Create(memory, dtype, shape, MemoryCategory::kTensors, MemoryOrder::kFortran);
        REQUIRE(tensor.ok());
        // Memory holds element m at offset m; in Fortran order the first axis varies fastest.
        T* data = static_cast<T*>(tensor->view().data());
        EveryIndex(shape, [&](const std::vector<int64_t>&, int64_t m) { data[m] = ValueAt<T>(m); });
        const std::string path = TestPath(std::string("f_") + DTypeName(dtype) + "_" +
                                          std::to_string(shape.size()) + ".npy");
        REQUIRE(SaveNpy(tensor->view(), path).ok());
        CheckFile<T>(path, shape, [&](const std::vector<int64_t>& index) {
          int64_t m = 0;
          for (size_t axis = shape.size(); axis-- > 0;) m = m * shape[axis] + index[axis];
          return ValueAt<T>(m);
        });
      }
    });
  }
}

TEST_CASE("SaveNpy gathers non-contiguous views in C order") {
  MemoryAccountant memory;
  Result<Tensor> base = Tensor::Create(memory, DType::kF64, {4, 5, 6});
  REQUIRE(base.ok());
  auto* data = static_cast<double*>(base->view().data());
  EveryIndex({4, 5, 6}, [&](const std::vector<int64_t>& i, int64_t n) {
    data[n] = static_cast<double>(i[0] * 100 + i[1] * 10 + i[2]);
  });
  const TensorView all = base->view();

  SECTION("stepped and reversed slices: a[1:4:2, ::-1, ::3]") {
    const TensorView view =
        all.Sliced({{1, 4, 2}, {0, kSliceEnd, -1, true}, {0, kSliceEnd, 3}}).value();
    REQUIRE(SaveNpy(view, TestPath("sliced.npy")).ok());
    CheckFile<double>(TestPath("sliced.npy"), {2, 5, 2}, [](const std::vector<int64_t>& i) {
      return static_cast<double>((1 + 2 * i[0]) * 100 + (4 - i[1]) * 10 + 3 * i[2]);
    });
  }
  SECTION("transpose") {
    REQUIRE(SaveNpy(all.Transposed(), TestPath("transposed.npy")).ok());
    CheckFile<double>(TestPath("transposed.npy"), {6, 5, 4}, [](const std::vector<int64_t>& i) {
      return static_cast<double>(i[2] * 100 + i[1] * 10 + i[0]);
    });
  }
  SECTION("permutation (1, 2, 0), read-only") {
    const size_t axes[] = {1, 2, 0};
    const TensorView view = all.Permuted(axes).value().ReadOnly();
    REQUIRE(SaveNpy(view, TestPath("permuted.npy")).ok());
    CheckFile<double>(TestPath("permuted.npy"), {5, 6, 4}, [](const std::vector<int64_t>& i) {
      return static_cast<double>(i[2] * 100 + i[0] * 10 + i[1]);
    });
  }
  SECTION("broadcast: a zero stride repeats a row") {
    const float row[] = {1.5f, -2.0f, 8.25f};
    const int64_t shape[] = {4, 3};
    const int64_t strides[] = {0, 1};
    const TensorView view = TensorView::Create(row, DType::kF32, shape, strides).value();
    REQUIRE(SaveNpy(view, TestPath("broadcast.npy")).ok());
    CheckFile<float>(TestPath("broadcast.npy"), {4, 3},
                     [&](const std::vector<int64_t>& i) { return row[i[1]]; });
  }
}

TEST_CASE("SaveNpy writes a Vec4Buffer's SoA view as f32[N][4]") {
  MemoryAccountant memory;
  constexpr size_t kCount = 37;  // not a multiple of the lane padding
  Result<Vec4Buffer> buffer = Vec4Buffer::Create(memory, kCount);
  REQUIRE(buffer.ok());
  for (size_t i = 0; i < kCount; ++i) {
    const float x = static_cast<float>(i);
    buffer->Set(i, {x, x + 0.25f, -x, 2.0f * x});
  }
  const TensorView view = TensorOf(*buffer);
  REQUIRE(view.stride(1) > 1);  // lane-major: the vector axis is the strided one
  REQUIRE(SaveNpy(view, TestPath("vec4.npy")).ok());
  CheckFile<float>(TestPath("vec4.npy"), {kCount, 4}, [](const std::vector<int64_t>& i) {
    const float x = static_cast<float>(i[0]);
    const float lanes[] = {x, x + 0.25f, -x, 2.0f * x};
    return lanes[i[1]];
  });
}

TEST_CASE("SaveNpy gathers views larger than its stack buffer, for every element size") {
  MemoryAccountant memory;
  for (DType dtype : {DType::kU8, DType::kS16, DType::kF32, DType::kS64, DType::kC128}) {
    VisitDType(dtype, [&](auto zero) {
      using T = decltype(zero);
      // 40 KiB of c128 down to 2.5 KiB of u8; the transpose makes every element a gather.
      const std::vector<int64_t> shape = {40, 64};
      Result<Tensor> tensor = Tensor::Create(memory, dtype, shape);
      REQUIRE(tensor.ok());
      T* data = static_cast<T*>(tensor->view().data());
      EveryIndex(shape, [&](const std::vector<int64_t>&, int64_t n) { data[n] = ValueAt<T>(n); });
      const std::string path = TestPath(std::string("gather_") + DTypeName(dtype) + ".npy");
      REQUIRE(SaveNpy(tensor->view().Transposed(), path).ok());
      CheckFile<T>(path, {64, 40},
                   [](const std::vector<int64_t>& i) { return ValueAt<T>(i[1] * 64 + i[0]); });
    });
  }
}

TEST_CASE("NpyHeaderBytes matches numpy's layout") {
  // numpy 1.24: np.save(f, np.zeros((3, 4), '<f4')) writes exactly these 128 header bytes.
  std::string expected("\x93NUMPY\x01\x00\x76\x00", 10);
  expected += "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }";
  expected.append(128 - expected.size() - 1, ' ');
  expected += '\n';
  const int64_t shape[] = {3, 4};
  CHECK(NpyHeaderBytes(DType::kF32, shape) == expected);
  // Rank 0 and 1 spell their tuples () and (n,); one-byte types say '|'.
  CHECK(NpyHeaderBytes(DType::kU8, {})
            .find("'descr': '|u1', 'fortran_order': False, "
                  "'shape': (), }") != std::string::npos);
  const int64_t one[] = {9};
  CHECK(NpyHeaderBytes(DType::kC128, one).find("'<c16'") != std::string::npos);
  CHECK(NpyHeaderBytes(DType::kC128, one).find("'shape': (9,), }") != std::string::npos);
  // Eight axes of up to 10^18 elements in all parse back (rank 0 too).
  const std::vector<int64_t> rank8 = {1000003, 1000033, 1000037, 2, 1, 1, 1, 1};
  for (const std::vector<int64_t>& shape8 : {rank8, std::vector<int64_t>{}}) {
    const std::string header = NpyHeaderBytes(DType::kS8, shape8);
    CHECK(header.size() % 64 == 0);
    CHECK(header.back() == '\n');
    REQUIRE(ParseNpyHeader(std::as_bytes(std::span(header))).ok());
    CHECK(ParseNpyHeader(std::as_bytes(std::span(header))).value().shape == shape8);
  }
}

TEST_CASE("ParseNpy reads bytes in memory; a Fortran-order file loads with Fortran strides") {
  MemoryAccountant memory;
  const int64_t shape[] = {2, 3};
  std::string file = NpyHeaderBytes(DType::kS32, shape);
  const size_t order = file.find("False");
  REQUIRE(order != std::string::npos);
  file.replace(order, 5, "True ");  // same length: the header stays aligned
  // Memory order of a Fortran [2][3] array: a[0][0], a[1][0], a[0][1], a[1][1], a[0][2], a[1][2].
  const int32_t elements[] = {0, 10, 1, 11, 2, 12};
  file.append(reinterpret_cast<const char*>(elements), sizeof(elements));
  Result<Tensor> tensor = ParseNpy(memory, std::as_bytes(std::span(file)));
  REQUIRE(tensor.ok());
  const TensorView view = tensor->view();
  CHECK(ShapeOf(view) == std::vector<int64_t>{2, 3});
  CHECK(view.stride(0) == 1);
  CHECK(view.stride(1) == 2);
  for (int64_t i = 0; i < 2; ++i) {
    for (int64_t j = 0; j < 3; ++j) CHECK(view.At<int32_t>({i, j}).value() == 10 * i + j);
  }
  CHECK(memory.Stats(MemoryCategory::kTensors).live_allocations == 1);
  Result<Tensor> scratch =
      ParseNpy(memory, std::as_bytes(std::span(file)), MemoryCategory::kScratch);
  REQUIRE(scratch.ok());
  CHECK(memory.Stats(MemoryCategory::kScratch).live_allocations == 1);
}

}  // namespace swarm
