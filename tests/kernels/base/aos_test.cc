// Tests for kernels/aos.*: AosToSoa and SoaToAos against a scalar glm::vec4 copy on every
// compiled target. Pure data movement, so the tolerance is zero: results must match bitwise,
// for arbitrary bit patterns (NaN payloads, infinities, denormals, -0). The AoS side is unpadded
// and unaligned, so it is placed right before an inaccessible page (an overrun is a crash, which
// ctest reports as a failure) and also one float off alignment between canaries.
#include "swarm/kernels/base/aos.h"

#include <sys/mman.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <glm/vec4.hpp>
#include <optional>
#include <random>
#include <vector>

#include "tests/kernels/particles/particle_fixture.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

using test::ForEachTarget;
using test::PaddedVec4;
using test::TargetUnderTest;

// `count` f32x4 in AoS order whose last byte is the last accessible byte before a PROT_NONE page.
class GuardedAos {
 public:
  explicit GuardedAos(size_t count) : count_(count) {
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    const size_t data_bytes = count * sizeof(glm::vec4);
    accessible_bytes_ = (data_bytes + page - 1) / page * page;
    mapping_bytes_ = accessible_bytes_ + page;
    void* mapping =
        mmap(nullptr, mapping_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(mapping != MAP_FAILED);
    mapping_ = static_cast<uint8_t*>(mapping);
    REQUIRE(mprotect(mapping_ + accessible_bytes_, page, PROT_NONE) == 0);
    data_ = reinterpret_cast<float*>(mapping_ + accessible_bytes_ - data_bytes);
  }
  ~GuardedAos() { munmap(mapping_, mapping_bytes_); }
  GuardedAos(const GuardedAos&) = delete;
  GuardedAos& operator=(const GuardedAos&) = delete;

  float* data() { return data_; }
  size_t floats() const { return 4 * count_; }

 private:
  size_t count_;
  size_t accessible_bytes_ = 0;
  size_t mapping_bytes_ = 0;
  uint8_t* mapping_ = nullptr;
  float* data_ = nullptr;
};

// `count` f32x4 in AoS order at a 4-byte-but-not-16-byte-aligned address, with kCanaryFloats of
// sentinel on each side.
class MisalignedAos {
 public:
  static constexpr size_t kCanaryFloats = 64;
  static constexpr uint32_t kCanaryBits = 0x7fc0dead;  // a quiet NaN with a payload

  explicit MisalignedAos(size_t count)
      : count_(count), storage_(4 * count + 2 * kCanaryFloats + 4) {
    const uintptr_t address = reinterpret_cast<uintptr_t>(storage_.data() + kCanaryFloats);
    offset_ = kCanaryFloats + (address % 16 == 0 ? 1 : 0);
    for (uint32_t& word : storage_) word = kCanaryBits;
  }
  float* data() { return reinterpret_cast<float*>(storage_.data() + offset_); }
  size_t floats() const { return 4 * count_; }
  bool CanariesIntact() const {
    for (size_t i = 0; i < storage_.size(); ++i) {
      const bool inside = i >= offset_ && i < offset_ + 4 * count_;
      if (!inside && storage_[i] != kCanaryBits) return false;
    }
    return true;
  }

 private:
  size_t count_;
  std::vector<uint32_t> storage_;
  size_t offset_ = 0;
};

// memcmp and memcpy with a null pointer are undefined even for zero bytes; empty vectors have one.
bool SameBytes(const void* a, const void* b, size_t bytes) {
  return bytes == 0 || std::memcmp(a, b, bytes) == 0;
}

std::vector<glm::vec4> RandomBitPatterns(size_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<glm::vec4> values(count);
  for (glm::vec4& value : values) {
    for (int lane = 0; lane < 4; ++lane) {
      const uint32_t bits = rng();
      std::memcpy(&value[lane], &bits, sizeof(float));
    }
  }
  return values;
}

// The scalar reference: element i of the SoA view is aos[i], lane by lane.
bool SoaEqualsAos(const PaddedVec4& soa, const std::vector<glm::vec4>& aos) {
  for (size_t i = 0; i < aos.size(); ++i) {
    if (!test::SameBits(soa.Get(i), aos[i])) return false;
  }
  return true;
}

template <class Aos>
void CheckAosToSoa(Aos& source, const std::vector<glm::vec4>& values, float padding) {
  if (!values.empty()) {
    std::memcpy(source.data(), values.data(), values.size() * sizeof(glm::vec4));
  }
  PaddedVec4 soa(values.size(), padding);
  AosToSoa(source.data(), soa.view());
  CHECK(SoaEqualsAos(soa, values));
  CHECK_FALSE(soa.PaddingMismatch(padding).has_value());
  CHECK(SameBytes(source.data(), values.data(), values.size() * sizeof(glm::vec4)));
}

TEST_CASE("AosToSoa copies every bit on every target without touching padding") {
  for (const size_t count : test::kSizes) {
    INFO("count " << count);
    const std::vector<glm::vec4> values = RandomBitPatterns(count, static_cast<uint32_t>(count));
    ForEachTarget([&](const TargetUnderTest& target) {
      INFO("target " << target.name);
      for (const float padding : {0.0f, test::kSentinelFloat}) {
        INFO("padding " << padding);
        GuardedAos guarded(count);
        CheckAosToSoa(guarded, values, padding);
        MisalignedAos misaligned(count);
        CheckAosToSoa(misaligned, values, padding);
        CHECK(misaligned.CanariesIntact());
      }
    });
  }
}

TEST_CASE("SoaToAos copies every bit on every target and writes exactly 4 * count floats") {
  for (const size_t count : test::kSizes) {
    INFO("count " << count);
    const std::vector<glm::vec4> values =
        RandomBitPatterns(count, 1000u + static_cast<uint32_t>(count));
    PaddedVec4 soa(count);
    for (size_t i = 0; i < count; ++i) soa.Set(i, values[i]);
    const PaddedVec4 input = soa;
    std::optional<std::vector<float>> first;
    ForEachTarget([&](const TargetUnderTest& target) {
      INFO("target " << target.name);
      GuardedAos guarded(count);
      SoaToAos(soa.view(), guarded.data());
      CHECK(SameBytes(guarded.data(), values.data(), count * sizeof(glm::vec4)));
      MisalignedAos misaligned(count);
      SoaToAos(soa.view(), misaligned.data());
      CHECK(SameBytes(misaligned.data(), values.data(), count * sizeof(glm::vec4)));
      CHECK(misaligned.CanariesIntact());
      CHECK(soa.BitwiseEqual(input));
      std::vector<float> out(guarded.data(), guarded.data() + guarded.floats());
      if (!first) {
        first = std::move(out);
      } else {
        CHECK(SameBytes(out.data(), first->data(), out.size() * sizeof(float)));
      }
    });
  }
}

TEST_CASE("AoS -> SoA -> AoS through glm::vec4 arrays is the identity on every target") {
  constexpr size_t kCount = 1000;
  const std::vector<glm::vec4> values = RandomBitPatterns(kCount, 77);
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    PaddedVec4 soa(kCount);
    AosToSoa(&values[0].x, soa.view());
    std::vector<glm::vec4> round_trip(kCount);
    SoaToAos(soa.view(), &round_trip[0].x);
    CHECK(SameBytes(round_trip.data(), values.data(), kCount * sizeof(glm::vec4)));
  });
}

}  // namespace
}  // namespace swarm
