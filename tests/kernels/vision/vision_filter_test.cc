// Tests for kernels/vision_filter.*: Gaussian coefficients against cv::getGaussianKernel;
// GaussianBlur (f32, u8), BoxFilter (f32, u8) and PyramidDown (f32) against OpenCV 4.6 (an
// independent implementation: f32 within 1e-5 of the value range, u8 exact) and the scalar
// reference (bits) on every compiled SIMD target, bitwise across targets, with untouched row
// padding and scratch guard, on the sizes plus 1-row, 1-column and kernel-wider-than-
// image cases. Bands and batches: vision_filter_band_test.cc.
#include "swarm/kernels/vision/vision_filter.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <type_traits>
#include <vector>

#include "swarm/kernels/vision/vision_filter_reference.h"
#include "tests/kernels/vision/vision_filter_fixture.h"

namespace swarm {
namespace {

using test::PaddedImage;
using test::RandomImage;

struct Size {
  size_t width;
  size_t height;
};
// The sizes (width x height), then 1-column, 1-row, tiny and lanes +- 1 widths.
constexpr Size kSizes[] = {{1, 1}, {2, 3}, {17, 5}, {640, 480}, {1921, 1081}, {1, 7},
                           {9, 1}, {3, 2}, {15, 4}, {16, 3},    {33, 6}};

bool Small(const Size& size) { return size.width * size.height < 100000; }

struct GaussianCase {
  size_t ksize;
  double sigma;
};
// 5x5 sigma 1 is the benchmark; radii 0-3 run unrolled code, 4 and 5 the any-radius loops.
constexpr GaussianCase kGaussianCases[] = {{5, 1.0}, {3, 0.8}, {7, 1.5},
                                           {1, 1.0}, {9, 2.0}, {11, 3.0}};
constexpr size_t kBoxSizes[] = {3, 1, 5, 7, 9, 17};

constexpr double kF32Tolerance = 1e-5 * (test::kHigh - test::kLow);

TEST_CASE("GaussianCoefficients match cv::getGaussianKernel (float taps bit for bit)") {
  double worst_ulps = 0.0;
  for (const size_t ksize : {1, 3, 5, 7, 9, 11, 15, 21, 31, 63}) {
    for (const double sigma : {0.3, 0.8, 1.0, 1.1, 1.5, 2.0, 3.7, 10.0}) {
      INFO("ksize " << ksize << " sigma " << sigma);
      std::vector<double> got64(ksize);
      std::vector<float> got32(ksize);
      GaussianCoefficients(ksize, sigma, got64.data());
      GaussianCoefficients(ksize, sigma, got32.data());
      const cv::Mat want64 = cv::getGaussianKernel(static_cast<int>(ksize), sigma, CV_64F);
      const cv::Mat want32 = cv::getGaussianKernel(static_cast<int>(ksize), sigma, CV_32F);
      for (size_t i = 0; i < ksize; ++i) {
        INFO("tap " << i);
        // OpenCV evaluates exp with softfloat's own (not correctly rounded) exp; glibc's
        // differs from it by up to ~250 double ulps in the tails, too little to change a float tap.
        const double want = want64.at<double>(static_cast<int>(i));
        CHECK(std::abs(got64[i] - want) <= 1e-12 * want);
        worst_ulps = std::max(worst_ulps, std::abs(got64[i] - want) /
                                              (std::numeric_limits<double>::epsilon() * want));
        CHECK(got32[i] == want32.at<float>(static_cast<int>(i)));
      }
      std::vector<uint16_t> fixed(ksize);
      GaussianFixedPointCoefficients(ksize, sigma, fixed.data());
      int sum = 0;
      for (size_t i = 0; i < ksize; ++i) {
        sum += fixed[i];
        CHECK(fixed[i] == fixed[ksize - 1 - i]);
      }
      CHECK(sum == 256);
    }
  }
  WARN("largest double-tap difference from OpenCV: " << worst_ulps << " x DBL_EPSILON relative");
}

TEST_CASE("Reflect101 follows cv::borderInterpolate, also past the far edge") {
  for (const size_t n : {1, 2, 3, 5, 8}) {
    for (ptrdiff_t p = -20; p < 20; ++p) {
      INFO("n " << n << " p " << p);
      CHECK(Reflect101(p, n) ==
            static_cast<size_t>(cv::borderInterpolate(static_cast<int>(p), static_cast<int>(n),
                                                      cv::BORDER_REFLECT_101)));
    }
  }
}

template <typename T>
void CheckGaussian(const Size& size, const GaussianCase& c, uint32_t seed) {
  const PaddedImage<T> src = RandomImage<T>(size.width, size.height, seed);
  cv::Mat opencv;
  cv::GaussianBlur(src.Mat(), opencv,
                   cv::Size(static_cast<int>(c.ksize), static_cast<int>(c.ksize)), c.sigma);
  PaddedImage<T> reference(size.width, size.height, test::Sentinel<T>());
  reference::GaussianBlur(src.cview(), reference.view(), c.ksize, c.sigma);
  const bool f32 = std::is_same_v<T, float>;
  const size_t scratch = f32 ? GaussianScratchElements(size.width, c.ksize)
                             : GaussianScratchBytes(size.width, c.ksize);
  using ScratchT = std::conditional_t<std::is_same_v<T, float>, float, uint8_t>;
  test::CheckOnEveryTarget<T, ScratchT>(
      size.width, size.height, scratch, reference, opencv, f32 ? kF32Tolerance : 0.0,
      [&](const ImageView<T>& dst, const ArrayView<ScratchT>& s) {
        GaussianBlur(src.cview(), dst, c.ksize, c.sigma, RowRange{}, s);
      });
}

TEMPLATE_TEST_CASE("GaussianBlur matches OpenCV and the reference on every target", "", float,
                   uint8_t) {
  uint32_t seed = 1;
  for (const Size& size : kSizes) {
    for (const GaussianCase& c : kGaussianCases) {
      if (!Small(size) && c.ksize != 5 && c.ksize != 9) continue;  // keep the run short
      INFO(size.width << "x" << size.height << " ksize " << c.ksize << " sigma " << c.sigma);
      CheckGaussian<TestType>(size, c, seed++);
    }
  }
}

TEMPLATE_TEST_CASE("GaussianBlur with kernels wider than the image reflects like OpenCV", "", float,
                   uint8_t) {
  uint32_t seed = 100;
  for (const Size size : {Size{2, 2}, Size{3, 5}, Size{4, 1}, Size{1, 4}, Size{5, 3}}) {
    for (const GaussianCase c : {GaussianCase{5, 1.0}, GaussianCase{7, 2.0}, GaussianCase{9, 5.0},
                                 GaussianCase{15, 4.0}}) {
      INFO(size.width << "x" << size.height << " ksize " << c.ksize << " sigma " << c.sigma);
      CheckGaussian<TestType>(size, c, seed++);
    }
  }
}

template <typename T>
void CheckBox(const Size& size, size_t ksize, uint32_t seed) {
  const PaddedImage<T> src = RandomImage<T>(size.width, size.height, seed);
  cv::Mat opencv;
  cv::blur(src.Mat(), opencv, cv::Size(static_cast<int>(ksize), static_cast<int>(ksize)));
  PaddedImage<T> reference(size.width, size.height, test::Sentinel<T>());
  reference::BoxFilter(src.cview(), reference.view(), ksize);
  const bool f32 = std::is_same_v<T, float>;
  const size_t scratch =
      f32 ? BoxScratchElements(size.width, ksize) : BoxScratchBytes(size.width, ksize);
  using ScratchT = std::conditional_t<std::is_same_v<T, float>, float, uint8_t>;
  test::CheckOnEveryTarget<T, ScratchT>(size.width, size.height, scratch, reference, opencv,
                                        f32 ? kF32Tolerance : 0.0,
                                        [&](const ImageView<T>& dst, const ArrayView<ScratchT>& s) {
                                          BoxFilter(src.cview(), dst, ksize, RowRange{}, s);
                                        });
}

TEMPLATE_TEST_CASE("BoxFilter matches cv::blur and the reference on every target", "", float,
                   uint8_t) {
  uint32_t seed = 200;
  for (const Size& size : kSizes) {
    for (const size_t ksize : kBoxSizes) {
      if (!Small(size) && ksize != 3 && ksize != 9) continue;
      INFO(size.width << "x" << size.height << " ksize " << ksize);
      CheckBox<TestType>(size, ksize, seed++);
    }
  }
}

TEST_CASE("PyramidDown matches cv::pyrDown and the reference on every target") {
  uint32_t seed = 300;
  std::vector<Size> sizes(std::begin(kSizes), std::end(kSizes));
  for (const Size extra : {Size{2, 2}, Size{4, 4}, Size{5, 1}, Size{1, 5}, Size{3, 3}, Size{32, 9},
                           Size{31, 8}, Size{64, 64}, Size{2049, 2049}}) {
    sizes.push_back(extra);
  }
  for (const Size& size : sizes) {
    INFO(size.width << "x" << size.height);
    const PaddedImage<float> src = RandomImage<float>(size.width, size.height, seed++);
    const size_t out_width = (size.width + 1) / 2;
    const size_t out_height = (size.height + 1) / 2;
    cv::Mat opencv;
    cv::pyrDown(src.Mat(), opencv,
                cv::Size(static_cast<int>(out_width), static_cast<int>(out_height)));
    PaddedImage<float> reference(out_width, out_height, test::Sentinel<float>());
    reference::PyramidDown(src.cview(), reference.view());
    test::CheckOnEveryTarget<float, float>(
        out_width, out_height, PyramidDownScratchElements(size.width), reference, opencv,
        kF32Tolerance, [&](const ImageF32View& dst, const FloatView& s) {
          PyramidDown(src.cview(), dst, RowRange{}, s);
        });
  }
}

}  // namespace
}  // namespace swarm
