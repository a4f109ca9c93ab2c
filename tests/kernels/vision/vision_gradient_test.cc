// Tests for kernels/vision_gradient.*: Sobel and Scharr derivatives and magnitude on f32 and u8
// images against OpenCV 4.6 (an independent implementation) and the scalar reference (bits), on
// every compiled SIMD target, bitwise across targets, with untouched row padding; bands, batches,
// cv::magnitude, and the argument checks.
#include "swarm/kernels/vision/vision_gradient.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "swarm/kernels/vision/vision_gradient_reference.h"
#include "tests/support/for_each_target.h"
#include "tests/support/padded_image.h"

namespace swarm {
namespace {

using test::ForEachTarget;
using test::TargetUnderTest;

using test::PaddedImage;

struct Size {
  size_t width;
  size_t height;
};
// The sizes plus widths around 4, 8, 16 and 32 lanes.
constexpr Size kSizes[] = {{1, 1},  {2, 3}, {17, 5}, {3, 2},     {16, 4},     {31, 7},
                           {33, 3}, {1, 9}, {9, 1},  {640, 480}, {1921, 1081}};
constexpr GradientFilter kFilters[] = {GradientFilter::kSobel, GradientFilter::kScharr};
constexpr float kPadF32 = -7777.0f;
constexpr int16_t kPadS16 = -31111;
constexpr uint8_t kPadU8 = 0xA5;

const char* Name(GradientFilter filter) {
  return filter == GradientFilter::kSobel ? "Sobel" : "Scharr";
}

PaddedImage<float> RandomF32(Size size, uint32_t seed, size_t count = 1) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> value(-100.0f, 100.0f);
  PaddedImage<float> image(size.width, size.height, kPadF32, count);
  for (size_t k = 0; k < count; ++k) {
    for (size_t y = 0; y < size.height; ++y) {
      for (size_t x = 0; x < size.width; ++x) image.Row(y, k)[x] = value(rng);
    }
  }
  return image;
}

PaddedImage<uint8_t> RandomU8(Size size, uint32_t seed, size_t count = 1) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> value(0, 255);
  PaddedImage<uint8_t> image(size.width, size.height, kPadU8, count);
  for (size_t k = 0; k < count; ++k) {
    for (size_t y = 0; y < size.height; ++y) {
      for (size_t x = 0; x < size.width; ++x) {
        // Mostly saturated values so the int16 extremes (|dx| = 4 * 255) occur.
        const int v = value(rng);
        image.Row(y, k)[x] = static_cast<uint8_t>(v < 64 ? 0 : v > 192 ? 255 : v);
      }
    }
  }
  return image;
}

// OpenCV's derivative (dx = 1 for x) as ddepth, BORDER_REFLECT_101 (cv::BORDER_DEFAULT).
cv::Mat OpenCvDerivative(GradientFilter filter, const cv::Mat& src, int ddepth, bool x) {
  cv::Mat out;
  if (filter == GradientFilter::kSobel) {
    cv::Sobel(src, out, ddepth, x ? 1 : 0, x ? 0 : 1, 3, 1.0, 0.0, cv::BORDER_REFLECT_101);
  } else {
    cv::Scharr(src, out, ddepth, x ? 1 : 0, x ? 0 : 1, 1.0, 0.0, cv::BORDER_REFLECT_101);
  }
  return out;
}

// Empty if |got - want| <= tolerance * max(1, max |want|) everywhere, else the worst pixel.
std::string CompareF32(const char* what, const cv::Mat& got, const cv::Mat& want,
                       double relative_tolerance) {
  cv::Mat want_f32, got_f32;
  want.convertTo(want_f32, CV_32F);
  got.convertTo(got_f32, CV_32F);
  double range = 1.0;
  for (int y = 0; y < want_f32.rows; ++y) {
    for (int x = 0; x < want_f32.cols; ++x) {
      range = std::max(range, std::abs(double{want_f32.at<float>(y, x)}));
    }
  }
  double worst = 0.0;
  int wx = 0, wy = 0;
  for (int y = 0; y < want_f32.rows; ++y) {
    for (int x = 0; x < want_f32.cols; ++x) {
      const double e = std::abs(double{got_f32.at<float>(y, x)} - want_f32.at<float>(y, x));
      if (!(e <= worst)) {
        worst = e;
        wx = x;
        wy = y;
      }
    }
  }
  if (worst <= relative_tolerance * range) return {};
  return std::string(what) + ": error " + std::to_string(worst) + " at (" + std::to_string(wx) +
         ", " + std::to_string(wy) + "), got " + std::to_string(got_f32.at<float>(wy, wx)) +
         " want " + std::to_string(want_f32.at<float>(wy, wx)) + ", range " + std::to_string(range);
}

bool Identical(const cv::Mat& a, const cv::Mat& b) {
  return a.size() == b.size() && a.type() == b.type() && cv::countNonZero(a != b) == 0;
}

// Runs `compute(outputs, scratch)` on every target for the fused pass and each single output,
// checking each result against the bits of `want` (the reference), the padding and the first
// target's bits. Src is the source element type; Deriv the derivative element type.
template <typename Deriv, class Outputs, class Compute>
void CheckOnEveryTarget(Size size, const PaddedImage<Deriv>& want_dx,
                        const PaddedImage<Deriv>& want_dy, const PaddedImage<float>& want_mag,
                        Deriv pad, const Compute& compute) {
  std::optional<PaddedImage<Deriv>> first_dx;
  std::optional<PaddedImage<float>> first_mag;
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    PaddedImage<Deriv> dx(size.width, size.height, pad), dy(size.width, size.height, pad);
    PaddedImage<float> mag(size.width, size.height, kPadF32);
    std::vector<float> scratch(GradientScratchElements(size.width) + kPadFloats);
    // Align the scratch like an engine buffer would, and dirty it: contents must not matter.
    auto* aligned =
        reinterpret_cast<float*>((reinterpret_cast<uintptr_t>(scratch.data()) + kAlignBytes - 1) /
                                 kAlignBytes * kAlignBytes);
    std::fill(scratch.begin(), scratch.end(), 1e30f);
    const FloatView scratch_view{aligned, GradientScratchElements(size.width)};
    compute(Outputs{dx.view(), dy.view(), mag.view()}, scratch_view);
    CHECK(dx.BitwiseEqual(want_dx));
    CHECK(dy.BitwiseEqual(want_dy));
    CHECK(mag.BitwiseEqual(want_mag));
    CHECK(dx.PaddingIs(pad));
    CHECK(dy.PaddingIs(pad));
    CHECK(mag.PaddingIs(kPadF32));
    // Each output alone, and magnitude alone, give the same bits as the fused pass.
    PaddedImage<Deriv> dx_only(size.width, size.height, pad), dy_only(size.width, size.height, pad);
    PaddedImage<float> mag_only(size.width, size.height, kPadF32);
    compute(Outputs{.dx = dx_only.view()}, scratch_view);
    compute(Outputs{.dy = dy_only.view()}, scratch_view);
    compute(Outputs{.magnitude = mag_only.view()}, scratch_view);
    CHECK(dx_only.BitwiseEqual(want_dx));
    CHECK(dy_only.BitwiseEqual(want_dy));
    CHECK(mag_only.BitwiseEqual(want_mag));
    if (!first_dx) {
      first_dx.emplace(dx);
      first_mag.emplace(mag);
    } else {
      CHECK(dx.BitwiseEqual(*first_dx));
      CHECK(mag.BitwiseEqual(*first_mag));
    }
  });
  REQUIRE(first_dx.has_value());
}

TEST_CASE("f32 gradients match OpenCV, the reference bits and themselves on every target") {
  for (const GradientFilter filter : kFilters) {
    for (const Size size : kSizes) {
      INFO(Name(filter) << " " << size.width << "x" << size.height);
      const PaddedImage<float> src =
          RandomF32(size, static_cast<uint32_t>(size.width * 31 + size.height));
      PaddedImage<float> want_dx(size.width, size.height, kPadF32);
      PaddedImage<float> want_dy(size.width, size.height, kPadF32);
      PaddedImage<float> want_mag(size.width, size.height, kPadF32);
      reference::Gradient(filter, src.view(), {want_dx.view(), want_dy.view(), want_mag.view()});
      // The reference (hence every target) against OpenCV: <= 1e-5 of the value range.
      const cv::Mat cv_dx = OpenCvDerivative(filter, src.Mat(), CV_32F, true);
      const cv::Mat cv_dy = OpenCvDerivative(filter, src.Mat(), CV_32F, false);
      cv::Mat cv_mag;
      cv::magnitude(cv_dx, cv_dy, cv_mag);
      CHECK(CompareF32("dx", want_dx.Mat(), cv_dx, 1e-5) == "");
      CHECK(CompareF32("dy", want_dy.Mat(), cv_dy, 1e-5) == "");
      CHECK(CompareF32("magnitude", want_mag.Mat(), cv_mag, 1e-5) == "");
      CheckOnEveryTarget<float, GradientOutputsF32>(
          size, want_dx, want_dy, want_mag, kPadF32,
          [&](const GradientOutputsF32& out, const FloatView& scratch) {
            Gradient(filter, src.view(), out, scratch);
          });
    }
  }
}

TEST_CASE("u8 gradients equal OpenCV's CV_16S exactly on every target") {
  for (const GradientFilter filter : kFilters) {
    for (const Size size : kSizes) {
      INFO(Name(filter) << " " << size.width << "x" << size.height);
      const PaddedImage<uint8_t> src =
          RandomU8(size, static_cast<uint32_t>(size.width * 7 + size.height));
      PaddedImage<int16_t> want_dx(size.width, size.height, kPadS16);
      PaddedImage<int16_t> want_dy(size.width, size.height, kPadS16);
      PaddedImage<float> want_mag(size.width, size.height, kPadF32);
      reference::Gradient(filter, src.view(), {want_dx.view(), want_dy.view(), want_mag.view()});
      const cv::Mat cv_dx = OpenCvDerivative(filter, src.Mat(), CV_16S, true);
      const cv::Mat cv_dy = OpenCvDerivative(filter, src.Mat(), CV_16S, false);
      CHECK(Identical(want_dx.Mat(), cv_dx));
      CHECK(Identical(want_dy.Mat(), cv_dy));
      // Magnitude: cv::magnitude of the f32-converted exact derivatives. Sobel's dx^2 + dy^2 <
      // 2^24 is exact, so the results are identical; Scharr's squares round (to within 1e-7).
      cv::Mat fx, fy, cv_mag;
      cv_dx.convertTo(fx, CV_32F);
      cv_dy.convertTo(fy, CV_32F);
      cv::magnitude(fx, fy, cv_mag);
      if (filter == GradientFilter::kSobel) {
        CHECK(Identical(want_mag.Mat(), cv_mag));
      } else {
        CHECK(CompareF32("magnitude", want_mag.Mat(), cv_mag, 1e-6) == "");
      }
      CheckOnEveryTarget<int16_t, GradientOutputsU8>(
          size, want_dx, want_dy, want_mag, kPadS16,
          [&](const GradientOutputsU8& out, const FloatView& scratch) {
            Gradient(filter, src.view(), out, scratch);
          });
    }
  }
}

TEST_CASE("Sobel conveniences and bands give the bits of the whole-image fused pass") {
  const Size size{45, 23};
  const PaddedImage<float> src = RandomF32(size, 5);
  const PaddedImage<uint8_t> src8 = RandomU8(size, 6);
  PaddedImage<float> dx(45, 23, kPadF32), dy(45, 23, kPadF32), mag(45, 23, kPadF32),
      mag8(45, 23, kPadF32);
  PaddedImage<int16_t> dx8(45, 23, kPadS16), dy8(45, 23, kPadS16);
  std::vector<float> scratch_storage(GradientScratchElements(45) + kPadFloats);
  const FloatView scratch{scratch_storage.data(), GradientScratchElements(45)};
  Gradient(GradientFilter::kSobel, src.view(), {dx.view(), dy.view(), mag.view()}, scratch);
  Gradient(GradientFilter::kSobel, src8.view(), {dx8.view(), dy8.view(), mag8.view()}, scratch);
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    PaddedImage<float> bdx(45, 23, kPadF32), bdy(45, 23, kPadF32), bmag(45, 23, kPadF32),
        bmag8(45, 23, kPadF32);
    PaddedImage<int16_t> bdx8(45, 23, kPadS16), bdy8(45, 23, kPadS16);
    // Uneven bands, including an empty one and an end past the last row (clamped).
    const RowRange bands[] = {{0, 1}, {1, 9}, {9, 9}, {9, 22}, {22, 1000}};
    for (const RowRange band : bands) {
      SobelDx(src.view(), bdx.view(), scratch, band);
      SobelDy(src.view(), bdy.view(), scratch, band);
      SobelMagnitude(src.view(), bmag.view(), scratch, band);
      SobelDx(src8.view(), bdx8.view(), scratch, band);
      SobelDy(src8.view(), bdy8.view(), scratch, band);
      SobelMagnitude(src8.view(), bmag8.view(), scratch, band);
    }
    CHECK(bdx.BitwiseEqual(dx));
    CHECK(bdy.BitwiseEqual(dy));
    CHECK(bmag.BitwiseEqual(mag));
    CHECK(bdx8.BitwiseEqual(dx8));
    CHECK(bdy8.BitwiseEqual(dy8));
    CHECK(bmag8.BitwiseEqual(mag8));
  });
}

TEST_CASE("Batched gradients equal per-image calls") {
  const Size size{37, 11};
  const size_t count = 3;
  const PaddedImage<float> src = RandomF32(size, 9, count);
  const PaddedImage<uint8_t> src8 = RandomU8(size, 10, count);
  std::vector<float> scratch_storage(GradientScratchElements(size.width));
  const FloatView scratch{scratch_storage.data(), scratch_storage.size()};
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    PaddedImage<float> dx(37, 11, kPadF32, count), mag(37, 11, kPadF32, count),
        mag8(37, 11, kPadF32, count);
    PaddedImage<int16_t> dy8(37, 11, kPadS16, count);
    GradientBatch(GradientFilter::kScharr, src.batch(),
                  {.dx = dx.batch(), .magnitude = mag.batch()}, scratch);
    GradientBatch(GradientFilter::kSobel, src8.batch(),
                  {.dy = dy8.batch(), .magnitude = mag8.batch()}, scratch);
    CHECK(dx.PaddingIs(kPadF32));
    CHECK(dy8.PaddingIs(kPadS16));
    for (size_t k = 0; k < count; ++k) {
      PaddedImage<float> one_dx(37, 11, kPadF32), one_mag(37, 11, kPadF32),
          one_mag8(37, 11, kPadF32);
      PaddedImage<int16_t> one_dy8(37, 11, kPadS16);
      Gradient(GradientFilter::kScharr, src.view(k),
               {.dx = one_dx.view(), .magnitude = one_mag.view()}, scratch);
      Gradient(GradientFilter::kSobel, src8.view(k),
               {.dy = one_dy8.view(), .magnitude = one_mag8.view()}, scratch);
      CHECK(Identical(dx.Mat(k), one_dx.Mat()));
      CHECK(Identical(mag.Mat(k), one_mag.Mat()));
      CHECK(Identical(mag8.Mat(k), one_mag8.Mat()));
      CHECK(Identical(dy8.Mat(k), one_dy8.Mat()));
    }
  });
}

// 16 frames of 333x211 write 4.5 MB of dx and magnitude, so the whole batch streams. Computed in
// pieces (half the frames in one call, the rest in two row bands, as the engine splits a batch
// across threads) every piece must still decide for the whole batch and give the same bits.
TEST_CASE("A streaming gradient batch computed in frame ranges and row bands equals one call") {
  const Size size{333, 211};
  const size_t count = 16;
  const PaddedImage<float> src = RandomF32(size, 12, count);
  std::vector<float> scratch_storage(GradientScratchElements(size.width));
  const FloatView scratch{scratch_storage.data(), scratch_storage.size()};
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    PaddedImage<float> dx(size.width, size.height, kPadF32, count),
        mag(size.width, size.height, kPadF32, count);
    GradientBatch(GradientFilter::kSobel, src.batch(), {.dx = dx.batch(), .magnitude = mag.batch()},
                  scratch);
    PaddedImage<float> piece_dx(size.width, size.height, kPadF32, count),
        piece_mag(size.width, size.height, kPadF32, count);
    const GradientBatchOutputsF32 pieces{.dx = piece_dx.batch(), .magnitude = piece_mag.batch()};
    GradientBatch(GradientFilter::kSobel, src.batch(), pieces, scratch, RowRange{},
                  FrameRange{0, count / 2});
    CHECK(piece_mag.Row(0, count / 2)[0] == kPadF32);  // frames outside the range are not written
    GradientBatch(GradientFilter::kSobel, src.batch(), pieces, scratch, RowRange{0, 70},
                  FrameRange{count / 2, count});
    GradientBatch(GradientFilter::kSobel, src.batch(), pieces, scratch, RowRange{70, SIZE_MAX},
                  FrameRange{count / 2, SIZE_MAX});
    CHECK(piece_dx.PaddingIs(kPadF32));
    CHECK(piece_dx.BitwiseEqual(dx));
    CHECK(piece_mag.BitwiseEqual(mag));
    for (size_t k : {size_t{0}, count - 1}) {
      INFO("frame " << k);
      PaddedImage<float> one_mag(size.width, size.height, kPadF32);
      Gradient(GradientFilter::kSobel, src.view(k), {.magnitude = one_mag.view()}, scratch);
      CHECK(Identical(piece_mag.Mat(k), one_mag.Mat()));
    }
  });
}

// 16 frames of 333x211 are 4.5 MB of magnitude: enough to stream, but an image stride of one
// float past the frame puts every later frame off the vector boundary, where a non-temporal store
// would fault. The batch must notice and store normally, with the bits of per-frame calls.
TEST_CASE("Batched gradients with unaligned frames store safely and equal per-image calls") {
  constexpr size_t kWidth = 333, kHeight = 211, kFrames = 16;
  const size_t row_stride = RoundUpToVector<float>(kWidth);
  const size_t image_stride = row_stride * kHeight + 1;
  const size_t floats = RoundUpToVector<float>(image_stride * kFrames);
  auto allocate = [&] {
    return std::unique_ptr<float[], decltype(&std::free)>(
        static_cast<float*>(std::aligned_alloc(kAlignBytes, floats * sizeof(float))), &std::free);
  };
  auto src = allocate();
  auto batched = allocate();
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> value(0.0f, 255.0f);
  for (size_t i = 0; i < floats; ++i) src[i] = value(rng);
  const ImageBatchView<const float> src_batch{src.get(), kFrames,    kWidth,
                                              kHeight,   row_stride, image_stride};
  const ImageBatchView<float> out_batch{batched.get(), kFrames,    kWidth,
                                        kHeight,       row_stride, image_stride};
  std::vector<float> scratch(GradientScratchElements(kWidth));
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    std::memset(batched.get(), 0, floats * sizeof(float));
    GradientBatch(GradientFilter::kSobel, src_batch, {.magnitude = out_batch},
                  {scratch.data(), scratch.size()});
    for (size_t k = 0; k < kFrames; ++k) {
      INFO("frame " << k);
      std::vector<float> one(row_stride * kHeight);
      Gradient(GradientFilter::kSobel, src_batch.Image(k),
               {.magnitude = {one.data(), kWidth, kHeight, row_stride}},
               {scratch.data(), scratch.size()});
      for (size_t y = 0; y < kHeight; ++y) {
        REQUIRE(std::memcmp(one.data() + y * row_stride, out_batch.Image(k).Row(y),
                            kWidth * sizeof(float)) == 0);
      }
    }
  });
}

TEST_CASE("GradientMagnitude matches cv::magnitude and the reference bits on every target") {
  for (const Size size : kSizes) {
    INFO(size.width << "x" << size.height);
    const PaddedImage<float> dx = RandomF32(size, 1);
    const PaddedImage<float> dy = RandomF32(size, 2);
    cv::Mat want;
    cv::magnitude(dx.Mat(), dy.Mat(), want);
    PaddedImage<float> ref(size.width, size.height, kPadF32);
    reference::GradientMagnitude(dx.view(), dy.view(), ref.view());
    // Correctly rounded Sqrt of a correctly rounded sum. OpenCV's SIMD loop (v_muladd, fused
    // where the CPU has FMA) differs in the last bit for some pixels, so allow 1e-6 of the range
    // against it and no difference against the reference.
    CHECK(CompareF32("magnitude", ref.Mat(), want, 1e-6) == "");
    ForEachTarget([&](const TargetUnderTest& target) {
      INFO("target " << target.name);
      PaddedImage<float> got(size.width, size.height, kPadF32);
      GradientMagnitude(dx.view(), dy.view(), got.view());
      CHECK(got.BitwiseEqual(ref));
    });
  }
}

TEST_CASE("GradientArgumentsError names the violated precondition") {
  const PaddedImage<float> src(8, 4, 0.0f);
  PaddedImage<float> out(8, 4, 0.0f), narrow(7, 4, 0.0f), short_image(8, 3, 0.0f);
  PaddedImage<int16_t> out16(8, 4, 0), short16(8, 3, 0);
  const PaddedImage<uint8_t> src8(8, 4, 0);
  const size_t scratch = GradientScratchElements(8);
  const auto error = [](const char* message) {
    return message == nullptr ? std::string() : message;
  };
  CHECK(error(GradientArgumentsError(src.view(), {.dx = out.view()}, scratch)).empty());
  CHECK(error(GradientArgumentsError(src8.view(), {.dx = out16.view()}, scratch)).empty());
  const ImageView<const float> empty{src.data(), 0, 4, src.view().row_stride};
  CHECK(error(GradientArgumentsError(empty, {.dx = out.view()}, scratch)) ==
        "gradient: the source image is empty");
  CHECK(error(GradientArgumentsError(src.view(), {.dy = narrow.view()}, scratch)) ==
        "gradient: dy shape or row stride differs from the source");
  CHECK(error(GradientArgumentsError(src.view(), {.magnitude = short_image.view()}, scratch)) ==
        "gradient: magnitude shape or row stride differs from the source");
  CHECK(error(GradientArgumentsError(src8.view(), {.dx = short16.view()}, scratch)) ==
        "gradient: dx shape or row stride differs from the source");
  CHECK(error(GradientArgumentsError(src.view(), {}, scratch)) == "gradient: no output requested");
  CHECK(error(GradientArgumentsError(src.view(), {.dx = out.view()}, scratch - 1)) ==
        "gradient: scratch smaller than GradientScratchElements(width)");
  CHECK(error(GradientArgumentsError(src.view(), {.dx = out.view()}, scratch, {5, 6})) ==
        "gradient: row range begins past the last row");
  CHECK(error(GradientArgumentsError(src.view(), {.dx = out.view()}, scratch, {4, 9})).empty());
}

}  // namespace
}  // namespace swarm
