// The particle palette of swarm/kernels/render/render.h as a compile-time table (plain integers, so
// it is safe at namespace scope on every CPU).
//
// Entry k is the colour at t = k / 255 on a ramp through five stops at t = 0, 1/4, 1/2, 3/4, 1:
// slow or young particles are blue, fast or old ones turn cyan, green-yellow, orange and white.
// Between stops each channel is interpolated linearly and rounded to nearest in integers.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "swarm/kernels/render/render.h"

namespace swarm {
namespace detail {

inline constexpr PaletteEntry kPaletteStops[5] = {
    {40, 60, 255}, {0, 200, 255}, {150, 255, 60}, {255, 140, 20}, {255, 255, 255}};

constexpr std::array<PaletteEntry, kPaletteSize> MakePalette() {
  std::array<PaletteEntry, kPaletteSize> table{};
  constexpr int kLast = static_cast<int>(kPaletteSize) - 1;  // 255
  for (int k = 0; k <= kLast; ++k) {
    // Position along the ramp in units of 1/255 of a segment: 4 segments over 255 entries.
    const int position = k * 4;
    const int segment = position / kLast < 3 ? position / kLast : 3;
    const int fraction = position - segment * kLast;  // 0 .. 255
    const PaletteEntry a = kPaletteStops[segment];
    const PaletteEntry b = kPaletteStops[segment + 1];
    const auto mix = [&](int from, int to) {
      return static_cast<uint8_t>((from * (kLast - fraction) + to * fraction + kLast / 2) / kLast);
    };
    table[static_cast<size_t>(k)] = {mix(a.red, b.red), mix(a.green, b.green), mix(a.blue, b.blue)};
  }
  return table;
}

}  // namespace detail

inline constexpr std::array<PaletteEntry, kPaletteSize> kPalette = detail::MakePalette();

}  // namespace swarm
