// Tests for swarm/core/memory.h: exact per-category accounting of the buffers' padded allocations,
// the peak of the total, the report table, and the budget (a refused request names category,
// request, budget and bytes in use, and loses nothing already allocated).
#include "swarm/core/memory.h"

#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdint>
#include <glm/vec4.hpp>
#include <string>
#include <utility>
#include <vector>

#include "swarm/core/buffer.h"
#include "swarm/core/state_hash.h"
#include "tests/support/padding.h"

namespace swarm {
namespace {

// Bytes the accountant charges for `lanes` lane arrays of `count` elements of `element_bytes`,
// derived from docs/design.md independently of the library (tests/support/padding.h): each lane is
// padded to whole padding vectors, the block is rounded to 64 bytes, and an empty buffer still
// takes one 64-byte block (the allocator hands out a unique pointer for it).
size_t ExpectedBytes(size_t lanes, size_t element_bytes, size_t count) {
  const size_t padded = test::PaddedCount(count, element_bytes);
  const size_t bytes = std::max<size_t>(lanes * padded * element_bytes, 1);
  return (bytes + 63) / 64 * 64;
}
size_t Vec4Bytes(size_t count) { return ExpectedBytes(4, 4, count); }
size_t FloatBytes(size_t count) { return ExpectedBytes(1, 4, count); }
size_t ByteBytes(size_t count) { return ExpectedBytes(1, 1, count); }

void CheckStats(const CategoryStats& stats, size_t in_use, size_t peak, uint64_t allocations,
                uint64_t live) {
  CHECK(stats.bytes_in_use == in_use);
  CHECK(stats.peak_bytes == peak);
  CHECK(stats.allocations == allocations);
  CHECK(stats.live_allocations == live);
}

std::vector<glm::vec4> Ramp(size_t count) {
  std::vector<glm::vec4> values(count);
  for (size_t i = 0; i < count; ++i) {
    const float f = static_cast<float>(i);
    values[i] = {f, -f, f * 0.5f, 1.0f / (f + 1.0f)};
  }
  return values;
}

uint64_t Hash(const Vec4Buffer& buffer) { return StateHasher().Add(buffer.view()).Digest(); }

TEST_CASE("ExpectedBytes matches hand-computed values") {
  CHECK(Vec4Bytes(0) == 64);
  if (test::kExpectedPadBytes == 64) {
    CHECK(Vec4Bytes(1) == 256);  // 4 lanes * 16 floats * 4 bytes
    CHECK(Vec4Bytes(17) == 512);
    CHECK(FloatBytes(17) == 128);
    CHECK(ByteBytes(65) == 128);
  } else {
    CHECK(Vec4Bytes(1) == 1024);  // 4 lanes * 64 floats * 4 bytes
    CHECK(Vec4Bytes(65) == 2048);
    CHECK(FloatBytes(65) == 512);
    CHECK(ByteBytes(257) == 512);
  }
}

TEST_CASE("Per-category bytes, peak, allocations and live counts are exact") {
  MemoryAccountant memory;
  for (size_t i = 0; i < kMemoryCategoryCount; ++i) {
    CheckStats(memory.Stats(static_cast<MemoryCategory>(i)), 0, 0, 0, 0);
  }
  const size_t a = Vec4Bytes(1000);
  const size_t b = FloatBytes(1000);
  const size_t c = ByteBytes(100003);
  const size_t d = Vec4Bytes(17);
  {
    Result<Vec4Buffer> positions = Vec4Buffer::Create(memory, 1000);
    Result<FloatArray> ages = FloatArray::Create(memory, 1000);
    Result<ByteArray> image = ByteArray::Create(memory, 100003, MemoryCategory::kImages);
    Result<Vec4Buffer> scratch = Vec4Buffer::Create(memory, 17, MemoryCategory::kScratch);
    REQUIRE((positions.ok() && ages.ok() && image.ok() && scratch.ok()));
    CheckStats(memory.Stats(MemoryCategory::kParticles), a + b, a + b, 2, 2);
    CheckStats(memory.Stats(MemoryCategory::kImages), c, c, 1, 1);
    CheckStats(memory.Stats(MemoryCategory::kScratch), d, d, 1, 1);
    CheckStats(memory.Stats(MemoryCategory::kTensors), 0, 0, 0, 0);
    CheckStats(memory.Stats(MemoryCategory::kRobots), 0, 0, 0, 0);
    CheckStats(memory.Total(), a + b + c + d, a + b + c + d, 4, 4);

    // Growing past the capacity allocates the new block before freeing the old one, so the
    // peak briefly holds both.
    REQUIRE(positions->Resize(5000).ok());
    const size_t a2 = Vec4Bytes(5000);
    CheckStats(memory.Stats(MemoryCategory::kParticles), a2 + b, a + b + a2, 3, 2);
    CheckStats(memory.Total(), a2 + b + c + d, a + b + c + d + a2, 5, 4);
    // Shrinking and growing inside the capacity allocates nothing.
    REQUIRE(positions->Resize(10).ok());
    REQUIRE(positions->Resize(4999).ok());
    CheckStats(memory.Stats(MemoryCategory::kParticles), a2 + b, a + b + a2, 3, 2);
  }
  // Everything freed: in use and live drop to zero, the history stays.
  const size_t a2 = Vec4Bytes(5000);
  CheckStats(memory.Stats(MemoryCategory::kParticles), 0, a + b + a2, 3, 0);
  CheckStats(memory.Stats(MemoryCategory::kImages), 0, c, 1, 0);
  CheckStats(memory.Total(), 0, a + b + c + d + a2, 5, 0);
}

TEST_CASE("Total peak is the peak of the sum, not the sum of the peaks") {
  MemoryAccountant memory;
  const size_t particles = Vec4Bytes(4096);
  const size_t images = FloatBytes(8192);
  {
    Result<Vec4Buffer> buffer = Vec4Buffer::Create(memory, 4096);
    REQUIRE(buffer.ok());
  }
  {
    Result<FloatArray> image = FloatArray::Create(memory, 8192, MemoryCategory::kImages);
    REQUIRE(image.ok());
  }
  CHECK(memory.Stats(MemoryCategory::kParticles).peak_bytes == particles);
  CHECK(memory.Stats(MemoryCategory::kImages).peak_bytes == images);
  CHECK(memory.Total().peak_bytes == std::max(particles, images));
  CHECK(memory.Total().peak_bytes != particles + images);
}

TEST_CASE("Report lists every category, the total, the budget and the process RSS") {
  MemoryAccountant memory(96u << 20);
  Result<Vec4Buffer> buffer = Vec4Buffer::Create(memory, 1000, MemoryCategory::kRobots);
  REQUIRE(buffer.ok());
  const std::string report = memory.Report();
  INFO(report);
  CHECK_THAT(report, Catch::StartsWith("swarm memory"));
  for (const char* name :
       {"particles", "images", "tensors", "robots", "scratch", "total", "budget", "process RSS"}) {
    CHECK_THAT(report, Catch::Contains(name));
  }
  CHECK_THAT(report, Catch::Contains(FormatBytes(Vec4Bytes(1000))));  // robots and total
  CHECK_THAT(report, Catch::Contains("96.00 MiB"));

  MemoryAccountant unlimited;
  CHECK_THAT(unlimited.Report(), Catch::Contains("none"));
}

TEST_CASE("FormatBytes and ProcessResidentBytes") {
  CHECK(FormatBytes(0) == "0 B");
  CHECK(FormatBytes(512) == "512 B");
  CHECK(FormatBytes(1023) == "1023 B");
  CHECK(FormatBytes(1024) == "1.00 KiB");
  CHECK(FormatBytes(96u << 20) == "96.00 MiB");
  CHECK(FormatBytes(size_t{3} << 29) == "1.50 GiB");
  CHECK(ProcessResidentBytes() > 0);
}

TEST_CASE("A request over the budget fails with a precise message and loses nothing") {
  const size_t budget = 64 * 1024;
  MemoryAccountant memory(budget);
  CHECK(memory.budget() == budget);
  Result<Vec4Buffer> kept = Vec4Buffer::Create(memory, 1000);  // 16128 bytes
  REQUIRE(kept.ok());
  REQUIRE(kept->CopyFrom(Ramp(1000)).ok());
  const uint64_t kept_hash = Hash(*kept);
  const size_t in_use = Vec4Bytes(1000);
  REQUIRE(memory.Total().bytes_in_use == in_use);

  const size_t request = Vec4Bytes(3200);  // 51456 bytes: fits alone, not with `kept`
  REQUIRE(request <= budget);
  REQUIRE(request + in_use > budget);
  Result<Vec4Buffer> refused = Vec4Buffer::Create(memory, 3200, MemoryCategory::kTensors);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().code() == ErrorCode::kOverBudget);
  const std::string& message = refused.status().message();
  CHECK_THAT(message, Catch::Contains("tensors"));
  CHECK_THAT(message, Catch::Contains(FormatBytes(request)));
  CHECK_THAT(message, Catch::Contains(FormatBytes(budget)));
  CHECK_THAT(message, Catch::Contains(FormatBytes(in_use)));
  CHECK(ErrorCodeName(ErrorCode::kOverBudget) == std::string("over memory budget"));

  // Nothing was charged and the existing buffer is intact.
  CheckStats(memory.Total(), in_use, in_use, 1, 1);
  CHECK(memory.Stats(MemoryCategory::kTensors).allocations == 0);
  CHECK(Hash(*kept) == kept_hash);

  SECTION("a failed Resize or Reserve of an existing buffer changes nothing") {
    const size_t capacity = kept->capacity();
    const Status grow = kept->Resize(4000);
    CHECK(grow.code() == ErrorCode::kOverBudget);
    CHECK_THAT(grow.message(),
               Catch::Contains("particles") && Catch::Contains(FormatBytes(Vec4Bytes(4000))));
    const Status reserve = kept->Reserve(4000);
    CHECK(reserve.code() == ErrorCode::kOverBudget);
    CHECK(kept->size() == 1000);
    CHECK(kept->capacity() == capacity);
    CHECK(Hash(*kept) == kept_hash);
    CheckStats(memory.Total(), in_use, in_use, 1, 1);
  }
  SECTION("after freeing, the budget is available again") {
    kept = Vec4Buffer();
    CHECK(memory.Total().bytes_in_use == 0);
    Result<Vec4Buffer> retried = Vec4Buffer::Create(memory, 3200, MemoryCategory::kTensors);
    CHECK(retried.ok());
    CHECK(memory.Stats(MemoryCategory::kTensors).bytes_in_use == request);
  }
  SECTION("a budget below the bytes in use refuses new requests only") {
    memory.SetBudget(1024);
    CHECK(memory.budget() == 1024);
    CHECK(Hash(*kept) == kept_hash);
    Result<FloatArray> small = FloatArray::Create(memory, 1);
    CHECK(small.status().code() == ErrorCode::kOverBudget);
    memory.SetBudget(kNoBudget);
    CHECK(FloatArray::Create(memory, 1).ok());
  }
}

TEST_CASE("A request exactly at the budget succeeds and one byte less of budget refuses it") {
  const size_t bytes = Vec4Bytes(1000);
  {
    MemoryAccountant memory(bytes);
    CHECK(Vec4Buffer::Create(memory, 1000).ok());
  }
  {
    MemoryAccountant memory(bytes - 1);
    CHECK(Vec4Buffer::Create(memory, 1000).status().code() == ErrorCode::kOverBudget);
  }
}

TEST_CASE("MemoryAccountant::Allocate and Free directly") {
  MemoryAccountant memory;
  Result<void*> block = memory.Allocate(MemoryCategory::kScratch, 100);
  REQUIRE(block.ok());
  CHECK(reinterpret_cast<uintptr_t>(block.value()) % 64 == 0);
  const auto* bytes = static_cast<const unsigned char*>(block.value());
  bool zero = true;
  for (size_t i = 0; i < 128; ++i) zero &= bytes[i] == 0;  // zero-filled up to the rounding
  CHECK(zero);
  CheckStats(memory.Stats(MemoryCategory::kScratch), 128, 128, 1, 1);
  memory.Free(MemoryCategory::kScratch, block.value(), 100);
  CheckStats(memory.Stats(MemoryCategory::kScratch), 0, 128, 1, 0);

  Result<void*> impossible = memory.Allocate(MemoryCategory::kImages, SIZE_MAX - 10);
  REQUIRE_FALSE(impossible.ok());
  CHECK(impossible.status().code() == ErrorCode::kOutOfMemory);
  CHECK_THAT(impossible.status().message(), Catch::Contains("images"));
  CHECK(memory.Total().allocations == 1);
}

TEST_CASE("Blocks of 8 MiB or more are huge-page aligned and accounted at 2 MiB granularity") {
  constexpr size_t kMiB = size_t{1} << 20;
  MemoryAccountant memory;
  const size_t request = 8 * kMiB + 1;
  Result<void*> block = memory.Allocate(MemoryCategory::kParticles, request);
  REQUIRE(block.ok());
  CHECK(reinterpret_cast<uintptr_t>(block.value()) % (2 * kMiB) == 0);
  CheckStats(memory.Stats(MemoryCategory::kParticles), 10 * kMiB, 10 * kMiB, 1, 1);
  const auto* bytes = static_cast<const unsigned char*>(block.value());
  CHECK(bytes[0] == 0);
  CHECK(bytes[10 * kMiB - 1] == 0);  // zero-filled up to the rounding
  memory.Free(MemoryCategory::kParticles, block.value(), request);
  CheckStats(memory.Stats(MemoryCategory::kParticles), 0, 10 * kMiB, 1, 0);
  // Just under the threshold keeps 64-byte granularity.
  Result<void*> small = memory.Allocate(MemoryCategory::kParticles, 8 * kMiB - 100);
  REQUIRE(small.ok());
  CHECK(memory.Stats(MemoryCategory::kParticles).bytes_in_use == 8 * kMiB - 64);
  memory.Free(MemoryCategory::kParticles, small.value(), 8 * kMiB - 100);
}

}  // namespace
}  // namespace swarm

namespace swarm {
namespace {

TEST_CASE("Reserve accounts bytes without memory and gives them back") {
  MemoryAccountant memory(1 << 20);
  {
    Result<MemoryReservation> reserved = memory.Reserve(MemoryCategory::kScratch, 600 << 10);
    REQUIRE(reserved.ok());
    CHECK(reserved->bytes() == 600 << 10);
    CheckStats(memory.Stats(MemoryCategory::kScratch), 600 << 10, 600 << 10, 1, 1);
    // The reservation counts against the budget like an allocation.
    Result<void*> refused = memory.Allocate(MemoryCategory::kImages, 500 << 10);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.status().code() == ErrorCode::kOverBudget);
    CHECK_THAT(refused.status().message(), Catch::Contains("600.00 KiB in use"));
    // Moved, it is released once.
    MemoryReservation moved = std::move(reserved).value();
    CHECK(memory.Total().bytes_in_use == 600 << 10);
    moved.Release();
    CHECK(memory.Total().bytes_in_use == 0);
    moved.Release();
  }
  CheckStats(memory.Stats(MemoryCategory::kScratch), 0, 600 << 10, 1, 0);
  Result<MemoryReservation> too_much = memory.Reserve(MemoryCategory::kScratch, 2 << 20);
  REQUIRE_FALSE(too_much.ok());
  CHECK(too_much.status().code() == ErrorCode::kOverBudget);
  CHECK(memory.Total().bytes_in_use == 0);
}

TEST_CASE("AllocateUntouched accounts like Allocate and leaves pages uncommitted") {
  MemoryAccountant memory;
  const size_t bytes = size_t{256} << 20;
  const size_t rss_before = ProcessResidentBytes();
  Result<void*> block = memory.AllocateUntouched(MemoryCategory::kScratch, bytes);
  REQUIRE(block.ok());
  CHECK(memory.Stats(MemoryCategory::kScratch).bytes_in_use == bytes);
  // Zero-filling would have committed 256 MiB; untouched, the RSS grows by far less.
  CHECK(ProcessResidentBytes() < rss_before + (bytes / 8));
  static_cast<unsigned char*>(block.value())[0] = 1;  // writable
  memory.Free(MemoryCategory::kScratch, block.value(), bytes);
  CHECK(memory.Total().bytes_in_use == 0);
}

}  // namespace
}  // namespace swarm
