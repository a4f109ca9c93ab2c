// Test fixture for the pose and rigid-body kernels (swarm/kernels/geometry/pose.h): padded SoA
// arrays with any number of lanes (4 for a Vec4View or half a pose, 16 for a Mat4View), seeded
// random poses, and one harness that runs a kernel on every compiled SIMD target and checks it
// against the scalar reference (swarm/kernels/geometry/pose_reference.h), the padding, the lanes it
// must not touch, an optional double-precision check, and the bitwise agreement of all targets.
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "swarm/kernels/base/views.h"
#include "swarm/kernels/geometry/pose_reference.h"
#include "tests/kernels/particles/particle_fixture.h"
#include "tests/support/for_each_target.h"

namespace swarm::test {

// Unit roundoff of float: a correctly rounded operation has relative error at most u.
inline constexpr double kFloatRoundoff = 0x1p-24;

// `lanes` lane arrays of lane_stride = RoundUpToVector<float>(count) floats each in one aligned
// allocation, like the engine's buffers; elements [count, lane_stride) of every lane are padding.
class PaddedLanes : public AlignedArray<float> {
 public:
  PaddedLanes(size_t count, size_t lanes, float padding)
      : AlignedArray<float>(count, lanes * RoundUpToVector<float>(count), 0.0f),
        lanes_(lanes),
        lane_stride_(RoundUpToVector<float>(count)) {
    for (size_t lane = 0; lane < lanes_; ++lane) {
      std::fill(Lane(lane) + count, Lane(lane) + lane_stride_, padding);
    }
  }
  size_t lanes() const { return lanes_; }
  float* Lane(size_t lane) { return data() + lane * lane_stride_; }
  const float* Lane(size_t lane) const { return data() + lane * lane_stride_; }
  Vec4View vec4() { return {data(), count(), lane_stride_}; }
  ConstVec4View vec4() const { return {data(), count(), lane_stride_}; }
  Mat4View mat4() { return {data(), count(), lane_stride_}; }

  glm::vec4 Get4(size_t i) const { return {Lane(0)[i], Lane(1)[i], Lane(2)[i], Lane(3)[i]}; }
  void Set4(size_t i, const glm::vec4& v) {
    for (int lane = 0; lane < 4; ++lane) Lane(static_cast<size_t>(lane))[i] = v[lane];
  }
  glm::vec3 Get3(size_t i) const { return {Lane(0)[i], Lane(1)[i], Lane(2)[i]}; }
  void Set3(size_t i, const glm::vec3& v) {
    for (int lane = 0; lane < 3; ++lane) Lane(static_cast<size_t>(lane))[i] = v[lane];
  }
  glm::quat GetQuat(size_t i) const {
    return glm::quat(Lane(3)[i], Lane(0)[i], Lane(1)[i], Lane(2)[i]);
  }
  void SetQuat(size_t i, const glm::quat& q) { Set4(i, {q.x, q.y, q.z, q.w}); }

  // "lane L element i" of the first padding float that differs from `padding` bitwise.
  std::optional<std::string> PaddingMismatch(float padding) const {
    for (size_t lane = 0; lane < lanes_; ++lane) {
      for (size_t i = count(); i < lane_stride_; ++i) {
        if (!SameBits(Lane(lane)[i], padding)) {
          return "lane " + std::to_string(lane) + " element " + std::to_string(i);
        }
      }
    }
    return std::nullopt;
  }

 private:
  size_t lanes_;
  size_t lane_stride_;
};

// The arrays of one kernel call; tests index them with named constants.
using Arrays = std::vector<PaddedLanes>;

inline PoseView Poses(Arrays& arrays, size_t rotation, size_t translation) {
  return {arrays[rotation].vec4(), arrays[translation].vec4()};
}
inline reference::Pose GetPose(const Arrays& arrays, size_t rotation, size_t translation,
                               size_t i) {
  return {arrays[rotation].GetQuat(i), arrays[translation].Get3(i)};
}
// Writes lanes x, y, z, w of the rotation and x, y, z of the translation (w stays).
inline void SetPose(Arrays& arrays, size_t rotation, size_t translation, size_t i,
                    const reference::Pose& pose) {
  arrays[rotation].SetQuat(i, pose.rotation);
  arrays[translation].Set3(i, pose.translation);
}

// A uniformly distributed unit quaternion (normalised in double, then rounded to float, so |q|
// is 1 within about u), and a translation in [-10, 10]^3.
inline glm::quat RandomRotation(std::mt19937& rng) {
  std::normal_distribution<double> normal;
  const glm::dquat q =
      glm::normalize(glm::dquat(normal(rng), normal(rng), normal(rng), normal(rng)));
  return glm::quat(q);
}
inline reference::Pose RandomPose(std::mt19937& rng) {
  std::uniform_real_distribution<float> coordinate(-10.0f, 10.0f);
  return {RandomRotation(rng), {coordinate(rng), coordinate(rng), coordinate(rng)}};
}

// `lanes`-lane arrays of `count` elements holding uniform values in [-100, 100] (for lanes a
// kernel must not touch and for outputs, so an unwritten output lane shows up).
inline PaddedLanes RandomLanes(std::mt19937& rng, size_t count, size_t lanes, float padding) {
  std::uniform_real_distribution<float> value(-100.0f, 100.0f);
  PaddedLanes array(count, lanes, padding);
  for (size_t lane = 0; lane < lanes; ++lane) {
    for (size_t i = 0; i < count; ++i) array.Lane(lane)[i] = value(rng);
  }
  return array;
}

// Adds a rotation array and a translation array of random poses (translation.w random too).
inline void AddRandomPoses(Arrays& arrays, std::mt19937& rng, size_t count, float padding) {
  arrays.push_back(RandomLanes(rng, count, 4, padding));
  arrays.push_back(RandomLanes(rng, count, 4, padding));
  const size_t rotation = arrays.size() - 2;
  for (size_t i = 0; i < count; ++i) {
    SetPose(arrays, rotation, rotation + 1, i, RandomPose(rng));
  }
}

// Bitwise equal, or both NaN (NaN payloads may differ with the operand order the compiler picks).
inline bool SameValue(float got, float want) {
  return SameBits(got, want) || (std::isnan(got) && std::isnan(want));
}

struct HarnessOptions {
  // Require the bits of the reference where true; otherwise Close() (test tolerance).
  bool bitwise_reference = true;
  // Lanes compared with `within` instead of bitwise, as (array, lane) pairs: e.g. quaternion
  // lanes of the rigid-body step, whose reference uses std::sin / std::cos.
  std::vector<std::pair<size_t, size_t>> tolerance_lanes;
  double tolerance = 0.0;  // absolute, for tolerance_lanes
};

namespace detail {

inline std::string CompareArrays(const Arrays& got, const Arrays& want,
                                 const HarnessOptions& options) {
  std::ostringstream report;
  report.precision(9);
  for (size_t array = 0; array < want.size(); ++array) {
    for (size_t lane = 0; lane < want[array].lanes(); ++lane) {
      bool loose = false;
      for (const auto& [a, l] : options.tolerance_lanes) loose |= (a == array && l == lane);
      size_t mismatches = 0;
      for (size_t i = 0; i < want[array].count(); ++i) {
        const float g = got[array].Lane(lane)[i];
        const float w = want[array].Lane(lane)[i];
        const bool ok =
            loose ? (std::abs(double{g} - double{w}) <= options.tolerance || SameValue(g, w))
            : options.bitwise_reference ? SameValue(g, w)
                                        : Close(g, w);
        if (!ok && mismatches++ == 0) {
          report << "array " << array << " lane " << lane << " element " << i << ": got " << g
                 << ", want " << w;
        }
      }
      if (mismatches != 0) report << " (" << mismatches << " mismatches)\n";
    }
  }
  return report.str();
}

}  // namespace detail

// For every size in kSizes, every compiled target and both padding fills (zero, and a sentinel
// that catches full-vector stores):
//   make(count, rng, padding) builds the input arrays; kernel(Arrays&) runs on a copy of them;
//   reference(Arrays&) computes the expected arrays from another copy. The kernel must match the
//   reference (bitwise by default, so lanes it must not touch stay bitwise too), keep the
//   padding, pass double_check(input, got) (empty string = pass), and produce the same bits as
//   the first target.
template <class Make, class Kernel, class Reference, class DoubleCheck>
void CheckKernelOnEveryTarget(const Make& make, const Kernel& kernel, const Reference& reference,
                              const DoubleCheck& double_check, const HarnessOptions& options = {}) {
  for (const size_t count : kSizes) {
    for (const bool sentinel : {false, true}) {
      INFO("count " << count << (sentinel ? ", sentinel padding" : ", zero padding"));
      const float padding = sentinel ? kSentinelFloat : 0.0f;
      std::mt19937 rng(static_cast<uint32_t>(count) * 7919u + 17u);
      const Arrays input = make(count, rng, padding);
      Arrays expected = input;
      reference(expected);
      std::optional<Arrays> first;
      std::string first_target;
      ForEachTarget([&](const TargetUnderTest& target) {
        INFO("target " << target.name);
        Arrays got = input;
        kernel(got);
        CHECK(detail::CompareArrays(got, expected, options) == "");
        for (size_t array = 0; array < got.size(); ++array) {
          INFO("array " << array);
          CHECK(got[array].PaddingMismatch(padding) == std::nullopt);
        }
        CHECK(double_check(input, got) == "");
        if (!first) {
          first.emplace(got);
          first_target = target.name;
        } else {
          INFO("bitwise against target " << first_target);
          bool same = true;
          for (size_t array = 0; array < got.size(); ++array) {
            same &= got[array].BitwiseEqual((*first)[array]);
          }
          CHECK(same);
        }
      });
      REQUIRE(first.has_value());
    }
  }
}

// Tracks the largest error relative to its allowance, for a readable failure message.
class ErrorBound {
 public:
  explicit ErrorBound(std::string what) : what_(std::move(what)) {}
  void Add(double error, double allowance, size_t index) {
    worst_ratio_ = std::max(worst_ratio_, error / allowance);
    if (!(error <= allowance) && failures_++ == 0) {
      std::ostringstream message;
      message.precision(6);
      message << what_ << ": element " << index << " error " << error << " > allowed " << allowance;
      first_ = message.str();
    }
  }
  // The largest error / allowance seen (for tuning messages; <= 1 when Report() is empty).
  double worst_ratio() const { return worst_ratio_; }
  std::string Report() const {
    return failures_ == 0 ? "" : first_ + " (" + std::to_string(failures_) + " elements)\n";
  }

 private:
  std::string what_;
  std::string first_;
  size_t failures_ = 0;
  double worst_ratio_ = 0.0;
};

// Compares two 4x4 double matrices of rigid poses: rotation entries within `tolerance`, the
// translation column within tolerance * (1 + scale), where scale bounds the translations involved.
inline void CompareRigidMatrices(const glm::dmat4& got, const glm::dmat4& want, double tolerance,
                                 double scale, size_t index, ErrorBound& rotation,
                                 ErrorBound& translation) {
  double rotation_error = 0.0, translation_error = 0.0;
  for (int column = 0; column < 3; ++column) {
    for (int row = 0; row < 3; ++row) {
      rotation_error = std::max(rotation_error, std::abs(got[column][row] - want[column][row]));
    }
    translation_error = std::max(translation_error, std::abs(got[3][column] - want[3][column]));
  }
  rotation.Add(rotation_error, tolerance, index);
  translation.Add(translation_error, tolerance * (1.0 + scale), index);
}

}  // namespace swarm::test
