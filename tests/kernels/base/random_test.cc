// Tests for the counter-based generator of kernels/random.* (FillUniform): against the scalar
// reference on every compiled target, counter wrap-around, the value grid, statistics of the
// stream, independence from how a range is split, and distinct seeds and streams.
#include "swarm/kernels/base/random.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "swarm/kernels/base/random_reference.h"
#include "tests/kernels/particles/particle_fixture.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

using test::CheckKernelAgainstReference;
using test::ForEachTarget;
using test::PaddedScalars;
using test::Particles;
using test::ParticlesAos;
using test::TargetUnderTest;

constexpr RandomStream kStream{0x0123456789abcdefull, 42};

std::vector<float> Uniforms(size_t count, RandomStream random, uint32_t first_index,
                            float lo = 0.0f, float hi = 1.0f) {
  PaddedScalars<float> out(count);
  FillUniform(out.view(), random, first_index, lo, hi);
  return out.ToVector();
}

TEST_CASE("FillUniform matches the reference on every target") {
  for (const uint32_t first_index : {0u, 7u, 0xfffffff0u}) {
    // 0xfffffff0 makes the counters of the large sizes wrap past 2^32 mid-vector.
    INFO("first_index " << first_index);
    CheckKernelAgainstReference(
        test::kWritesAges,
        [&](Particles& p) { FillUniform(p.ages.view(), kStream, first_index, -2.0f, 5.0f); },
        [&](ParticlesAos& p) {
          reference::FillUniform(p.ages, kStream, first_index, -2.0f, 5.0f);
        });
  }
}

TEST_CASE("FillUniform counters wrap modulo 2^32") {
  const std::vector<float> across_wrap = Uniforms(40, kStream, 0xffffffecu);
  const std::vector<float> from_zero = Uniforms(20, kStream, 0);
  for (size_t i = 0; i < 20; ++i) {
    INFO("element " << i);
    CHECK(test::SameBits(across_wrap[20 + i], from_zero[i]));
  }
}

TEST_CASE("FillUniform values lie on the 2^-24 grid below 1 and inside the requested range") {
  constexpr size_t kCount = 1000000;
  const std::vector<float> u = Uniforms(kCount, kStream, 0);
  size_t outside = 0, off_grid = 0;
  for (const float value : u) {
    if (!(value >= 0.0f && value < 1.0f)) ++outside;
    const double scaled = double{value} * 16777216.0;
    if (scaled != std::floor(scaled)) ++off_grid;
  }
  CHECK(outside == 0);
  CHECK(off_grid == 0);

  // lo + (hi - lo) u is monotone in u, so the largest u = 1 - 2^-24 decides whether rounding can
  // reach hi. It can when hi - lo is small next to |hi| ([100, 200) returns 200 for the largest u,
  // [10, 10.5) for the largest 16), so these ranges are chosen to keep it below, checked first.
  for (const auto& [lo, hi] : {std::pair{-2.0f, 5.0f}, std::pair{-1.0f, 1.0f},
                               std::pair{-100.0f, 100.0f}, std::pair{-0.001f, 0.0f}}) {
    INFO("range [" << lo << ", " << hi << ")");
    REQUIRE(lo + (1.0f - 0x1p-24f) * (hi - lo) < hi);
    const std::vector<float> values = Uniforms(kCount, kStream, 0, lo, hi);
    const auto [min, max] = std::minmax_element(values.begin(), values.end());
    CHECK(*min >= lo);
    CHECK(*max < hi);
  }
}

TEST_CASE("FillUniform has the mean, variance, histogram and lag-1 correlation of a uniform") {
  // N = 1e6 draws from the uniform grid {k 2^-24}: mean 1/2 - 2^-25, variance ~ 1/12.
  // Standard errors: mean sqrt(1/12 / N) = 2.9e-4; variance sqrt((1/80 - 1/144) / N) = 7.5e-5;
  // lag-1 autocorrelation 1 / sqrt(N) = 1e-3; chi-square over 100 bins has mean 99 and standard
  // deviation sqrt(2 * 99) = 14. Every bound below is 5 standard deviations (a fixed seed, so
  // the outcome is deterministic; 5 sigma keeps a correct generator far from the edge).
  constexpr size_t kCount = 1000000;
  constexpr double kSigmas = 5.0;
  const double n = kCount;
  const std::vector<float> u = Uniforms(kCount, kStream, 0);
  double sum = 0.0;
  for (const float value : u) sum += value;
  const double mean = sum / n;
  double squares = 0.0, lagged = 0.0;
  std::vector<double> bins(100, 0.0);
  for (size_t i = 0; i < kCount; ++i) {
    squares += (u[i] - mean) * (u[i] - mean);
    if (i + 1 < kCount) lagged += (u[i] - mean) * (u[i + 1] - mean);
    bins[std::min<size_t>(static_cast<size_t>(u[i] * 100.0), 99)] += 1.0;
  }
  const double variance = squares / (n - 1.0);
  const double lag1 = lagged / squares;
  double chi_square = 0.0;
  for (const double count : bins) chi_square += (count - n / 100) * (count - n / 100) / (n / 100);

  CHECK(std::abs(mean - (0.5 - 0x1p-25)) <= kSigmas * std::sqrt(1.0 / 12.0 / n));
  CHECK(std::abs(variance - 1.0 / 12.0) <= kSigmas * std::sqrt((1.0 / 80 - 1.0 / 144) / n));
  CHECK(std::abs(lag1) <= kSigmas / std::sqrt(n));
  CHECK(std::abs(chi_square - 99.0) <= kSigmas * std::sqrt(2.0 * 99.0));
}

TEST_CASE("FillUniform does not depend on how the range is split") {
  // Tiles and threads call FillUniform on slices with first_index offset by the slice start;
  // slices start on vector boundaries (multiples of kPadFloats: 16 on x86, 64 on aarch64).
  constexpr size_t kCount = 1000;
  constexpr size_t kPad = kPadFloats;
  constexpr uint32_t kFirstIndex = 12345;
  std::optional<PaddedScalars<float>> first;
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    PaddedScalars<float> whole(kCount);
    FillUniform(whole.view(), kStream, kFirstIndex, -1.0f, 3.0f);
    for (const size_t split :
         {size_t{0}, kPad, 4 * kPad, kCount / kPad / 2 * kPad, kCount / kPad * kPad}) {
      INFO("split at " << split);
      PaddedScalars<float> pieces(kCount);
      FillUniform(pieces.view().Slice(0, split), kStream, kFirstIndex, -1.0f, 3.0f);
      FillUniform(pieces.view().Slice(split, kCount - split), kStream,
                  kFirstIndex + static_cast<uint32_t>(split), -1.0f, 3.0f);
      CHECK(pieces.BitwiseEqual(whole));
    }
    if (!first) {
      first.emplace(whole);
    } else {
      CHECK(whole.BitwiseEqual(*first));
    }
  });
}

TEST_CASE("Different seeds and streams give different sequences") {
  // Two independent uniform sequences on the 2^-24 grid agree at a position with probability
  // 2^-24, so among 65536 positions more than 2 equal values is already unlikely (expected
  // 0.004); their sample correlation has standard deviation 1 / sqrt(65536) = 0.004, bound 5x.
  constexpr size_t kCount = 65536;
  const std::vector<RandomStream> streams = {{0, 0},
                                             {1, 0},
                                             {1ull << 32, 0},
                                             {1, 1},
                                             {1, 2},
                                             {0x0123456789abcdefull, 42},
                                             {0x0123456789abcdefull, 43}};
  std::vector<std::vector<float>> sequences;
  for (const RandomStream& random : streams) sequences.push_back(Uniforms(kCount, random, 0));
  for (size_t a = 0; a < streams.size(); ++a) {
    for (size_t b = a + 1; b < streams.size(); ++b) {
      INFO("streams " << a << " and " << b);
      size_t equal = 0;
      double cross = 0.0, square_a = 0.0, square_b = 0.0;
      for (size_t i = 0; i < kCount; ++i) {
        equal += sequences[a][i] == sequences[b][i];
        const double x = sequences[a][i] - 0.5, y = sequences[b][i] - 0.5;
        cross += x * y;
        square_a += x * x;
        square_b += y * y;
      }
      CHECK(equal <= 2);
      CHECK(std::abs(cross / std::sqrt(square_a * square_b)) <= 5.0 / std::sqrt(double{kCount}));
    }
  }
}

}  // namespace
}  // namespace swarm
