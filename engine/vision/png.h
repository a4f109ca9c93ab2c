// PNG files <-> planar 8-bit images, through libpng (Debian libpng-dev).
//
// Loading accepts every PNG colour type and bit depth and normalises it with libpng transforms:
// palette -> RGB, gray below 8 bits -> 8 bits, 16 bits -> 8 bits (rounded, png_set_scale_16),
// a tRNS chunk -> an alpha channel, gray + alpha -> RGBA, interlaced -> whole image. The result is
// one plane (gray), three (R, G, B) or four (R, G, B, A) accounted images (category kImages).
//
// Untrusted input: a file that is empty, not a PNG, truncated, corrupt (bad CRC, bad zlib
// stream, bad header) or larger than `max_pixels` gives a Status naming the file and the problem;
// no read goes past what the file provides. libpng reports errors by longjmp: the one function
// that calls setjmp (png.cc) holds only plain C data, so no C++ destructor is skipped.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "swarm/core/memory.h"
#include "swarm/core/status.h"
#include "swarm/kernels/views.h"
#include "swarm/vision/image.h"

namespace swarm {

// Default limit on width * height for LoadPng: 2^28 pixels (16384 x 16384), 1 GiB as RGBA.
// The memory budget of the accountant applies as well.
inline constexpr size_t kPngMaxPixels = size_t{1} << 28;

// A decoded image as planes of equal size: planes.size() is 1 (gray), 3 (R, G, B) or 4
// (R, G, B, A).
struct PlanarImage {
  std::vector<ImageU8> planes;

  size_t channels() const { return planes.size(); }
  size_t width() const { return planes.empty() ? 0 : planes[0].width(); }
  size_t height() const { return planes.empty() ? 0 : planes[0].height(); }
  std::vector<ImageU8View> views();
  std::vector<ConstImageU8View> views() const;
};

// Reads `path`. Temporary decode memory (one interleaved copy of the image) is accounted as
// kScratch and freed before returning.
Result<PlanarImage> LoadPng(MemoryAccountant& accountant, const std::string& path,
                            size_t max_pixels = kPngMaxPixels);

// Writes 1 (gray), 3 (RGB) or 4 (RGBA) planes of equal size as an 8-bit PNG. One interleaved row
// of scratch memory is accounted as kScratch. Errors: a wrong plane count or sizes, a file that
// cannot be written (the message names it and the system error).
Status SavePng(MemoryAccountant& accountant, const std::string& path,
               std::span<const ConstImageU8View> planes);

}  // namespace swarm
