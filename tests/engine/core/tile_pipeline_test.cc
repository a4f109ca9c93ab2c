// Tests for swarm/core/tile_pipeline.h: the fused and the pass-by-pass schedules visit tiles in
// the documented order, and running the particle kernels through either gives the same bits as
// running each kernel once over the whole buffers, for any tile size and thread count.
#include "swarm/core/tile_pipeline.h"

#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <mutex>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "swarm/core/buffer.h"
#include "swarm/core/memory.h"
#include "swarm/core/state_hash.h"
#include "swarm/core/thread_pool.h"
#include "swarm/kernels/particles/emit.h"
#include "swarm/kernels/particles/integrate.h"
#include "tests/support/padding.h"

namespace swarm {
namespace {

// The smallest tiles the kernels accept: one padding vector of floats (16 on x86, 64 on aarch64)
// and, for stages that slice the byte array of dead flags, one padding vector of bytes.
constexpr size_t kFloatTile = test::PaddedFloats(1);
constexpr size_t kByteTile = test::PaddedBytes(1);

TEST_CASE("TileSchedule cuts the range into whole tiles and one short last tile") {
  const TileSchedule schedule{32};
  CHECK(schedule.TileCount(0) == 0);
  CHECK(schedule.TileCount(1) == 1);
  CHECK(schedule.TileCount(32) == 1);
  CHECK(schedule.TileCount(33) == 2);
  CHECK(schedule.Begin(2) == 64);
  CHECK(schedule.CountOf(0, 70) == 32);
  CHECK(schedule.CountOf(2, 70) == 6);
  CHECK(TileSchedule{}.tile_elements == 4096);
}

struct Call {
  int stage;
  size_t begin;
  size_t count;
  bool operator==(const Call&) const = default;
};

TEST_CASE("RunFused runs every stage on a tile before the next and RunStageByStage pass by pass") {
  ThreadPool pool(1);  // one thread: the order of calls is fully defined
  constexpr size_t t = kFloatTile;
  const TileSchedule schedule{t};
  std::vector<Call> calls;
  const auto stage0 = [&](size_t begin, size_t n) { calls.push_back({0, begin, n}); };
  const auto stage1 = [&](size_t begin, size_t n) { calls.push_back({1, begin, n}); };

  // Two whole tiles and half of one.
  RunFused(pool, 2 * t + t / 2, schedule, stage0, stage1);
  CHECK(calls ==
        std::vector<Call>{
            {0, 0, t}, {1, 0, t}, {0, t, t}, {1, t, t}, {0, 2 * t, t / 2}, {1, 2 * t, t / 2}});
  calls.clear();
  RunStageByStage(pool, 2 * t + t / 2, schedule, stage0, stage1);
  CHECK(calls ==
        std::vector<Call>{
            {0, 0, t}, {0, t, t}, {0, 2 * t, t / 2}, {1, 0, t}, {1, t, t}, {1, 2 * t, t / 2}});
  calls.clear();
  RunFused(pool, 0, schedule, stage0, stage1);
  CHECK(calls.empty());
}

TEST_CASE("With several threads every element is covered by exactly one tile per stage") {
  for (size_t threads = 1; threads <= 4; ++threads) {
    ThreadPool pool(threads);
    const size_t count = 1000;
    std::vector<int> covered(count, 0);
    std::mutex mutex;
    const auto mark = [&](size_t begin, size_t n) {
      std::lock_guard<std::mutex> lock(mutex);
      for (size_t i = begin; i < begin + n; ++i) covered[i] += 1;
    };
    RunFused(pool, count, TileSchedule{3 * kFloatTile, 0}, mark, mark);
    size_t wrong = 0;
    for (int c : covered) wrong += c != 2;
    CHECK(wrong == 0);
  }
}

TEST_CASE("Small batches stay on the caller; large ones spread over the pool") {
  ThreadPool pool(2);
  std::mutex mutex;
  std::set<std::thread::id> seen;
  const auto record = [&](size_t, size_t) {
    std::lock_guard<std::mutex> lock(mutex);
    seen.insert(std::this_thread::get_id());
  };
  const TileSchedule schedule{64, 1000};
  RunFused(pool, 1999, schedule, record);  // under 2 x 1000 elements: one thread
  CHECK(seen == std::set<std::thread::id>{std::this_thread::get_id()});
  seen.clear();
  RunFused(pool, 2000, schedule, record);
  CHECK(seen.size() == 2);
  CHECK(schedule.MaxThreads(0) == 1);
  CHECK(TileSchedule{64, 0}.MaxThreads(5) == 5);
}

// Particle state the kernels run on; created by emitting from stream 0 with short lifetimes and
// staggered ages, so one step both integrates and kills/respawns a share of the particles.
struct State {
  Vec4Buffer positions;
  Vec4Buffer velocities;
  FloatArray ages;
  FloatArray lifetimes;
  ByteArray dead;

  uint64_t Hash() const {
    return StateHasher()
        .Add(positions.view())
        .Add(velocities.view())
        .Add(ages.view())
        .Add(lifetimes.view())
        .Add(dead.view())
        .Digest();
  }
};

EmitterParams ShortLivedEmitter() {
  EmitterParams emitter;
  emitter.center = {0.0f, 2.0f, 0.0f};
  emitter.half_extent = {3.0f, 2.0f, 3.0f};
  emitter.velocity = {0.0f, 4.0f, 0.0f};
  emitter.velocity_spread = {6.0f, 6.0f, 6.0f};
  emitter.lifetime_min = 0.05f;
  emitter.lifetime_max = 0.2f;
  return emitter;
}

State MakeState(MemoryAccountant& memory, size_t count) {
  State state{Vec4Buffer::Create(memory, count).value(), Vec4Buffer::Create(memory, count).value(),
              FloatArray::Create(memory, count).value(), FloatArray::Create(memory, count).value(),
              ByteArray::Create(memory, count).value()};
  EmitParticles(state.positions.view(), state.velocities.view(), state.ages.view(),
                state.lifetimes.view(), ShortLivedEmitter(), RandomStream{7, 0}, 0);
  FillUniform(state.ages.view(), RandomStream{7, 99}, 0, 0.0f, 0.2f);
  return state;
}

struct Kernels {
  AttractorParams attractor{{0.5f, 3.0f, -0.5f}, 20.0f, 0.3f, 1.0f / 60.0f};
  EulerParams euler{{0.0f, -9.81f, 0.0f}, 0.2f, 1.0f / 60.0f};
  BoxParams box{{-2.0f, 0.0f, -2.0f}, {2.0f, 4.0f, 2.0f}, 0.7f, 0.1f};
  EmitterParams emitter = ShortLivedEmitter();
  RandomStream respawn{7, 1};
};

// Each kernel once over the whole buffers: the reference the tiled runs must reproduce.
template <bool kWithAges>
void RunWhole(State& s, const Kernels& k) {
  ApplyAttractor(s.positions.view(), s.velocities.view(), k.attractor);
  IntegrateEuler(s.positions.view(), s.velocities.view(), k.euler);
  CollideBox(s.positions.view(), s.velocities.view(), k.box);
  if constexpr (kWithAges) {
    AdvanceAge(s.ages.view(), s.lifetimes.view(), s.dead.view(), k.euler.dt_seconds);
    RespawnDead(s.positions.view(), s.velocities.view(), s.ages.view(), s.lifetimes.view(),
                s.dead.view(), k.emitter, k.respawn, 0);
  }
}

// The same kernels as tiled stages; kWithAges adds the stages that slice the byte array of dead
// flags.
template <bool kFused, bool kWithAges>
void RunTiled(State& s, const Kernels& k, ThreadPool& pool, TileSchedule schedule) {
  const Vec4View p = s.positions.view();
  const Vec4View v = s.velocities.view();
  const FloatView ages = s.ages.view();
  const FloatView lifetimes = s.lifetimes.view();
  const ByteView dead = s.dead.view();
  const auto attract = [&](size_t b, size_t n) {
    ApplyAttractor(p.Slice(b, n), v.Slice(b, n), k.attractor);
  };
  const auto integrate = [&](size_t b, size_t n) {
    IntegrateEuler(p.Slice(b, n), v.Slice(b, n), k.euler);
  };
  const auto collide = [&](size_t b, size_t n) { CollideBox(p.Slice(b, n), v.Slice(b, n), k.box); };
  const auto age = [&](size_t b, size_t n) {
    AdvanceAge(ages.Slice(b, n), lifetimes.Slice(b, n), dead.Slice(b, n), k.euler.dt_seconds);
  };
  const auto respawn = [&](size_t b, size_t n) {
    RespawnDead(p.Slice(b, n), v.Slice(b, n), ages.Slice(b, n), lifetimes.Slice(b, n),
                dead.Slice(b, n), k.emitter, k.respawn, static_cast<uint32_t>(b));
  };
  if constexpr (kFused && kWithAges) {
    RunFused(pool, p.count, schedule, attract, integrate, collide, age, respawn);
  } else if constexpr (kFused) {
    RunFused(pool, p.count, schedule, attract, integrate, collide);
  } else if constexpr (kWithAges) {
    RunStageByStage(pool, p.count, schedule, attract, integrate, collide, age, respawn);
  } else {
    RunStageByStage(pool, p.count, schedule, attract, integrate, collide);
  }
}

template <bool kWithAges>
void CheckTiledMatchesWhole(std::initializer_list<size_t> tile_sizes) {
  MemoryAccountant memory;
  const Kernels kernels;
  for (size_t count : {size_t{0}, size_t{1}, size_t{17}, size_t{10007}}) {
    const uint64_t initial_hash = MakeState(memory, count).Hash();
    State whole = MakeState(memory, count);
    RunWhole<kWithAges>(whole, kernels);
    const uint64_t expected = whole.Hash();
    if (count > 0) REQUIRE(expected != initial_hash);
    if (kWithAges && count == 10007) {
      // Respawned particles restart at age 0; survivors are older than one dt. Both kinds must
      // be present for the comparison to cover the respawn path.
      size_t respawned = 0;
      for (float age : whole.ages.span()) respawned += age == 0.0f;
      REQUIRE(respawned > 0);
      REQUIRE(respawned < count);
    }
    for (size_t tile : tile_sizes) {
      for (size_t threads = 1; threads <= 4; ++threads) {
        INFO("count " << count << ", tile " << tile << ", " << threads << " threads");
        ThreadPool pool(threads);
        State fused = MakeState(memory, count);
        RunTiled<true, kWithAges>(fused, kernels, pool, TileSchedule{tile, 0});
        CHECK(fused.Hash() == expected);
        State staged = MakeState(memory, count);
        RunTiled<false, kWithAges>(staged, kernels, pool, TileSchedule{tile, 0});
        CHECK(staged.Hash() == expected);
      }
    }
  }
}

TEST_CASE("Tiled f32x4 kernels match whole-buffer kernels bit for bit, any tile and thread count") {
  CheckTiledMatchesWhole<false>({kFloatTile, 3 * kFloatTile, 1024, 4096, 16384});
}

// Slices of a byte array must start on a multiple of its padding (swarm/kernels/base/views.h), so
// pipelines whose stages touch the dead flags use tiles that are multiples of it.
TEST_CASE("A full particle step in tiles matches whole-buffer kernels bit for bit") {
  CheckTiledMatchesWhole<true>({kByteTile, 3 * kByteTile, 1024, 4096, 16384});
}

}  // namespace
}  // namespace swarm
