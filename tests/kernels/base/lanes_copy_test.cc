// Tests for swarm/kernels/base/lanes_copy.h: CopyLanes against a scalar memcpy of each array on
// every compiled target, cached and streamed, for aligned and misaligned views. Pure data
// movement, so the tolerance is zero: every destination float has the source's bits (NaN
// payloads, infinities, denormals, -0), and nothing past `count` (padding, other arrays' gaps)
// is written.
#include "swarm/kernels/base/lanes_copy.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "hwy/aligned_allocator.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

constexpr uint32_t kCanary = 0x7fc0beef;  // a quiet NaN with a payload, never a source value

uint32_t Bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

// `arrays` lane arrays of `count` floats each, `stride` apart, starting `offset` floats past an
// aligned allocation; every float of the allocation starts as the canary.
struct Lanes {
  Lanes(size_t arrays, size_t count, size_t stride, size_t offset)
      : arrays(arrays),
        count(count),
        stride(stride),
        offset(offset),
        storage(hwy::AllocateAligned<float>(arrays * stride + offset + kPadFloats)),
        floats(arrays * stride + offset + kPadFloats) {
    for (size_t k = 0; k < floats; ++k) std::memcpy(&storage[k], &kCanary, sizeof(kCanary));
  }
  float* data() { return storage.get() + offset; }
  LanesView view() { return {data(), count, stride, arrays}; }
  ConstLanesView const_view() { return {data(), count, stride, arrays}; }

  size_t arrays, count, stride, offset;
  hwy::AlignedFreeUniquePtr<float[]> storage;
  size_t floats;
};

TEST_CASE("CopyLanes copies every bit and writes nothing past count, cached and streamed",
          "[base]") {
  std::mt19937 rng(7);
  std::uniform_int_distribution<uint32_t> any_bits;
  const size_t counts[] = {0, 1, 3, 15, 16, 17, 63, 64, 100, 1000, 4099};
  for (size_t count : counts) {
    for (size_t offset : {size_t{0}, size_t{1}}) {
      const size_t stride = RoundUpToVector<float>(count + 1) + (offset == 0 ? 0 : kPadFloats);
      const size_t arrays = 5;
      Lanes from(arrays, count, stride, offset);
      for (size_t a = 0; a < arrays; ++a) {
        for (size_t i = 0; i < count; ++i) {
          uint32_t bits = any_bits(rng);
          if (bits == kCanary) bits ^= 1u;
          std::memcpy(from.data() + a * stride + i, &bits, sizeof(bits));
        }
      }
      test::ForEachTarget([&](const test::TargetUnderTest& target) {
        for (bool streamed : {false, true}) {
          INFO("target " << target.name << ", count " << count << ", offset " << offset
                         << ", streamed " << streamed);
          Lanes to(arrays, count, stride, offset);
          CopyLanes(from.const_view(), to.view(), streamed);
          size_t differing = 0, written_outside = 0;
          for (size_t k = 0; k < to.floats - offset; ++k) {
            const size_t a = k / stride, i = k % stride;
            const bool inside = a < arrays && i < count;
            const uint32_t got = Bits(to.data()[k]);
            if (inside && got != Bits(from.data()[k])) ++differing;
            if (!inside && got != kCanary) ++written_outside;
          }
          CHECK(differing == 0);
          CHECK(written_outside == 0);
        }
      });
    }
  }
}

}  // namespace
}  // namespace swarm
