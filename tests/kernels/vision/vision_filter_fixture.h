// Test support for kernels/vision_filter.*: padded images owned by the test (independent of
// swarm/vision/image.h, so a kernel test cannot pass because of an engine bug), seeded random
// pixels, OpenCV views of them, guarded scratch, and the harness that runs a filter on every
// compiled SIMD target against the scalar reference (bits) and OpenCV (tolerance), checks the row
// padding and the scratch guard, and checks that all targets agree bit for bit.
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <opencv2/core.hpp>
#include <optional>
#include <random>
#include <string>
#include <type_traits>

#include "swarm/kernels/base/views.h"
#include "tests/support/for_each_target.h"
#include "tests/support/padded_image.h"

namespace swarm::test {

// Padding sentinels: a kernel that read source padding into a stored pixel, or wrote
// destination padding, shows up.
template <typename T>
T Sentinel() {
  if constexpr (std::is_same_v<T, float>) {
    return std::numeric_limits<float>::quiet_NaN();
  } else {
    return T{0xA5};
  }
}

// f32 pixels uniform in [kLow, kHigh]; u8 pixels uniform over 0..255.
inline constexpr float kLow = -50.0f;
inline constexpr float kHigh = 200.0f;

template <typename T>
PaddedImage<T> RandomImage(size_t width, size_t height, uint32_t seed, size_t count = 1) {
  PaddedImage<T> image(width, height, Sentinel<T>(), count);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> real(kLow, kHigh);
  std::uniform_int_distribution<int> byte(0, 255);
  for (size_t k = 0; k < count; ++k) {
    for (size_t y = 0; y < height; ++y) {
      for (size_t x = 0; x < width; ++x) {
        if constexpr (std::is_same_v<T, float>) {
          image.Row(y, k)[x] = real(rng);
        } else {
          image.Row(y, k)[x] = static_cast<T>(byte(rng));
        }
      }
    }
  }
  return image;
}

// Scratch of exactly `count` elements followed by a guard vector that must stay untouched.
template <typename T>
class GuardedScratch {
 public:
  explicit GuardedScratch(size_t count) : count_(count), image_(count + kGuard, 1, kGuardValue) {}
  ArrayView<T> view() const { return {image_.data(), count_}; }
  bool GuardIntact() const {
    for (size_t i = count_; i < count_ + kGuard; ++i) {
      if (image_.data()[i] != kGuardValue) return false;
    }
    return true;
  }

 private:
  static constexpr size_t kGuard = 64;
  static constexpr T kGuardValue = T{77};
  size_t count_;
  PaddedImage<T> image_;
};

// Largest |got - want| over the pixels (got from a filter, want from OpenCV), as double.
template <typename T>
double MaxAbsDifference(const PaddedImage<T>& got, const cv::Mat& want) {
  double worst = 0.0;
  for (size_t y = 0; y < got.height(); ++y) {
    for (size_t x = 0; x < got.width(); ++x) {
      const double g = static_cast<double>(got.Row(y)[x]);
      const double w = static_cast<double>(want.at<T>(static_cast<int>(y), static_cast<int>(x)));
      const double difference =
          std::isnan(g) ? std::numeric_limits<double>::infinity() : std::abs(g - w);
      worst = std::max(worst, difference);
    }
  }
  return worst;
}

// Pixels where got and want differ, as "n pixels, first at (x, y): got a, want b" or "".
template <typename T>
std::string PixelMismatches(const PaddedImage<T>& got, const PaddedImage<T>& want) {
  size_t count = 0;
  std::string first;
  for (size_t y = 0; y < got.height(); ++y) {
    for (size_t x = 0; x < got.width(); ++x) {
      if (std::memcmp(got.Row(y) + x, want.Row(y) + x, sizeof(T)) != 0 && count++ == 0) {
        first = "first at (" + std::to_string(x) + ", " + std::to_string(y) + "): got " +
                std::to_string(+got.Row(y)[x]) + ", want " + std::to_string(+want.Row(y)[x]);
      }
    }
  }
  return count == 0 ? std::string() : std::to_string(count) + " pixels, " + first;
}

// Runs filter(dst view, scratch view) on every target into a fresh dst of out_width x
// out_height (padding = sentinel) with exactly `scratch_count` scratch elements, and checks:
// bitwise equal to `reference`, within `tolerance` of `opencv`, padding and scratch guard
// untouched, and bitwise equal across targets.
template <typename T, typename ScratchT>
void CheckOnEveryTarget(
    size_t out_width, size_t out_height, size_t scratch_count, const PaddedImage<T>& reference,
    const cv::Mat& opencv, double tolerance,
    const std::function<void(const ImageView<T>&, const ArrayView<ScratchT>&)>& filter) {
  std::optional<PaddedImage<T>> first;
  std::string first_target;
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    PaddedImage<T> dst(out_width, out_height, Sentinel<T>());
    GuardedScratch<ScratchT> scratch(scratch_count);
    filter(dst.view(), scratch.view());
    CHECK(PixelMismatches(dst, reference) == "");
    CHECK(MaxAbsDifference(dst, opencv) <= tolerance);
    CHECK(dst.PaddingIs(Sentinel<T>()));
    CHECK(scratch.GuardIntact());
    if (!first) {
      first.emplace(dst);
      first_target = target.name;
    } else {
      INFO("bitwise against target " << first_target);
      CHECK(dst.BitwiseEqual(*first));
    }
  });
  REQUIRE(first.has_value());
}

}  // namespace swarm::test
