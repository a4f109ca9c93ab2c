// Particle interaction kernels: granular contact (DEM), flocking (boids) and fluids (Position
// Based Fluids), over particles stored in cell order.
//
// The particles are stored in a neighbour grid's cell order (the engine sorts their storage with
// NeighborGrid::ReorderInto), so a cell's particles are contiguous and its 27 cells' particles
// ("candidates") are a few contiguous runs. A kernel computes its outputs for particles
// [begin, end) (any split over threads) and reads every particle's inputs; outputs must not alias
// inputs. A particle's neighbours are the particles other than itself within the kernel's radius,
// by the float test dx*dx + dy*dy + dz*dz <= radius^2, found in one of two ways:
// - the flock and fluid kernels read a SortedGrid over the positions and scan each particle's
//   candidates; sums over neighbours run in candidate order with 16 fixed partial sums
//   (kernels/particles/neighbor_scan-inl.h);
// - granular contact reads neighbour lists in blocks
// (swarm/kernels/particles/neighbor_block_layout.h), which may list
//   particles somewhat beyond the radius (a skin, so lists outlive several substeps: the many
//   substeps of stiff contacts would otherwise rebuild the grid at each); each particle sums over
//   its list in ascending order in its own vector lane.
// Either way every kernel gives the same bits on every SIMD target and thread count.
// References (double precision, brute force, every pair visited without a grid): the kernels' test,
// tests/kernels/particles/interaction_kernels_test.cc.
#pragma once

#include <cmath>
#include <cstddef>
#include <glm/vec3.hpp>

#include "swarm/kernels/base/views.h"
#include "swarm/kernels/particles/integrate.h"
#include "swarm/kernels/particles/neighbor_block_layout.h"
#include "swarm/kernels/particles/neighbor_search.h"

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
// [begin, end) (begin a multiple of kBlockLanes). radius (<= the lists') must be at least twice the
// largest particle radius.
void GranularForces(const ConstVec4View& positions, const NeighborBlocksView& blocks, float radius,
                    const ConstVec4View& velocities, const ConstFloatView& radii,
                    const ConstFloatView& masses, const GranularParams& params, size_t begin,
                    size_t end, const Vec4View& forces, const FloatView& neighbor_counts);

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
void SteerFlock(const SortedGrid& grid, const ConstVec4View& velocities, const FlockParams& params,
                float dt_seconds, size_t begin, size_t end, const Vec4View& new_velocities,
                const FloatView& neighbor_counts);

// --- Fluids: Position Based Fluids (Macklin and Mueller 2013) ------------------------------------
// Kernels of radius h: poly6 W(r) = 315 / (64 pi h^9) (h^2 - r^2)^3 for densities and the spiky
// gradient grad W(r) = -45 / (pi h^6) (h - |r|)^2 r / |r| for everything else. Each step predicts
// positions p* = p + (v + g dt) dt, then `iterations` times:
//   density     rho_i = m (W(0) + sum_j W(p*_i - p*_j)),  C_i = max(rho_i / rho_0 - 1, 0)
//               (a compressed particle is pushed apart; a free surface does not pull);
//   lambda_i    = -C_i a_i, with the compliance a_i = 1 / (|(m / rho_0) sum_j grad W_ij|^2
//                 + sum_j |(m / rho_0) grad W_ij|^2 + relaxation)   (FluidLambdas)
//   correction  p*_i += (m / rho_0) sum_j (lambda_i + lambda_j + s_corr) grad W_ij, clamped to
//               the box, with the artificial pressure s_corr = -k (W(r_ij) / W(q h))^n
//               (a_i + a_j) / 2: a constraint error scaled like lambda, so k does not depend on
//               the particle size (the paper's k = 0.1 assumes its own units)  (FluidCorrections);
// then v = (p* - p) / dt, the vorticity omega_i = V sum_j grad W_ij x (v_j - v_i)
// (FluidVorticity), and the final velocity v_i + dt eps (N x omega_i) + c V sum_j (v_j - v_i) W_ij
// with N = eta / |eta|, eta = sum_j |omega_j| grad W_ij (vorticity confinement and XSPH
// viscosity, FluidViscosity); V = m / rho_0 is a particle's volume, which makes c and eps
// independent of the particle size.
struct FluidParams {
  float kernel_radius = 0.1f;        // h, m (<= the lists' radius)
  float rest_density = 1000.0f;      // rho_0, kg/m^3
  float particle_mass = 1.0f;        // m, kg (rho_0 s^3 for particles s apart)
  float relaxation = 100.0f;         // constraint relaxation, 1/m^2 (CFM)
  float artificial_pressure = 0.1f;  // k
  float pressure_exponent = 4.0f;    // n (a whole number: n multiplications)
  float pressure_distance = 0.2f;    // q, a fraction of h
  float viscosity = 0.01f;           // c (XSPH)
  float vorticity = 0.0f;            // eps: confinement strength (0: none), tuned per scene
  int iterations = 4;
};
// lambdas[s], compliances[s] and densities[s] (and neighbor_counts[s], if it has data) for s
// in [begin, end) from the predicted positions.
void FluidLambdas(const ConstVec4View& predicted, const NeighborBlocksView& blocks,
                  const FluidParams& params, size_t begin, size_t end, const FloatView& lambdas,
                  const FloatView& compliances, const FloatView& densities,
                  const FloatView& neighbor_counts);
// corrected[s] = predicted[s] moved by its density correction and clamped to `box`
// (lane w copied), for s in [begin, end).
void FluidCorrections(const ConstVec4View& predicted, const NeighborBlocksView& blocks,
                      const ConstFloatView& lambdas, const ConstFloatView& compliances,
                      const FluidParams& params, const BoxParams& box, size_t begin, size_t end,
                      const Vec4View& corrected);
// omega[s] (x, y, z) = the vorticity at particle s, omega[s].w = |omega[s]|.
void FluidVorticity(const ConstVec4View& predicted, const NeighborBlocksView& blocks,
                    const ConstVec4View& velocities, const FluidParams& params, size_t begin,
                    size_t end, const Vec4View& omega);
// velocities = (new_positions - old_positions) / dt, lanes x, y, z, for every particle.
void PositionsToVelocities(const ConstVec4View& old_positions, const ConstVec4View& new_positions,
                           float dt_seconds, const Vec4View& velocities);
// new_velocities[s] = velocities[s] with vorticity confinement and XSPH viscosity (lane w
// copied).
void FluidViscosity(const ConstVec4View& predicted, const NeighborBlocksView& blocks,
                    const ConstVec4View& velocities, const ConstVec4View& omega,
                    const FluidParams& params, float dt_seconds, size_t begin, size_t end,
                    const Vec4View& new_velocities);

// The box of the particles' displacements from `from` to `to` (lanes x, y, z), and whether they
// are all finite: how far neighbour lists of a skin have aged. Pairs drift apart or together by
// at most the box's diagonal, however far the particles moved together.
struct DisplacementBounds {
  float min[3] = {HUGE_VALF, HUGE_VALF, HUGE_VALF};
  float max[3] = {-HUGE_VALF, -HUGE_VALF, -HUGE_VALF};
  bool finite = true;
};
DisplacementBounds FindDisplacementBounds(const ConstVec4View& from, const ConstVec4View& to);

}  // namespace swarm
