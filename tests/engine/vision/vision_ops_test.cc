// Tests for swarm/vision/vision_ops.h: the checked, threaded and batched entry points give the
// bits of one whole-image kernel call for 1, 2 and 3 threads and for batches (frames across
// threads, and frames x bands when there are fewer frames than threads); steady-state calls
// allocate nothing; every kind of bad input returns kInvalidArgument naming the parameter and
// leaves dst unchanged; a spot check against OpenCV through the engine path with two threads.
#include "swarm/vision/vision_ops.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <string>
#include <vector>

#include "swarm/core/memory.h"
#include "swarm/core/state_hash.h"
#include "swarm/core/thread_pool.h"
#include "swarm/kernels/vision/vision_convert.h"
#include "swarm/kernels/vision/vision_filter.h"
#include "swarm/kernels/vision/vision_gradient.h"
#include "swarm/vision/image.h"
#include "tests/support/for_each_target.h"
#include "tests/support/golden.h"

namespace swarm {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

uint32_t Mix(uint32_t x) {
  x *= 0x9e3779b1u;
  x ^= x >> 15;
  x *= 0x2c1b3c6du;
  x ^= x >> 12;
  return x;
}

// Smooth structure plus noise, so filters produce varied values.
template <typename T>
void Fill(ImageView<T> image, uint32_t salt) {
  for (size_t y = 0; y < image.height; ++y) {
    for (size_t x = 0; x < image.width; ++x) {
      const uint32_t noise = Mix(static_cast<uint32_t>(y * 7919 + x) ^ salt) % 64;
      const uint32_t value = (static_cast<uint32_t>(x * 3 + y * 5) % 192) + noise;
      image.Row(y)[x] = static_cast<T>(value);
    }
  }
}

// Every element of the allocation, padding included: entry points must not write padding.
template <typename T>
std::vector<T> Bits(const Image<T>& image) {
  const ImageView<const T> v = image.view();
  return std::vector<T>(v.data, v.data + v.row_stride * v.height);
}
template <typename T>
std::vector<T> Bits(const ImageBatch<T>& batch) {
  const ImageBatchView<const T> v = batch.view();
  return std::vector<T>(v.data, v.data + v.image_stride * v.count);
}

// The visible pixels only, row by row: row padding differs between architectures
// (swarm/kernels/base/views.h), so golden digests must not see it.
template <typename T>
std::vector<T> VisiblePixels(const Image<T>& image) {
  const ImageView<const T> v = image.view();
  std::vector<T> pixels;
  pixels.reserve(v.width * v.height);
  for (size_t y = 0; y < v.height; ++y) pixels.insert(pixels.end(), v.Row(y), v.Row(y) + v.width);
  return pixels;
}

template <typename T>
bool SameBits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

struct Size {
  size_t width, height;
};
const Size kSizes[] = {{1, 1}, {2, 3}, {17, 5}, {640, 480}, {333, 2}};

// Runs `engine(workspace, pool, src, dst)` with 1, 2 and 3 threads and `kernel(src, dst,
// scratch)` once on the whole image; all must give the same bits.
template <typename In, typename Out, class Engine, class Kernel>
void CheckThreadsMatchKernel(const char* what, Size size, size_t scratch_floats, Engine engine,
                             Kernel kernel, size_t out_width = 0, size_t out_height = 0) {
  INFO(what << " " << size.width << " x " << size.height);
  MemoryAccountant memory;
  Image<In> src = Image<In>::Create(memory, size.width, size.height).value();
  Fill(src.view(), 7);
  const size_t ow = out_width ? out_width : size.width;
  const size_t oh = out_height ? out_height : size.height;
  Image<Out> expected = Image<Out>::Create(memory, ow, oh).value();
  FloatArray scratch = FloatArray::Create(memory, scratch_floats, MemoryCategory::kScratch).value();
  kernel(src.view(), expected.view(), scratch.view());
  for (size_t threads : {1, 2, 3}) {
    INFO("threads " << threads);
    ThreadPool pool(threads);
    VisionWorkspace workspace(memory);
    Image<Out> got = Image<Out>::Create(memory, ow, oh).value();
    REQUIRE(engine(workspace, pool, src.view(), got.view()).ok());
    CHECK(SameBits(Bits(got), Bits(expected)));
  }
}

TEST_CASE("f32 filters: 1, 2 and 3 threads give the bits of one kernel call") {
  for (const Size size : kSizes) {
    const size_t w = size.width;
    CheckThreadsMatchKernel<float, float>(
        "gaussian 5 1.0", size, GaussianScratchElements(w, 5),
        [](auto& ws, auto& pool, auto src, auto dst) {
          return GaussianBlur(ws, pool, src, dst, 5, 1.0);
        },
        [](auto src, auto dst, auto scratch) {
          GaussianBlur(src, dst, 5, 1.0, RowRange{}, scratch);
        });
    CheckThreadsMatchKernel<float, float>(
        "gaussian 7 2.5", size, GaussianScratchElements(w, 7),
        [](auto& ws, auto& pool, auto src, auto dst) {
          return GaussianBlur(ws, pool, src, dst, 7, 2.5);
        },
        [](auto src, auto dst, auto scratch) {
          GaussianBlur(src, dst, 7, 2.5, RowRange{}, scratch);
        });
    CheckThreadsMatchKernel<float, float>(
        "box 3", size, BoxScratchElements(w, 3),
        [](auto& ws, auto& pool, auto src, auto dst) { return BoxFilter(ws, pool, src, dst, 3); },
        [](auto src, auto dst, auto scratch) { BoxFilter(src, dst, 3, RowRange{}, scratch); });
    CheckThreadsMatchKernel<float, float>(
        "sobel magnitude", size, GradientScratchElements(w),
        [](auto& ws, auto& pool, auto src, auto dst) {
          return GradientMagnitude(ws, pool, src, dst);
        },
        [](auto src, auto dst, auto scratch) { SobelMagnitude(src, dst, scratch); });
    CheckThreadsMatchKernel<float, float>(
        "pyrDown", size, PyramidDownScratchElements(w),
        [](auto& ws, auto& pool, auto src, auto dst) { return PyramidDown(ws, pool, src, dst); },
        [](auto src, auto dst, auto scratch) { PyramidDown(src, dst, RowRange{}, scratch); },
        (size.width + 1) / 2, (size.height + 1) / 2);
  }
}

// The golden digest (tests/support/golden.h) of one filter's output over every target and 1 and 3
// threads, which must all agree first.
template <typename Out, class Filter>
void CheckFilterGolden(const std::string& key, MemoryAccountant& memory, size_t width,
                       size_t height, Filter filter) {
  std::vector<uint64_t> digests;
  test::ForEachTarget([&](const test::TargetUnderTest& target) {
    for (size_t threads : {1, 3}) {
      INFO(key << ": target " << target.name << ", " << threads << " threads");
      ThreadPool pool(threads);
      VisionWorkspace workspace(memory);
      Image<Out> out = Image<Out>::Create(memory, width, height).value();
      REQUIRE(filter(workspace, pool, out.view()).ok());
      const std::vector<Out> bits = VisiblePixels(out);
      digests.push_back(StateHasher().AddBytes(bits.data(), bits.size() * sizeof(Out)).Digest());
      CHECK(digests.back() == digests.front());
    }
  });
  test::CheckGolden(key, digests.front());
}

TEST_CASE("filters give the golden bits on every target and thread count (cross-architecture)") {
  MemoryAccountant memory;
  constexpr size_t kWidth = 203, kHeight = 117;
  Image<float> f32 = Image<float>::Create(memory, kWidth, kHeight).value();
  Fill(f32.view(), 11);
  Image<uint8_t> u8 = Image<uint8_t>::Create(memory, kWidth, kHeight).value();
  Fill(u8.view(), 13);
  const ConstImageF32View src_f32 = f32.view();
  const ConstImageU8View src_u8 = u8.view();
  CheckFilterGolden<float>("vision.f32.gaussian_7_2.5", memory, kWidth, kHeight,
                           [&](auto& ws, auto& pool, ImageF32View dst) {
                             return GaussianBlur(ws, pool, src_f32, dst, 7, 2.5);
                           });
  CheckFilterGolden<uint8_t>("vision.u8.gaussian_5_1.0", memory, kWidth, kHeight,
                             [&](auto& ws, auto& pool, ImageU8View dst) {
                               return GaussianBlur(ws, pool, src_u8, dst, 5, 1.0);
                             });
  CheckFilterGolden<float>(
      "vision.f32.box_5", memory, kWidth, kHeight,
      [&](auto& ws, auto& pool, ImageF32View dst) { return BoxFilter(ws, pool, src_f32, dst, 5); });
  CheckFilterGolden<uint8_t>(
      "vision.u8.box_3", memory, kWidth, kHeight,
      [&](auto& ws, auto& pool, ImageU8View dst) { return BoxFilter(ws, pool, src_u8, dst, 3); });
  CheckFilterGolden<float>("vision.f32.sobel_magnitude", memory, kWidth, kHeight,
                           [&](auto& ws, auto& pool, ImageF32View dst) {
                             return GradientMagnitude(ws, pool, src_f32, dst);
                           });
  CheckFilterGolden<float>("vision.u8.sobel_magnitude", memory, kWidth, kHeight,
                           [&](auto& ws, auto& pool, ImageF32View dst) {
                             return GradientMagnitude(ws, pool, src_u8, dst);
                           });
  CheckFilterGolden<float>(
      "vision.f32.pyramid_down", memory, (kWidth + 1) / 2, (kHeight + 1) / 2,
      [&](auto& ws, auto& pool, ImageF32View dst) { return PyramidDown(ws, pool, src_f32, dst); });
}

TEST_CASE("u8 filters: 1, 2 and 3 threads give the bits of one kernel call") {
  for (const Size size : kSizes) {
    const size_t w = size.width;
    // The u8 kernels take byte scratch: a float array of the same byte count stands in for it.
    CheckThreadsMatchKernel<uint8_t, uint8_t>(
        "gaussian u8 5 1.0", size, GaussianScratchBytes(w, 5) / sizeof(float) + 1,
        [](auto& ws, auto& pool, auto src, auto dst) {
          return GaussianBlur(ws, pool, src, dst, 5, 1.0);
        },
        [](auto src, auto dst, FloatView scratch) {
          GaussianBlur(src, dst, 5, 1.0, RowRange{},
                       ByteView{reinterpret_cast<uint8_t*>(scratch.data), scratch.count * 4});
        });
    CheckThreadsMatchKernel<uint8_t, uint8_t>(
        "box u8 3", size, BoxScratchBytes(w, 3) / sizeof(float) + 1,
        [](auto& ws, auto& pool, auto src, auto dst) { return BoxFilter(ws, pool, src, dst, 3); },
        [](auto src, auto dst, FloatView scratch) {
          BoxFilter(src, dst, 3, RowRange{},
                    ByteView{reinterpret_cast<uint8_t*>(scratch.data), scratch.count * 4});
        });
    CheckThreadsMatchKernel<uint8_t, float>(
        "sobel magnitude u8", size, GradientScratchElements(w),
        [](auto& ws, auto& pool, auto src, auto dst) {
          return GradientMagnitude(ws, pool, src, dst);
        },
        [](auto src, auto dst, auto scratch) { SobelMagnitude(src, dst, scratch); });
  }
}

// A batch through the batched entry point equals each frame through the single-image one, for
// 1 thread, 2 threads with more frames than threads, and 3 threads with 2 frames (frames x bands).
// 16 frames of 333x211 f32 are 4.5 MB of output, so the batch streams its stores past the cache
// (each thread's run of frames deciding for the whole batch) where a single frame would not.
TEST_CASE("batched entry points equal frame-by-frame calls for any thread count") {
  MemoryAccountant memory;
  struct BatchShape {
    size_t count, w, h;
  };
  for (const BatchShape shape : {BatchShape{1, 37, 23}, BatchShape{2, 37, 23},
                                 BatchShape{5, 37, 23}, BatchShape{16, 333, 211}}) {
    const size_t count = shape.count, w = shape.w, h = shape.h;
    const size_t half_w = (w + 1) / 2, half_h = (h + 1) / 2;
    ImageBatchF32 src = ImageBatchF32::Create(memory, count, w, h).value();
    ImageBatchU8 src_u8 = ImageBatchU8::Create(memory, count, w, h).value();
    for (size_t f = 0; f < count; ++f) {
      Fill(src.frame(f), static_cast<uint32_t>(f));
      Fill(src_u8.frame(f), static_cast<uint32_t>(f));
    }
    ThreadPool one(1);
    VisionWorkspace ws(memory);
    auto single = [&](auto make_out, auto run) {
      auto out = make_out();
      for (size_t f = 0; f < count; ++f) REQUIRE(run(one, f, out).ok());
      return Bits(out);
    };
    const auto gauss = single([&] { return ImageBatchF32::Create(memory, count, w, h).value(); },
                              [&](ThreadPool& p, size_t f, ImageBatchF32& o) {
                                return GaussianBlur(ws, p, src.frame(f), o.frame(f), 5, 1.0);
                              });
    const auto box_u8 = single([&] { return ImageBatchU8::Create(memory, count, w, h).value(); },
                               [&](ThreadPool& p, size_t f, ImageBatchU8& o) {
                                 return BoxFilter(ws, p, src_u8.frame(f), o.frame(f), 3);
                               });
    const auto mag = single([&] { return ImageBatchF32::Create(memory, count, w, h).value(); },
                            [&](ThreadPool& p, size_t f, ImageBatchF32& o) {
                              return GradientMagnitude(ws, p, src.frame(f), o.frame(f));
                            });
    const auto pyr =
        single([&] { return ImageBatchF32::Create(memory, count, half_w, half_h).value(); },
               [&](ThreadPool& p, size_t f, ImageBatchF32& o) {
                 return PyramidDown(ws, p, src.frame(f), o.frame(f));
               });
    for (size_t threads : {1, 2, 3}) {
      INFO("count " << count << " of " << w << "x" << h << ", threads " << threads);
      ThreadPool pool(threads);
      ImageBatchF32 out = ImageBatchF32::Create(memory, count, w, h).value();
      REQUIRE(GaussianBlur(ws, pool, src.view(), out.view(), 5, 1.0).ok());
      CHECK(SameBits(Bits(out), gauss));
      ImageBatchU8 out_u8 = ImageBatchU8::Create(memory, count, w, h).value();
      REQUIRE(BoxFilter(ws, pool, src_u8.view(), out_u8.view(), 3).ok());
      CHECK(SameBits(Bits(out_u8), box_u8));
      REQUIRE(GradientMagnitude(ws, pool, src.view(), out.view()).ok());
      CHECK(SameBits(Bits(out), mag));
      ImageBatchF32 small = ImageBatchF32::Create(memory, count, half_w, half_h).value();
      REQUIRE(PyramidDown(ws, pool, src.view(), small.view()).ok());
      CHECK(SameBits(Bits(small), pyr));
    }
  }
}

TEST_CASE("fused gradient: dx, dy and magnitude equal the separate entry points") {
  MemoryAccountant memory;
  ThreadPool pool(2);
  VisionWorkspace ws(memory);
  ImageF32 src = ImageF32::Create(memory, 101, 67).value();
  Fill(src.view(), 3);
  ImageF32 dx = ImageF32::Create(memory, 101, 67).value();
  ImageF32 dy = ImageF32::Create(memory, 101, 67).value();
  ImageF32 mag = ImageF32::Create(memory, 101, 67).value();
  REQUIRE(Gradient(ws, pool, GradientFilter::kSobel, src.view(),
                   GradientOutputsF32{dx.view(), dy.view(), mag.view()})
              .ok());
  ImageF32 dx2 = ImageF32::Create(memory, 101, 67).value();
  ImageF32 dy2 = ImageF32::Create(memory, 101, 67).value();
  ImageF32 mag2 = ImageF32::Create(memory, 101, 67).value();
  REQUIRE(Sobel(ws, pool, src.view(), dx2.view(), dy2.view()).ok());
  REQUIRE(GradientMagnitude(ws, pool, src.view(), mag2.view()).ok());
  CHECK(SameBits(Bits(dx), Bits(dx2)));
  CHECK(SameBits(Bits(dy), Bits(dy2)));
  CHECK(SameBits(Bits(mag), Bits(mag2)));
}

TEST_CASE("the workspace grows only for wider images or more threads") {
  MemoryAccountant memory;
  ThreadPool pool(2);
  VisionWorkspace ws(memory);
  ImageF32 src = ImageF32::Create(memory, 320, 240).value();
  ImageF32 dst = ImageF32::Create(memory, 320, 240).value();
  Fill(src.view(), 1);
  REQUIRE(GaussianBlur(ws, pool, src.view(), dst.view(), 5, 1.0).ok());
  const uint64_t growths = ws.growths();
  const uint64_t allocations = memory.Total().allocations;
  for (int frame = 0; frame < 20; ++frame) {
    REQUIRE(GaussianBlur(ws, pool, src.view(), dst.view(), 5, 1.0).ok());
    REQUIRE(BoxFilter(ws, pool, src.view(), dst.view(), 3).ok());
    REQUIRE(GradientMagnitude(ws, pool, src.view(), dst.view()).ok());
  }
  CHECK(ws.growths() <= growths + 1);  // box / gradient may ask for a little more, once
  const uint64_t after_warmup = memory.Total().allocations;
  for (int frame = 0; frame < 20; ++frame) {
    REQUIRE(GaussianBlur(ws, pool, src.view(), dst.view(), 5, 1.0).ok());
    REQUIRE(BoxFilter(ws, pool, src.view(), dst.view(), 3).ok());
    REQUIRE(GradientMagnitude(ws, pool, src.view(), dst.view()).ok());
  }
  CHECK(memory.Total().allocations == after_warmup);
  CHECK(after_warmup - allocations <= 2);
  CHECK(memory.Stats(MemoryCategory::kScratch).bytes_in_use == ws.allocated_bytes());
}

TEST_CASE("scratch over the memory budget is a clear error and dst is unchanged") {
  MemoryAccountant memory;
  ImageF32 src = ImageF32::Create(memory, 4000, 8).value();
  ImageF32 dst = ImageF32::Create(memory, 4000, 8).value();
  Fill(dst.view(), 5);
  const std::vector<float> before = Bits(dst);
  memory.SetBudget(memory.Total().bytes_in_use + 1024);
  ThreadPool pool(2);
  VisionWorkspace ws(memory);
  const Status status = GaussianBlur(ws, pool, src.view(), dst.view(), 5, 1.0);
  REQUIRE(status.code() == ErrorCode::kOverBudget);
  CHECK(status.message().find("scratch") != std::string::npos);
  CHECK(SameBits(Bits(dst), before));
}

// Expects `status` to be kInvalidArgument with every `parts` in its message.
void ExpectError(const Status& status, std::initializer_list<const char*> parts) {
  INFO(status.message());
  REQUIRE(status.code() == ErrorCode::kInvalidArgument);
  for (const char* part : parts) CHECK(status.message().find(part) != std::string::npos);
}

TEST_CASE("bad input: a message naming the parameter, dst untouched") {
  MemoryAccountant memory;
  ThreadPool pool(2);
  VisionWorkspace ws(memory);
  ImageF32 src = ImageF32::Create(memory, 64, 48).value();
  ImageF32 dst = ImageF32::Create(memory, 64, 48).value();
  ImageF32 other = ImageF32::Create(memory, 63, 48).value();
  ImageU8 src_u8 = ImageU8::Create(memory, 64, 48).value();
  ImageU8 dst_u8 = ImageU8::Create(memory, 64, 48).value();
  Fill(src.view(), 1);
  Fill(dst.view(), 2);
  Fill(dst_u8.view(), 2);
  const std::vector<float> before = Bits(dst);
  const std::vector<uint8_t> before_u8 = Bits(dst_u8);

  ExpectError(GaussianBlur(ws, pool, src.view(), dst.view(), 4, 1.0),
              {"GaussianBlur", "ksize 4", "odd"});
  ExpectError(GaussianBlur(ws, pool, src.view(), dst.view(), 0, 1.0), {"ksize 0"});
  ExpectError(GaussianBlur(ws, pool, src.view(), dst.view(), 5, 0.0), {"sigma 0"});
  ExpectError(GaussianBlur(ws, pool, src.view(), dst.view(), 5, -1.0), {"sigma -1"});
  ExpectError(GaussianBlur(ws, pool, src.view(), dst.view(), 5, kNaN), {"sigma", "nan"});
  ExpectError(GaussianBlur(ws, pool, src_u8.view(), dst_u8.view(), 6, 1.0), {"ksize 6"});
  ExpectError(GaussianBlur(ws, pool, src.view(), other.view(), 5, 1.0),
              {"dst is 63 x 48", "src is 64 x 48"});
  ExpectError(GaussianBlur(ws, pool, src.view(), ImageF32View{}, 5, 1.0),
              {"dst", "0 x 0", "empty"});
  ExpectError(GaussianBlur(ws, pool, ConstImageF32View{}, dst.view(), 5, 1.0), {"src", "empty"});
  ExpectError(GaussianBlur(ws, pool, src.view(), src.view(), 5, 1.0), {"overlap"});
  ExpectError(BoxFilter(ws, pool, src.view(), dst.view(), 2), {"BoxFilter", "ksize 2"});
  ExpectError(BoxFilter(ws, pool, src_u8.view(), dst_u8.view(), 4096), {"ksize 4096"});
  ExpectError(GradientMagnitude(ws, pool, src.view(), other.view()),
              {"GradientMagnitude", "63 x 48"});
  ExpectError(Gradient(ws, pool, GradientFilter::kSobel, src.view(), GradientOutputsF32{}),
              {"no output"});
  ExpectError(Sobel(ws, pool, src.view(), dst.view(), dst.view()), {"dx and dy overlap"});
  ImageF32 half = ImageF32::Create(memory, 31, 24).value();
  ExpectError(PyramidDown(ws, pool, src.view(), half.view()),
              {"PyramidDown", "31 x 24", "needs 32 x 24"});
  ExpectError(PyramidDown(ws, pool, src.view(), dst.view()), {"needs 32 x 24"});
  ExpectError(Threshold(pool, src.view(), other.view(), 1.0f, 2.0f, ThresholdType::kBinary),
              {"Threshold", "63 x 48"});
  ExpectError(Threshold(pool, src.view(), dst.view(), NAN, 2.0f, ThresholdType::kBinary),
              {"threshold nan"});
  CHECK(SameBits(Bits(dst), before));
  CHECK(SameBits(Bits(dst_u8), before_u8));

  // Batches: count and shape mismatches, and no frames.
  ImageBatchF32 a = ImageBatchF32::Create(memory, 3, 16, 8).value();
  ImageBatchF32 b = ImageBatchF32::Create(memory, 2, 16, 8).value();
  ImageBatchF32 c = ImageBatchF32::Create(memory, 3, 16, 9).value();
  Fill(b.frame(0), 9);
  const std::vector<float> before_b = Bits(b);
  ExpectError(GaussianBlur(ws, pool, a.view(), b.view(), 5, 1.0), {"2 frames", "src has 3"});
  ExpectError(BoxFilter(ws, pool, a.view(), c.view(), 3), {"16 x 9", "16 x 8"});
  ExpectError(GaussianBlur(ws, pool, a.view(), a.view(), 5, 1.0), {"overlap"});
  ExpectError(PyramidDown(ws, pool, a.view(), c.view()), {"needs 8 x 4"});
  ExpectError(GradientMagnitude(ws, pool, ImageBatchView<const float>{}, b.view()), {"no frames"});
  CHECK(SameBits(Bits(b), before_b));
}

TEST_CASE("threshold runs in place and conversions round as cv::Mat::convertTo") {
  MemoryAccountant memory;
  ThreadPool pool(2);
  ImageF32 image = ImageF32::Create(memory, 40, 9).value();
  Fill(image.view(), 4);
  REQUIRE(Threshold(pool, image.view(), image.view(), 100.0f, 255.0f, ThresholdType::kBinary).ok());
  for (size_t y = 0; y < 9; ++y) {
    for (size_t x = 0; x < 40; ++x) {
      const float v = image.Get(x, y);
      CHECK((v == 0.0f || v == 255.0f));
    }
  }
  ImageU8 u8 = ImageU8::Create(memory, 40, 9).value();
  REQUIRE(ConvertF32ToU8(pool, image.view(), u8.view(), 1.0f, 0.0f).ok());
  CHECK(u8.Get(0, 0) == static_cast<uint8_t>(image.Get(0, 0)));
}

// The engine path with two threads against OpenCV (the kernels' own tests cover every size and
// target; this checks that banding and scratch handling keep the OpenCV match).
TEST_CASE("two-thread engine path matches OpenCV") {
  cv::setNumThreads(1);
  MemoryAccountant memory;
  ThreadPool pool(2);
  VisionWorkspace ws(memory);
  const size_t w = 161, h = 97;
  ImageF32 src = ImageF32::Create(memory, w, h).value();
  ImageU8 src_u8 = ImageU8::Create(memory, w, h).value();
  Fill(src.view(), 11);
  Fill(src_u8.view(), 11);
  cv::Mat cv_src(static_cast<int>(h), static_cast<int>(w), CV_32F, src.view().data,
                 src.row_stride() * sizeof(float));
  cv::Mat cv_src_u8(static_cast<int>(h), static_cast<int>(w), CV_8U, src_u8.view().data,
                    src_u8.row_stride());
  ImageF32 dst = ImageF32::Create(memory, w, h).value();
  ImageU8 dst_u8 = ImageU8::Create(memory, w, h).value();
  auto max_diff = [&](const cv::Mat& expected) {
    double worst = 0;
    for (size_t y = 0; y < h; ++y) {
      for (size_t x = 0; x < w; ++x) {
        worst =
            std::max(worst, std::abs(double(dst.Get(x, y)) - expected.at<float>(int(y), int(x))));
      }
    }
    return worst;
  };
  cv::Mat expected;
  REQUIRE(GaussianBlur(ws, pool, src.view(), dst.view(), 5, 1.0).ok());
  cv::GaussianBlur(cv_src, expected, cv::Size(5, 5), 1.0, 1.0, cv::BORDER_REFLECT_101);
  CHECK(max_diff(expected) <= 255 * 1e-5);
  REQUIRE(BoxFilter(ws, pool, src.view(), dst.view(), 3).ok());
  cv::blur(cv_src, expected, cv::Size(3, 3));
  CHECK(max_diff(expected) <= 255 * 1e-5);
  REQUIRE(GradientMagnitude(ws, pool, src.view(), dst.view()).ok());
  cv::Mat dx, dy;
  cv::Sobel(cv_src, dx, CV_32F, 1, 0, 3);
  cv::Sobel(cv_src, dy, CV_32F, 0, 1, 3);
  cv::magnitude(dx, dy, expected);
  CHECK(max_diff(expected) <= 4 * 255 * 1e-5);
  // u8 Gaussian is OpenCV's bit-exact fixed-point path: equal.
  REQUIRE(GaussianBlur(ws, pool, src_u8.view(), dst_u8.view(), 5, 1.0).ok());
  cv::GaussianBlur(cv_src_u8, expected, cv::Size(5, 5), 1.0, 1.0, cv::BORDER_REFLECT_101);
  int mismatches = 0;
  for (size_t y = 0; y < h; ++y) {
    for (size_t x = 0; x < w; ++x) {
      mismatches += dst_u8.Get(x, y) != expected.at<uint8_t>(int(y), int(x));
    }
  }
  CHECK(mismatches == 0);
}

}  // namespace
}  // namespace swarm
