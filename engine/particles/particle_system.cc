#include "swarm/particles/particle_system.h"

#include <algorithm>
#include <utility>

#include "swarm/core/state_hash.h"
#include "swarm/kernels/particles/emit.h"
#include "swarm/particles/particle_params.h"

namespace swarm {
namespace {

// Stream 0 is the initial emission; step k (0-based) respawns with stream k + 1.
constexpr uint32_t kInitialEmissionStream = 0;

// Where every state array may be sliced: the dead flags' padding (64 bytes) is a multiple of the
// float arrays' (16 floats).
constexpr size_t kSliceElements = kPadElements<uint8_t>;
static_assert(kSliceElements % kPadFloats == 0);

}  // namespace

Status ValidateParticleConfig(const ParticleConfig& config) {
  EulerParams euler{config.gravity, config.drag_per_second, 1.0f};
  if (Status s = ValidateEuler(euler); !s.ok()) return s;
  if (Status s = ValidateBox(config.box); !s.ok()) return s;
  if (config.attractor_enabled) {
    AttractorParams attractor = config.attractor;
    attractor.dt_seconds = 1.0f;
    if (Status s = ValidateAttractor(attractor); !s.ok()) return s;
  }
  if (Status s = ValidateEmitter(config.emitter); !s.ok()) return s;
  if (Status s = ValidateInteraction(config.interaction); !s.ok()) return s;
  // Each tile slices the byte array of dead flags too, and byte views may only be sliced at
  // multiples of their padding (swarm/kernels/base/views.h), which is coarser than the float
  // padding.
  const size_t tile = config.schedule.tile_elements;
  if (tile == 0 || tile % kSliceElements != 0) {
    return InvalidArgument("tile_elements must be a positive multiple of " +
                           std::to_string(kSliceElements) + ", got " + std::to_string(tile));
  }
  return {};
}

Result<ParticleSystem> ParticleSystem::Create(MemoryAccountant& accountant, size_t count,
                                              const ParticleConfig& config) {
  if (Status s = ValidateParticleConfig(config); !s.ok()) return s;
  ParticleSystem system;
  system.config_ = config;
  Result<Vec4Buffer> positions = Vec4Buffer::Create(accountant, count);
  if (!positions.ok()) return positions.status();
  Result<Vec4Buffer> velocities = Vec4Buffer::Create(accountant, count);
  if (!velocities.ok()) return velocities.status();
  Result<FloatArray> ages = FloatArray::Create(accountant, count);
  if (!ages.ok()) return ages.status();
  Result<FloatArray> lifetimes = FloatArray::Create(accountant, count);
  if (!lifetimes.ok()) return lifetimes.status();
  Result<ByteArray> dead = ByteArray::Create(accountant, count);
  if (!dead.ok()) return dead.status();
  system.positions_ = std::move(positions).value();
  system.velocities_ = std::move(velocities).value();
  system.ages_ = std::move(ages).value();
  system.lifetimes_ = std::move(lifetimes).value();
  system.dead_ = std::move(dead).value();
  EmitParticles(system.positions_.view(), system.velocities_.view(), system.ages_.view(),
                system.lifetimes_.view(), config.emitter,
                RandomStream{config.seed, kInitialEmissionStream}, 0);
  if (config.interaction.kind != InteractionKind::kNone) {
    Result<InteractionState> interactions =
        InteractionState::Create(accountant, count, config.interaction);
    if (!interactions.ok()) return interactions.status();
    system.interactions_ = std::move(interactions).value();
    system.interactions_.Initialize(system.Arrays(), config.interaction, config.emitter,
                                    config.seed);
  }
  return system;
}

Status ParticleSystem::Configure(const ParticleConfig& config) {
  if (Status s = ValidateParticleConfig(config); !s.ok()) return s;
  if (config.interaction.kind != config_.interaction.kind) {
    return InvalidArgument(std::string("the interaction cannot change from ") +
                           InteractionName(config_.interaction.kind) + " to " +
                           InteractionName(config.interaction.kind) +
                           " in a running system; create a new one");
  }
  config_ = config;
  return {};
}

ParticleArrays ParticleSystem::Arrays() { return {&positions_, &velocities_, &ages_, &lifetimes_}; }

Status ParticleSystem::Step(float dt_seconds, ThreadPool& pool) {
  if (Status s = ValidateDt(dt_seconds); !s.ok()) return s;
  if (interactions_.active()) {
    const int substeps = config_.interaction.substeps;
    const float dt = dt_seconds / static_cast<float>(substeps);
    AttractorParams attractor = config_.attractor;
    attractor.dt_seconds = dt;
    const InteractionStepParams params{
        config_.gravity,  config_.drag_per_second,
        config_.box,      dt,
        config_.schedule, config_.attractor_enabled ? &attractor : nullptr};
    // Only the first substep can fail (positions the caller made non-finite): later ones start
    // from what the kernels wrote.
    for (int substep = 0; substep < substeps; ++substep) {
      if (Status s = interactions_.Step(Arrays(), config_.interaction, params, pool); !s.ok()) {
        return s;
      }
    }
    ++steps_taken_;
    return {};
  }
  const EulerParams euler{config_.gravity, config_.drag_per_second, dt_seconds};
  AttractorParams attractor = config_.attractor;
  attractor.dt_seconds = dt_seconds;
  const RandomStream respawn_stream{config_.seed, steps_taken_ + 1};

  const Vec4View positions = positions_.view();
  const Vec4View velocities = velocities_.view();
  const FloatView ages = ages_.view();
  const FloatView lifetimes = lifetimes_.view();
  const ByteView dead = dead_.view();
  const auto forces = [&](size_t begin, size_t n) {
    if (config_.attractor_enabled) {
      ApplyAttractor(positions.Slice(begin, n), velocities.Slice(begin, n), attractor);
    }
  };
  const auto integrate = [&](size_t begin, size_t n) {
    IntegrateEuler(positions.Slice(begin, n), velocities.Slice(begin, n), euler);
  };
  const auto collide = [&](size_t begin, size_t n) {
    CollideBox(positions.Slice(begin, n), velocities.Slice(begin, n), config_.box);
  };
  const auto age_and_respawn = [&](size_t begin, size_t n) {
    AdvanceAge(ages.Slice(begin, n), lifetimes.Slice(begin, n), dead.Slice(begin, n), dt_seconds);
    RespawnDead(positions.Slice(begin, n), velocities.Slice(begin, n), ages.Slice(begin, n),
                lifetimes.Slice(begin, n), dead.Slice(begin, n), config_.emitter, respawn_stream,
                static_cast<uint32_t>(begin));
  };
  RunFused(pool, size(), config_.schedule, forces, integrate, collide, age_and_respawn);
  ++steps_taken_;
  return {};
}

Status ParticleSystem::Resize(size_t count) {
  if (interactions_.active()) {
    return InvalidArgument("an interacting particle system (" +
                           std::string(InteractionName(config_.interaction.kind)) +
                           ") cannot be resized; create a new one with " + std::to_string(count) +
                           " particles");
  }
  const size_t old_size = size();
  const bool fits = count <= positions_.capacity() && count <= velocities_.capacity() &&
                    count <= ages_.capacity() && count <= lifetimes_.capacity() &&
                    count <= dead_.capacity();
  if (fits) {
    // Within capacity nothing is allocated, so none of these can fail.
    SWARM_ASSERT(positions_.Resize(count).ok() && velocities_.Resize(count).ok() &&
                 ages_.Resize(count).ok() && lifetimes_.Resize(count).ok() &&
                 dead_.Resize(count).ok());
  } else {
    // All or nothing: allocate every grown array before replacing any, so a refused request
    // (budget, out of memory) leaves the system and the accountant exactly as they were. The
    // price is a peak of old + new state during the resize.
    Result<Vec4Buffer> positions = positions_.ResizedCopy(count);
    if (!positions.ok()) return positions.status();
    Result<Vec4Buffer> velocities = velocities_.ResizedCopy(count);
    if (!velocities.ok()) return velocities.status();
    Result<FloatArray> ages = ages_.ResizedCopy(count);
    if (!ages.ok()) return ages.status();
    Result<FloatArray> lifetimes = lifetimes_.ResizedCopy(count);
    if (!lifetimes.ok()) return lifetimes.status();
    Result<ByteArray> dead = dead_.ResizedCopy(count);
    if (!dead.ok()) return dead.status();
    positions_ = std::move(positions).value();
    velocities_ = std::move(velocities).value();
    ages_ = std::move(ages).value();
    lifetimes_ = std::move(lifetimes).value();
    dead_ = std::move(dead).value();
  }
  if (count > old_size) {
    // Mark the new particles dead and respawn from the slice boundary below old_size: the
    // respawn kernel leaves live particles' bits untouched.
    std::fill(dead_.span().begin() + static_cast<std::ptrdiff_t>(old_size), dead_.span().end(),
              uint8_t{1});
    const size_t begin = old_size / kSliceElements * kSliceElements;
    const size_t n = count - begin;
    RespawnDead(positions_.view().Slice(begin, n), velocities_.view().Slice(begin, n),
                ages_.view().Slice(begin, n), lifetimes_.view().Slice(begin, n),
                dead_.view().Slice(begin, n), config_.emitter,
                RandomStream{config_.seed, steps_taken_}, static_cast<uint32_t>(begin));
  }
  return {};
}

uint64_t ParticleSystem::StateHash() const {
  StateHasher hasher;
  hasher.Add(positions_.view()).Add(velocities_.view()).Add(ages_.view()).Add(lifetimes_.view());
  return hasher.Digest();
}

}  // namespace swarm
