// Tests for swarm/tensor/dlpack.h. Export: every dtype's DLPack code and bits (a table written
// from the DLPack 0.6 header), and for contiguous, reversed-slice, transposed and SoA (Vec4Buffer)
// views, that DLPack's address of every element (data + byte_offset + sum(index * stride) * bytes)
// is the view's and holds the analytic value stored there. Lifetime: the deleter runs exactly once
// (counted), also across moves, and keep_alive keeps a Tensor alive after its last handle drops
// (run under ASan, a use after free would abort). Import: one test per kind of invalid
// DLManagedTensor, asserting the message, that the deleter was not called and that the struct
// is unchanged.
#include "swarm/tensor/dlpack.h"

#include <array>
#include <catch2/catch.hpp>
#include <complex>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "swarm/core/buffer.h"
#include "swarm/core/memory.h"
#include "swarm/tensor/tensor.h"
#include "swarm/tensor/tensor_adapters.h"

namespace swarm {
namespace {

// Visits every index of `shape` in C order (an odometer, independent of the library's).
template <typename Visit>
void EveryIndex(std::span<const int64_t> shape, Visit&& visit) {
  int64_t count = 1;
  for (int64_t extent : shape) count *= extent;
  std::vector<int64_t> index(shape.size(), 0);
  for (int64_t n = 0; n < count; ++n) {
    visit(index);
    for (size_t axis = shape.size(); axis-- > 0;) {
      if (++index[axis] < shape[axis]) break;
      index[axis] = 0;
    }
  }
}

// The element address DLPack's rules give: strides in elements, byte_offset in bytes.
const std::byte* DlpackAddress(const DLTensor& tensor, const std::vector<int64_t>& index) {
  int64_t offset = 0;
  for (size_t axis = 0; axis < index.size(); ++axis) offset += index[axis] * tensor.strides[axis];
  const int64_t element_bytes = tensor.dtype.bits / 8;
  return static_cast<const std::byte*>(tensor.data) + tensor.byte_offset + offset * element_bytes;
}

std::vector<int64_t> Vector(const int64_t* values, int count) { return {values, values + count}; }

// A keep_alive handle whose release is counted: the deleter of an exported tensor released it.
std::shared_ptr<const void> CountingHandle(int* releases) {
  static const int kToken = 0;
  return std::shared_ptr<const void>(&kToken, [releases](const void*) { ++*releases; });
}

// A DLManagedTensor as another framework would produce it, over caller-owned memory, whose
// deleter counts its calls. Fields are public so tests can break them one at a time.
struct ForeignTensor {
  DLManagedTensor managed{};
  std::array<int64_t, kMaxTensorRank> shape{};
  std::array<int64_t, kMaxTensorRank> strides{};
  int deleter_calls = 0;

  ForeignTensor(void* data, DLDataType dtype, std::vector<int64_t> shape_values,
                std::vector<int64_t> stride_values) {
    std::copy(shape_values.begin(), shape_values.end(), shape.begin());
    std::copy(stride_values.begin(), stride_values.end(), strides.begin());
    managed.dl_tensor.data = data;
    managed.dl_tensor.device = {kDLCPU, 0};
    managed.dl_tensor.ndim = static_cast<int>(shape_values.size());
    managed.dl_tensor.dtype = dtype;
    managed.dl_tensor.shape = shape.data();
    managed.dl_tensor.strides = stride_values.empty() ? nullptr : strides.data();
    managed.manager_ctx = this;
    managed.deleter = [](DLManagedTensor* self) {
      ++static_cast<ForeignTensor*>(self->manager_ctx)->deleter_calls;
    };
  }
  ForeignTensor(const ForeignTensor&) = delete;
  ForeignTensor& operator=(const ForeignTensor&) = delete;
};

constexpr DLDataType kFloat32{kDLFloat, 32, 1};

// Imports `foreign`, expecting an error containing `message`; checks that the deleter was not
// called and that nothing in the DLManagedTensor changed.
void RequireRejected(ForeignTensor& foreign, const std::string& message) {
  DLManagedTensor before;
  std::memcpy(&before, &foreign.managed, sizeof(before));
  const auto shape_before = foreign.shape;
  const auto strides_before = foreign.strides;
  {
    Result<DlpackTensor> imported = ImportDlpack(&foreign.managed);
    REQUIRE_FALSE(imported.ok());
    CHECK(imported.status().code() == ErrorCode::kInvalidArgument);
    CHECK_THAT(imported.status().message(), Catch::Matchers::Contains(message));
  }
  CHECK(foreign.deleter_calls == 0);
  CHECK(std::memcmp(&before, &foreign.managed, sizeof(before)) == 0);
  CHECK(shape_before == foreign.shape);
  CHECK(strides_before == foreign.strides);
}

TEST_CASE("ExportDlpack maps every dtype to its DLPack code and bits", "[dlpack]") {
  struct Expected {
    DType dtype;
    uint8_t code;
    uint8_t bits;
  };
  const Expected table[] = {
      {DType::kF32, kDLFloat, 32},   {DType::kF64, kDLFloat, 64},
      {DType::kS8, kDLInt, 8},       {DType::kS16, kDLInt, 16},
      {DType::kS32, kDLInt, 32},     {DType::kS64, kDLInt, 64},
      {DType::kU8, kDLUInt, 8},      {DType::kU16, kDLUInt, 16},
      {DType::kU32, kDLUInt, 32},    {DType::kU64, kDLUInt, 64},
      {DType::kC64, kDLComplex, 64}, {DType::kC128, kDLComplex, 128},
      {DType::kF16, kDLFloat, 16},   {DType::kBF16, kDLBfloat, 16},
      {DType::kBool, 6, 8},  // DLPack 0.8's kDLBool
  };
  STATIC_REQUIRE(std::size(table) == kDTypeCount);
  MemoryAccountant memory;
  for (const Expected& expected : table) {
    INFO(DTypeName(expected.dtype));
    Result<Tensor> tensor = Tensor::Create(memory, expected.dtype, {3, 5});
    REQUIRE(tensor.ok());
    Result<DLManagedTensor*> exported = ExportDlpack(tensor->view());
    REQUIRE(exported.ok());
    const DLTensor& dl = exported.value()->dl_tensor;
    CHECK(dl.dtype.code == expected.code);
    CHECK(dl.dtype.bits == expected.bits);
    CHECK(dl.dtype.lanes == 1);
    CHECK(dl.device.device_type == kDLCPU);
    CHECK(dl.device.device_id == 0);
    CHECK(dl.data == tensor->view().data());
    CHECK(dl.byte_offset == 0);
    REQUIRE(dl.ndim == 2);
    CHECK(Vector(dl.shape, 2) == std::vector<int64_t>{3, 5});
    CHECK(Vector(dl.strides, 2) == std::vector<int64_t>{5, 1});
    exported.value()->deleter(exported.value());
  }
}

TEST_CASE("ExportDlpack addresses of a reversed, stepped slice", "[dlpack]") {
  MemoryAccountant memory;
  Result<Tensor> tensor = Tensor::Create(memory, DType::kF64, {6, 7});
  REQUIRE(tensor.ok());
  const TensorView full = tensor->view();
  for (int64_t row = 0; row < 6; ++row) {
    for (int64_t column = 0; column < 7; ++column) {
      REQUIRE(full.Set<double>({row, column}, 100.0 * row + column).ok());
    }
  }
  // numpy's a[::-2, 6:0:-3]: rows 5, 3, 1 and columns 6, 3.
  Result<TensorView> slice = full.Sliced(
      {{.start = 0, .step = -2, .start_omitted = true}, {.start = 6, .stop = 0, .step = -3}});
  REQUIRE(slice.ok());
  Result<DLManagedTensor*> exported = ExportDlpack(slice.value());
  REQUIRE(exported.ok());
  const DLTensor& dl = exported.value()->dl_tensor;
  REQUIRE(dl.ndim == 2);
  CHECK(Vector(dl.shape, 2) == std::vector<int64_t>{3, 2});
  CHECK(Vector(dl.strides, 2) == std::vector<int64_t>{-14, -3});
  // Element [0, 0] is row 5, column 6 of the 7-column f64 tensor.
  CHECK(static_cast<const std::byte*>(dl.data) ==
        static_cast<const std::byte*>(full.data()) + (5 * 7 + 6) * 8);
  EveryIndex({dl.shape, 2}, [&](const std::vector<int64_t>& index) {
    const std::byte* address = DlpackAddress(dl, index);
    CHECK(address == slice->ElementAddress(index.data()));
    double value;
    std::memcpy(&value, address, sizeof(value));
    CHECK(value == 100.0 * (5 - 2 * index[0]) + (6 - 3 * index[1]));
  });
  exported.value()->deleter(exported.value());
}

TEST_CASE("ExportDlpack of a transposed view keeps its strides", "[dlpack]") {
  MemoryAccountant memory;
  Result<Tensor> tensor = Tensor::Create(memory, DType::kS32, {4, 3});
  REQUIRE(tensor.ok());
  for (int32_t row = 0; row < 4; ++row) {
    for (int32_t column = 0; column < 3; ++column) {
      REQUIRE(tensor->view().Set<int32_t>({row, column}, 10 * row + column).ok());
    }
  }
  const TensorView transposed = tensor->view().Transposed();
  Result<DLManagedTensor*> exported = ExportDlpack(transposed);
  REQUIRE(exported.ok());
  const DLTensor& dl = exported.value()->dl_tensor;
  CHECK(Vector(dl.shape, 2) == std::vector<int64_t>{3, 4});
  CHECK(Vector(dl.strides, 2) == std::vector<int64_t>{1, 3});
  EveryIndex({dl.shape, 2}, [&](const std::vector<int64_t>& index) {
    int32_t value;
    std::memcpy(&value, DlpackAddress(dl, index), sizeof(value));
    CHECK(value == 10 * index[1] + index[0]);
  });
  exported.value()->deleter(exported.value());
}

TEST_CASE("ExportDlpack of a Vec4Buffer has strides [1, padded count]", "[dlpack]") {
  MemoryAccountant memory;
  Result<Vec4Buffer> buffer = Vec4Buffer::Create(memory, 13);
  REQUIRE(buffer.ok());
  for (size_t i = 0; i < 13; ++i) {
    const float f = static_cast<float>(i);
    buffer->Set(i, {f, 100 + f, 200 + f, 300 + f});
  }
  REQUIRE(buffer->capacity() > 13);  // padded, so the stride differs from the count
  Result<DLManagedTensor*> exported = ExportDlpack(TensorOf(*buffer));
  REQUIRE(exported.ok());
  const DLTensor& dl = exported.value()->dl_tensor;
  CHECK(Vector(dl.shape, 2) == std::vector<int64_t>{13, 4});
  CHECK(Vector(dl.strides, 2) == std::vector<int64_t>{1, static_cast<int64_t>(buffer->capacity())});
  CHECK(dl.data == buffer->view().x());
  EveryIndex({dl.shape, 2}, [&](const std::vector<int64_t>& index) {
    float value;
    std::memcpy(&value, DlpackAddress(dl, index), sizeof(value));
    CHECK(value == static_cast<float>(100 * index[1] + index[0]));
  });
  exported.value()->deleter(exported.value());
}

TEST_CASE("ExportDlpack of rank-0 and empty views", "[dlpack]") {
  MemoryAccountant memory;
  Result<Tensor> scalar = Tensor::Create(memory, DType::kU16, std::span<const int64_t>());
  REQUIRE(scalar.ok());
  Result<DLManagedTensor*> exported = ExportDlpack(scalar->view());
  REQUIRE(exported.ok());
  CHECK(exported.value()->dl_tensor.ndim == 0);
  CHECK(exported.value()->dl_tensor.data == scalar->view().data());
  exported.value()->deleter(exported.value());

  const int64_t shape[] = {0, 4};
  Result<TensorView> empty = TensorView::Contiguous(nullptr, DType::kF32, shape);
  REQUIRE(empty.ok());
  exported = ExportDlpack(empty.value());
  REQUIRE(exported.ok());
  CHECK(Vector(exported.value()->dl_tensor.shape, 2) == std::vector<int64_t>{0, 4});
  CHECK(exported.value()->dl_tensor.data == nullptr);
  exported.value()->deleter(exported.value());
}

TEST_CASE("ExportDlpack rejects a view without data", "[dlpack]") {
  int releases = 0;
  Result<DLManagedTensor*> exported = ExportDlpack(TensorView(), CountingHandle(&releases));
  REQUIRE_FALSE(exported.ok());
  CHECK(exported.status().message() ==
        "ExportDlpack: the f32 view has no data (a default-constructed view?)");
  CHECK(releases == 1);  // the handle was not kept
}

TEST_CASE("DLPack round trip gives the same view", "[dlpack]") {
  MemoryAccountant memory;
  Result<Tensor> tensor = Tensor::Create(memory, DType::kC64, {5, 4, 3});
  REQUIRE(tensor.ok());
  const size_t axes[] = {2, 0, 1};
  Result<TensorView> permuted = tensor->view().Permuted(axes);
  REQUIRE(permuted.ok());
  Result<TensorView> original = permuted->Sliced({{.start = 2, .stop = 0, .step = -1}, {1, 5, 3}});
  REQUIRE(original.ok());
  for (bool read_only : {false, true}) {
    int releases = 0;
    Result<DLManagedTensor*> exported = ExportDlpack(original.value(), CountingHandle(&releases));
    REQUIRE(exported.ok());
    {
      Result<DlpackTensor> imported = ImportDlpack(exported.value(), read_only);
      REQUIRE(imported.ok());
      const TensorView view = imported->view();
      CHECK(view.data() == original->data());
      CHECK(view.dtype() == DType::kC64);
      CHECK(std::vector<int64_t>(view.shape().begin(), view.shape().end()) ==
            std::vector<int64_t>(original->shape().begin(), original->shape().end()));
      CHECK(std::vector<int64_t>(view.strides().begin(), view.strides().end()) ==
            std::vector<int64_t>(original->strides().begin(), original->strides().end()));
      CHECK(view.read_only() == read_only);
      CHECK(releases == 0);
    }
    CHECK(releases == 1);
  }
}

TEST_CASE("DlpackTensor calls the deleter exactly once across moves", "[dlpack]") {
  float data[6] = {};
  ForeignTensor first(data, kFloat32, {2, 3}, {});
  ForeignTensor second(data, kFloat32, {6}, {});
  {
    Result<DlpackTensor> imported = ImportDlpack(&first.managed);
    REQUIRE(imported.ok());
    DlpackTensor moved = std::move(imported).value();
    CHECK(first.deleter_calls == 0);
    DlpackTensor target = std::move(moved);
    CHECK(moved.view().data() == nullptr);
    CHECK(target.view().data() == data);

    Result<DlpackTensor> other = ImportDlpack(&second.managed);
    REQUIRE(other.ok());
    target = std::move(other).value();  // releases `first`, takes `second`
    CHECK(first.deleter_calls == 1);
    CHECK(second.deleter_calls == 0);
    CHECK(target.view().shape(0) == 6);
  }
  CHECK(first.deleter_calls == 1);
  CHECK(second.deleter_calls == 1);
}

TEST_CASE("DlpackTensor accepts a producer without a deleter", "[dlpack]") {
  int32_t data[4] = {1, 2, 3, 4};
  ForeignTensor foreign(data, {kDLInt, 32, 1}, {4}, {});
  foreign.managed.deleter = nullptr;
  Result<DlpackTensor> imported = ImportDlpack(&foreign.managed);
  REQUIRE(imported.ok());
  CHECK(imported->view().At<int32_t>({3}).value() == 4);
}

TEST_CASE("keep_alive keeps a shared Tensor alive until the deleter runs", "[dlpack]") {
  MemoryAccountant memory;
  std::weak_ptr<Tensor> watch;
  DLManagedTensor* exported = nullptr;
  {
    Result<Tensor> created = Tensor::Create(memory, DType::kS64, {64});
    REQUIRE(created.ok());
    auto owned = std::make_shared<Tensor>(std::move(created).value());
    for (int64_t i = 0; i < 64; ++i) REQUIRE(owned->view().Set<int64_t>({i}, i * i - 7).ok());
    watch = owned;
    Result<DLManagedTensor*> result = ExportDlpack(owned->view(), owned);
    REQUIRE(result.ok());
    exported = result.value();
  }  // the last user handle is gone
  CHECK_FALSE(watch.expired());
  CHECK(memory.Stats(MemoryCategory::kTensors).live_allocations == 1);
  {
    Result<DlpackTensor> imported = ImportDlpack(exported, /*read_only=*/true);
    REQUIRE(imported.ok());
    for (int64_t i = 0; i < 64; ++i) CHECK(imported->view().At<int64_t>({i}).value() == i * i - 7);
  }
  CHECK(watch.expired());
  CHECK(memory.Stats(MemoryCategory::kTensors).live_allocations == 0);
}

TEST_CASE("ImportDlpack: NULL strides mean compact row-major", "[dlpack]") {
  float data[24];
  for (int i = 0; i < 24; ++i) data[i] = static_cast<float>(i);
  ForeignTensor foreign(data, kFloat32, {2, 3, 4}, {});
  Result<DlpackTensor> imported = ImportDlpack(&foreign.managed);
  REQUIRE(imported.ok());
  const TensorView view = imported->view();
  CHECK(std::vector<int64_t>(view.strides().begin(), view.strides().end()) ==
        std::vector<int64_t>{12, 4, 1});
  CHECK(view.At<float>({1, 2, 3}).value() == 23.0f);
  CHECK(view.At<float>({0, 1, 2}).value() == 6.0f);
}

TEST_CASE("ImportDlpack applies byte_offset", "[dlpack]") {
  double data[10];
  for (int i = 0; i < 10; ++i) data[i] = i + 0.5;
  ForeignTensor foreign(data, {kDLFloat, 64, 1}, {3}, {2});
  foreign.managed.dl_tensor.byte_offset = 3 * sizeof(double);
  Result<DlpackTensor> imported = ImportDlpack(&foreign.managed);
  REQUIRE(imported.ok());
  CHECK(imported->view().data() == data + 3);
  CHECK(imported->view().At<double>({0}).value() == 3.5);
  CHECK(imported->view().At<double>({2}).value() == 7.5);
}

TEST_CASE("ImportDlpack accepts kDLCUDAHost and empty tensors without data", "[dlpack]") {
  float data[4] = {};
  ForeignTensor pinned(data, kFloat32, {4}, {});
  pinned.managed.dl_tensor.device = {kDLCUDAHost, 0};
  CHECK(ImportDlpack(&pinned.managed).ok());
  CHECK(pinned.deleter_calls == 1);

  ForeignTensor empty(nullptr, kFloat32, {0, 3}, {});
  Result<DlpackTensor> imported = ImportDlpack(&empty.managed);
  REQUIRE(imported.ok());
  CHECK(imported->view().empty());
}

TEST_CASE("ImportDlpack rejects a null DLManagedTensor", "[dlpack]") {
  Result<DlpackTensor> imported = ImportDlpack(nullptr);
  REQUIRE_FALSE(imported.ok());
  CHECK(imported.status().message() == "ImportDlpack: the DLManagedTensor is null");
}

TEST_CASE("ImportDlpack rejects device memory", "[dlpack]") {
  float data[4] = {};
  ForeignTensor foreign(data, kFloat32, {4}, {});
  foreign.managed.dl_tensor.device = {kDLCUDA, 1};
  RequireRejected(foreign,
                  "ImportDlpack: device CUDA (type 2) is not host memory; swarm imports kDLCPU or "
                  "kDLCUDAHost tensors");
}

TEST_CASE("ImportDlpack rejects ndim out of range", "[dlpack]") {
  float data[4] = {};
  ForeignTensor negative(data, kFloat32, {4}, {});
  negative.managed.dl_tensor.ndim = -1;
  RequireRejected(negative, "ImportDlpack: ndim -1 is outside [0, 8]");
  ForeignTensor too_many(data, kFloat32, {1, 1, 1, 1, 1, 1, 1, 1}, {});
  too_many.managed.dl_tensor.ndim = 9;
  RequireRejected(too_many, "ImportDlpack: ndim 9 is outside [0, 8]");
}

TEST_CASE("ImportDlpack rejects a null shape", "[dlpack]") {
  float data[4] = {};
  ForeignTensor foreign(data, kFloat32, {2, 2}, {});
  foreign.managed.dl_tensor.shape = nullptr;
  RequireRejected(foreign, "ImportDlpack: shape is null for a tensor of ndim 2");
}

TEST_CASE("ImportDlpack rejects vector lanes and unsupported dtypes", "[dlpack]") {
  float data[16] = {};
  ForeignTensor lanes(data, {kDLFloat, 32, 4}, {4}, {});
  RequireRejected(lanes,
                  "ImportDlpack: dtype float (code 2) of 32 bits has 4 lanes; swarm imports only "
                  "scalar elements (lanes 1)");
  ForeignTensor quarter(data, {kDLFloat, 8, 1}, {4}, {});
  RequireRejected(quarter,
                  "ImportDlpack: dtype float (code 2) of 8 bits is not supported (expected float "
                  "16/32/64, bfloat 16, int or uint 8/16/32/64, complex 64/128, bool 8)");
  ForeignTensor bfloat(data, {kDLBfloat, 32, 1}, {4}, {});
  RequireRejected(bfloat, "ImportDlpack: dtype bfloat (code 4) of 32 bits is not supported");
  ForeignTensor wide_bool(data, {6, 32, 1}, {4}, {});
  RequireRejected(wide_bool, "ImportDlpack: dtype bool (code 6) of 32 bits is not supported");
  ForeignTensor odd(data, {kDLInt, 24, 1}, {4}, {});
  RequireRejected(odd, "ImportDlpack: dtype int (code 0) of 24 bits is not supported");
  ForeignTensor unknown(data, {42, 32, 1}, {4}, {});
  RequireRejected(unknown, "ImportDlpack: dtype unknown code (code 42) of 32 bits");
}

TEST_CASE("ImportDlpack rejects negative extents and oversized shapes", "[dlpack]") {
  float data[4] = {};
  ForeignTensor negative(data, kFloat32, {2, -2}, {});
  RequireRejected(negative, "ImportDlpack: tensor shape [2, -2]: axis 1 has negative extent");
  const int64_t huge = int64_t{1} << 32;
  ForeignTensor oversized(data, kFloat32, {huge, huge}, {});
  RequireRejected(oversized, "has more elements than fit in 64 bits");
}

TEST_CASE("ImportDlpack rejects strides that reach beyond 64-bit offsets", "[dlpack]") {
  float data[4] = {};
  const int64_t max = std::numeric_limits<int64_t>::max();
  ForeignTensor far(data, kFloat32, {3}, {max / 2});
  RequireRejected(far, "ImportDlpack: tensor strides [" + std::to_string(max / 2) +
                           "] with shape [3] reach beyond 64-bit offsets");
  ForeignTensor minimum(data, kFloat32, {2}, {std::numeric_limits<int64_t>::min()});
  RequireRejected(minimum, "reach beyond 64-bit offsets");
}

TEST_CASE("ImportDlpack rejects null data for a non-empty tensor", "[dlpack]") {
  ForeignTensor foreign(nullptr, kFloat32, {4}, {});
  RequireRejected(foreign, "ImportDlpack: tensor data is null for a non-empty tensor");
  ForeignTensor offset(nullptr, kFloat32, {4}, {});
  offset.managed.dl_tensor.byte_offset = 64;
  RequireRejected(offset, "ImportDlpack: byte_offset 64 added to data 0 is not an address");
}

TEST_CASE("ImportDlpack rejects misaligned data", "[dlpack]") {
  alignas(8) std::byte bytes[64] = {};
  ForeignTensor shifted(bytes + 2, kFloat32, {4}, {});
  RequireRejected(shifted, ") is not a multiple of 4, the alignment of f32 elements");
  ForeignTensor offset(bytes, {kDLFloat, 64, 1}, {4}, {});
  offset.managed.dl_tensor.byte_offset = 4;
  RequireRejected(offset, " (byte_offset 4) is not a multiple of 8, the alignment of f64 elements");
}

TEST_CASE("ImportDlpack rejects tensors reaching outside the address space", "[dlpack]") {
  // Only addresses are computed; nothing is dereferenced.
  auto* low = reinterpret_cast<void*>(uintptr_t{4096});
  ForeignTensor below(low, {kDLFloat, 64, 1}, {1 << 20}, {-1});
  RequireRejected(below,
                  "ImportDlpack: tensor strides [-1] with shape [1048576] reach outside "
                  "the address space from data 4096");
  auto* high = reinterpret_cast<void*>(std::numeric_limits<uintptr_t>::max() - 4095);
  ForeignTensor above(high, {kDLFloat, 64, 1}, {1024}, {1});
  RequireRejected(above, "reach outside the address space");
  ForeignTensor wrapping(high, {kDLFloat, 64, 1}, {4}, {});
  wrapping.managed.dl_tensor.byte_offset = 8192;
  RequireRejected(wrapping, "ImportDlpack: byte_offset 8192 added to data");
}

}  // namespace
}  // namespace swarm
