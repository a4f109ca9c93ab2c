// The particle rendering kernels (swarm/kernels/render/render.h) against their scalar references on
// every compiled SIMD target: bitwise agreement (the kernels promise the same correctly rounded
// operations), untouched padding, and the same bits on every target.
#include "swarm/kernels/render/render.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "kernels/render/palette.h"
#include "swarm/kernels/render/render_reference.h"
#include "tests/kernels/particles/particle_fixture.h"

namespace swarm {
namespace {

using test::ForEachTarget;
using test::kSizes;
using test::PaddedScalars;
using test::PaddedVec4;
using test::SameBits;
using test::TargetUnderTest;

constexpr float kPadding = 7.25f;
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// Mostly ordinary values, with the special ones every clamp must handle.
float SpecialOr(std::mt19937& rng, float ordinary) {
  switch (rng() % 16) {
    case 0:
      return kNaN;
    case 1:
      return kInf;
    case 2:
      return -kInf;
    case 3:
      return 0.0f;
    case 4:
      return -0.0f;
    case 5:
      return 1e30f;
    default:
      return ordinary;
  }
}

// Runs `kernel(out)` on every target into a fresh copy of `initial` and returns the outputs.
template <class Array, class Kernel>
std::vector<Array> RunEveryTarget(const Array& initial, const Kernel& kernel) {
  std::vector<Array> outputs;
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    outputs.push_back(initial);
    kernel(outputs.back());
  });
  return outputs;
}

TEST_CASE("SpeedFraction is |v| / full speed clamped to [0, 1] on every target") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> component(-30.0f, 30.0f);
  for (size_t count : kSizes) {
    PaddedVec4 velocities(count);
    for (size_t i = 0; i < count; ++i) {
      velocities.Set(i, {SpecialOr(rng, component(rng)), component(rng), component(rng), 0});
    }
    const std::vector<PaddedScalars<float>> outputs =
        RunEveryTarget(PaddedScalars<float>(count, kPadding), [&](PaddedScalars<float>& out) {
          SpeedFraction(velocities.view(), 1.0f / 20.0f, out.view());
        });
    for (const PaddedScalars<float>& out : outputs) {
      for (size_t i = 0; i < count; ++i) {
        const float want = reference::SpeedFraction(velocities.Get(i), 1.0f / 20.0f);
        INFO("count " << count << " element " << i << " got " << out[i] << " want " << want);
        REQUIRE(SameBits(out[i], want));
        REQUIRE(out[i] >= 0.0f);
        REQUIRE(out[i] <= 1.0f);
      }
      REQUIRE_FALSE(out.PaddingMismatch(kPadding).has_value());
      REQUIRE(out.BitwiseEqual(outputs.front()));
    }
  }
}

TEST_CASE("AgeFraction is age / lifetime clamped to [0, 1], NaN as 0, on every target") {
  std::mt19937 rng(12);
  std::uniform_real_distribution<float> age(-1.0f, 5.0f);
  std::uniform_real_distribution<float> lifetime(0.5f, 4.0f);
  for (size_t count : kSizes) {
    PaddedScalars<float> ages(count), lifetimes(count);
    for (size_t i = 0; i < count; ++i) {
      ages[i] = SpecialOr(rng, age(rng));
      lifetimes[i] = SpecialOr(rng, lifetime(rng));
    }
    const std::vector<PaddedScalars<float>> outputs = RunEveryTarget(
        PaddedScalars<float>(count, kPadding),
        [&](PaddedScalars<float>& out) { AgeFraction(ages.view(), lifetimes.view(), out.view()); });
    for (const PaddedScalars<float>& out : outputs) {
      for (size_t i = 0; i < count; ++i) {
        const float want = reference::AgeFraction(ages[i], lifetimes[i]);
        INFO("age " << ages[i] << " lifetime " << lifetimes[i] << " got " << out[i]);
        REQUIRE(SameBits(out[i], want));
      }
      REQUIRE_FALSE(out.PaddingMismatch(kPadding).has_value());
      REQUIRE(out.BitwiseEqual(outputs.front()));
    }
  }
}

// An accumulation image of width x height pixels (4 counts each) with padded rows, as the
// renderer keeps it.
struct Counts {
  Counts(size_t width, size_t height)
      : width(width),
        height(height),
        row_stride(RoundUpToVector<uint32_t>(width)),
        counts(4 * row_stride * height) {}
  SplatTarget target() { return {counts.data(), width, height, row_stride}; }
  uint32_t At(size_t x, size_t y, size_t channel) const {
    return counts[4 * (y * row_stride + x) + channel];
  }
  size_t width, height, row_stride;
  PaddedScalars<uint32_t> counts;
};

TEST_CASE("SplatPoints adds palette colours of visible points into their pixels") {
  std::mt19937 rng(13);
  constexpr size_t kWidth = 37, kHeight = 23;
  std::uniform_real_distribution<float> x(0.0f, kWidth), y(0.0f, kHeight), t(-0.2f, 1.2f);
  for (size_t count : kSizes) {
    PaddedVec4 screen(count, kNaN);
    PaddedScalars<uint8_t> visible(count, 1);  // padding claims visible: must be ignored
    PaddedScalars<float> fraction(count, kNaN);
    for (size_t i = 0; i < count; ++i) {
      visible[i] = static_cast<uint8_t>(rng() % 4 == 0 ? 0 : 1 + rng() % 255);
      if (visible[i] != 0) {
        // Edges included: CameraProject yields x == width for points on the right plane.
        const float sx = rng() % 20 == 0 ? static_cast<float>(kWidth) : x(rng);
        const float sy = rng() % 20 == 0 ? static_cast<float>(kHeight) : y(rng);
        screen.Set(i, {sx, sy, 0.5f, 1.0f});
      } else {
        screen.Set(i, {SpecialOr(rng, -1e9f), SpecialOr(rng, 3e9f), kNaN, -1.0f});
      }
      fraction[i] = SpecialOr(rng, t(rng));
    }
    Counts want(kWidth, kHeight);
    reference::SplatPoints(screen.ToAos(), visible.ToVector(), fraction.ToVector(), want.target());
    const std::vector<Counts> outputs = RunEveryTarget(Counts(kWidth, kHeight), [&](Counts& image) {
      SplatPoints(screen.view(), visible.view(), fraction.view(), image.target());
    });
    for (const Counts& got : outputs) {
      INFO("count " << count);
      REQUIRE(got.counts.ToVector() == want.counts.ToVector());
      // Row padding and every pixel's unused fourth count stay zero.
      for (size_t row = 0; row < kHeight; ++row) {
        for (size_t column = 0; column < got.row_stride; ++column) {
          REQUIRE(got.At(column, row, 3) == 0);
          if (column >= kWidth) REQUIRE(got.At(column, row, 0) == 0);
        }
      }
    }
  }
}

TEST_CASE("SplatPoints of one point lands on floor(x), floor(y) with the palette colour") {
  Counts image(16, 8);
  PaddedVec4 screen(1);
  screen.Set(0, {5.75f, 2.25f, 0.0f, 1.0f});
  PaddedScalars<uint8_t> visible(1);
  visible[0] = 1;
  PaddedScalars<float> t(1);
  t[0] = 1.0f;  // the last entry: white
  SplatPoints(screen.view(), visible.view(), t.view(), image.target());
  SplatPoints(screen.view(), visible.view(), t.view(), image.target());
  CHECK(image.At(5, 2, 0) == 2 * 255);
  CHECK(image.At(5, 2, 1) == 2 * 255);
  CHECK(image.At(5, 2, 2) == 2 * 255);
  uint64_t total = 0;
  for (uint32_t value : image.counts.ToVector()) total += value;
  CHECK(total == 6 * 255);
}

TEST_CASE("ResolveSplats sums accumulators exactly, scales, splits channels, and zeroes") {
  std::mt19937 rng(14);
  for (size_t accumulator_count : {1, 2, 3}) {
    // Whole vectors of pixels (kPadFloats: 16 on x86, 64 on aarch64).
    for (size_t pixels : {size_t{0}, kPadFloats, 2 * kPadFloats, 3 * kPadFloats, size_t{4096}}) {
      std::vector<PaddedScalars<uint32_t>> initial;
      for (size_t k = 0; k < accumulator_count; ++k) {
        initial.emplace_back(4 * pixels, 0xABCDu);
        for (size_t i = 0; i < 4 * pixels; ++i) {
          // Small counts, counts past 2^24 (float rounds) and near 2^32 (sums wrap).
          const uint32_t kind = rng() % 3;
          initial.back()[i] = kind == 0 ? rng() % 4096 : kind == 1 ? rng() : 0xFFFFFFF0u;
        }
      }
      const float scale = 0.37f;
      std::vector<float> want(3 * pixels);
      for (size_t p = 0; p < pixels; ++p) {
        for (size_t c = 0; c < 3; ++c) {
          std::vector<uint32_t> counts;
          for (const auto& a : initial) counts.push_back(a[4 * p + c]);
          want[3 * p + c] = reference::ResolveSplat(counts, scale);
        }
      }
      ForEachTarget([&](const TargetUnderTest& target) {
        INFO("target " << target.name << " accumulators " << accumulator_count << " pixels "
                       << pixels);
        std::vector<PaddedScalars<uint32_t>> accumulators = initial;
        std::vector<uint32_t*> pointers;
        for (auto& a : accumulators) pointers.push_back(a.data());
        PaddedScalars<float> red(pixels, kPadding), green(pixels, kPadding), blue(pixels, kPadding);
        ResolveSplats(pointers.data(), accumulator_count, pixels, scale, red.data(), green.data(),
                      blue.data());
        for (size_t p = 0; p < pixels; ++p) {
          REQUIRE(SameBits(red[p], want[3 * p]));
          REQUIRE(SameBits(green[p], want[3 * p + 1]));
          REQUIRE(SameBits(blue[p], want[3 * p + 2]));
        }
        for (auto& a : accumulators) {
          for (size_t i = 0; i < 4 * pixels; ++i) REQUIRE(a[i] == 0);
          REQUIRE_FALSE(a.PaddingMismatch(0xABCDu).has_value());
        }
      });
    }
  }
}

TEST_CASE("InterpolateRow blends neighbours through the table on every target") {
  std::mt19937 rng(15);
  std::uniform_real_distribution<float> value(-3.0f, 3.0f), weight(0.0f, 1.0f);
  for (size_t count : kSizes) {
    const size_t source_count = count / 3 + 2;
    PaddedScalars<float> src(source_count);
    for (size_t i = 0; i < source_count; ++i) src[i] = value(rng);
    PaddedScalars<int32_t> index(count);
    PaddedScalars<float> weights(count);
    for (size_t x = 0; x < count; ++x) {
      index[x] = static_cast<int32_t>(rng() % (source_count - 1));
      weights[x] = rng() % 8 == 0 ? 0.0f : weight(rng);
    }
    const std::vector<PaddedScalars<float>> outputs =
        RunEveryTarget(PaddedScalars<float>(count, kPadding), [&](PaddedScalars<float>& out) {
          InterpolateRow(src.data(), index.data(), weights.data(), count, out.data());
        });
    for (const PaddedScalars<float>& out : outputs) {
      for (size_t x = 0; x < count; ++x) {
        REQUIRE(SameBits(out[x], reference::InterpolateAt(src.data(), index[x], weights[x])));
      }
      REQUIRE_FALSE(out.PaddingMismatch(kPadding).has_value());
    }
  }
}

TEST_CASE("ComposeRow tone maps radiance plus glow into ARGB on every target") {
  std::mt19937 rng(16);
  std::uniform_real_distribution<float> radiance(-0.5f, 20.0f), glow(0.0f, 5.0f);
  for (size_t width : kSizes) {
    std::vector<PaddedScalars<float>> planes;
    for (size_t k = 0; k < 9; ++k) {
      planes.emplace_back(width);
      for (size_t x = 0; x < width; ++x) {
        planes.back()[x] = k < 3 ? SpecialOr(rng, radiance(rng)) : glow(rng);
      }
    }
    ComposeRowInputs inputs;
    for (size_t c = 0; c < 3; ++c) {
      inputs.radiance[c] = planes[c].data();
      inputs.glow_top[c] = planes[3 + c].data();
      inputs.glow_bottom[c] = planes[6 + c].data();
    }
    inputs.glow_weight = 0.3f;
    inputs.glow_strength = 1.5f;
    const std::vector<PaddedScalars<uint32_t>> outputs = RunEveryTarget(
        PaddedScalars<uint32_t>(width, 0x12345678u),
        [&](PaddedScalars<uint32_t>& frame) { ComposeRow(inputs, width, frame.data()); });
    for (const PaddedScalars<uint32_t>& frame : outputs) {
      for (size_t x = 0; x < width; ++x) {
        float r[3], top[3], bottom[3];
        for (size_t c = 0; c < 3; ++c) {
          r[c] = planes[c][x];
          top[c] = planes[3 + c][x];
          bottom[c] = planes[6 + c][x];
        }
        INFO("width " << width << " x " << x << " radiance " << r[0] << " " << r[1] << " " << r[2]);
        REQUIRE(frame[x] == reference::ComposePixel(r, top, bottom, 0.3f, 1.5f));
      }
      REQUIRE_FALSE(frame.PaddingMismatch(0x12345678u).has_value());
    }
  }
}

TEST_CASE("ComposeRow maps zero to black and a large radiance towards white") {
  PaddedScalars<float> zero(1), bright(1);
  bright[0] = 1e6f;
  ComposeRowInputs inputs;
  for (size_t c = 0; c < 3; ++c) {
    inputs.radiance[c] = c == 0 ? bright.data() : zero.data();
    inputs.glow_top[c] = zero.data();
    inputs.glow_bottom[c] = zero.data();
  }
  PaddedScalars<uint32_t> frame(1);
  ComposeRow(inputs, 1, frame.data());
  CHECK(frame[0] == 0xFFFF0000u);  // sqrt(1e6 / (1 + 1e6)) * 255 + 0.5 rounds to 255
}

TEST_CASE("The palette runs from the first stop to the last, each entry between its stops") {
  const PaletteEntry first = PaletteColor(0), last = PaletteColor(kPaletteSize - 1);
  CHECK((first.red == 40 && first.green == 60 && first.blue == 255));
  CHECK((last.red == 255 && last.green == 255 && last.blue == 255));
  for (size_t k = 0; k < kPaletteSize; ++k) {
    const size_t segment = std::min<size_t>(k * 4 / 255, 3);
    const PaletteEntry a = detail::kPaletteStops[segment];
    const PaletteEntry b = detail::kPaletteStops[segment + 1];
    const PaletteEntry c = PaletteColor(k);
    INFO("entry " << k);
    CHECK(c.red >= std::min(a.red, b.red));
    CHECK(c.red <= std::max(a.red, b.red));
    CHECK(c.green >= std::min(a.green, b.green));
    CHECK(c.green <= std::max(a.green, b.green));
    CHECK(c.blue >= std::min(a.blue, b.blue));
    CHECK(c.blue <= std::max(a.blue, b.blue));
  }
}

}  // namespace
}  // namespace swarm
