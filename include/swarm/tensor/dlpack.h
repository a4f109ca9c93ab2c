// DLPack (0.6, Debian libdlpack-dev) export and import of tensor views: the exchange format of
// numpy (np.from_dlpack), PyTorch, JAX, CuPy and TVM. A DLPack tensor is the same model as a
// TensorView (data, dtype, shape, strides in elements) plus an owner: a DLManagedTensor carries a
// deleter that the consumer calls exactly once when it no longer needs the memory.
//
//   // Export: numpy keeps the tensor alive through the capsule, whatever swarm drops first.
//   auto owned = std::make_shared<Tensor>(Tensor::Create(memory, DType::kF32, {512, 4}).value());
//   Result<DLManagedTensor*> managed = ExportDlpack(owned->view(), owned);
//   // Import: the view is valid until `imported` is destroyed, which calls the producer's deleter.
//   Result<DlpackTensor> imported = ImportDlpack(managed_from_elsewhere, /*read_only=*/true);
//
// Only CPU memory is exchanged (kDLCPU; kDLCUDAHost, pinned host memory, is accepted on import).
// DLPack 0.6 has no read-only flag: a consumer of an exported read-only view must be trusted not to
// write (numpy 1.24 imports every DLPack tensor read-only), and an importer chooses read_only.
#pragma once

#include <dlpack/dlpack.h>

#include <memory>

#include "swarm/core/status.h"
#include "swarm/tensor/tensor.h"

namespace swarm {

// Describes `view` as a DLManagedTensor on kDLCPU: data is the address of element [0, ..., 0]
// (byte_offset 0, as numpy and PyTorch export CPU tensors), strides are the view's, in elements,
// always explicit and possibly zero or negative; dtypes map to kDLFloat (f16, f32, f64), kDLBfloat
// (bf16), kDLInt, kDLUInt, kDLComplex or DLPack 0.8's kDLBool (code 6, for bool) with bits
// 8 * DTypeSize and lanes 1.
//
// Lifetime: the elements are not copied, so they must stay valid until the consumer calls the
// deleter: either the caller guarantees that, or it passes the owner as `keep_alive` (a
// shared_ptr to a Tensor, a buffer, anything; empty for none), which the managed tensor holds
// until the deleter runs. The deleter must be called exactly once; it frees the managed tensor
// (one heap block of 208 bytes on x86-64: the DLManagedTensor, the shape and strides arrays and the
// keep_alive handle, metadata outside any MemoryAccountant) and then releases `keep_alive`.
//
// Fails, allocating nothing, on a non-empty view with null data (a default-constructed view) and
// when the operating system refuses the small allocation.
Result<DLManagedTensor*> ExportDlpack(const TensorView& view,
                                      std::shared_ptr<const void> keep_alive = {});

// Owns an imported DLManagedTensor: calls its deleter (when it has one) exactly once, on
// destruction or when another DlpackTensor is moved into this one. Move-only.
class DlpackTensor {
 public:
  DlpackTensor() = default;
  DlpackTensor(DlpackTensor&& other) noexcept;
  DlpackTensor& operator=(DlpackTensor&& other) noexcept;
  DlpackTensor(const DlpackTensor&) = delete;
  DlpackTensor& operator=(const DlpackTensor&) = delete;
  ~DlpackTensor();

  // The imported elements; valid while this DlpackTensor lives (empty view once moved from).
  TensorView view() const { return view_; }

 private:
  friend Result<DlpackTensor> ImportDlpack(DLManagedTensor* managed, bool read_only);
  void Release();
  DLManagedTensor* managed_ = nullptr;
  TensorView view_;
};

// Takes a DLPack tensor from another framework as a view, validating everything first: `managed`
// non-null; device kDLCPU or kDLCUDAHost; ndim in [0, kMaxTensorRank]; a dtype swarm has (float
// 32/64, int and uint 8/16/32/64, complex 64/128) with lanes 1; shape non-null (when ndim > 0) with
// extents >= 0; strides NULL (compact row-major, as DLPack defines it) or explicit in elements;
// data (after adding byte_offset) non-null unless the tensor is empty, aligned for the element
// type, and every element's byte address inside the address space.
//
// On success the result owns `managed` and the caller must not call its deleter. On error the
// caller keeps ownership: nothing was called or changed. The message names the offending field.
// Caution: nothing can check that the memory really spans what shape and strides claim.
Result<DlpackTensor> ImportDlpack(DLManagedTensor* managed, bool read_only = false);

}  // namespace swarm
