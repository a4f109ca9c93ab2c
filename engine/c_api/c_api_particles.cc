// C API: particle interactions (neighbour lists of a point set, interacting particle systems).
#include <cmath>
#include <memory>
#include <mutex>
#include <string>

#include "engine/c_api/c_api_internal.h"
#include "swarm/core/text.h"
#include "swarm/particles/interaction_presets.h"
#include "swarm/particles/neighbor_grid.h"
#include "swarm/particles/particle_system.h"
#include "swarm/tensor/tensor.h"
#include "swarm/tensor/tensor_adapters.h"

namespace swarm::c_api {
namespace {

// The tensor's x, y, z columns copied into a vec4 buffer (any strides; column 3 of an [N, 4]
// tensor is not read).
Result<Vec4Buffer> PointsFrom(MemoryAccountant& memory, const TensorView& points) {
  if (points.dtype() != DType::kF32 || points.rank() != 2 ||
      (points.shape(1) != 3 && points.shape(1) != 4)) {
    return InvalidArgument("points must be an f32 tensor [N, 3] or [N, 4], got " +
                           points.TypeString());
  }
  const size_t count = static_cast<size_t>(points.shape(0));
  Result<Vec4Buffer> buffer = Vec4Buffer::Create(memory, count, MemoryCategory::kParticles);
  if (!buffer.ok()) return buffer.status();
  const float* data = static_cast<const float*>(points.data());
  const Vec4View to = buffer->view();
  for (size_t i = 0; i < count; ++i) {
    const float* row = data + static_cast<int64_t>(i) * points.stride(0);
    for (size_t axis = 0; axis < 3; ++axis) {
      to.Lane(axis)[i] = row[static_cast<int64_t>(axis) * points.stride(1)];
    }
  }
  return buffer;
}

Result<Tensor> NewIndexTensor(MemoryAccountant& memory, DType dtype, size_t count) {
  const int64_t shape[] = {static_cast<int64_t>(count)};
  return Tensor::Create(memory, dtype, shape);
}

}  // namespace

// A particle system and the context whose accountant and threads it uses (declared first, so
// the system goes before the accountant it allocated from).
struct ParticleSystemState {
  std::shared_ptr<ContextState> context;
  ParticleSystem system;
};

}  // namespace swarm::c_api

struct swarm_particle_system_impl {
  std::shared_ptr<swarm::c_api::ParticleSystemState> state;
};

namespace swarm::c_api {
namespace {

Result<ParticleConfig> PresetFor(const swarm_particle_system_desc& desc, size_t count) {
  BoxParams box{{-10.0f, 0.0f, -10.0f}, {10.0f, 20.0f, 10.0f}, 0.5f, 0.05f};
  const bool given = desc.box_min[0] != 0.0f || desc.box_min[1] != 0.0f ||
                     desc.box_min[2] != 0.0f || desc.box_max[0] != 0.0f ||
                     desc.box_max[1] != 0.0f || desc.box_max[2] != 0.0f;
  if (given) {
    for (int axis = 0; axis < 3; ++axis) {
      if (!(std::isfinite(desc.box_min[axis]) && std::isfinite(desc.box_max[axis]) &&
            desc.box_min[axis] < desc.box_max[axis])) {
        return InvalidArgument(
            "desc box must be finite with box_min < box_max on every axis, "
            "got axis " +
            std::to_string(axis) + ": " + NumberText(desc.box_min[axis]) + " .. " +
            NumberText(desc.box_max[axis]));
      }
      box.min[axis] = desc.box_min[axis];
      box.max[axis] = desc.box_max[axis];
    }
  }
  ParticleConfig config;
  switch (EnumValue(desc.interaction)) {
    case SWARM_INTERACTION_GRANULAR:
      config = SandDumpPreset(box, count);
      break;
    case SWARM_INTERACTION_FLUID:
      config = DamBreakPreset(box, count);
      break;
    case SWARM_INTERACTION_FLOCK:
      config = FlockPreset(box, count);
      break;
    default:
      return InvalidArgument("desc interaction " + std::to_string(EnumValue(desc.interaction)) +
                             " is not one of SWARM_INTERACTION_GRANULAR (1), FLUID (2), FLOCK (3)");
  }
  config.seed = desc.seed;
  return config;
}

}  // namespace
}  // namespace swarm::c_api

using swarm::DType;
using swarm::MemoryAccountant;
using swarm::NeighborGrid;
using swarm::NeighborLists;
using swarm::Result;
using swarm::Status;
using swarm::Tensor;
using swarm::Vec4Buffer;
using swarm::c_api::Guarded;
using swarm::c_api::NullArgument;
using swarm::c_api::Report;

extern "C" {

swarm_status swarm_neighbors(swarm_context context, swarm_tensor points, float radius,
                             swarm_buffer* offsets, swarm_buffer* indices) {
  constexpr const char* kFunction = "swarm_neighbors";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (context == nullptr) return NullArgument(kFunction, "context");
    if (points == nullptr) return NullArgument(kFunction, "points");
    if (offsets == nullptr) return NullArgument(kFunction, "offsets");
    if (indices == nullptr) return NullArgument(kFunction, "indices");
    const std::shared_ptr<swarm::c_api::ContextState> held = swarm::c_api::HoldContext(context);
    swarm::c_api::ContextState& state = *held;
    MemoryAccountant& memory = state.memory;
    Result<Vec4Buffer> copied = swarm::c_api::PointsFrom(memory, points->view);
    if (!copied.ok()) return Report(kFunction, copied.status());
    NeighborGrid grid(memory);
    NeighborLists lists(memory);
    std::lock_guard<std::mutex> lock(state.kernel_mutex);
    if (Status s = grid.Build(copied->view(), radius, state.pool); !s.ok()) {
      return Report(kFunction, s);
    }
    if (Status s = grid.ListNeighbors(radius, state.pool, lists); !s.ok()) {
      return Report(kFunction, s);
    }
    Result<Tensor> row_offsets = swarm::c_api::NewIndexTensor(memory, DType::kS64, grid.size() + 1);
    if (!row_offsets.ok()) return Report(kFunction, row_offsets.status());
    Result<Tensor> row_indices = swarm::c_api::NewIndexTensor(memory, DType::kS32, lists.entries());
    if (!row_indices.ok()) return Report(kFunction, row_indices.status());
    const std::span<int64_t> offset_span(static_cast<int64_t*>(row_offsets->view().data()),
                                         grid.size() + 1);
    const std::span<int32_t> index_span(static_cast<int32_t*>(row_indices->view().data()),
                                        lists.entries());
    if (Status s = NeighborRowsInInputOrder(grid, lists, state.pool, offset_span, index_span);
        !s.ok()) {
      return Report(kFunction, s);
    }
    swarm_buffer new_offsets = nullptr;
    swarm_buffer new_indices = nullptr;
    if (swarm_status s =
            swarm::c_api::NewBuffer(held, std::move(row_offsets).value(), &new_offsets);
        s != SWARM_OK) {
      return s;
    }
    if (swarm_status s =
            swarm::c_api::NewBuffer(held, std::move(row_indices).value(), &new_indices);
        s != SWARM_OK) {
      swarm_buffer_release(new_offsets);
      return s;
    }
    *offsets = new_offsets;
    *indices = new_indices;
    return SWARM_OK;
  });
}

swarm_status swarm_particle_system_create(swarm_context context, size_t count,
                                          const swarm_particle_system_desc* desc,
                                          swarm_particle_system* out) {
  constexpr const char* kFunction = "swarm_particle_system_create";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (context == nullptr) return NullArgument(kFunction, "context");
    if (desc == nullptr) return NullArgument(kFunction, "desc");
    if (out == nullptr) return NullArgument(kFunction, "out");
    if (count == 0) {
      return swarm::c_api::Fail(SWARM_INVALID_ARGUMENT,
                                std::string(kFunction) + ": count must be at least 1");
    }
    Result<swarm::ParticleConfig> config = swarm::c_api::PresetFor(*desc, count);
    if (!config.ok()) return Report(kFunction, config.status());
    auto state = std::make_shared<swarm::c_api::ParticleSystemState>();
    state->context = swarm::c_api::HoldContext(context);
    Result<swarm::ParticleSystem> system =
        swarm::ParticleSystem::Create(state->context->memory, count, config.value());
    if (!system.ok()) return Report(kFunction, system.status());
    state->system = std::move(system).value();
    *out = new swarm_particle_system_impl{std::move(state)};
    return SWARM_OK;
  });
}

void swarm_particle_system_destroy(swarm_particle_system system) { delete system; }

swarm_status swarm_particle_system_step(swarm_particle_system system, float dt) {
  constexpr const char* kFunction = "swarm_particle_system_step";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (system == nullptr) return NullArgument(kFunction, "system");
    swarm::c_api::ParticleSystemState& state = *system->state;
    std::lock_guard<std::mutex> lock(state.context->kernel_mutex);
    return Report(kFunction, state.system.Step(dt, state.context->pool));
  });
}

swarm_status swarm_particle_system_tensor(swarm_particle_system system, swarm_particle_array array,
                                          swarm_tensor* out) {
  constexpr const char* kFunction = "swarm_particle_system_tensor";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (system == nullptr) return NullArgument(kFunction, "system");
    if (out == nullptr) return NullArgument(kFunction, "out");
    swarm::ParticleSystem& particles = system->state->system;
    switch (swarm::c_api::EnumValue(array)) {
      case SWARM_PARTICLE_POSITIONS:
        return swarm::c_api::NewTensor(swarm::TensorOf(particles.mutable_positions()),
                                       system->state, out);
      case SWARM_PARTICLE_VELOCITIES:
        return swarm::c_api::NewTensor(swarm::TensorOf(particles.mutable_velocities()),
                                       system->state, out);
      case SWARM_PARTICLE_IDS: {
        const std::span<const uint32_t> ids = particles.ids();
        return swarm::c_api::NewTensor(
            swarm::TensorOf(swarm::ArrayView<const uint32_t>{ids.data(), ids.size()}),
            system->state, out);
      }
      default:
        return swarm::c_api::Fail(SWARM_INVALID_ARGUMENT,
                                  std::string(kFunction) + ": array " +
                                      std::to_string(swarm::c_api::EnumValue(array)) +
                                      " is not a swarm_particle_array (0..2)");
    }
  });
}

swarm_status swarm_particle_system_stats(swarm_particle_system system,
                                         swarm_interaction_stats* out) {
  constexpr const char* kFunction = "swarm_particle_system_stats";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (system == nullptr) return NullArgument(kFunction, "system");
    if (out == nullptr) return NullArgument(kFunction, "out");
    const swarm::ParticleSystem& particles = system->state->system;
    const swarm::InteractionStats& stats = particles.interactions().stats();
    *out = {stats.neighbor_seconds, stats.interaction_seconds, stats.average_neighbors,
            particles.steps_taken(), particles.StateHash()};
    return SWARM_OK;
  });
}

}  // extern "C"
