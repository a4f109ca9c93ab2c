// Scalar references of swarm/kernels/vision/vision_convert.h, one pixel at a time.
#include "swarm/kernels/vision/vision_convert_reference.h"

#include <cmath>

namespace swarm::reference {

void Deinterleave(const ConstInterleavedU8View& src, std::span<const ImageU8View> planes) {
  for (size_t y = 0; y < src.height; ++y) {
    for (size_t x = 0; x < src.width; ++x) {
      for (size_t c = 0; c < src.channels; ++c) {
        planes[c].Row(y)[x] = src.Row(y)[x * src.channels + c];
      }
    }
  }
}

void Interleave(std::span<const ConstImageU8View> planes, const InterleavedU8View& dst) {
  for (size_t y = 0; y < dst.height; ++y) {
    for (size_t x = 0; x < dst.width; ++x) {
      for (size_t c = 0; c < dst.channels; ++c) {
        dst.Row(y)[x * dst.channels + c] = planes[c].Row(y)[x];
      }
    }
  }
}

void RgbToGray(const ConstImageU8View& r, const ConstImageU8View& g, const ConstImageU8View& b,
               const ImageU8View& gray) {
  for (size_t y = 0; y < gray.height; ++y) {
    for (size_t x = 0; x < gray.width; ++x) {
      const int sum = r.Row(y)[x] * 9798 + g.Row(y)[x] * 19235 + b.Row(y)[x] * 3735 + 16384;
      gray.Row(y)[x] = static_cast<uint8_t>(sum >> 15);
    }
  }
}

void RgbToGray(const ConstImageF32View& r, const ConstImageF32View& g, const ConstImageF32View& b,
               const ImageF32View& gray) {
  for (size_t y = 0; y < gray.height; ++y) {
    for (size_t x = 0; x < gray.width; ++x) {
      const float rg = r.Row(y)[x] * 0.299f + g.Row(y)[x] * 0.587f;
      gray.Row(y)[x] = rg + b.Row(y)[x] * 0.114f;
    }
  }
}

void ConvertU8ToF32(const ConstImageU8View& src, const ImageF32View& dst, float scale,
                    float offset) {
  for (size_t y = 0; y < dst.height; ++y) {
    for (size_t x = 0; x < dst.width; ++x) {
      dst.Row(y)[x] = static_cast<float>(src.Row(y)[x]) * scale + offset;
    }
  }
}

void ConvertF32ToU8(const ConstImageF32View& src, const ImageU8View& dst, float scale,
                    float offset) {
  for (size_t y = 0; y < dst.height; ++y) {
    for (size_t x = 0; x < dst.width; ++x) {
      const float v = src.Row(y)[x] * scale + offset;
      // nearbyint rounds half to even in the default rounding mode, like cvRound.
      const float clamped = std::isnan(v) ? 0.0f : std::fmin(std::fmax(v, 0.0f), 255.0f);
      dst.Row(y)[x] = static_cast<uint8_t>(std::nearbyint(clamped));
    }
  }
}

template <typename T>
void ThresholdT(const ImageView<const T>& src, const ImageView<T>& dst, T thresh, T max_value,
                ThresholdType type) {
  for (size_t y = 0; y < dst.height; ++y) {
    for (size_t x = 0; x < dst.width; ++x) {
      const T v = src.Row(y)[x];
      if (type == ThresholdType::kBinary) {
        dst.Row(y)[x] = v > thresh ? max_value : T{0};
      } else {
        dst.Row(y)[x] = v > thresh ? thresh : v;
      }
    }
  }
}

void Threshold(const ConstImageF32View& src, const ImageF32View& dst, float thresh, float max_value,
               ThresholdType type) {
  ThresholdT<float>(src, dst, thresh, max_value, type);
}

void Threshold(const ConstImageU8View& src, const ImageU8View& dst, uint8_t thresh,
               uint8_t max_value, ThresholdType type) {
  ThresholdT<uint8_t>(src, dst, thresh, max_value, type);
}

}  // namespace swarm::reference
