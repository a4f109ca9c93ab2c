#include "demos/particles/frame_timings.h"

#include <algorithm>

#include "swarm/kernels/base/assert.h"

namespace swarm {
namespace {

constexpr const char* kStageNames[kFrameStageCount] = {"physics", "transform", "splat", "glow",
                                                       "tonemap", "upload",    "frame"};

}  // namespace

const char* FrameStageName(FrameStage stage) { return kStageNames[static_cast<size_t>(stage)]; }

FrameTimingLog::FrameTimingLog(uint64_t capacity)
    : frames_(static_cast<size_t>(std::clamp<uint64_t>(capacity, 1, kMaxKeptFrames))) {}

void FrameTimingLog::Record(const FrameTimes& frame) {
  frames_[next_] = frame;
  next_ = (next_ + 1) % frames_.size();
  kept_ = std::min(kept_ + 1, frames_.size());
  if (frames_recorded_ == 0) {
    smoothed_ = frame;
  } else {
    constexpr double kWeight = 1.0 / kSmoothingFrames;
    for (size_t stage = 0; stage < kFrameStageCount; ++stage) {
      smoothed_.milliseconds[stage] +=
          (frame.milliseconds[stage] - smoothed_.milliseconds[stage]) * kWeight;
    }
  }
  ++frames_recorded_;
}

StageSummary FrameTimingLog::Summarize(FrameStage stage) const {
  if (kept_ == 0) return {};
  std::vector<double> values;
  values.reserve(kept_);
  double sum = 0;
  for (size_t index = 0; index < kept_; ++index) {
    values.push_back(frames_[index][stage]);
    sum += values.back();
  }
  std::sort(values.begin(), values.end());
  const size_t middle = values.size() / 2;
  const double median =
      values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) * 0.5;
  return {sum / static_cast<double>(values.size()), median};
}

}  // namespace swarm
