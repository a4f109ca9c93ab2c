// Scalar references of the smoothing filters: separable passes written as the formulas of
// swarm/kernels/vision/vision_filter.h, vertical pass first, every index through Reflect101.
#include "swarm/kernels/vision/vision_filter_reference.h"

#include <cstdint>
#include <vector>

#include "swarm/kernels/vision/vision_filter.h"

namespace swarm::reference {
namespace {

ptrdiff_t Signed(size_t v) { return static_cast<ptrdiff_t>(v); }

// Symmetric taps: k[0] * p(0) + k[1] * (p(-1) + p(1)) + ... ; k == nullptr means all ones.
template <typename T, class Pixel>
T SymmetricTaps(const T* k, size_t radius, const Pixel& p) {
  T acc = p(0);
  if (k != nullptr) acc = k[0] * acc;
  for (size_t i = 1; i <= radius; ++i) {
    T pair = p(-Signed(i)) + p(Signed(i));
    if (k != nullptr) pair = k[i] * pair;
    acc = acc + pair;
  }
  return acc;
}

// Vertical then horizontal pass over a T intermediate; finish(T) gives the output pixel.
template <typename T, typename SrcT, typename DstT, class Finish>
void Separable(const ImageView<const SrcT>& src, const ImageView<DstT>& dst, const T* kx, size_t rx,
               const T* ky, size_t ry, const Finish& finish) {
  const size_t w = src.width;
  const size_t h = src.height;
  std::vector<T> vertical(w * h);
  for (size_t y = 0; y < h; ++y) {
    for (size_t x = 0; x < w; ++x) {
      vertical[y * w + x] = SymmetricTaps<T>(ky, ry, [&](ptrdiff_t dy) {
        return static_cast<T>(src.Row(Reflect101(Signed(y) + dy, h))[x]);
      });
    }
  }
  for (size_t y = 0; y < h; ++y) {
    for (size_t x = 0; x < w; ++x) {
      const T sum = SymmetricTaps<T>(
          kx, rx, [&](ptrdiff_t dx) { return vertical[y * w + Reflect101(Signed(x) + dx, w)]; });
      dst.Row(y)[x] = finish(sum);
    }
  }
}

}  // namespace

void GaussianBlur(const ConstImageF32View& src, const ImageF32View& dst, size_t ksize,
                  double sigma) {
  std::vector<float> k(ksize);
  GaussianCoefficients(ksize, sigma, k.data());
  const float one = 1.0f;
  const float* center = k.data() + ksize / 2;
  // cv::GaussianBlur: a 1-column (1-row) image gets a 1-tap kernel in x (y).
  const bool one_column = src.width == 1;
  const bool one_row = src.height == 1;
  Separable<float>(src, dst, one_column ? &one : center, one_column ? 0 : ksize / 2,
                   one_row ? &one : center, one_row ? 0 : ksize / 2, [](float v) { return v; });
}

void GaussianBlur(const ConstImageU8View& src, const ImageU8View& dst, size_t ksize, double sigma) {
  std::vector<uint16_t> taps(ksize);
  GaussianFixedPointCoefficients(ksize, sigma, taps.data());
  const std::vector<int64_t> k(taps.begin(), taps.end());
  const int64_t one = 256;
  const int64_t* center = k.data() + ksize / 2;
  const bool one_column = src.width == 1;
  const bool one_row = src.height == 1;
  Separable<int64_t>(src, dst, one_column ? &one : center, one_column ? 0 : ksize / 2,
                     one_row ? &one : center, one_row ? 0 : ksize / 2,
                     [](int64_t v) { return static_cast<uint8_t>((v + (1 << 15)) >> 16); });
}

void BoxFilter(const ConstImageF32View& src, const ImageF32View& dst, size_t ksize) {
  const float scale = static_cast<float>(1.0 / static_cast<double>(ksize * ksize));
  Separable<float>(src, dst, static_cast<const float*>(nullptr), ksize / 2,
                   static_cast<const float*>(nullptr), ksize / 2,
                   [scale](float v) { return v * scale; });
}

void BoxFilter(const ConstImageU8View& src, const ImageU8View& dst, size_t ksize) {
  const int64_t area = static_cast<int64_t>(ksize * ksize);
  Separable<int64_t>(src, dst, static_cast<const int64_t*>(nullptr), ksize / 2,
                     static_cast<const int64_t*>(nullptr), ksize / 2,
                     [area](int64_t s) { return static_cast<uint8_t>((s + area / 2) / area); });
}

void PyramidDown(const ConstImageF32View& src, const ImageF32View& dst) {
  const size_t w = src.width;
  const size_t h = src.height;
  const auto taps = [](const auto& p) {
    float acc = p(0) * 6.0f;
    acc = acc + (p(-1) + p(1)) * 4.0f;
    return acc + (p(-2) + p(2));
  };
  std::vector<float> vertical(w * dst.height);
  for (size_t y = 0; y < dst.height; ++y) {
    for (size_t x = 0; x < w; ++x) {
      vertical[y * w + x] =
          taps([&](ptrdiff_t dy) { return src.Row(Reflect101(Signed(2 * y) + dy, h))[x]; });
    }
  }
  for (size_t y = 0; y < dst.height; ++y) {
    for (size_t x = 0; x < dst.width; ++x) {
      const float sum =
          taps([&](ptrdiff_t dx) { return vertical[y * w + Reflect101(Signed(2 * x) + dx, w)]; });
      dst.Row(y)[x] = sum * (1.0f / 256.0f);
    }
  }
}

}  // namespace swarm::reference
