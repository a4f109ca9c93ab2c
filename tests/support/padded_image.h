// Padded planar images owned by the vision kernel tests, independent of swarm/vision/image.h so
// that a kernel test cannot pass because of an engine bug.
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <opencv2/core.hpp>

#include "swarm/kernels/base/views.h"

namespace swarm::test {

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

// `count` images of width x height, rows of RoundUpToVector<T>(width) elements, one
// kAlignBytes-aligned allocation; padding (and the pixels until set) start as `padding`.
template <typename T>
class PaddedImage {
 public:
  PaddedImage(size_t width, size_t height, T padding, size_t count = 1)
      : width_(width),
        height_(height),
        count_(count),
        stride_(RoundUpToVector<T>(width)),
        image_stride_(stride_ * height),
        size_(std::max<size_t>(image_stride_ * count, 1)),
        data_(static_cast<T*>(std::aligned_alloc(
            kAlignBytes, (size_ * sizeof(T) + kAlignBytes - 1) / kAlignBytes * kAlignBytes))) {
    REQUIRE(data_ != nullptr);
    std::fill(data(), data() + size_, padding);
  }
  PaddedImage(const PaddedImage& other)
      : PaddedImage(other.width_, other.height_, T{}, other.count_) {
    std::memcpy(data(), other.data(), size_ * sizeof(T));
  }
  PaddedImage& operator=(const PaddedImage&) = delete;

  T* data() const { return data_.get(); }
  size_t width() const { return width_; }
  size_t height() const { return height_; }
  T* Row(size_t y, size_t k = 0) const { return data() + k * image_stride_ + y * stride_; }
  ImageView<T> view(size_t k = 0) const { return {Row(0, k), width_, height_, stride_}; }
  ImageView<const T> cview(size_t k = 0) const { return view(k); }
  ImageBatchView<T> batch() const {
    return {data(), count_, width_, height_, stride_, image_stride_};
  }
  cv::Mat Mat(size_t k = 0) const {
    return cv::Mat(static_cast<int>(height_), static_cast<int>(width_), cv::DataType<T>::type,
                   Row(0, k), stride_ * sizeof(T));
  }
  bool BitwiseEqual(const PaddedImage& other) const {
    return size_ == other.size_ && std::memcmp(data(), other.data(), size_ * sizeof(T)) == 0;
  }
  // True if every element outside the pixels still has the bits of `padding`.
  bool PaddingIs(T padding) const {
    for (size_t k = 0; k < count_; ++k) {
      for (size_t y = 0; y < height_; ++y) {
        for (size_t x = width_; x < stride_; ++x) {
          if (std::memcmp(Row(y, k) + x, &padding, sizeof(T)) != 0) return false;
        }
      }
    }
    return true;
  }

 private:
  size_t width_, height_, count_, stride_, image_stride_, size_;
  std::unique_ptr<T, FreeDeleter> data_;
};

}  // namespace swarm::test
