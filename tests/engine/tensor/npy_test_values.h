// Element values shared by the .npy tests.
#pragma once

#include <cstdint>
#include <type_traits>

#include "swarm/kernels/tensor/small_floats.h"

namespace swarm::test {

// A distinct value for element number n of each dtype: halves for floats (exact in f32 up to
// 2^23), a multiplicative hash wrapped to the integer type (both signs, the full range).
template <typename T>
T ValueAt(int64_t n) {
  if constexpr (std::is_same_v<T, Float16>) {
    return ToFloat16(static_cast<double>(n) * 0.5 - 3.25);  // exact up to 2^11
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    return ToBFloat16(static_cast<double>(n) * 0.5 - 3.25);
  } else if constexpr (std::is_same_v<T, Bool>) {
    return Bool{static_cast<uint8_t>((n * 7 / 3) % 2)};
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(n) * T(0.5) - T(3.25);
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<uint64_t>(n + 1) * 0x9E3779B97F4A7C15ull >> 7);
  } else {
    using Real = typename T::value_type;
    return T(static_cast<Real>(n) * Real(0.5), -static_cast<Real>(n) * Real(0.25) - Real(1));
  }
}

}  // namespace swarm::test
