// Analytic checks of the integrators: semi-implicit Euler against its closed forms (with and
// without drag) and velocity Verlet on a harmonic oscillator, on every compiled SIMD target.
// Each tolerance is derived beside its test.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "swarm/kernels/particles/integrate.h"
#include "swarm/kernels/particles/integrate_reference.h"
#include "tests/kernels/particles/particle_fixture.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

using test::ForEachTarget;
using test::Particles;
using test::RandomParticles;
using test::TargetUnderTest;
using test::TestEulerParams;

// Unit roundoff of float: a correctly rounded operation has relative error at most u.
constexpr double kUnitRoundoff = 0x1p-24;

// The largest error / bound ratio seen, with where it happened.
struct WorstError {
  double ratio = 0.0;
  std::string where;

  void Update(double got, double want, double bound, int step, size_t particle, int axis,
              const char* quantity) {
    const double ratio_here = std::abs(got - want) / bound;
    if (!(ratio_here <= ratio)) {
      ratio = ratio_here;
      where = std::string(quantity) + " step " + std::to_string(step) + " particle " +
              std::to_string(particle) + " axis " + std::to_string(axis) + ": got " +
              std::to_string(got) + ", want " + std::to_string(want) + ", bound " +
              std::to_string(bound);
    }
  }
};

TEST_CASE("IntegrateEuler without drag follows the closed form under constant gravity") {
  // With a = g constant, v_n = v0 + n g dt and, because the new velocity moves the position,
  //   p_n = p0 + dt (v_1 + ... + v_n) = p0 + n dt v0 + g dt^2 n (n + 1) / 2.
  // (Explicit Euler gives n (n - 1) / 2 instead: g dt^2 n = 2.7 m off after 1000 steps here,
  // about 30 times the tolerance below.)
  //
  // Tolerance: float rounding, to first order in u = 2^-24. Each step rounds g dt (the same
  // relative error every step) and v + g dt, so |dv_n| <= n u (|g dt| + V_n) with V_n the
  // largest |v| so far; each position update adds dt |dv| plus the rounding of v dt and p + v dt:
  //   |dp_n| <= dt u (|g dt| + V_n) n (n + 1) / 2 + n u (dt V_n + P_n).
  // The closed form is evaluated in double from the float values of g, dt, p0 and v0.
  constexpr size_t kCount = 37;
  constexpr int kSteps = 1000;
  const EulerParams params = TestEulerParams(0.0f);
  const Particles initial = RandomParticles(kCount, 1);
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    Particles state = initial;
    WorstError worst;
    const double dt = params.dt_seconds;
    for (int n = 1; n <= kSteps; ++n) {
      IntegrateEuler(state.positions.view(), state.velocities.view(), params);
      for (size_t i = 0; i < kCount; ++i) {
        for (int axis = 0; axis < 3; ++axis) {
          const double g = params.gravity[axis];
          const double p0 = initial.positions.Get(i)[axis];
          const double v0 = initial.velocities.Get(i)[axis];
          const double v = v0 + n * g * dt;
          const double p = p0 + n * dt * v0 + g * dt * dt * n * (n + 1) / 2.0;
          const double v_max = std::max(std::abs(v0), std::abs(v));
          const double p_max =
              std::abs(p0) + n * dt * std::abs(v0) + std::abs(g) * dt * dt * n * (n + 1) / 2.0;
          const double v_bound = n * kUnitRoundoff * (std::abs(g * dt) + v_max);
          const double p_bound =
              dt * kUnitRoundoff * (std::abs(g * dt) + v_max) * n * (n + 1) / 2.0 +
              n * kUnitRoundoff * (dt * v_max + p_max);
          // 1% allowance for the second-order terms the bound leaves out.
          worst.Update(state.velocities.Get(i)[axis], v, 1.01 * v_bound, n, i, axis, "v");
          worst.Update(state.positions.Get(i)[axis], p, 1.01 * p_bound, n, i, axis, "p");
        }
      }
    }
    INFO(worst.where);
    CHECK(worst.ratio <= 1.0);
  });
}

TEST_CASE("IntegrateEuler with drag follows the closed form") {
  // v_{n+1} = v_n + (g - k v_n) dt = r v_n + g dt with r = 1 - k dt, whose fixed point is the
  // terminal velocity g / k:
  //   v_n = g/k + (v0 - g/k) r^n,
  //   p_n = p0 + dt (v_1 + ... + v_n) = p0 + dt (n g/k + (v0 - g/k) r (1 - r^n) / (1 - r)).
  // Tolerance: one step rounds k v, g - k v, (g - k v) dt and v + (...) dt, a local error of at
  // most rho = u (V + 3 dt (|g| + k V)) with V = max(|v0|, |g/k|) bounding |v|; the step
  // contracts earlier errors by r, so |dv_n| <= rho (1 - r^n) / (1 - r). Positions add dt |dv_j|
  // per step plus the rounding of v dt and p + v dt: u (dt V + P_n) per step.
  constexpr size_t kCount = 37;
  constexpr int kSteps = 1000;
  const EulerParams params = TestEulerParams(0.5f);
  const Particles initial = RandomParticles(kCount, 2);
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    Particles state = initial;
    WorstError worst;
    const double dt = params.dt_seconds;
    const double k = params.drag_per_second;
    const double r = 1.0 - k * dt;
    std::vector<double> p_bound_sum(kCount * 3, 0.0);
    for (int n = 1; n <= kSteps; ++n) {
      IntegrateEuler(state.positions.view(), state.velocities.view(), params);
      const double r_n = std::pow(r, n);
      for (size_t i = 0; i < kCount; ++i) {
        for (int axis = 0; axis < 3; ++axis) {
          const double g = params.gravity[axis];
          const double terminal = g / k;
          const double p0 = initial.positions.Get(i)[axis];
          const double v0 = initial.velocities.Get(i)[axis];
          const double v = terminal + (v0 - terminal) * r_n;
          const double p = p0 + dt * (n * terminal + (v0 - terminal) * r * (1.0 - r_n) / (1.0 - r));
          const double v_max = std::max(std::abs(v0), std::abs(terminal));
          const double p_max = std::abs(p0) + n * dt * v_max;
          const double rho = kUnitRoundoff * (v_max + 3.0 * dt * (std::abs(g) + k * v_max));
          const double v_bound = rho * (1.0 - r_n) / (1.0 - r);
          double& p_bound = p_bound_sum[i * 3 + static_cast<size_t>(axis)];
          p_bound += dt * v_bound + kUnitRoundoff * (dt * v_max + p_max);
          worst.Update(state.velocities.Get(i)[axis], v, 1.01 * v_bound, n, i, axis, "v");
          worst.Update(state.positions.Get(i)[axis], p, 1.01 * p_bound, n, i, axis, "p");
        }
      }
    }
    INFO(worst.where);
    CHECK(worst.ratio <= 1.0);
  });
}

TEST_CASE("Velocity Verlet keeps a harmonic oscillator's energy bounded without drift") {
  // x'' = -omega^2 x on each axis of each particle, one full step = VerletKickDrift, a = -omega^2
  // x, VerletKick. Velocity Verlet applied to this linear system conserves the shadow energy
  //   H~ = v^2 / 2 + omega^2 x^2 (1 - q) / 2,  q = (omega dt)^2 / 4,
  // exactly (in exact arithmetic), so E = v^2 / 2 + omega^2 x^2 / 2 stays in [H~, H~ / (1 - q)]
  // and |E / E0 - 1| <= q / (1 - q) = 2.5e-5 for omega dt = 0.01: the O((omega dt)^2) band.
  // Float rounding adds an unbiased random walk to H~ with a measured rms of 1.0 u sqrt(steps)
  // (u = 2^-24): 2.2e-6, 6.7e-6, 2e-5 after 1e3, 1e4, 1e5 steps. Over the 768 oscillators below
  // the worst |E / E0 - 1| measured 0.94e-4 .. 1.12e-4 for ten seeds (1.12e-4 for this one), so
  // kEnergyBound = 2e-4 leaves a 1.8x margin and still fails a first-order scheme (symplectic
  // Euler's band is omega dt / 2 = 5e-3) or a wrong half step.
  //
  // Drift: the oscillating part of E averages out over oscillators with random phases, so the
  // mean of E / E0 - 1 over all oscillators and the last 1000 steps must equal that of the first
  // 1000 steps up to the random walk of the mean, 2e-5 / sqrt(768) = 7e-7 rms (measured: 2e-8 ..
  // 1.4e-6 for ten seeds, 1.7e-7 for this one); kDriftBound = 4e-6 is 5.7 of those. A scheme
  // that is not symplectic (e.g. drifting with the old velocity) changes E by a fixed fraction
  // every step and breaks it by orders of magnitude.
  constexpr size_t kCount = 256;
  constexpr int kSteps = 100000;
  constexpr int kWindow = 1000;
  constexpr float kOmega = 2.0f;
  constexpr float kDt = 0.005f;  // omega dt = 0.01
  constexpr double kEnergyBound = 2e-4;
  constexpr double kDriftBound = 4e-6;
  const float omega_squared = kOmega * kOmega;

  std::mt19937 rng(3);
  std::uniform_real_distribution<float> amplitude(0.5f, 2.0f);
  std::uniform_real_distribution<float> phase(0.0f, 6.2831853f);
  Particles initial(kCount, 0.0f, 0);
  for (size_t i = 0; i < kCount; ++i) {
    glm::vec4 x{0.0f}, v{0.0f};
    for (int axis = 0; axis < 3; ++axis) {
      const float a = amplitude(rng), theta = phase(rng);
      x[axis] = a * std::cos(theta);
      v[axis] = -kOmega * a * std::sin(theta);
    }
    initial.positions.Set(i, x);
    initial.velocities.Set(i, v);
  }
  const auto energy = [&](const Particles& state, size_t i, int axis) {
    const double x = state.positions.Get(i)[axis];
    const double v = state.velocities.Get(i)[axis];
    return 0.5 * v * v + 0.5 * double{omega_squared} * x * x;
  };
  const auto compute_accelerations = [&](Particles& state) {
    for (size_t lane = 0; lane < 3; ++lane) {
      for (size_t i = 0; i < kCount; ++i) {
        state.accelerations.Lane(lane)[i] = -omega_squared * state.positions.Lane(lane)[i];
      }
    }
  };

  // The energy statistics are measured on the first target (their double-precision scalar loop
  // costs far more than the kernels, and ten times more under an emulator). Every other target
  // runs the same kernel calls and must end in the same bits, so the same bounds hold there.
  std::optional<Particles> first_final;
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    Particles state = initial;
    if (first_final) {
      compute_accelerations(state);
      for (int step = 1; step <= kSteps; ++step) {
        VerletKickDrift(state.positions.view(), state.velocities.view(), state.accelerations.view(),
                        kDt);
        compute_accelerations(state);
        VerletKick(state.velocities.view(), state.accelerations.view(), kDt);
      }
      CHECK(test::BitwiseEqual(state, *first_final));
      return;
    }
    std::vector<double> initial_energy(kCount * 3);
    for (size_t i = 0; i < kCount; ++i) {
      for (int axis = 0; axis < 3; ++axis) initial_energy[i * 3 + axis] = energy(state, i, axis);
    }
    compute_accelerations(state);
    double worst_error = 0.0;
    double first_window_mean = 0.0, last_window_mean = 0.0;
    for (int step = 1; step <= kSteps; ++step) {
      VerletKickDrift(state.positions.view(), state.velocities.view(), state.accelerations.view(),
                      kDt);
      compute_accelerations(state);
      VerletKick(state.velocities.view(), state.accelerations.view(), kDt);
      double step_sum = 0.0;
      for (size_t i = 0; i < kCount; ++i) {
        for (int axis = 0; axis < 3; ++axis) {
          const double error = energy(state, i, axis) / initial_energy[i * 3 + axis] - 1.0;
          worst_error = std::max(worst_error, std::abs(error));
          step_sum += error;
        }
      }
      if (step <= kWindow) first_window_mean += step_sum;
      if (step > kSteps - kWindow) last_window_mean += step_sum;
    }
    first_window_mean /= kWindow * kCount * 3.0;
    last_window_mean /= kWindow * kCount * 3.0;
    INFO("worst relative energy error " << worst_error << ", mean error first window "
                                        << first_window_mean << ", last window "
                                        << last_window_mean);
    CHECK(worst_error <= kEnergyBound);
    CHECK(std::abs(last_window_mean - first_window_mean) <= kDriftBound);
    first_final.emplace(state);
  });
}

}  // namespace
}  // namespace swarm
