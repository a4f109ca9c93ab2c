// swarm-gameloop-kernels: the kernels without the engine. Links only swarm::kernels and runs
// the Euler kernel on memory the caller owns (no MemoryAccountant, no buffers), then checks the
// result bit for bit against the scalar reference. It exists to prove that the installed
// swarm::kernels target is complete on its own: headers, Highway and GLM come with it.
#include <hwy/targets.h>
#include <swarm/kernels/base/targets.h>
#include <swarm/kernels/base/views.h>
#include <swarm/kernels/particles/integrate.h>
#include <swarm/kernels/particles/integrate_reference.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <glm/vec4.hpp>

namespace {

constexpr size_t kCount = 37;  // not a multiple of any vector width: exercises the tail
constexpr size_t kLaneStride = swarm::RoundUpToVector<float>(kCount);

// The layout swarm/kernels/base/views.h asks for: four lane arrays, each padded to whole vectors
// with zeros, the block aligned to kAlignBytes.
struct OwnSoa {
  alignas(swarm::kAlignBytes) std::array<float, 4 * kLaneStride> lanes{};
  swarm::Vec4View view() { return {lanes.data(), kCount, kLaneStride}; }
};

}  // namespace

int main() {
  OwnSoa positions, velocities;
  std::array<glm::vec4, kCount> reference_positions{}, reference_velocities{};
  for (size_t i = 0; i < kCount; ++i) {
    const float f = static_cast<float>(i);
    reference_positions[i] = {0.25f * f, 1.0f + 0.5f * f, -0.125f * f, f};
    reference_velocities[i] = {1.0f - 0.0625f * f, 3.0f, 0.03125f * f, 0.0f};
    for (size_t lane = 0; lane < 4; ++lane) {
      positions.lanes[lane * kLaneStride + i] = reference_positions[i][static_cast<int>(lane)];
      velocities.lanes[lane * kLaneStride + i] = reference_velocities[i][static_cast<int>(lane)];
    }
  }

  const swarm::EulerParams params{{0.0f, -9.81f, 0.0f}, 0.1f, 1.0f / 120.0f};
  for (int step = 0; step < 120; ++step) {
    swarm::IntegrateEuler(positions.view(), velocities.view(), params);
    swarm::reference::IntegrateEuler(reference_positions, reference_velocities, params);
  }

  size_t mismatches = 0;
  for (size_t i = 0; i < kCount; ++i) {
    for (size_t lane = 0; lane < 4; ++lane) {
      const float simd = positions.lanes[lane * kLaneStride + i];
      const float scalar = reference_positions[i][static_cast<int>(lane)];
      if (std::memcmp(&simd, &scalar, sizeof(float)) != 0) ++mismatches;
    }
  }
  const char* target = hwy::TargetName(swarm::ActiveKernelTarget());
  if (mismatches != 0) {
    std::fprintf(stderr,
                 "swarm-gameloop-kernels: %zu of %zu floats differ from the reference on %s\n",
                 mismatches, 4 * kCount, target);
    return 1;
  }
  std::printf(
      "kernels-only: %zu particles x 120 Euler steps on %s match the scalar reference "
      "bit for bit\n",
      kCount, target);
  return 0;
}
