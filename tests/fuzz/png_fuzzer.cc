// libFuzzer harness for the PNG loader (engine/vision/png.cc): any bytes go to DecodePng under a
// 16 MiB budget and a 2^20-pixel limit. Besides the sanitizers (libpng's longjmp skipping a
// destructor shows as a leak, an out-of-bounds row write as a heap overflow), each input checks
// the loader's promises: a decoded image has 1, 3 or 4 equal planes of the size its IHDR states,
// every failure names the file, and nothing stays allocated afterwards; a decoded image saved by
// SavePngRows and decoded again gives the same pixels.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>

#include "swarm/core/memory.h"
#include "swarm/vision/png.h"
#include "tests/fuzz/require.h"

namespace {

using swarm::fuzz::Require;

uint32_t BigEndian(const uint8_t* bytes) {
  return (uint32_t{bytes[0]} << 24) | (uint32_t{bytes[1]} << 16) | (uint32_t{bytes[2]} << 8) |
         bytes[3];
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace swarm;
  MemoryAccountant memory(16 << 20);
  {
    Result<PlanarImage> image =
        DecodePng(memory, std::as_bytes(std::span(data, size)), "fuzz.png", size_t{1} << 20);
    if (!image.ok()) {
      Require(image.status().message().starts_with("PNG file 'fuzz.png': "));
    } else {
      // IHDR is the first chunk: width and height at bytes 16..23.
      Require(size >= 24 && image->width() == BigEndian(data + 16) &&
              image->height() == BigEndian(data + 20));
      const size_t channels = image->channels();
      Require(channels == 1 || channels == 3 || channels == 4);
      for (const ImageU8& plane : image->planes) {
        Require(plane.width() == image->width() && plane.height() == image->height());
      }
      // Round trip through the writer (in memory budget too) when small.
      if (image->width() * image->height() <= 4096) {
        static const std::string path =
            "/tmp/swarm_png_fuzzer_" + std::to_string(::getpid()) + ".png";
        const PlanarImage& decoded = *image;
        Require(SavePng(memory, path, decoded.views()).ok());
        FILE* file = std::fopen(path.c_str(), "rb");
        Require(file != nullptr);
        std::string bytes;
        char buffer[4096];
        size_t got;
        while ((got = std::fread(buffer, 1, sizeof(buffer), file)) > 0) bytes.append(buffer, got);
        std::fclose(file);
        Result<PlanarImage> again = DecodePng(memory, std::as_bytes(std::span(bytes)));
        Require(again.ok() && again->channels() == channels);
        for (size_t c = 0; c < channels; ++c) {
          for (size_t y = 0; y < image->height(); ++y) {
            for (size_t x = 0; x < image->width(); ++x) {
              Require(again->planes[c].Get(x, y) == image->planes[c].Get(x, y));
            }
          }
        }
      }
    }
  }
  Require(memory.Total().live_allocations == 0);
  return 0;
}
