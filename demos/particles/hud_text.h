// The HUD's text, line by line: frame rate, smoothed stage times, what runs (scene, particles,
// SIMD target, threads, colouring) and the memory report. Plain strings, so it needs no SDL.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "demos/particles/frame_timings.h"
#include "demos/particles/scene.h"
#include "swarm/kernels/render/render.h"

namespace swarm {

struct HudState {
  FrameTimes smoothed;  // FrameTimingLog::smoothed()
  SceneKind scene = SceneKind::kFountain;
  size_t particles = 0;
  size_t threads = 1;
  std::string simd;  // "avx512 (AVX3)"
  ParticleColoring coloring = ParticleColoring::kSpeed;
  bool paused = false;
  // Interacting scenes: the neighbour stage (grid and sort) and the model's passes of the last
  // step, in ms, and the average neighbours per particle.
  bool interacting = false;
  double neighbor_ms = 0.0;
  double interaction_ms = 0.0;
  double average_neighbors = 0.0;
  std::string memory_report;  // MemoryAccountant::Report()
  std::string message;        // the latest notice (a refused resize, ...), or empty
};

std::vector<std::string> HudLines(const HudState& state);

// "1,000,000".
std::string GroupThousands(size_t value);

}  // namespace swarm
