// Tests for swarm/core/state_hash.h. The reference is libxxhash itself: for NaN-free arrays the
// digest must equal XXH3-64 over the raw bytes, each array's digest seeding the next; arrays with
// NaNs must hash as if every NaN were the canonical quiet NaN 0x7fc00000.
#include "swarm/core/state_hash.h"

#include <xxhash.h>

#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <vector>

namespace swarm {
namespace {

std::vector<float> Ramp(size_t count) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = 0.25f * static_cast<float>(i) - 7.0f;
  return values;
}

uint64_t ReferenceHash(const std::vector<std::vector<float>>& arrays) {
  uint64_t hash = 0;
  for (const std::vector<float>& array : arrays) {
    hash = XXH3_64bits_withSeed(array.data(), array.size() * sizeof(float), hash);
  }
  return hash;
}

uint64_t Hash(const std::vector<std::vector<float>>& arrays) {
  StateHasher hasher;
  for (const std::vector<float>& array : arrays)
    hasher.Add(ConstFloatView{array.data(), array.size()});
  return hasher.Digest();
}

TEST_CASE("StateHasher equals XXH3-64 over the raw floats, chained, at every length") {
  // 1024 floats is the canonicalising chunk: lengths around it and several chunks long.
  for (const size_t count : {0, 1, 3, 1023, 1024, 1025, 2500, 4096}) {
    INFO("count " << count);
    const std::vector<float> a = Ramp(count);
    const std::vector<float> b = Ramp(count / 2 + 1);
    CHECK(Hash({a}) == ReferenceHash({a}));
    CHECK(Hash({a, b}) == ReferenceHash({a, b}));
  }
}

TEST_CASE("StateHasher hashes every NaN as the canonical quiet NaN, and nothing else") {
  std::vector<float> canonical = Ramp(2100);
  canonical[5] = std::bit_cast<float>(0x7fc00000u);
  canonical[2050] = std::bit_cast<float>(0x7fc00000u);
  const uint64_t expected = ReferenceHash({canonical});
  // x86's default NaN, payloads, a signalling NaN, negative NaNs.
  for (const uint32_t nan : {0xffc00000u, 0x7fc00001u, 0x7fa00000u, 0x7f800001u, 0xffffffffu}) {
    INFO("NaN bits " << std::hex << nan);
    std::vector<float> other = canonical;
    other[5] = std::bit_cast<float>(nan);
    other[2050] = std::bit_cast<float>(nan);
    REQUIRE(std::isnan(other[5]));
    CHECK(Hash({other}) == expected);
  }
  // Not NaN, so hashed bit for bit: infinities, signed zeros, denormals, one ulp.
  const float value = canonical[100];
  for (const float different : {INFINITY, -INFINITY, std::nextafter(value, INFINITY),
                                std::nextafter(value, -INFINITY), 1e-45f}) {
    std::vector<float> other = canonical;
    other[100] = different;
    CHECK(Hash({other}) != Hash({canonical}));
  }
  std::vector<float> zeros(8, 0.0f);
  std::vector<float> negative_zero = zeros;
  negative_zero[3] = -0.0f;
  CHECK(Hash({zeros}) != Hash({negative_zero}));
  CHECK(Hash({negative_zero}) == ReferenceHash({negative_zero}));
}

TEST_CASE("StateHasher's Vec4 view hashes lanes x, y, z, w in order, count elements each") {
  constexpr size_t kCount = 5;
  constexpr size_t kStride = 16;
  std::vector<float> lanes(4 * kStride, -1.0f);  // padding holds -1 and must not be hashed
  std::vector<std::vector<float>> expected(4);
  for (size_t lane = 0; lane < 4; ++lane) {
    for (size_t i = 0; i < kCount; ++i) {
      lanes[lane * kStride + i] = static_cast<float>(10 * lane + i);
      expected[lane].push_back(static_cast<float>(10 * lane + i));
    }
  }
  const ConstVec4View view{lanes.data(), kCount, kStride};
  CHECK(StateHasher().Add(view).Digest() == ReferenceHash(expected));
}

}  // namespace
}  // namespace swarm
