// Tests for swarm/core/buffer.h and swarm/core/lane_storage.h: the SoA layout promised in
// docs/design.md (64-byte alignment, lane-major lanes padded to whole vectors, zero padding),
// content-keeping resizes, single-element access, bulk AoS <-> SoA copies on every SIMD target, and
// the errors for wrong spans and impossible sizes.
#include "swarm/core/buffer.h"

#include <array>
#include <bit>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <glm/vec4.hpp>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "swarm/core/memory.h"
#include "swarm/core/state_hash.h"
#include "swarm/kernels/base/lowbias32.h"
#include "tests/support/for_each_target.h"
#include "tests/support/padding.h"

namespace swarm {
namespace {

// The sizes the style guide asks for around x86's 16-float padding, plus large and prime.
constexpr size_t kSizes[] = {0, 1, 15, 16, 17, 1000, 100003};

// An arbitrary but reproducible 32-bit pattern per (index, lane), so every float bit pattern
// class (normal, denormal, zero, inf, NaN with payload) shows up in a large array and a copy
// that goes through arithmetic or reorders lanes cannot pass.
uint32_t PatternBits(size_t index, uint32_t lane) {
  return LowBias32(static_cast<uint32_t>(index) * 4u + lane + 0x9e3779b9u);
}

std::vector<glm::vec4> PatternVectors(size_t count) {
  std::vector<glm::vec4> values(count);
  for (size_t i = 0; i < count; ++i) {
    for (uint32_t lane = 0; lane < 4; ++lane) {
      values[i][static_cast<int>(lane)] = std::bit_cast<float>(PatternBits(i, lane));
    }
  }
  return values;
}

uint32_t Bits(float value) { return std::bit_cast<uint32_t>(value); }

bool SameBits(const glm::vec4& a, const glm::vec4& b) {
  return std::memcmp(&a, &b, sizeof(glm::vec4)) == 0;
}

// Every element in [size, capacity) of every lane is +0.0f (bit pattern 0).
template <typename Float>
bool LanePaddingIsZero(BasicVec4View<Float> view) {
  for (size_t lane = 0; lane < 4; ++lane) {
    for (size_t i = view.count; i < view.lane_stride; ++i) {
      if (Bits(view.Lane(lane)[i]) != 0) return false;
    }
  }
  return true;
}

template <typename T>
bool ArrayPaddingIsZero(const PaddedArray<T>& array) {
  const T* data = array.span().data();
  for (size_t i = array.size(); i < array.capacity(); ++i) {
    if (data[i] != T{0}) return false;
  }
  return true;
}

uint64_t Hash(const Vec4Buffer& buffer) { return StateHasher().Add(buffer.view()).Digest(); }

void CheckLayout(const Vec4Buffer& buffer) {
  const ConstVec4View view = buffer.view();
  INFO("size " << buffer.size() << ", capacity " << buffer.capacity());
  CHECK(reinterpret_cast<uintptr_t>(view.data) % 64 == 0);
  CHECK(view.lane_stride == buffer.capacity());
  CHECK(view.lane_stride % kPadFloats == 0);
  CHECK(view.lane_stride >= buffer.size());
  CHECK(view.count == buffer.size());
  // Lane-major: y starts one lane stride after x, and so on, inside the one allocation.
  CHECK(view.y() == view.data + view.lane_stride);
  CHECK(view.z() == view.data + 2 * view.lane_stride);
  CHECK(view.w() == view.data + 3 * view.lane_stride);
}

TEST_CASE("Vec4Buffer::Create gives zero vectors in an aligned, padded, lane-major layout") {
  MemoryAccountant memory;
  for (size_t count : kSizes) {
    Result<Vec4Buffer> buffer = Vec4Buffer::Create(memory, count);
    REQUIRE(buffer.ok());
    REQUIRE(buffer->size() == count);
    // The smallest capacity that holds `count` in whole padding vectors.
    CHECK(buffer->capacity() == test::PaddedFloats(count));
    CheckLayout(*buffer);
    CHECK(buffer->category() == MemoryCategory::kParticles);
    const ConstVec4View view = buffer->view();
    bool all_zero = true;
    for (size_t i = 0; i < 4 * view.lane_stride; ++i) all_zero &= Bits(view.data[i]) == 0;
    CHECK(all_zero);
  }
}

TEST_CASE("Vec4Buffer::Set writes each component to its lane array and Get reads it back") {
  MemoryAccountant memory;
  Result<Vec4Buffer> buffer = Vec4Buffer::Create(memory, 17);
  REQUIRE(buffer.ok());
  const std::vector<glm::vec4> values = PatternVectors(17);
  for (size_t i = 0; i < values.size(); ++i) buffer->Set(i, values[i]);
  const ConstVec4View view = std::as_const(*buffer).view();
  for (size_t i = 0; i < values.size(); ++i) {
    INFO("element " << i);
    CHECK(Bits(view.data[i]) == Bits(values[i].x));
    CHECK(Bits(view.data[view.lane_stride + i]) == Bits(values[i].y));
    CHECK(Bits(view.data[2 * view.lane_stride + i]) == Bits(values[i].z));
    CHECK(Bits(view.data[3 * view.lane_stride + i]) == Bits(values[i].w));
    CHECK(SameBits(buffer->Get(i), values[i]));
  }
  CHECK(LanePaddingIsZero(view));
}

TEST_CASE("Vec4Buffer::Resize and Reserve keep contents bit-exactly and padding zero") {
  MemoryAccountant memory;
  Result<Vec4Buffer> buffer = Vec4Buffer::Create(memory, 17);
  REQUIRE(buffer.ok());
  const std::vector<glm::vec4> values = PatternVectors(17);
  REQUIRE(buffer->CopyFrom(values).ok());

  const auto check_prefix = [&](size_t kept) {
    for (size_t i = 0; i < kept; ++i) {
      INFO("element " << i);
      REQUIRE(SameBits(buffer->Get(i), values[i]));
    }
  };

  SECTION("grow beyond the capacity: old vectors kept, new ones zero") {
    REQUIRE(buffer->Resize(1000).ok());
    CHECK(buffer->size() == 1000);
    CHECK(buffer->capacity() == test::PaddedFloats(1000));
    CheckLayout(*buffer);
    check_prefix(17);
    for (size_t i = 17; i < 1000; ++i) REQUIRE(SameBits(buffer->Get(i), glm::vec4(0.0f)));
    CHECK(LanePaddingIsZero(std::as_const(*buffer).view()));
  }
  SECTION("shrink then grow inside the capacity: the dropped tail comes back as zero") {
    REQUIRE(buffer->Resize(3).ok());
    CHECK(buffer->capacity() == test::PaddedFloats(17));
    CHECK(LanePaddingIsZero(std::as_const(*buffer).view()));
    REQUIRE(buffer->Resize(20).ok());
    CHECK(buffer->capacity() == test::PaddedFloats(17));
    check_prefix(3);
    for (size_t i = 3; i < 20; ++i) REQUIRE(SameBits(buffer->Get(i), glm::vec4(0.0f)));
    CHECK(LanePaddingIsZero(std::as_const(*buffer).view()));
  }
  SECTION("shrink to zero and grow again") {
    REQUIRE(buffer->Resize(0).ok());
    CHECK(LanePaddingIsZero(std::as_const(*buffer).view()));
    REQUIRE(buffer->Resize(17).ok());
    for (size_t i = 0; i < 17; ++i) REQUIRE(SameBits(buffer->Get(i), glm::vec4(0.0f)));
  }
  SECTION("Reserve moves the data without changing size or contents") {
    REQUIRE(buffer->Reserve(5000).ok());
    CHECK(buffer->size() == 17);
    CHECK(buffer->capacity() == test::PaddedFloats(5000));
    CheckLayout(*buffer);
    check_prefix(17);
    CHECK(LanePaddingIsZero(std::as_const(*buffer).view()));
    // A smaller reservation is a no-op: same block, same capacity.
    const float* before = std::as_const(*buffer).view().data;
    REQUIRE(buffer->Reserve(10).ok());
    CHECK(buffer->capacity() == test::PaddedFloats(5000));
    CHECK(std::as_const(*buffer).view().data == before);
  }
}

TEST_CASE("Vec4Buffer CopyFrom/CopyTo round-trip glm::vec4 bit-exactly on every target") {
  MemoryAccountant memory;
  test::ForEachTarget([&](const test::TargetUnderTest& target) {
    for (size_t count : kSizes) {
      INFO("target " << target.name << ", size " << count);
      const std::vector<glm::vec4> input = PatternVectors(count);
      Result<Vec4Buffer> buffer = Vec4Buffer::Create(memory, count);
      REQUIRE(buffer.ok());
      REQUIRE(buffer->CopyFrom(input).ok());

      // AoS -> SoA: element i's components land in the four lane arrays.
      const ConstVec4View view = std::as_const(*buffer).view();
      size_t mismatches = 0;
      for (size_t i = 0; i < count; ++i) {
        for (size_t lane = 0; lane < 4; ++lane) {
          mismatches += Bits(view.Lane(lane)[i]) != Bits(input[i][static_cast<int>(lane)]);
        }
      }
      CHECK(mismatches == 0);
      CHECK(LanePaddingIsZero(view));

      // SoA -> AoS into a span with guard vectors on both sides: nothing outside is written.
      constexpr size_t kGuard = 17;
      const glm::vec4 guard = std::bit_cast<glm::vec4>(
          std::array<uint32_t, 4>{0xdeadbeefu, 0xdeadbeefu, 0xdeadbeefu, 0xdeadbeefu});
      std::vector<glm::vec4> output(count + 2 * kGuard, guard);
      REQUIRE(buffer->CopyTo(std::span(output).subspan(kGuard, count)).ok());
      size_t round_trip_mismatches = 0;
      for (size_t i = 0; i < count; ++i) {
        round_trip_mismatches += !SameBits(output[kGuard + i], input[i]);
      }
      CHECK(round_trip_mismatches == 0);
      size_t guard_damage = 0;
      for (size_t i = 0; i < kGuard; ++i) {
        guard_damage += !SameBits(output[i], guard);
        guard_damage += !SameBits(output[kGuard + count + i], guard);
      }
      CHECK(guard_damage == 0);
    }
  });
}

TEST_CASE("Vec4Buffer::CopyFrom/CopyTo with a wrong-size span fail and change nothing") {
  MemoryAccountant memory;
  Result<Vec4Buffer> buffer = Vec4Buffer::Create(memory, 16);
  REQUIRE(buffer.ok());
  REQUIRE(buffer->CopyFrom(PatternVectors(16)).ok());
  const uint64_t before = Hash(*buffer);

  const std::vector<glm::vec4> wrong = PatternVectors(17);
  const Status from = buffer->CopyFrom(std::span(wrong).subspan(2));
  CHECK(from.code() == ErrorCode::kInvalidArgument);
  CHECK_THAT(from.message(),
             Catch::Contains("CopyFrom") && Catch::Contains("15") && Catch::Contains("16"));
  CHECK(Hash(*buffer) == before);

  const Status too_long = buffer->CopyFrom(wrong);
  CHECK(too_long.code() == ErrorCode::kInvalidArgument);
  CHECK_THAT(too_long.message(), Catch::Contains("17") && Catch::Contains("16"));
  CHECK(Hash(*buffer) == before);

  std::vector<glm::vec4> destination = PatternVectors(15);
  const std::vector<glm::vec4> destination_before = destination;
  const Status to = buffer->CopyTo(destination);
  CHECK(to.code() == ErrorCode::kInvalidArgument);
  CHECK_THAT(to.message(),
             Catch::Contains("CopyTo") && Catch::Contains("15") && Catch::Contains("16"));
  CHECK(std::memcmp(destination.data(), destination_before.data(),
                    destination.size() * sizeof(glm::vec4)) == 0);
}

TEST_CASE("Buffers of an impossible size give an error, not a crash") {
  MemoryAccountant memory;
  const size_t huge = std::numeric_limits<size_t>::max() / 2;

  Result<Vec4Buffer> vectors = Vec4Buffer::Create(memory, huge);
  REQUIRE_FALSE(vectors.ok());
  CHECK(vectors.status().code() == ErrorCode::kInvalidArgument);
  CHECK_THAT(vectors.status().message(), Catch::Contains(std::to_string(huge)) &&
                                             Catch::Contains("too large") &&
                                             Catch::Contains("particles"));

  Result<FloatArray> floats = FloatArray::Create(memory, huge, MemoryCategory::kScratch);
  REQUIRE_FALSE(floats.ok());
  CHECK_THAT(floats.status().message(), Catch::Contains("too large") && Catch::Contains("scratch"));

  Result<ByteArray> bytes = ByteArray::Create(memory, std::numeric_limits<size_t>::max());
  REQUIRE_FALSE(bytes.ok());
  CHECK_THAT(bytes.status().message(), Catch::Contains("too large"));
  CHECK(memory.Total().bytes_in_use == 0);
  CHECK(memory.Total().allocations == 0);

  // An existing buffer asked to grow to an impossible size keeps everything.
  Result<Vec4Buffer> buffer = Vec4Buffer::Create(memory, 17);
  REQUIRE(buffer.ok());
  REQUIRE(buffer->CopyFrom(PatternVectors(17)).ok());
  const uint64_t before = Hash(*buffer);
  CHECK_FALSE(buffer->Resize(huge).ok());
  CHECK_FALSE(buffer->Reserve(huge).ok());
  CHECK(buffer->size() == 17);
  CHECK(buffer->capacity() == test::PaddedFloats(17));
  CHECK(Hash(*buffer) == before);

#if !defined(__SANITIZE_ADDRESS__)  // ASan aborts on such requests instead of returning null.
  // Representable but larger than any address space: the system refuses it (about 2^62 bytes).
  Result<Vec4Buffer> unmappable =
      Vec4Buffer::Create(memory, std::numeric_limits<size_t>::max() / 64);
  REQUIRE_FALSE(unmappable.ok());
  CHECK(unmappable.status().code() == ErrorCode::kOutOfMemory);
  CHECK_THAT(unmappable.status().message(), Catch::Contains("particles"));
  CHECK(memory.Stats(MemoryCategory::kParticles).live_allocations == 1);
#endif
}

TEST_CASE("FloatArray and ByteArray: padded layout, zero padding, kept contents") {
  MemoryAccountant memory;
  for (size_t count : kSizes) {
    INFO("size " << count);
    Result<FloatArray> floats = FloatArray::Create(memory, count);
    Result<ByteArray> bytes = ByteArray::Create(memory, count, MemoryCategory::kScratch);
    REQUIRE(floats.ok());
    REQUIRE(bytes.ok());
    CHECK(floats->size() == count);
    CHECK(bytes->size() == count);
    CHECK(floats->capacity() == test::PaddedFloats(count));
    CHECK(bytes->capacity() == test::PaddedBytes(count));
    CHECK(bytes->category() == MemoryCategory::kScratch);
    CHECK(reinterpret_cast<uintptr_t>(floats->span().data()) % 64 == 0);
    CHECK(reinterpret_cast<uintptr_t>(bytes->span().data()) % 64 == 0);
    CHECK(floats->view().data == floats->span().data());
    CHECK(floats->view().count == count);
    bool zero = true;
    for (size_t i = 0; i < floats->capacity(); ++i) zero &= Bits(floats->span().data()[i]) == 0;
    for (size_t i = 0; i < bytes->capacity(); ++i) zero &= bytes->span().data()[i] == 0;
    CHECK(zero);

    for (size_t i = 0; i < count; ++i) {
      (*floats)[i] = std::bit_cast<float>(PatternBits(i, 0));
      (*bytes)[i] = static_cast<uint8_t>(PatternBits(i, 1) | 1u);  // never 0
    }
    CHECK(ArrayPaddingIsZero(*floats));
    CHECK(ArrayPaddingIsZero(*bytes));

    // Grow past the capacity, then shrink to half and grow back inside the capacity.
    REQUIRE(floats->Resize(count + 100).ok());
    REQUIRE(bytes->Resize(count + 100).ok());
    const size_t half = count / 2;
    REQUIRE(floats->Resize(half).ok());
    REQUIRE(bytes->Resize(half).ok());
    CHECK(ArrayPaddingIsZero(*floats));
    CHECK(ArrayPaddingIsZero(*bytes));
    REQUIRE(floats->Resize(count).ok());
    REQUIRE(bytes->Resize(count).ok());
    size_t mismatches = 0;
    for (size_t i = 0; i < count; ++i) {
      const bool kept = i < half;
      mismatches += Bits((*floats)[i]) != (kept ? PatternBits(i, 0) : 0u);
      mismatches += (*bytes)[i] != (kept ? static_cast<uint8_t>(PatternBits(i, 1) | 1u) : 0);
    }
    CHECK(mismatches == 0);
    CHECK(ArrayPaddingIsZero(*floats));
    CHECK(ArrayPaddingIsZero(*bytes));
  }
}

TEST_CASE("Moving a buffer transfers the allocation without copying or leaking") {
  MemoryAccountant memory;
  Result<Vec4Buffer> created = Vec4Buffer::Create(memory, 100);
  REQUIRE(created.ok());
  REQUIRE(created->CopyFrom(PatternVectors(100)).ok());
  const float* data = std::as_const(*created).view().data;
  const uint64_t hash = Hash(*created);
  Vec4Buffer moved = std::move(created).value();
  CHECK(std::as_const(moved).view().data == data);
  CHECK(Hash(moved) == hash);
  Result<Vec4Buffer> other = Vec4Buffer::Create(memory, 5);
  REQUIRE(other.ok());
  CHECK(memory.Total().live_allocations == 2);
  moved = std::move(other).value();  // the 100-vector block is freed here
  CHECK(memory.Total().live_allocations == 1);
  CHECK(moved.size() == 5);
}

}  // namespace
}  // namespace swarm
