// Owning planar images: Image<T> (one plane of `height` rows of `width` pixels) and ImageBatch<T>
// (N same-size frames, e.g. one per simulated robot camera, in ONE allocation). T is float or
// uint8_t. Both are move-only, zero-filled at creation, accounted by a MemoryAccountant (category
// kImages by default) and hand out the non-owning views of swarm/kernels/base/views.h that kernels
// take:
//
//   MemoryAccountant memory(/*budget_bytes=*/96 << 20);
//   Result<ImageF32> gray = ImageF32::Create(memory, 1920, 1080);
//   if (!gray.ok()) { puts(gray.status().message().c_str()); return 2; }
//   ConvertU8ToF32(u8->view(), gray->view(), 1.0f / 255.0f, 0.0f);
//
// Layout: row_stride = RoundUpToVector<T>(width) elements (a whole number of 64-byte vectors), so
// every row starts kAlignBytes-aligned and the row padding [width, row_stride) is zero; a batch
// puts frame k at data + k * image_stride with image_stride = row_stride * height.
// The storage is swarm/core/lane_storage.h (one lane), which owns the accounting and the size
// checks. Views stay valid until the image is moved or destroyed. Multi-channel images are several
// planes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "swarm/core/lane_storage.h"
#include "swarm/core/memory.h"
#include "swarm/core/status.h"
#include "swarm/kernels/base/views.h"

namespace swarm {

namespace detail {
// Validates a batch of `count` images of width x height elements of `element_bytes` bytes with
// rows padded to `pad_elements`: every size >= 1 and the total element count <= max_elements.
// Returns the total element count, or an error naming the sizes ("image of 0 x 480 pixels: ...").
Result<size_t> ImageElementCount(size_t count, size_t width, size_t height, size_t pad_elements,
                                 size_t max_elements);
}  // namespace detail

template <typename T>
class ImageBatch;

template <typename T>
class Image {
 public:
  // A zero image of width x height pixels. Errors: a zero width or height, a size whose
  // allocation would overflow size_t, the memory budget.
  static Result<Image> Create(MemoryAccountant& accountant, size_t width, size_t height,
                              MemoryCategory category = MemoryCategory::kImages) {
    Result<size_t> elements =
        detail::ImageElementCount(1, width, height, kPadElements<T>, LaneStorage<T, 1>::MaxSize());
    if (!elements.ok()) return elements.status();
    LaneStorage<T, 1> storage(accountant, category);
    if (Status status = storage.Resize(elements.value()); !status.ok()) return status;
    return Image(std::move(storage), width, height);
  }
  Image() = default;

  size_t width() const { return width_; }
  size_t height() const { return height_; }
  size_t row_stride() const { return row_stride_; }  // in elements
  MemoryCategory category() const { return storage_.category(); }

  ImageView<T> view() { return {storage_.lane(0), width_, height_, row_stride_}; }
  ImageView<const T> view() const { return {storage_.lane(0), width_, height_, row_stride_}; }

  // Single-pixel access for tests and tools (checked in debug builds).
  T Get(size_t x, size_t y) const {
    SWARM_DASSERT(x < width_ && y < height_);
    return storage_.lane(0)[y * row_stride_ + x];
  }
  void Set(size_t x, size_t y, T value) {
    SWARM_DASSERT(x < width_ && y < height_);
    storage_.lane(0)[y * row_stride_ + x] = value;
  }

 private:
  Image(LaneStorage<T, 1> storage, size_t width, size_t height)
      : storage_(std::move(storage)),
        width_(width),
        height_(height),
        row_stride_(RoundUpToVector<T>(width)) {}

  LaneStorage<T, 1> storage_;
  size_t width_ = 0;
  size_t height_ = 0;
  size_t row_stride_ = 0;
};

template <typename T>
class ImageBatch {
 public:
  // `count` zero frames of width x height pixels in one allocation. Errors as Image::Create,
  // plus a zero count.
  static Result<ImageBatch> Create(MemoryAccountant& accountant, size_t count, size_t width,
                                   size_t height,
                                   MemoryCategory category = MemoryCategory::kImages) {
    Result<size_t> elements = detail::ImageElementCount(count, width, height, kPadElements<T>,
                                                        LaneStorage<T, 1>::MaxSize());
    if (!elements.ok()) return elements.status();
    LaneStorage<T, 1> storage(accountant, category);
    if (Status status = storage.Resize(elements.value()); !status.ok()) return status;
    return ImageBatch(std::move(storage), count, width, height);
  }
  ImageBatch() = default;

  size_t count() const { return count_; }
  size_t width() const { return width_; }
  size_t height() const { return height_; }
  size_t row_stride() const { return row_stride_; }      // in elements
  size_t image_stride() const { return image_stride_; }  // in elements
  MemoryCategory category() const { return storage_.category(); }

  ImageBatchView<T> view() {
    return {storage_.lane(0), count_, width_, height_, row_stride_, image_stride_};
  }
  ImageBatchView<const T> view() const {
    return {storage_.lane(0), count_, width_, height_, row_stride_, image_stride_};
  }
  // Frame `index` as a single-image view (index < count()).
  ImageView<T> frame(size_t index) { return view().Image(index); }
  ImageView<const T> frame(size_t index) const { return view().Image(index); }

  T Get(size_t index, size_t x, size_t y) const {
    SWARM_DASSERT(index < count_ && x < width_ && y < height_);
    return storage_.lane(0)[index * image_stride_ + y * row_stride_ + x];
  }
  void Set(size_t index, size_t x, size_t y, T value) {
    SWARM_DASSERT(index < count_ && x < width_ && y < height_);
    storage_.lane(0)[index * image_stride_ + y * row_stride_ + x] = value;
  }

 private:
  ImageBatch(LaneStorage<T, 1> storage, size_t count, size_t width, size_t height)
      : storage_(std::move(storage)),
        count_(count),
        width_(width),
        height_(height),
        row_stride_(RoundUpToVector<T>(width)),
        image_stride_(row_stride_ * height) {}

  LaneStorage<T, 1> storage_;
  size_t count_ = 0;
  size_t width_ = 0;
  size_t height_ = 0;
  size_t row_stride_ = 0;
  size_t image_stride_ = 0;
};

using ImageF32 = Image<float>;
using ImageU8 = Image<uint8_t>;
using ImageBatchF32 = ImageBatch<float>;
using ImageBatchU8 = ImageBatch<uint8_t>;

}  // namespace swarm
