// Dispatch for the particle interaction kernels.
#include "swarm/kernels/particles/interaction_kernels.h"

#include <cmath>
#include <numbers>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/particles/interaction_kernels-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/particles/interaction_kernels-inl.h"

#if HWY_ONCE
namespace swarm {

HWY_EXPORT(GranularForcesImpl);
HWY_EXPORT(ApplyForcesImpl);
HWY_EXPORT(SteerFlockImpl);
HWY_EXPORT(FluidLambdasImpl);
HWY_EXPORT(FluidCorrectionsImpl);
HWY_EXPORT(FluidVorticityImpl);
HWY_EXPORT(FluidViscosityImpl);
HWY_EXPORT(PositionsToVelocitiesImpl);
HWY_EXPORT(FindDisplacementBoundsImpl);

namespace {

bool Covers(const SortedGrid& grid, size_t begin, size_t end) {
  return begin <= end && end <= grid.points.count;
}

// Optional outputs are given with no data, or one entry per particle.
bool OptionalCount(const FloatView& counts, size_t particles) {
  return counts.data == nullptr || counts.count == particles;
}

// The lists cover the particles, and [begin, end) starts a block.
bool Covers(const ConstVec4View& positions, const NeighborBlocksView& blocks, size_t begin,
            size_t end) {
  return blocks.particles == positions.count && begin % kBlockLanes == 0 && begin <= end &&
         end <= positions.count;
}

}  // namespace

float TwiceDampingRatio(float restitution) {
  // zeta = -ln e / sqrt(pi^2 + ln^2 e), in double and rounded once, so the float that reaches
  // the kernels is the same on every target (one rounding of a double within 1e-15).
  const double log_e = std::log(static_cast<double>(restitution));
  return static_cast<float>(-2.0 * log_e /
                            std::sqrt(std::numbers::pi * std::numbers::pi + log_e * log_e));
}

void GranularForces(const ConstVec4View& positions, const NeighborBlocksView& blocks, float radius,
                    const ConstVec4View& velocities, const ConstFloatView& radii,
                    const ConstFloatView& masses, const GranularParams& params, size_t begin,
                    size_t end, const Vec4View& forces, const FloatView& neighbor_counts) {
  SWARM_ASSERT(Covers(positions, blocks, begin, end) &&
               SameCount(positions, velocities, radii, masses, forces) &&
               OptionalCount(neighbor_counts, positions.count) && params.restitution > 0.0f &&
               params.restitution <= 1.0f);
  HWY_DYNAMIC_DISPATCH(GranularForcesImpl)
  (positions, blocks, radius, velocities, radii, masses, params,
   TwiceDampingRatio(params.restitution), begin, end, forces, neighbor_counts);
}

void ApplyForces(const Vec4View& velocities, const ConstVec4View& forces,
                 const ConstFloatView& masses, float dt_seconds) {
  SWARM_ASSERT(SameCount(velocities, forces, masses));
  HWY_DYNAMIC_DISPATCH(ApplyForcesImpl)(velocities, forces, masses, dt_seconds);
}

void SteerFlock(const SortedGrid& grid, const ConstVec4View& velocities, const FlockParams& params,
                float dt_seconds, size_t begin, size_t end, const Vec4View& new_velocities,
                const FloatView& neighbor_counts) {
  SWARM_ASSERT(Covers(grid, begin, end) && SameCount(grid.points, velocities, new_velocities) &&
               OptionalCount(neighbor_counts, grid.points.count));
  HWY_DYNAMIC_DISPATCH(SteerFlockImpl)
  (grid, velocities, params, dt_seconds, begin, end, new_velocities, neighbor_counts);
}

void FluidLambdas(const ConstVec4View& predicted, const NeighborBlocksView& blocks,
                  const FluidParams& params, size_t begin, size_t end, const FloatView& lambdas,
                  const FloatView& compliances, const FloatView& densities,
                  const FloatView& neighbor_counts) {
  SWARM_ASSERT(Covers(predicted, blocks, begin, end) &&
               SameCount(predicted, lambdas, compliances, densities) &&
               OptionalCount(neighbor_counts, predicted.count) && params.kernel_radius > 0.0f);
  HWY_DYNAMIC_DISPATCH(FluidLambdasImpl)
  (predicted, blocks, params, begin, end, lambdas, compliances, densities, neighbor_counts);
}

void FluidCorrections(const ConstVec4View& predicted, const NeighborBlocksView& blocks,
                      const ConstFloatView& lambdas, const ConstFloatView& compliances,
                      const FluidParams& params, const BoxParams& box, size_t begin, size_t end,
                      const Vec4View& corrected) {
  SWARM_ASSERT(Covers(predicted, blocks, begin, end) &&
               SameCount(predicted, lambdas, compliances, corrected) &&
               params.kernel_radius > 0.0f);
  HWY_DYNAMIC_DISPATCH(FluidCorrectionsImpl)
  (predicted, blocks, lambdas, compliances, params, box, begin, end, corrected);
}

void FluidVorticity(const ConstVec4View& predicted, const NeighborBlocksView& blocks,
                    const ConstVec4View& velocities, const FluidParams& params, size_t begin,
                    size_t end, const Vec4View& omega) {
  SWARM_ASSERT(Covers(predicted, blocks, begin, end) && SameCount(predicted, velocities, omega) &&
               params.kernel_radius > 0.0f);
  HWY_DYNAMIC_DISPATCH(FluidVorticityImpl)
  (predicted, blocks, velocities, params, begin, end, omega);
}

void PositionsToVelocities(const ConstVec4View& old_positions, const ConstVec4View& new_positions,
                           float dt_seconds, const Vec4View& velocities) {
  SWARM_ASSERT(SameCount(old_positions, new_positions, velocities) && dt_seconds > 0.0f);
  HWY_DYNAMIC_DISPATCH(PositionsToVelocitiesImpl)
  (old_positions, new_positions, dt_seconds, velocities);
}

DisplacementBounds FindDisplacementBounds(const ConstVec4View& from, const ConstVec4View& to) {
  SWARM_ASSERT(SameCount(from, to));
  return HWY_DYNAMIC_DISPATCH(FindDisplacementBoundsImpl)(from, to);
}

void FluidViscosity(const ConstVec4View& predicted, const NeighborBlocksView& blocks,
                    const ConstVec4View& velocities, const ConstVec4View& omega,
                    const FluidParams& params, float dt_seconds, size_t begin, size_t end,
                    const Vec4View& new_velocities) {
  SWARM_ASSERT(Covers(predicted, blocks, begin, end) &&
               SameCount(predicted, velocities, omega, new_velocities) &&
               params.kernel_radius > 0.0f);
  HWY_DYNAMIC_DISPATCH(FluidViscosityImpl)
  (predicted, blocks, velocities, omega, params, dt_seconds, begin, end, new_velocities);
}

}  // namespace swarm
#endif  // HWY_ONCE
