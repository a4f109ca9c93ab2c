// C API: errors, dtypes, contexts, buffers and the handles of tensor views (swarm_c.h).
#include <cstring>
#include <span>
#include <string>

#include "engine/c_api/c_api_internal.h"
#include "swarm/core/simd.h"
#include "swarm/tensor/tensor_adapters.h"

namespace swarm::c_api {
namespace {

thread_local std::string last_error;

// The variant's alternatives are in swarm_buffer_kind's order, so kind() is the index.
static_assert(std::is_same_v<std::variant_alternative_t<SWARM_BUFFER_VEC4, Storage>, Vec4Buffer>);
static_assert(
    std::is_same_v<std::variant_alternative_t<SWARM_BUFFER_U8_ARRAY, Storage>, ByteArray>);
static_assert(
    std::is_same_v<std::variant_alternative_t<SWARM_BUFFER_IMAGE_BATCH_U8, Storage>, ImageBatchU8>);
static_assert(std::is_same_v<std::variant_alternative_t<SWARM_BUFFER_TENSOR, Storage>, Tensor>);
static_assert(std::variant_size_v<Storage> == SWARM_BUFFER_TENSOR + 1);

static_assert(static_cast<int>(ErrorCode::kInvalidArgument) == SWARM_INVALID_ARGUMENT);
static_assert(static_cast<int>(ErrorCode::kOverBudget) == SWARM_OVER_BUDGET);
static_assert(static_cast<int>(ErrorCode::kOutOfMemory) == SWARM_OUT_OF_MEMORY);
static_assert(static_cast<int>(ErrorCode::kUnavailable) == SWARM_UNAVAILABLE);
static_assert(static_cast<int>(DType::kBool) == SWARM_BOOL && kDTypeCount == SWARM_BOOL + 1);
static_assert(kMaxTensorRank == SWARM_MAX_RANK);

// More threads than any machine swarm targets has cores; a larger request is a mistake.
constexpr size_t kMaxThreads = 1024;

// Image buffers exist in f32 and u8 only.
Result<bool> IsFloatImage(const swarm_dtype& dtype) {
  const int value = EnumValue(dtype);
  if (value == SWARM_F32) return true;
  if (value == SWARM_U8) return false;
  return InvalidArgument("images are f32 or u8, got dtype " + std::to_string(value));
}

template <typename Create>
swarm_status CreateBuffer(const char* function, swarm_context context, swarm_buffer* out,
                          Create&& create) {
  return Guarded(function, [&]() -> swarm_status {
    if (context == nullptr) return NullArgument(function, "context");
    if (out == nullptr) return NullArgument(function, "out");
    const std::shared_ptr<ContextState> state = HoldContext(context);
    Result<Storage> storage = create(state->memory);
    if (!storage.ok()) return Report(function, storage.status());
    return NewBuffer(state, std::move(storage).value(), out);
  });
}

}  // namespace

swarm_status Fail(swarm_status status, std::string message) {
  last_error = std::move(message);
  return status;
}

swarm_status Report(const char* function, const Status& status) {
  if (status.ok()) return SWARM_OK;
  return Fail(static_cast<swarm_status>(status.code()),
              std::string(function) + ": " + status.message());
}

// Called outside Guarded by the calls that only read handles, so it must not throw: building the
// message can (bad_alloc), and then a fixed one stands in.
swarm_status NullArgument(const char* function, const char* argument) noexcept {
  try {
    return Fail(SWARM_INVALID_ARGUMENT, std::string(function) + ": " + argument + " is null");
  } catch (...) {
    return Fail(SWARM_INVALID_ARGUMENT, "null handle");  // short enough to need no allocation
  }
}

Result<DType> ToDType(const swarm_dtype& dtype) {
  const int value = EnumValue(dtype);
  if (value < 0 || value >= static_cast<int>(kDTypeCount)) {
    return InvalidArgument("dtype " + std::to_string(value) + " is not a swarm_dtype (0.." +
                           std::to_string(kDTypeCount - 1) + ")");
  }
  return static_cast<DType>(value);
}

swarm_status WriteText(const char* function, const std::string& value, char* text, size_t capacity,
                       size_t* length) {
  if (text == nullptr && length == nullptr) return NullArgument(function, "text and length");
  if (text != nullptr && capacity <= value.size()) {
    return Fail(SWARM_INVALID_ARGUMENT, std::string(function) + ": text capacity " +
                                            std::to_string(capacity) + " cannot hold " +
                                            std::to_string(value.size()) +
                                            " characters and the terminating NUL");
  }
  if (length != nullptr) *length = value.size();
  if (text != nullptr) std::memcpy(text, value.c_str(), value.size() + 1);
  return SWARM_OK;
}

TensorView BufferState::view() {
  return std::visit(
      [](auto& buffer) -> TensorView {
        if constexpr (std::is_same_v<std::decay_t<decltype(buffer)>, Tensor>) {
          return buffer.view();
        } else {
          return TensorOf(buffer);
        }
      },
      storage);
}

swarm_status NewTensor(const TensorView& view, std::shared_ptr<const void> owner,
                       swarm_tensor* out) {
  *out = new swarm_tensor_impl{view, std::move(owner)};
  return SWARM_OK;
}

swarm_status NewBuffer(const std::shared_ptr<ContextState>& context, Storage storage,
                       swarm_buffer* out) {
  auto state = std::make_shared<BufferState>(BufferState{context, std::move(storage)});
  auto* buffer = new swarm_buffer_impl;
  buffer->state = std::move(state);
  *out = buffer;
  return SWARM_OK;
}

}  // namespace swarm::c_api

using swarm::ActiveSimdTarget;
using swarm::ByteArray;
using swarm::DType;
using swarm::DTypeName;
using swarm::DTypeSize;
using swarm::FloatArray;
using swarm::ImageBatchF32;
using swarm::ImageBatchU8;
using swarm::ImageF32;
using swarm::ImageU8;
using swarm::kNoBudget;
using swarm::MemoryAccountant;
using swarm::Result;
using swarm::Tensor;
using swarm::TensorView;
using swarm::Vec4Buffer;
using swarm::c_api::ContextState;
using swarm::c_api::CreateBuffer;
using swarm::c_api::EnumValue;
using swarm::c_api::Fail;
using swarm::c_api::Guarded;
using swarm::c_api::HoldContext;
using swarm::c_api::IsFloatImage;
using swarm::c_api::kMaxThreads;
using swarm::c_api::last_error;
using swarm::c_api::NewBuffer;
using swarm::c_api::NewTensor;
using swarm::c_api::NullArgument;
using swarm::c_api::ReleaseHandle;
using swarm::c_api::RetainHandle;
using swarm::c_api::Storage;
using swarm::c_api::ToDType;
using swarm::c_api::WriteText;

extern "C" {

const char* swarm_last_error(void) { return last_error.c_str(); }

const char* swarm_status_name(swarm_status status) {
  switch (EnumValue(status)) {
    case SWARM_OK:
      return "ok";
    case SWARM_INVALID_ARGUMENT:
      return "invalid argument";
    case SWARM_OVER_BUDGET:
      return "over budget";
    case SWARM_OUT_OF_MEMORY:
      return "out of memory";
    case SWARM_UNAVAILABLE:
      return "unavailable";
  }
  return nullptr;
}

size_t swarm_dtype_size(swarm_dtype dtype) {
  Result<DType> checked = ToDType(dtype);
  return checked.ok() ? DTypeSize(checked.value()) : 0;
}

const char* swarm_dtype_name(swarm_dtype dtype) {
  Result<DType> checked = ToDType(dtype);
  return checked.ok() ? DTypeName(checked.value()) : nullptr;
}

swarm_status swarm_context_create(const swarm_context_desc* desc, swarm_context* out) {
  constexpr const char* kFunction = "swarm_context_create";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (out == nullptr) return NullArgument(kFunction, "out");
    const swarm_context_desc defaults{};
    const swarm_context_desc& d = desc != nullptr ? *desc : defaults;
    if (d.threads > kMaxThreads) {
      return Fail(SWARM_INVALID_ARGUMENT, std::string(kFunction) + ": threads must be at most " +
                                              std::to_string(kMaxThreads) + ", got " +
                                              std::to_string(d.threads));
    }
    auto state = std::make_shared<ContextState>(d.budget_bytes == 0 ? kNoBudget : d.budget_bytes,
                                                d.threads == 0 ? 1 : d.threads);
    auto* context = new swarm_context_impl;
    context->state = std::move(state);
    *out = context;
    return SWARM_OK;
  });
}

swarm_status swarm_context_retain(swarm_context context) {
  return RetainHandle(context, "swarm_context_retain", "context");
}

void swarm_context_destroy(swarm_context context) { ReleaseHandle(context); }

swarm_status swarm_context_bytes_in_use(swarm_context context, size_t* bytes) {
  constexpr const char* kFunction = "swarm_context_bytes_in_use";
  if (context == nullptr) return NullArgument(kFunction, "context");
  if (bytes == nullptr) return NullArgument(kFunction, "bytes");
  *bytes = HoldContext(context)->memory.Total().bytes_in_use;
  return SWARM_OK;
}

swarm_status swarm_context_memory_report(swarm_context context, char* text, size_t capacity,
                                         size_t* length) {
  constexpr const char* kFunction = "swarm_context_memory_report";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (context == nullptr) return NullArgument(kFunction, "context");
    return WriteText(kFunction, HoldContext(context)->memory.Report(), text, capacity, length);
  });
}

const char* swarm_simd_target_name(void) {
  thread_local std::string name;
  try {
    name = ActiveSimdTarget().name;
  } catch (...) {
    name = "unknown";
  }
  return name.c_str();
}

swarm_status swarm_buffer_create_vec4(swarm_context context, size_t count, swarm_buffer* out) {
  return CreateBuffer("swarm_buffer_create_vec4", context, out,
                      [&](MemoryAccountant& memory) -> Result<Storage> {
                        Result<Vec4Buffer> buffer = Vec4Buffer::Create(memory, count);
                        if (!buffer.ok()) return buffer.status();
                        return Storage(std::move(buffer).value());
                      });
}

swarm_status swarm_buffer_create_f32_array(swarm_context context, size_t count, swarm_buffer* out) {
  return CreateBuffer("swarm_buffer_create_f32_array", context, out,
                      [&](MemoryAccountant& memory) -> Result<Storage> {
                        Result<FloatArray> array = FloatArray::Create(memory, count);
                        if (!array.ok()) return array.status();
                        return Storage(std::move(array).value());
                      });
}

swarm_status swarm_buffer_create_u8_array(swarm_context context, size_t count, swarm_buffer* out) {
  return CreateBuffer("swarm_buffer_create_u8_array", context, out,
                      [&](MemoryAccountant& memory) -> Result<Storage> {
                        Result<ByteArray> array = ByteArray::Create(memory, count);
                        if (!array.ok()) return array.status();
                        return Storage(std::move(array).value());
                      });
}

swarm_status swarm_buffer_create_image(swarm_context context, swarm_dtype dtype, size_t width,
                                       size_t height, swarm_buffer* out) {
  constexpr const char* kFunction = "swarm_buffer_create_image";
  return CreateBuffer(kFunction, context, out, [&](MemoryAccountant& memory) -> Result<Storage> {
    Result<bool> is_float = IsFloatImage(dtype);
    if (!is_float.ok()) return is_float.status();
    if (is_float.value()) {
      Result<ImageF32> image = ImageF32::Create(memory, width, height);
      if (!image.ok()) return image.status();
      return Storage(std::move(image).value());
    }
    Result<ImageU8> image = ImageU8::Create(memory, width, height);
    if (!image.ok()) return image.status();
    return Storage(std::move(image).value());
  });
}

swarm_status swarm_buffer_create_image_batch(swarm_context context, swarm_dtype dtype, size_t count,
                                             size_t width, size_t height, swarm_buffer* out) {
  constexpr const char* kFunction = "swarm_buffer_create_image_batch";
  return CreateBuffer(kFunction, context, out, [&](MemoryAccountant& memory) -> Result<Storage> {
    Result<bool> is_float = IsFloatImage(dtype);
    if (!is_float.ok()) return is_float.status();
    if (is_float.value()) {
      Result<ImageBatchF32> batch = ImageBatchF32::Create(memory, count, width, height);
      if (!batch.ok()) return batch.status();
      return Storage(std::move(batch).value());
    }
    Result<ImageBatchU8> batch = ImageBatchU8::Create(memory, count, width, height);
    if (!batch.ok()) return batch.status();
    return Storage(std::move(batch).value());
  });
}

swarm_status swarm_buffer_create_tensor(swarm_context context, swarm_dtype dtype,
                                        const int64_t* shape, size_t rank, swarm_buffer* out) {
  constexpr const char* kFunction = "swarm_buffer_create_tensor";
  if (shape == nullptr && rank > 0) return NullArgument(kFunction, "shape");
  return CreateBuffer(kFunction, context, out, [&](MemoryAccountant& memory) -> Result<Storage> {
    Result<DType> checked = ToDType(dtype);
    if (!checked.ok()) return checked.status();
    Result<Tensor> tensor =
        Tensor::Create(memory, checked.value(), std::span<const int64_t>(shape, rank));
    if (!tensor.ok()) return tensor.status();
    return Storage(std::move(tensor).value());
  });
}

swarm_status swarm_buffer_retain(swarm_buffer buffer) {
  return RetainHandle(buffer, "swarm_buffer_retain", "buffer");
}

void swarm_buffer_release(swarm_buffer buffer) { ReleaseHandle(buffer); }

swarm_status swarm_buffer_kind_get(swarm_buffer buffer, swarm_buffer_kind* out) {
  constexpr const char* kFunction = "swarm_buffer_kind_get";
  if (buffer == nullptr) return NullArgument(kFunction, "buffer");
  if (out == nullptr) return NullArgument(kFunction, "out");
  *out = buffer->state->kind();
  return SWARM_OK;
}

swarm_status swarm_buffer_tensor(swarm_buffer buffer, swarm_tensor* out) {
  constexpr const char* kFunction = "swarm_buffer_tensor";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (buffer == nullptr) return NullArgument(kFunction, "buffer");
    if (out == nullptr) return NullArgument(kFunction, "out");
    return NewTensor(buffer->state->view(), buffer->state, out);
  });
}

void swarm_tensor_destroy(swarm_tensor tensor) { delete tensor; }

swarm_status swarm_tensor_info_get(swarm_tensor tensor, swarm_tensor_info* out) {
  constexpr const char* kFunction = "swarm_tensor_info_get";
  if (tensor == nullptr) return NullArgument(kFunction, "tensor");
  if (out == nullptr) return NullArgument(kFunction, "out");
  const TensorView& view = tensor->view;
  swarm_tensor_info info{};
  info.data = view.data();
  info.dtype = static_cast<swarm_dtype>(view.dtype());
  info.rank = view.rank();
  for (size_t axis = 0; axis < view.rank(); ++axis) {
    info.shape[axis] = view.shape(axis);
    info.strides[axis] = view.stride(axis);
  }
  info.read_only = view.read_only();
  *out = info;
  return SWARM_OK;
}

}  // extern "C"
