// Tensor views: any swarm buffer seen as an N-d typed array without copying, in the model shared
// by numpy, DLPack and Nx: a data pointer, a dtype, a shape and strides counted in elements (not
// bytes; they may be zero for broadcasting or negative after a reversing slice). A view never
// owns memory; `Tensor` is the owning, contiguous (C order) counterpart, accounted under
// MemoryCategory::kTensors.
//
//   Result<Vec4Buffer> positions = Vec4Buffer::Create(memory, 1000);
//   TensorView all = TensorOf(*positions);            // f32[1000][4], strides [1, 1008]
//   TensorView ys = all.Sliced({{}, {1, 2}}).value(); // f32[1000][1]
//   TensorView every_other = all.Sliced({{0, kSliceEnd, 2}}).value();
//
// Every operation that takes shapes, indices or axes from a caller validates them and returns a
// Status naming the axis and the values; nothing here reads or writes element data except At/Set.
// Views stay valid as long as the buffer they came from is neither resized, moved nor destroyed.
#pragma once

#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <span>
#include <string>
#include <string_view>

#include "swarm/core/memory.h"
#include "swarm/core/status.h"
#include "swarm/kernels/tensor/small_floats.h"

namespace swarm {

// Element types, named as Nx names them (f32, s64, c64...). c64 is std::complex<float>; f16, bf16
// and bool are stored as Float16, BFloat16 and Bool (swarm/kernels/tensor/small_floats.h) and
// computed with as f32.
enum class DType : uint8_t {
  kF32,
  kF64,
  kS8,
  kS16,
  kS32,
  kS64,
  kU8,
  kU16,
  kU32,
  kU64,
  kC64,
  kC128,
  kF16,
  kBF16,
  kBool,
};
inline constexpr size_t kDTypeCount = 15;

size_t DTypeSize(DType dtype);
// "f32", "s64", "c64", ...
const char* DTypeName(DType dtype);
// Parses a name DTypeName returns.
Result<DType> ParseDType(std::string_view name);

template <typename T>
constexpr DType DTypeOf();
template <>
constexpr DType DTypeOf<float>() {
  return DType::kF32;
}
template <>
constexpr DType DTypeOf<double>() {
  return DType::kF64;
}
template <>
constexpr DType DTypeOf<int8_t>() {
  return DType::kS8;
}
template <>
constexpr DType DTypeOf<int16_t>() {
  return DType::kS16;
}
template <>
constexpr DType DTypeOf<int32_t>() {
  return DType::kS32;
}
template <>
constexpr DType DTypeOf<int64_t>() {
  return DType::kS64;
}
template <>
constexpr DType DTypeOf<uint8_t>() {
  return DType::kU8;
}
template <>
constexpr DType DTypeOf<uint16_t>() {
  return DType::kU16;
}
template <>
constexpr DType DTypeOf<uint32_t>() {
  return DType::kU32;
}
template <>
constexpr DType DTypeOf<uint64_t>() {
  return DType::kU64;
}
template <>
constexpr DType DTypeOf<std::complex<float>>() {
  return DType::kC64;
}
template <>
constexpr DType DTypeOf<std::complex<double>>() {
  return DType::kC128;
}
template <>
constexpr DType DTypeOf<Float16>() {
  return DType::kF16;
}
template <>
constexpr DType DTypeOf<BFloat16>() {
  return DType::kBF16;
}
template <>
constexpr DType DTypeOf<Bool>() {
  return DType::kBool;
}

// Calls f(T{}) with the C++ type of `dtype` (a generic lambda picks it up with decltype).
template <typename F>
decltype(auto) VisitDType(DType dtype, F&& f) {
  switch (dtype) {
    case DType::kF32:
      return f(float{});
    case DType::kF64:
      return f(double{});
    case DType::kS8:
      return f(int8_t{});
    case DType::kS16:
      return f(int16_t{});
    case DType::kS32:
      return f(int32_t{});
    case DType::kS64:
      return f(int64_t{});
    case DType::kU8:
      return f(uint8_t{});
    case DType::kU16:
      return f(uint16_t{});
    case DType::kU32:
      return f(uint32_t{});
    case DType::kU64:
      return f(uint64_t{});
    case DType::kC64:
      return f(std::complex<float>{});
    case DType::kC128:
      return f(std::complex<double>{});
    case DType::kF16:
      return f(Float16{});
    case DType::kBF16:
      return f(BFloat16{});
    case DType::kBool:
      return f(Bool{});
  }
  SWARM_ASSERT(false);
  return f(float{});
}

// numpy, DLPack and Nx all allow more; 8 covers [batch, camera, height, width, channel] with room.
inline constexpr size_t kMaxTensorRank = 8;

// One axis of a slice, with Python's semantics: negative start/stop count from the end, out of
// range bounds clamp, step may be negative (never zero). kSliceEnd means "to the end" in the
// direction of the step (the omitted bound of `a[::-1]`); an explicit stop past the axis is
// written as any value below kSliceEnd (they all clamp alike).
inline constexpr int64_t kSliceEnd = std::numeric_limits<int64_t>::max();
struct AxisSlice {
  int64_t start = 0;
  int64_t stop = kSliceEnd;
  int64_t step = 1;
  // `a[::-1]`-style omitted start: the first element in the step's direction.
  bool start_omitted = false;
};

class TensorView {
 public:
  TensorView() = default;

  // Validates rank <= kMaxTensorRank, shape entries >= 0, a non-null pointer unless the view is
  // empty, and that the element count fits int64.
  static Result<TensorView> Create(void* data, DType dtype, std::span<const int64_t> shape,
                                   std::span<const int64_t> strides, bool read_only = false);
  static Result<TensorView> Create(const void* data, DType dtype, std::span<const int64_t> shape,
                                   std::span<const int64_t> strides) {
    return Create(const_cast<void*>(data), dtype, shape, strides, /*read_only=*/true);
  }
  // Contiguous C-order strides for `shape`.
  static Result<TensorView> Contiguous(void* data, DType dtype, std::span<const int64_t> shape,
                                       bool read_only = false);

  void* data() const { return data_; }
  DType dtype() const { return dtype_; }
  size_t element_bytes() const { return DTypeSize(dtype_); }
  size_t rank() const { return rank_; }
  std::span<const int64_t> shape() const { return {shape_.data(), rank_}; }
  std::span<const int64_t> strides() const { return {strides_.data(), rank_}; }
  int64_t shape(size_t axis) const { return shape_[axis]; }
  int64_t stride(size_t axis) const { return strides_[axis]; }
  bool read_only() const { return read_only_; }
  // Number of elements (1 for rank 0).
  int64_t size() const;
  bool empty() const { return size() == 0; }
  // C order with no gaps: strides are the running products of the shape (size-1 axes ignored).
  bool IsContiguous() const;
  // Byte range [lowest, highest + element) that the view's elements occupy (empty view: 0 bytes).
  struct ByteRange {
    const std::byte* begin = nullptr;
    const std::byte* end = nullptr;
  };
  ByteRange Footprint() const;

  // New views of the same elements; the view itself is unchanged.
  //
  // One AxisSlice per leading axis; axes past the list are kept whole.
  Result<TensorView> Sliced(std::span<const AxisSlice> slices) const;
  Result<TensorView> Sliced(std::initializer_list<AxisSlice> slices) const {
    return Sliced(std::span<const AxisSlice>(slices.begin(), slices.size()));
  }
  // Axis i of the result is axis axes[i] of this view; `axes` must be a permutation of 0..rank-1.
  Result<TensorView> Permuted(std::span<const size_t> axes) const;
  // Reverses the axes (numpy's .T).
  TensorView Transposed() const;
  // Same elements in C order under a new shape (one entry may be -1: inferred). Fails, saying
  // which axes could not be merged, where the strides cannot express it without a copy.
  Result<TensorView> Reshaped(std::span<const int64_t> shape) const;
  Result<TensorView> Reshaped(std::initializer_list<int64_t> shape) const {
    return Reshaped(std::span<const int64_t>(shape.begin(), shape.size()));
  }
  TensorView ReadOnly() const;

  // Checked element access: the index must have rank() entries, each in [0, shape), and T must
  // be the dtype's C++ type. Set fails on a read-only view.
  Result<const void*> ElementPointer(std::span<const int64_t> index) const;
  template <typename T>
  Result<T> At(std::span<const int64_t> index) const;
  template <typename T>
  Result<T> At(std::initializer_list<int64_t> index) const {
    return At<T>(std::span<const int64_t>(index.begin(), index.size()));
  }
  template <typename T>
  Status Set(std::span<const int64_t> index, T value) const;
  template <typename T>
  Status Set(std::initializer_list<int64_t> index, T value) const {
    return Set<T>(std::span<const int64_t>(index.begin(), index.size()), value);
  }

  // Unchecked: pointer to the element at `index` (rank() entries, each in range).
  std::byte* ElementAddress(const int64_t* index) const;

  // "f32[512][4]": the dtype and the extents, as Nx prints a tensor type.
  std::string TypeString() const;

 private:
  void* data_ = nullptr;
  DType dtype_ = DType::kF32;
  uint8_t rank_ = 0;
  bool read_only_ = false;
  std::array<int64_t, kMaxTensorRank> shape_{};
  std::array<int64_t, kMaxTensorRank> strides_{};
};

// Fails with a message naming `what` unless the view has dtype `expected`.
Status CheckDType(const TensorView& view, DType expected, std::string_view what);
// Fails unless the view may be written.
Status CheckWritable(const TensorView& view, std::string_view what);
// "[512, 4]"
std::string ShapeString(std::span<const int64_t> shape);
// "f32[512][4]", as Nx prints a tensor type (TensorView::TypeString for a view).
std::string TypeString(DType dtype, std::span<const int64_t> shape);

// Layout relations that decide whether a write through one view may clobber another.
//
// True if the two views' byte footprints intersect (empty views intersect nothing).
bool ViewsOverlap(const TensorView& a, const TensorView& b);
// Same data, dtype, shape and strides (strides of extent-1 axes address nothing and are ignored):
// writing one in place of the other is an in-place operation.
bool SameView(const TensorView& a, const TensorView& b);
// True unless the view's elements are provably distinct: with the axes of extent > 1 sorted by
// |stride|, each stride must step past everything the smaller axes reach. Broadcast (stride 0)
// views fail, and so do the rare layouts that interleave axes without collisions; both are
// refused as destinations of writes.
bool MayOverlapItself(const TensorView& view);

// Element order of an owning tensor: C (last axis contiguous) or Fortran (first axis contiguous,
// as .npy files with fortran_order and column-major tools write them).
enum class MemoryOrder : uint8_t { kC, kFortran };

// An owning tensor without gaps, accounted under MemoryCategory::kTensors (or the category given).
// Contents start zeroed. Move-only.
class Tensor {
 public:
  static Result<Tensor> Create(MemoryAccountant& accountant, DType dtype,
                               std::span<const int64_t> shape,
                               MemoryCategory category = MemoryCategory::kTensors,
                               MemoryOrder order = MemoryOrder::kC);
  static Result<Tensor> Create(MemoryAccountant& accountant, DType dtype,
                               std::initializer_list<int64_t> shape,
                               MemoryCategory category = MemoryCategory::kTensors,
                               MemoryOrder order = MemoryOrder::kC) {
    return Create(accountant, dtype, std::span<const int64_t>(shape.begin(), shape.size()),
                  category, order);
  }
  Tensor() = default;
  Tensor(Tensor&& other) noexcept;
  Tensor& operator=(Tensor&& other) noexcept;
  Tensor(const Tensor&) = delete;
  Tensor& operator=(const Tensor&) = delete;
  ~Tensor();

  TensorView view() { return view_; }
  TensorView view() const { return view_.ReadOnly(); }
  size_t bytes() const { return bytes_; }

 private:
  void Release();
  MemoryAccountant* accountant_ = nullptr;
  MemoryCategory category_ = MemoryCategory::kTensors;
  void* memory_ = nullptr;
  size_t bytes_ = 0;  // as allocated (at least one vector, so empty tensors have a valid pointer)
  TensorView view_;
};

// --- template definitions ---

template <typename T>
Result<T> TensorView::At(std::span<const int64_t> index) const {
  if (Status s = CheckDType(*this, DTypeOf<T>(), "At"); !s.ok()) return s;
  Result<const void*> p = ElementPointer(index);
  if (!p.ok()) return p.status();
  T value;
  std::memcpy(&value, p.value(), sizeof(T));
  return value;
}

template <typename T>
Status TensorView::Set(std::span<const int64_t> index, T value) const {
  if (Status s = CheckDType(*this, DTypeOf<T>(), "Set"); !s.ok()) return s;
  if (Status s = CheckWritable(*this, "Set"); !s.ok()) return s;
  Result<const void*> p = ElementPointer(index);
  if (!p.ok()) return p.status();
  std::memcpy(const_cast<void*>(p.value()), &value, sizeof(T));
  return {};
}

}  // namespace swarm
