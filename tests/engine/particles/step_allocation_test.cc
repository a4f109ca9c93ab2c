// Steady-state stepping allocates nothing (docs/design.md, "Memory"): 1,000 ParticleSystem::Step
// calls with 1 and 2 threads make no accounted allocation and no call to the global operator new.
//
// This translation unit replaces the global operator new/delete with counting versions, so it is
// its own test program: the replacement must not leak into other tests.
#include <atomic>
#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

#include "swarm/core/memory.h"
#include "swarm/core/thread_pool.h"
#include "swarm/particles/particle_system.h"

namespace {
std::atomic<uint64_t> global_news{0};

void* CountedNew(std::size_t bytes, std::size_t alignment) {
  global_news.fetch_add(1, std::memory_order_relaxed);
  if (bytes == 0) bytes = 1;
  void* memory = nullptr;
  if (alignment <= alignof(std::max_align_t)) {
    memory = std::malloc(bytes);
  } else {
    memory = std::aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment);
  }
  if (memory == nullptr) throw std::bad_alloc();
  return memory;
}
}  // namespace

void* operator new(std::size_t bytes) { return CountedNew(bytes, 0); }
void* operator new[](std::size_t bytes) { return CountedNew(bytes, 0); }
void* operator new(std::size_t bytes, std::align_val_t alignment) {
  return CountedNew(bytes, static_cast<std::size_t>(alignment));
}
void* operator new[](std::size_t bytes, std::align_val_t alignment) {
  return CountedNew(bytes, static_cast<std::size_t>(alignment));
}
void* operator new(std::size_t bytes, const std::nothrow_t&) noexcept {
  try {
    return CountedNew(bytes, 0);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t bytes, const std::nothrow_t&) noexcept {
  try {
    return CountedNew(bytes, 0);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* memory) noexcept { std::free(memory); }
void operator delete[](void* memory) noexcept { std::free(memory); }
void operator delete(void* memory, std::size_t) noexcept { std::free(memory); }
void operator delete[](void* memory, std::size_t) noexcept { std::free(memory); }
void operator delete(void* memory, std::align_val_t) noexcept { std::free(memory); }
void operator delete[](void* memory, std::align_val_t) noexcept { std::free(memory); }
void operator delete(void* memory, std::size_t, std::align_val_t) noexcept { std::free(memory); }
void operator delete[](void* memory, std::size_t, std::align_val_t) noexcept { std::free(memory); }

namespace swarm {
namespace {

TEST_CASE("The operator new counter counts") {
  const uint64_t before = global_news.load();
  // A direct call of the replaceable function cannot be elided the way a new-expression can.
  void* memory = ::operator new(24);
  ::operator delete(memory);
  CHECK(global_news.load() == before + 1);
}

TEST_CASE("1000 steps allocate nothing, with 1 and 2 threads") {
  for (size_t threads : {size_t{1}, size_t{2}}) {
    INFO(threads << " threads");
    MemoryAccountant memory;
    ParticleConfig config;
    config.attractor_enabled = true;
    config.attractor.center = {0.0f, 10.0f, 0.0f};
    config.attractor.strength = 50.0f;
    config.attractor.softening = 0.5f;
    config.emitter.lifetime_min = 0.2f;  // particles die and respawn during the run
    config.emitter.lifetime_max = 0.6f;
    config.schedule.tile_elements = 1024;
    config.schedule.min_elements_per_thread = 0;  // every thread takes part
    Result<ParticleSystem> system = ParticleSystem::Create(memory, 10007, config);
    REQUIRE(system.ok());
    ThreadPool pool(threads);
    const uint64_t accounted_before = memory.Total().allocations;
    const uint64_t news_before = global_news.load();
    uint64_t failures = 0;
    for (int step = 0; step < 1000; ++step) failures += !system->Step(1.0f / 60.0f, pool).ok();
    const uint64_t news = global_news.load() - news_before;
    const uint64_t accounted = memory.Total().allocations - accounted_before;
    CHECK(failures == 0);
    CHECK(system->steps_taken() == 1000);
    CHECK(news == 0);
    CHECK(accounted == 0);
  }
}

TEST_CASE("interacting systems allocate nothing after their first step", "[native]") {
  for (InteractionKind kind :
       {InteractionKind::kGranular, InteractionKind::kFluid, InteractionKind::kFlock}) {
    for (size_t threads : {size_t{1}, size_t{2}}) {
      INFO(InteractionName(kind) << ", " << threads << " threads");
      MemoryAccountant memory;
      ParticleConfig config;
      config.interaction.kind = kind;
      config.interaction.granular.radius_min = config.interaction.granular.radius_max = 0.2f;
      config.interaction.fluid.kernel_radius = 0.4f;
      config.emitter.half_extent = {3.0f, 3.0f, 3.0f};
      config.emitter.center = {0.0f, 5.0f, 0.0f};
      config.schedule.tile_elements = 1024;
      config.schedule.min_elements_per_thread = 0;
      Result<ParticleSystem> system = ParticleSystem::Create(memory, 5003, config);
      REQUIRE(system.ok());
      ThreadPool pool(threads);
      // The first step sizes the grid (its cell table grows with the particles' spread, with
      // room to spare).
      REQUIRE(system->Step(1.0f / 240.0f, pool).ok());
      const uint64_t accounted_before = memory.Total().allocations;
      const uint64_t news_before = global_news.load();
      uint64_t failures = 0;
      for (int step = 0; step < 200; ++step) failures += !system->Step(1.0f / 240.0f, pool).ok();
      CHECK(failures == 0);
      CHECK(global_news.load() - news_before == 0);
      CHECK(memory.Total().allocations - accounted_before == 0);
    }
  }
}

}  // namespace
}  // namespace swarm
