#include "demos/particles/sdl_display.h"

#include <unistd.h>

#include <cstdio>
#include <utility>

namespace swarm {
namespace {

Status SdlError(const std::string& what) {
  return Status(ErrorCode::kUnavailable, what + ": " + SDL_GetError());
}

// Holds back what is written to stderr while SDL picks a video driver. Without a display the
// backends SDL tries print their own complaints (libwayland: "error: XDG_RUNTIME_DIR is invalid
// or not set in the environment."), which read like a failure just before the demo says it runs
// headless. Release() passes the text on when a window will open, Discard() drops it when the
// demo falls back to headless and explains why itself.
class HeldStderr {
 public:
  HeldStderr() {
    std::fflush(stderr);
    held_ = std::tmpfile();
    saved_fd_ = held_ != nullptr ? dup(STDERR_FILENO) : -1;
    if (saved_fd_ >= 0) dup2(fileno(held_), STDERR_FILENO);
  }
  ~HeldStderr() { Discard(); }
  HeldStderr(const HeldStderr&) = delete;
  HeldStderr& operator=(const HeldStderr&) = delete;

  void Release() {
    if (!Restore()) return;
    std::rewind(held_);
    char chunk[512];
    size_t got = 0;
    while ((got = std::fread(chunk, 1, sizeof(chunk), held_)) > 0)
      std::fwrite(chunk, 1, got, stderr);
    Close();
  }
  void Discard() {
    Restore();
    Close();
  }

 private:
  bool Restore() {
    if (saved_fd_ < 0) return false;
    std::fflush(stderr);
    dup2(saved_fd_, STDERR_FILENO);
    close(saved_fd_);
    saved_fd_ = -1;
    return true;
  }
  void Close() {
    if (held_ != nullptr) std::fclose(held_);
    held_ = nullptr;
  }

  std::FILE* held_ = nullptr;
  int saved_fd_ = -1;
};

}  // namespace

Result<std::unique_ptr<SdlDisplay>> SdlDisplay::Open(const std::string& title, size_t width,
                                                     size_t height) {
  HeldStderr driver_messages;
  if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) return SdlError("cannot initialise SDL video");
  std::unique_ptr<SdlDisplay> display(new SdlDisplay());
  // Without a display SDL falls back to drivers that show nothing; the headless mode does that
  // job better (and says so).
  const std::string driver = SDL_GetCurrentVideoDriver();
  if (driver == "offscreen" || driver == "dummy" || driver == "evdev") {
    return Status(ErrorCode::kUnavailable,
                  "no display: SDL found only its '" + driver + "' video driver");
  }
  driver_messages.Release();
  // The frame is drawn 1:1; nearest sampling keeps it bit-exact should the output differ.
  SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "0");
  display->window_ =
      SDL_CreateWindow(title.c_str(), SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED,
                       static_cast<int>(width), static_cast<int>(height), SDL_WINDOW_RESIZABLE);
  if (display->window_ == nullptr) return SdlError("cannot open a window");
  display->renderer_ = SDL_CreateRenderer(display->window_, -1, SDL_RENDERER_PRESENTVSYNC);
  if (display->renderer_ == nullptr) {
    display->renderer_ = SDL_CreateRenderer(display->window_, -1, 0);
  }
  if (display->renderer_ == nullptr) return SdlError("cannot create an SDL renderer");
  if (Status s = display->SetFrameSize(width, height); !s.ok()) return s;
  return display;
}

SdlDisplay::~SdlDisplay() {
  if (texture_ != nullptr) SDL_DestroyTexture(texture_);
  if (renderer_ != nullptr) SDL_DestroyRenderer(renderer_);
  if (window_ != nullptr) SDL_DestroyWindow(window_);
  SDL_Quit();
}

void SdlDisplay::OutputSize(size_t* width, size_t* height) const {
  int w = 0;
  int h = 0;
  if (SDL_GetRendererOutputSize(renderer_, &w, &h) != 0 || w <= 0 || h <= 0) {
    *width = texture_width_;
    *height = texture_height_;
    return;
  }
  *width = static_cast<size_t>(w);
  *height = static_cast<size_t>(h);
}

Status SdlDisplay::SetFrameSize(size_t width, size_t height) {
  if (texture_ != nullptr && width == texture_width_ && height == texture_height_) return {};
  SDL_Texture* texture =
      SDL_CreateTexture(renderer_, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_STREAMING,
                        static_cast<int>(width), static_cast<int>(height));
  if (texture == nullptr) return SdlError("cannot create a streaming texture");
  if (texture_ != nullptr) SDL_DestroyTexture(texture_);
  texture_ = texture;
  texture_width_ = width;
  texture_height_ = height;
  return {};
}

Status SdlDisplay::Upload(const uint32_t* pixels, size_t row_stride) {
  if (SDL_UpdateTexture(texture_, nullptr, pixels,
                        static_cast<int>(row_stride * sizeof(uint32_t))) != 0) {
    return SdlError("cannot update the texture");
  }
  return {};
}

void SdlDisplay::DrawFrame() {
  SDL_SetRenderDrawColor(renderer_, 0, 0, 0, 255);
  SDL_RenderClear(renderer_);
  SDL_RenderCopy(renderer_, texture_, nullptr, nullptr);
}

Status SdlDisplay::ReadPixels(std::vector<uint32_t>* pixels, size_t* width, size_t* height) {
  OutputSize(width, height);
  pixels->resize(*width * *height);
  if (SDL_RenderReadPixels(renderer_, nullptr, SDL_PIXELFORMAT_ARGB8888, pixels->data(),
                           static_cast<int>(*width * sizeof(uint32_t))) != 0) {
    return SdlError("cannot read the window's pixels");
  }
  return {};
}

void SdlDisplay::Present() { SDL_RenderPresent(renderer_); }

}  // namespace swarm
