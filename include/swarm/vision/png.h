// PNG files <-> planar 8-bit images, through libpng (Debian libpng-dev).
//
// Loading accepts every PNG colour type and bit depth and normalises it with libpng transforms:
// palette -> RGB, gray below 8 bits -> 8 bits, 16 bits -> 8 bits (rounded, png_set_scale_16),
// a tRNS chunk -> an alpha channel, gray + alpha -> RGBA, interlaced -> whole image. The result is
// one plane (gray), three (R, G, B) or four (R, G, B, A) accounted images (category kImages).
//
// Untrusted input: a file that is empty, not a PNG, truncated, corrupt (bad CRC, bad zlib
// stream, bad header), a directory, or larger than `max_pixels` gives a Status naming the file
// and the problem; no read goes past what the file provides, and memory follows the data the
// file delivers, not what its header claims. libpng reports errors by longjmp: the one function
// that calls setjmp (png.cc) holds only plain C data, so no C++ destructor is skipped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "swarm/core/memory.h"
#include "swarm/core/status.h"
#include "swarm/kernels/base/views.h"
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

// Reads `path`. Temporary decode memory (one interleaved copy of the image, whose pages are
// committed only as rows decode) and libpng's own state are accounted as kScratch and freed
// before returning. Chunks other than IHDR, PLTE, tRNS, IDAT and IEND (text, ICC profiles,
// suggested palettes, ...) are skipped without being read into memory.
Result<PlanarImage> LoadPng(MemoryAccountant& accountant, const std::string& path,
                            size_t max_pixels = kPngMaxPixels);
// As LoadPng, from a PNG file's bytes in memory (received, embedded, fuzzed); `name` stands for
// the path in messages.
Result<PlanarImage> DecodePng(MemoryAccountant& accountant, std::span<const std::byte> bytes,
                              const std::string& name = "<memory>",
                              size_t max_pixels = kPngMaxPixels);

// Writes 1 (gray), 3 (RGB) or 4 (RGBA) planes of equal size as an 8-bit PNG. The file appears
// complete or not at all (core/output_file.h): a failed save (full disk, file-size limit, budget)
// leaves an existing file at `path` as it was. One interleaved row and libpng's state are
// accounted as kScratch (at most PngSaveBytes). Errors: a wrong plane count or sizes, a file that
// cannot be written (the message names it and the system error), the budget.
Status SavePng(MemoryAccountant& accountant, const std::string& path,
               std::span<const ConstImageU8View> planes);

// Fills `row` (width * channels bytes, interleaved) with row y; called for y = 0, 1, ... in order.
using PngRowSource = std::function<void(size_t y, std::span<uint8_t> row)>;
// As SavePng, with the pixels produced row by row: a frame kept in another layout (the
// renderer's packed ARGB) is saved without a full-size copy.
Status SavePngRows(MemoryAccountant& accountant, const std::string& path, size_t width,
                   size_t height, size_t channels, const PngRowSource& rows);

// An upper bound of the kScratch bytes SavePng and SavePngRows allocate for an image `width`
// pixels wide, for a caller that reserves them up front (MemoryAccountant::Reserve).
size_t PngSaveBytes(size_t width, size_t channels);

}  // namespace swarm
