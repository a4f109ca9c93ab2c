// Per-target code of the particle interaction kernels (see
// swarm/kernels/particles/interaction_kernels.h). Granular contact walks a vector of particles at a
// time, each lane summing over its own neighbour list (ForEachParticleVector,
// kernels/particles/neighbor_block_walk-inl.h). The flock and fluid kernels are "passes" over
// particles by cell (ForEachParticleByCell), which clear their sums, then Scan adds the neighbours'
// terms a vector of candidates at a time into 16 virtual-lane partial sums, Finish combines them
// (fixed tree) and writes the particle's outputs in scalar code. Masked lanes (not neighbours) may
// compute NaN or inf on the way; selects discard them.

#if defined(SWARM_KERNELS_PARTICLE_INTERACTIONS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_PARTICLE_INTERACTIONS_INL_H_
#undef SWARM_KERNELS_PARTICLE_INTERACTIONS_INL_H_
#else
#define SWARM_KERNELS_PARTICLE_INTERACTIONS_INL_H_
#endif

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "hwy/highway.h"
#include "kernels/base/loop-inl.h"
#include "kernels/particles/neighbor_block_walk-inl.h"
#include "kernels/particles/neighbor_scan-inl.h"
#include "swarm/kernels/particles/interaction_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// --- Granular contact ----------------------------------------------------------------------------

inline void GranularForcesImpl(const ConstVec4View& positions, const NeighborBlocksView& blocks,
                               float radius, const ConstVec4View& velocities,
                               const ConstFloatView& radii, const ConstFloatView& masses,
                               const GranularParams& params, float twice_damping_ratio,
                               size_t begin, size_t end, const Vec4View& forces,
                               const FloatView& neighbor_counts) {
  const ParticleTag d;
  const hn::RebindToSigned<decltype(d)> di;
  const float* HWY_RESTRICT const position[3] = {positions.x(), positions.y(), positions.z()};
  const float* HWY_RESTRICT const velocity[3] = {velocities.x(), velocities.y(), velocities.z()};
  const auto zero = hn::Zero(d);
  const auto one = hn::Set(d, 1.0f);
  const auto radius_squared = hn::Set(d, radius * radius);
  const auto k = hn::Set(d, params.stiffness);
  const auto beta = hn::Set(d, twice_damping_ratio);
  const auto mu = hn::Set(d, params.friction);
  const auto gamma = hn::Set(d, params.tangential_damping);
  ForEachParticleVector(
      blocks, begin, end, [&](size_t s, auto store, const int32_t* row, size_t depth) HWY_ATTR {
        const auto px = hn::LoadU(d, position[0] + s);
        const auto py = hn::LoadU(d, position[1] + s);
        const auto pz = hn::LoadU(d, position[2] + s);
        const auto own_vx = hn::LoadU(d, velocity[0] + s);
        const auto own_vy = hn::LoadU(d, velocity[1] + s);
        const auto own_vz = hn::LoadU(d, velocity[2] + s);
        const auto own_radius = hn::LoadU(d, radii.data + s);
        const auto own_mass = hn::LoadU(d, masses.data + s);
        auto fx = zero, fy = zero, fz = zero, count = zero;
        for (size_t n = 0; n < depth; ++n) {
          hn::Mask<decltype(di)> listed;
          const auto j = NeighborIndices(di, row, n, listed);
          hn::Vec<decltype(d)> dx, dy, dz;
          hn::Mask<decltype(d)> near;
          const auto distance_squared =
              NeighborOffsets(d, position, j, listed, px, py, pz, radius_squared, dx, dy, dz, near);
          count = AddWhere(near, count, one);
          const auto reach = hn::Add(own_radius, hn::GatherIndex(d, radii.data, j));
          const auto touching =
              hn::And(near, hn::And(hn::Lt(distance_squared, hn::Mul(reach, reach)),
                                    hn::Gt(distance_squared, zero)));
          // Most listed pairs are near but not in contact: their lanes would be discarded below.
          if (hn::AllFalse(d, touching)) continue;
          const auto distance = hn::Sqrt(distance_squared);
          // n points from the neighbour to the particle: -d / |d|.
          const auto nx = hn::Div(hn::Neg(dx), distance);
          const auto ny = hn::Div(hn::Neg(dy), distance);
          const auto nz = hn::Div(hn::Neg(dz), distance);
          const auto overlap = hn::Sub(reach, distance);
          const auto rvx = hn::Sub(own_vx, hn::GatherIndex(d, velocity[0], j));
          const auto rvy = hn::Sub(own_vy, hn::GatherIndex(d, velocity[1], j));
          const auto rvz = hn::Sub(own_vz, hn::GatherIndex(d, velocity[2], j));
          const auto vn = hn::Add(hn::Add(hn::Mul(rvx, nx), hn::Mul(rvy, ny)), hn::Mul(rvz, nz));
          const auto other_mass = hn::GatherIndex(d, masses.data, j);
          const auto effective_mass =
              hn::Div(hn::Mul(own_mass, other_mass), hn::Add(own_mass, other_mass));
          const auto damping = hn::Mul(beta, hn::Sqrt(hn::Mul(k, effective_mass)));
          const auto normal = hn::Sub(hn::Mul(k, overlap), hn::Mul(damping, vn));
          const auto tx = hn::Sub(rvx, hn::Mul(vn, nx));
          const auto ty = hn::Sub(rvy, hn::Mul(vn, ny));
          const auto tz = hn::Sub(rvz, hn::Mul(vn, nz));
          const auto sliding =
              hn::Sqrt(hn::Add(hn::Add(hn::Mul(tx, tx), hn::Mul(ty, ty)), hn::Mul(tz, tz)));
          const auto coulomb = hn::Mul(mu, hn::Abs(normal));
          const auto viscous = hn::Mul(gamma, hn::Mul(effective_mass, sliding));
          // min(coulomb, viscous) / |v_t| by compare + select (Min's NaN rule differs by ISA).
          const auto limited = hn::IfThenElse(hn::Lt(viscous, coulomb), viscous, coulomb);
          const auto scale = hn::IfThenElse(hn::Gt(sliding, zero), hn::Div(limited, sliding), zero);
          fx = AddWhere(touching, fx, hn::Sub(hn::Mul(normal, nx), hn::Mul(scale, tx)));
          fy = AddWhere(touching, fy, hn::Sub(hn::Mul(normal, ny), hn::Mul(scale, ty)));
          fz = AddWhere(touching, fz, hn::Sub(hn::Mul(normal, nz), hn::Mul(scale, tz)));
        }
        store(fx, d, forces.x() + s);
        store(fy, d, forces.y() + s);
        store(fz, d, forces.z() + s);
        if (neighbor_counts.data != nullptr) store(count, d, neighbor_counts.data + s);
      });
}

inline void ApplyForcesImpl(const Vec4View& velocities, const ConstVec4View& forces,
                            const ConstFloatView& masses, float dt_seconds) {
  const hn::ScalableTag<float> d;
  const auto dt = hn::Set(d, dt_seconds);
  ForEachVector(d, velocities.count, [&](size_t i, auto store) HWY_ATTR {
    const auto mass = hn::LoadU(d, masses.data + i);
    for (size_t axis = 0; axis < 3; ++axis) {
      float* v = velocities.Lane(axis) + i;
      const auto acceleration = hn::Div(hn::LoadU(d, forces.Lane(axis) + i), mass);
      store(hn::Add(hn::LoadU(d, v), hn::Mul(acceleration, dt)), d, v);
    }
  });
}

// --- Flocking ------------------------------------------------------------------------------------

struct FlockPass {
  enum Field { kX, kY, kZ, kVx, kVy, kVz, kFieldCount };
  enum Sum { kCount, kVelocity, kOffset = kVelocity + 3, kSeparation = kOffset + 3, kSums = 10 };
  const float* HWY_RESTRICT position[3];
  const float* HWY_RESTRICT velocity[4];
  float* HWY_RESTRICT out[4];
  float* HWY_RESTRICT counts;  // null: not counted
  const FlockParams* params;
  float dt;
  LaneSums<kSums> sums;

  void Scan(const CandidateFields<kFieldCount>& candidates, size_t s) {
    const ScanTag d;
    const auto one = hn::Set(d, 1.0f);
    const auto zero = hn::Zero(d);
    const auto separation_squared =
        hn::Set(d, params->separation_radius * params->separation_radius);
    ForEachNearCandidate(
        candidates, position[0][s], position[1][s], position[2][s],
        params->view_radius * params->view_radius, static_cast<int32_t>(s),
        [&](size_t j, size_t slot, auto near, auto dx, auto dy, auto dz, auto distance_squared)
            HWY_ATTR {
              sums.Add(d, kCount, slot, near, one);
              sums.Add(d, kVelocity + 0, slot, near, hn::Load(d, candidates.field[kVx] + j));
              sums.Add(d, kVelocity + 1, slot, near, hn::Load(d, candidates.field[kVy] + j));
              sums.Add(d, kVelocity + 2, slot, near, hn::Load(d, candidates.field[kVz] + j));
              sums.Add(d, kOffset + 0, slot, near, dx);
              sums.Add(d, kOffset + 1, slot, near, dy);
              sums.Add(d, kOffset + 2, slot, near, dz);
              const auto close = hn::And(near, hn::And(hn::Lt(distance_squared, separation_squared),
                                                       hn::Gt(distance_squared, zero)));
              sums.Add(d, kSeparation + 0, slot, close, hn::Div(dx, distance_squared));
              sums.Add(d, kSeparation + 1, slot, close, hn::Div(dy, distance_squared));
              sums.Add(d, kSeparation + 2, slot, close, hn::Div(dz, distance_squared));
            });
  }

  void Finish(size_t s) {
    const FlockParams& p = *params;
    const float count = sums.Total(kCount);
    float v[3];
    for (size_t axis = 0; axis < 3; ++axis) {
      const float own = velocity[axis][s];
      float steer = -p.separation_weight * sums.Total(kSeparation + axis);
      if (count > 0.0f) {
        const float mean_velocity = sums.Total(kVelocity + axis) / count;
        const float mean_offset = sums.Total(kOffset + axis) / count;
        steer = steer + p.alignment_weight * (mean_velocity - own);
        steer = steer + p.cohesion_weight * mean_offset;
      }
      const float to_low = position[axis][s] - p.box.min[axis];
      const float to_high = p.box.max[axis] - position[axis][s];
      if (to_low < p.wall_margin) {
        steer = steer + p.wall_weight * ((p.wall_margin - to_low) / p.wall_margin);
      }
      if (to_high < p.wall_margin) {
        steer = steer - p.wall_weight * ((p.wall_margin - to_high) / p.wall_margin);
      }
      v[axis] = own + steer * dt;
    }
    const float speed = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    float scale = 1.0f;
    if (speed > p.max_speed) scale = p.max_speed / speed;
    if (speed < p.min_speed && speed > 0.0f) scale = p.min_speed / speed;
    for (size_t axis = 0; axis < 3; ++axis) out[axis][s] = v[axis] * scale;
    out[3][s] = velocity[3][s];  // lane w carried through
    if (counts != nullptr) counts[s] = count;
  }
};

inline void SteerFlockImpl(const SortedGrid& grid, const ConstVec4View& velocities,
                           const FlockParams& params, float dt_seconds, size_t begin, size_t end,
                           const Vec4View& new_velocities, const FloatView& neighbor_counts) {
  FlockPass pass{{grid.points.x(), grid.points.y(), grid.points.z()},
                 {velocities.x(), velocities.y(), velocities.z(), velocities.w()},
                 {new_velocities.x(), new_velocities.y(), new_velocities.z(), new_velocities.w()},
                 neighbor_counts.data,
                 &params,
                 dt_seconds,
                 {}};
  const float* const sources[FlockPass::kFieldCount] = {pass.position[0], pass.position[1],
                                                        pass.position[2], pass.velocity[0],
                                                        pass.velocity[1], pass.velocity[2]};
  ForEachParticleByCell(grid, begin, end, sources, pass);
}

// --- Fluids
// ---------------------------------------------------------------------------------------

// The SPH kernels of radius h (see particle_interactions.h), and the per-vector quantities every
// fluid pass needs from the offsets d = candidate - particle.
struct FluidKernels {
  float h;
  float h_squared;
  float poly6 = 0.0f;  // 315 / (64 pi h^9)
  float spiky = 0.0f;  // 45 / (pi h^6), the magnitude of the spiky gradient's constant

  // Powers by multiplication in double (not std::pow, whose last bit may differ between
  // libraries), rounded once to float.
  explicit FluidKernels(float radius) : h(radius), h_squared(radius * radius) {
    constexpr double kPi = 3.14159265358979323846;
    const double r = radius;
    const double r3 = r * r * r;
    const double r6 = r3 * r3;
    poly6 = static_cast<float>(315.0 / (64.0 * kPi * (r6 * r3)));
    spiky = static_cast<float>(45.0 / (kPi * r6));
  }
  float W(float r_squared) const {
    const float x = h_squared - r_squared;
    return poly6 * (x * (x * x));
  }
};

// W(d) and the gradient's factor g (grad W_ij = g * d, pointing from the particle to the
// candidate) for the lanes `inside` (0 < |d| <= h); other lanes are garbage.
template <class D, class V>
HWY_INLINE void KernelTerms(D d, const FluidKernels& k, V distance_squared, V& w, V& g) {
  const auto x = hn::Sub(hn::Set(d, k.h_squared), distance_squared);
  w = hn::Mul(hn::Set(d, k.poly6), hn::Mul(x, hn::Mul(x, x)));
  const auto distance = hn::Sqrt(distance_squared);
  const auto falloff = hn::Sub(hn::Set(d, k.h), distance);
  g = hn::Div(hn::Mul(hn::Set(d, k.spiky), hn::Mul(falloff, falloff)), distance);
}

// The loads of a fluid pass's particles: positions (the predicted ones) and the kernels' terms of
// each listed neighbour within h. body(j, near, apart, dx, dy, dz, w, g) per row, where apart =
// near and |d| > 0 (the gradient's lanes); rows with no neighbour within h are skipped.
template <class D, class Body>
HWY_INLINE void ForEachFluidNeighbor(D d, const FluidKernels& kernels,
                                     const float* HWY_RESTRICT const (&position)[3],
                                     const int32_t* HWY_RESTRICT row, size_t depth, hn::Vec<D> px,
                                     hn::Vec<D> py, hn::Vec<D> pz, const Body& body) {
  const hn::RebindToSigned<D> di;
  const auto h_squared = hn::Set(d, kernels.h_squared);
  const auto zero = hn::Zero(d);
  for (size_t n = 0; n < depth; ++n) {
    hn::Mask<decltype(di)> listed;
    const auto j = NeighborIndices(di, row, n, listed);
    hn::Vec<D> dx, dy, dz;
    hn::Mask<D> near;
    const auto distance_squared =
        NeighborOffsets(d, position, j, listed, px, py, pz, h_squared, dx, dy, dz, near);
    if (hn::AllFalse(d, near)) continue;  // list entries of the skin only
    hn::Vec<D> w, g;
    KernelTerms(d, kernels, distance_squared, w, g);
    const auto apart = hn::And(near, hn::Gt(distance_squared, zero));
    body(j, near, apart, dx, dy, dz, w, g);
  }
}

inline void FluidLambdasImpl(const ConstVec4View& predicted, const NeighborBlocksView& blocks,
                             const FluidParams& p, size_t begin, size_t end,
                             const FloatView& lambdas, const FloatView& compliances,
                             const FloatView& densities, const FloatView& neighbor_counts) {
  const ParticleTag d;
  const FluidKernels kernels(p.kernel_radius);
  const float* HWY_RESTRICT const position[3] = {predicted.x(), predicted.y(), predicted.z()};
  const auto zero = hn::Zero(d);
  const auto one = hn::Set(d, 1.0f);
  const float volume = p.particle_mass / p.rest_density;
  ForEachParticleVector(
      blocks, begin, end, [&](size_t s, auto store, const int32_t* row, size_t depth) HWY_ATTR {
        auto density = zero, count = zero, squares = zero;
        auto gradient_x = zero, gradient_y = zero, gradient_z = zero;
        ForEachFluidNeighbor(
            d, kernels, position, row, depth, hn::LoadU(d, position[0] + s),
            hn::LoadU(d, position[1] + s), hn::LoadU(d, position[2] + s),
            [&](auto, auto near, auto apart, auto dx, auto dy, auto dz, auto w, auto g) HWY_ATTR {
              const auto gx = hn::Mul(g, dx);
              const auto gy = hn::Mul(g, dy);
              const auto gz = hn::Mul(g, dz);
              density = AddWhere(near, density, w);
              gradient_x = AddWhere(apart, gradient_x, gx);
              gradient_y = AddWhere(apart, gradient_y, gy);
              gradient_z = AddWhere(apart, gradient_z, gz);
              squares =
                  AddWhere(apart, squares,
                           hn::Add(hn::Add(hn::Mul(gx, gx), hn::Mul(gy, gy)), hn::Mul(gz, gz)));
              count = AddWhere(near, count, one);
            });
        const auto rho =
            hn::Mul(hn::Set(d, p.particle_mass), hn::Add(hn::Set(d, kernels.W(0.0f)), density));
        const auto excess = hn::Sub(hn::Div(rho, hn::Set(d, p.rest_density)), one);
        const auto constraint = hn::IfThenElseZero(hn::Gt(excess, zero), excess);
        const auto factor = hn::Set(d, volume);
        const auto gx = hn::Mul(factor, gradient_x);
        const auto gy = hn::Mul(factor, gradient_y);
        const auto gz = hn::Mul(factor, gradient_z);
        const auto total =
            hn::Add(hn::Add(hn::Add(hn::Mul(gx, gx), hn::Mul(gy, gy)), hn::Mul(gz, gz)),
                    hn::Mul(hn::Set(d, volume * volume), squares));
        const auto compliance = hn::Div(one, hn::Add(total, hn::Set(d, p.relaxation)));
        store(hn::Mul(hn::Neg(constraint), compliance), d, lambdas.data + s);
        store(compliance, d, compliances.data + s);
        store(rho, d, densities.data + s);
        if (neighbor_counts.data != nullptr) store(count, d, neighbor_counts.data + s);
      });
}

inline void FluidCorrectionsImpl(const ConstVec4View& predicted, const NeighborBlocksView& blocks,
                                 const ConstFloatView& lambdas, const ConstFloatView& compliances,
                                 const FluidParams& p, const BoxParams& box, size_t begin,
                                 size_t end, const Vec4View& corrected) {
  const ParticleTag d;
  const FluidKernels kernels(p.kernel_radius);
  const float q = p.pressure_distance * p.kernel_radius;
  const auto reference = hn::Set(d, 1.0f / kernels.W(q * q));
  const float* HWY_RESTRICT const position[3] = {predicted.x(), predicted.y(), predicted.z()};
  const auto zero = hn::Zero(d);
  const auto half_strength = hn::Set(d, -0.5f * p.artificial_pressure);
  const int exponent = static_cast<int>(p.pressure_exponent);
  const auto factor = hn::Set(d, p.particle_mass / p.rest_density);
  ForEachParticleVector(
      blocks, begin, end, [&](size_t s, auto store, const int32_t* row, size_t depth) HWY_ATTR {
        const auto own_lambda = hn::LoadU(d, lambdas.data + s);
        const auto own_compliance = hn::LoadU(d, compliances.data + s);
        const auto px = hn::LoadU(d, position[0] + s);
        const auto py = hn::LoadU(d, position[1] + s);
        const auto pz = hn::LoadU(d, position[2] + s);
        auto sum_x = zero, sum_y = zero, sum_z = zero;
        ForEachFluidNeighbor(
            d, kernels, position, row, depth, px, py, pz,
            [&](auto j, auto, auto apart, auto dx, auto dy, auto dz, auto w, auto g) HWY_ATTR {
              // ratio^n by squaring (n = 4: two multiplications, not a chain of three).
              const auto ratio = hn::Mul(w, reference);
              auto power = hn::Set(d, 1.0f);
              auto base = ratio;
              for (int e = exponent; e > 0; e >>= 1) {
                if (e & 1) power = hn::Mul(power, base);
                if (e > 1) base = hn::Mul(base, base);
              }
              // s_corr = -k (W / W(q h))^n, a constraint error like C, scaled by the pair's mean
              // compliance as lambda is by its own.
              const auto pair_compliance =
                  hn::Add(own_compliance, hn::GatherIndex(d, compliances.data, j));
              const auto weight = hn::Add(hn::Add(own_lambda, hn::GatherIndex(d, lambdas.data, j)),
                                          hn::Mul(hn::Mul(half_strength, power), pair_compliance));
              const auto scale = hn::Mul(weight, g);
              sum_x = AddWhere(apart, sum_x, hn::Mul(scale, dx));
              sum_y = AddWhere(apart, sum_y, hn::Mul(scale, dy));
              sum_z = AddWhere(apart, sum_z, hn::Mul(scale, dz));
            });
        // The gradient points at the neighbours: a negative weight (compression) moves away.
        const auto moved = [&](auto own, auto sum, float low, float high) HWY_ATTR {
          const auto at = hn::Add(own, hn::Mul(factor, sum));
          const auto low_v = hn::Set(d, low);
          const auto high_v = hn::Set(d, high);
          const auto above_low = hn::IfThenElse(hn::Lt(at, low_v), low_v, at);
          return hn::IfThenElse(hn::Gt(above_low, high_v), high_v, above_low);
        };
        store(moved(px, sum_x, box.min.x, box.max.x), d, corrected.x() + s);
        store(moved(py, sum_y, box.min.y, box.max.y), d, corrected.y() + s);
        store(moved(pz, sum_z, box.min.z, box.max.z), d, corrected.z() + s);
        store(hn::LoadU(d, predicted.w() + s), d, corrected.w() + s);
      });
}

inline void FluidVorticityImpl(const ConstVec4View& predicted, const NeighborBlocksView& blocks,
                               const ConstVec4View& velocities, const FluidParams& p, size_t begin,
                               size_t end, const Vec4View& omega) {
  const ParticleTag d;
  const FluidKernels kernels(p.kernel_radius);
  const float* HWY_RESTRICT const position[3] = {predicted.x(), predicted.y(), predicted.z()};
  const float* HWY_RESTRICT const velocity[3] = {velocities.x(), velocities.y(), velocities.z()};
  const auto zero = hn::Zero(d);
  const auto volume = hn::Set(d, p.particle_mass / p.rest_density);
  ForEachParticleVector(
      blocks, begin, end, [&](size_t s, auto store, const int32_t* row, size_t depth) HWY_ATTR {
        const auto vx = hn::LoadU(d, velocity[0] + s);
        const auto vy = hn::LoadU(d, velocity[1] + s);
        const auto vz = hn::LoadU(d, velocity[2] + s);
        auto curl_x = zero, curl_y = zero, curl_z = zero;
        ForEachFluidNeighbor(
            d, kernels, position, row, depth, hn::LoadU(d, position[0] + s),
            hn::LoadU(d, position[1] + s), hn::LoadU(d, position[2] + s),
            [&](auto j, auto, auto apart, auto dx, auto dy, auto dz, auto, auto g) HWY_ATTR {
              const auto gx = hn::Mul(g, dx);
              const auto gy = hn::Mul(g, dy);
              const auto gz = hn::Mul(g, dz);
              const auto ux = hn::Sub(hn::GatherIndex(d, velocity[0], j), vx);
              const auto uy = hn::Sub(hn::GatherIndex(d, velocity[1], j), vy);
              const auto uz = hn::Sub(hn::GatherIndex(d, velocity[2], j), vz);
              curl_x = AddWhere(apart, curl_x, hn::Sub(hn::Mul(gy, uz), hn::Mul(gz, uy)));
              curl_y = AddWhere(apart, curl_y, hn::Sub(hn::Mul(gz, ux), hn::Mul(gx, uz)));
              curl_z = AddWhere(apart, curl_z, hn::Sub(hn::Mul(gx, uy), hn::Mul(gy, ux)));
            });
        const auto x = hn::Mul(volume, curl_x);
        const auto y = hn::Mul(volume, curl_y);
        const auto z = hn::Mul(volume, curl_z);
        store(x, d, omega.x() + s);
        store(y, d, omega.y() + s);
        store(z, d, omega.z() + s);
        store(hn::Sqrt(hn::Add(hn::Add(hn::Mul(x, x), hn::Mul(y, y)), hn::Mul(z, z))), d,
              omega.w() + s);
      });
}

inline void FluidViscosityImpl(const ConstVec4View& predicted, const NeighborBlocksView& blocks,
                               const ConstVec4View& velocities, const ConstVec4View& omega,
                               const FluidParams& p, float dt_seconds, size_t begin, size_t end,
                               const Vec4View& new_velocities) {
  const ParticleTag d;
  const FluidKernels kernels(p.kernel_radius);
  const float* HWY_RESTRICT const position[3] = {predicted.x(), predicted.y(), predicted.z()};
  const float* HWY_RESTRICT const velocity[3] = {velocities.x(), velocities.y(), velocities.z()};
  const auto zero = hn::Zero(d);
  const auto volume = hn::Set(d, p.particle_mass / p.rest_density);
  const auto dt = hn::Set(d, dt_seconds);
  const auto vorticity = hn::Set(d, p.vorticity);
  const auto viscosity = hn::Set(d, p.viscosity);
  ForEachParticleVector(
      blocks, begin, end, [&](size_t s, auto store, const int32_t* row, size_t depth) HWY_ATTR {
        const auto vx = hn::LoadU(d, velocity[0] + s);
        const auto vy = hn::LoadU(d, velocity[1] + s);
        const auto vz = hn::LoadU(d, velocity[2] + s);
        auto viscous_x = zero, viscous_y = zero, viscous_z = zero;
        auto eta_x = zero, eta_y = zero, eta_z = zero;
        ForEachFluidNeighbor(
            d, kernels, position, row, depth, hn::LoadU(d, position[0] + s),
            hn::LoadU(d, position[1] + s), hn::LoadU(d, position[2] + s),
            [&](auto j, auto near, auto apart, auto dx, auto dy, auto dz, auto w, auto g) HWY_ATTR {
              viscous_x = AddWhere(near, viscous_x,
                                   hn::Mul(hn::Sub(hn::GatherIndex(d, velocity[0], j), vx), w));
              viscous_y = AddWhere(near, viscous_y,
                                   hn::Mul(hn::Sub(hn::GatherIndex(d, velocity[1], j), vy), w));
              viscous_z = AddWhere(near, viscous_z,
                                   hn::Mul(hn::Sub(hn::GatherIndex(d, velocity[2], j), vz), w));
              const auto strength = hn::Mul(hn::GatherIndex(d, omega.w(), j), g);
              eta_x = AddWhere(apart, eta_x, hn::Mul(strength, dx));
              eta_y = AddWhere(apart, eta_y, hn::Mul(strength, dy));
              eta_z = AddWhere(apart, eta_z, hn::Mul(strength, dz));
            });
        // eta points from the particle towards stronger vorticity (the gradient's direction here is
        // towards the neighbours); N is its direction, or none.
        const auto length = hn::Sqrt(
            hn::Add(hn::Add(hn::Mul(eta_x, eta_x), hn::Mul(eta_y, eta_y)), hn::Mul(eta_z, eta_z)));
        const auto some = hn::Gt(length, zero);
        const auto nx = hn::IfThenElseZero(some, hn::Div(eta_x, length));
        const auto ny = hn::IfThenElseZero(some, hn::Div(eta_y, length));
        const auto nz = hn::IfThenElseZero(some, hn::Div(eta_z, length));
        const auto wx = hn::LoadU(d, omega.x() + s);
        const auto wy = hn::LoadU(d, omega.y() + s);
        const auto wz = hn::LoadU(d, omega.z() + s);
        const auto confined = [&](auto own, auto a, auto b, auto c, auto e, auto viscous) HWY_ATTR {
          // own + dt (eps (a c - b e)) + c_xsph (V viscous): confinement N x omega, one axis.
          const auto confinement = hn::Sub(hn::Mul(a, c), hn::Mul(b, e));
          return hn::Add(hn::Add(own, hn::Mul(dt, hn::Mul(vorticity, confinement))),
                         hn::Mul(viscosity, hn::Mul(volume, viscous)));
        };
        store(confined(vx, ny, nz, wz, wy, viscous_x), d, new_velocities.x() + s);
        store(confined(vy, nz, nx, wx, wz, viscous_y), d, new_velocities.y() + s);
        store(confined(vz, nx, ny, wy, wx, viscous_z), d, new_velocities.z() + s);
        store(hn::LoadU(d, velocities.w() + s), d, new_velocities.w() + s);
      });
}

inline DisplacementBounds FindDisplacementBoundsImpl(const ConstVec4View& from,
                                                     const ConstVec4View& to) {
  DisplacementBounds bounds;
  if (to.count == 0) return bounds;
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  for (size_t axis = 0; axis < 3; ++axis) {
    const float* HWY_RESTRICT a = from.Lane(axis);
    const float* HWY_RESTRICT b = to.Lane(axis);
    // Lanes past the count repeat the first displacement, which changes neither extreme.
    const auto first = hn::Set(d, b[0] - a[0]);
    auto low = first;
    auto high = first;
    auto finite = hn::IsFinite(first);
    for (size_t i = 0; i < to.count; i += lanes) {
      const auto moved = hn::IfThenElse(hn::FirstN(d, to.count - i),
                                        hn::Sub(hn::LoadU(d, b + i), hn::LoadU(d, a + i)), first);
      finite = hn::And(finite, hn::IsFinite(moved));
      // Compare and select, not Min and Max (whose NaN rules differ by ISA); NaN is caught above.
      low = hn::IfThenElse(hn::Lt(moved, low), moved, low);
      high = hn::IfThenElse(hn::Gt(moved, high), moved, high);
    }
    bounds.finite = bounds.finite && hn::AllTrue(d, finite);
    // low and high hold no NaN (selects never take one), where every target's Min and Max agree.
    bounds.min[axis] = hn::GetLane(hn::MinOfLanes(d, low));
    bounds.max[axis] = hn::GetLane(hn::MaxOfLanes(d, high));
  }
  return bounds;
}

inline void PositionsToVelocitiesImpl(const ConstVec4View& old_positions,
                                      const ConstVec4View& new_positions, float dt_seconds,
                                      const Vec4View& velocities) {
  const hn::ScalableTag<float> d;
  const auto dt = hn::Set(d, dt_seconds);
  ForEachVector(d, velocities.count, [&](size_t i, auto store) HWY_ATTR {
    for (size_t axis = 0; axis < 3; ++axis) {
      const auto moved = hn::Sub(hn::LoadU(d, new_positions.Lane(axis) + i),
                                 hn::LoadU(d, old_positions.Lane(axis) + i));
      store(hn::Div(moved, dt), d, velocities.Lane(axis) + i);
    }
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_PARTICLE_INTERACTIONS_INL_H_
