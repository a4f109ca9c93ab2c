// C API: new views of a view (slice, permute, reshape), copies and casts, and printing.
#include <algorithm>
#include <array>
#include <span>
#include <string>

#include "engine/c_api/c_api_internal.h"
#include "swarm/tensor/tensor_copy.h"
#include "swarm/tensor/tensor_format.h"

namespace swarm::c_api {
namespace {

// A view derived from `tensor` shares its owner.
swarm_status Derived(const char* function, swarm_tensor tensor, Result<TensorView> view,
                     swarm_tensor* out) {
  if (!view.ok()) return Report(function, view.status());
  return NewTensor(view.value(), tensor->owner, out);
}

swarm_status CopyToBuffer(const char* function, swarm_context context, swarm_tensor src,
                          const swarm_dtype* dtype, swarm_buffer* out) {
  return Guarded(function, [&]() -> swarm_status {
    if (context == nullptr) return NullArgument(function, "context");
    if (src == nullptr) return NullArgument(function, "src");
    if (out == nullptr) return NullArgument(function, "out");
    DType target = src->view.dtype();
    if (dtype != nullptr) {
      Result<DType> checked = ToDType(*dtype);
      if (!checked.ok()) return Report(function, checked.status());
      target = checked.value();
    }
    const std::shared_ptr<swarm::c_api::ContextState> state = swarm::c_api::HoldContext(context);
    Result<Tensor> copy = Copy(state->memory, src->view, target);
    if (!copy.ok()) return Report(function, copy.status());
    return NewBuffer(state, Storage(std::move(copy).value()), out);
  });
}

}  // namespace
}  // namespace swarm::c_api

using swarm::AxisSlice;
using swarm::kMaxTensorRank;
using swarm::kSliceEnd;
using swarm::TensorFormatOptions;
using swarm::TensorView;
using swarm::c_api::CopyToBuffer;
using swarm::c_api::Derived;
using swarm::c_api::Fail;
using swarm::c_api::Guarded;
using swarm::c_api::NullArgument;
using swarm::c_api::Report;
using swarm::c_api::WriteText;

extern "C" {

swarm_status swarm_tensor_slice(swarm_tensor tensor, const swarm_slice* slices, size_t count,
                                swarm_tensor* out) {
  constexpr const char* kFunction = "swarm_tensor_slice";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (tensor == nullptr) return NullArgument(kFunction, "tensor");
    if (slices == nullptr && count > 0) return NullArgument(kFunction, "slices");
    if (out == nullptr) return NullArgument(kFunction, "out");
    // More slices than axes is reported by Sliced; more than the maximum rank cannot fit here.
    if (count > kMaxTensorRank) {
      return Fail(SWARM_INVALID_ARGUMENT, std::string(kFunction) + ": " + std::to_string(count) +
                                              " slices exceed the maximum rank " +
                                              std::to_string(kMaxTensorRank));
    }
    std::array<AxisSlice, kMaxTensorRank> axes{};
    for (size_t i = 0; i < count; ++i) {
      const swarm_slice& slice = slices[i];
      axes[i].step = slice.step == 0 ? 1 : slice.step;
      axes[i].start_omitted = !slice.has_start;
      axes[i].start = slice.has_start ? slice.start : 0;
      // An explicit stop of INT64_MAX would read as kSliceEnd ("omitted"); any stop past the
      // axis clamps alike, so INT64_MAX - 1 means the same.
      axes[i].stop = !slice.has_stop ? kSliceEnd : std::min(slice.stop, kSliceEnd - 1);
    }
    return Derived(kFunction, tensor,
                   tensor->view.Sliced(std::span<const AxisSlice>(axes.data(), count)), out);
  });
}

swarm_status swarm_tensor_permute(swarm_tensor tensor, const size_t* axes, size_t count,
                                  swarm_tensor* out) {
  constexpr const char* kFunction = "swarm_tensor_permute";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (tensor == nullptr) return NullArgument(kFunction, "tensor");
    if (axes == nullptr && count > 0) return NullArgument(kFunction, "axes");
    if (out == nullptr) return NullArgument(kFunction, "out");
    return Derived(kFunction, tensor, tensor->view.Permuted(std::span<const size_t>(axes, count)),
                   out);
  });
}

swarm_status swarm_tensor_transpose(swarm_tensor tensor, swarm_tensor* out) {
  constexpr const char* kFunction = "swarm_tensor_transpose";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (tensor == nullptr) return NullArgument(kFunction, "tensor");
    if (out == nullptr) return NullArgument(kFunction, "out");
    return Derived(kFunction, tensor, tensor->view.Transposed(), out);
  });
}

swarm_status swarm_tensor_reshape(swarm_tensor tensor, const int64_t* shape, size_t rank,
                                  swarm_tensor* out) {
  constexpr const char* kFunction = "swarm_tensor_reshape";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (tensor == nullptr) return NullArgument(kFunction, "tensor");
    if (shape == nullptr && rank > 0) return NullArgument(kFunction, "shape");
    if (out == nullptr) return NullArgument(kFunction, "out");
    return Derived(kFunction, tensor, tensor->view.Reshaped(std::span<const int64_t>(shape, rank)),
                   out);
  });
}

swarm_status swarm_tensor_read_only(swarm_tensor tensor, swarm_tensor* out) {
  constexpr const char* kFunction = "swarm_tensor_read_only";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (tensor == nullptr) return NullArgument(kFunction, "tensor");
    if (out == nullptr) return NullArgument(kFunction, "out");
    return Derived(kFunction, tensor, tensor->view.ReadOnly(), out);
  });
}

swarm_status swarm_tensor_copy_into(swarm_tensor src, swarm_tensor dst) {
  constexpr const char* kFunction = "swarm_tensor_copy_into";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (src == nullptr) return NullArgument(kFunction, "src");
    if (dst == nullptr) return NullArgument(kFunction, "dst");
    return Report(kFunction, swarm::CopyInto(src->view, dst->view));
  });
}

swarm_status swarm_tensor_copy(swarm_context context, swarm_tensor src, swarm_buffer* out) {
  return CopyToBuffer("swarm_tensor_copy", context, src, nullptr, out);
}

swarm_status swarm_tensor_cast(swarm_context context, swarm_tensor src, swarm_dtype dtype,
                               swarm_buffer* out) {
  return CopyToBuffer("swarm_tensor_cast", context, src, &dtype, out);
}

swarm_status swarm_tensor_format(swarm_tensor tensor, const swarm_format_desc* desc, char* text,
                                 size_t capacity, size_t* length) {
  constexpr const char* kFunction = "swarm_tensor_format";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (tensor == nullptr) return NullArgument(kFunction, "tensor");
    TensorFormatOptions options;
    if (desc != nullptr && desc->limit != 0) options.limit = desc->limit;
    if (desc != nullptr && desc->edge_items != 0) options.edge_items = desc->edge_items;
    return WriteText(kFunction, swarm::FormatTensor(tensor->view, options), text, capacity, length);
  });
}

}  // extern "C"
