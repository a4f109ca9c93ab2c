// Ready-made interacting systems for a box: the configurations of the particle demo's fluid,
// granular and flock scenes, sized by the particle count so that any count fills the same volume
// (the spacing, radii and view radius shrink as the count grows). Start from one and change what
// you need; every value is an ordinary ParticleConfig field.
#pragma once

#include <cstddef>

#include "swarm/particles/particle_system.h"

namespace swarm {

// A dam break: a block of water 7/20 of the box's width deep along x, 0.4 of its height tall and
// as wide as the box, against the -x wall, falls and runs across the floor. Position Based
// Fluids, kernel radius two particle spacings (about 30 neighbours), 4 iterations.
ParticleConfig DamBreakPreset(const BoxParams& box, size_t particles);

// A sand dump: a block of grains 0.8 of the box's width and depth, a quarter of its height tall,
// its base a tenth of the height up, collapses onto the floor into a pile. Grains of radius
// 0.45-0.55 lattice spacings, contacts stiff enough that a settled pile presses them by about a
// tenth of a radius, 6 substeps per 1/60 s step (a tenth of the contact time each).
ParticleConfig SandDumpPreset(const BoxParams& box, size_t particles);

// A flock: boids born all through the box at random, 2-5 m/s, seeing ~30 others at the flock's
// mean density, keeping apart within 40% of that radius, turning away from the walls.
ParticleConfig FlockPreset(const BoxParams& box, size_t particles);

}  // namespace swarm
