// Test fixture of the joint-space robot kernels (swarm/kernels/robots/robot_control.h,
// robot_torque.h): padded lane arrays whose padding holds a marker the kernels must leave alone,
// uniform random fills, and the batch sizes that exercise empty, partial and whole vectors.
#pragma once

#include <cstddef>
#include <random>

#include "swarm/kernels/base/views.h"
#include "tests/kernels/geometry/pose_fixture.h"

namespace swarm::test {

inline constexpr float kJointPadding = -7.25f;  // any write to the padding changes it
inline constexpr size_t kJointBatchSizes[] = {0, 1, 15, 16, 17, 1000};

inline LanesView View(PaddedLanes& lanes) {
  return {lanes.data(), lanes.count(), RoundUpToVector<float>(lanes.count()), lanes.lanes()};
}

// `arrays` lane arrays of `robots` values uniform in [low, high), padding kJointPadding.
inline PaddedLanes Uniform(std::mt19937& rng, size_t robots, size_t arrays, float low, float high) {
  std::uniform_real_distribution<float> value(low, high);
  PaddedLanes lanes(robots, arrays, kJointPadding);
  for (size_t a = 0; a < arrays; ++a) {
    for (size_t r = 0; r < robots; ++r) lanes.Lane(a)[r] = value(rng);
  }
  return lanes;
}

}  // namespace swarm::test
