// swarm-gameloop: swarm linked into a classic fixed-timestep game loop, built against an
// installed swarm (find_package(swarm) + swarm::particles: only the rooms it uses, so neither
// libpng nor urdfdom is linked or loaded). Headless and deterministic: frame times
// come from a seeded generator instead of a clock, so two runs print the same numbers.
//
//   swarm-gameloop --particles 100000 --frames 600 --threads 2 --simd=auto
//
// Based on Glenn Fiedler, "Fix Your Timestep!" (gafferongames.com, 2004): physics advances in
// fixed steps of dt paid for out of an accumulator of real elapsed time; what is left in the
// accumulator (less than one step) is rendered by interpolating between the last two physics
// states. Bad flags print a message and exit with status 2; a violated loop invariant prints a
// message and exits with status 1.
#include <swarm/core/buffer.h>
#include <swarm/core/memory.h>
#include <swarm/core/simd.h>
#include <swarm/core/state_hash.h>
#include <swarm/core/status.h>
#include <swarm/core/thread_pool.h>
#include <swarm/core/tile_pipeline.h>
#include <swarm/particles/particle_system.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <ratio>
#include <string>
#include <type_traits>

namespace {

using Nanoseconds = std::chrono::nanoseconds;
// The physics step, 1/120 s, as an exact rational duration.
using PhysicsSteps = std::chrono::duration<int64_t, std::ratio<1, 120>>;
constexpr PhysicsSteps kStep{1};
// Time is accumulated in the common unit of nanoseconds and 1/120 s (1/3e9 s, std::chrono picks
// it), so every sum and difference below is exact integer arithmetic. Fiedler's version keeps the
// accumulator in a double; its rounding makes "steps taken == floor(time / dt)" only approximate
// and lets the step count of a long run depend on how the sum was rounded. Here it is exact, so
// the program can check it. int64 in this unit overflows after ~97 years of simulated time.
using SimulatedTime = std::common_type_t<Nanoseconds, PhysicsSteps>;

// The spiral of death: if one physics step costs more real time than dt, each frame owes more
// steps than the last, the frame gets longer, and the game never catches up. Clamping the time a
// frame may add to the accumulator bounds the steps per frame to ceil(clamp / dt) = 30; past
// that the simulation runs slower than real time instead of freezing.
constexpr Nanoseconds kMaxFrameTime = std::chrono::milliseconds(250);
constexpr uint64_t kMaxStepsPerFrame =
    (SimulatedTime(kMaxFrameTime).count() + SimulatedTime(kStep).count() - 1) /
    SimulatedTime(kStep).count();

// Simulated frame times: uniform in [4 ms, 30 ms] (a display between 250 and 33 fps with an
// uneven load) from SplitMix64, plus a 400 ms hitch (a loading stall, a breakpoint) every
// `hitch_every` frames that the clamp must absorb. SplitMix64 with our own range reduction,
// rather than <random>'s distributions, whose algorithms are implementation-defined: the frame
// sequence, and so every number printed, is the same with any standard library.
class SimulatedFrameClock {
 public:
  SimulatedFrameClock(uint64_t seed, uint64_t hitch_every)
      : state_(seed), hitch_every_(hitch_every) {}

  Nanoseconds NextFrameTime() {
    ++frame_;
    const uint64_t random = NextRandom();
    if (hitch_every_ != 0 && frame_ % hitch_every_ == 0) return kHitch;
    const uint64_t span = static_cast<uint64_t>((kSlowest - kFastest).count()) + 1;
    return kFastest + Nanoseconds(static_cast<int64_t>(random % span));
  }

 private:
  static constexpr Nanoseconds kFastest = std::chrono::milliseconds(4);
  static constexpr Nanoseconds kSlowest = std::chrono::milliseconds(30);
  static constexpr Nanoseconds kHitch = std::chrono::milliseconds(400);

  uint64_t NextRandom() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

  uint64_t state_;
  uint64_t hitch_every_;
  uint64_t frame_ = 0;
};

// previous <- current for lanes x, y, z. Both buffers were sized once at start-up, so this is a
// plain copy into existing memory: the loop allocates nothing. Lane w is not interpolated, so it
// is not copied.
void CopyPositions(swarm::ConstVec4View current, swarm::Vec4View previous) {
  for (size_t lane = 0; lane < 3; ++lane) {
    std::memcpy(previous.Lane(lane), current.Lane(lane), current.count * sizeof(float));
  }
}

// What the renderer draws: lerp(previous, current, alpha) per particle. Rendering the current
// state instead would show each particle up to one step (8.3 ms) late by a varying amount, which
// reads as stutter whenever the frame rate and the step rate beat against each other;
// interpolating shows where the particle was `alpha` of the way through the last step, at the
// cost of one step of latency.
//
// A particle respawned by the last step has age exactly 0 (live particles have age >= dt); its
// previous position belongs to its old life, so it is drawn at its new position instead of
// streaking across the scene. Tiles run on the pool like the physics; each element is
// independent, so the output is the same for any thread count.
void InterpolatePositions(swarm::ThreadPool& pool, const swarm::TileSchedule& schedule,
                          swarm::ConstVec4View previous, swarm::ConstVec4View current,
                          swarm::ConstFloatView ages, float alpha, swarm::Vec4View out) {
  swarm::RunFused(pool, current.count, schedule, [&](size_t begin, size_t count) {
    const float* age = ages.data + begin;
    for (size_t lane = 0; lane < 3; ++lane) {
      const float* from = previous.Lane(lane) + begin;
      const float* to = current.Lane(lane) + begin;
      float* result = out.Lane(lane) + begin;
      for (size_t i = 0; i < count; ++i) {
        result[i] = age[i] == 0.0f ? to[i] : from[i] + alpha * (to[i] - from[i]);
      }
    }
  });
}

struct Options {
  uint64_t particles = 100'000;
  uint64_t frames = 600;
  uint64_t threads = 1;
  uint64_t seed = 1;
  uint64_t hitch_every = 150;
  uint64_t report_every = 100;
  std::string simd = "auto";
};

int Fail(const swarm::Status& status) {
  std::fprintf(stderr, "swarm-gameloop: %s\n", status.message().c_str());
  return 2;
}

// The loop's few flags, `--name value` or `--name=value`, parsed here: a game reads its settings
// its own way, and swarm's command-line support (demos/command_line) is not part of the
// installed library.
constexpr const char* kUsage =
    "usage: swarm-gameloop [--particles N] [--frames N] [--threads N] [--simd NAME] [--seed S]\n"
    "                      [--hitch-every N] [--report-every N]\n"
    "Runs swarm in a fixed-timestep game loop with render interpolation.\n";

swarm::Status ParseOptions(int argc, char** argv, Options& options, bool& help) {
  struct CountFlag {
    const char* name;
    uint64_t* value;
    uint64_t min, max;
  };
  const CountFlag counts[] = {{"particles", &options.particles, 1, 100'000'000},
                              {"frames", &options.frames, 1, 100'000'000},
                              {"threads", &options.threads, 1, 256},
                              {"seed", &options.seed, 0, UINT64_MAX},
                              {"hitch-every", &options.hitch_every, 0, UINT64_MAX},
                              {"report-every", &options.report_every, 1, UINT64_MAX}};
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help") {
      help = true;
      continue;
    }
    if (arg.rfind("--", 0) != 0) return swarm::InvalidArgument("unexpected argument '" + arg + "'");
    std::string name = arg.substr(2), value;
    if (const size_t equals = name.find('='); equals != std::string::npos) {
      value = name.substr(equals + 1);
      name.resize(equals);
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      return swarm::InvalidArgument("--" + name + ": expected a value");
    }
    if (name == "simd") {
      options.simd = value;
      continue;
    }
    const CountFlag* flag = std::find_if(std::begin(counts), std::end(counts),
                                         [&](const CountFlag& f) { return name == f.name; });
    if (flag == std::end(counts)) return swarm::InvalidArgument("unknown flag --" + name);
    char* end = nullptr;
    errno = 0;
    const unsigned long long parsed = std::strtoull(value.c_str(), &end, 10);
    if (value.empty() || value[0] == '-' || *end != '\0' || errno != 0 || parsed < flag->min ||
        parsed > flag->max) {
      return swarm::InvalidArgument("--" + name + ": expected a whole number in [" +
                                    std::to_string(flag->min) + ", " + std::to_string(flag->max) +
                                    "], got '" + value + "'");
    }
    *flag->value = parsed;
  }
  return {};
}

int InvariantViolated(const std::string& what) {
  std::fprintf(stderr, "swarm-gameloop: invariant violated: %s\n", what.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  bool help = false;
  if (swarm::Status s = ParseOptions(argc, argv, options, help); !s.ok()) return Fail(s);
  if (help) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (swarm::Status s = swarm::ForceSimdTarget(options.simd); !s.ok()) return Fail(s);

  // Everything the loop touches is created here, before the first frame.
  swarm::MemoryAccountant memory;
  swarm::ThreadPool pool(options.threads);
  swarm::ParticleConfig config;
  config.seed = options.seed;
  config.emitter.center = {0.0f, 1.0f, 0.0f};
  config.emitter.velocity = {0.0f, 12.0f, 0.0f};
  config.emitter.velocity_spread = {3.0f, 2.0f, 3.0f};
  swarm::Result<swarm::ParticleSystem> created =
      swarm::ParticleSystem::Create(memory, options.particles, config);
  if (!created.ok()) return Fail(created.status());
  swarm::ParticleSystem& system = created.value();
  swarm::Result<swarm::Vec4Buffer> previous = swarm::Vec4Buffer::Create(memory, system.size());
  if (!previous.ok()) return Fail(previous.status());
  swarm::Result<swarm::Vec4Buffer> interpolated = swarm::Vec4Buffer::Create(memory, system.size());
  if (!interpolated.ok()) return Fail(interpolated.status());
  // Before the first step there is one state: previous = current, so alpha is harmless.
  CopyPositions(system.positions().view(), previous->view());

  const float dt_seconds = std::chrono::duration<float>(kStep).count();
  const swarm::SimdTarget target = swarm::ActiveSimdTarget();
  std::printf(
      "swarm-gameloop: %llu particles, %llu frames, dt 1/120 s, frame time clamped to "
      "%lld ms, %zu thread(s), SIMD %s (%s)\n",
      static_cast<unsigned long long>(options.particles),
      static_cast<unsigned long long>(options.frames),
      static_cast<long long>(kMaxFrameTime.count() / 1'000'000), pool.num_threads(),
      target.name.c_str(), target.hwy_name.c_str());

  SimulatedFrameClock clock(options.seed, options.hitch_every);
  SimulatedTime accumulator{0};
  Nanoseconds simulated{0};  // the sum of clamped frame times: what the physics owes
  uint64_t steps = 0;
  uint64_t clamped_frames = 0;
  uint64_t max_steps_in_a_frame = 0;
  double alpha_sum = 0.0, alpha_min = 1.0, alpha_max = 0.0, window_alpha_sum = 0.0;
  uint64_t checksum = 0;
  const uint64_t allocations_before_loop = memory.Total().allocations;

  for (uint64_t frame = 1; frame <= options.frames; ++frame) {
    // A real loop reads a clock here: frame_time = now - previous_now.
    Nanoseconds frame_time = clock.NextFrameTime();
    if (frame_time > kMaxFrameTime) {
      frame_time = kMaxFrameTime;
      ++clamped_frames;
    }
    accumulator += frame_time;
    simulated += frame_time;

    // Pay for the elapsed time in whole steps. Physics always sees the same dt, so it behaves
    // the same at any frame rate and replays bit for bit from the same inputs.
    uint64_t steps_this_frame = 0;
    while (accumulator >= kStep) {
      CopyPositions(system.positions().view(), previous->view());
      if (swarm::Status s = system.Step(dt_seconds, pool); !s.ok()) return Fail(s);
      accumulator -= kStep;
      ++steps;
      ++steps_this_frame;
    }
    max_steps_in_a_frame = std::max(max_steps_in_a_frame, steps_this_frame);

    // The leftover is how far real time has moved into the next, not yet simulated, step.
    const double alpha = static_cast<double>(accumulator.count()) /
                         static_cast<double>(SimulatedTime(kStep).count());
    if (!(alpha >= 0.0 && alpha < 1.0)) {
      return InvariantViolated("alpha " + std::to_string(alpha) + " outside [0, 1) at frame " +
                               std::to_string(frame));
    }
    if (steps != static_cast<uint64_t>(simulated / kStep) ||
        accumulator != simulated - static_cast<int64_t>(steps) * kStep) {
      return InvariantViolated("after frame " + std::to_string(frame) + ": " +
                               std::to_string(steps) + " steps for " +
                               std::to_string(simulated.count()) + " ns of simulated time");
    }
    if (steps_this_frame > kMaxStepsPerFrame) {
      return InvariantViolated(std::to_string(steps_this_frame) + " steps in frame " +
                               std::to_string(frame) + ", the clamp allows " +
                               std::to_string(kMaxStepsPerFrame));
    }
    alpha_sum += alpha;
    window_alpha_sum += alpha;
    alpha_min = std::min(alpha_min, alpha);
    alpha_max = std::max(alpha_max, alpha);

    // "Render": build the interpolated positions a renderer would upload.
    InterpolatePositions(pool, system.config().schedule, previous->view(),
                         system.positions().view(), system.ages().view(), static_cast<float>(alpha),
                         interpolated->view());

    if (frame % options.report_every == 0 || frame == options.frames) {
      const uint64_t window = (frame - 1) % options.report_every + 1;
      checksum = swarm::StateHasher().Add(interpolated->view()).Digest();
      std::printf(
          "frames=%llu steps=%llu simulated_ns=%lld clamped_frames=%llu "
          "mean_alpha=%.6f checksum=%016llx\n",
          static_cast<unsigned long long>(frame), static_cast<unsigned long long>(steps),
          static_cast<long long>(simulated.count()),
          static_cast<unsigned long long>(clamped_frames),
          window_alpha_sum / static_cast<double>(window),
          static_cast<unsigned long long>(checksum));
      window_alpha_sum = 0.0;
    }
  }

  const uint64_t loop_allocations = memory.Total().allocations - allocations_before_loop;
  if (system.steps_taken() != steps) {
    return InvariantViolated("the system took " + std::to_string(system.steps_taken()) +
                             " steps, the loop counted " + std::to_string(steps));
  }
  if (loop_allocations != 0) {
    return InvariantViolated(std::to_string(loop_allocations) + " allocations inside the loop");
  }
  std::printf(
      "summary frames=%llu steps=%llu simulated_ns=%lld clamped_frames=%llu "
      "max_steps_per_frame=%llu mean_alpha=%.6f alpha_min=%.9f alpha_max=%.9f "
      "loop_allocations=%llu checksum=%016llx state_hash=%016llx simd=%s\n",
      static_cast<unsigned long long>(options.frames), static_cast<unsigned long long>(steps),
      static_cast<long long>(simulated.count()), static_cast<unsigned long long>(clamped_frames),
      static_cast<unsigned long long>(max_steps_in_a_frame),
      alpha_sum / static_cast<double>(options.frames), alpha_min, alpha_max,
      static_cast<unsigned long long>(loop_allocations), static_cast<unsigned long long>(checksum),
      static_cast<unsigned long long>(system.StateHash()), target.name.c_str());
  std::printf("invariant steps == floor(simulated / dt): ok (%llu)\n",
              static_cast<unsigned long long>(steps));
  std::printf("invariant 0 <= alpha < 1: ok\n");
  std::printf("invariant steps per frame <= %llu: ok\n",
              static_cast<unsigned long long>(kMaxStepsPerFrame));
  std::printf("invariant no allocation in the loop: ok\n");
  std::fputs(memory.Report().c_str(), stdout);
  return 0;
}
