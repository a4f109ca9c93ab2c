// What the C API's opaque handles hold, and the helpers every entry point uses to turn C++
// errors (Status values and exceptions) into a swarm_status plus a thread-local message.
//
// Ownership is a chain of shared pointers: a buffer's state holds its context's state (the
// MemoryAccountant must outlive every allocation made through it), a tensor handle holds what
// its view points into (a buffer's state, or an imported DLPack tensor), and a DLPack export
// holds the same. So handles may be released in any order.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <system_error>
#include <utility>
#include <variant>

#include "swarm/c_api/swarm_c.h"
#include "swarm/core/buffer.h"
#include "swarm/core/memory.h"
#include "swarm/core/status.h"
#include "swarm/core/thread_pool.h"
#include "swarm/tensor/tensor.h"
#include "swarm/vision/image.h"
#include "swarm/vision/vision_ops.h"

namespace swarm::c_api {

struct ContextState {
  ContextState(size_t budget_bytes, size_t threads)
      : memory(budget_bytes), pool(threads), workspace(memory) {}

  MemoryAccountant memory;  // declared first: destroyed after everything allocated from it
  ThreadPool pool;
  VisionWorkspace workspace;
  // The pool runs one batch at a time and the workspace serves one call at a time.
  std::mutex kernel_mutex;
};

using Storage = std::variant<Vec4Buffer, FloatArray, ByteArray, ImageF32, ImageU8, ImageBatchF32,
                             ImageBatchU8, Tensor>;

struct BufferState {
  std::shared_ptr<ContextState> context;  // declared first: outlives `storage`
  Storage storage;

  swarm_buffer_kind kind() const { return static_cast<swarm_buffer_kind>(storage.index()); }
  // The whole buffer as a writable view (tensor_adapters.h layouts).
  TensorView view();
};

// Sets the calling thread's last error and returns `status`.
swarm_status Fail(swarm_status status, std::string message);
// SWARM_OK, or the Status's code with "function: message".
swarm_status Report(const char* function, const Status& status);
// SWARM_INVALID_ARGUMENT "function: `argument` is null".
swarm_status NullArgument(const char* function, const char* argument) noexcept;

// Runs `body` (which returns swarm_status) and turns any exception into a status, so none
// crosses the C boundary.
template <typename Body>
swarm_status Guarded(const char* function, Body&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return Fail(SWARM_OUT_OF_MEMORY, std::string(function) + ": out of memory");
  } catch (const std::system_error& error) {
    return Fail(SWARM_UNAVAILABLE, std::string(function) + ": " + error.what());
  } catch (const std::exception& error) {
    return Fail(SWARM_UNAVAILABLE, std::string(function) + ": internal error: " + error.what());
  } catch (...) {
    return Fail(SWARM_UNAVAILABLE, std::string(function) + ": internal error");
  }
}

// The int a C caller passed for an enum parameter. C lets any int through, but loading a value
// outside the enumerators' range through the C++ enum type is undefined behaviour, so it is read
// as the int it is (taking the parameter by reference, which loads nothing).
template <typename Enum>
int EnumValue(const Enum& value) {
  static_assert(sizeof(Enum) == sizeof(int));
  int raw;
  std::memcpy(&raw, &value, sizeof(raw));
  return raw;
}

// Validates a swarm_dtype from C (any int may arrive).
Result<DType> ToDType(const swarm_dtype& dtype);

// The size-query pattern of swarm_c.h: stores the length, then copies `value` and its NUL into
// `text` if given and large enough.
swarm_status WriteText(const char* function, const std::string& value, char* text, size_t capacity,
                       size_t* length);

}  // namespace swarm::c_api

// A context handle is reference counted (swarm_context_retain, swarm_context_destroy releases)
// so that a thread which may outlive another's reference can hold its own.
struct swarm_context_impl {
  std::atomic<size_t> references{1};
  std::shared_ptr<swarm::c_api::ContextState> state;
};

struct swarm_buffer_impl {
  std::atomic<size_t> references{1};
  std::shared_ptr<swarm::c_api::BufferState> state;
};

struct swarm_tensor_impl {
  swarm::TensorView view;
  std::shared_ptr<const void> owner;  // keeps view.data() valid
};

namespace swarm::c_api {

// The context's state for the length of one call. Every entry point that takes a context holds
// this copy while it runs, so the pool it waits on and the accountant it allocates from outlive
// the call even when the handle's last reference is released meanwhile.
inline std::shared_ptr<ContextState> HoldContext(swarm_context context) { return context->state; }

// The reference counting of handles that have it (contexts, buffers): retain adds one, release
// drops one and deletes the handle with the last.
template <typename Handle>
swarm_status RetainHandle(Handle* handle, const char* function, const char* argument) {
  if (handle == nullptr) return NullArgument(function, argument);
  handle->references.fetch_add(1, std::memory_order_relaxed);
  return SWARM_OK;
}
template <typename Handle>
void ReleaseHandle(Handle* handle) {
  if (handle == nullptr) return;
  if (handle->references.fetch_sub(1, std::memory_order_acq_rel) == 1) delete handle;
}

// A new tensor handle (the caller checked `out`).
swarm_status NewTensor(const TensorView& view, std::shared_ptr<const void> owner,
                       swarm_tensor* out);
// A new buffer handle over `storage` allocated in `context`.
swarm_status NewBuffer(const std::shared_ptr<ContextState>& context, Storage storage,
                       swarm_buffer* out);

}  // namespace swarm::c_api
