// Integer arithmetic that reports overflow instead of wrapping: the size computations of every
// boundary (tensor shapes, buffer and batch sizes, file headers) go through these before anything
// is allocated.
#pragma once

#include <type_traits>

namespace swarm {

// *product = a * b, or false (and *product unspecified) when the product does not fit T.
template <typename T>
[[nodiscard]] bool MultiplyFits(T a, T b, T* product) {
  static_assert(std::is_integral_v<T>);
  return !__builtin_mul_overflow(a, b, product);
}

// *sum = a + b, or false (and *sum unspecified) when the sum does not fit T.
template <typename T>
[[nodiscard]] bool AddFits(T a, T b, T* sum) {
  static_assert(std::is_integral_v<T>);
  return !__builtin_add_overflow(a, b, sum);
}

}  // namespace swarm
