// Plain scalar references of the pixel-format kernels (swarm/kernels/vision/vision_convert.h),
// written from the documented OpenCV semantics without SIMD, for tests and benchmarks. Same
// signatures and preconditions as the kernels, whole images only.
#pragma once

#include <cstdint>
#include <span>

#include "swarm/kernels/base/views.h"
#include "swarm/kernels/vision/vision_convert.h"

namespace swarm::reference {

void Deinterleave(const ConstInterleavedU8View& src, std::span<const ImageU8View> planes);
void Interleave(std::span<const ConstImageU8View> planes, const InterleavedU8View& dst);
void RgbToGray(const ConstImageU8View& r, const ConstImageU8View& g, const ConstImageU8View& b,
               const ImageU8View& gray);
void RgbToGray(const ConstImageF32View& r, const ConstImageF32View& g, const ConstImageF32View& b,
               const ImageF32View& gray);
void ConvertU8ToF32(const ConstImageU8View& src, const ImageF32View& dst, float scale,
                    float offset);
void ConvertF32ToU8(const ConstImageF32View& src, const ImageU8View& dst, float scale,
                    float offset);
void Threshold(const ConstImageF32View& src, const ImageF32View& dst, float thresh, float max_value,
               ThresholdType type);
void Threshold(const ConstImageU8View& src, const ImageU8View& dst, uint8_t thresh,
               uint8_t max_value, ThresholdType type);

}  // namespace swarm::reference
