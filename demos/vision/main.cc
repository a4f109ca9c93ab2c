// swarm-vision: runs a pipeline of vision filters on a PNG and writes the result, printing the
// time of every stage, the SIMD target that ran and the memory report.
//
//   swarm-vision in.png --gray --gaussian 5:1.0 --sobel-mag -o out.png
//       [--simd=auto] [--threads N] [--batch N] [--memory-limit 96M] [--u8] [--repeat N]
//
// Stages run in the order given on the command line (each may repeat):
//   --gray            RGB(A) -> gray (COLOR_RGB2GRAY); a gray image stays as it is
//   --gaussian K:S    Gaussian blur, odd size K, sigma S (cv::GaussianBlur)
//   --box K           normalised box filter K x K (cv::blur)
//   --sobel-mag       Sobel 3x3 gradient magnitude, fused (cv::Sobel x2 + cv::magnitude)
//   --pyr-down        2x pyramid down (cv::pyrDown)
//   --threshold T     binary threshold: 255 above T, else 0 (THRESH_BINARY)
//   --truncate T      min(value, T) (THRESH_TRUNC)
// Pixels stay in [0, 255]: the input is converted to f32 with scale 1 (or kept as u8 with --u8,
// where u8 kernels exist; --sobel-mag and --pyr-down work in f32), and the output is rounded and
// saturated to u8 (cv::Mat::convertTo). Colour images are filtered plane by plane.
// --batch N copies the input into an ImageBatch of N x planes frames and runs the batched entry
// points (the output PNG is frame set 0); --repeat N runs the pipeline N times (stage timings are
// the best run; buffers are created in the first run only).
//
// Bad flags, values or files print a message naming them and exit with status 2.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "demos/command_line/file_roles.h"
#include "demos/command_line/flags.h"
#include "demos/command_line/program_exit.h"
#include "demos/command_line/program_start.h"
#include "demos/command_line/runtime_flags.h"
#include "demos/vision/pipeline.h"
#include "swarm/core/memory.h"
#include "swarm/core/simd.h"
#include "swarm/core/thread_pool.h"
#include "swarm/vision/png.h"

namespace {

constexpr std::string_view kProgram = "swarm-vision";

// A refused allocation also names the flag that set the budget.
int FailAllocation(const swarm::Status& status, size_t memory_limit) {
  if (status.code() == swarm::ErrorCode::kOverBudget) {
    std::fprintf(stderr,
                 "swarm-vision: --memory-limit=%s is too small for this image and "
                 "pipeline\n",
                 swarm::FormatBytes(memory_limit).c_str());
  }
  return swarm::Fail(kProgram, status);
}

int RunVision(int argc, char** argv) {
  swarm::PipelineOptions options;
  std::string output;
  std::string simd = "auto";
  uint64_t threads = 1;
  uint64_t batch = 0;
  uint64_t repeat = 1;
  size_t memory_limit = swarm::kNoBudget;
  std::string stage_text;  // FlagSet only validates that stage flags exist; order comes below
  bool stage_switch = false;
  swarm::FlagSet flags("swarm-vision",
                       "Runs vision filters on a PNG: swarm-vision in.png [stages] -o out.png");
  flags.AddString("output", &output, "output PNG (also -o)");
  flags.AddSwitch("gray", &stage_switch, "stage: RGB(A) -> gray");
  flags.AddString("gaussian", &stage_text, "stage: Gaussian blur K:SIGMA, K odd (e.g. 5:1.0)");
  flags.AddString("box", &stage_text, "stage: normalised box filter of odd size K");
  flags.AddSwitch("sobel-mag", &stage_switch, "stage: Sobel 3x3 gradient magnitude (fused)");
  flags.AddSwitch("pyr-down", &stage_switch, "stage: 2x pyramid down");
  flags.AddString("threshold", &stage_text, "stage: binary threshold T (255 above, else 0)");
  flags.AddString("truncate", &stage_text, "stage: truncate to T");
  flags.AddSwitch("u8", &options.u8, "keep u8 pixels where u8 kernels exist (default f32)");
  AddThreadsFlag(flags, &threads);
  flags.AddCount("batch", &batch, 0, 1'000'000,
                 "copy the input into a batch of N frames and run the batched entry points");
  flags.AddCount("repeat", &repeat, 1, 1'000'000, "run the pipeline this many times");
  AddMemoryLimitFlag(flags, &memory_limit, "96M");
  AddSimdFlag(flags, &simd);
  std::string input;
  flags.AddPositional("in.png", &input, "input PNG (required)");
  flags.AddAlias("-o", "output");
  for (const char* stage :
       {"gray", "gaussian", "box", "sobel-mag", "pyr-down", "threshold", "truncate"}) {
    flags.AllowRepeats(stage);
  }
  if (swarm::Status s = flags.Parse(argc, argv); !s.ok()) return swarm::Fail(kProgram, s);
  if (flags.help_requested()) {
    std::fputs(flags.Usage().c_str(), stdout);
    return 0;
  }
  swarm::Result<std::vector<swarm::Stage>> stages = swarm::ParseStages(flags.parsed());
  if (!stages.ok()) return swarm::Fail(kProgram, stages.status());
  if (input.empty())
    return swarm::Fail(kProgram, swarm::InvalidArgument("no input PNG given (see --help)"));
  if (output.empty())
    return swarm::Fail(kProgram, swarm::InvalidArgument("no output given: add -o out.png"));
  const swarm::FileUse files[] = {{"the input PNG", input, swarm::FileRole::kInput},
                                  {"--output", output, swarm::FileRole::kOutput}};
  if (swarm::Status s = swarm::CheckDistinctFiles(files); !s.ok()) return swarm::Fail(kProgram, s);
  if (swarm::Status s = swarm::ForceSimdTarget(simd); !s.ok()) return swarm::Fail(kProgram, s);
  options.batch = batch;

  swarm::MemoryAccountant memory(memory_limit);
  swarm::ThreadPool pool(threads);
  swarm::Result<swarm::PlanarImage> image = swarm::LoadPng(memory, input);
  if (!image.ok()) return FailAllocation(image.status(), memory_limit);

  // Saving comes after every stage: its memory is reserved first (no stage widens the image), so
  // a budget too small for it fails before the work.
  swarm::Result<swarm::MemoryReservation> save_memory = memory.Reserve(
      swarm::MemoryCategory::kScratch, swarm::PngSaveBytes(image->width(), image->channels()));
  if (!save_memory.ok()) {
    return FailAllocation(
        swarm::Status(save_memory.status().code(),
                      "reserving memory to save " + output + ": " + save_memory.status().message()),
        memory_limit);
  }
  swarm::Pipeline pipeline(memory, pool, options, stages.value());
  std::vector<swarm::StageTiming> best;
  for (uint64_t run = 0; run < repeat; ++run) {
    swarm::Result<std::vector<swarm::StageTiming>> timings = pipeline.Run(image.value());
    if (!timings.ok()) return FailAllocation(timings.status(), memory_limit);
    if (best.empty()) {
      best = timings.value();
    } else {
      for (size_t i = 0; i < best.size(); ++i) {
        best[i].milliseconds = std::min(best[i].milliseconds, timings.value()[i].milliseconds);
      }
    }
  }
  save_memory->Release();
  if (swarm::Status s = pipeline.Save(memory, output); !s.ok()) {
    return FailAllocation(s, memory_limit);
  }

  const swarm::SimdTarget target = swarm::ActiveSimdTarget();
  std::printf("swarm-vision: %s (%zu x %zu, %zu plane(s)) -> %s, %s, %zu thread(s), SIMD %s (%s)\n",
              input.c_str(), image->width(), image->height(), image->channels(), output.c_str(),
              batch > 0 ? ("batch of " + std::to_string(batch)).c_str() : "single image",
              pool.num_threads(), target.name.c_str(), target.hwy_name.c_str());
  std::printf("%-18s %-6s %14s %10s %12s\n", "stage", "type", "frames x size", "ms", "MP/s");
  double total_ms = 0;
  for (const swarm::StageTiming& t : best) {
    const double megapixels = static_cast<double>(t.frames * t.width * t.height) * 1e-6;
    const std::string size =
        std::to_string(t.frames) + " x " + std::to_string(t.width) + "x" + std::to_string(t.height);
    std::printf("%-18s %-6s %14s %10.3f %12.1f\n", t.name.c_str(), t.type, size.c_str(),
                t.milliseconds, t.milliseconds > 0 ? megapixels / (t.milliseconds * 1e-3) : 0);
    total_ms += t.milliseconds;
  }
  std::printf("total %.3f ms over %zu stage(s); output %zu x %zu\n", total_ms, best.size(),
              pipeline.output_width(), pipeline.output_height());
  std::fputs(memory.Report().c_str(), stdout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return swarm::RunProgram(kProgram, RunVision, argc, argv); }
