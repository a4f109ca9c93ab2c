// Helpers for the C API tests: owners that release handles at scope exit, and element access
// through a swarm_tensor_info computed by hand (pointer + index * stride), so the tests check the
// C API against plain pointer arithmetic rather than against swarm's own C++ classes.
#pragma once

#include <array>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "swarm/c_api/swarm_c.h"

namespace swarm::test {

// A sentinel no real handle equals, to check that failures leave out-parameters alone.
template <typename Handle>
Handle Sentinel() {
  return reinterpret_cast<Handle>(uintptr_t{0x5a5a});
}

struct ContextDeleter {
  void operator()(swarm_context_impl* context) const { swarm_context_destroy(context); }
};
struct BufferDeleter {
  void operator()(swarm_buffer_impl* buffer) const { swarm_buffer_release(buffer); }
};
struct TensorDeleter {
  void operator()(swarm_tensor_impl* tensor) const { swarm_tensor_destroy(tensor); }
};
using ContextPtr = std::unique_ptr<swarm_context_impl, ContextDeleter>;
using BufferPtr = std::unique_ptr<swarm_buffer_impl, BufferDeleter>;
using TensorPtr = std::unique_ptr<swarm_tensor_impl, TensorDeleter>;

inline ContextPtr MakeContext(size_t budget_bytes = 0, size_t threads = 1) {
  swarm_context_desc desc{budget_bytes, threads};
  swarm_context context = nullptr;
  REQUIRE(swarm_context_create(&desc, &context) == SWARM_OK);
  return ContextPtr(context);
}

inline BufferPtr MakeTensorBuffer(swarm_context context, swarm_dtype dtype,
                                  std::vector<int64_t> shape) {
  swarm_buffer buffer = nullptr;
  REQUIRE(swarm_buffer_create_tensor(context, dtype, shape.data(), shape.size(), &buffer) ==
          SWARM_OK);
  return BufferPtr(buffer);
}

inline TensorPtr ViewOf(swarm_buffer buffer) {
  swarm_tensor tensor = nullptr;
  REQUIRE(swarm_buffer_tensor(buffer, &tensor) == SWARM_OK);
  return TensorPtr(tensor);
}

inline swarm_tensor_info Info(swarm_tensor tensor) {
  swarm_tensor_info info{};
  REQUIRE(swarm_tensor_info_get(tensor, &info) == SWARM_OK);
  return info;
}

inline std::vector<int64_t> Shape(const swarm_tensor_info& info) {
  return {info.shape, info.shape + info.rank};
}
inline std::vector<int64_t> Strides(const swarm_tensor_info& info) {
  return {info.strides, info.strides + info.rank};
}

// Address of element `index` (rank entries) of the view `info` describes, by hand.
template <typename T>
T* ElementOf(const swarm_tensor_info& info, std::vector<int64_t> index) {
  REQUIRE(index.size() == info.rank);
  int64_t offset = 0;
  for (size_t axis = 0; axis < info.rank; ++axis) offset += index[axis] * info.strides[axis];
  return static_cast<T*>(info.data) + offset;
}

// The last error as a std::string, for Catch matchers.
inline std::string LastError() { return swarm_last_error(); }

}  // namespace swarm::test
