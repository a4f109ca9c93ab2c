// Plain scalar references for swarm/kernels/vision/vision_filter.h: one pixel at a time, indices
// reflected with Reflect101 at every tap, no scratch, no SIMD. Each evaluates the same operations
// in the same order as the SIMD kernels (documented in vision_filter.h), so the kernels must match
// them bit for bit; OpenCV is the independent check in the tests. Whole images only (no row
// ranges); they allocate their intermediate image and are meant for tests, benchmarks and the
// reference backend.
#pragma once

#include <cstddef>

#include "swarm/kernels/base/views.h"

namespace swarm::reference {

void GaussianBlur(const ConstImageF32View& src, const ImageF32View& dst, size_t ksize,
                  double sigma);
void GaussianBlur(const ConstImageU8View& src, const ImageU8View& dst, size_t ksize, double sigma);
void BoxFilter(const ConstImageF32View& src, const ImageF32View& dst, size_t ksize);
void BoxFilter(const ConstImageU8View& src, const ImageU8View& dst, size_t ksize);
void PyramidDown(const ConstImageF32View& src, const ImageF32View& dst);

}  // namespace swarm::reference
