// Tests for the C API's .npy and DLPack entry points (engine/c_api/c_api_interchange.cc): file
// bytes against numpy's documented format, and DLPack lifetimes in both directions, counted by hand
// with a deleter that records its calls (exactly once, never while a view needs the memory; ASan
// turns any use after free into a failure). numpy's own reading of these files and capsules is
// tested by tests/python/.
#include <dlpack/dlpack.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "swarm/c_api/swarm_c.h"
#include "tests/engine/c_api/c_api_test_support.h"

namespace swarm::test {
namespace {

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

std::string TestPath(const std::string& name) {
  std::filesystem::create_directories("c_api_test_files");
  return "c_api_test_files/" + name;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST_CASE("save_npy writes numpy's format in C order and load_npy reads it back") {
  ContextPtr context = MakeContext();
  BufferPtr buffer = MakeTensorBuffer(context.get(), SWARM_S16, {2, 3});
  TensorPtr view = ViewOf(buffer.get());
  const swarm_tensor_info info = Info(view.get());
  for (int64_t i = 0; i < 2; ++i) {
    for (int64_t j = 0; j < 3; ++j) *ElementOf<int16_t>(info, {i, j}) = int16_t(-100 * i + j);
  }
  swarm_tensor raw = nullptr;
  REQUIRE(swarm_tensor_transpose(view.get(), &raw) == SWARM_OK);
  TensorPtr transposed(raw);
  const std::string path = TestPath("transposed.npy");
  REQUIRE(swarm_tensor_save_npy(transposed.get(), path.c_str()) == SWARM_OK);

  // numpy/lib/format.py: magic, version 1.0, little-endian u16 header length, dict, '\n'.
  const std::string file = ReadFile(path);
  REQUIRE(file.size() > 10);
  CHECK(file.substr(0, 8) == std::string("\x93NUMPY\x01\x00", 8));
  const size_t header_length = uint8_t(file[8]) | (size_t(uint8_t(file[9])) << 8);
  const std::string header = file.substr(10, header_length);
  CHECK(header == "{'descr': '<i2', 'fortran_order': False, 'shape': (3, 2), }" +
                      std::string(header_length - 60, ' ') + "\n");
  REQUIRE(file.size() == 10 + header_length + 6 * sizeof(int16_t));
  const int16_t expected[6] = {0, -100, 1, -99, 2, -98};  // transposed, C order
  CHECK(std::memcmp(file.data() + 10 + header_length, expected, sizeof(expected)) == 0);

  swarm_buffer loaded_raw = nullptr;
  REQUIRE(swarm_load_npy(context.get(), path.c_str(), &loaded_raw) == SWARM_OK);
  BufferPtr loaded(loaded_raw);
  swarm_buffer_kind kind{};
  REQUIRE(swarm_buffer_kind_get(loaded.get(), &kind) == SWARM_OK);
  CHECK(kind == SWARM_BUFFER_TENSOR);
  TensorPtr loaded_view = ViewOf(loaded.get());
  const swarm_tensor_info loaded_info = Info(loaded_view.get());
  CHECK(loaded_info.dtype == SWARM_S16);
  CHECK(Shape(loaded_info) == std::vector<int64_t>{3, 2});
  CHECK(std::memcmp(loaded_info.data, expected, sizeof(expected)) == 0);
}

TEST_CASE("npy errors name the file and change nothing") {
  ContextPtr context = MakeContext(/*budget_bytes=*/1024);
  BufferPtr buffer = MakeTensorBuffer(context.get(), SWARM_F32, {4});
  TensorPtr view = ViewOf(buffer.get());
  swarm_buffer out = reinterpret_cast<swarm_buffer>(uintptr_t{0x5a5a});

  const std::string missing = TestPath("does_not_exist.npy");
  std::filesystem::remove(missing);
  CHECK(swarm_load_npy(context.get(), missing.c_str(), &out) == SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), StartsWith("swarm_load_npy: ") && Contains(missing));

  const std::string truncated = TestPath("truncated.npy");
  REQUIRE(swarm_tensor_save_npy(view.get(), truncated.c_str()) == SWARM_OK);
  const std::string whole = ReadFile(truncated);
  std::ofstream(truncated, std::ios::binary | std::ios::trunc) << whole.substr(0, whole.size() - 1);
  CHECK(swarm_load_npy(context.get(), truncated.c_str(), &out) == SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), StartsWith("swarm_load_npy: ") && Contains(truncated));

  // A valid file too large for the budget.
  BufferPtr large = MakeTensorBuffer(MakeContext().get(), SWARM_F64, {1000});
  TensorPtr large_view = ViewOf(large.get());
  const std::string large_path = TestPath("large.npy");
  REQUIRE(swarm_tensor_save_npy(large_view.get(), large_path.c_str()) == SWARM_OK);
  CHECK(swarm_load_npy(context.get(), large_path.c_str(), &out) == SWARM_OVER_BUDGET);
  CHECK_THAT(LastError(), StartsWith("swarm_load_npy: ") && Contains("budget"));

  CHECK(swarm_load_npy(context.get(), nullptr, &out) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_load_npy: path is null");
  CHECK(swarm_load_npy(nullptr, missing.c_str(), &out) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_load_npy: context is null");
  CHECK(swarm_load_npy(context.get(), missing.c_str(), nullptr) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_load_npy: out is null");
  CHECK(out == reinterpret_cast<swarm_buffer>(uintptr_t{0x5a5a}));

  const std::string no_directory = TestPath("no/such/directory/x.npy");
  CHECK(swarm_tensor_save_npy(view.get(), no_directory.c_str()) == SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), StartsWith("swarm_tensor_save_npy: ") && Contains(no_directory));
  CHECK_FALSE(std::filesystem::exists(no_directory));
  CHECK(swarm_tensor_save_npy(view.get(), nullptr) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_tensor_save_npy: path is null");
  CHECK(swarm_tensor_save_npy(nullptr, truncated.c_str()) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_tensor_save_npy: tensor is null");
}

TEST_CASE("an exported DLPack tensor describes the view and keeps its buffer alive") {
  ContextPtr context = MakeContext();
  swarm_buffer buffer = nullptr;
  REQUIRE(swarm_buffer_create_vec4(context.get(), 3, &buffer) == SWARM_OK);
  swarm_tensor view = nullptr;
  REQUIRE(swarm_buffer_tensor(buffer, &view) == SWARM_OK);
  const swarm_tensor_info info = Info(view);
  DLManagedTensor* managed = nullptr;
  REQUIRE(swarm_tensor_to_dlpack(view, &managed) == SWARM_OK);
  REQUIRE(managed != nullptr);
  const DLTensor& dl = managed->dl_tensor;
  CHECK(dl.device.device_type == kDLCPU);
  CHECK(dl.ndim == 2);
  CHECK(dl.dtype.code == kDLFloat);
  CHECK(dl.dtype.bits == 32);
  CHECK(dl.dtype.lanes == 1);
  CHECK(dl.shape[0] == 3);
  CHECK(dl.shape[1] == 4);
  CHECK(dl.strides[0] == 1);
  CHECK(dl.strides[1] == info.strides[1]);
  CHECK(static_cast<char*>(dl.data) + dl.byte_offset == info.data);

  size_t bytes = 0;
  REQUIRE(swarm_context_bytes_in_use(context.get(), &bytes) == SWARM_OK);
  const size_t allocated = bytes;
  swarm_tensor_destroy(view);
  swarm_buffer_release(buffer);
  REQUIRE(swarm_context_bytes_in_use(context.get(), &bytes) == SWARM_OK);
  CHECK(bytes == allocated);
  // Still valid memory (ASan would report a use after free).
  static_cast<float*>(dl.data)[dl.strides[1] * 2 + 1] = 5.0f;
  CHECK(static_cast<float*>(dl.data)[dl.strides[1] * 2 + 1] == 5.0f);
  swarm_dlpack_delete(managed);
  REQUIRE(swarm_context_bytes_in_use(context.get(), &bytes) == SWARM_OK);
  CHECK(bytes == 0);
  swarm_dlpack_delete(nullptr);

  DLManagedTensor* untouched = reinterpret_cast<DLManagedTensor*>(uintptr_t{0x5a5a});
  CHECK(swarm_tensor_to_dlpack(nullptr, &untouched) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_tensor_to_dlpack: tensor is null");
  CHECK(untouched == reinterpret_cast<DLManagedTensor*>(uintptr_t{0x5a5a}));
}

// A DLPack producer outside swarm: six floats as a 2 x 3 tensor, counting deleter calls.
struct Producer {
  DLManagedTensor managed{};
  int64_t shape[2] = {2, 3};
  int64_t strides[2] = {3, 1};
  float data[6] = {0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f};
  int deletions = 0;

  Producer() {
    managed.dl_tensor.data = data;
    managed.dl_tensor.device = {kDLCPU, 0};
    managed.dl_tensor.ndim = 2;
    managed.dl_tensor.dtype = {kDLFloat, 32, 1};
    managed.dl_tensor.shape = shape;
    managed.dl_tensor.strides = strides;
    managed.manager_ctx = this;
    managed.deleter = [](DLManagedTensor* self) {
      ++static_cast<Producer*>(self->manager_ctx)->deletions;
    };
  }
};

TEST_CASE("an imported DLPack tensor is deleted once, after its last view and export") {
  Producer producer;
  swarm_tensor imported = nullptr;
  REQUIRE(swarm_tensor_from_dlpack(&producer.managed, /*read_only=*/false, &imported) == SWARM_OK);
  const swarm_tensor_info info = Info(imported);
  CHECK(info.data == producer.data);
  CHECK(info.dtype == SWARM_F32);
  CHECK(Shape(info) == std::vector<int64_t>{2, 3});
  CHECK(Strides(info) == std::vector<int64_t>{3, 1});
  CHECK_FALSE(info.read_only);

  swarm_tensor column = nullptr;
  swarm_slice slices[2] = {};
  slices[1] = {2, 3, 1, true, true};
  REQUIRE(swarm_tensor_slice(imported, slices, 2, &column) == SWARM_OK);
  DLManagedTensor* exported = nullptr;
  REQUIRE(swarm_tensor_to_dlpack(column, &exported) == SWARM_OK);
  swarm_tensor_destroy(imported);
  swarm_tensor_destroy(column);
  CHECK(producer.deletions == 0);
  CHECK(static_cast<float*>(exported->dl_tensor.data)[3] == 5.5f);
  swarm_dlpack_delete(exported);
  CHECK(producer.deletions == 1);

  Producer read_only_producer;
  REQUIRE(swarm_tensor_from_dlpack(&read_only_producer.managed, true, &imported) == SWARM_OK);
  CHECK(Info(imported).read_only);
  swarm_tensor_destroy(imported);
  CHECK(read_only_producer.deletions == 1);
}

TEST_CASE("a refused DLPack tensor stays with the caller") {
  Producer producer;
  swarm_tensor out = reinterpret_cast<swarm_tensor>(uintptr_t{0x5a5a});
  producer.managed.dl_tensor.device = {kDLCUDA, 0};
  CHECK(swarm_tensor_from_dlpack(&producer.managed, false, &out) == SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), StartsWith("swarm_tensor_from_dlpack: ") && Contains("device"));
  producer.managed.dl_tensor.device = {kDLCPU, 0};
  producer.managed.dl_tensor.dtype = {kDLFloat, 24, 1};
  CHECK(swarm_tensor_from_dlpack(&producer.managed, false, &out) == SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), StartsWith("swarm_tensor_from_dlpack: ") && Contains("24"));
  CHECK(swarm_tensor_from_dlpack(nullptr, false, &out) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_tensor_from_dlpack: managed is null");
  CHECK(swarm_tensor_from_dlpack(&producer.managed, false, nullptr) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_tensor_from_dlpack: out is null");
  CHECK(out == reinterpret_cast<swarm_tensor>(uintptr_t{0x5a5a}));
  CHECK(producer.deletions == 0);
}

}  // namespace
}  // namespace swarm::test
