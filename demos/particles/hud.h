// The HUD: text lines rendered with SDL2_ttf into one texture drawn over the frame's top-left
// corner on a translucent panel. Rendering text is slow next to a frame, so the window updates
// the lines a few times per second and draws the cached texture in between.
#pragma once

#include <SDL.h>
#include <SDL_ttf.h>

#include <memory>
#include <string>
#include <vector>

namespace swarm {

class Hud {
 public:
  // Null, after printing one warning line to stderr, if SDL_ttf cannot start or the font cannot
  // be opened: the demo then runs without a HUD.
  static std::unique_ptr<Hud> Create(SDL_Renderer* renderer, const std::string& font_path);
  ~Hud();
  Hud(const Hud&) = delete;
  Hud& operator=(const Hud&) = delete;

  // Renders `lines` into the cached texture (keeps the old one if SDL fails).
  void SetLines(const std::vector<std::string>& lines);
  void Draw() const;

  static constexpr int kPointSize = 13;

 private:
  Hud(SDL_Renderer* renderer, TTF_Font* font) : renderer_(renderer), font_(font) {}

  SDL_Renderer* renderer_;
  TTF_Font* font_;
  SDL_Texture* texture_ = nullptr;
  int texture_width_ = 0;
  int texture_height_ = 0;
};

}  // namespace swarm
