// Checked, threaded and batched entry points for the gradient kernels
// (swarm/kernels/vision/vision_gradient.h); declared in swarm/vision/vision_ops.h.
#include <string>
#include <type_traits>

#include "engine/vision/vision_ops_checks.h"
#include "swarm/kernels/vision/vision_gradient.h"
#include "swarm/vision/vision_ops.h"

namespace swarm {

using namespace vision_internal;  // NOLINT: the shared checks of this engine part

// ---------------------------------------------------------------------------------------------
// Gradients (swarm/kernels/vision/vision_gradient.h)

namespace {

template <typename T>
ImageView<const T> AsConst(ImageView<T> view) {
  return view;
}

// Every present output valid, src-sized, overlapping neither src nor another output.
template <typename Src, typename Outputs>
Status CheckGradient(const char* op, ImageView<const Src> src, const Outputs& out) {
  if (Status s = CheckImage<Src>(op, "src", src); !s.ok()) return s;
  const bool has_dx = out.dx.data != nullptr;
  const bool has_dy = out.dy.data != nullptr;
  const bool has_magnitude = out.magnitude.data != nullptr;
  if (!has_dx && !has_dy && !has_magnitude) {
    return InvalidArgument(std::string(op) +
                           ": no output given (dx, dy and magnitude are all empty views)");
  }
  auto check = [&](const char* name, auto output) -> Status {
    using T = std::remove_const_t<std::remove_pointer_t<decltype(output.data)>>;
    if (Status s = CheckImage<T>(op, name, output); !s.ok()) return s;
    if (Status s = CheckSameSize(op, "src", src, name, output); !s.ok()) return s;
    return CheckNoOverlap(op, "src", src, name, output);
  };
  if (has_dx) {
    if (Status s = check("dx", AsConst(out.dx)); !s.ok()) return s;
  }
  if (has_dy) {
    if (Status s = check("dy", AsConst(out.dy)); !s.ok()) return s;
  }
  if (has_magnitude) {
    if (Status s = check("magnitude", AsConst(out.magnitude)); !s.ok()) return s;
  }
  if (has_dx && has_dy) {
    if (Status s = CheckNoOverlap(op, "dx", AsConst(out.dx), "dy", AsConst(out.dy)); !s.ok()) {
      return s;
    }
  }
  if (has_dx && has_magnitude) {
    if (Status s = CheckNoOverlap(op, "dx", AsConst(out.dx), "magnitude", AsConst(out.magnitude));
        !s.ok()) {
      return s;
    }
  }
  if (has_dy && has_magnitude) {
    if (Status s = CheckNoOverlap(op, "dy", AsConst(out.dy), "magnitude", AsConst(out.magnitude));
        !s.ok()) {
      return s;
    }
  }
  // The kernel's own precondition list, in case it grows beyond the checks above.
  if (const char* error = GradientArgumentsError(src, out, GradientScratchElements(src.width))) {
    return InvalidArgument(std::string(op) + ": " + error);
  }
  return {};
}

template <typename Src, typename Outputs>
Status RunGradient(VisionWorkspace& workspace, ThreadPool& pool, GradientFilter filter,
                   const char* op, ImageView<const Src> src, const Outputs& out) {
  if (Status s = CheckGradient(op, src, out); !s.ok()) return s;
  if (Status s = workspace.Reserve(pool.num_threads(), GradientScratchElements(src.width), 0);
      !s.ok()) {
    return s;
  }
  RunBands(pool, src.height, [&](size_t thread, RowRange rows) {
    Gradient(filter, src, out, workspace.Floats(thread), rows);
  });
  return {};
}

// The frame `frame` of a batch view, or an empty view for an absent batch output.
template <typename T>
ImageView<T> FrameOrEmpty(ImageBatchView<T> batch, size_t frame) {
  if (batch.data == nullptr) return {};
  return batch.Image(frame);
}

template <typename Src, typename BatchOutputs, typename Outputs>
Status RunGradientBatch(VisionWorkspace& workspace, ThreadPool& pool, GradientFilter filter,
                        const char* op, ImageBatchView<const Src> src, const BatchOutputs& out,
                        Outputs (*frame_outputs)(const BatchOutputs&, size_t)) {
  if (Status s = CheckBatch<Src>(op, "src", src); !s.ok()) return s;
  auto check_output = [&](const char* name, auto batch) -> Status {
    if (batch.data == nullptr) return {};
    using T = std::remove_const_t<std::remove_pointer_t<decltype(batch.data)>>;
    const ImageBatchView<const T> output = batch;
    if (Status s = CheckBatch<T>(op, name, output); !s.ok()) return s;
    if (output.count != src.count || output.width != src.width || output.height != src.height) {
      return InvalidArgument(std::string(op) + ": " + name + " has " +
                             std::to_string(output.count) + " frames of " +
                             SizeText(output.width, output.height) + " pixels but src has " +
                             std::to_string(src.count) + " of " + SizeText(src.width, src.height) +
                             "; they must match");
    }
    return CheckNoOverlap(op, "src", Whole(src), name, Whole(output));
  };
  if (Status s = check_output("dx", out.dx); !s.ok()) return s;
  if (Status s = check_output("dy", out.dy); !s.ok()) return s;
  if (Status s = check_output("magnitude", out.magnitude); !s.ok()) return s;
  // Frame 0 stands for all frames in the shape and pairwise-overlap checks (same strides).
  if (Status s = CheckGradient(op, src.Image(0), frame_outputs(out, 0)); !s.ok()) return s;
  if (Status s = workspace.Reserve(pool.num_threads(), GradientScratchElements(src.width), 0);
      !s.ok()) {
    return s;
  }
  RunFrames(pool, src.count, src.height, [&](size_t thread, FrameRange frames, RowRange rows) {
    GradientBatch(filter, src, out, workspace.Floats(thread), rows, frames);
  });
  return {};
}

GradientOutputsF32 FrameOutputs(const GradientBatchOutputsF32& out, size_t frame) {
  return {FrameOrEmpty(out.dx, frame), FrameOrEmpty(out.dy, frame),
          FrameOrEmpty(out.magnitude, frame)};
}

GradientOutputsU8 FrameOutputs(const GradientBatchOutputsU8& out, size_t frame) {
  return {FrameOrEmpty(out.dx, frame), FrameOrEmpty(out.dy, frame),
          FrameOrEmpty(out.magnitude, frame)};
}

}  // namespace

Status Gradient(VisionWorkspace& workspace, ThreadPool& pool, GradientFilter filter,
                ConstImageF32View src, const GradientOutputsF32& out) {
  return RunGradient(workspace, pool, filter, "Gradient", src, out);
}

Status Gradient(VisionWorkspace& workspace, ThreadPool& pool, GradientFilter filter,
                ConstImageU8View src, const GradientOutputsU8& out) {
  return RunGradient(workspace, pool, filter, "Gradient", src, out);
}

Status Sobel(VisionWorkspace& workspace, ThreadPool& pool, ConstImageF32View src, ImageF32View dx,
             ImageF32View dy) {
  return RunGradient(workspace, pool, GradientFilter::kSobel, "Sobel", src,
                     GradientOutputsF32{dx, dy, {}});
}

Status Sobel(VisionWorkspace& workspace, ThreadPool& pool, ConstImageU8View src, ImageS16View dx,
             ImageS16View dy) {
  return RunGradient(workspace, pool, GradientFilter::kSobel, "Sobel", src,
                     GradientOutputsU8{dx, dy, {}});
}

Status GradientMagnitude(VisionWorkspace& workspace, ThreadPool& pool, ConstImageF32View src,
                         ImageF32View dst) {
  return RunGradient(workspace, pool, GradientFilter::kSobel, "GradientMagnitude", src,
                     GradientOutputsF32{{}, {}, dst});
}

Status GradientMagnitude(VisionWorkspace& workspace, ThreadPool& pool, ConstImageU8View src,
                         ImageF32View dst) {
  return RunGradient(workspace, pool, GradientFilter::kSobel, "GradientMagnitude", src,
                     GradientOutputsU8{{}, {}, dst});
}

Status Gradient(VisionWorkspace& workspace, ThreadPool& pool, GradientFilter filter,
                ImageBatchView<const float> src, const GradientBatchOutputsF32& out) {
  return RunGradientBatch(workspace, pool, filter, "Gradient", src, out, &FrameOutputs);
}

Status Gradient(VisionWorkspace& workspace, ThreadPool& pool, GradientFilter filter,
                ImageBatchView<const uint8_t> src, const GradientBatchOutputsU8& out) {
  return RunGradientBatch(workspace, pool, filter, "Gradient", src, out, &FrameOutputs);
}

Status GradientMagnitude(VisionWorkspace& workspace, ThreadPool& pool,
                         ImageBatchView<const float> src, ImageBatchView<float> dst) {
  return RunGradientBatch(workspace, pool, GradientFilter::kSobel, "GradientMagnitude", src,
                          GradientBatchOutputsF32{{}, {}, dst}, &FrameOutputs);
}

Status GradientMagnitude(VisionWorkspace& workspace, ThreadPool& pool,
                         ImageBatchView<const uint8_t> src, ImageBatchView<float> dst) {
  return RunGradientBatch(workspace, pool, GradientFilter::kSobel, "GradientMagnitude", src,
                          GradientBatchOutputsU8{{}, {}, dst}, &FrameOutputs);
}

}  // namespace swarm
