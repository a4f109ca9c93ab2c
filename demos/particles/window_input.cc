#include "demos/particles/window_input.h"

namespace swarm {
namespace {

void HandleKey(SDL_Keycode key, FrameInput& input) {
  switch (key) {
    case SDLK_ESCAPE:
    case SDLK_q:
      input.quit = true;
      break;
    case SDLK_SPACE:
      input.toggle_pause = !input.toggle_pause;
      break;
    case SDLK_r:
      input.restart = true;
      break;
    case SDLK_1:
    case SDLK_2:
    case SDLK_3:
    case SDLK_4:
    case SDLK_5:
    case SDLK_6:
    case SDLK_7:
    case SDLK_8:
      input.scene_index = static_cast<size_t>(key - SDLK_1);
      break;
    case SDLK_t:
      input.next_simd_target = true;
      break;
    case SDLK_PLUS:
    case SDLK_EQUALS:  // '+' without shift on most layouts
    case SDLK_KP_PLUS:
      ++input.particle_doublings;
      break;
    case SDLK_MINUS:
    case SDLK_KP_MINUS:
      --input.particle_doublings;
      break;
    case SDLK_h:
      input.toggle_hud = !input.toggle_hud;
      break;
    case SDLK_c:
      input.cycle_coloring = !input.cycle_coloring;
      break;
    default:
      break;
  }
}

}  // namespace

FrameInput PollFrameInput() {
  FrameInput input;
  SDL_Event event;
  while (SDL_PollEvent(&event) != 0) {
    switch (event.type) {
      case SDL_QUIT:
        input.quit = true;
        break;
      case SDL_KEYDOWN:
        if (event.key.repeat == 0) HandleKey(event.key.keysym.sym, input);
        break;
      case SDL_MOUSEMOTION:
        if ((event.motion.state & SDL_BUTTON_MMASK) != 0) {
          input.orbit_dx_pixels += static_cast<float>(event.motion.xrel);
          input.orbit_dy_pixels += static_cast<float>(event.motion.yrel);
        }
        break;
      case SDL_MOUSEWHEEL: {
        const float steps = event.wheel.preciseY;
        input.zoom_steps += event.wheel.direction == SDL_MOUSEWHEEL_FLIPPED ? -steps : steps;
        break;
      }
      case SDL_WINDOWEVENT:
        if (event.window.event == SDL_WINDOWEVENT_SIZE_CHANGED) input.window_resized = true;
        break;
      default:
        break;
    }
  }
  int x = 0;
  int y = 0;
  const uint32_t buttons = SDL_GetMouseState(&x, &y);
  input.attract = (buttons & SDL_BUTTON_LMASK) != 0;
  input.repel = !input.attract && (buttons & SDL_BUTTON_RMASK) != 0;
  input.mouse_x = static_cast<float>(x);
  input.mouse_y = static_cast<float>(y);
  return input;
}

}  // namespace swarm
