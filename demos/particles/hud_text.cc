#include "demos/particles/hud_text.h"

#include <cstdio>

namespace swarm {
namespace {

std::string Format(const char* format, auto... values) {
  char text[256];
  std::snprintf(text, sizeof(text), format, values...);
  return text;
}

// Messages (budget errors) can be longer than the panel is wide: break them between words.
constexpr size_t kMessageColumns = 90;

void WrapWords(const std::string& text, size_t columns, std::vector<std::string>& lines) {
  std::string line;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find(' ', begin);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(begin, end - begin);
    if (!line.empty() && line.size() + 1 + word.size() > columns) {
      lines.push_back(line);
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    begin = end + 1;
  }
  if (!line.empty()) lines.push_back(line);
}

}  // namespace

std::string GroupThousands(size_t value) {
  std::string digits = std::to_string(value);
  for (size_t position = digits.size(); position > 3; position -= 3) {
    digits.insert(position - 3, 1, ',');
  }
  return digits;
}

std::vector<std::string> HudLines(const HudState& state) {
  const FrameTimes& ms = state.smoothed;
  const double frame_ms = ms[FrameStage::kFrame];
  std::vector<std::string> lines;
  lines.push_back(Format("FPS %.1f (%.2f ms/frame)%s", frame_ms > 0 ? 1000.0 / frame_ms : 0.0,
                         frame_ms, state.paused ? "   [paused]" : ""));
  lines.push_back(Format("scene %s   particles %s   threads %zu   SIMD %s", SceneName(state.scene),
                         GroupThousands(state.particles).c_str(), state.threads,
                         state.simd.c_str()));
  lines.push_back(
      Format("ms  physics %.2f  transform %.2f  splat %.2f  glow %.2f  tonemap %.2f  upload %.2f",
             ms[FrameStage::kPhysics], ms[FrameStage::kTransform], ms[FrameStage::kSplat],
             ms[FrameStage::kGlow], ms[FrameStage::kTonemap], ms[FrameStage::kUpload]));
  if (state.interacting) {
    lines.push_back(
        Format("neighbours %.2f ms  interactions %.2f ms (last substep)  %.1f per particle",
               state.neighbor_ms, state.interaction_ms, state.average_neighbors));
  }
  lines.push_back(
      Format("colour by %s", state.coloring == ParticleColoring::kSpeed ? "speed" : "age"));
  size_t begin = 0;
  while (begin < state.memory_report.size()) {
    size_t end = state.memory_report.find('\n', begin);
    if (end == std::string::npos) end = state.memory_report.size();
    lines.push_back(state.memory_report.substr(begin, end - begin));
    begin = end + 1;
  }
  lines.push_back(
      "1-8 scene  space pause  R reset  T SIMD  +/- particles  C colour  H HUD  Q quit");
  lines.push_back("left drag attract  right drag repel  middle drag orbit  wheel zoom");
  WrapWords(state.message, kMessageColumns, lines);
  return lines;
}

}  // namespace swarm
