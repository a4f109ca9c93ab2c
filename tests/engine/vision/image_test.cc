// Tests for swarm/vision/image.h: layout (stride, alignment, zero fill), accounting, moves,
// batches, and the errors for zero and overflowing sizes and for the memory budget.
#include "swarm/vision/image.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <utility>

#include "tests/support/padding.h"

namespace swarm {
namespace {

TEST_CASE("Image has padded aligned zero rows and is accounted", "[image]") {
  MemoryAccountant memory;
  {
    Result<ImageU8> u8 = ImageU8::Create(memory, 17, 5);
    REQUIRE(u8.ok());
    CHECK(u8->width() == 17);
    CHECK(u8->height() == 5);
    CHECK(u8->row_stride() == test::PaddedBytes(17));
    Result<ImageF32> f32 = ImageF32::Create(memory, 17, 5);
    REQUIRE(f32.ok());
    CHECK(f32->row_stride() == test::PaddedFloats(17));
    const ImageF32View view = f32->view();
    CHECK(reinterpret_cast<uintptr_t>(view.data) % kAlignBytes == 0);
    for (size_t y = 0; y < 5; ++y) {
      for (size_t x = 0; x < view.row_stride; ++x) CHECK(view.Row(y)[x] == 0.0f);
    }
    CHECK(memory.Stats(MemoryCategory::kImages).bytes_in_use >=
          (test::PaddedBytes(17) + test::PaddedFloats(17) * sizeof(float)) * 5);
    f32->Set(16, 4, 2.5f);
    CHECK(f32->Get(16, 4) == 2.5f);
    CHECK(view.Row(4)[16] == 2.5f);

    ImageF32 moved = std::move(f32).value();
    CHECK(moved.Get(16, 4) == 2.5f);
    CHECK(moved.view().data == view.data);
  }
  CHECK(memory.Stats(MemoryCategory::kImages).bytes_in_use == 0);
}

TEST_CASE("Image category can be chosen", "[image]") {
  MemoryAccountant memory;
  Result<ImageU8> scratch = ImageU8::Create(memory, 3, 2, MemoryCategory::kScratch);
  REQUIRE(scratch.ok());
  CHECK(memory.Stats(MemoryCategory::kScratch).bytes_in_use > 0);
  CHECK(memory.Stats(MemoryCategory::kImages).bytes_in_use == 0);
}

TEST_CASE("Image rejects zero, overflowing and over-budget sizes", "[image]") {
  MemoryAccountant memory(1 << 20);
  Result<ImageF32> zero_width = ImageF32::Create(memory, 0, 10);
  REQUIRE_FALSE(zero_width.ok());
  CHECK(zero_width.status().code() == ErrorCode::kInvalidArgument);
  CHECK(zero_width.status().message() ==
        "image of 0 x 10 pixels: every dimension must be at least 1");
  CHECK_FALSE(ImageU8::Create(memory, 10, 0).ok());

  constexpr size_t kHuge = std::numeric_limits<size_t>::max();
  for (auto [w, h] : {std::pair{kHuge, size_t{1}}, std::pair{size_t{1} << 40, size_t{1} << 40},
                      std::pair{size_t{1}, kHuge}}) {
    Result<ImageF32> huge = ImageF32::Create(memory, w, h);
    REQUIRE_FALSE(huge.ok());
    CHECK_THAT(huge.status().message(), Catch::Contains("too large"));
  }

  Result<ImageF32> over = ImageF32::Create(memory, 1024, 1024);
  REQUIRE_FALSE(over.ok());
  CHECK(over.status().code() == ErrorCode::kOverBudget);
  CHECK(memory.Total().bytes_in_use == 0);
}

TEST_CASE("ImageBatch puts frames in one allocation", "[image]") {
  MemoryAccountant memory;
  Result<ImageBatchF32> batch = ImageBatchF32::Create(memory, 4, 17, 5);
  REQUIRE(batch.ok());
  CHECK(memory.Stats(MemoryCategory::kImages).live_allocations == 1);
  CHECK(batch->row_stride() == test::PaddedFloats(17));
  CHECK(batch->image_stride() == test::PaddedFloats(17) * 5);
  const ImageBatchView<float> view = batch->view();
  CHECK(view.count == 4);
  batch->Set(3, 16, 4, 7.0f);
  CHECK(batch->Get(3, 16, 4) == 7.0f);
  CHECK(view.Image(3).Row(4)[16] == 7.0f);
  CHECK(batch->frame(3).data == view.data + 3 * test::PaddedFloats(17) * 5);
  CHECK(batch->frame(2).Row(4)[16] == 0.0f);

  Result<ImageBatchU8> empty = ImageBatchU8::Create(memory, 0, 17, 5);
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.status().message() ==
        "batch of 0 images of 17 x 5 pixels: every dimension must be at least 1");
  CHECK_FALSE(ImageBatchU8::Create(memory, size_t{1} << 50, 1 << 10, 1 << 10).ok());
}

}  // namespace
}  // namespace swarm
