// Tests for kernels/tensor_ops.*: every row kernel against the scalar reference
// (swarm/kernels/tensor/row_kernels_reference.h) on every compiled SIMD target, bit for bit, at
// sizes around every target's vector length; inputs include NaN (with payloads), +-0, +-inf and
// subnormals. Rows live in allocations of exactly `count` floats so that AddressSanitizer reports
// any read or write past the row, and in guarded buffers whose surroundings must stay untouched.
// Sums are also checked against long double within the error bound
// swarm/kernels/tensor/row_kernels.h states.
#include "swarm/kernels/tensor/row_kernels.h"

#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "swarm/kernels/tensor/row_kernels_reference.h"
#include "swarm/kernels/tensor/small_floats.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

using test::ForEachTarget;
using test::TargetUnderTest;

// 0, 1, lanes - 1, lanes, lanes + 1 for 4, 8 and 16 float lanes, a reduction block (32) and
// its neighbours, and a large row with a ragged end.
const size_t kSizes[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 1007};

constexpr ElementwiseOp kOps[] = {
    ElementwiseOp::kAdd,          ElementwiseOp::kSub,       ElementwiseOp::kMul,
    ElementwiseOp::kDiv,          ElementwiseOp::kMin,       ElementwiseOp::kMax,
    ElementwiseOp::kLess,         ElementwiseOp::kLessEqual, ElementwiseOp::kGreater,
    ElementwiseOp::kGreaterEqual, ElementwiseOp::kEqual,     ElementwiseOp::kNotEqual,
    ElementwiseOp::kAnd,          ElementwiseOp::kOr};
static_assert(std::size(kOps) == kElementwiseOpCount);

const char* Name(ElementwiseOp op) {
  constexpr const char* kNames[] = {"add",   "sub",       "mul",        "div",     "min",
                                    "max",   "less",      "less_equal", "greater", "greater_equal",
                                    "equal", "not_equal", "and",        "or"};
  static_assert(std::size(kNames) == kElementwiseOpCount);
  return kNames[static_cast<size_t>(op)];
}

uint32_t Bits(float value) { return std::bit_cast<uint32_t>(value); }
uint64_t Bits(double value) { return std::bit_cast<uint64_t>(value); }

// Values that exercise every special case; Random() mixes them into ordinary numbers.
const float kSpecials[] = {0.0f,
                           -0.0f,
                           std::numeric_limits<float>::infinity(),
                           -std::numeric_limits<float>::infinity(),
                           std::numeric_limits<float>::quiet_NaN(),
                           std::bit_cast<float>(0xffc01234u),  // negative NaN with a payload
                           std::bit_cast<float>(0x7fa00001u),  // signalling NaN
                           std::numeric_limits<float>::denorm_min(),
                           -1e-40f,
                           std::numeric_limits<float>::max(),
                           1.0f,
                           -1.0f};

// Magnitudes spread over 2^-30 .. 2^30, so that double sums round and any change of summation
// order would show in the bits (numbers from one octave mostly sum exactly in double).
std::vector<float> Random(size_t count, uint32_t seed, double special_fraction) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> mantissa(-1.0f, 1.0f);
  std::uniform_int_distribution<int> exponent(-30, 30);
  const auto uniform = [&](std::mt19937& r) { return std::ldexp(mantissa(r), exponent(r)); };
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  std::uniform_int_distribution<size_t> pick(0, std::size(kSpecials) - 1);
  std::vector<float> values(count);
  for (float& value : values)
    value = coin(rng) < special_fraction ? kSpecials[pick(rng)] : uniform(rng);
  return values;
}

// A heap allocation of exactly `count` floats (ASan flags any access past it).
std::unique_ptr<float[]> Exact(const std::vector<float>& values) {
  auto memory = std::make_unique<float[]>(values.size());
  if (!values.empty()) std::memcpy(memory.get(), values.data(), values.size() * sizeof(float));
  return memory;
}

void RequireSameBits(const float* got, const float* want, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (Bits(got[i]) != Bits(want[i])) {
      INFO("element " << i << ": got " << got[i] << " (0x" << std::hex << Bits(got[i]) << ") want "
                      << want[i] << " (0x" << Bits(want[i]) << ")");
      REQUIRE(Bits(got[i]) == Bits(want[i]));
    }
  }
}

TEST_CASE("ElementwiseRow matches the reference bit for bit on every target") {
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    for (const ElementwiseOp op : kOps) {
      for (const size_t count : kSizes) {
        for (const size_t a_step : {0, 1}) {
          for (const size_t b_step : {0, 1}) {
            INFO(Name(op) << " count " << count << " steps " << a_step << ", " << b_step);
            const size_t a_count = a_step == 1 ? count : (count > 0 ? 1 : 0);
            const size_t b_count = b_step == 1 ? count : (count > 0 ? 1 : 0);
            const std::vector<float> a = Random(a_count, 1 + count, 0.2);
            const std::vector<float> b = Random(b_count, 2 + count, 0.2);
            std::vector<float> want(count);
            reference::ElementwiseRow(op, a.data(), static_cast<ptrdiff_t>(a_step), b.data(),
                                      static_cast<ptrdiff_t>(b_step), want.data(), count);
            const auto exact_a = Exact(a);
            const auto exact_b = Exact(b);
            auto out = std::make_unique<float[]>(count);
            ElementwiseRow(op, exact_a.get(), a_step, exact_b.get(), b_step, out.get(), count);
            RequireSameBits(out.get(), want.data(), count);
          }
        }
      }
    }
  });
}

TEST_CASE("UnaryRow matches the reference bit for bit on every target, in place too") {
  const float specials[] = {0.0f,
                            -0.0f,
                            1.0f,
                            -1.0f,
                            2.0f,
                            -4.5f,
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN(),
                            std::bit_cast<float>(0xffc05678u),
                            1e-40f,
                            -1e-40f};
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    for (size_t op_index = 0; op_index < kUnaryOpCount; ++op_index) {
      const auto op = static_cast<UnaryOp>(op_index);
      for (const size_t count : kSizes) {
        INFO("op " << static_cast<int>(op) << ", count " << count);
        std::vector<float> values = Random(count, 41 + count, 0.1);
        for (size_t i = 0; i < count && i < std::size(specials); ++i) values[i] = specials[i];
        std::vector<float> out(count + 1, 7.0f);  // one guard element past the row
        UnaryRow(op, values.data(), out.data(), count);
        for (size_t i = 0; i < count; ++i) {
          REQUIRE(Bits(out[i]) == Bits(reference::Unary(op, values[i])));
        }
        REQUIRE(out[count] == 7.0f);
        UnaryRow(op, values.data(), values.data(), count);  // in place
        for (size_t i = 0; i < count; ++i) REQUIRE(Bits(values[i]) == Bits(out[i]));
      }
    }
  });
}

TEST_CASE("Comparisons and logic give 1 or 0 for every pair of special values on every target") {
  // Every pair, so equal operands (+0 and -0, infinities, NaN with itself) are all met.
  std::vector<float> a, b;
  for (const float x : kSpecials) {
    for (const float y : kSpecials) {
      a.push_back(x);
      b.push_back(y);
    }
  }
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    for (const ElementwiseOp op : kOps) {
      INFO(Name(op));
      std::vector<float> out(a.size()), want(a.size());
      ElementwiseRow(op, a.data(), 1, b.data(), 1, out.data(), a.size());
      reference::ElementwiseRow(op, a.data(), 1, b.data(), 1, want.data(), a.size());
      RequireSameBits(out.data(), want.data(), a.size());
      std::vector<float> short_out(a.size());
      ElementwiseShortRow(op, a.data(), b.data(), short_out.data(), a.size());
      RequireSameBits(short_out.data(), want.data(), a.size());
    }
  });
  // The reference itself, on the cases that define the semantics.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(reference::Elementwise(ElementwiseOp::kEqual, -0.0f, 0.0f) == 1.0f);
  CHECK(reference::Elementwise(ElementwiseOp::kNotEqual, nan, nan) == 1.0f);
  CHECK(reference::Elementwise(ElementwiseOp::kLessEqual, nan, 1.0f) == 0.0f);
  CHECK(reference::Elementwise(ElementwiseOp::kAnd, nan, -1.0f) == 1.0f);
  CHECK(reference::Elementwise(ElementwiseOp::kOr, -0.0f, 0.0f) == 0.0f);
}

TEST_CASE("SelectRow copies the chosen operand's bits for every mix of rows and scalars") {
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    for (const size_t count : kSizes) {
      for (int steps = 0; steps < 8; ++steps) {
        const size_t mask_step = (steps & 4) != 0 ? 0 : 1;
        const size_t a_step = (steps & 2) != 0 ? 0 : 1;
        const size_t b_step = (steps & 1) != 0 ? 0 : 1;
        INFO("count " << count << " steps " << mask_step << a_step << b_step);
        const auto length = [&](size_t step) { return step == 1 ? count : (count > 0 ? 1 : 0); };
        // Masks of zeros (either sign), NaN and ordinary numbers.
        std::vector<float> mask = Random(length(mask_step), 9 + count, 0.5);
        for (size_t i = 0; i < mask.size(); i += 3) mask[i] = i % 2 == 0 ? 0.0f : -0.0f;
        const std::vector<float> a = Random(length(a_step), 10 + count, 0.3);
        const std::vector<float> b = Random(length(b_step), 11 + count, 0.3);
        const auto exact_mask = Exact(mask), exact_a = Exact(a), exact_b = Exact(b);
        auto out = std::make_unique<float[]>(count);
        SelectRow(exact_mask.get(), mask_step, exact_a.get(), a_step, exact_b.get(), b_step,
                  out.get(), count);
        for (size_t i = 0; i < count; ++i) {
          const float m = mask[i * mask_step];
          const float want = !(m == 0.0f) ? a[i * a_step] : b[i * b_step];
          REQUIRE(Bits(out[i]) == Bits(want));
        }
        if (a_step == 1 && count > 0) {  // in place over a
          auto in_a = Exact(a);
          SelectRow(exact_mask.get(), mask_step, in_a.get(), 1, exact_b.get(), b_step, in_a.get(),
                    count);
          RequireSameBits(in_a.get(), out.get(), count);
        }
      }
    }
  });
}

// Every f16 and bf16 bit pattern, the f32 values at and around every f16 midpoint (ties, and one
// f32 ulp either side), and random f32 bit patterns (NaN payloads, subnormals, huge values).
std::vector<float> NarrowingCases() {
  std::vector<float> values;
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const float f16 = ToFloat(Float16{static_cast<uint16_t>(bits)});
    const float next = ToFloat(Float16{static_cast<uint16_t>(bits + 1)});
    values.push_back(f16);
    values.push_back(std::bit_cast<float>(bits << 16));  // every bf16
    if (std::isfinite(f16) && std::isfinite(next) && (bits & 0x7fff) != 0x7bff) {
      const float middle = static_cast<float>((static_cast<double>(f16) + next) / 2);
      values.push_back(middle);
      values.push_back(std::nextafter(middle, 0.0f));
      values.push_back(std::nextafter(middle, std::numeric_limits<float>::infinity()));
    }
  }
  for (const float edge :
       {65504.0f, 65519.996f, 65520.0f, 65536.0f, 3.3895314e38f, std::numeric_limits<float>::max(),
        5.9604645e-8f, 2.9802322e-8f, 2.9802326e-8f, 6.1035156e-5f}) {
    values.push_back(edge);
    values.push_back(-edge);
  }
  std::mt19937 rng(77);
  for (int i = 0; i < 200000; ++i)
    values.push_back(std::bit_cast<float>(static_cast<uint32_t>(rng())));
  return values;
}

TEST_CASE(
    "Narrowing and widening rows and the cast ops have small_floats.h's bits on every target") {
  const std::vector<float> values = NarrowingCases();
  const size_t n = values.size();
  const StorageType types[] = {StorageType::kF16, StorageType::kBF16, StorageType::kBool,
                               StorageType::kU8};
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    for (const StorageType type : types) {
      INFO("storage type " << static_cast<int>(type));
      const size_t bytes = type == StorageType::kF16 || type == StorageType::kBF16 ? 2 : 1;
      std::vector<uint8_t> narrow(n * bytes + 1, 0xee);  // one guard byte
      NarrowRow(type, values.data(), narrow.data(), n);
      REQUIRE(narrow[n * bytes] == 0xee);
      std::vector<float> widened(n);
      WidenRow(type, narrow.data(), widened.data(), n);
      for (size_t i = 0; i < n; ++i) {
        const float x = values[i];
        INFO("element " << i << " value " << x << " (0x" << std::hex << Bits(x) << ")");
        uint16_t got = 0, want = 0;
        std::memcpy(&got, narrow.data() + i * bytes, bytes);
        float want_widened = 0.0f;
        switch (type) {
          case StorageType::kF16:
            want = ToFloat16(x).bits;
            want_widened = ToFloat(Float16{want});
            break;
          case StorageType::kBF16:
            want = ToBFloat16(x).bits;
            want_widened = ToFloat(BFloat16{want});
            break;
          case StorageType::kBool:
            want = ToBool(x).byte;
            want_widened = ToFloat(Bool{static_cast<uint8_t>(want)});
            break;
          case StorageType::kU8:
            want =
                std::isnan(x) ? 0 : static_cast<uint16_t>(std::clamp(std::trunc(x), 0.0f, 255.0f));
            want_widened = static_cast<float>(want);
            break;
        }
        REQUIRE(got == want);
        REQUIRE(Bits(widened[i]) == Bits(want_widened));
      }
    }
    // Widening every stored pattern, including bool bytes other than 0 and 1.
    std::vector<uint16_t> patterns(0x10000);
    for (uint32_t bits = 0; bits < 0x10000; ++bits) patterns[bits] = static_cast<uint16_t>(bits);
    std::vector<float> widened(0x10000);
    WidenRow(StorageType::kF16, patterns.data(), widened.data(), patterns.size());
    for (uint32_t bits = 0; bits < 0x10000; ++bits) {
      REQUIRE(Bits(widened[bits]) == Bits(ToFloat(Float16{static_cast<uint16_t>(bits)})));
    }
    WidenRow(StorageType::kBF16, patterns.data(), widened.data(), patterns.size());
    for (uint32_t bits = 0; bits < 0x10000; ++bits) {
      REQUIRE(Bits(widened[bits]) == Bits(ToFloat(BFloat16{static_cast<uint16_t>(bits)})));
    }
    std::vector<uint8_t> bytes(256);
    for (uint32_t byte = 0; byte < 256; ++byte) bytes[byte] = static_cast<uint8_t>(byte);
    WidenRow(StorageType::kBool, bytes.data(), widened.data(), 256);
    for (uint32_t byte = 0; byte < 256; ++byte) REQUIRE(widened[byte] == (byte != 0 ? 1.0f : 0.0f));
    WidenRow(StorageType::kU8, bytes.data(), widened.data(), 256);
    for (uint32_t byte = 0; byte < 256; ++byte) REQUIRE(widened[byte] == static_cast<float>(byte));
    // The round trips as unary ops.
    std::vector<float> rounded(n);
    for (const UnaryOp op : {UnaryOp::kRoundF16, UnaryOp::kRoundBF16, UnaryOp::kToBool,
                             UnaryOp::kNot, UnaryOp::kIntegerPart}) {
      INFO("unary op " << static_cast<int>(op));
      UnaryRow(op, values.data(), rounded.data(), n);
      for (size_t i = 0; i < n; ++i) {
        if (Bits(rounded[i]) != Bits(reference::Unary(op, values[i]))) {
          INFO("value " << values[i] << " (0x" << std::hex << Bits(values[i]) << ")");
          REQUIRE(Bits(rounded[i]) == Bits(reference::Unary(op, values[i])));
        }
      }
    }
  });
}

TEST_CASE("small_floats.h rounds the documented cases") {
  // Written out by hand from IEEE binary16 / bfloat16 (numpy's astype gives the same).
  CHECK(ToFloat16(1.0).bits == 0x3c00);
  CHECK(ToFloat16(65504.0).bits == 0x7bff);
  CHECK(ToFloat16(65519.99).bits == 0x7bff);
  CHECK(ToFloat16(65520.0).bits == 0x7c00);  // the tie rounds to even: up, to infinity
  CHECK(ToFloat16(-1e9).bits == 0xfc00);
  CHECK(ToFloat16(std::ldexp(1.0, -24)).bits == 0x0001);
  CHECK(ToFloat16(std::ldexp(1.0, -25)).bits == 0x0000);  // tie to even: 0
  CHECK(ToFloat16(std::ldexp(3.0, -25)).bits == 0x0002);  // tie to even: 2
  CHECK(ToFloat16(-0.0).bits == 0x8000);
  CHECK(ToFloat16(1.0 + std::ldexp(1.0, -11)).bits == 0x3c00);      // tie to even: down
  CHECK(ToFloat16(1.0 + 3 * std::ldexp(1.0, -11)).bits == 0x3c02);  // tie to even: up
  CHECK(ToFloat16(std::nan("")).bits == kFloat16QuietNaN);
  CHECK(ToFloat(Float16{0x7c00}) == std::numeric_limits<float>::infinity());
  CHECK(ToFloat(Float16{0x0001}) == std::ldexp(1.0f, -24));
  CHECK(Bits(ToFloat(Float16{0x7d00})) == 0x7fc00000u);
  CHECK(ToBFloat16(1.0).bits == 0x3f80);
  CHECK(ToBFloat16(1.0 + std::ldexp(1.0, -8)).bits == 0x3f80);      // tie to even: down
  CHECK(ToBFloat16(1.0 + 3 * std::ldexp(1.0, -8)).bits == 0x3f82);  // tie to even: up
  CHECK(ToBFloat16(3.4e38).bits == 0x7f80);                         // past the largest bf16
  CHECK(ToBFloat16(std::numeric_limits<float>::denorm_min()).bits == 0x0000);
  CHECK(ToBFloat16(std::ldexp(1.0, -133)).bits == 0x0001);
  // A double that an f32 would round to a tie first, then to even: rounded once, it goes up.
  CHECK(ToFloat16(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)).bits == 0x3c01);
  CHECK(ToBool(std::nan("")).byte == 1);
  CHECK(ToBool(-0.0).byte == 0);
}

TEST_CASE("ElementwiseRowStreamed gives ElementwiseRow's bits, aligned or not, in place too") {
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    for (const ElementwiseOp op : kOps) {
      for (const size_t count : kSizes) {
        for (const size_t offset : {0, 1}) {  // out aligned to 64 bytes, or one float past
          INFO(Name(op) << " count " << count << " offset " << offset);
          const std::vector<float> a = Random(count, 7 + count, 0.1);
          const std::vector<float> b = Random(count, 8 + count, 0.1);
          std::vector<float> want(count);
          ElementwiseRow(op, a.data(), 1, b.data(), 0, want.data(), count);
          alignas(64) static float out[1007 + 16 + 1];
          out[offset + count] = 7.0f;  // a guard past the row
          ElementwiseRowStreamed(op, a.data(), 1, b.data(), 0, out + offset, count);
          RequireSameBits(out + offset, want.data(), count);
          REQUIRE(out[offset + count] == 7.0f);
          std::copy(a.begin(), a.end(), out + offset);
          ElementwiseRowStreamed(op, out + offset, 1, b.data(), 0, out + offset, count);
          RequireSameBits(out + offset, want.data(), count);
        }
      }
    }
  });
}

TEST_CASE("ElementwiseRow writes nothing outside the row") {
  constexpr size_t kGuard = 64;
  const float sentinel = std::bit_cast<float>(0x7f81dead);
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    for (const size_t count : kSizes) {
      INFO("count " << count);
      std::vector<float> buffer(count + 2 * kGuard, sentinel);
      const std::vector<float> a = Random(count, 3, 0.0);
      const float b = 2.0f;
      ElementwiseRow(ElementwiseOp::kMul, a.data(), 1, &b, 0, buffer.data() + kGuard, count);
      for (size_t i = 0; i < kGuard; ++i) {
        REQUIRE(Bits(buffer[i]) == Bits(sentinel));
        REQUIRE(Bits(buffer[kGuard + count + i]) == Bits(sentinel));
      }
      for (size_t i = 0; i < count; ++i) REQUIRE(buffer[kGuard + i] == a[i] * 2.0f);
    }
  });
}

TEST_CASE("ElementwiseRow computes in place when out is exactly a or b") {
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    for (const ElementwiseOp op : kOps) {
      for (const size_t count : kSizes) {
        INFO(Name(op) << " count " << count);
        const std::vector<float> a = Random(count, 5, 0.1);
        const std::vector<float> b = Random(count, 6, 0.1);
        std::vector<float> want(count);
        reference::ElementwiseRow(op, a.data(), 1, b.data(), 1, want.data(), count);
        auto in_a = Exact(a);
        ElementwiseRow(op, in_a.get(), 1, b.data(), 1, in_a.get(), count);
        RequireSameBits(in_a.get(), want.data(), count);
        auto in_b = Exact(b);
        ElementwiseRow(op, a.data(), 1, in_b.get(), 1, in_b.get(), count);
        RequireSameBits(in_b.get(), want.data(), count);
      }
    }
  });
}

TEST_CASE("min and max order -0 below +0 and propagate NaN as documented") {
  const float nan_a = std::bit_cast<float>(0x7fc00011u);
  const float nan_b = std::bit_cast<float>(0xffc00022u);
  const uint32_t quiet = 0x7fc00000u;
  struct Case {
    float a, b;
    uint32_t min_bits, max_bits;
  };
  const Case cases[] = {
      {0.0f, -0.0f, Bits(-0.0f), Bits(0.0f)},
      {-0.0f, 0.0f, Bits(-0.0f), Bits(0.0f)},
      {-0.0f, -0.0f, Bits(-0.0f), Bits(-0.0f)},
      {nan_a, 1.0f, quiet, quiet},
      {1.0f, nan_b, quiet, quiet},
      {nan_a, nan_b, quiet, quiet},
      {-std::numeric_limits<float>::infinity(), 3.0f, Bits(-std::numeric_limits<float>::infinity()),
       Bits(3.0f)},
      {2.0f, -5.0f, Bits(-5.0f), Bits(2.0f)},
  };
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    for (const Case& c : cases) {
      INFO("a 0x" << std::hex << Bits(c.a) << " b 0x" << Bits(c.b));
      // 17 copies: full vectors on every target and a tail through the stack copy.
      const std::vector<float> a(17, c.a);
      const std::vector<float> b(17, c.b);
      std::vector<float> min(17);
      std::vector<float> max(17);
      ElementwiseRow(ElementwiseOp::kMin, a.data(), 1, b.data(), 1, min.data(), 17);
      ElementwiseRow(ElementwiseOp::kMax, a.data(), 1, b.data(), 1, max.data(), 17);
      for (size_t i = 0; i < 17; ++i) {
        REQUIRE(Bits(min[i]) == c.min_bits);
        REQUIRE(Bits(max[i]) == c.max_bits);
      }
      REQUIRE(Bits(reference::Elementwise(ElementwiseOp::kMin, c.a, c.b)) == c.min_bits);
      REQUIRE(Bits(reference::Elementwise(ElementwiseOp::kMax, c.a, c.b)) == c.max_bits);
    }
  });
}

TEST_CASE("Every NaN result of add sub mul and div is the quiet NaN 0x7fc00000") {
  const float inf = std::numeric_limits<float>::infinity();
  const float payload_a = std::bit_cast<float>(0xffc01234u);
  const float payload_b = std::bit_cast<float>(0x7fa00001u);
  // x86 alone would give 0xffc00000 for inf - inf and an operand's payload otherwise.
  struct Case {
    ElementwiseOp op;
    float a, b;
  };
  const Case cases[] = {{ElementwiseOp::kSub, inf, inf},
                        {ElementwiseOp::kAdd, inf, -inf},
                        {ElementwiseOp::kMul, 0.0f, inf},
                        {ElementwiseOp::kDiv, 0.0f, 0.0f},
                        {ElementwiseOp::kAdd, payload_a, 1.0f},
                        {ElementwiseOp::kMul, 2.0f, payload_b},
                        {ElementwiseOp::kSub, payload_a, payload_b}};
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    for (const Case& c : cases) {
      INFO(Name(c.op) << " 0x" << std::hex << Bits(c.a) << " 0x" << Bits(c.b));
      for (const size_t count : {1, 16, 21}) {
        const std::vector<float> a(count, c.a);
        const std::vector<float> b(count, c.b);
        std::vector<float> out(count);
        ElementwiseRow(c.op, a.data(), 1, b.data(), 1, out.data(), count);
        for (const float value : out) REQUIRE(Bits(value) == 0x7fc00000u);
        ElementwiseRowStrided(c.op, a.data(), 1, b.data(), 1, out.data(), 1, count);
        for (const float value : out) REQUIRE(Bits(value) == 0x7fc00000u);
      }
    }
  });
}

TEST_CASE("ElementwiseRowStrided matches the reference for any strides") {
  const ptrdiff_t strides[] = {-3, -1, 0, 1, 2};
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    for (const ElementwiseOp op : kOps) {
      for (const ptrdiff_t a_stride : strides) {
        for (const ptrdiff_t out_stride : {-2, 1, 3}) {
          const size_t count = 37;
          INFO(Name(op) << " a stride " << a_stride << " out stride " << out_stride);
          const std::vector<float> a = Random(count * 3, 7, 0.1);
          const std::vector<float> b = Random(count * 3, 8, 0.1);
          // Start in the middle so that negative strides stay inside.
          const float* a_start = a.data() + (a_stride < 0 ? (count - 1) * 3 : 0);
          const float* b_start = b.data() + 1;
          std::vector<float> want(count);
          reference::ElementwiseRow(op, a_start, a_stride, b_start, 2, want.data(), count);
          std::vector<float> out(count * 3, -7.0f);
          float* out_start = out.data() + (out_stride < 0 ? (count - 1) * 2 : 0);
          ElementwiseRowStrided(op, a_start, a_stride, b_start, 2, out_start, out_stride, count);
          for (size_t i = 0; i < count; ++i) {
            INFO("element " << i);
            REQUIRE(Bits(out_start[static_cast<ptrdiff_t>(i) * out_stride]) == Bits(want[i]));
          }
        }
      }
    }
  });
}

// --- reductions ---

double KernelSum(const std::vector<float>& values) {
  const auto exact = Exact(values);
  SumLanes state;
  AccumulateSum(exact.get(), values.size(), state);
  REQUIRE(state.count == values.size());
  return FinishSum(state);
}

float KernelExtremum(bool min, const std::vector<float>& values) {
  const auto exact = Exact(values);
  ExtremumLanes state = min ? ExtremumLanes::ForMin() : ExtremumLanes::ForMax();
  (min ? AccumulateMin : AccumulateMax)(exact.get(), values.size(), state);
  return min ? FinishMin(state) : FinishMax(state);
}

// The error bound of swarm/kernels/tensor/row_kernels.h plus long double's own rounding of the
// check.
double SumTolerance(const std::vector<float>& values) {
  long double magnitude = 0.0L;
  for (const float value : values) magnitude += std::fabs(static_cast<long double>(value));
  const double n = static_cast<double>(values.size());
  return static_cast<double>(magnitude) * ((n / 32.0 + 5.0) * 0x1p-53 + n * 0x1p-64);
}

long double LongDoubleSum(const std::vector<float>& values) {
  long double sum = 0.0L;
  for (const float value : values) sum += value;
  return sum;
}

TEST_CASE("AccumulateSum matches the reference bit for bit and long double within the bound") {
  std::vector<size_t> sizes(std::begin(kSizes), std::end(kSizes));
  sizes.push_back(1'000'000);
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    for (const size_t count : sizes) {
      INFO("count " << count);
      const std::vector<float> values = Random(count, 11 + count, 0.0);
      const double got = KernelSum(values);
      REQUIRE(Bits(got) == Bits(reference::Sum(values.data(), count)));
      const long double exact = LongDoubleSum(values);
      REQUIRE(std::fabs(static_cast<long double>(got) - exact) <= SumTolerance(values));
    }
  });
}

TEST_CASE("SumRow and SumShortRow give a fresh state's AccumulateSum and FinishSum bits") {
  std::vector<size_t> sizes(std::begin(kSizes), std::end(kSizes));
  for (size_t count = 0; count <= 70; ++count) sizes.push_back(count);
  sizes.push_back(100'003);
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    for (const size_t count : sizes) {
      for (const double specials : {0.0, 0.05}) {
        INFO("count " << count << ", specials " << specials);
        const std::vector<float> values = Random(count, 31 + count, specials);
        const auto exact = Exact(values);
        const uint64_t want = Bits(reference::Sum(values.data(), count));
        REQUIRE(Bits(SumRow(exact.get(), count)) == want);
        if (count <= kReduceLanes) REQUIRE(Bits(SumShortRow(exact.get(), count)) == want);
      }
    }
    // -0 sums stay -0 on both paths.
    const std::vector<float> zeros(20, -0.0f);
    REQUIRE(Bits(SumShortRow(zeros.data(), zeros.size())) == Bits(-0.0));
    REQUIRE(Bits(SumRow(zeros.data(), zeros.size())) == Bits(-0.0));
  });
}

TEST_CASE("Sums of special values follow IEEE addition on every target") {
  const float inf = std::numeric_limits<float>::infinity();
  const double nan_bits = std::numeric_limits<double>::quiet_NaN();
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    for (const size_t count : {1, 5, 17, 33, 100}) {
      INFO("count " << count);
      const auto check = [&](const std::vector<float>& values) {
        const double got = KernelSum(values);
        REQUIRE(Bits(got) == Bits(reference::Sum(values.data(), count)));
        return got;
      };
      std::vector<float> zeros(count, -0.0f);
      REQUIRE(Bits(check(zeros)) == Bits(-0.0));  // -0 is the identity, so -0s stay -0
      zeros[count / 2] = 0.0f;
      REQUIRE(Bits(check(zeros)) == Bits(0.0));
      std::vector<float> values(count, 1.5f);
      values[count - 1] = inf;
      REQUIRE(check(values) == std::numeric_limits<double>::infinity());
      values[0] = -inf;
      if (count > 1) REQUIRE(Bits(check(values)) == Bits(nan_bits));
      std::fill(values.begin(), values.end(), 1.5f);
      values[count / 3] = std::bit_cast<float>(0xffc05678u);
      REQUIRE(Bits(check(values)) == Bits(nan_bits));
    }
  });
}

TEST_CASE("Sums with special values have the same bits on every target") {
  std::vector<std::vector<uint64_t>> per_target;
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    std::vector<uint64_t> bits;
    for (const size_t count : kSizes) {
      for (uint32_t seed = 0; seed < 4; ++seed) {
        // Few specials, so that many rows stay finite while others hit inf and NaN.
        const std::vector<float> values = Random(count, seed * 1000 + count, 0.02);
        const double got = KernelSum(values);
        REQUIRE(Bits(got) == Bits(reference::Sum(values.data(), count)));
        bits.push_back(Bits(got));
      }
    }
    per_target.push_back(bits);
  });
  REQUIRE(!per_target.empty());
  for (const auto& bits : per_target) REQUIRE(bits == per_target.front());
}

TEST_CASE("A sum split into rows of any lengths equals the sum of the whole row") {
  const std::vector<float> values = Random(5000, 21, 0.0);
  const double whole = reference::Sum(values.data(), values.size());
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    std::mt19937 rng(22);
    std::uniform_int_distribution<size_t> piece(0, 90);
    for (int trial = 0; trial < 20; ++trial) {
      SumLanes state;
      size_t at = 0;
      while (at < values.size()) {
        const size_t count = std::min(piece(rng), values.size() - at);
        if (trial % 2 == 0 || count == 0) {
          AccumulateSum(values.data() + at, count, state);
        } else {
          // Every other piece walks backwards from its last element with stride -1: the same
          // elements in reverse, so give it the reversed copy's order instead.
          std::vector<float> reversed(values.begin() + at, values.begin() + at + count);
          std::reverse(reversed.begin(), reversed.end());
          AccumulateSumStrided(reversed.data() + count - 1, -1, count, state);
        }
        at += count;
      }
      REQUIRE(state.count == values.size());
      REQUIRE(Bits(FinishSum(state)) == Bits(whole));
    }
  });
}

TEST_CASE("AccumulateSumStrided equals AccumulateSum of the gathered values") {
  const std::vector<float> values = Random(3 * 1000, 31, 0.0);
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    for (const ptrdiff_t stride : {0, 1, 3, -3}) {
      INFO("stride " << stride);
      const size_t count = 999;
      const float* start = values.data() + (stride < 0 ? 3 * 998 : 0);
      std::vector<float> gathered(count);
      for (size_t i = 0; i < count; ++i) gathered[i] = start[static_cast<ptrdiff_t>(i) * stride];
      SumLanes state;
      state.count = 7;  // a phase left by an earlier row
      SumLanes gathered_state = state;
      AccumulateSumStrided(start, stride, count, state);
      AccumulateSum(gathered.data(), count, gathered_state);
      for (size_t lane = 0; lane < kReduceLanes; ++lane) {
        REQUIRE(Bits(state.lanes[lane]) == Bits(gathered_state.lanes[lane]));
      }
    }
  });
}

TEST_CASE("Sums stay accurate at 1e8 elements where a float accumulator fails") {
  // 1e8 copies of 0.1f through a stride-0 row (no 400 MB allocation). The exact sum is
  // 1e8 * 0.1f; a float accumulator would stop growing at 2^21 (~2e6), long before.
  const float value = 0.1f;
  const size_t count = 100'000'000;
  const double exact = static_cast<double>(count) * static_cast<double>(value);
  const double bound = exact * ((count / 32.0 + 5.0) * 0x1p-53);
  SumLanes state;
  AccumulateSumStrided(&value, 0, count, state);
  const double got = FinishSum(state);
  CHECK(std::fabs(got - exact) <= bound);
  CHECK(std::fabs(got - exact) / exact < 1e-9);
  // And 2e7 ones contiguous: exact in double, unreachable in float (2^24 + 1 = 2^24).
  const std::vector<float> ones(20'000'001, 1.0f);
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    REQUIRE(KernelSum(ones) == 20'000'001.0);
  });
}

TEST_CASE("Min and max match the reference on every target with NaN giving quiet NaN") {
  std::vector<std::vector<uint32_t>> per_target;
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    std::vector<uint32_t> bits;
    for (const size_t count : kSizes) {
      if (count == 0) continue;
      for (const double specials : {0.0, 0.05, 0.5}) {
        INFO("count " << count << " special fraction " << specials);
        const std::vector<float> values = Random(count, 41 + count, specials);
        for (const bool min : {true, false}) {
          const float got = KernelExtremum(min, values);
          const float want =
              min ? reference::Min(values.data(), count) : reference::Max(values.data(), count);
          REQUIRE(Bits(got) == Bits(want));
          bits.push_back(Bits(got));
        }
      }
    }
    per_target.push_back(bits);
  });
  REQUIRE(!per_target.empty());
  for (const auto& bits : per_target) REQUIRE(bits == per_target.front());
}

TEST_CASE("Min and max of zeros and infinities and of a NaN at every position") {
  const float inf = std::numeric_limits<float>::infinity();
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    for (const size_t count : {1, 16, 33, 70}) {
      INFO("count " << count);
      std::vector<float> zeros(count, 0.0f);
      zeros[count - 1] = -0.0f;
      REQUIRE(Bits(KernelExtremum(true, zeros)) == Bits(-0.0f));
      REQUIRE(Bits(KernelExtremum(false, zeros)) == Bits(count == 1 ? -0.0f : 0.0f));
      std::vector<float> infinities(count, inf);
      REQUIRE(KernelExtremum(true, infinities) == inf);
      infinities[0] = -inf;
      REQUIRE(KernelExtremum(false, infinities) == (count == 1 ? -inf : inf));
      for (size_t at = 0; at < count; ++at) {
        std::vector<float> values = Random(count, 51, 0.0);
        values[at] = std::bit_cast<float>(0xffc0beefu);
        REQUIRE(Bits(KernelExtremum(true, values)) ==
                Bits(std::numeric_limits<float>::quiet_NaN()));
        REQUIRE(Bits(KernelExtremum(false, values)) ==
                Bits(std::numeric_limits<float>::quiet_NaN()));
      }
    }
  });
}

TEST_CASE("Min and max split into contiguous and strided rows equal the whole row") {
  const std::vector<float> values = Random(3000, 61, 0.01);
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    for (const bool min : {true, false}) {
      const float whole = min ? reference::Min(values.data(), values.size())
                              : reference::Max(values.data(), values.size());
      ExtremumLanes state = min ? ExtremumLanes::ForMin() : ExtremumLanes::ForMax();
      size_t at = 0;
      for (size_t piece = 1; at < values.size(); piece = piece * 3 % 97 + 1) {
        const size_t count = std::min(piece, values.size() - at);
        if (piece % 2 == 0) {
          (min ? AccumulateMin : AccumulateMax)(values.data() + at, count, state);
        } else {
          (min ? AccumulateMinStrided : AccumulateMaxStrided)(values.data() + at, 1, count, state);
        }
        at += count;
      }
      REQUIRE(Bits(min ? FinishMin(state) : FinishMax(state)) == Bits(whole));
    }
  });
}

}  // namespace
}  // namespace swarm
