// Size validation shared by Image<T> and ImageBatch<T> (swarm/vision/image.h).
#include "swarm/vision/image.h"

#include <string>

namespace swarm::detail {

Result<size_t> ImageElementCount(size_t count, size_t width, size_t height, size_t pad_elements,
                                 size_t max_elements) {
  const std::string what = (count == 1 ? std::string("image of ")
                                       : "batch of " + std::to_string(count) + " images of ") +
                           std::to_string(width) + " x " + std::to_string(height) + " pixels";
  if (count == 0 || width == 0 || height == 0) {
    return InvalidArgument(what + ": every dimension must be at least 1");
  }
  // Each step divides before it multiplies, so no intermediate product can overflow.
  const std::string too_large =
      what + ": too large (at most " + std::to_string(max_elements) + " padded pixels in total)";
  if (width > max_elements - (pad_elements - 1)) return InvalidArgument(too_large);
  const size_t row_stride = (width + pad_elements - 1) / pad_elements * pad_elements;
  if (height > max_elements / row_stride) return InvalidArgument(too_large);
  const size_t image_elements = row_stride * height;
  if (count > max_elements / image_elements) return InvalidArgument(too_large);
  return image_elements * count;
}

}  // namespace swarm::detail
