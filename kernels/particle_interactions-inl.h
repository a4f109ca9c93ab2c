// Per-target code of the particle interaction kernels (see kernels/particle_interactions.h).
// Each kernel is a "pass" over particles by cell (ForEachParticleByCell): Begin clears its sums,
// Scan adds the neighbours' terms a vector of candidates at a time into 16 virtual-lane partial
// sums, Finish combines them (fixed tree) and writes the particle's outputs in scalar code.
// Masked lanes (not neighbours) may compute NaN or inf on the way; selects discard them.

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
#include "swarm/kernels/loop-inl.h"
#include "swarm/kernels/neighbor_scan-inl.h"
#include "swarm/kernels/particle_interactions.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// --- Granular contact ----------------------------------------------------------------------------

struct GranularPass {
  enum Field { kX, kY, kZ, kVx, kVy, kVz, kRadius, kMass, kFieldCount };
  const float* HWY_RESTRICT px;
  const float* HWY_RESTRICT py;
  const float* HWY_RESTRICT pz;
  const float* HWY_RESTRICT vx;
  const float* HWY_RESTRICT vy;
  const float* HWY_RESTRICT vz;
  const float* HWY_RESTRICT radius;
  const float* HWY_RESTRICT mass;
  float* HWY_RESTRICT fx;
  float* HWY_RESTRICT fy;
  float* HWY_RESTRICT fz;
  float* HWY_RESTRICT counts;  // null: not counted
  float radius_squared;
  float stiffness;
  float twice_damping_ratio;
  float friction;
  float tangential_damping;
  LaneSums<4> sums;  // force x, y, z; neighbours

  void Begin(size_t) { sums.Clear(); }

  void Scan(const CandidateFields<kFieldCount>& candidates, size_t s) {
    const ScanTag d;
    const auto one = hn::Set(d, 1.0f);
    const auto own_radius = hn::Set(d, radius[s]);
    const auto own_mass = hn::Set(d, mass[s]);
    const auto own_vx = hn::Set(d, vx[s]);
    const auto own_vy = hn::Set(d, vy[s]);
    const auto own_vz = hn::Set(d, vz[s]);
    const auto k = hn::Set(d, stiffness);
    const auto beta = hn::Set(d, twice_damping_ratio);
    const auto mu = hn::Set(d, friction);
    const auto gamma = hn::Set(d, tangential_damping);
    const auto zero = hn::Zero(d);
    ForEachNearCandidate(
        candidates, px[s], py[s], pz[s], radius_squared, static_cast<int32_t>(s),
        [&](size_t j, size_t slot, auto near, auto dx, auto dy, auto dz,
            auto distance_squared) HWY_ATTR {
          const auto reach = hn::Add(own_radius, hn::Load(d, candidates.field[kRadius] + j));
          const auto touching =
              hn::And(near, hn::And(hn::Lt(distance_squared, hn::Mul(reach, reach)),
                                    hn::Gt(distance_squared, zero)));
          const auto distance = hn::Sqrt(distance_squared);
          // n points from the candidate to the particle: -d / |d|.
          const auto nx = hn::Div(hn::Neg(dx), distance);
          const auto ny = hn::Div(hn::Neg(dy), distance);
          const auto nz = hn::Div(hn::Neg(dz), distance);
          const auto overlap = hn::Sub(reach, distance);
          const auto rvx = hn::Sub(own_vx, hn::Load(d, candidates.field[kVx] + j));
          const auto rvy = hn::Sub(own_vy, hn::Load(d, candidates.field[kVy] + j));
          const auto rvz = hn::Sub(own_vz, hn::Load(d, candidates.field[kVz] + j));
          const auto vn = hn::Add(hn::Add(hn::Mul(rvx, nx), hn::Mul(rvy, ny)), hn::Mul(rvz, nz));
          const auto other_mass = hn::Load(d, candidates.field[kMass] + j);
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
          const auto scale =
              hn::IfThenElse(hn::Gt(sliding, zero), hn::Div(limited, sliding), zero);
          sums.Add(d, 0, slot, touching, hn::Sub(hn::Mul(normal, nx), hn::Mul(scale, tx)));
          sums.Add(d, 1, slot, touching, hn::Sub(hn::Mul(normal, ny), hn::Mul(scale, ty)));
          sums.Add(d, 2, slot, touching, hn::Sub(hn::Mul(normal, nz), hn::Mul(scale, tz)));
          sums.Add(d, 3, slot, near, one);
        });
  }

  void Finish(size_t s) {
    fx[s] = sums.Total(0);
    fy[s] = sums.Total(1);
    fz[s] = sums.Total(2);
    if (counts != nullptr) counts[s] = sums.Total(3);
  }
};

inline void GranularForcesImpl(const SortedGrid& grid, float radius,
                               const ConstVec4View& velocities, const ConstFloatView& radii,
                               const ConstFloatView& masses, const GranularParams& params,
                               float twice_damping_ratio, size_t begin, size_t end,
                               const Vec4View& forces, const FloatView& neighbor_counts) {
  GranularPass pass{grid.points.x(),
                    grid.points.y(),
                    grid.points.z(),
                    velocities.x(),
                    velocities.y(),
                    velocities.z(),
                    radii.data,
                    masses.data,
                    forces.x(),
                    forces.y(),
                    forces.z(),
                    neighbor_counts.data,
                    radius * radius,
                    params.stiffness,
                    twice_damping_ratio,
                    params.friction,
                    params.tangential_damping,
                    {}};
  const float* const sources[GranularPass::kFieldCount] = {pass.px, pass.py, pass.pz,
                                                           pass.vx, pass.vy, pass.vz,
                                                           pass.radius, pass.mass};
  ForEachParticleByCell(grid, begin, end, sources, pass);
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

  void Begin(size_t) { sums.Clear(); }

  void Scan(const CandidateFields<kFieldCount>& candidates, size_t s) {
    const ScanTag d;
    const auto one = hn::Set(d, 1.0f);
    const auto zero = hn::Zero(d);
    const auto separation_squared =
        hn::Set(d, params->separation_radius * params->separation_radius);
    ForEachNearCandidate(
        candidates, position[0][s], position[1][s], position[2][s],
        params->view_radius * params->view_radius, static_cast<int32_t>(s),
        [&](size_t j, size_t slot, auto near, auto dx, auto dy, auto dz,
            auto distance_squared) HWY_ATTR {
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
  const float* const sources[FlockPass::kFieldCount] = {
      pass.position[0], pass.position[1], pass.position[2],
      pass.velocity[0], pass.velocity[1], pass.velocity[2]};
  ForEachParticleByCell(grid, begin, end, sources, pass);
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_PARTICLE_INTERACTIONS_INL_H_
