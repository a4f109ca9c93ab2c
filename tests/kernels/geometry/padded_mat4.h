// PaddedMat4: N 4x4 matrices in 16 padded lane arrays built by hand (independent of
// swarm/core/buffer.h's Mat4Buffer), shared by the transform, quaternion and pose tests.
#pragma once

#include <algorithm>
#include <cstddef>
#include <glm/mat4x4.hpp>
#include <optional>
#include <string>
#include <vector>

#include "swarm/kernels/base/views.h"
#include "tests/kernels/particles/particle_fixture.h"

namespace swarm::test {

// N 4x4 matrices in 16 lane arrays of lane_stride = RoundUpToVector<float>(N) floats each, like
// swarm::Mat4Buffer; the padding starts as `padding`.
class PaddedMat4 : public AlignedArray<float> {
 public:
  explicit PaddedMat4(size_t count, float padding = 0.0f)
      : AlignedArray<float>(count, 16 * RoundUpToVector<float>(count), 0.0f),
        lane_stride_(RoundUpToVector<float>(count)) {
    for (size_t lane = 0; lane < 16; ++lane) {
      std::fill(Lane(lane) + count, Lane(lane) + lane_stride_, padding);
    }
  }
  float* Lane(size_t lane) { return data() + lane * lane_stride_; }
  const float* Lane(size_t lane) const { return data() + lane * lane_stride_; }
  Mat4View view() { return {data(), count(), lane_stride_}; }
  ConstMat4View view() const { return {data(), count(), lane_stride_}; }

  glm::mat4 Get(size_t i) const {
    glm::mat4 m;
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 4; ++r) m[c][r] = Lane(static_cast<size_t>(4 * c + r))[i];
    }
    return m;
  }
  void Set(size_t i, const glm::mat4& m) {
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 4; ++r) Lane(static_cast<size_t>(4 * c + r))[i] = m[c][r];
    }
  }
  std::vector<glm::mat4> ToAos() const {
    std::vector<glm::mat4> out(count());
    for (size_t i = 0; i < count(); ++i) out[i] = Get(i);
    return out;
  }
  std::optional<std::string> PaddingMismatch(float padding) const {
    for (size_t lane = 0; lane < 16; ++lane) {
      for (size_t i = count(); i < lane_stride_; ++i) {
        if (!SameBits(Lane(lane)[i], padding)) {
          return "lane " + std::to_string(lane) + " element " + std::to_string(i);
        }
      }
    }
    return std::nullopt;
  }

 private:
  size_t lane_stride_;
};

}  // namespace swarm::test
