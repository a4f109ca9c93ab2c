// Tests for swarm/core/checked_math.h: products and sums that fit are exact, and every overflow
// of int64_t and size_t is reported, compared against 128-bit arithmetic.
#include "swarm/core/checked_math.h"

#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>

namespace swarm {
namespace {

TEST_CASE("MultiplyFits and AddFits agree with 128-bit arithmetic") {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 100000; ++i) {
    // Magnitudes spread over all bit widths, so both fitting and overflowing cases are common.
    const int64_t a = static_cast<int64_t>(rng() >> (rng() % 64)) * ((rng() & 1) ? 1 : -1);
    const int64_t b = static_cast<int64_t>(rng() >> (rng() % 64)) * ((rng() & 1) ? 1 : -1);
    const __int128 exact_product = static_cast<__int128>(a) * b;
    const __int128 exact_sum = static_cast<__int128>(a) + b;
    int64_t product = 0;
    int64_t sum = 0;
    const bool product_fits = exact_product >= std::numeric_limits<int64_t>::min() &&
                              exact_product <= std::numeric_limits<int64_t>::max();
    const bool sum_fits = exact_sum >= std::numeric_limits<int64_t>::min() &&
                          exact_sum <= std::numeric_limits<int64_t>::max();
    REQUIRE(MultiplyFits(a, b, &product) == product_fits);
    REQUIRE(AddFits(a, b, &sum) == sum_fits);
    if (product_fits) REQUIRE(product == exact_product);
    if (sum_fits) REQUIRE(sum == exact_sum);
  }
}

TEST_CASE("MultiplyFits on size_t: the edges of the range") {
  const size_t max = std::numeric_limits<size_t>::max();
  size_t product = 0;
  CHECK(MultiplyFits<size_t>(0, max, &product));
  CHECK(product == 0);
  CHECK(MultiplyFits<size_t>(1, max, &product));
  CHECK(product == max);
  CHECK_FALSE(MultiplyFits<size_t>(2, max / 2 + 1, &product));
  CHECK(MultiplyFits<size_t>(size_t{1} << 32, (size_t{1} << 32) - 1, &product));
  CHECK_FALSE(MultiplyFits<size_t>(size_t{1} << 32, size_t{1} << 32, &product));
}

}  // namespace
}  // namespace swarm
