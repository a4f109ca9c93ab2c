// Terrain for robot batches: heightfields (swarm/robots/collision_shape.h, Heightfield) made from
// numbers, a .npy file or a grey PNG with MuJoCo's hfield semantics (XML reference, "hfield"),
// and the collision shape that places one in the world. The narrow phase collides spheres,
// capsules, cylinders and boxes with it (swarm/kernels/collision/narrow_phase.h).
//
// MuJoCo's hfield: `size` (radius_x, radius_y, elevation_z, base_z) spans x in [-radius_x,
// radius_x], y in [-radius_y, radius_y] of the geom's frame; the data (nrow x ncol, row r at
// y = -radius_y + 2 radius_y r / (nrow - 1)) is normalised to [0, 1] (minus its minimum, over
// its range when the range is not zero) and the surface is data x elevation_z, solid down to
// -base_z. swarm keeps the heights in metres (the normalised data times elevation_z).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "swarm/core/memory.h"
#include "swarm/core/status.h"
#include "swarm/robots/collision_shape.h"

namespace swarm {

// Raw grid values as a file holds them: rows x columns, row-major, row 0 at -y.
struct HeightfieldGrid {
  uint32_t rows = 0, columns = 0;
  std::vector<float> values;
};

// Reads a grid from `path` by its suffix: ".npy" (a 2-D float32 or float64 array, C order, finite
// values; row 0 at -y) or ".png" (a grey image, 8-bit or wider as swarm/vision/png.h reads it,
// or a colour image whose channels are equal; values 0..255, the image's top row at +y, as
// MuJoCo reads a PNG hfield). Files are untrusted: errors name the file and what was wrong (a
// suffix other than these, not 2-D, fewer than 2 rows or columns, more than
// kMaxHeightfieldPoints points, a non-finite value, a colour image); decoding is accounted in
// `accountant` and freed before returning.
Result<HeightfieldGrid> ReadHeightfieldGrid(MemoryAccountant& accountant, const std::string& path);

// MuJoCo's heights of a grid: its values normalised to [0, 1] (above) times `elevation` (> 0, m).
// Errors: fewer than 2 rows or columns, values not rows x columns, a non-finite value or
// elevation.
Result<std::shared_ptr<const Heightfield>> NormalisedHeightfield(const HeightfieldGrid& grid,
                                                                 double elevation);

// A heightfield fixed in the world (link -1) with its frame at `position`, `quaternion` (x y z w)
// and MuJoCo's size (radius_x, radius_y, elevation_z, base_z: the grid must already hold the
// elevation, NormalisedHeightfield) and MuJoCo's default contact parameters.
CollisionShape HeightfieldShape(std::string name, std::shared_ptr<const Heightfield> heights,
                                double radius_x, double radius_y, double base_z,
                                const std::array<double, 3>& position = {0, 0, 0},
                                const std::array<double, 4>& quaternion = {0, 0, 0, 1});

}  // namespace swarm
