// The stage list of swarm-vision and the pipeline that runs it over a PNG's planes, through the
// checked entry points of swarm/vision/vision_ops.h.
//
// Frames: every stage's output is an ImageBatch of copies x planes frames (frame index
// copy * planes + plane; copies = --batch N, or 1 for a single image), created in the first run
// and reused after, so repeated runs allocate nothing. A single image runs the single-image entry
// points frame by frame; a batch runs the batched entry points once per stage.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "demos/command_line/flags.h"
#include "swarm/core/memory.h"
#include "swarm/core/status.h"
#include "swarm/core/thread_pool.h"
#include "swarm/vision/image.h"
#include "swarm/vision/png.h"
#include "swarm/vision/vision_ops.h"

namespace swarm {

enum class StageKind : uint8_t {
  kGray,
  kGaussian,
  kBox,
  kSobelMagnitude,
  kPyramidDown,
  kThreshold,
  kTruncate,
  kToF32,  // implicit: the u8 input converted to f32 (unless --u8)
  kToU8,   // implicit: f32 pixels rounded and saturated to u8 for the PNG
};

struct Stage {
  StageKind kind;
  std::string name;  // as printed: "gaussian 5:1", "sobel-mag", ...
  size_t ksize = 0;
  double sigma = 0;
  double value = 0;  // threshold / truncate level
};

// The stage flags among `flags` (FlagSet::parsed(), command-line order) in order, with their
// values parsed; an error names the flag and the value.
Result<std::vector<Stage>> ParseStages(const std::vector<FlagSet::ParsedFlag>& flags);

struct PipelineOptions {
  bool u8 = false;     // keep u8 pixels where u8 kernels exist
  uint64_t batch = 0;  // 0: single image; N: a batch of N copies, batched entry points
};

struct StageTiming {
  std::string name;
  const char* type;  // "f32" or "u8": the pixel type the stage read
  size_t frames;
  size_t width;  // of the stage's input
  size_t height;
  double milliseconds;
};

class Pipeline {
 public:
  Pipeline(MemoryAccountant& memory, ThreadPool& pool, PipelineOptions options,
           std::vector<Stage> stages);

  // Runs every stage on `input`; the first run creates the buffers (and may fail on the budget).
  Result<std::vector<StageTiming>> Run(const PlanarImage& input);
  // Writes frame set 0 of the last run's output as a gray, RGB or RGBA PNG.
  Status Save(MemoryAccountant& memory, const std::string& path) const;

  size_t output_width() const { return buffers_.empty() ? 0 : buffers_.back().width(); }
  size_t output_height() const { return buffers_.empty() ? 0 : buffers_.back().height(); }

  // The frames a stage reads or writes: u8 or f32, copies x planes.
  struct Frames {
    bool is_u8 = true;
    size_t planes = 0;
    ImageBatchU8 u8;
    ImageBatchF32 f32;
    size_t width() const { return is_u8 ? u8.width() : f32.width(); }
    size_t height() const { return is_u8 ? u8.height() : f32.height(); }
    size_t count() const { return is_u8 ? u8.count() : f32.count(); }
  };

 private:
  Status RunStage(const Stage& stage, const Frames& in, Frames& out);

  MemoryAccountant* memory_;
  ThreadPool* pool_;
  PipelineOptions options_;
  std::vector<Stage> stages_;  // with the implicit conversions
  VisionWorkspace workspace_;
  std::vector<Frames> buffers_;  // [0] the input copies, [i + 1] the output of stage i
};

}  // namespace swarm
