// ExactSum (swarm/core/exact_sum.h) against exact references: sums of floats on a common grid
// computed in 128-bit integers and rounded once by the compiler's int128-to-double conversion,
// hand-worked rounding ties, and the independence from order and splitting it promises.
#include "swarm/core/exact_sum.h"

#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace swarm {
namespace {

uint64_t Bits(double value) { return std::bit_cast<uint64_t>(value); }

double SumOf(const std::vector<float>& values) {
  ExactSum sum;
  for (float value : values) sum.Add(value);
  return sum.Value();
}

TEST_CASE("ExactSum equals an integer sum rounded once, for values on a common grid") {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 200; ++trial) {
    // k * 2^(s - 20) with |k| < 2^23 and s in {0, 20, 40, 60}: exact floats whose sum is exact
    // in int128 units of 2^-20 but needs up to ~97 bits, so the double result rounds.
    std::vector<float> values(1 + rng() % 5000);
    __int128 units = 0;
    const int scale = static_cast<int>(rng() % 40) - 20;  // moves the whole grid
    for (float& value : values) {
      const auto k = static_cast<int64_t>(rng() % (1 << 24)) - (1 << 23);
      const int shift = 20 * static_cast<int>(rng() % 4);
      value = std::ldexp(static_cast<float>(k), shift + scale - 20);
      units += static_cast<__int128>(k) << shift;
    }
    // The compiler's int128-to-double conversion rounds to nearest, ties to even.
    const double want = std::ldexp(static_cast<double>(units), scale - 20);
    INFO("trial " << trial);
    REQUIRE(Bits(SumOf(values)) == Bits(want));
  }
}

TEST_CASE("ExactSum does not depend on the order or on how the terms are split and merged") {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> mantissa(-1.0f, 1.0f);
  std::uniform_int_distribution<int> exponent(-140, 120);
  std::vector<float> values(20000);
  for (float& value : values) value = std::ldexp(mantissa(rng), exponent(rng));
  const double whole = SumOf(values);
  for (int trial = 0; trial < 5; ++trial) {
    std::shuffle(values.begin(), values.end(), rng);
    ExactSum parts[3];
    for (size_t i = 0; i < values.size(); ++i) parts[rng() % 3].Add(values[i]);
    ExactSum merged = ExactSum::FromWords(parts[0].Words());  // through words, as between ranks
    merged.Merge(parts[2]);
    merged.Merge(parts[1]);
    REQUIRE(Bits(merged.Value()) == Bits(whole));
  }
}

TEST_CASE("ExactSum cancels exactly, rounds ties to even and keeps specials") {
  const float max = std::numeric_limits<float>::max();
  const float tiny = std::numeric_limits<float>::denorm_min();
  CHECK(SumOf({max, 1e-30f, -max}) == static_cast<double>(1e-30f));
  CHECK(SumOf({max, max, max, tiny, -max, -max, -max}) == std::ldexp(1.0, -149));
  CHECK(SumOf({max, max}) == 2.0 * static_cast<double>(max));  // beyond float, fine in double
  CHECK(SumOf({-2.5f, 0.5f}) == -2.0);
  // 1 + 2^-53 lies halfway between 1 and the next double: even is 1. Any bit below tips it up.
  const float half_ulp = std::ldexp(1.0f, -53);
  CHECK(SumOf({1.0f, half_ulp}) == 1.0);
  CHECK(SumOf({1.0f, half_ulp, std::ldexp(1.0f, -120)}) == 1.0 + std::ldexp(1.0, -52));
  CHECK(SumOf({1.0f, std::ldexp(1.0f, -52), half_ulp}) == 1.0 + 2 * std::ldexp(1.0, -52));
  CHECK(SumOf({-1.0f, -half_ulp, -std::ldexp(1.0f, -120)}) == -(1.0 + std::ldexp(1.0, -52)));
  // A double sum in sequence rounds at every step; the exact sum keeps what it would lose.
  std::vector<float> many(1 << 20, 0.1f);
  many.push_back(1e10f);
  many.push_back(-1e10f);
  CHECK(SumOf(many) == static_cast<double>(0.1f) * (1 << 20));
  CHECK(SumOf({}) == 0.0);
  CHECK(std::isnan(SumOf({1.0f, std::numeric_limits<float>::quiet_NaN()})));
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(SumOf({1.0f, inf, -max}) == std::numeric_limits<double>::infinity());
  CHECK(SumOf({-inf, max}) == -std::numeric_limits<double>::infinity());
  CHECK(std::isnan(SumOf({inf, -inf})));
  ExactSum with_nan;
  with_nan.Add(std::numeric_limits<float>::quiet_NaN());
  CHECK(std::isnan(ExactSum::FromWords(with_nan.Words()).Value()));
}

}  // namespace
}  // namespace swarm
