// C API: .npy files and DLPack export/import.
#include <dlpack/dlpack.h>

#include <memory>
#include <string>

#include "engine/c_api/c_api_internal.h"
#include "swarm/tensor/dlpack.h"
#include "swarm/tensor/npy.h"

using swarm::DlpackTensor;
using swarm::Result;
using swarm::Tensor;
using swarm::c_api::Guarded;
using swarm::c_api::NewBuffer;
using swarm::c_api::NullArgument;
using swarm::c_api::Report;
using swarm::c_api::Storage;

extern "C" {

swarm_status swarm_tensor_save_npy(swarm_tensor tensor, const char* path) {
  constexpr const char* kFunction = "swarm_tensor_save_npy";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (tensor == nullptr) return NullArgument(kFunction, "tensor");
    if (path == nullptr) return NullArgument(kFunction, "path");
    return Report(kFunction, swarm::SaveNpy(tensor->view, path));
  });
}

swarm_status swarm_load_npy(swarm_context context, const char* path, swarm_buffer* out) {
  constexpr const char* kFunction = "swarm_load_npy";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (context == nullptr) return NullArgument(kFunction, "context");
    if (path == nullptr) return NullArgument(kFunction, "path");
    if (out == nullptr) return NullArgument(kFunction, "out");
    const std::shared_ptr<swarm::c_api::ContextState> state = swarm::c_api::HoldContext(context);
    Result<Tensor> tensor = swarm::LoadNpy(state->memory, path);
    if (!tensor.ok()) return Report(kFunction, tensor.status());
    return NewBuffer(state, Storage(std::move(tensor).value()), out);
  });
}

swarm_status swarm_tensor_to_dlpack(swarm_tensor tensor, DLManagedTensor** out) {
  constexpr const char* kFunction = "swarm_tensor_to_dlpack";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (tensor == nullptr) return NullArgument(kFunction, "tensor");
    if (out == nullptr) return NullArgument(kFunction, "out");
    Result<DLManagedTensor*> managed = swarm::ExportDlpack(tensor->view, tensor->owner);
    if (!managed.ok()) return Report(kFunction, managed.status());
    *out = managed.value();
    return SWARM_OK;
  });
}

swarm_status swarm_tensor_from_dlpack(DLManagedTensor* managed, bool read_only, swarm_tensor* out) {
  constexpr const char* kFunction = "swarm_tensor_from_dlpack";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (managed == nullptr) return NullArgument(kFunction, "managed");
    if (out == nullptr) return NullArgument(kFunction, "out");
    // Allocate the handle's pieces before taking ownership, so that a failed allocation leaves
    // `managed` with the caller as promised.
    auto owner = std::make_shared<DlpackTensor>();
    auto handle = std::make_unique<swarm_tensor_impl>();
    Result<DlpackTensor> imported = swarm::ImportDlpack(managed, read_only);
    if (!imported.ok()) return Report(kFunction, imported.status());
    *owner = std::move(imported).value();
    handle->view = owner->view();
    handle->owner = std::move(owner);
    *out = handle.release();
    return SWARM_OK;
  });
}

void swarm_dlpack_delete(DLManagedTensor* managed) {
  if (managed != nullptr && managed->deleter != nullptr) managed->deleter(managed);
}

}  // extern "C"
