#include "swarm/kernels/particles/neighbor_search_reference.h"

#include <cmath>
#include <cstddef>

namespace swarm::reference {
namespace {

double Distance(const glm::vec3& p, const glm::vec3& q) {
  const double dx = static_cast<double>(p.x) - q.x;
  const double dy = static_cast<double>(p.y) - q.y;
  const double dz = static_cast<double>(p.z) - q.z;
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

}  // namespace

NeighborRows NeighborsWithin(std::span<const glm::vec3> points, double radius) {
  NeighborRows rows;
  rows.offsets.reserve(points.size() + 1);
  rows.offsets.push_back(0);
  for (size_t i = 0; i < points.size(); ++i) {
    for (size_t j = 0; j < points.size(); ++j) {
      if (j != i && Distance(points[i], points[j]) <= radius) {
        rows.indices.push_back(static_cast<int32_t>(j));
      }
    }
    rows.offsets.push_back(static_cast<int64_t>(rows.indices.size()));
  }
  return rows;
}

bool NearRadius(const glm::vec3& p, const glm::vec3& q, double radius) {
  return std::abs(Distance(p, q) - radius) <= radius * 0x1p-20;
}

}  // namespace swarm::reference
