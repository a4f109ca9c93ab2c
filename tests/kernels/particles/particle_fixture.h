// Test fixture for the particle kernels: padded SoA storage built by hand (independent of the
// engine's buffers, so a kernel test cannot pass because of an engine bug), seeded random
// particles, and one harness that runs a kernel on every compiled SIMD target and checks it
// against the scalar reference (swarm/kernels/particles/integrate_reference.h), the padding, the
// bits it must not touch and the bitwise agreement of all targets.
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <glm/vec4.hpp>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "swarm/kernels/base/random.h"
#include "swarm/kernels/base/views.h"
#include "swarm/kernels/particles/emit.h"
#include "swarm/kernels/particles/emit_reference.h"
#include "swarm/kernels/particles/integrate.h"
#include "tests/support/for_each_target.h"

namespace swarm::test {

// 0, 1, lanes-1, lanes, lanes+1 for 4 (SSE4), 8 (AVX2) and 16 (AVX3) float lanes, one size with
// several full vectors and a large odd size.
inline constexpr size_t kSizes[] = {0, 1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 1000, 100003};

// Kernels are designed to match the reference bitwise; the comparison still allows
// |got - want| <= kAbsoluteTolerance + kRelativeTolerance * |want| so that a reordered operation
// shows up as a readable value difference instead of only a determinism failure.
inline constexpr double kRelativeTolerance = 1e-6;
inline constexpr double kAbsoluteTolerance = 1e-6;

inline bool Close(float got, float want) {
  if (std::isnan(got) || std::isnan(want)) return std::isnan(got) && std::isnan(want);
  const double difference = std::abs(static_cast<double>(got) - static_cast<double>(want));
  return difference <= kAbsoluteTolerance + kRelativeTolerance * std::abs(double{want});
}

inline bool SameBits(float a, float b) { return std::memcmp(&a, &b, sizeof(float)) == 0; }
inline bool SameBits(const glm::vec4& a, const glm::vec4& b) {
  return std::memcmp(&a, &b, sizeof(glm::vec4)) == 0;
}

// A kAlignBytes-aligned array of `allocated` elements; elements [count, allocated) are the
// padding and start as `padding`. Copyable so each target starts from the same input.
template <typename T>
class AlignedArray {
 public:
  AlignedArray(size_t count, size_t allocated, T padding)
      : count_(count),
        allocated_(std::max(allocated, kPadElements<T>)),
        data_(static_cast<T*>(std::aligned_alloc(kAlignBytes, allocated_ * sizeof(T)))) {
    REQUIRE(data_ != nullptr);
    std::fill(data_.get(), data_.get() + allocated_, T{});
    std::fill(data_.get() + count_, data_.get() + allocated_, padding);
  }
  AlignedArray(const AlignedArray& other) : AlignedArray(other.count_, other.allocated_, T{}) {
    std::memcpy(data(), other.data(), allocated_ * sizeof(T));
  }
  AlignedArray& operator=(const AlignedArray&) = delete;

  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  size_t count() const { return count_; }
  size_t allocated() const { return allocated_; }
  bool BitwiseEqual(const AlignedArray& other) const {
    return allocated_ == other.allocated_ &&
           std::memcmp(data(), other.data(), allocated_ * sizeof(T)) == 0;
  }

 private:
  struct Free {
    void operator()(T* pointer) const { std::free(pointer); }
  };
  size_t count_;
  size_t allocated_;
  std::unique_ptr<T, Free> data_;
};

// A padded scalar attribute array (ages, lifetimes, dead flags): RoundUpToVector<T>(count)
// elements, like swarm::PaddedArray.
template <typename T>
class PaddedScalars : public AlignedArray<T> {
 public:
  explicit PaddedScalars(size_t count, T padding = T{})
      : AlignedArray<T>(count, RoundUpToVector<T>(count), padding) {}
  ArrayView<T> view() { return {this->data(), this->count()}; }
  ArrayView<const T> view() const { return {this->data(), this->count()}; }
  T& operator[](size_t i) { return this->data()[i]; }
  const T& operator[](size_t i) const { return this->data()[i]; }
  std::vector<T> ToVector() const { return {this->data(), this->data() + this->count()}; }
  // Index of the first padding element that differs from `padding` bitwise, or nothing.
  std::optional<size_t> PaddingMismatch(T padding) const {
    for (size_t i = this->count(); i < this->allocated(); ++i) {
      if (std::memcmp(this->data() + i, &padding, sizeof(T)) != 0) return i;
    }
    return std::nullopt;
  }
};

// N f32x4 vectors in four lane arrays of lane_stride = RoundUpToVector<float>(N) floats each,
// like swarm::Vec4Buffer.
class PaddedVec4 : public AlignedArray<float> {
 public:
  explicit PaddedVec4(size_t count, float padding = 0.0f)
      : AlignedArray<float>(count, 4 * RoundUpToVector<float>(count), 0.0f),
        lane_stride_(RoundUpToVector<float>(count)) {
    for (size_t lane = 0; lane < 4; ++lane) {
      std::fill(Lane(lane) + count, Lane(lane) + lane_stride_, padding);
    }
  }
  size_t lane_stride() const { return lane_stride_; }
  float* Lane(size_t lane) { return data() + lane * lane_stride_; }
  const float* Lane(size_t lane) const { return data() + lane * lane_stride_; }
  Vec4View view() { return {data(), count(), lane_stride_}; }
  ConstVec4View view() const { return {data(), count(), lane_stride_}; }

  glm::vec4 Get(size_t i) const { return {Lane(0)[i], Lane(1)[i], Lane(2)[i], Lane(3)[i]}; }
  void Set(size_t i, const glm::vec4& value) {
    for (int lane = 0; lane < 4; ++lane) Lane(static_cast<size_t>(lane))[i] = value[lane];
  }
  std::vector<glm::vec4> ToAos() const {
    std::vector<glm::vec4> out(count());
    for (size_t i = 0; i < count(); ++i) out[i] = Get(i);
    return out;
  }
  // "lane L element i" of the first padding float that differs from `padding` bitwise.
  std::optional<std::string> PaddingMismatch(float padding) const {
    for (size_t lane = 0; lane < 4; ++lane) {
      for (size_t i = count(); i < lane_stride_; ++i) {
        if (!SameBits(Lane(lane)[i], padding)) {
          return "lane " + std::to_string(lane) + " element " + std::to_string(i);
        }
      }
    }
    return std::nullopt;
  }
  bool LaneBitwiseEqual(const PaddedVec4& other, size_t lane) const {
    return count() == other.count() &&
           std::memcmp(Lane(lane), other.Lane(lane), count() * sizeof(float)) == 0;
  }

 private:
  size_t lane_stride_;
};

// Every array a particle kernel takes, padded like the engine's buffers.
struct Particles {
  Particles(size_t count, float float_padding, uint8_t byte_padding)
      : positions(count, float_padding),
        velocities(count, float_padding),
        accelerations(count, float_padding),
        ages(count, float_padding),
        lifetimes(count, float_padding),
        dead(count, byte_padding) {}
  size_t count() const { return positions.count(); }

  PaddedVec4 positions;
  PaddedVec4 velocities;
  PaddedVec4 accelerations;
  PaddedScalars<float> ages;
  PaddedScalars<float> lifetimes;
  PaddedScalars<uint8_t> dead;
};

// The same particles as the references take them: glm::vec4 arrays and std::vectors.
struct ParticlesAos {
  explicit ParticlesAos(const Particles& particles)
      : positions(particles.positions.ToAos()),
        velocities(particles.velocities.ToAos()),
        accelerations(particles.accelerations.ToAos()),
        ages(particles.ages.ToVector()),
        lifetimes(particles.lifetimes.ToVector()),
        dead(particles.dead.ToVector()) {}

  std::vector<glm::vec4> positions;
  std::vector<glm::vec4> velocities;
  std::vector<glm::vec4> accelerations;
  std::vector<float> ages;
  std::vector<float> lifetimes;
  std::vector<uint8_t> dead;
};

// Writes reference::Emit's particle for index `particle_index` into element i, keeping w.
inline void EmitInto(ParticlesAos& particles, size_t i, const EmitterParams& emitter,
                     RandomStream random, uint32_t particle_index) {
  const reference::EmittedParticle emitted = reference::Emit(emitter, random, particle_index);
  particles.positions[i] = glm::vec4(glm::vec3(emitted.position), particles.positions[i].w);
  particles.velocities[i] = glm::vec4(glm::vec3(emitted.velocity), particles.velocities[i].w);
  particles.ages[i] = 0.0f;
  particles.lifetimes[i] = emitted.lifetime;
}

// Dead flags come in blocks of one AVX3 vector that are all live, all dead or mixed (flag values
// 1 and 255 included), so RespawnDead's skip-a-live-vector path and its blend both run.
inline uint8_t RandomDeadFlag(std::mt19937& rng, size_t index) {
  const uint32_t block_mode = static_cast<uint32_t>((index / kPadFloats) * 2654435761u) >> 30;
  if (block_mode == 0) return 0;
  if (block_mode == 1) return 1;
  const uint32_t draw = rng() % 4;
  return draw == 0 ? 255 : draw == 1 ? 1 : 0;
}

// Random particles from a seeded generator. Ranges make every kernel branch run: positions
// straddle the default box [-1, 1]^3, ages straddle lifetimes, w lanes hold data that must
// survive. Padding is `float_padding` / `byte_padding` (zero in normal use).
inline Particles RandomParticles(size_t count, uint32_t seed, float float_padding = 0.0f,
                                 uint8_t byte_padding = 0) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> position(-3.0f, 3.0f);
  std::uniform_real_distribution<float> velocity(-5.0f, 5.0f);
  std::uniform_real_distribution<float> acceleration(-10.0f, 10.0f);
  std::uniform_real_distribution<float> lane_w(-100.0f, 100.0f);
  std::uniform_real_distribution<float> age(0.0f, 3.0f);
  std::uniform_real_distribution<float> lifetime(0.1f, 3.0f);
  Particles particles(count, float_padding, byte_padding);
  for (size_t i = 0; i < count; ++i) {
    particles.positions.Set(i, {position(rng), position(rng), position(rng), lane_w(rng)});
    particles.velocities.Set(i, {velocity(rng), velocity(rng), velocity(rng), lane_w(rng)});
    particles.accelerations.Set(
        i, {acceleration(rng), acceleration(rng), acceleration(rng), lane_w(rng)});
    particles.ages[i] = age(rng);
    particles.lifetimes[i] = lifetime(rng);
    particles.dead[i] = RandomDeadFlag(rng, i);
  }
  return particles;
}

// Which arrays a kernel may write (x, y, z lanes only for the vector arrays). Everything else
// must come back bitwise identical, padding included.
enum Writes : unsigned {
  kWritesPositions = 1,
  kWritesVelocities = 2,
  kWritesAges = 4,
  kWritesLifetimes = 8,
  kWritesDead = 16,
};

namespace detail {

template <typename T>
std::string CompareArray(const char* name, const T* got, const std::vector<T>& want) {
  size_t mismatches = 0;
  std::ostringstream first;
  for (size_t i = 0; i < want.size(); ++i) {
    const bool equal = [&] {
      if constexpr (std::is_same_v<T, float>) {
        return Close(got[i], want[i]);
      } else {
        return got[i] == want[i];
      }
    }();
    if (!equal && mismatches++ == 0) {
      first.precision(9);
      first << name << "[" << i << "]: got " << +got[i] << ", want " << +want[i];
    }
  }
  if (mismatches == 0) return {};
  return first.str() + " (" + std::to_string(mismatches) + " mismatches)\n";
}

inline std::string CompareVec4(const char* name, const PaddedVec4& got,
                               const std::vector<glm::vec4>& want) {
  std::string report;
  static const char* const kLaneNames[] = {".x", ".y", ".z", ".w"};
  for (size_t lane = 0; lane < 4; ++lane) {
    std::vector<float> lane_want(want.size());
    for (size_t i = 0; i < want.size(); ++i) lane_want[i] = want[i][static_cast<int>(lane)];
    report +=
        CompareArray((std::string(name) + kLaneNames[lane]).c_str(), got.Lane(lane), lane_want);
  }
  return report;
}

}  // namespace detail

// Empty if `got` matches `want` within the tolerance (bytes exactly), else the first mismatch
// and the number of mismatches of each array.
inline std::string CompareWithReference(const Particles& got, const ParticlesAos& want) {
  return detail::CompareVec4("positions", got.positions, want.positions) +
         detail::CompareVec4("velocities", got.velocities, want.velocities) +
         detail::CompareVec4("accelerations", got.accelerations, want.accelerations) +
         detail::CompareArray("ages", got.ages.data(), want.ages) +
         detail::CompareArray("lifetimes", got.lifetimes.data(), want.lifetimes) +
         detail::CompareArray("dead", got.dead.data(), want.dead);
}

// Empty if every padding element still holds its initial value.
inline std::string PaddingReport(const Particles& particles, float float_padding,
                                 uint8_t byte_padding) {
  std::string report;
  const auto vec4 = [&](const char* name, const PaddedVec4& array) {
    if (auto where = array.PaddingMismatch(float_padding)) report += name + (" " + *where) + "\n";
  };
  const auto scalars = [&](const char* name, const auto& array, auto padding) {
    if (auto where = array.PaddingMismatch(padding)) {
      report += name + (" element " + std::to_string(*where)) + "\n";
    }
  };
  vec4("positions", particles.positions);
  vec4("velocities", particles.velocities);
  vec4("accelerations", particles.accelerations);
  scalars("ages", particles.ages, float_padding);
  scalars("lifetimes", particles.lifetimes, float_padding);
  scalars("dead", particles.dead, byte_padding);
  return report;
}

// Empty if the arrays outside `writes`, and every w lane, are bitwise as in `input`.
inline std::string UntouchedReport(const Particles& got, const Particles& input, unsigned writes) {
  std::string report;
  const auto whole = [&](const char* name, bool may_write, const auto& got_array,
                         const auto& input_array) {
    if (!may_write && !got_array.BitwiseEqual(input_array)) report += std::string(name) + "\n";
  };
  whole("positions", writes & kWritesPositions, got.positions, input.positions);
  whole("velocities", writes & kWritesVelocities, got.velocities, input.velocities);
  whole("accelerations", false, got.accelerations, input.accelerations);
  whole("ages", writes & kWritesAges, got.ages, input.ages);
  whole("lifetimes", writes & kWritesLifetimes, got.lifetimes, input.lifetimes);
  whole("dead", writes & kWritesDead, got.dead, input.dead);
  if (!got.positions.LaneBitwiseEqual(input.positions, 3)) report += "positions.w\n";
  if (!got.velocities.LaneBitwiseEqual(input.velocities, 3)) report += "velocities.w\n";
  return report;
}

inline bool BitwiseEqual(const Particles& a, const Particles& b) {
  return a.positions.BitwiseEqual(b.positions) && a.velocities.BitwiseEqual(b.velocities) &&
         a.accelerations.BitwiseEqual(b.accelerations) && a.ages.BitwiseEqual(b.ages) &&
         a.lifetimes.BitwiseEqual(b.lifetimes) && a.dead.BitwiseEqual(b.dead);
}

// A finite, non-zero padding value: if a kernel stored a whole vector where only part of it is
// valid, the padding would change even where the computed value happens to be zero.
inline constexpr float kSentinelFloat = 1234.5f;
inline constexpr uint8_t kSentinelByte = 0xA5;

// For every size in kSizes, every compiled target and both padding fills (zero, as the owning
// buffers keep it, and a sentinel that catches full-vector stores of zero):
//   kernel(Particles&) on a copy of seeded random particles must match reference(ParticlesAos&)
//   within the tolerance, keep the padding, keep the arrays outside `writes` and the w lanes
//   bitwise, and produce the same bits as the first target.
template <class Kernel, class Reference>
void CheckKernelAgainstReference(unsigned writes, const Kernel& kernel,
                                 const Reference& reference) {
  for (const size_t count : kSizes) {
    for (const bool sentinel : {false, true}) {
      INFO("count " << count << (sentinel ? ", sentinel padding" : ", zero padding"));
      const float float_padding = sentinel ? kSentinelFloat : 0.0f;
      const uint8_t byte_padding = sentinel ? kSentinelByte : 0;
      const Particles input = RandomParticles(count, static_cast<uint32_t>(count) + 12345u,
                                              float_padding, byte_padding);
      ParticlesAos expected(input);
      reference(expected);
      std::optional<Particles> first;
      std::string first_target;
      ForEachTarget([&](const TargetUnderTest& target) {
        INFO("target " << target.name);
        Particles got = input;
        kernel(got);
        CHECK(CompareWithReference(got, expected) == "");
        CHECK(PaddingReport(got, float_padding, byte_padding) == "");
        CHECK(UntouchedReport(got, input, writes) == "");
        if (!first) {
          first.emplace(got);
          first_target = target.name;
        } else {
          INFO("bitwise against target " << first_target);
          CHECK(BitwiseEqual(got, *first));
        }
      });
      REQUIRE(first.has_value());
    }
  }
}

// Euler parameters with gravity off every axis, so no lane is trivially zero.
inline swarm::EulerParams TestEulerParams(float drag_per_second) {
  swarm::EulerParams params;
  params.gravity = {1.5f, -9.81f, 0.25f};
  params.drag_per_second = drag_per_second;
  params.dt_seconds = 1.0f / 60.0f;
  return params;
}

}  // namespace swarm::test
