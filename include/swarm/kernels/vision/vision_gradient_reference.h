// Plain scalar references for the gradient kernels (swarm/kernels/vision/vision_gradient.h): one
// pixel at a time with the border resolved by an index function, no scratch rows, no vectors. They
// spell out the documented operation order (s and t per column, then dx, dy, magnitude), so with
// -ffp-contract=off the kernels agree with them to the bit; the weights are applied as
// a * (x + z) + b * y for both filters (for Sobel, a = 1 and b = 2 make that exact).
#pragma once

#include <cstddef>
#include <cstdint>

#include "swarm/kernels/vision/vision_gradient.h"

namespace swarm::reference {

// cv::borderInterpolate(i, n, BORDER_REFLECT_101) for i in [-1, n].
size_t Reflect101(ptrdiff_t i, size_t n);

// Every present output (data != nullptr) for all rows of `src`.
void Gradient(GradientFilter filter, const ConstImageF32View& src, const GradientOutputsF32& out);
void Gradient(GradientFilter filter, const ConstImageU8View& src, const GradientOutputsU8& out);

// magnitude = sqrt(dx * dx + dy * dy) per pixel.
void GradientMagnitude(const ConstImageF32View& dx, const ConstImageF32View& dy,
                       const ImageF32View& magnitude);

}  // namespace swarm::reference
