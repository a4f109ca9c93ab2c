// Per-frame stage timings of the particle demo: a smoothed average for the HUD and a window of
// recent frames for the mean / median summary printed at the end of a run.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace swarm {

// physics = every simulation step taken in the frame; transform, splat, glow, tonemap = the
// renderer's stages; upload = frame to texture (window only); frame = the whole frame.
enum class FrameStage : uint8_t { kPhysics, kTransform, kSplat, kGlow, kTonemap, kUpload, kFrame };
inline constexpr size_t kFrameStageCount = 7;
const char* FrameStageName(FrameStage stage);

struct FrameTimes {
  std::array<double, kFrameStageCount> milliseconds{};
  double& operator[](FrameStage stage) { return milliseconds[static_cast<size_t>(stage)]; }
  double operator[](FrameStage stage) const { return milliseconds[static_cast<size_t>(stage)]; }
};

struct StageSummary {
  double mean_ms = 0;
  double median_ms = 0;
};

class FrameTimingLog {
 public:
  // Keeps the last min(capacity, kMaxKeptFrames) frames (at least one); the only allocation is
  // here.
  explicit FrameTimingLog(uint64_t capacity);

  void Record(const FrameTimes& frame);

  // Exponential moving average over about kSmoothingFrames frames (the first frame seeds it).
  const FrameTimes& smoothed() const { return smoothed_; }
  size_t frames_recorded() const { return frames_recorded_; }
  size_t frames_kept() const { return kept_; }

  // Mean and median over the kept frames (zero if none). Sorts a copy: call it at the end.
  StageSummary Summarize(FrameStage stage) const;

  static constexpr double kSmoothingFrames = 30.0;
  static constexpr uint64_t kMaxKeptFrames = 36'000;  // ten minutes at 60 FPS, 2 MiB

 private:
  std::vector<FrameTimes> frames_;
  size_t next_ = 0;
  size_t kept_ = 0;
  size_t frames_recorded_ = 0;
  FrameTimes smoothed_;
};

}  // namespace swarm
