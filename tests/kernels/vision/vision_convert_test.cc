// Tests for kernels/vision_convert.*: every kernel on every compiled SIMD target against OpenCV 4.6
// (cv::split/merge, cvtColor COLOR_RGB2GRAY, Mat::convertTo, cv::threshold) and the scalar
// reference, on 1x1, 2x3, 17x5, 640x480 and 1921x1081 images: u8 results exact, f32 within 1e-5 of
// the value range of OpenCV and bitwise equal to the reference; row padding never written; two
// row bands give the same bits as one call; the same bits on every target.
#include "swarm/kernels/vision/vision_convert.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <optional>
#include <random>
#include <vector>

#include "swarm/kernels/vision/vision_convert_reference.h"
#include "swarm/vision/image.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

using test::ForEachTarget;
using test::TargetUnderTest;

struct Size {
  size_t width, height;
};
constexpr Size kSizes[] = {{1, 1}, {2, 3}, {17, 5}, {640, 480}, {1921, 1081}};

template <typename T>
constexpr int kCvDepth = std::is_same_v<T, float> ? CV_32F : CV_8U;
template <typename T>
T Padding() {
  if constexpr (std::is_same_v<T, float>) return 1234.5f;
  return uint8_t{0xA5};
}

// An accounted image whose row padding holds Padding<T>() so a stray write shows.
template <typename T>
Image<T> NewImage(MemoryAccountant& memory, Size size) {
  Result<Image<T>> image = Image<T>::Create(memory, size.width, size.height);
  REQUIRE(image.ok());
  const ImageView<T> view = image->view();
  for (size_t y = 0; y < size.height; ++y) {
    std::fill(view.Row(y) + size.width, view.Row(y) + view.row_stride, Padding<T>());
  }
  return std::move(image).value();
}

template <typename T>
Image<T> RandomImage(MemoryAccountant& memory, Size size, uint32_t seed, float lo = 0.0f,
                     float hi = 1.0f) {
  Image<T> image = NewImage<T>(memory, size);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> value(lo, hi);
  for (size_t y = 0; y < size.height; ++y) {
    for (size_t x = 0; x < size.width; ++x) {
      if constexpr (std::is_same_v<T, float>) {
        image.Set(x, y, value(rng));
      } else {
        image.Set(x, y, static_cast<uint8_t>(rng()));
      }
    }
  }
  return image;
}

template <typename T>
cv::Mat Wrap(const ImageView<const T>& view) {
  return cv::Mat(static_cast<int>(view.height), static_cast<int>(view.width), kCvDepth<T>,
                 const_cast<T*>(view.data), view.row_stride * sizeof(T));
}
template <typename T>
cv::Mat Wrap(const ImageView<T>& view) {
  return Wrap(ImageView<const T>(view));
}

template <typename T>
bool PaddingIntact(const Image<T>& image) {
  const T padding = Padding<T>();
  const ImageView<const T> view = image.view();
  for (size_t y = 0; y < view.height; ++y) {
    for (size_t x = view.width; x < view.row_stride; ++x) {
      if (std::memcmp(&view.Row(y)[x], &padding, sizeof(T)) != 0) return false;
    }
  }
  return true;
}

template <typename T>
bool SameBits(const Image<T>& a, const Image<T>& b) {
  for (size_t y = 0; y < a.height(); ++y) {
    if (std::memcmp(a.view().Row(y), b.view().Row(y), a.width() * sizeof(T)) != 0) return false;
  }
  return true;
}

// Largest |got - want| over the pixels (OpenCV result as a single-channel Mat of T).
template <typename T>
double MaxDifference(const Image<T>& got, const cv::Mat& want) {
  REQUIRE(want.rows == static_cast<int>(got.height()));
  REQUIRE(want.cols == static_cast<int>(got.width()));
  double worst = 0.0;
  for (size_t y = 0; y < got.height(); ++y) {
    for (size_t x = 0; x < got.width(); ++x) {
      const double g = got.Get(x, y);
      const double w = want.at<T>(static_cast<int>(y), static_cast<int>(x));
      worst = std::max(worst, std::abs(g - w));
    }
  }
  return worst;
}

template <typename T>
size_t CountDifferent(const Image<T>& got, const cv::Mat& want) {
  size_t different = 0;
  for (size_t y = 0; y < got.height(); ++y) {
    for (size_t x = 0; x < got.width(); ++x) {
      different += got.Get(x, y) != want.at<T>(static_cast<int>(y), static_cast<int>(x));
    }
  }
  return different;
}

// Runs `kernel(out, rows)` on every target: whole image, then as two row bands, and checks the
// padding, the band split and the cross-target bits; returns the first target's output.
template <typename T>
Image<T> RunOnTargets(MemoryAccountant& memory, Size size,
                      const std::function<void(const ImageView<T>&, RowRange)>& kernel) {
  std::optional<Image<T>> first;
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name << ", " << size.width << " x " << size.height);
    Image<T> out = NewImage<T>(memory, size);
    kernel(out.view(), RowRange{});
    CHECK(PaddingIntact(out));
    Image<T> banded = NewImage<T>(memory, size);
    const size_t middle = size.height / 2;
    kernel(banded.view(), RowRange{0, middle});
    kernel(banded.view(), RowRange{middle, size.height + 7});
    CHECK(SameBits(out, banded));
    if (first) {
      CHECK(SameBits(out, *first));
    } else {
      first = std::move(out);
    }
  });
  REQUIRE(first);
  return std::move(*first);
}

TEST_CASE("Deinterleave and Interleave match cv::split and cv::merge", "[vision_convert]") {
  MemoryAccountant memory;
  for (const Size size : kSizes) {
    for (size_t channels : {1, 3, 4}) {
      INFO(channels << " channels");
      // Exactly sized, unpadded rows: any read past a row would leave the vector (ASan build).
      const size_t row_bytes = size.width * channels;
      std::vector<uint8_t> interleaved(row_bytes * size.height);
      std::mt19937 rng(static_cast<uint32_t>(channels));
      for (uint8_t& byte : interleaved) byte = static_cast<uint8_t>(rng());
      const ConstInterleavedU8View src{interleaved.data(), size.width, size.height, channels,
                                       row_bytes};
      const cv::Mat mat(static_cast<int>(size.height), static_cast<int>(size.width),
                        CV_8UC(static_cast<int>(channels)), interleaved.data(), row_bytes);
      std::vector<cv::Mat> split;
      cv::split(mat, split);
      std::vector<Image<uint8_t>> planes;
      for (size_t c = 0; c < channels; ++c) {
        planes.push_back(
            RunOnTargets<uint8_t>(memory, size, [&](const ImageU8View& out, RowRange rows) {
              // Channel c alone, through a full set of planes (the others are scratch).
              std::vector<Image<uint8_t>> all;
              std::vector<ImageU8View> views;
              for (size_t k = 0; k < channels; ++k) {
                all.push_back(NewImage<uint8_t>(memory, size));
                views.push_back(k == c ? out : all.back().view());
              }
              Deinterleave(src, views, rows);
            }));
        CHECK(MaxDifference(planes.back(), split[c]) == 0.0);
      }
      std::vector<ConstImageU8View> views;
      for (const Image<uint8_t>& plane : planes) views.push_back(plane.view());
      ForEachTarget([&](const TargetUnderTest& target) {
        INFO("target " << target.name);
        std::vector<uint8_t> merged(interleaved.size() + 1, 0x5A);  // +1: a guard byte
        Interleave(views, {merged.data(), size.width, size.height, channels, row_bytes});
        CHECK(std::memcmp(merged.data(), interleaved.data(), interleaved.size()) == 0);
        CHECK(merged.back() == 0x5A);
      });
    }
  }
}

TEST_CASE("RgbToGray u8 matches cvtColor COLOR_RGB2GRAY exactly", "[vision_convert]") {
  MemoryAccountant memory;
  for (const Size size : kSizes) {
    const auto r = RandomImage<uint8_t>(memory, size, 1);
    const auto g = RandomImage<uint8_t>(memory, size, 2);
    const auto b = RandomImage<uint8_t>(memory, size, 3);
    const Image<uint8_t> gray =
        RunOnTargets<uint8_t>(memory, size, [&](const ImageU8View& out, RowRange rows) {
          RgbToGray(r.view(), g.view(), b.view(), out, rows);
        });
    cv::Mat rgb;
    cv::merge(std::vector<cv::Mat>{Wrap(r.view()), Wrap(g.view()), Wrap(b.view())}, rgb);
    cv::Mat want;
    cv::cvtColor(rgb, want, cv::COLOR_RGB2GRAY);
    CHECK(MaxDifference(gray, want) == 0.0);
    Image<uint8_t> reference = NewImage<uint8_t>(memory, size);
    reference::RgbToGray(r.view(), g.view(), b.view(), reference.view());
    CHECK(SameBits(gray, reference));
  }
}

TEST_CASE("RgbToGray u8 matches cvtColor on all 2^24 RGB triples", "[vision_convert]") {
  MemoryAccountant memory;
  const Size size{4096, 4096};
  Image<uint8_t> r = NewImage<uint8_t>(memory, size);
  Image<uint8_t> g = NewImage<uint8_t>(memory, size);
  Image<uint8_t> b = NewImage<uint8_t>(memory, size);
  for (size_t i = 0; i < size_t{1} << 24; ++i) {
    r.Set(i % 4096, i / 4096, static_cast<uint8_t>(i));
    g.Set(i % 4096, i / 4096, static_cast<uint8_t>(i >> 8));
    b.Set(i % 4096, i / 4096, static_cast<uint8_t>(i >> 16));
  }
  cv::Mat rgb;
  cv::merge(std::vector<cv::Mat>{Wrap(r.view()), Wrap(g.view()), Wrap(b.view())}, rgb);
  cv::Mat want;
  cv::cvtColor(rgb, want, cv::COLOR_RGB2GRAY);
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    Image<uint8_t> gray = NewImage<uint8_t>(memory, size);
    RgbToGray(r.view(), g.view(), b.view(), gray.view());
    CHECK(CountDifferent(gray, want) == 0);
  });
}

TEST_CASE("RgbToGray f32 matches cvtColor COLOR_RGB2GRAY", "[vision_convert]") {
  MemoryAccountant memory;
  for (const Size size : kSizes) {
    const auto r = RandomImage<float>(memory, size, 4);
    const auto g = RandomImage<float>(memory, size, 5);
    const auto b = RandomImage<float>(memory, size, 6);
    const Image<float> gray =
        RunOnTargets<float>(memory, size, [&](const ImageF32View& out, RowRange rows) {
          RgbToGray(r.view(), g.view(), b.view(), out, rows);
        });
    cv::Mat rgb;
    cv::merge(std::vector<cv::Mat>{Wrap(r.view()), Wrap(g.view()), Wrap(b.view())}, rgb);
    cv::Mat want;
    cv::cvtColor(rgb, want, cv::COLOR_RGB2GRAY);
    CHECK(MaxDifference(gray, want) <= 1e-5);  // values in [0, 1]
    Image<float> reference = NewImage<float>(memory, size);
    reference::RgbToGray(r.view(), g.view(), b.view(), reference.view());
    CHECK(SameBits(gray, reference));
  }
}

TEST_CASE("ConvertU8ToF32 matches convertTo", "[vision_convert]") {
  MemoryAccountant memory;
  for (const Size size : kSizes) {
    const auto src = RandomImage<uint8_t>(memory, size, 7);
    for (auto [scale, offset] :
         {std::pair{1.0f, 0.0f}, std::pair{1.0f / 255.0f, 0.0f}, std::pair{2.5f, -3.25f}}) {
      INFO("scale " << scale << " offset " << offset);
      const Image<float> got =
          RunOnTargets<float>(memory, size, [&](const ImageF32View& out, RowRange rows) {
            ConvertU8ToF32(src.view(), out, scale, offset, rows);
          });
      cv::Mat want;
      Wrap(src.view()).convertTo(want, CV_32F, scale, offset);
      const double range = 255.0 * std::abs(scale);
      CHECK(MaxDifference(got, want) <= 1e-5 * range);
      Image<float> reference = NewImage<float>(memory, size);
      reference::ConvertU8ToF32(src.view(), reference.view(), scale, offset);
      CHECK(SameBits(got, reference));
    }
  }
}

TEST_CASE("ConvertF32ToU8 matches convertTo with saturate_cast rounding", "[vision_convert]") {
  MemoryAccountant memory;
  for (const Size size : kSizes) {
    // Values far outside [0, 255] and exact halves (ties round to even).
    auto src = RandomImage<float>(memory, size, 8, -40.0f, 300.0f);
    for (size_t y = 0; y < size.height; y += 2) {
      for (size_t x = 0; x < size.width; x += 3) src.Set(x, y, std::round(src.Get(x, y)) + 0.5f);
    }
    for (auto [scale, offset] :
         {std::pair{1.0f, 0.0f}, std::pair{0.5f, 10.0f}, std::pair{255.0f / 300.0f, 0.0f}}) {
      INFO("scale " << scale << " offset " << offset);
      const Image<uint8_t> got =
          RunOnTargets<uint8_t>(memory, size, [&](const ImageU8View& out, RowRange rows) {
            ConvertF32ToU8(src.view(), out, scale, offset, rows);
          });
      cv::Mat want;
      Wrap(src.view()).convertTo(want, CV_8U, scale, offset);
      // OpenCV fuses src * scale + offset (FMA): with an exact product (scale 1 or 0.5) the
      // results are equal; otherwise a value within one rounding of a .5 boundary may round the
      // other way, off by 1 (about 5 pixels per million).
      const bool exact_product = scale == 1.0f || scale == 0.5f;
      CHECK(MaxDifference(got, want) <= (exact_product ? 0.0 : 1.0));
      CHECK(CountDifferent(got, want) <= (exact_product ? 0 : size.width * size.height / 10000));
      Image<uint8_t> reference = NewImage<uint8_t>(memory, size);
      reference::ConvertF32ToU8(src.view(), reference.view(), scale, offset);
      CHECK(SameBits(got, reference));
    }
  }
}

TEST_CASE("ConvertF32ToU8 special values", "[vision_convert]") {
  MemoryAccountant memory;
  constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const std::vector<std::pair<float, uint8_t>> cases = {
      {kNaN, 0},         {-kInf, 0},    {-1e10f, 0},   {-0.5f, 0},   {0.49999997f, 0},
      {0.5f, 0},         {1.5f, 2},     {2.5f, 2},     {3.5f, 4},    {254.5f, 254},
      {254.50002f, 255}, {255.5f, 255}, {300.0f, 255}, {1e10f, 255}, {kInf, 255}};
  auto src = NewImage<float>(memory, {cases.size(), 1});
  for (size_t i = 0; i < cases.size(); ++i) src.Set(i, 0, cases[i].first);
  const Image<uint8_t> got = RunOnTargets<uint8_t>(
      memory, {cases.size(), 1},
      [&](const ImageU8View& out, RowRange rows) { ConvertF32ToU8(src.view(), out, 1, 0, rows); });
  cv::Mat opencv;
  Wrap(src.view()).convertTo(opencv, CV_8U, 1.0, 0.0);
  for (size_t i = 0; i < cases.size(); ++i) {
    INFO("value " << cases[i].first);
    CHECK(got.Get(i, 0) == cases[i].second);
    // The documented difference: on x86, OpenCV's int conversion (cvttps2dq) overflows to 0 from
    // 2^31 and for +Inf; aarch64's conversion saturates, so there OpenCV gives 255 like swarm.
#if defined(__x86_64__) || defined(__i386__)
    const bool overflows = cases[i].first >= 2147483648.0f;
#else
    const bool overflows = false;
#endif
    CHECK(opencv.at<uint8_t>(0, static_cast<int>(i)) == (overflows ? 0 : cases[i].second));
  }
}

TEST_CASE("Threshold binary and truncate match cv::threshold", "[vision_convert]") {
  MemoryAccountant memory;
  for (const Size size : kSizes) {
    const auto src_f32 = RandomImage<float>(memory, size, 9, -1.0f, 1.0f);
    const auto src_u8 = RandomImage<uint8_t>(memory, size, 10);
    for (ThresholdType type : {ThresholdType::kBinary, ThresholdType::kTruncate}) {
      const int cv_type = type == ThresholdType::kBinary ? cv::THRESH_BINARY : cv::THRESH_TRUNC;
      const Image<float> got_f32 =
          RunOnTargets<float>(memory, size, [&](const ImageF32View& out, RowRange rows) {
            Threshold(src_f32.view(), out, 0.25f, 0.75f, type, rows);
          });
      cv::Mat want;
      cv::threshold(Wrap(src_f32.view()), want, 0.25, 0.75, cv_type);
      CHECK(MaxDifference(got_f32, want) == 0.0);
      Image<float> reference_f32 = NewImage<float>(memory, size);
      reference::Threshold(src_f32.view(), reference_f32.view(), 0.25f, 0.75f, type);
      CHECK(SameBits(got_f32, reference_f32));

      for (int thresh : {0, 100, 254, 255}) {
        INFO("u8 threshold " << thresh);
        const Image<uint8_t> got_u8 =
            RunOnTargets<uint8_t>(memory, size, [&](const ImageU8View& out, RowRange rows) {
              Threshold(src_u8.view(), out, static_cast<uint8_t>(thresh), 200, type, rows);
            });
        cv::threshold(Wrap(src_u8.view()), want, thresh, 200, cv_type);
        CHECK(MaxDifference(got_u8, want) == 0.0);
        Image<uint8_t> reference_u8 = NewImage<uint8_t>(memory, size);
        reference::Threshold(src_u8.view(), reference_u8.view(), static_cast<uint8_t>(thresh), 200,
                             type);
        CHECK(SameBits(got_u8, reference_u8));
      }
    }
  }
}

TEST_CASE("Threshold f32 on NaN and in place", "[vision_convert]") {
  MemoryAccountant memory;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    auto image = NewImage<float>(memory, {3, 1});
    image.Set(0, 0, nan);
    image.Set(1, 0, 2.0f);
    image.Set(2, 0, -2.0f);
    Threshold(image.view(), image.view(), 1.0f, 9.0f, ThresholdType::kTruncate);
    CHECK(std::isnan(image.Get(0, 0)));
    CHECK(image.Get(1, 0) == 1.0f);
    CHECK(image.Get(2, 0) == -2.0f);
    Threshold(image.view(), image.view(), 0.0f, 9.0f, ThresholdType::kBinary);
    CHECK(image.Get(0, 0) == 0.0f);
    CHECK(image.Get(1, 0) == 9.0f);
    CHECK(image.Get(2, 0) == 0.0f);
    CHECK(PaddingIntact(image));
  });
}

}  // namespace
}  // namespace swarm
