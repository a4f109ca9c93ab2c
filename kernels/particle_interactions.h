// Particle interaction kernels: granular contact (DEM), flocking (boids) and fluids (Position
// Based Fluids), over particles stored in cell order.
//
// Every kernel reads a SortedGrid whose points are the particles' positions themselves: the
// engine sorts the particles' storage into the grid's cell order each step
// (NeighborGrid::ReorderInto), so a cell's particles are contiguous and its 27 cells' particles
// ("candidates") are a few contiguous runs. A kernel computes its outputs for particles
// [begin, end) (any split over threads) and reads every particle's inputs; outputs must not alias
// inputs.
//
// A particle's neighbours are its candidates other than itself within the kernel's radius
// (<= the grid's), by the float test dx*dx + dy*dy + dz*dz <= radius^2. Sums over neighbours run
// in candidate order with 16 fixed partial sums (kernels/neighbor_scan-inl.h), so every kernel
// gives the same bits on every SIMD target and thread count.
// References (double precision, brute force): kernels/particle_interactions_reference.h.
#pragma once

#include <cstddef>
#include <glm/vec3.hpp>

#include "swarm/kernels/integrate.h"
#include "swarm/kernels/neighbor_grid.h"
#include "swarm/kernels/views.h"

namespace swarm {

// --- Granular contact: soft spheres (Cundall and Strack 1979) -----------------------------------
// Spheres i and j of radii r_i, r_j at distance d < r_i + r_j overlap by delta = r_i + r_j - d.
// With n = (p_i - p_j) / d, relative velocity v = v_i - v_j, v_n = v . n, v_t = v - v_n n and
// effective mass m = m_i m_j / (m_i + m_j), the force on i is
//   normal      (k delta - c v_n) n,   c = 2 zeta sqrt(k m), zeta from the restitution e:
//               zeta = -ln e / sqrt(pi^2 + ln^2 e), so a head-on collision of two spheres ends
//               with relative speed e times the initial one, after a contact time
//               pi / (sqrt(k / m) sqrt(1 - zeta^2));
//   tangential  -min(mu |F_n|, gamma m |v_t|) v_t / |v_t|   (viscous sliding friction capped by
//               Coulomb's law);
// and j feels the opposite force (the same bits negated). Coincident centres (d = 0) exert none.
struct GranularParams {
  float stiffness = 5.0e3f;          // k, N/m
  float restitution = 0.5f;          // e, in (0, 1]
  float friction = 0.5f;             // mu >= 0
  float tangential_damping = 50.0f;  // gamma, 1/s
};
// 2 zeta for a restitution e in (0, 1] (the formula above, evaluated in double).
float TwiceDampingRatio(float restitution);
// forces[s] (x, y, z; w untouched) = sum of the contact forces on particle s, and, if
// neighbor_counts has data, neighbor_counts[s] = the particles within `radius`, for s in
// [begin, end). radius (<= the grid's) must be at least twice the largest particle radius.
void GranularForces(const SortedGrid& grid, float radius, const ConstVec4View& velocities,
                    const ConstFloatView& radii, const ConstFloatView& masses,
                    const GranularParams& params, size_t begin, size_t end,
                    const Vec4View& forces, const FloatView& neighbor_counts);

// v += (f / m) dt for particles [0, count) (w untouched): the forces' step before IntegrateEuler.
void ApplyForces(const Vec4View& velocities, const ConstVec4View& forces,
                 const ConstFloatView& masses, float dt_seconds);

// --- Flocking: boids (Reynolds 1987) ------------------------------------------------------------
// Neighbours are the boids within view_radius (<= the grid's radius). With k neighbours at
// offsets d_j = p_j - p_i and velocities v_j:
//   separation  -separation_weight * sum over |d_j| < separation_radius of d_j / |d_j|^2
//   alignment   alignment_weight * (mean v_j - v_i)
//   cohesion    cohesion_weight * mean d_j
//   walls       wall_weight * (wall_margin - distance) / wall_margin away from each wall of
//               `box` closer than wall_margin (obstacle avoidance of the box)
// summed into the steering acceleration. SteerFlock adds it to the velocities (v += a dt) and
// clamps the speed to [min_speed, max_speed]; IntegrateEuler and CollideBox move them after.
struct FlockParams {
  float view_radius = 1.0f;
  float separation_radius = 0.4f;
  float separation_weight = 4.0f;
  float alignment_weight = 2.0f;
  float cohesion_weight = 1.0f;
  float min_speed = 1.0f;
  float max_speed = 4.0f;
  float wall_margin = 1.0f;
  float wall_weight = 20.0f;
  BoxParams box;
};
// new_velocities[s] for s in [begin, end) from everyone's positions (the grid) and velocities
// (lane w copied); neighbor_counts[s] = the boids in view, if it has data.
void SteerFlock(const SortedGrid& grid, const ConstVec4View& velocities,
                const FlockParams& params, float dt_seconds, size_t begin, size_t end,
                const Vec4View& new_velocities, const FloatView& neighbor_counts);

}  // namespace swarm
