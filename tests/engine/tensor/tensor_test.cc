// Tensor views: slicing, permutation and reshape against numpy's answers on random cases, checked
// element access, and validation errors.
#include "swarm/tensor/tensor.h"

#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "swarm/tensor/tensor_copy.h"
#include "tests/support/python_process.h"

namespace swarm {
namespace {

std::vector<std::string> PythonCaseLines(int seed, int count) {
  const test::PythonRun run = test::RunPython(std::string(SWARM_TENSOR_CASES_SCRIPT) + " " +
                                              std::to_string(seed) + " " + std::to_string(count));
  REQUIRE(run.status == 0);
  std::vector<std::string> lines;
  std::istringstream in(run.output);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  REQUIRE(lines.size() == static_cast<size_t>(count));
  return lines;
}

std::vector<int64_t> ReadExtents(std::istringstream& in, size_t count) {
  std::vector<int64_t> values(count);
  for (int64_t& value : values) in >> value;
  return values;
}

std::vector<int64_t> ReadShape(std::istringstream& in) {
  size_t rank = 0;
  in >> rank;
  return ReadExtents(in, rank);
}

int64_t ReadBound(std::istringstream& in, bool* omitted) {
  std::string token;
  in >> token;
  *omitted = token == "N";
  return *omitted ? 0 : std::stoll(token);
}

std::vector<AxisSlice> ReadSlices(std::istringstream& in, size_t rank) {
  std::vector<AxisSlice> slices(rank);
  for (AxisSlice& slice : slices) {
    bool omitted = false;
    slice.start = ReadBound(in, &omitted);
    slice.start_omitted = omitted;
    const int64_t stop = ReadBound(in, &omitted);
    slice.stop = omitted ? kSliceEnd : stop;
    const int64_t step = ReadBound(in, &omitted);
    slice.step = omitted ? 1 : step;
  }
  return slices;
}

// The C-order values of `view` equal numpy's: the expected rank, shape and values follow.
void ExpectNumpyResult(const TensorView& view, std::istringstream& in) {
  const std::vector<int64_t> shape = ReadShape(in);
  REQUIRE(std::vector<int64_t>(view.shape().begin(), view.shape().end()) == shape);
  ForEachIndex(view.shape(), [&](const int64_t* index) {
    int64_t expected = -1;
    in >> expected;
    int64_t actual;
    std::memcpy(&actual, view.ElementAddress(index), sizeof(actual));
    REQUIRE(actual == expected);
  });
  std::string rest;
  CHECK_FALSE(in >> rest);
}

TEST_CASE("Slicing, permutation and reshape match numpy on random views") {
  MemoryAccountant memory;
  for (const std::string& line : PythonCaseLines(/*seed=*/20261202, /*count=*/600)) {
    INFO(line);
    std::istringstream in(line);
    char kind = 0;
    in >> kind;
    const std::vector<int64_t> shape = ReadShape(in);
    Tensor base = Tensor::Create(memory, DType::kS64, shape).value();
    auto* values = static_cast<int64_t*>(base.view().data());
    for (int64_t i = 0; i < base.view().size(); ++i) values[i] = i;
    std::string colon;
    if (kind == 'S') {
      const std::vector<AxisSlice> slices = ReadSlices(in, shape.size());
      in >> colon;
      ExpectNumpyResult(base.view().Sliced(slices).value(), in);
    } else if (kind == 'P') {
      std::vector<size_t> axes(shape.size());
      for (size_t& axis : axes) in >> axis;
      in >> colon;
      ExpectNumpyResult(base.view().Permuted(axes).value(), in);
    } else {
      REQUIRE(kind == 'R');
      const std::vector<AxisSlice> slices = ReadSlices(in, shape.size());
      std::string transpose;
      in >> transpose;
      TensorView view = base.view().Sliced(slices).value();
      if (transpose == "T") view = view.Transposed();
      const std::vector<int64_t> new_shape = ReadShape(in);
      std::string outcome;
      in >> colon >> outcome;
      Result<TensorView> reshaped = view.Reshaped(new_shape);
      if (outcome == "ok") {
        REQUIRE(reshaped.ok());
        ExpectNumpyResult(reshaped.value(), in);
      } else {
        REQUIRE_FALSE(reshaped.ok());
        CHECK_THAT(reshaped.status().message(), Catch::Contains("without a copy"));
      }
    }
  }
}

TEST_CASE("Reshape infers one -1 extent and refuses impossible shapes") {
  MemoryAccountant memory;
  Tensor t = Tensor::Create(memory, DType::kF32, {6, 4}).value();
  TensorView r = t.view().Reshaped({-1, 8}).value();
  CHECK(r.shape(0) == 3);
  CHECK(r.shape(1) == 8);
  Result<TensorView> bad = t.view().Reshaped({5, -1});
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.status().message(), Catch::Contains("f32[6][4]") && Catch::Contains("[5, -1]"));
  Result<TensorView> two = t.view().Reshaped({-1, -1});
  REQUIRE_FALSE(two.ok());
  CHECK_THAT(two.status().message(), Catch::Contains("more than one axis is -1"));
  // Zero elements, but C-order strides of [0][2^62][2^62] would overflow.
  Tensor empty = Tensor::Create(memory, DType::kF32, {0}).value();
  Result<TensorView> huge = empty.view().Reshaped({0, int64_t{1} << 62, int64_t{1} << 62});
  REQUIRE_FALSE(huge.ok());
  CHECK_THAT(huge.status().message(), Catch::Contains("beyond 64 bits"));
  Result<TensorView> count = t.view().Reshaped({5, 5});
  REQUIRE_FALSE(count.ok());
  CHECK_THAT(count.status().message(), Catch::Contains("24 elements"));
}

TEST_CASE("Checked element access names the bad index and leaves data unchanged") {
  MemoryAccountant memory;
  Tensor t = Tensor::Create(memory, DType::kF32, {2, 3}).value();
  REQUIRE(t.view().Set<float>({1, 2}, 7.5f).ok());
  CHECK(t.view().At<float>({1, 2}).value() == 7.5f);
  CHECK(static_cast<const float*>(t.view().data())[5] == 7.5f);

  Result<float> out_of_bounds = t.view().At<float>({2, 0});
  REQUIRE_FALSE(out_of_bounds.ok());
  CHECK_THAT(out_of_bounds.status().message(), Catch::Contains("[2, 0]") &&
                                                   Catch::Contains("out of bounds") &&
                                                   Catch::Contains("axis 0"));
  Result<float> negative = t.view().At<float>({0, -1});
  CHECK_FALSE(negative.ok());
  Result<float> short_index = t.view().At<float>({1});
  REQUIRE_FALSE(short_index.ok());
  CHECK_THAT(short_index.status().message(),
             Catch::Contains("1 entries") && Catch::Contains("2 axes"));
  Result<double> wrong_type = t.view().At<double>({0, 0});
  REQUIRE_FALSE(wrong_type.ok());
  CHECK_THAT(wrong_type.status().message(),
             Catch::Contains("expected a f64 tensor, got f32[2][3]"));

  const Tensor& read_only = t;
  Status refused = read_only.view().Set<float>({0, 0}, 1.0f);
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.message(), Catch::Contains("read-only"));
  CHECK(static_cast<const float*>(t.view().data())[0] == 0.0f);
}

TEST_CASE("View creation validates rank, extents, strides and data") {
  float data[4] = {};
  const int64_t nine[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  Result<TensorView> deep = TensorView::Create(data, DType::kF32, nine, nine);
  REQUIRE_FALSE(deep.ok());
  CHECK_THAT(deep.status().message(), Catch::Contains("rank 9 exceeds the maximum 8"));

  const int64_t negative[] = {2, -1};
  const int64_t strides[] = {1, 1};
  Result<TensorView> bad_extent = TensorView::Create(data, DType::kF32, negative, strides);
  REQUIRE_FALSE(bad_extent.ok());
  CHECK_THAT(bad_extent.status().message(), Catch::Contains("axis 1 has negative extent"));

  const int64_t huge[] = {int64_t{1} << 40, int64_t{1} << 40};
  Result<TensorView> overflow = TensorView::Create(data, DType::kF32, huge, strides);
  REQUIRE_FALSE(overflow.ok());
  CHECK_THAT(overflow.status().message(), Catch::Contains("more elements than fit in 64 bits"));

  const int64_t shape[] = {2, 2};
  const int64_t one_stride[] = {1};
  Result<TensorView> mismatch = TensorView::Create(data, DType::kF32, shape, one_stride);
  REQUIRE_FALSE(mismatch.ok());
  CHECK_THAT(mismatch.status().message(), Catch::Contains("2 axes but 1 strides"));

  Result<TensorView> null_data =
      TensorView::Create(static_cast<void*>(nullptr), DType::kF32, shape, strides);
  REQUIRE_FALSE(null_data.ok());
  CHECK_THAT(null_data.status().message(), Catch::Contains("null"));

  const int64_t empty[] = {0, 3};
  CHECK(TensorView::Create(static_cast<void*>(nullptr), DType::kF32, empty, strides).ok());

  Result<TensorView> zero_step =
      TensorView::Contiguous(data, DType::kF32, shape).value().Sliced({AxisSlice{0, kSliceEnd, 0}});
  REQUIRE_FALSE(zero_step.ok());
  CHECK_THAT(zero_step.status().message(), Catch::Contains("step is zero on axis 0"));

  const size_t not_permutation[] = {0, 0};
  Result<TensorView> permuted =
      TensorView::Contiguous(data, DType::kF32, shape).value().Permuted(not_permutation);
  REQUIRE_FALSE(permuted.ok());
  CHECK_THAT(permuted.status().message(), Catch::Contains("not a permutation"));
}

TEST_CASE("Owning tensors are accounted, zeroed and refused over budget") {
  MemoryAccountant memory(/*budget_bytes=*/1 << 20);
  {
    Tensor t = Tensor::Create(memory, DType::kC64, {16, 16}).value();
    CHECK(memory.Stats(MemoryCategory::kTensors).bytes_in_use == 16 * 16 * 8);
    CHECK(t.view().IsContiguous());
    const auto* bytes = static_cast<const unsigned char*>(t.view().data());
    CHECK(std::all_of(bytes, bytes + t.bytes(), [](unsigned char b) { return b == 0; }));
    Tensor f =
        Tensor::Create(memory, DType::kF64, {3, 5}, MemoryCategory::kTensors, MemoryOrder::kFortran)
            .value();
    CHECK(f.view().stride(0) == 1);
    CHECK(f.view().stride(1) == 3);
    CHECK(f.view().Transposed().IsContiguous());
  }
  CHECK(memory.Stats(MemoryCategory::kTensors).bytes_in_use == 0);
  Result<Tensor> too_big = Tensor::Create(memory, DType::kF32, {1024, 1024});
  REQUIRE_FALSE(too_big.ok());
  CHECK(too_big.status().code() == ErrorCode::kOverBudget);
  Result<Tensor> absurd = Tensor::Create(memory, DType::kF64, {int64_t{1} << 62, 4});
  REQUIRE_FALSE(absurd.ok());
  CHECK_THAT(absurd.status().message(), Catch::Contains("64 bits"));
}

TEST_CASE("DType names round-trip and sizes match the C++ types") {
  for (size_t i = 0; i < kDTypeCount; ++i) {
    const auto dtype = static_cast<DType>(i);
    CHECK(ParseDType(DTypeName(dtype)).value() == dtype);
    VisitDType(dtype, [&](auto value) {
      CHECK(DTypeSize(dtype) == sizeof(value));
      CHECK(DTypeOf<decltype(value)>() == dtype);
    });
  }
  Result<DType> unknown = ParseDType("f8");
  REQUIRE_FALSE(unknown.ok());
  CHECK_THAT(unknown.status().message(), Catch::Contains("unknown dtype 'f8'"));
}

}  // namespace
}  // namespace swarm
