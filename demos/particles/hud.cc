#include "demos/particles/hud.h"

#include <algorithm>
#include <cstdio>

#include "swarm/core/input_file.h"

namespace swarm {
namespace {

constexpr int kMargin = 8;   // pixels between the window edge and the panel
constexpr int kPadding = 6;  // pixels between the panel edge and the text
constexpr SDL_Color kTextColor{235, 235, 235, 255};

}  // namespace

std::unique_ptr<Hud> Hud::Create(SDL_Renderer* renderer, const std::string& font_path) {
  // TTF_Init counts its calls; each Hud balances its own with TTF_Quit.
  if (TTF_Init() != 0) {
    std::fprintf(stderr, "swarm-particles: warning: no HUD: SDL_ttf: %s\n", TTF_GetError());
    return nullptr;
  }
  // SDL_ttf opens the path itself, which would block forever on a FIFO without a writer: the
  // path is first opened by swarm's input rules (swarm/core/input_file.h), and only a regular
  // file is handed on.
  Result<InputFile> input = OpenInputFile(font_path, "font file");
  if (!input.ok() || !input->regular) {
    std::fprintf(stderr, "swarm-particles: warning: no HUD: %s\n",
                 input.ok() ? ("font file '" + font_path + "' is not a regular file").c_str()
                            : input.status().message().c_str());
    TTF_Quit();
    return nullptr;
  }
  TTF_Font* font = TTF_OpenFont(font_path.c_str(), kPointSize);
  if (font == nullptr) {
    std::fprintf(stderr, "swarm-particles: warning: no HUD: cannot open font %s: %s\n",
                 font_path.c_str(), TTF_GetError());
    TTF_Quit();
    return nullptr;
  }
  return std::unique_ptr<Hud>(new Hud(renderer, font));
}

Hud::~Hud() {
  if (texture_ != nullptr) SDL_DestroyTexture(texture_);
  TTF_CloseFont(font_);
  TTF_Quit();
}

void Hud::SetLines(const std::vector<std::string>& lines) {
  const int line_height = TTF_FontLineSkip(font_);
  int width = 1;
  for (const std::string& line : lines) {
    int line_width = 0;
    if (!line.empty() && TTF_SizeUTF8(font_, line.c_str(), &line_width, nullptr) == 0) {
      width = std::max(width, line_width);
    }
  }
  const int height = std::max(1, line_height * static_cast<int>(lines.size()));
  SDL_Surface* panel =
      SDL_CreateRGBSurfaceWithFormat(0, width, height, 32, SDL_PIXELFORMAT_ARGB8888);
  if (panel == nullptr) return;
  SDL_FillRect(panel, nullptr, SDL_MapRGBA(panel->format, 0, 0, 0, 0));
  int y = 0;
  for (const std::string& line : lines) {
    if (!line.empty()) {
      SDL_Surface* text = TTF_RenderUTF8_Blended(font_, line.c_str(), kTextColor);
      if (text != nullptr) {
        SDL_SetSurfaceBlendMode(text, SDL_BLENDMODE_NONE);
        SDL_Rect where{0, y, text->w, text->h};
        SDL_BlitSurface(text, nullptr, panel, &where);
        SDL_FreeSurface(text);
      }
    }
    y += line_height;
  }
  SDL_Texture* texture = SDL_CreateTextureFromSurface(renderer_, panel);
  SDL_FreeSurface(panel);
  if (texture == nullptr) return;
  SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND);
  if (texture_ != nullptr) SDL_DestroyTexture(texture_);
  texture_ = texture;
  texture_width_ = width;
  texture_height_ = height;
}

void Hud::Draw() const {
  if (texture_ == nullptr) return;
  SDL_SetRenderDrawBlendMode(renderer_, SDL_BLENDMODE_BLEND);
  SDL_SetRenderDrawColor(renderer_, 0, 0, 0, 160);
  const SDL_Rect panel{kMargin, kMargin, texture_width_ + 2 * kPadding,
                       texture_height_ + 2 * kPadding};
  SDL_RenderFillRect(renderer_, &panel);
  const SDL_Rect text{kMargin + kPadding, kMargin + kPadding, texture_width_, texture_height_};
  SDL_RenderCopy(renderer_, texture_, nullptr, &text);
}

}  // namespace swarm
