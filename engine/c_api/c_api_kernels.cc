// C API: swarm's kernels over buffers (particle integration, vision filters).
#include <mutex>
#include <string>

#include "engine/c_api/c_api_internal.h"
#include "swarm/particles/particle_ops.h"
#include "swarm/vision/vision_ops.h"

namespace swarm::c_api {
namespace {

// With its article, for messages: "an f32 image".
const char* KindName(swarm_buffer_kind kind) {
  switch (kind) {
    case SWARM_BUFFER_VEC4:
      return "a vec4";
    case SWARM_BUFFER_F32_ARRAY:
      return "an f32 array";
    case SWARM_BUFFER_U8_ARRAY:
      return "a u8 array";
    case SWARM_BUFFER_IMAGE_F32:
      return "an f32 image";
    case SWARM_BUFFER_IMAGE_U8:
      return "a u8 image";
    case SWARM_BUFFER_IMAGE_BATCH_F32:
      return "an f32 image batch";
    case SWARM_BUFFER_IMAGE_BATCH_U8:
      return "a u8 image batch";
    case SWARM_BUFFER_TENSOR:
      return "a tensor";
  }
  return "an unknown";
}

swarm_status WrongKind(const char* function, const char* argument, const std::string& expected,
                       swarm_buffer buffer) {
  return Fail(SWARM_INVALID_ARGUMENT, std::string(function) + ": " + argument + " must be " +
                                          expected + ", got " + KindName(buffer->state->kind()) +
                                          " buffer");
}

// Blurs when src and dst both hold Buffer; false if src does not.
template <typename Buffer>
bool BlurIf(const char* function, ContextState& context, swarm_buffer src, swarm_buffer dst,
            size_t ksize, double sigma, swarm_status* status) {
  auto* source = std::get_if<Buffer>(&src->state->storage);
  if (source == nullptr) return false;
  auto* target = std::get_if<Buffer>(&dst->state->storage);
  if (target == nullptr) {
    *status = WrongKind(function, "dst",
                        std::string(KindName(src->state->kind())) + " buffer like src", dst);
    return true;
  }
  std::lock_guard<std::mutex> lock(context.kernel_mutex);
  const auto& const_source = *source;
  *status = Report(function, GaussianBlur(context.workspace, context.pool, const_source.view(),
                                          target->view(), ksize, sigma));
  return true;
}

}  // namespace
}  // namespace swarm::c_api

using swarm::EulerParams;
using swarm::ImageBatchF32;
using swarm::ImageBatchU8;
using swarm::ImageF32;
using swarm::ImageU8;
using swarm::Vec4Buffer;
using swarm::c_api::BlurIf;
using swarm::c_api::Fail;
using swarm::c_api::Guarded;
using swarm::c_api::NullArgument;
using swarm::c_api::Report;
using swarm::c_api::WrongKind;

extern "C" {

swarm_status swarm_integrate_euler(swarm_buffer positions, swarm_buffer velocities,
                                   const swarm_euler_params* params) {
  constexpr const char* kFunction = "swarm_integrate_euler";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (positions == nullptr) return NullArgument(kFunction, "positions");
    if (velocities == nullptr) return NullArgument(kFunction, "velocities");
    if (params == nullptr) return NullArgument(kFunction, "params");
    auto* p = std::get_if<Vec4Buffer>(&positions->state->storage);
    if (p == nullptr) return WrongKind(kFunction, "positions", "a vec4 buffer", positions);
    auto* v = std::get_if<Vec4Buffer>(&velocities->state->storage);
    if (v == nullptr) return WrongKind(kFunction, "velocities", "a vec4 buffer", velocities);
    if (p == v) {
      return Fail(SWARM_INVALID_ARGUMENT,
                  std::string(kFunction) + ": positions and velocities are the same buffer");
    }
    EulerParams euler;
    euler.gravity = {params->gravity[0], params->gravity[1], params->gravity[2]};
    euler.drag_per_second = params->drag_per_second;
    euler.dt_seconds = params->dt_seconds;
    return Report(kFunction, swarm::IntegrateEuler(*p, *v, euler));
  });
}

swarm_status swarm_gaussian_blur(swarm_context context, swarm_buffer src, swarm_buffer dst,
                                 size_t ksize, double sigma) {
  constexpr const char* kFunction = "swarm_gaussian_blur";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (context == nullptr) return NullArgument(kFunction, "context");
    if (src == nullptr) return NullArgument(kFunction, "src");
    if (dst == nullptr) return NullArgument(kFunction, "dst");
    if (src->state == dst->state) {
      return Fail(SWARM_INVALID_ARGUMENT,
                  std::string(kFunction) + ": src and dst are the same buffer");
    }
    swarm_status status = SWARM_OK;
    const std::shared_ptr<swarm::c_api::ContextState> held = swarm::c_api::HoldContext(context);
    auto& state = *held;
    if (BlurIf<ImageF32>(kFunction, state, src, dst, ksize, sigma, &status) ||
        BlurIf<ImageU8>(kFunction, state, src, dst, ksize, sigma, &status) ||
        BlurIf<ImageBatchF32>(kFunction, state, src, dst, ksize, sigma, &status) ||
        BlurIf<ImageBatchU8>(kFunction, state, src, dst, ksize, sigma, &status)) {
      return status;
    }
    return WrongKind(kFunction, "src", "an f32 or u8 image or image batch", src);
  });
}

}  // extern "C"
