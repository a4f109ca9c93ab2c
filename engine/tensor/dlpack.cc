#include "swarm/tensor/dlpack.h"

#include <array>
#include <cstdint>
#include <limits>
#include <new>
#include <string>
#include <utility>

namespace swarm {
namespace {

// Everything an exported tensor needs, in one allocation that the deleter frees: DLTensor points
// its shape and strides into this block, and manager_ctx points back at it.
struct ExportBlock {
  DLManagedTensor managed{};
  std::array<int64_t, kMaxTensorRank> shape{};
  std::array<int64_t, kMaxTensorRank> strides{};
  std::shared_ptr<const void> keep_alive;
};

void DeleteExportBlock(DLManagedTensor* managed) {
  // Destroying the block releases keep_alive last, after DLPack's metadata is gone.
  delete static_cast<ExportBlock*>(managed->manager_ctx);
}

// DLPack 0.8's code for booleans (one byte each); Debian's header (DLPack 0.6) predates it.
constexpr uint8_t kDLBoolCode = 6;

DLDataType DlpackDType(DType dtype) {
  uint8_t code = kDLFloat;
  switch (dtype) {
    case DType::kF32:
    case DType::kF64:
    case DType::kF16:
      code = kDLFloat;
      break;
    case DType::kBF16:
      code = kDLBfloat;
      break;
    case DType::kBool:
      code = kDLBoolCode;
      break;
    case DType::kS8:
    case DType::kS16:
    case DType::kS32:
    case DType::kS64:
      code = kDLInt;
      break;
    case DType::kU8:
    case DType::kU16:
    case DType::kU32:
    case DType::kU64:
      code = kDLUInt;
      break;
    case DType::kC64:
    case DType::kC128:
      code = kDLComplex;
      break;
  }
  return {code, static_cast<uint8_t>(8 * DTypeSize(dtype)), 1};
}

const char* DlpackCodeName(uint8_t code) {
  switch (code) {
    case kDLInt:
      return "int";
    case kDLUInt:
      return "uint";
    case kDLFloat:
      return "float";
    case kDLOpaqueHandle:
      return "opaque handle";
    case kDLBfloat:
      return "bfloat";
    case kDLComplex:
      return "complex";
    case kDLBoolCode:
      return "bool";
    default:
      return "unknown code";
  }
}

Result<DType> SwarmDType(const DLDataType& dl) {
  const std::string described = std::string(DlpackCodeName(dl.code)) + " (code " +
                                std::to_string(dl.code) + ") of " + std::to_string(dl.bits) +
                                " bits";
  if (dl.lanes != 1) {
    return InvalidArgument("ImportDlpack: dtype " + described + " has " + std::to_string(dl.lanes) +
                           " lanes; swarm imports only scalar elements (lanes 1)");
  }
  for (size_t i = 0; i < kDTypeCount; ++i) {
    const auto dtype = static_cast<DType>(i);
    const DLDataType candidate = DlpackDType(dtype);
    if (candidate.code == dl.code && candidate.bits == dl.bits) return dtype;
  }
  return InvalidArgument("ImportDlpack: dtype " + described +
                         " is not supported (expected float 16/32/64, bfloat 16, int or uint "
                         "8/16/32/64, complex 64/128, bool 8)");
}

const char* DeviceName(DLDeviceType type) {
  switch (type) {
    case kDLCPU:
      return "CPU";
    case kDLCUDA:
      return "CUDA";
    case kDLCUDAHost:
      return "CUDAHost";
    case kDLOpenCL:
      return "OpenCL";
    case kDLVulkan:
      return "Vulkan";
    case kDLMetal:
      return "Metal";
    case kDLVPI:
      return "VPI";
    case kDLROCM:
      return "ROCM";
    case kDLROCMHost:
      return "ROCMHost";
    case kDLExtDev:
      return "ExtDev";
    case kDLCUDAManaged:
      return "CUDAManaged";
  }
  return "unknown";
}

Status Prefixed(const Status& status) {
  return InvalidArgument("ImportDlpack: " + status.message());
}

// Fails unless every element of `view` lies inside the address space: the reach below and above
// data, in bytes (each fits int64, TensorView::Create checked their sum), must not wrap around.
Status CheckAddressRange(const TensorView& view) {
  if (view.empty()) return {};
  uint64_t below = 0;
  uint64_t above = 0;
  for (size_t axis = 0; axis < view.rank(); ++axis) {
    const int64_t reach = view.stride(axis) * (view.shape(axis) - 1);
    if (reach < 0) {
      below += static_cast<uint64_t>(-reach);
    } else {
      above += static_cast<uint64_t>(reach);
    }
  }
  const uint64_t element = view.element_bytes();
  const auto address = reinterpret_cast<uintptr_t>(view.data());
  if (below * element > address ||
      above * element + element - 1 > std::numeric_limits<uintptr_t>::max() - address) {
    return InvalidArgument("ImportDlpack: tensor strides " + ShapeString(view.strides()) +
                           " with shape " + ShapeString(view.shape()) +
                           " reach outside the address space from data " + std::to_string(address));
  }
  return {};
}

// The view `tensor` describes, validated field by field; nothing is called or written.
Result<TensorView> DescribedView(const DLTensor& tensor, bool read_only) {
  if (tensor.device.device_type != kDLCPU && tensor.device.device_type != kDLCUDAHost) {
    return InvalidArgument("ImportDlpack: device " +
                           std::string(DeviceName(tensor.device.device_type)) + " (type " +
                           std::to_string(tensor.device.device_type) +
                           ") is not host memory; swarm imports kDLCPU or kDLCUDAHost tensors");
  }
  if (tensor.ndim < 0 || static_cast<size_t>(tensor.ndim) > kMaxTensorRank) {
    return InvalidArgument("ImportDlpack: ndim " + std::to_string(tensor.ndim) +
                           " is outside [0, " + std::to_string(kMaxTensorRank) + "]");
  }
  const auto rank = static_cast<size_t>(tensor.ndim);
  if (rank > 0 && tensor.shape == nullptr) {
    return InvalidArgument("ImportDlpack: shape is null for a tensor of ndim " +
                           std::to_string(rank));
  }
  Result<DType> dtype = SwarmDType(tensor.dtype);
  if (!dtype.ok()) return dtype.status();
  const std::span<const int64_t> shape(tensor.shape, rank);

  std::byte* data = static_cast<std::byte*>(tensor.data);
  if (tensor.byte_offset != 0) {
    const auto address = reinterpret_cast<uintptr_t>(tensor.data);
    if (data == nullptr || tensor.byte_offset > std::numeric_limits<uintptr_t>::max() - address) {
      return InvalidArgument("ImportDlpack: byte_offset " + std::to_string(tensor.byte_offset) +
                             " added to data " + std::to_string(address) + " is not an address");
    }
    data += tensor.byte_offset;
  }
  Result<TensorView> view =
      tensor.strides == nullptr
          ? TensorView::Contiguous(data, dtype.value(), shape, read_only)
          : TensorView::Create(data, dtype.value(), shape, {tensor.strides, rank}, read_only);
  if (!view.ok()) return Prefixed(view.status());
  const size_t alignment =
      VisitDType(dtype.value(), [](auto value) { return alignof(decltype(value)); });
  if (reinterpret_cast<uintptr_t>(data) % alignment != 0) {
    return InvalidArgument(
        "ImportDlpack: data " + std::to_string(reinterpret_cast<uintptr_t>(data)) +
        " (byte_offset " + std::to_string(tensor.byte_offset) + ") is not a multiple of " +
        std::to_string(alignment) + ", the alignment of " + DTypeName(dtype.value()) + " elements");
  }
  if (Status s = CheckAddressRange(view.value()); !s.ok()) return s;
  return view;
}

}  // namespace

Result<DLManagedTensor*> ExportDlpack(const TensorView& view,
                                      std::shared_ptr<const void> keep_alive) {
  if (view.data() == nullptr && !view.empty()) {
    return InvalidArgument("ExportDlpack: the " + view.TypeString() +
                           " view has no data (a default-constructed view?)");
  }
  auto* block = new (std::nothrow) ExportBlock;
  if (block == nullptr) {
    return Status(ErrorCode::kOutOfMemory, "ExportDlpack: the operating system refused " +
                                               std::to_string(sizeof(ExportBlock)) +
                                               " bytes for the DLPack metadata");
  }
  std::copy(view.shape().begin(), view.shape().end(), block->shape.begin());
  std::copy(view.strides().begin(), view.strides().end(), block->strides.begin());
  block->keep_alive = std::move(keep_alive);
  DLTensor& tensor = block->managed.dl_tensor;
  tensor.data = view.data();
  tensor.device = {kDLCPU, 0};
  tensor.ndim = static_cast<int>(view.rank());
  tensor.dtype = DlpackDType(view.dtype());
  tensor.shape = block->shape.data();
  tensor.strides = block->strides.data();
  tensor.byte_offset = 0;
  block->managed.manager_ctx = block;
  block->managed.deleter = DeleteExportBlock;
  return &block->managed;
}

DlpackTensor::DlpackTensor(DlpackTensor&& other) noexcept { *this = std::move(other); }

DlpackTensor& DlpackTensor::operator=(DlpackTensor&& other) noexcept {
  if (this != &other) {
    Release();
    managed_ = std::exchange(other.managed_, nullptr);
    view_ = std::exchange(other.view_, TensorView());
  }
  return *this;
}

DlpackTensor::~DlpackTensor() { Release(); }

void DlpackTensor::Release() {
  DLManagedTensor* managed = std::exchange(managed_, nullptr);
  view_ = TensorView();
  if (managed != nullptr && managed->deleter != nullptr) managed->deleter(managed);
}

Result<DlpackTensor> ImportDlpack(DLManagedTensor* managed, bool read_only) {
  if (managed == nullptr) return InvalidArgument("ImportDlpack: the DLManagedTensor is null");
  Result<TensorView> view = DescribedView(managed->dl_tensor, read_only);
  if (!view.ok()) return view.status();
  DlpackTensor tensor;
  tensor.managed_ = managed;
  tensor.view_ = view.value();
  return tensor;
}

}  // namespace swarm
