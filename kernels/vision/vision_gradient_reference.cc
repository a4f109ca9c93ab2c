// Scalar references for swarm/kernels/vision/vision_gradient.h; see the header for the operation
// order.
#include "swarm/kernels/vision/vision_gradient_reference.h"

#include <cmath>

namespace swarm::reference {
namespace {

struct Weights {
  int side;
  int center;
};

Weights WeightsOf(GradientFilter filter) {
  return filter == GradientFilter::kSobel ? Weights{1, 2} : Weights{3, 10};
}

// Writes pixel (x, y) of `image` unless the image is absent (data == nullptr).
template <typename T, typename V>
void Put(const ImageView<T>& image, size_t x, size_t y, V value) {
  if (image.data != nullptr) image.Row(y)[x] = static_cast<T>(value);
}

// Src is float or uint8_t; Acc is float or int (exact for u8); Out holds the outputs.
template <typename Acc, typename Src, class Out>
void GradientImpl(GradientFilter filter, const ImageView<const Src>& src, const Out& out) {
  const Weights w = WeightsOf(filter);
  const Acc side = static_cast<Acc>(w.side);
  const Acc center = static_cast<Acc>(w.center);
  const auto pixel = [&](ptrdiff_t x, ptrdiff_t y) {
    return static_cast<Acc>(src.Row(Reflect101(y, src.height))[Reflect101(x, src.width)]);
  };
  for (size_t y = 0; y < src.height; ++y) {
    const auto yi = static_cast<ptrdiff_t>(y);
    // Vertical combinations at column x (the kernels keep these in scratch rows).
    const auto s = [&](ptrdiff_t x) {
      return side * (pixel(x, yi - 1) + pixel(x, yi + 1)) + center * pixel(x, yi);
    };
    const auto t = [&](ptrdiff_t x) { return pixel(x, yi + 1) - pixel(x, yi - 1); };
    for (size_t x = 0; x < src.width; ++x) {
      const auto xi = static_cast<ptrdiff_t>(x);
      const Acc dx = s(xi + 1) - s(xi - 1);
      const Acc dy = side * (t(xi - 1) + t(xi + 1)) + center * t(xi);
      Put(out.dx, x, y, dx);
      Put(out.dy, x, y, dy);
      if (out.magnitude.data != nullptr) {
        const float fx = static_cast<float>(dx);
        const float fy = static_cast<float>(dy);
        out.magnitude.Row(y)[x] = std::sqrt(fx * fx + fy * fy);
      }
    }
  }
}

}  // namespace

size_t Reflect101(ptrdiff_t i, size_t n) {
  if (n == 1) return 0;
  if (i < 0) return static_cast<size_t>(-i);
  if (static_cast<size_t>(i) >= n) return 2 * n - 2 - static_cast<size_t>(i);
  return static_cast<size_t>(i);
}

void Gradient(GradientFilter filter, const ConstImageF32View& src, const GradientOutputsF32& out) {
  GradientImpl<float>(filter, src, out);
}

void Gradient(GradientFilter filter, const ConstImageU8View& src, const GradientOutputsU8& out) {
  GradientImpl<int>(filter, src, out);
}

void GradientMagnitude(const ConstImageF32View& dx, const ConstImageF32View& dy,
                       const ImageF32View& magnitude) {
  for (size_t y = 0; y < dx.height; ++y) {
    for (size_t x = 0; x < dx.width; ++x) {
      const float gx = dx.Row(y)[x];
      const float gy = dy.Row(y)[x];
      magnitude.Row(y)[x] = std::sqrt(gx * gx + gy * gy);
    }
  }
}

}  // namespace swarm::reference
