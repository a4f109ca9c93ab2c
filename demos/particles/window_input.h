// Keyboard, mouse and window events of one frame, reduced to what the demo should do.
//
//   Esc, Q      quit                    space   pause / resume
//   R           restart the scene       1-8     switch scene (restarts it)
//   T           next SIMD target        + / -   double / halve the particle count
//   H           show / hide the HUD     C       colour by speed / age
//   left button attractor at the mouse  right   repulsor at the mouse
//   middle drag orbit the camera        wheel   zoom
#pragma once

#include <SDL.h>

#include <cstddef>
#include <optional>

namespace swarm {

struct FrameInput {
  bool quit = false;
  bool toggle_pause = false;
  bool restart = false;
  std::optional<size_t> scene_index;  // 0-based
  bool next_simd_target = false;
  int particle_doublings = 0;  // +1 per '+', -1 per '-'
  bool toggle_hud = false;
  bool cycle_coloring = false;
  bool window_resized = false;
  float orbit_dx_pixels = 0;
  float orbit_dy_pixels = 0;
  float zoom_steps = 0;
  // The pointer's force, from the buttons held at the end of the frame's events.
  bool attract = false;
  bool repel = false;
  float mouse_x = 0;
  float mouse_y = 0;
};

// Drains SDL's event queue.
FrameInput PollFrameInput();

}  // namespace swarm
