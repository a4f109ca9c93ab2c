// An index odometer of the tests' own, independent of the library's ForEachIndex.
#pragma once

#include <cstdint>
#include <vector>

namespace swarm::test {

// Visits every index of `shape` in C order, counting n = 0, 1, ...
template <typename Visit>
void EveryIndex(const std::vector<int64_t>& shape, Visit&& visit) {
  int64_t count = 1;
  for (int64_t extent : shape) count *= extent;
  std::vector<int64_t> index(shape.size(), 0);
  for (int64_t n = 0; n < count; ++n) {
    visit(index, n);
    for (size_t axis = shape.size(); axis-- > 0;) {
      if (++index[axis] < shape[axis]) break;
      index[axis] = 0;
    }
  }
}

}  // namespace swarm::test
