// swarm-particles: the headless particle run. Steps a particle system (emitter, gravity, drag,
// box collision, optional attractor) with the fused tile pipeline and prints per-step timings,
// the SIMD target that ran, the state hash and the memory report.
//
//   swarm-particles --particles 1e6 --steps 600 --threads 2 --simd=auto --memory-limit 256M
//
// Bad flags print a message and exit with status 2.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/flags.h"
#include "engine/memory.h"
#include "engine/particle_system.h"
#include "engine/simd.h"
#include "engine/thread_pool.h"

namespace {

struct Options {
  uint64_t particles = 1'000'000;
  uint64_t steps = 600;
  uint64_t threads = 1;
  uint64_t seed = 1;
  uint64_t report_every = 100;
  double dt_seconds = 1.0 / 60.0;
  size_t memory_limit = swarm::kNoBudget;
  std::string simd = "auto";
  bool attractor = false;
};

int Fail(const swarm::Status& status) {
  std::fprintf(stderr, "swarm-particles: %s\n", status.message().c_str());
  return 2;
}

double Milliseconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  swarm::FlagSet flags("swarm-particles",
                       "Steps a particle system headless and reports timings and memory.");
  flags.AddCount("particles", &options.particles, 0, 2'000'000'000, "number of particles");
  flags.AddCount("steps", &options.steps, 0, 1'000'000'000, "fixed steps to run");
  flags.AddCount("threads", &options.threads, 1, 256, "threads in the pool (caller included)");
  flags.AddCount("seed", &options.seed, 0, UINT64_MAX, "random seed of the emitter");
  flags.AddCount("report-every", &options.report_every, 1, 1'000'000'000,
                 "print timings every this many steps");
  flags.AddNumber("dt", &options.dt_seconds, 1e-6, 1.0, "step in seconds");
  flags.AddBytes("memory-limit", &options.memory_limit, "memory budget, e.g. 96M");
  flags.AddString("simd", &options.simd, "auto|avx512|avx2|sse4|ssse3|scalar");
  flags.AddSwitch("attractor", &options.attractor, "add a point attractor at the box centre");
  if (swarm::Status s = flags.Parse(argc, argv); !s.ok()) return Fail(s);
  if (flags.help_requested()) {
    std::fputs(flags.Usage().c_str(), stdout);
    return 0;
  }
  if (swarm::Status s = swarm::ForceSimdTarget(options.simd); !s.ok()) return Fail(s);

  swarm::MemoryAccountant memory(options.memory_limit);
  swarm::ThreadPool pool(options.threads);
  swarm::ParticleConfig config;
  config.attractor_enabled = options.attractor;
  config.attractor.center = (config.box.min + config.box.max) * 0.5f;
  config.attractor.strength = 50.0f;
  config.attractor.softening = 0.5f;
  config.seed = options.seed;
  config.emitter.center = {0.0f, 1.0f, 0.0f};
  config.emitter.velocity = {0.0f, 12.0f, 0.0f};
  config.emitter.velocity_spread = {3.0f, 2.0f, 3.0f};

  swarm::Result<swarm::ParticleSystem> created =
      swarm::ParticleSystem::Create(memory, options.particles, config);
  if (!created.ok()) {
    if (created.status().code() == swarm::ErrorCode::kOverBudget) {
      std::fprintf(stderr, "swarm-particles: --memory-limit=%s is too small for %llu particles\n",
                   swarm::FormatBytes(options.memory_limit).c_str(),
                   static_cast<unsigned long long>(options.particles));
    }
    return Fail(created.status());
  }
  swarm::ParticleSystem& system = created.value();

  const swarm::SimdTarget target = swarm::ActiveSimdTarget();
  std::printf("swarm-particles: %llu particles, %llu steps of %.4f s, %zu thread(s), SIMD %s (%s)\n",
              static_cast<unsigned long long>(options.particles),
              static_cast<unsigned long long>(options.steps), options.dt_seconds,
              pool.num_threads(), target.name.c_str(), target.hwy_name.c_str());
  std::printf("%10s %12s %12s %12s %14s\n", "steps", "mean ms", "min ms", "max ms",
              "ns/particle");

  std::vector<double> step_ms;
  step_ms.reserve(options.steps);
  double window_min = 1e300, window_max = 0, window_sum = 0;
  size_t window_count = 0;
  for (uint64_t step = 0; step < options.steps; ++step) {
    const auto start = std::chrono::steady_clock::now();
    if (swarm::Status s = system.Step(static_cast<float>(options.dt_seconds), pool); !s.ok()) {
      return Fail(s);
    }
    const double ms = Milliseconds(std::chrono::steady_clock::now() - start);
    step_ms.push_back(ms);
    window_min = std::min(window_min, ms);
    window_max = std::max(window_max, ms);
    window_sum += ms;
    ++window_count;
    if ((step + 1) % options.report_every == 0 || step + 1 == options.steps) {
      const double mean = window_sum / static_cast<double>(window_count);
      std::printf("%10llu %12.3f %12.3f %12.3f %14.3f\n",
                  static_cast<unsigned long long>(step + 1), mean, window_min, window_max,
                  options.particles > 0 ? mean * 1e6 / static_cast<double>(options.particles) : 0);
      window_min = 1e300;
      window_max = 0;
      window_sum = 0;
      window_count = 0;
    }
  }
  if (!step_ms.empty()) {
    std::vector<double> sorted = step_ms;
    std::sort(sorted.begin(), sorted.end());
    const double median = sorted[sorted.size() / 2];
    // The fused step reads and writes positions and velocities (x, y, z: 24 B each way) plus
    // age, lifetime and the dead flag: about 57 B of traffic per particle.
    const double gigabytes_per_second =
        57.0 * static_cast<double>(options.particles) / (median * 1e-3) / 1e9;
    std::printf("median step %.3f ms (p10 %.3f, p90 %.3f), %.2f GB/s effective\n", median,
                sorted[sorted.size() / 10], sorted[sorted.size() * 9 / 10], gigabytes_per_second);
  }
  std::printf("state hash %016llx after %u steps\n",
              static_cast<unsigned long long>(system.StateHash()), system.steps_taken());
  std::fputs(memory.Report().c_str(), stdout);
  return 0;
}
