// Brute-force neighbour lists in double precision, the reference the grid's lists are tested
// against: every pair of points is compared, with no grid, no float rounding and no sorting trick.
#pragma once

#include <cstdint>
#include <glm/vec3.hpp>
#include <span>
#include <vector>

namespace swarm::reference {

// Compressed rows: row i is indices[offsets[i] .. offsets[i + 1]), ascending.
struct NeighborRows {
  std::vector<int64_t> offsets;  // points + 1 entries
  std::vector<int32_t> indices;
};

// Row i lists every j != i with |p_i - p_j| <= radius, computed in double.
NeighborRows NeighborsWithin(std::span<const glm::vec3> points, double radius);

// True when |p - q| is so close to the radius that a float32 distance test may decide either
// way: within a relative 2^-20 of it (the float test's rounding is below 2^-21).
bool NearRadius(const glm::vec3& p, const glm::vec3& q, double radius);

}  // namespace swarm::reference
