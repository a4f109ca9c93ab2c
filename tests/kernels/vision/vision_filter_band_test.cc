// Tests for kernels/vision_filter.*: row bands (what the engine gives each thread) and batches
// (one call for N frames) give the same bits as one whole-image call, on every target, and touch
// neither the rows outside the band nor the padding between frames.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iterator>
#include <type_traits>

#include "swarm/kernels/vision/vision_filter.h"
#include "tests/kernels/vision/vision_filter_fixture.h"

namespace swarm {
namespace {

using test::PaddedImage;
using test::RandomImage;

template <typename T>
using ScratchOf = std::conditional_t<std::is_same_v<T, float>, float, uint8_t>;

template <typename T>
using BandFilter = std::function<void(const ImageView<const T>&, const ImageView<T>&, RowRange,
                                      const ArrayView<ScratchOf<T>>&)>;

// Whole image in one call vs the output rows in three bands (the last one open-ended), each band
// with a fresh scratch; rows outside a band must keep the sentinel.
template <typename T>
void CheckBands(size_t width, size_t height, size_t out_width, size_t out_height,
                size_t scratch_count, const BandFilter<T>& filter) {
  const PaddedImage<T> src = RandomImage<T>(width, height, 11);
  test::ForEachTarget([&](const test::TargetUnderTest& target) {
    INFO("target " << target.name);
    PaddedImage<T> whole(out_width, out_height, test::Sentinel<T>());
    test::GuardedScratch<ScratchOf<T>> scratch(scratch_count);
    filter(src.cview(), whole.view(), RowRange{}, scratch.view());
    PaddedImage<T> banded(out_width, out_height, test::Sentinel<T>());
    const size_t cuts[] = {0, out_height / 3, out_height / 3 + 1, SIZE_MAX};
    for (size_t b = 0; b + 1 < std::size(cuts); ++b) {
      test::GuardedScratch<ScratchOf<T>> band_scratch(scratch_count);
      filter(src.cview(), banded.view(), RowRange{cuts[b], cuts[b + 1]}, band_scratch.view());
      if (b == 0) {
        const T sentinel = test::Sentinel<T>();
        for (size_t y = cuts[1]; y < out_height; ++y) {
          for (size_t x = 0; x < out_width; ++x) {
            CHECK(std::memcmp(banded.Row(y) + x, &sentinel, sizeof(T)) == 0);
          }
        }
      }
      CHECK(band_scratch.GuardIntact());
    }
    CHECK(banded.BitwiseEqual(whole));
  });
}

TEST_CASE("Filters computed in row bands equal the whole-image result") {
  const size_t w = 37;
  const size_t h = 23;
  CheckBands<float>(
      w, h, w, h, GaussianScratchElements(w, 5),
      [](auto src, auto dst, RowRange rows, auto s) { GaussianBlur(src, dst, 5, 1.0, rows, s); });
  CheckBands<uint8_t>(
      w, h, w, h, GaussianScratchBytes(w, 9),
      [](auto src, auto dst, RowRange rows, auto s) { GaussianBlur(src, dst, 9, 2.0, rows, s); });
  CheckBands<float>(
      w, h, w, h, BoxScratchElements(w, 3),
      [](auto src, auto dst, RowRange rows, auto s) { BoxFilter(src, dst, 3, rows, s); });
  CheckBands<uint8_t>(
      w, h, w, h, BoxScratchBytes(w, 11),
      [](auto src, auto dst, RowRange rows, auto s) { BoxFilter(src, dst, 11, rows, s); });
  CheckBands<float>(
      w, h, (w + 1) / 2, (h + 1) / 2, PyramidDownScratchElements(w),
      [](auto src, auto dst, RowRange rows, auto s) { PyramidDown(src, dst, rows, s); });
}

template <typename T>
using BatchFilter = std::function<void(const ImageBatchView<const T>&, const ImageBatchView<T>&,
                                       const ArrayView<ScratchOf<T>>&, RowRange, FrameRange)>;

// A batch call equals one whole-image call per frame; frames differ so a mixed-up frame shows.
// The same batch computed in pieces (the first half of the frames in one call, the rest in two
// row bands, as the engine splits a batch across threads) gives the same bits.
template <typename T>
void CheckBatch(size_t width, size_t height, size_t out_width, size_t out_height,
                size_t scratch_count, const BandFilter<T>& single, const BatchFilter<T>& batch,
                size_t frames = 4) {
  const PaddedImage<T> src = RandomImage<T>(width, height, 21, frames);
  test::ForEachTarget([&](const test::TargetUnderTest& target) {
    INFO("target " << target.name);
    PaddedImage<T> batched(out_width, out_height, test::Sentinel<T>(), frames);
    test::GuardedScratch<ScratchOf<T>> scratch(scratch_count);
    batch(src.batch(), batched.batch(), scratch.view(), RowRange{}, FrameRange{});
    CHECK(scratch.GuardIntact());
    CHECK(batched.PaddingIs(test::Sentinel<T>()));
    PaddedImage<T> pieces(out_width, out_height, test::Sentinel<T>(), frames);
    const size_t half = frames / 2;
    batch(src.batch(), pieces.batch(), scratch.view(), RowRange{}, FrameRange{0, half});
    const T sentinel = test::Sentinel<T>();
    for (size_t y = 0; y < out_height; ++y) {  // frames outside the range are not written
      CHECK(std::memcmp(pieces.Row(y, half), &sentinel, sizeof(T)) == 0);
    }
    batch(src.batch(), pieces.batch(), scratch.view(), RowRange{0, out_height / 3},
          FrameRange{half, frames});
    batch(src.batch(), pieces.batch(), scratch.view(), RowRange{out_height / 3, SIZE_MAX},
          FrameRange{half, SIZE_MAX});
    CHECK(pieces.PaddingIs(test::Sentinel<T>()));
    CHECK(pieces.BitwiseEqual(batched));
    for (size_t k = 0; k < frames; ++k) {
      INFO("frame " << k);
      PaddedImage<T> one(out_width, out_height, test::Sentinel<T>());
      single(src.cview(k), one.view(), RowRange{}, scratch.view());
      for (size_t y = 0; y < out_height; ++y) {
        CHECK(std::memcmp(one.Row(y), batched.Row(y, k), out_width * sizeof(T)) == 0);
      }
    }
  });
}

// The batched filters under test, each with its single-image twin. Generic, so one adapter
// serves f32 and u8 images.
const auto kGaussianOne = [](auto src, auto dst, RowRange rows, auto s) {
  GaussianBlur(src, dst, 5, 1.0, rows, s);
};
const auto kGaussianBatch = [](auto src, auto dst, auto s, RowRange rows, FrameRange frames) {
  GaussianBlurBatch(src, dst, 5, 1.0, s, rows, frames);
};
const auto kBoxOne = [](auto src, auto dst, RowRange rows, auto s) {
  BoxFilter(src, dst, 3, rows, s);
};
const auto kBoxBatch = [](auto src, auto dst, auto s, RowRange rows, FrameRange frames) {
  BoxFilterBatch(src, dst, 3, s, rows, frames);
};
const auto kPyramidOne = [](auto src, auto dst, RowRange rows, auto s) {
  PyramidDown(src, dst, rows, s);
};
const auto kPyramidBatch = [](auto src, auto dst, auto s, RowRange rows, FrameRange frames) {
  PyramidDownBatch(src, dst, s, rows, frames);
};

TEST_CASE("Batched filters equal one call per frame") {
  const size_t w = 45;
  const size_t h = 14;
  CheckBatch<float>(w, h, w, h, GaussianScratchElements(w, 5), kGaussianOne, kGaussianBatch);
  CheckBatch<uint8_t>(w, h, w, h, GaussianScratchBytes(w, 5), kGaussianOne, kGaussianBatch);
  CheckBatch<float>(w, h, w, h, BoxScratchElements(w, 3), kBoxOne, kBoxBatch);
  CheckBatch<uint8_t>(w, h, w, h, BoxScratchBytes(w, 3), kBoxOne, kBoxBatch);
  CheckBatch<float>(w, h, (w + 1) / 2, (h + 1) / 2, PyramidDownScratchElements(w), kPyramidOne,
                    kPyramidBatch);
}

// 16 frames of 333x211 f32 are 4.5 MB of output: the batch streams its stores past the cache while
// each frame alone would not, and the bits must not change.
TEST_CASE("Batched f32 filters streaming the whole batch equal one call per frame") {
  const size_t w = 333;
  const size_t h = 211;
  const size_t frames = 16;
  CheckBatch<float>(w, h, w, h, GaussianScratchElements(w, 5), kGaussianOne, kGaussianBatch,
                    frames);
  CheckBatch<float>(w, h, w, h, BoxScratchElements(w, 3), kBoxOne, kBoxBatch, frames);
  CheckBatch<float>(2 * w, 2 * h, w, h, PyramidDownScratchElements(2 * w), kPyramidOne,
                    kPyramidBatch, frames);
}

}  // namespace
}  // namespace swarm
