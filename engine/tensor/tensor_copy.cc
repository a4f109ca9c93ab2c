#include "swarm/tensor/tensor_copy.h"

#include <algorithm>
#include <complex>
#include <cstring>
#include <limits>
#include <type_traits>

namespace swarm {
namespace {

template <typename T>
struct IsComplex : std::false_type {};
template <typename T>
struct IsComplex<std::complex<T>> : std::true_type {};

// Float to integer without undefined behaviour: NaN -> 0, out of range -> the nearest bound,
// otherwise truncation toward zero. The bounds are compared in long double, which holds every
// int64 and uint64 bound exactly.
template <typename To, typename From>
To FloatToInteger(From value) {
  if (value != value) return To{0};
  const auto wide = static_cast<long double>(value);
  if (wide <= static_cast<long double>(std::numeric_limits<To>::lowest())) {
    return std::numeric_limits<To>::lowest();
  }
  if (wide >= static_cast<long double>(std::numeric_limits<To>::max())) {
    return std::numeric_limits<To>::max();
  }
  return static_cast<To>(value);
}

template <typename To, typename From>
To CastReal(From value) {
  if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
    return FloatToInteger<To>(value);
  } else {
    // Integer -> integer wraps modulo 2^bits (C++20), anything -> float rounds.
    return static_cast<To>(value);
  }
}

// Float16, BFloat16 and Bool take part as the value they hold (Float16 and BFloat16 as f32, Bool
// as 0 or 1), and are made from a value as their conversions define (small_floats.h): rounded
// once from the source value (a double holds every other real source exactly, except 64-bit
// integers beyond 2^53, which round to the nearest double first).
template <typename T>
constexpr bool kIsSmall =
    std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16> || std::is_same_v<T, Bool>;

template <typename To, typename From>
To Cast(From value);

template <typename To, typename From>
To CastSmall(From value) {
  if constexpr (kIsSmall<From>) {
    if constexpr (std::is_same_v<From, Bool>) {
      return Cast<To>(static_cast<uint8_t>(value.byte != 0 ? 1 : 0));
    } else {
      return Cast<To>(ToFloat(value));
    }
  } else if constexpr (IsComplex<From>::value) {
    return CastSmall<To>(value.real());
  } else if constexpr (std::is_same_v<To, Float16>) {
    return ToFloat16(static_cast<double>(value));
  } else if constexpr (std::is_same_v<To, BFloat16>) {
    return ToBFloat16(static_cast<double>(value));
  } else {
    return ToBool(static_cast<double>(value));
  }
}

template <typename To, typename From>
To Cast(From value) {
  if constexpr (kIsSmall<To> || kIsSmall<From>) {
    return CastSmall<To>(value);
  } else if constexpr (IsComplex<To>::value && IsComplex<From>::value) {
    using Part = typename To::value_type;
    return To(CastReal<Part>(value.real()), CastReal<Part>(value.imag()));
  } else if constexpr (IsComplex<To>::value) {
    return To(CastReal<typename To::value_type>(value), 0);
  } else if constexpr (IsComplex<From>::value) {
    return CastReal<To>(value.real());
  } else {
    return CastReal<To>(value);
  }
}

// Copies one row (the last axis) at a time; rank-0 views are one row of one element.
template <typename To, typename From>
void CopyElements(const TensorView& src, const TensorView& dst) {
  const size_t rank = src.rank();
  const int64_t row = rank == 0 ? 1 : src.shape(rank - 1);
  const int64_t src_step = rank == 0 ? 0 : src.stride(rank - 1);
  const int64_t dst_step = rank == 0 ? 0 : dst.stride(rank - 1);
  const std::span<const int64_t> outer = src.shape().first(rank == 0 ? 0 : rank - 1);
  std::array<int64_t, kMaxTensorRank> index{};
  ForEachIndex(outer, [&](const int64_t* outer_index) {
    std::copy(outer_index, outer_index + outer.size(), index.begin());
    const auto* from = reinterpret_cast<const From*>(src.ElementAddress(index.data()));
    auto* to = reinterpret_cast<To*>(dst.ElementAddress(index.data()));
    if constexpr (std::is_same_v<To, From>) {
      if (src_step == 1 && dst_step == 1) {
        std::memcpy(to, from, static_cast<size_t>(row) * sizeof(To));
        return;
      }
    }
    for (int64_t i = 0; i < row; ++i) to[i * dst_step] = Cast<To>(from[i * src_step]);
  });
}

template <typename From>
float LoadElement(const void* element) {
  From value;
  std::memcpy(&value, element, sizeof(From));
  return Cast<float>(value);
}

template <typename To>
void StoreElement(float value, void* element) {
  const To cast = Cast<To>(value);
  std::memcpy(element, &cast, sizeof(To));
}

}  // namespace

ElementToF32 LoadAsF32(DType dtype) {
  return VisitDType(dtype, [](auto zero) -> ElementToF32 { return &LoadElement<decltype(zero)>; });
}

F32ToElement StoreFromF32(DType dtype) {
  return VisitDType(dtype, [](auto zero) -> F32ToElement { return &StoreElement<decltype(zero)>; });
}

Status CopyInto(const TensorView& src, const TensorView& dst) {
  if (Status s = CheckWritable(dst, "CopyInto"); !s.ok()) return s;
  if (src.rank() != dst.rank() ||
      !std::equal(src.shape().begin(), src.shape().end(), dst.shape().begin())) {
    return InvalidArgument("CopyInto: source " + src.TypeString() + " and destination " +
                           dst.TypeString() + " differ in shape");
  }
  if (src.empty()) return {};
  if (SameView(src, dst)) return {};
  if (MayOverlapItself(dst)) {
    return InvalidArgument("CopyInto: destination " + dst.TypeString() + " with strides " +
                           ShapeString(dst.strides()) +
                           " has elements that overlap each other (e.g. a broadcast view)");
  }
  if (ViewsOverlap(src, dst)) {
    return InvalidArgument("CopyInto: source " + src.TypeString() + " and destination " +
                           dst.TypeString() + " overlap in memory");
  }
  if (src.dtype() == dst.dtype() && src.IsContiguous() && dst.IsContiguous()) {
    std::memcpy(dst.data(), src.data(), static_cast<size_t>(src.size()) * src.element_bytes());
    return {};
  }
  VisitDType(dst.dtype(), [&](auto to) {
    VisitDType(src.dtype(),
               [&](auto from) { CopyElements<decltype(to), decltype(from)>(src, dst); });
  });
  return {};
}

Result<Tensor> Copy(MemoryAccountant& accountant, const TensorView& src, DType dtype,
                    MemoryCategory category) {
  Result<Tensor> out = Tensor::Create(accountant, dtype, src.shape(), category);
  if (!out.ok()) return out.status();
  if (Status s = CopyInto(src, out->view()); !s.ok()) return s;
  return out;
}

}  // namespace swarm
