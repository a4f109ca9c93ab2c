// Tests for Mat4Buffer (swarm/core/buffer.h): the 16-lane column-major layout (aligned, padded,
// zero padding), Get/Set against glm::mat4 indexing, bulk AoS <-> SoA round trips for arbitrary
// bit patterns, wrong-size spans (error, nothing changed), content-keeping resizes, and a
// buffer's view feeding a kernel.
#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <glm/mat4x4.hpp>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "swarm/core/buffer.h"
#include "swarm/core/memory.h"
#include "swarm/kernels/base/lowbias32.h"
#include "swarm/kernels/geometry/transform.h"
#include "tests/support/padding.h"

namespace swarm {
namespace {

constexpr size_t kSizes[] = {0, 1, 15, 16, 17, 1000, 100003};

// A reproducible bit pattern per (matrix, entry): every float class (normal, denormal, +-0, inf,
// NaN with payload) appears in a large array, so a copy that goes through arithmetic or mixes up
// entries cannot pass.
uint32_t PatternBits(size_t index, uint32_t entry) {
  return LowBias32(static_cast<uint32_t>(index) * 16u + entry + 0x9e3779b9u);
}

std::vector<glm::mat4> PatternMatrices(size_t count) {
  std::vector<glm::mat4> values(count);
  for (size_t i = 0; i < count; ++i) {
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 4; ++r) {
        values[i][c][r] = std::bit_cast<float>(PatternBits(i, static_cast<uint32_t>(4 * c + r)));
      }
    }
  }
  return values;
}

bool SameBits(const glm::mat4& a, const glm::mat4& b) {
  return std::memcmp(&a, &b, sizeof(glm::mat4)) == 0;
}

// Every float of the allocation past size() in every lane is +0.0f.
bool PaddingIsZero(const Mat4Buffer& buffer) {
  const ConstMat4View view = buffer.view();
  for (size_t lane = 0; lane < 16; ++lane) {
    for (size_t i = view.count; i < view.lane_stride; ++i) {
      if (std::bit_cast<uint32_t>(view.Lane(lane)[i]) != 0) return false;
    }
  }
  return true;
}

// All 16 * capacity floats, padding included.
std::vector<uint32_t> AllBits(const Mat4Buffer& buffer) {
  const ConstMat4View view = buffer.view();
  std::vector<uint32_t> bits(16 * view.lane_stride);
  if (!bits.empty()) std::memcpy(bits.data(), view.data, bits.size() * sizeof(float));
  return bits;
}

TEST_CASE("Mat4Buffer::Create gives zero matrices in 16 aligned, padded lane arrays") {
  MemoryAccountant memory;
  for (const size_t count : kSizes) {
    INFO("size " << count);
    Result<Mat4Buffer> buffer = Mat4Buffer::Create(memory, count);
    REQUIRE(buffer.ok());
    CHECK(buffer->size() == count);
    CHECK(buffer->capacity() == test::PaddedFloats(count));
    CHECK(buffer->category() == MemoryCategory::kParticles);
    const ConstMat4View view = std::as_const(*buffer).view();
    CHECK(view.count == count);
    CHECK(view.lane_stride == buffer->capacity());
    CHECK(reinterpret_cast<uintptr_t>(view.data) % 64 == 0);
    for (size_t lane = 1; lane < 16; ++lane) {
      CHECK(view.Lane(lane) == view.data + lane * view.lane_stride);
    }
    CHECK(view.Element(2, 1) == view.Lane(9));  // column 2, row 1
    const std::vector<uint32_t> bits = AllBits(*buffer);
    CHECK(std::all_of(bits.begin(), bits.end(), [](uint32_t b) { return b == 0; }));
    CHECK(memory.Stats(MemoryCategory::kParticles).bytes_in_use >=
          16 * buffer->capacity() * sizeof(float));
  }
  Result<Mat4Buffer> robots = Mat4Buffer::Create(memory, 5, MemoryCategory::kRobots);
  REQUIRE(robots.ok());
  CHECK(robots->category() == MemoryCategory::kRobots);
}

TEST_CASE("Mat4Buffer::Set puts entry (column c, row r) in lane 4c + r, Get reads it back") {
  MemoryAccountant memory;
  Result<Mat4Buffer> buffer = Mat4Buffer::Create(memory, 17);
  REQUIRE(buffer.ok());
  const std::vector<glm::mat4> values = PatternMatrices(17);
  for (size_t i = 0; i < values.size(); ++i) buffer->Set(i, values[i]);
  const ConstMat4View view = std::as_const(*buffer).view();
  size_t mismatches = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 4; ++r) {
        const float stored = view.Lane(static_cast<size_t>(4 * c + r))[i];
        mismatches += std::bit_cast<uint32_t>(stored) != std::bit_cast<uint32_t>(values[i][c][r]);
      }
    }
    mismatches += !SameBits(buffer->Get(i), values[i]);
  }
  CHECK(mismatches == 0);
  CHECK(PaddingIsZero(*buffer));

  // glm's own convention: a translation lives in column 3.
  glm::mat4 translation(1.0f);
  translation[3] = glm::vec4(5.0f, 6.0f, 7.0f, 1.0f);
  buffer->Set(3, translation);
  CHECK(view.Element(3, 0)[3] == 5.0f);
  CHECK(view.Element(3, 2)[3] == 7.0f);
  CHECK(view.Element(0, 0)[3] == 1.0f);
  CHECK(view.Element(0, 3)[3] == 0.0f);
}

TEST_CASE("Mat4Buffer CopyFrom/CopyTo round-trip glm::mat4 spans bit-exactly") {
  MemoryAccountant memory;
  for (const size_t count : kSizes) {
    INFO("size " << count);
    const std::vector<glm::mat4> input = PatternMatrices(count);
    Result<Mat4Buffer> buffer = Mat4Buffer::Create(memory, count);
    REQUIRE(buffer.ok());
    REQUIRE(buffer->CopyFrom(input).ok());
    size_t mismatches = 0;
    for (size_t i = 0; i < count; ++i) mismatches += !SameBits(buffer->Get(i), input[i]);
    CHECK(mismatches == 0);
    CHECK(PaddingIsZero(*buffer));

    // Into the middle of a larger span: the guards on both sides stay untouched.
    constexpr size_t kGuard = 3;
    const glm::mat4 guard = PatternMatrices(1)[0];
    std::vector<glm::mat4> output(count + 2 * kGuard, guard);
    REQUIRE(buffer->CopyTo(std::span(output).subspan(kGuard, count)).ok());
    size_t round_trip = 0;
    for (size_t i = 0; i < count; ++i) round_trip += !SameBits(output[kGuard + i], input[i]);
    CHECK(round_trip == 0);
    for (size_t i = 0; i < kGuard; ++i) {
      CHECK(SameBits(output[i], guard));
      CHECK(SameBits(output[kGuard + count + i], guard));
    }
  }
}

TEST_CASE("Mat4Buffer CopyFrom/CopyTo with a wrong-size span fail and change nothing") {
  MemoryAccountant memory;
  Result<Mat4Buffer> buffer = Mat4Buffer::Create(memory, 16);
  REQUIRE(buffer.ok());
  REQUIRE(buffer->CopyFrom(PatternMatrices(16)).ok());
  const std::vector<uint32_t> before = AllBits(*buffer);

  const std::vector<glm::mat4> wrong = PatternMatrices(17);
  const Status too_short = buffer->CopyFrom(std::span(wrong).subspan(2));
  CHECK(too_short.code() == ErrorCode::kInvalidArgument);
  CHECK_THAT(too_short.message(), Catch::Contains("Mat4Buffer::CopyFrom") &&
                                      Catch::Contains("15 matrices") && Catch::Contains("16"));
  CHECK(AllBits(*buffer) == before);
  const Status too_long = buffer->CopyFrom(wrong);
  CHECK(too_long.code() == ErrorCode::kInvalidArgument);
  CHECK_THAT(too_long.message(), Catch::Contains("17 matrices") && Catch::Contains("16"));
  CHECK(AllBits(*buffer) == before);

  std::vector<glm::mat4> destination = PatternMatrices(15);
  const std::vector<glm::mat4> destination_before = destination;
  const Status to = buffer->CopyTo(destination);
  CHECK(to.code() == ErrorCode::kInvalidArgument);
  CHECK_THAT(to.message(), Catch::Contains("Mat4Buffer::CopyTo") && Catch::Contains("15") &&
                               Catch::Contains("16"));
  CHECK(std::memcmp(destination.data(), destination_before.data(),
                    destination.size() * sizeof(glm::mat4)) == 0);
}

TEST_CASE("Mat4Buffer Resize, Reserve and ResizedCopy keep contents and zero the rest") {
  MemoryAccountant memory;
  Result<Mat4Buffer> buffer = Mat4Buffer::Create(memory, 17);
  REQUIRE(buffer.ok());
  const std::vector<glm::mat4> values = PatternMatrices(17);
  REQUIRE(buffer->CopyFrom(values).ok());
  const auto kept = [&](const Mat4Buffer& b, size_t prefix) {
    size_t mismatches = 0;
    for (size_t i = 0; i < prefix; ++i) mismatches += !SameBits(b.Get(i), values[i]);
    return mismatches == 0;
  };
  const auto zero_from = [](const Mat4Buffer& b, size_t begin) {
    size_t non_zero = 0;
    for (size_t i = begin; i < b.size(); ++i) non_zero += !SameBits(b.Get(i), glm::mat4(0.0f));
    return non_zero == 0;
  };

  SECTION("grow past the capacity") {
    REQUIRE(buffer->Resize(1000).ok());
    CHECK(buffer->capacity() == test::PaddedFloats(1000));
    CHECK(kept(*buffer, 17));
    CHECK(zero_from(*buffer, 17));
    CHECK(PaddingIsZero(*buffer));
  }
  SECTION("shrink, then grow inside the capacity: the dropped tail comes back zero") {
    REQUIRE(buffer->Resize(3).ok());
    CHECK(PaddingIsZero(*buffer));
    REQUIRE(buffer->Resize(20).ok());
    CHECK(buffer->capacity() == test::PaddedFloats(17));
    CHECK(kept(*buffer, 3));
    CHECK(zero_from(*buffer, 3));
  }
  SECTION("Reserve moves without changing size or contents") {
    REQUIRE(buffer->Reserve(5000).ok());
    CHECK(buffer->size() == 17);
    CHECK(buffer->capacity() == test::PaddedFloats(5000));
    CHECK(kept(*buffer, 17));
    CHECK(PaddingIsZero(*buffer));
  }
  SECTION("ResizedCopy leaves the original alone") {
    const std::vector<uint32_t> before = AllBits(*buffer);
    Result<Mat4Buffer> bigger = buffer->ResizedCopy(40);
    REQUIRE(bigger.ok());
    CHECK(bigger->size() == 40);
    CHECK(kept(*bigger, 17));
    CHECK(zero_from(*bigger, 17));
    Result<Mat4Buffer> smaller = buffer->ResizedCopy(5);
    REQUIRE(smaller.ok());
    CHECK(kept(*smaller, 5));
    CHECK(PaddingIsZero(*smaller));
    CHECK(AllBits(*buffer) == before);
  }
  SECTION("an impossible size is an error and keeps everything") {
    const std::vector<uint32_t> before = AllBits(*buffer);
    const Status status = buffer->Resize(std::numeric_limits<size_t>::max() / 2);
    CHECK(status.code() == ErrorCode::kInvalidArgument);
    CHECK_THAT(status.message(), Catch::Contains("too large"));
    CHECK(buffer->size() == 17);
    CHECK(AllBits(*buffer) == before);
  }
}

TEST_CASE("A Mat4Buffer's view drives the per-element transform kernels") {
  MemoryAccountant memory;
  Result<Mat4Buffer> matrices = Mat4Buffer::Create(memory, 33);
  Result<Vec4Buffer> points = Vec4Buffer::Create(memory, 33);
  REQUIRE(matrices.ok());
  REQUIRE(points.ok());
  for (size_t i = 0; i < 33; ++i) {
    glm::mat4 m(1.0f);
    m[3] = glm::vec4(static_cast<float>(i), -1.0f, 2.0f, 1.0f);
    matrices->Set(i, m);
    points->Set(i, glm::vec4(1.0f, 2.0f, 3.0f, 0.0f));
  }
  TransformVectorsPerElement(std::as_const(*matrices).view(), std::as_const(*points).view(),
                             points->view(), TransformMode::kPoints);
  for (size_t i = 0; i < 33; ++i) {
    INFO("element " << i);
    CHECK(points->Get(i) == glm::vec4(1.0f + static_cast<float>(i), 1.0f, 5.0f, 1.0f));
  }
}

}  // namespace
}  // namespace swarm
