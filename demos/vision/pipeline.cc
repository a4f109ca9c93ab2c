// swarm-vision's stage parsing and pipeline (demos/vision/pipeline.h).
#include "demos/vision/pipeline.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <span>
#include <string>
#include <utility>

#include "demos/command_line/flags.h"

namespace swarm {
namespace {

std::string FormatNumber(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

Result<size_t> ParseKernelSize(std::string_view flag, std::string_view text) {
  Result<uint64_t> size = ParseCount(flag, text, 1, 4095);
  if (!size.ok()) return size.status();
  if (size.value() % 2 == 0) {
    return InvalidArgument(std::string(flag) + ": kernel size " + std::string(text) +
                           " must be odd");
  }
  return static_cast<size_t>(size.value());
}

Result<Stage> ParseStage(std::string_view flag, std::string_view value) {
  if (flag == "--gray") return Stage{StageKind::kGray, "gray"};
  if (flag == "--sobel-mag") return Stage{StageKind::kSobelMagnitude, "sobel-mag"};
  if (flag == "--pyr-down") return Stage{StageKind::kPyramidDown, "pyr-down"};
  if (flag == "--box") {
    Result<size_t> ksize = ParseKernelSize(flag, value);
    if (!ksize.ok()) return ksize.status();
    return Stage{StageKind::kBox, "box " + std::to_string(ksize.value()), ksize.value()};
  }
  if (flag == "--gaussian") {
    const size_t colon = value.find(':');
    if (colon == std::string_view::npos) {
      return InvalidArgument("--gaussian: expected SIZE:SIGMA such as 5:1.0, got '" +
                             std::string(value) + "'");
    }
    Result<size_t> ksize = ParseKernelSize(flag, value.substr(0, colon));
    if (!ksize.ok()) return ksize.status();
    Result<double> sigma = ParseNumber("--gaussian sigma", value.substr(colon + 1), 0, 1e6);
    if (!sigma.ok()) return sigma.status();
    if (!(sigma.value() > 0)) {
      return InvalidArgument("--gaussian: sigma must be > 0, got '" +
                             std::string(value.substr(colon + 1)) + "'");
    }
    return Stage{StageKind::kGaussian,
                 "gaussian " + std::to_string(ksize.value()) + ":" + FormatNumber(sigma.value()),
                 ksize.value(), sigma.value()};
  }
  const bool binary = flag == "--threshold";
  Result<double> level = ParseNumber(flag, value, -1e30, 1e30);
  if (!level.ok()) return level.status();
  Stage stage{binary ? StageKind::kThreshold : StageKind::kTruncate,
              std::string(flag.substr(2)) + " " + FormatNumber(level.value())};
  stage.value = level.value();
  return stage;
}

bool IsStageFlag(std::string_view name) {
  return name == "--gray" || name == "--sobel-mag" || name == "--pyr-down" || name == "--box" ||
         name == "--gaussian" || name == "--threshold" || name == "--truncate";
}

template <typename T>
ImageBatch<T>& Batch(Pipeline::Frames& frames);
template <>
ImageBatch<float>& Batch<float>(Pipeline::Frames& frames) {
  return frames.f32;
}
template <>
ImageBatch<uint8_t>& Batch<uint8_t>(Pipeline::Frames& frames) {
  return frames.u8;
}
template <typename T>
const ImageBatch<T>& Batch(const Pipeline::Frames& frames) {
  return Batch<T>(const_cast<Pipeline::Frames&>(frames));
}

// Makes `frames` hold `count` T frames of width x height, allocating only on the first run.
template <typename T>
Status Ensure(MemoryAccountant& memory, Pipeline::Frames& frames, size_t planes, size_t count,
              size_t width, size_t height) {
  frames.is_u8 = std::is_same_v<T, uint8_t>;
  frames.planes = planes;
  ImageBatch<T>& batch = Batch<T>(frames);
  if (batch.count() == count && batch.width() == width && batch.height() == height) return {};
  Result<ImageBatch<T>> created = ImageBatch<T>::Create(memory, count, width, height);
  if (!created.ok()) return created.status();
  batch = std::move(created).value();
  return {};
}

}  // namespace

Result<std::vector<Stage>> ParseStages(const std::vector<FlagSet::ParsedFlag>& flags) {
  std::vector<Stage> stages;
  for (const FlagSet::ParsedFlag& flag : flags) {
    const std::string spelled = "--" + flag.name;
    if (!IsStageFlag(spelled)) continue;
    Result<Stage> stage = ParseStage(spelled, flag.value);
    if (!stage.ok()) return stage.status();
    stages.push_back(std::move(stage).value());
  }
  return stages;
}

Pipeline::Pipeline(MemoryAccountant& memory, ThreadPool& pool, PipelineOptions options,
                   std::vector<Stage> stages)
    : memory_(&memory), pool_(&pool), options_(options), workspace_(memory) {
  if (!options_.u8) stages_.push_back({StageKind::kToF32, "to-f32"});
  for (Stage& stage : stages) {
    // u8 kernels exist for gray, Gaussian, box and thresholds; the gradient magnitude of u8 is
    // f32 and pyrDown is f32 only, so a u8 pipeline converts before them.
    stages_.push_back(std::move(stage));
  }
  stages_.push_back({StageKind::kToU8, "to-u8"});
}

Result<std::vector<StageTiming>> Pipeline::Run(const PlanarImage& input) {
  const size_t copies = options_.batch > 0 ? options_.batch : 1;
  const size_t planes = input.channels();
  if (buffers_.empty()) buffers_.resize(stages_.size() + 1);
  Frames& first = buffers_[0];
  if (Status s =
          Ensure<uint8_t>(*memory_, first, planes, copies * planes, input.width(), input.height());
      !s.ok()) {
    return s;
  }
  for (size_t copy = 0; copy < copies; ++copy) {
    for (size_t plane = 0; plane < planes; ++plane) {
      const ConstImageU8View from = input.planes[plane].view();
      const ImageU8View to = first.u8.frame(copy * planes + plane);
      std::memcpy(to.data, from.data, from.row_stride * from.height);
    }
  }
  std::vector<StageTiming> timings;
  for (size_t i = 0; i < stages_.size(); ++i) {
    const Frames& in = buffers_[i];
    const auto start = std::chrono::steady_clock::now();
    if (Status s = RunStage(stages_[i], in, buffers_[i + 1]); !s.ok()) {
      return Status(s.code(), "stage " + stages_[i].name + ": " + s.message());
    }
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    timings.push_back(
        {stages_[i].name, in.is_u8 ? "u8" : "f32", in.count(), in.width(), in.height(), ms});
  }
  return timings;
}

Status Pipeline::RunStage(const Stage& stage, const Frames& in, Frames& out) {
  MemoryAccountant& memory = *memory_;
  ThreadPool& pool = *pool_;
  VisionWorkspace& workspace = workspace_;
  const bool batched = options_.batch > 0;
  const size_t count = in.count(), width = in.width(), height = in.height();
  // Runs op(in_frames, out_frames) once on the whole batch, or frame by frame.
  auto same_shape = [&]<typename In, typename Out>(auto op) -> Status {
    if (Status s = Ensure<Out>(memory, out, in.planes, count, width, height); !s.ok()) return s;
    const ImageBatch<In>& from = Batch<In>(in);
    ImageBatch<Out>& to = Batch<Out>(out);
    if (batched) return op(from.view(), to.view());
    for (size_t frame = 0; frame < count; ++frame) {
      if (Status s = op(from.frame(frame), to.frame(frame)); !s.ok()) return s;
    }
    return {};
  };
  switch (stage.kind) {
    case StageKind::kToF32:
      return same_shape.operator()<uint8_t, float>([&](auto from, auto to) -> Status {
        if constexpr (requires { from.count; }) {
          for (size_t f = 0; f < from.count; ++f) {
            if (Status s = ConvertU8ToF32(pool, from.Image(f), to.Image(f), 1.0f, 0.0f); !s.ok()) {
              return s;
            }
          }
          return {};
        } else {
          return ConvertU8ToF32(pool, from, to, 1.0f, 0.0f);
        }
      });
    case StageKind::kToU8:
      if (in.is_u8) {
        return same_shape.operator()<uint8_t, uint8_t>([&](auto from, auto to) -> Status {
          if constexpr (requires { from.count; }) {
            std::memcpy(to.data, from.data, from.count * from.image_stride);
          } else {
            std::memcpy(to.data, from.data, from.height * from.row_stride);
          }
          return {};
        });
      }
      return same_shape.operator()<float, uint8_t>([&](auto from, auto to) -> Status {
        if constexpr (requires { from.count; }) {
          for (size_t f = 0; f < from.count; ++f) {
            if (Status s = ConvertF32ToU8(pool, from.Image(f), to.Image(f), 1.0f, 0.0f); !s.ok()) {
              return s;
            }
          }
          return {};
        } else {
          return ConvertF32ToU8(pool, from, to, 1.0f, 0.0f);
        }
      });
    case StageKind::kGaussian:
    case StageKind::kBox: {
      auto filter = [&](auto from, auto to) -> Status {
        if (stage.kind == StageKind::kBox) return BoxFilter(workspace, pool, from, to, stage.ksize);
        return GaussianBlur(workspace, pool, from, to, stage.ksize, stage.sigma);
      };
      if (in.is_u8) return same_shape.operator()<uint8_t, uint8_t>(filter);
      return same_shape.operator()<float, float>(filter);
    }
    case StageKind::kSobelMagnitude: {
      auto magnitude = [&](auto from, auto to) -> Status {
        return GradientMagnitude(workspace, pool, from, to);
      };
      if (in.is_u8) return same_shape.operator()<uint8_t, float>(magnitude);
      return same_shape.operator()<float, float>(magnitude);
    }
    case StageKind::kThreshold:
    case StageKind::kTruncate: {
      const ThresholdType type =
          stage.kind == StageKind::kThreshold ? ThresholdType::kBinary : ThresholdType::kTruncate;
      if (in.is_u8) {
        // cv::threshold on CV_8U floors a fractional threshold; outside [0, 255] it saturates.
        const auto level = static_cast<uint8_t>(std::clamp(std::floor(stage.value), 0.0, 255.0));
        return same_shape.operator()<uint8_t, uint8_t>([&](auto from, auto to) -> Status {
          if constexpr (requires { from.count; }) {
            for (size_t f = 0; f < from.count; ++f) {
              if (Status s = Threshold(pool, from.Image(f), to.Image(f), level, 255, type);
                  !s.ok()) {
                return s;
              }
            }
            return {};
          } else {
            return Threshold(pool, from, to, level, 255, type);
          }
        });
      }
      return same_shape.operator()<float, float>([&](auto from, auto to) -> Status {
        return Threshold(pool, from, to, static_cast<float>(stage.value), 255.0f, type);
      });
    }
    case StageKind::kPyramidDown: {
      if (in.is_u8) {
        return InvalidArgument("--pyr-down works on f32 pixels only; drop --u8");
      }
      const size_t out_width = (width + 1) / 2, out_height = (height + 1) / 2;
      if (Status s = Ensure<float>(memory, out, in.planes, count, out_width, out_height); !s.ok()) {
        return s;
      }
      if (batched) return PyramidDown(workspace, pool, in.f32.view(), out.f32.view());
      for (size_t frame = 0; frame < count; ++frame) {
        if (Status s = PyramidDown(workspace, pool, in.f32.frame(frame), out.f32.frame(frame));
            !s.ok()) {
          return s;
        }
      }
      return {};
    }
    case StageKind::kGray: {
      if (in.planes < 3) {  // already gray: a copy keeps the stage list uniform
        if (in.is_u8) {
          if (Status s = Ensure<uint8_t>(memory, out, in.planes, count, width, height); !s.ok()) {
            return s;
          }
          std::memcpy(out.u8.view().data, in.u8.view().data,
                      count * in.u8.image_stride() * sizeof(uint8_t));
        } else {
          if (Status s = Ensure<float>(memory, out, in.planes, count, width, height); !s.ok()) {
            return s;
          }
          std::memcpy(out.f32.view().data, in.f32.view().data,
                      count * in.f32.image_stride() * sizeof(float));
        }
        return {};
      }
      const size_t copies = count / in.planes;
      auto gray = [&]<typename T>() -> Status {
        if (Status s = Ensure<T>(memory, out, 1, copies, width, height); !s.ok()) return s;
        const ImageBatch<T>& from = Batch<T>(in);
        for (size_t copy = 0; copy < copies; ++copy) {
          const size_t first = copy * in.planes;
          if (Status s = RgbToGray(pool, from.frame(first), from.frame(first + 1),
                                   from.frame(first + 2), Batch<T>(out).frame(copy));
              !s.ok()) {
            return s;
          }
        }
        return {};
      };
      return in.is_u8 ? gray.operator()<uint8_t>() : gray.operator()<float>();
    }
  }
  return InvalidArgument("unknown stage " + stage.name);
}

Status Pipeline::Save(MemoryAccountant& memory, const std::string& path) const {
  const Frames& last = buffers_.back();
  std::vector<ConstImageU8View> planes;
  for (size_t plane = 0; plane < last.planes; ++plane) planes.push_back(last.u8.frame(plane));
  Status status = SavePng(memory, path, planes);
  if (!status.ok()) return Status(status.code(), "-o " + path + ": " + status.message());
  return {};
}

}  // namespace swarm
