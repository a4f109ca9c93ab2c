#include "swarm/particles/interaction_state.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <utility>

#include "swarm/kernels/base/lowbias32.h"
#include "swarm/kernels/particles/integrate.h"
#include "swarm/kernels/particles/interaction_kernels.h"

namespace swarm {
namespace {

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A uniform float in [0, 1) from (seed, index) alone: 24 bits of a two-round integer hash.
float UnitHash(uint64_t seed, uint32_t index) {
  const uint32_t mixed =
      LowBias32(LowBias32(static_cast<uint32_t>(seed) ^ index) ^ static_cast<uint32_t>(seed >> 32));
  return static_cast<float>(mixed >> 8) * 0x1p-24f;
}

// The schedule of the passes that scan neighbours: each particle costs about a hundred times an
// Euler step, so a second thread pays off from a few thousand particles, not the tens of
// thousands the light passes need (results do not depend on it).
TileSchedule ScanSchedule(TileSchedule schedule) {
  constexpr size_t kMinScannedPerThread = 2048;
  schedule.min_elements_per_thread =
      std::min(schedule.min_elements_per_thread, kMinScannedPerThread);
  return schedule;
}

// Copies `from` into `to` (same size), tile by tile on the pool. The particle arrays a caller can
// view keep their buffers for the system's life: each step's new values are copied into them
// rather than swapped in, so zero-copy views (C API, numpy) stay valid across steps.
void CopyInto(const Vec4Buffer& from, Vec4Buffer& to, ThreadPool& pool) {
  const ConstVec4View source = from.view();
  const Vec4View target = to.view();
  RunFused(pool, target.count, TileSchedule{}, [&](size_t begin, size_t n) {
    for (size_t lane = 0; lane < 4; ++lane) {
      std::copy_n(source.Lane(lane) + begin, n, target.Lane(lane) + begin);
    }
  });
}
void CopyInto(const FloatArray& from, FloatArray& to, ThreadPool& pool) {
  const float* source = from.view().data;
  float* target = to.view().data;
  RunFused(pool, to.size(), TileSchedule{},
           [&](size_t begin, size_t n) { std::copy_n(source + begin, n, target + begin); });
}

// The box the centres of spheres of radius r stay in: each wall moved inwards by r.
BoxParams InsetBox(BoxParams box, float radius) {
  box.min += glm::vec3(radius);
  box.max -= glm::vec3(radius);
  return box;
}

}  // namespace

Result<InteractionState> InteractionState::Create(MemoryAccountant& accountant, size_t count,
                                                  const InteractionConfig& config) {
  InteractionState state(accountant);
  if (config.kind == InteractionKind::kFluid) {
    Result<Vec4Buffer> predicted = Vec4Buffer::Create(accountant, count);
    if (!predicted.ok()) return predicted.status();
    Result<FloatArray> lambdas = FloatArray::Create(accountant, count);
    if (!lambdas.ok()) return lambdas.status();
    Result<FloatArray> compliances = FloatArray::Create(accountant, count);
    if (!compliances.ok()) return compliances.status();
    Result<FloatArray> densities = FloatArray::Create(accountant, count);
    if (!densities.ok()) return densities.status();
    Result<Vec4Buffer> omega = Vec4Buffer::Create(accountant, count);
    if (!omega.ok()) return omega.status();
    state.predicted_ = std::move(predicted).value();
    state.lambdas_ = std::move(lambdas).value();
    state.compliances_ = std::move(compliances).value();
    state.densities_ = std::move(densities).value();
    state.omega_ = std::move(omega).value();
  }
  Result<FloatArray> radii = FloatArray::Create(accountant, count);
  if (!radii.ok()) return radii.status();
  Result<FloatArray> masses = FloatArray::Create(accountant, count);
  if (!masses.ok()) return masses.status();
  Result<PaddedArray<uint32_t>> ids = PaddedArray<uint32_t>::Create(accountant, count);
  if (!ids.ok()) return ids.status();
  Result<FloatArray> counts = FloatArray::Create(accountant, count);
  if (!counts.ok()) return counts.status();
  Result<Vec4Buffer> spare_vec4 = Vec4Buffer::Create(accountant, count);
  if (!spare_vec4.ok()) return spare_vec4.status();
  Result<FloatArray> spare_float = FloatArray::Create(accountant, count);
  if (!spare_float.ok()) return spare_float.status();
  if (config.kind == InteractionKind::kGranular) {
    Result<Vec4Buffer> listed_at = Vec4Buffer::Create(accountant, count);
    if (!listed_at.ok()) return listed_at.status();
    state.listed_at_ = std::move(listed_at).value();
  }
  state.radii_ = std::move(radii).value();
  state.masses_ = std::move(masses).value();
  state.ids_ = std::move(ids).value();
  state.neighbor_counts_ = std::move(counts).value();
  state.spare_vec4_ = std::move(spare_vec4).value();
  state.spare_float_ = std::move(spare_float).value();
  state.active_ = true;
  return state;
}

void InteractionState::Initialize(const ParticleArrays& arrays, const InteractionConfig& config,
                                  const EmitterParams& emitter, uint64_t seed) {
  const size_t count = radii_.size();
  if (config.lattice_spacing > 0.0f) {
    const float spacing = config.lattice_spacing;
    const glm::vec3 low = emitter.center - emitter.half_extent;
    const size_t nx =
        std::max<size_t>(1, static_cast<size_t>(2.0f * emitter.half_extent.x / spacing));
    const size_t nz =
        std::max<size_t>(1, static_cast<size_t>(2.0f * emitter.half_extent.z / spacing));
    const Vec4View p = arrays.positions->view();
    const Vec4View v = arrays.velocities->view();
    for (size_t i = 0; i < count; ++i) {
      const float ix = static_cast<float>(i % nx);
      const float iz = static_cast<float>(i / nx % nz);
      const float iy = static_cast<float>(i / (nx * nz));
      // Jitter from three more hashes of the index (streams 1-3 of the seed's upper half).
      const float jitter = config.lattice_jitter;
      const auto offset = [&](uint64_t stream) {
        return jitter * (UnitHash(seed + (stream << 32), static_cast<uint32_t>(i)) - 0.5f);
      };
      p.x()[i] = low.x + spacing * ((ix + 0.5f) + offset(1));
      p.y()[i] = low.y + spacing * ((iy + 0.5f) + offset(2));
      p.z()[i] = low.z + spacing * ((iz + 0.5f) + offset(3));
      v.x()[i] = emitter.velocity.x;
      v.y()[i] = emitter.velocity.y;
      v.z()[i] = emitter.velocity.z;
    }
  }
  const GranularConfig& granular = config.granular;
  constexpr float kSphereVolume = 4.18879020f;  // 4/3 pi
  for (size_t i = 0; i < count; ++i) {
    float radius = granular.radius_min;
    if (config.kind == InteractionKind::kGranular) {
      radius = radius + (granular.radius_max - granular.radius_min) *
                            UnitHash(seed, static_cast<uint32_t>(i));
    }
    radii_[i] = radius;
    masses_[i] = config.kind == InteractionKind::kGranular
                     ? granular.density * (kSphereVolume * (radius * radius * radius))
                     : 1.0f;
    ids_[i] = static_cast<uint32_t>(i);
  }
  listed_ = false;
}

SortedGrid InteractionState::Sorted(const ParticleArrays& arrays) const {
  const std::span<const uint32_t> start = grid_.bucket_start();
  return {arrays.positions->view(), start.data(), grid_.cells()};
}

void InteractionState::Reorder(const ParticleArrays& arrays, ThreadPool& pool) {
  const auto move_vec4 = [&](Vec4Buffer& buffer) {
    grid_.ReorderInto(std::as_const(buffer).view(), spare_vec4_.view(), pool);
    CopyInto(spare_vec4_, buffer, pool);
  };
  const auto move_float = [&](FloatArray& array) {
    grid_.ReorderInto(std::as_const(array).view(), spare_float_.view(), pool);
    CopyInto(spare_float_, array, pool);
  };
  move_vec4(*arrays.positions);
  move_vec4(*arrays.velocities);
  move_float(*arrays.ages);
  move_float(*arrays.lifetimes);
  move_float(radii_);
  move_float(masses_);
  if (predicted_.size() > 0) move_vec4(predicted_);
  // The ids move as the bits of floats: a gather copies bits without arithmetic.
  static_assert(sizeof(uint32_t) == sizeof(float));
  const FloatView ids{reinterpret_cast<float*>(ids_.view().data), ids_.size()};
  grid_.ReorderInto(ids, spare_float_.view(), pool);
  std::copy_n(spare_float_.view().data, ids_.size(), ids.data);
}

Status InteractionState::Rebuild(const ParticleArrays& arrays, const Vec4Buffer& at, float radius,
                                 ThreadPool& pool) {
  listed_ = false;
  if (Status s = grid_.Build(at.view(), radius, pool); !s.ok()) return s;
  Reorder(arrays, pool);
  ++stats_.grid_builds;
  return {};
}

Status InteractionState::UpdateLists(const ParticleArrays& arrays, const InteractionConfig& config,
                                     ThreadPool& pool) {
  const Vec4Buffer& at = *arrays.positions;
  bool stale = !listed_;
  if (listed_) {
    // A pair's distance has changed by at most the diagonal of the box of all displacements
    // since the build (grains that fall together keep their lists): the lists hold every pair
    // within the contact distance r while that diagonal is below the skin r list_skin (a little
    // less, for rounding). Tiles' boxes merge exactly, in any order.
    std::mutex merge;
    DisplacementBounds all;
    RunFused(pool, at.size(), TileSchedule{}, [&](size_t begin, size_t n) {
      const DisplacementBounds tile = FindDisplacementBounds(
          std::as_const(listed_at_).view().Slice(begin, n), at.view().Slice(begin, n));
      const std::lock_guard<std::mutex> lock(merge);
      all.finite = all.finite && tile.finite;
      for (size_t axis = 0; axis < 3; ++axis) {
        all.min[axis] = std::min(all.min[axis], tile.min[axis]);
        all.max[axis] = std::max(all.max[axis], tile.max[axis]);
      }
    });
    double diagonal_squared = 0.0;
    for (size_t axis = 0; axis < 3; ++axis) {
      const double extent = static_cast<double>(all.max[axis]) - all.min[axis];
      diagonal_squared += extent * extent;
    }
    const double skin = 0.998 * config.granular.list_skin * InteractionRadius(config);
    stale = !all.finite || !(diagonal_squared <= skin * skin);
  }
  if (!stale) return {};
  const float radius = ListRadius(config);
  if (Status s = Rebuild(arrays, at, radius, pool); !s.ok()) return s;
  if (Status s = lists_.Build(grid_, radius, pool); !s.ok()) return s;
  CopyInto(at, listed_at_, pool);
  listed_ = true;
  return {};
}

Status InteractionState::Step(const ParticleArrays& arrays, const InteractionConfig& config,
                              const InteractionStepParams& params, ThreadPool& pool) {
  const auto start = std::chrono::steady_clock::now();
  const bool fluid = config.kind == InteractionKind::kFluid;
  Status status;
  if (config.kind == InteractionKind::kGranular) {
    status = UpdateLists(arrays, config, pool);
  } else if (fluid) {
    // A fluid's grid is built over its predicted positions; the prediction cannot fail, but must
    // not run on positions the grid would refuse (non-finite ones), so those are checked first.
    const PointBounds bounds = FindPointBounds(std::as_const(*arrays.positions).view());
    if (bounds.first_non_finite < arrays.positions->size()) {
      return grid_.Build(std::as_const(*arrays.positions).view(), InteractionRadius(config),
                         pool);  // the grid's error names the point
    }
    PredictFluid(arrays, params, pool);
    // The neighbours of the predictions serve every iteration of the step (Macklin and Mueller's
    // algorithm): a pair that closes in during the iterations joins at the next step.
    status = Rebuild(arrays, predicted_, InteractionRadius(config), pool);
    if (status.ok()) status = lists_.Build(grid_, InteractionRadius(config), pool);
  } else {
    status = Rebuild(arrays, *arrays.positions, InteractionRadius(config), pool);
  }
  if (!status.ok()) return status;
  const auto sorted = std::chrono::steady_clock::now();
  stats_.neighbor_seconds = SecondsSince(start);
  switch (config.kind) {
    case InteractionKind::kGranular:
      StepGranular(arrays, config, params, pool);
      break;
    case InteractionKind::kFlock:
      StepFlock(arrays, config, params, pool);
      break;
    case InteractionKind::kFluid:
      StepFluid(arrays, config, params, pool);
      break;
    case InteractionKind::kNone:
      break;
  }
  stats_.interaction_seconds = SecondsSince(sorted);
  double neighbors = 0.0;
  for (size_t i = 0; i < neighbor_counts_.size(); ++i) neighbors += neighbor_counts_[i];
  stats_.average_neighbors =
      neighbor_counts_.size() > 0 ? neighbors / static_cast<double>(neighbor_counts_.size()) : 0.0;
  return {};
}

void InteractionState::PredictFluid(const ParticleArrays& arrays,
                                    const InteractionStepParams& params, ThreadPool& pool) {
  const Vec4View positions = arrays.positions->view();
  const Vec4View velocities = arrays.velocities->view();
  const Vec4View predicted = predicted_.view();
  const EulerParams euler{params.gravity, params.drag_per_second, params.dt_seconds};
  const auto predict = [&](size_t begin, size_t n) {
    const Vec4View p = positions.Slice(begin, n);
    const Vec4View v = velocities.Slice(begin, n);
    const Vec4View q = predicted.Slice(begin, n);
    for (size_t lane = 0; lane < 4; ++lane) std::copy_n(p.Lane(lane), n, q.Lane(lane));
    if (params.attractor != nullptr) ApplyAttractor(p, v, *params.attractor);
    IntegrateEuler(q, v, euler);   // v += (g - k v) dt, p* = p + v dt
    CollideBox(q, v, params.box);  // p* into the box (v is replaced at the end of the step)
  };
  RunFused(pool, positions.count, params.schedule, predict);
}

void InteractionState::StepFluid(const ParticleArrays& arrays, const InteractionConfig& config,
                                 const InteractionStepParams& params, ThreadPool& pool) {
  const FluidParams& fluid = config.fluid;
  const size_t count = predicted_.size();
  const NeighborBlocksView lists = lists_.view();
  for (int iteration = 0; iteration < fluid.iterations; ++iteration) {
    const ConstVec4View predicted = std::as_const(predicted_).view();
    const auto lambdas = [&](size_t begin, size_t n) {
      FluidLambdas(predicted, lists, fluid, begin, begin + n, lambdas_.view(), compliances_.view(),
                   densities_.view(), neighbor_counts_.view());
    };
    RunFused(pool, count, ScanSchedule(params.schedule), lambdas);
    const auto correct = [&](size_t begin, size_t n) {
      FluidCorrections(predicted, lists, std::as_const(lambdas_).view(),
                       std::as_const(compliances_).view(), fluid, params.box, begin, begin + n,
                       spare_vec4_.view());
    };
    RunFused(pool, count, ScanSchedule(params.schedule), correct);
    std::swap(predicted_, spare_vec4_);
  }
  const ConstVec4View predicted = std::as_const(predicted_).view();
  const Vec4View velocities = arrays.velocities->view();
  const auto velocity = [&](size_t begin, size_t n) {
    PositionsToVelocities(std::as_const(*arrays.positions).view().Slice(begin, n),
                          std::as_const(predicted_).view().Slice(begin, n), params.dt_seconds,
                          velocities.Slice(begin, n));
  };
  RunFused(pool, count, params.schedule, velocity);
  const auto vorticity = [&](size_t begin, size_t n) {
    FluidVorticity(predicted, lists, velocities, fluid, begin, begin + n, omega_.view());
  };
  // Without confinement omega stays as allocated: zero.
  if (fluid.vorticity > 0.0f) RunFused(pool, count, ScanSchedule(params.schedule), vorticity);
  const auto viscosity = [&](size_t begin, size_t n) {
    FluidViscosity(predicted, lists, velocities, std::as_const(omega_).view(), fluid,
                   params.dt_seconds, begin, begin + n, spare_vec4_.view());
  };
  RunFused(pool, count, ScanSchedule(params.schedule), viscosity);
  CopyInto(spare_vec4_, *arrays.velocities, pool);
  CopyInto(predicted_, *arrays.positions, pool);
}

void InteractionState::StepGranular(const ParticleArrays& arrays, const InteractionConfig& config,
                                    const InteractionStepParams& params, ThreadPool& pool) {
  const float radius = InteractionRadius(config);
  const NeighborBlocksView lists = lists_.view();
  const Vec4View positions = arrays.positions->view();
  const Vec4View velocities = arrays.velocities->view();
  const Vec4View forces = spare_vec4_.view();
  const FloatView masses = masses_.view();
  const auto contact = [&](size_t begin, size_t n) {
    GranularForces(positions, lists, radius, velocities, radii_.view(), masses,
                   config.granular.contact, begin, begin + n, forces, neighbor_counts_.view());
  };
  RunFused(pool, positions.count, ScanSchedule(params.schedule), contact);
  const EulerParams euler{params.gravity, params.drag_per_second, params.dt_seconds};
  const BoxParams box = InsetBox(params.box, config.granular.radius_max);
  const auto move = [&](size_t begin, size_t n) {
    const Vec4View p = positions.Slice(begin, n);
    const Vec4View v = velocities.Slice(begin, n);
    ApplyForces(v, forces.Slice(begin, n), masses.Slice(begin, n), params.dt_seconds);
    if (params.attractor != nullptr) ApplyAttractor(p, v, *params.attractor);
    IntegrateEuler(p, v, euler);
    CollideBox(p, v, box);
  };
  RunFused(pool, positions.count, params.schedule, move);
}

void InteractionState::StepFlock(const ParticleArrays& arrays, const InteractionConfig& config,
                                 const InteractionStepParams& params, ThreadPool& pool) {
  const SortedGrid sorted = Sorted(arrays);
  FlockParams flock = config.flock;
  flock.box = params.box;
  const Vec4View steered = spare_vec4_.view();
  const auto steer = [&](size_t begin, size_t n) {
    SteerFlock(sorted, std::as_const(*arrays.velocities).view(), flock, params.dt_seconds, begin,
               begin + n, steered, neighbor_counts_.view());
  };
  RunFused(pool, steered.count, ScanSchedule(params.schedule), steer);
  CopyInto(spare_vec4_, *arrays.velocities, pool);
  const Vec4View positions = arrays.positions->view();
  const Vec4View velocities = arrays.velocities->view();
  const EulerParams euler{params.gravity, params.drag_per_second, params.dt_seconds};
  const auto move = [&](size_t begin, size_t n) {
    const Vec4View p = positions.Slice(begin, n);
    const Vec4View v = velocities.Slice(begin, n);
    if (params.attractor != nullptr) ApplyAttractor(p, v, *params.attractor);
    IntegrateEuler(p, v, euler);
    CollideBox(p, v, params.box);
  };
  RunFused(pool, positions.count, params.schedule, move);
}

}  // namespace swarm
