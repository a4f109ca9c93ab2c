// The SDL2 side of the window: an SDL_Window, its SDL_Renderer and one streaming ARGB8888 texture
// of the particle frame's size, which is drawn 1:1 over the whole output. Owns SDL for its
// lifetime: it initialises the video subsystem and shuts SDL down when destroyed.
#pragma once

#include <SDL.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "swarm/core/status.h"

namespace swarm {

class SdlDisplay {
 public:
  // Initialises SDL video and opens a resizable window whose drawable is width x height.
  // kUnavailable if there is no display (SDL_Init or window creation failed); the message says
  // why in SDL's words.
  static Result<std::unique_ptr<SdlDisplay>> Open(const std::string& title, size_t width,
                                                  size_t height);
  ~SdlDisplay();
  SdlDisplay(const SdlDisplay&) = delete;
  SdlDisplay& operator=(const SdlDisplay&) = delete;

  SDL_Renderer* renderer() const { return renderer_; }
  // The renderer's output size in pixels (the frame size the particle renderer should use).
  void OutputSize(size_t* width, size_t* height) const;

  // Recreates the texture if its size differs. Errors: SDL's.
  Status SetFrameSize(size_t width, size_t height);
  // Copies a frame of the texture's size, rows of `row_stride` pixels, into the texture.
  Status Upload(const uint32_t* pixels, size_t row_stride);
  // Clears and draws the texture over the whole output.
  void DrawFrame();
  // The output as drawn so far (call before Present): ARGB8888 rows of `width` pixels.
  Status ReadPixels(std::vector<uint32_t>* pixels, size_t* width, size_t* height);
  void Present();

 private:
  SdlDisplay() = default;

  SDL_Window* window_ = nullptr;
  SDL_Renderer* renderer_ = nullptr;
  SDL_Texture* texture_ = nullptr;
  size_t texture_width_ = 0;
  size_t texture_height_ = 0;
};

}  // namespace swarm
