// particles_png_compare: compares two PNG frames of swarm-particles pixel by pixel.
//
//   particles_png_compare a.png b.png MAX_CHANNEL_DIFFERENCE MAX_DIFFERING_FRACTION
//   MIN_LIT_FRACTION
//
// Passes (exit 0) when both have the same size and channels, at most MAX_DIFFERING_FRACTION of
// the pixels differ at all, no channel differs by more than MAX_CHANNEL_DIFFERENCE, and at least
// MIN_LIT_FRACTION of a's pixels are not black (a blank frame would match a blank frame). Prints
// the measured values either way; exit 1 on a mismatch, 2 on unreadable files or arguments.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "swarm/core/memory.h"
#include "swarm/vision/png.h"

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr,
                 "usage: %s a.png b.png MAX_CHANNEL_DIFFERENCE MAX_DIFFERING_FRACTION "
                 "MIN_LIT_FRACTION\n",
                 argv[0]);
    return 2;
  }
  const int max_difference = std::atoi(argv[3]);
  const double max_differing = std::atof(argv[4]);
  const double min_lit = std::atof(argv[5]);
  swarm::MemoryAccountant memory;
  swarm::Result<swarm::PlanarImage> a = swarm::LoadPng(memory, argv[1]);
  swarm::Result<swarm::PlanarImage> b = swarm::LoadPng(memory, argv[2]);
  for (const auto* image : {&a, &b}) {
    if (!image->ok()) {
      std::fprintf(stderr, "%s\n", image->status().message().c_str());
      return 2;
    }
  }
  if (a->width() != b->width() || a->height() != b->height() || a->channels() != b->channels()) {
    std::printf("FAILED: %zux%zu with %zu channels vs %zux%zu with %zu\n", a->width(), a->height(),
                a->channels(), b->width(), b->height(), b->channels());
    return 1;
  }
  size_t differing = 0;
  size_t lit = 0;
  int largest = 0;
  for (size_t y = 0; y < a->height(); ++y) {
    for (size_t x = 0; x < a->width(); ++x) {
      bool differs = false;
      bool is_lit = false;
      for (size_t c = 0; c < a->channels(); ++c) {
        const int va = a->planes[c].Get(x, y);
        const int vb = b->planes[c].Get(x, y);
        largest = std::max(largest, std::abs(va - vb));
        differs = differs || va != vb;
        is_lit = is_lit || (c < 3 && va != 0);
      }
      differing += differs ? 1 : 0;
      lit += is_lit ? 1 : 0;
    }
  }
  const double pixels = static_cast<double>(a->width() * a->height());
  const double differing_fraction = static_cast<double>(differing) / pixels;
  const double lit_fraction = static_cast<double>(lit) / pixels;
  const bool ok =
      largest <= max_difference && differing_fraction <= max_differing && lit_fraction >= min_lit;
  std::printf(
      "%s: %zux%zu, %zu pixels differ (%.5f), largest channel difference %d, "
      "%.4f of the pixels lit\n",
      ok ? "ok" : "FAILED", a->width(), a->height(), differing, differing_fraction, largest,
      lit_fraction);
  return ok ? 0 : 1;
}
