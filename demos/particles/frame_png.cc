#include "demos/particles/frame_png.h"

#include <array>
#include <utility>

#include "swarm/vision/image.h"
#include "swarm/vision/png.h"

namespace swarm {

Status SaveArgbPng(MemoryAccountant& memory, const std::string& path, const uint32_t* pixels,
                   size_t width, size_t height, size_t row_stride) {
  std::array<ImageU8, 3> planes;
  for (ImageU8& plane : planes) {
    Result<ImageU8> created = ImageU8::Create(memory, width, height);
    if (!created.ok()) return created.status();
    plane = std::move(created).value();
  }
  for (size_t y = 0; y < height; ++y) {
    const uint32_t* row = pixels + y * row_stride;
    for (size_t x = 0; x < width; ++x) {
      for (size_t channel = 0; channel < 3; ++channel) {
        const unsigned shift = 16 - 8 * static_cast<unsigned>(channel);
        planes[channel].Set(x, y, static_cast<uint8_t>(row[x] >> shift));
      }
    }
  }
  const std::array<ConstImageU8View, 3> views{planes[0].view(), planes[1].view(), planes[2].view()};
  return SavePng(memory, path, views);
}

}  // namespace swarm
