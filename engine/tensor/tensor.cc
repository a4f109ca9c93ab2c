#include "swarm/tensor/tensor.h"

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "swarm/core/checked_math.h"
#include "swarm/kernels/base/views.h"

namespace swarm {
namespace {

// Python's slice.indices(): clamps start/stop to the axis and counts the elements.
struct ResolvedSlice {
  int64_t start = 0;
  int64_t count = 0;
};
ResolvedSlice Resolve(const AxisSlice& slice, int64_t extent) {
  const int64_t step = slice.step;
  const int64_t lower = step > 0 ? 0 : -1;
  const int64_t upper = step > 0 ? extent : extent - 1;
  auto clamp_bound = [&](int64_t bound) {
    if (bound < 0) {
      bound = bound < -extent ? lower : bound + extent;  // -extent - 1 .. would underflow below
      return std::max(bound, lower);
    }
    return std::min(bound, upper);
  };
  int64_t start;
  if (slice.start_omitted) {
    start = step > 0 ? lower : upper;
  } else {
    start = clamp_bound(slice.start);
  }
  int64_t stop;
  if (slice.stop == kSliceEnd) {
    stop = step > 0 ? upper : lower;
  } else {
    stop = clamp_bound(slice.stop);
  }
  int64_t count = 0;
  if (step > 0 && start < stop) count = (stop - start - 1) / step + 1;
  if (step < 0 && stop < start) count = (start - stop - 1) / (-step) + 1;
  return {count == 0 ? 0 : start, count};
}

// The number of elements of `shape`, or why it is not a valid shape.
Result<int64_t> ElementCount(std::span<const int64_t> shape) {
  if (shape.size() > kMaxTensorRank) {
    return InvalidArgument("tensor rank " + std::to_string(shape.size()) + " exceeds the maximum " +
                           std::to_string(kMaxTensorRank));
  }
  int64_t count = 1;
  for (size_t axis = 0; axis < shape.size(); ++axis) {
    if (shape[axis] < 0) {
      return InvalidArgument("tensor shape " + ShapeString(shape) + ": axis " +
                             std::to_string(axis) + " has negative extent");
    }
    if (!MultiplyFits(count, shape[axis], &count)) {
      return InvalidArgument("tensor shape " + ShapeString(shape) +
                             " has more elements than fit in 64 bits");
    }
  }
  return count;
}

}  // namespace

size_t DTypeSize(DType dtype) {
  return VisitDType(dtype, [](auto value) { return sizeof(value); });
}

const char* DTypeName(DType dtype) {
  switch (dtype) {
    case DType::kF32:
      return "f32";
    case DType::kF64:
      return "f64";
    case DType::kS8:
      return "s8";
    case DType::kS16:
      return "s16";
    case DType::kS32:
      return "s32";
    case DType::kS64:
      return "s64";
    case DType::kU8:
      return "u8";
    case DType::kU16:
      return "u16";
    case DType::kU32:
      return "u32";
    case DType::kU64:
      return "u64";
    case DType::kC64:
      return "c64";
    case DType::kC128:
      return "c128";
    case DType::kF16:
      return "f16";
    case DType::kBF16:
      return "bf16";
    case DType::kBool:
      return "bool";
  }
  return "?";
}

Result<DType> ParseDType(std::string_view name) {
  for (size_t i = 0; i < kDTypeCount; ++i) {
    const auto dtype = static_cast<DType>(i);
    if (name == DTypeName(dtype)) return dtype;
  }
  return InvalidArgument("unknown dtype '" + std::string(name) +
                         "' (expected f32, f64, s8, s16, s32, s64, u8, u16, u32, u64, c64, "
                         "c128, f16, bf16 or bool)");
}

std::string ShapeString(std::span<const int64_t> shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(shape[i]);
  }
  return out + "]";
}

bool ViewsOverlap(const TensorView& a, const TensorView& b) {
  const TensorView::ByteRange x = a.Footprint();
  const TensorView::ByteRange y = b.Footprint();
  return x.begin != x.end && y.begin != y.end && x.begin < y.end && y.begin < x.end;
}

bool SameView(const TensorView& a, const TensorView& b) {
  if (a.data() != b.data() || a.rank() != b.rank() || a.dtype() != b.dtype()) return false;
  for (size_t axis = 0; axis < a.rank(); ++axis) {
    if (a.shape(axis) != b.shape(axis)) return false;
    if (a.shape(axis) > 1 && a.stride(axis) != b.stride(axis)) return false;
  }
  return true;
}

bool MayOverlapItself(const TensorView& view) {
  if (view.empty()) return false;
  std::array<std::pair<int64_t, int64_t>, kMaxTensorRank> axes{};  // (|stride|, extent)
  size_t count = 0;
  for (size_t axis = 0; axis < view.rank(); ++axis) {
    if (view.shape(axis) <= 1) continue;
    // Insertion by |stride| (at most kMaxTensorRank entries).
    const std::pair<int64_t, int64_t> entry{std::abs(view.stride(axis)), view.shape(axis)};
    size_t at = count++;
    for (; at > 0 && axes[at - 1].first > entry.first; --at) axes[at] = axes[at - 1];
    axes[at] = entry;
  }
  int64_t reach = 0;  // farthest element offset the smaller axes reach
  for (size_t i = 0; i < count; ++i) {
    if (axes[i].first <= reach) return true;
    reach += axes[i].first * (axes[i].second - 1);
  }
  return false;
}

std::string TypeString(DType dtype, std::span<const int64_t> shape) {
  std::string out = DTypeName(dtype);
  for (int64_t extent : shape) {
    out += '[';
    out += std::to_string(extent);
    out += ']';
  }
  return out;
}

Status CheckDType(const TensorView& view, DType expected, std::string_view what) {
  if (view.dtype() == expected) return {};
  return InvalidArgument(std::string(what) + ": expected a " + DTypeName(expected) +
                         " tensor, got " + view.TypeString());
}

Status CheckWritable(const TensorView& view, std::string_view what) {
  if (!view.read_only()) return {};
  return InvalidArgument(std::string(what) + ": the " + view.TypeString() + " view is read-only");
}

Result<TensorView> TensorView::Create(void* data, DType dtype, std::span<const int64_t> shape,
                                      std::span<const int64_t> strides, bool read_only) {
  if (strides.size() != shape.size()) {
    return InvalidArgument("tensor shape " + ShapeString(shape) + " has " +
                           std::to_string(shape.size()) + " axes but " +
                           std::to_string(strides.size()) + " strides were given");
  }
  if (static_cast<size_t>(dtype) >= kDTypeCount) return InvalidArgument("tensor dtype is invalid");
  Result<int64_t> counted = ElementCount(shape);
  if (!counted.ok()) return counted.status();
  const int64_t count = counted.value();
  // The farthest element must be addressable: |stride| * (extent - 1) summed over axes, in bytes.
  // Checked for empty views too, so that slicing and reshaping them cannot overflow either.
  {
    int64_t reach = 0;
    for (size_t axis = 0; axis < shape.size(); ++axis) {
      int64_t axis_reach;
      if (strides[axis] == std::numeric_limits<int64_t>::min() ||
          !MultiplyFits(std::abs(strides[axis]), std::max<int64_t>(shape[axis], 1) - 1,
                        &axis_reach) ||
          !AddFits(reach, axis_reach, &reach)) {
        return InvalidArgument("tensor strides " + ShapeString(strides) + " with shape " +
                               ShapeString(shape) + " reach beyond 64-bit offsets");
      }
    }
    int64_t reach_bytes;
    if (!MultiplyFits(reach, static_cast<int64_t>(DTypeSize(dtype)), &reach_bytes)) {
      return InvalidArgument("tensor strides " + ShapeString(strides) + " with shape " +
                             ShapeString(shape) + " reach beyond 64-bit offsets");
    }
  }
  if (count > 0 && data == nullptr) {
    return InvalidArgument("tensor data is null for a non-empty tensor");
  }
  TensorView view;
  view.data_ = data;
  view.dtype_ = dtype;
  view.rank_ = static_cast<uint8_t>(shape.size());
  view.read_only_ = read_only;
  std::copy(shape.begin(), shape.end(), view.shape_.begin());
  std::copy(strides.begin(), strides.end(), view.strides_.begin());
  return view;
}

Result<TensorView> TensorView::Contiguous(void* data, DType dtype, std::span<const int64_t> shape,
                                          bool read_only) {
  if (Result<int64_t> count = ElementCount(shape); !count.ok()) return count.status();
  // Extents of zero count as one so that strides stay meaningful (numpy does the same).
  std::array<int64_t, kMaxTensorRank> strides{};
  int64_t running = 1;
  for (size_t axis = shape.size(); axis-- > 0;) {
    strides[axis] = running;
    if (!MultiplyFits(running, std::max<int64_t>(shape[axis], 1), &running)) {
      return InvalidArgument("tensor shape " + ShapeString(shape) +
                             " has more elements than fit in 64 bits");
    }
  }
  return Create(data, dtype, shape, {strides.data(), shape.size()}, read_only);
}

int64_t TensorView::size() const {
  int64_t count = 1;
  for (size_t axis = 0; axis < rank_; ++axis) count *= shape_[axis];
  return count;
}

bool TensorView::IsContiguous() const {
  int64_t expected = 1;
  for (size_t axis = rank_; axis-- > 0;) {
    if (shape_[axis] == 0) return true;
    if (shape_[axis] != 1 && strides_[axis] != expected) return false;
    expected *= shape_[axis];
  }
  return true;
}

TensorView::ByteRange TensorView::Footprint() const {
  if (empty()) return {};
  int64_t low = 0;
  int64_t high = 0;
  for (size_t axis = 0; axis < rank_; ++axis) {
    const int64_t reach = strides_[axis] * (shape_[axis] - 1);
    (reach < 0 ? low : high) += reach;
  }
  const auto* base = static_cast<const std::byte*>(data_);
  const auto element = static_cast<int64_t>(element_bytes());
  return {base + low * element, base + (high + 1) * element};
}

Result<TensorView> TensorView::Sliced(std::span<const AxisSlice> slices) const {
  if (slices.size() > rank_) {
    return InvalidArgument("slice has " + std::to_string(slices.size()) + " axes but the " +
                           TypeString() + " view has " + std::to_string(rank_));
  }
  TensorView out = *this;
  int64_t offset = 0;
  for (size_t axis = 0; axis < slices.size(); ++axis) {
    const AxisSlice& slice = slices[axis];
    if (slice.step == 0) {
      return InvalidArgument("slice step is zero on axis " + std::to_string(axis));
    }
    if (slice.step == std::numeric_limits<int64_t>::min()) {
      return InvalidArgument("slice step is out of range on axis " + std::to_string(axis));
    }
    const ResolvedSlice resolved = Resolve(slice, shape_[axis]);
    offset += resolved.start * strides_[axis];
    out.shape_[axis] = resolved.count;
    // Stride times step cannot overflow: the axis's reach was checked at creation and a step
    // beyond the extent yields at most one element, whose stride is then irrelevant.
    out.strides_[axis] = resolved.count > 1 ? strides_[axis] * slice.step : strides_[axis];
  }
  if (out.size() > 0) {
    out.data_ = static_cast<std::byte*>(data_) + offset * static_cast<int64_t>(element_bytes());
  }
  return out;
}

Result<TensorView> TensorView::Permuted(std::span<const size_t> axes) const {
  if (axes.size() != rank_) {
    return InvalidArgument("permutation has " + std::to_string(axes.size()) + " axes but the " +
                           TypeString() + " view has " + std::to_string(rank_));
  }
  std::array<bool, kMaxTensorRank> seen{};
  TensorView out = *this;
  for (size_t i = 0; i < axes.size(); ++i) {
    if (axes[i] >= rank_ || seen[axes[i]]) {
      return InvalidArgument("axes are not a permutation of 0.." + std::to_string(rank_ - 1) +
                             ": entry " + std::to_string(i) + " is " + std::to_string(axes[i]));
    }
    seen[axes[i]] = true;
    out.shape_[i] = shape_[axes[i]];
    out.strides_[i] = strides_[axes[i]];
  }
  return out;
}

TensorView TensorView::Transposed() const {
  TensorView out = *this;
  std::reverse(out.shape_.begin(), out.shape_.begin() + rank_);
  std::reverse(out.strides_.begin(), out.strides_.begin() + rank_);
  return out;
}

// numpy's _attempt_nocopy_reshape: walk old and new axes together, grouping runs whose element
// counts match; a group of old axes can become any new axes only if it is contiguous within
// itself (each stride equals the next one times its extent).
Result<TensorView> TensorView::Reshaped(std::span<const int64_t> requested) const {
  if (requested.size() > kMaxTensorRank) {
    return InvalidArgument("reshape to rank " + std::to_string(requested.size()) +
                           " exceeds the maximum " + std::to_string(kMaxTensorRank));
  }
  std::array<int64_t, kMaxTensorRank> new_shape{};
  const size_t new_rank = requested.size();
  int64_t known = 1;
  int64_t inferred_axis = -1;
  for (size_t i = 0; i < new_rank; ++i) {
    if (requested[i] == -1) {
      if (inferred_axis >= 0) return InvalidArgument("reshape: more than one axis is -1");
      inferred_axis = static_cast<int64_t>(i);
      continue;
    }
    if (requested[i] < 0) {
      return InvalidArgument("reshape: axis " + std::to_string(i) + " has negative extent " +
                             std::to_string(requested[i]));
    }
    if (!MultiplyFits(known, requested[i], &known)) {
      return InvalidArgument("reshape: shape " + ShapeString(requested) + " is too large");
    }
    new_shape[i] = requested[i];
  }
  const int64_t count = size();
  if (inferred_axis >= 0) {
    if (known == 0 || count % known != 0) {
      return InvalidArgument("cannot reshape " + TypeString() + " (" + std::to_string(count) +
                             " elements) into " + ShapeString(requested));
    }
    new_shape[inferred_axis] = count / known;
    known = count;
  }
  if (known != count) {
    return InvalidArgument("cannot reshape " + TypeString() + " (" + std::to_string(count) +
                           " elements) into " + ShapeString(requested) + " (" +
                           std::to_string(known) + " elements)");
  }
  TensorView out = *this;
  out.rank_ = static_cast<uint8_t>(new_rank);
  std::copy(new_shape.begin(), new_shape.begin() + new_rank, out.shape_.begin());
  if (count == 0) {
    // Any strides address nothing; use C order (zero extents counting as one, as numpy does).
    int64_t running = 1;
    for (size_t axis = new_rank; axis-- > 0;) {
      out.strides_[axis] = running;
      if (!MultiplyFits(running, std::max<int64_t>(new_shape[axis], 1), &running)) {
        return InvalidArgument("reshape: shape " + ShapeString(requested) +
                               " has strides beyond 64 bits (zero extents count as one)");
      }
    }
    return out;
  }
  // Old axes without the size-1 ones (their strides mean nothing).
  std::array<int64_t, kMaxTensorRank> old_shape{};
  std::array<int64_t, kMaxTensorRank> old_strides{};
  size_t old_rank = 0;
  for (size_t axis = 0; axis < rank_; ++axis) {
    if (shape_[axis] != 1) {
      old_shape[old_rank] = shape_[axis];
      old_strides[old_rank] = strides_[axis];
      ++old_rank;
    }
  }
  size_t old_begin = 0;
  size_t new_begin = 0;
  while (old_begin < old_rank && new_begin < new_rank) {
    size_t old_end = old_begin + 1;
    size_t new_end = new_begin + 1;
    int64_t old_count = old_shape[old_begin];
    int64_t new_count = new_shape[new_begin];
    while (old_count != new_count) {
      if (new_count < old_count) {
        new_count *= new_shape[new_end++];
      } else {
        old_count *= old_shape[old_end++];
      }
    }
    for (size_t axis = old_begin; axis + 1 < old_end; ++axis) {
      if (old_strides[axis] != old_strides[axis + 1] * old_shape[axis + 1]) {
        return InvalidArgument("cannot reshape " + TypeString() + " with strides " +
                               ShapeString(strides()) + " into " + ShapeString(requested) +
                               " without a copy: axes " + std::to_string(axis) + " and " +
                               std::to_string(axis + 1) +
                               " of the non-unit axes are not contiguous with each other (copy "
                               "the view first)");
      }
    }
    out.strides_[new_end - 1] = old_strides[old_end - 1];
    for (size_t axis = new_end - 1; axis > new_begin; --axis) {
      out.strides_[axis - 1] = out.strides_[axis] * new_shape[axis];
    }
    old_begin = old_end;
    new_begin = new_end;
  }
  // Trailing new axes of extent 1 (the loop above ends when the old axes run out).
  const int64_t last_stride = new_begin > 0 ? out.strides_[new_begin - 1] : 1;
  for (size_t axis = new_begin; axis < new_rank; ++axis) out.strides_[axis] = last_stride;
  return out;
}

TensorView TensorView::ReadOnly() const {
  TensorView out = *this;
  out.read_only_ = true;
  return out;
}

std::byte* TensorView::ElementAddress(const int64_t* index) const {
  int64_t offset = 0;
  for (size_t axis = 0; axis < rank_; ++axis) offset += index[axis] * strides_[axis];
  return static_cast<std::byte*>(data_) + offset * static_cast<int64_t>(element_bytes());
}

Result<const void*> TensorView::ElementPointer(std::span<const int64_t> index) const {
  if (index.size() != rank_) {
    return InvalidArgument("index " + ShapeString(index) + " has " + std::to_string(index.size()) +
                           " entries but the " + TypeString() + " view has " +
                           std::to_string(rank_) + " axes");
  }
  for (size_t axis = 0; axis < rank_; ++axis) {
    if (index[axis] < 0 || index[axis] >= shape_[axis]) {
      return InvalidArgument("index " + ShapeString(index) + " is out of bounds for " +
                             TypeString() + " on axis " + std::to_string(axis));
    }
  }
  return static_cast<const void*>(ElementAddress(index.data()));
}

std::string TensorView::TypeString() const { return swarm::TypeString(dtype_, shape()); }

Result<Tensor> Tensor::Create(MemoryAccountant& accountant, DType dtype,
                              std::span<const int64_t> shape, MemoryCategory category,
                              MemoryOrder order) {
  if (static_cast<size_t>(dtype) >= kDTypeCount) return InvalidArgument("tensor dtype is invalid");
  Result<int64_t> count = ElementCount(shape);
  if (!count.ok()) return count.status();
  int64_t bytes;
  if (!MultiplyFits(count.value(), static_cast<int64_t>(DTypeSize(dtype)), &bytes)) {
    return InvalidArgument("tensor " + std::string(DTypeName(dtype)) + ShapeString(shape) +
                           " needs more bytes than fit in 64 bits");
  }
  // Strides count zero extents as one (as numpy does), so they can overflow where the element
  // count, zero, does not; the views below would then fail after the allocation.
  int64_t stride_span = 1;
  for (int64_t extent : shape) {
    if (!MultiplyFits(stride_span, std::max<int64_t>(extent, 1), &stride_span)) {
      return InvalidArgument("tensor shape " + ShapeString(shape) +
                             " has strides beyond 64 bits (zero extents count as one)");
    }
  }
  const size_t allocated = std::max<size_t>(static_cast<size_t>(bytes), kAlignBytes);
  Result<void*> memory = accountant.Allocate(category, allocated);
  if (!memory.ok()) return memory.status();
  Tensor tensor;
  tensor.accountant_ = &accountant;
  tensor.category_ = category;
  tensor.memory_ = memory.value();
  tensor.bytes_ = allocated;
  if (order == MemoryOrder::kC) {
    tensor.view_ = TensorView::Contiguous(tensor.memory_, dtype, shape).value();
  } else {
    // Fortran order is C order of the reversed shape, seen through a transposition.
    std::array<int64_t, kMaxTensorRank> reversed{};
    std::reverse_copy(shape.begin(), shape.end(), reversed.begin());
    tensor.view_ = TensorView::Contiguous(tensor.memory_, dtype, {reversed.data(), shape.size()})
                       .value()
                       .Transposed();
  }
  return tensor;
}

Tensor::Tensor(Tensor&& other) noexcept { *this = std::move(other); }

Tensor& Tensor::operator=(Tensor&& other) noexcept {
  if (this != &other) {
    Release();
    accountant_ = std::exchange(other.accountant_, nullptr);
    category_ = other.category_;
    memory_ = std::exchange(other.memory_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
    view_ = std::exchange(other.view_, TensorView());
  }
  return *this;
}

Tensor::~Tensor() { Release(); }

void Tensor::Release() {
  if (memory_ != nullptr) accountant_->Free(category_, memory_, bytes_);
  memory_ = nullptr;
  bytes_ = 0;
}

}  // namespace swarm
