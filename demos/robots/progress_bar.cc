#include "demos/robots/progress_bar.h"

#include <unistd.h>

#include <cmath>

namespace swarm {
namespace {

constexpr double kTerminalRedrawSeconds = 0.1;

}  // namespace

std::string FormatRate(double per_second) {
  static constexpr const char* kUnits[] = {"", " k", " M", " G", " T"};
  size_t unit = 0;
  while (per_second >= 1000.0 && unit + 1 < std::size(kUnits)) {
    per_second /= 1000.0;
    ++unit;
  }
  char text[32];
  if (unit == 0) {
    std::snprintf(text, sizeof(text), "%.0f", per_second);
  } else {
    std::snprintf(text, sizeof(text), per_second < 100.0 ? "%.3g%s" : "%.0f%s", per_second,
                  kUnits[unit]);
  }
  return text;
}

std::string FormatDuration(double seconds) {
  char text[32];
  if (!std::isfinite(seconds) || seconds < 0.0) return "?";
  if (seconds < 10.0) {
    std::snprintf(text, sizeof(text), "%.1f s", seconds);
  } else if (seconds < 60.0) {
    std::snprintf(text, sizeof(text), "%.0f s", seconds);
  } else if (seconds < 3600.0) {
    const long total = std::lround(seconds);
    std::snprintf(text, sizeof(text), "%ld min %02ld s", total / 60, total % 60);
  } else {
    const long minutes = std::lround(seconds / 60.0);
    std::snprintf(text, sizeof(text), "%ld h %02ld min", minutes / 60, minutes % 60);
  }
  return text;
}

std::string FormatProgress(uint64_t done_steps, uint64_t total_steps, uint64_t robots,
                           double elapsed_seconds, int bar_width) {
  const double fraction =
      total_steps == 0 ? 1.0 : static_cast<double>(done_steps) / static_cast<double>(total_steps);
  const int filled = static_cast<int>(fraction * bar_width);
  std::string text = "[";
  text.append(static_cast<size_t>(filled), '#');
  text.append(static_cast<size_t>(bar_width - filled), '-');
  char numbers[128];
  std::snprintf(numbers, sizeof(numbers), "] %3d%%  %llu/%llu steps",
                static_cast<int>(fraction * 100.0), static_cast<unsigned long long>(done_steps),
                static_cast<unsigned long long>(total_steps));
  text += numbers;
  if (done_steps > 0 && elapsed_seconds > 0.0) {
    const double rate =
        static_cast<double>(done_steps) * static_cast<double>(robots) / elapsed_seconds;
    const double remaining = elapsed_seconds / static_cast<double>(done_steps) *
                             static_cast<double>(total_steps - done_steps);
    text += "  " + FormatRate(rate) + " robot-steps/s  ETA " + FormatDuration(remaining);
  }
  return text;
}

ProgressBar::Mode ProgressBar::ModeFor(std::FILE* out, bool enabled) {
  if (!enabled) return Mode::kOff;
  return isatty(fileno(out)) ? Mode::kTerminal : Mode::kLines;
}

ProgressBar::ProgressBar(std::FILE* out, Mode mode, uint64_t total_steps, uint64_t robots)
    : out_(out),
      mode_(mode),
      total_steps_(total_steps),
      robots_(robots),
      start_(std::chrono::steady_clock::now()) {}

double ProgressBar::Elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void ProgressBar::Update(uint64_t done_steps) {
  switch (mode_) {
    case Mode::kOff:
      return;
    case Mode::kTerminal:
      if (Elapsed() - last_draw_seconds_ >= kTerminalRedrawSeconds) Draw(done_steps, false);
      return;
    case Mode::kLines:
      if (done_steps * 10 >= next_tenth_ * total_steps_ && done_steps < total_steps_) {
        while (done_steps * 10 >= next_tenth_ * total_steps_) ++next_tenth_;
        Draw(done_steps, false);
      }
      return;
  }
}

void ProgressBar::Finish(uint64_t done_steps) {
  if (mode_ == Mode::kOff) return;
  Draw(done_steps, true);
}

void ProgressBar::Draw(uint64_t done_steps, bool final) {
  const double elapsed = Elapsed();
  last_draw_seconds_ = elapsed;
  const std::string line = FormatProgress(done_steps, total_steps_, robots_, elapsed);
  if (mode_ == Mode::kTerminal) {
    // \033[K clears what a longer previous line left behind.
    std::fprintf(out_, "\r%s\033[K%s", line.c_str(), final ? "\n" : "");
  } else {
    std::fprintf(out_, "%s\n", line.c_str());
  }
  std::fflush(out_);
}

}  // namespace swarm
