// Tests for the joint constraint kernels of swarm/kernels/robots/joint_constraints.h:
//   - bitwise against the scalar references (swarm/kernels/robots/joint_constraints_reference.h)
//     on every compiled SIMD target and batch size (empty, partial and whole vectors), padding
//     untouched, with every flag (unflagged, released, caught, dropped, stopped), with and without
//     releases, for impedances of several shapes (flat, linear, powers 2 to 16, midpoints off
//     centre, MuJoCo's refsafe time constant) and push-out caps that engage; vectors whose rows are
//     all quiet (tests/kernels/robots/joint_constraints_quiet_test.cc) give the bits of the full
//     path;
//   - against MuJoCo's row model written independently in double
//     (tests/support/soft_constraint_model.h): a violated limit at rest pushes with
//     -K clamp(r) / R through MuJoCo's impedance over its whole transition and past the push-out
//     cap, its added inertia is dt damping + dt friction eps^2 / (v^2 + eps^2)^(3/2) + m; a moving
//     row damps with MuJoCo's (B + dt K) / R but for the step it arrives in while moving deeper
//     (m / dt, an inelastic stop); released and dropped rows leave tau's bits alone; a caught row
//     steers its joint to the limit and a stopped one stops it;
//   - UpdateLimitFlags: release, catch, drop and stop exactly as a double-precision prediction
//     says, the changed marks, and only the robots of the batch.
// Tolerance against the double model: 2e-5 relative. The float kernels round about twenty times
// (6e-8 each); 1 / R = d / ((1 - d) w0) amplifies the impedance's rounding by d / (1 - d), up to 32
// for the dmax = 0.97 used here, and x^p by p: measured at most 1.9e-6.
#include "swarm/kernels/robots/joint_constraints.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "swarm/kernels/robots/joint_constraints_reference.h"
#include "tests/kernels/geometry/pose_fixture.h"
#include "tests/kernels/robots/joint_lanes_fixture.h"
#include "tests/support/for_each_target.h"
#include "tests/support/soft_constraint_model.h"

namespace swarm {
namespace {

using test::ForEachTarget;
using test::PaddedLanes;
using test::TargetUnderTest;
using test::View;

constexpr float kInfinity = std::numeric_limits<float>::infinity();
constexpr float kPadding = test::kJointPadding;
constexpr double kModelTolerance = 2e-5;
constexpr float kDt = 0.002f;
constexpr float kFlags[] = {0.0f, kRowReleased, kRowCaught, kRowDropped, kRowStopped};

bool SameBits(float a, float b) { return std::memcmp(&a, &b, sizeof(float)) == 0; }

// Impedances of every shape the kernels branch on; the last two cap the push-out within the
// sampled depths.
std::vector<SoftConstraint> SoftConstraints() {
  std::vector<SoftConstraint> softs(6);
  softs[1] = {0.005f, 0.7f, 0.5f, 0.97f, 0.1f, 0.3f, 3};
  softs[2].width = 0.0f;                                  // flat
  softs[3] = {0.001f, 2.0f, 0.2f, 0.8f, 0.05f, 0.8f, 1};  // tc below 2 dt: refsafe; linear
  softs[4] = {0.03f, 1.0f, 0.9f, 0.95f, 0.2f, 0.5f, kMaxImpedancePower, 0.5f};
  softs[5] = {0.02f, 1.0f, 0.9f, 0.95f, 0.001f, 0.5f, 2, 0.2f};
  return softs;
}

// Finite limits on both sides, a lower limit at 0 (q = -0 gives r = -0), one-sided, none.
std::vector<JointConstraint> Joints(std::mt19937& rng, size_t count) {
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<JointConstraint> joints(count);
  for (size_t j = 0; j < count; ++j) {
    JointConstraint& joint = joints[j];
    switch (j % 4) {
      case 0:
        joint.lower = -1.0f + 0.5f * unit(rng), joint.upper = 0.5f + 0.5f * unit(rng);
        break;
      case 1:
        joint.lower = 0.0f, joint.upper = 2.0f;
        break;
      case 2:
        joint.lower = -kInfinity, joint.upper = 1.0f + unit(rng);
        break;
      default:  // never acts: infinite or the 1e30 defaults
        if (j % 8 == 3) joint.lower = -kInfinity, joint.upper = kInfinity;
        break;
    }
    joint.inverse_inertia0 = 0.05f + 5.0f * unit(rng);
    joint.damping = j % 3 == 0 ? 0.0f : 2.0f * unit(rng);
    joint.friction = j % 2 == 0 ? 0.0f : 0.5f * unit(rng);
  }
  return joints;
}

struct JointInputs {
  PaddedLanes q, qd, qdd, flags, tau, changed;
};

// Positions within 0.12 of a finite limit (some exactly on it, some -0 at a limit at 0), rates
// with exact zeros, every flag, changed marks of 0 and 1; robots [128, 256) of a large batch are
// quiet (inside their limits, unflagged), whole vectors of them on every target.
JointInputs RandomInputs(std::mt19937& rng, const std::vector<JointConstraint>& joints,
                         size_t robots) {
  const size_t n = joints.size();
  JointInputs in{PaddedLanes(robots, n, kPadding),
                 test::Uniform(rng, robots, n, -3.0f, 3.0f),
                 test::Uniform(rng, robots, n, -3000.0f, 3000.0f),
                 PaddedLanes(robots, n, kPadding),
                 test::Uniform(rng, robots, n, -50.0f, 50.0f),
                 PaddedLanes(robots, 1, kPadding)};
  std::uniform_real_distribution<float> offset(-0.12f, 0.12f), unit(0.0f, 1.0f);
  for (size_t r = 0; r < robots; ++r) in.changed.Lane(0)[r] = unit(rng) < 0.2f ? 1.0f : 0.0f;
  for (size_t j = 0; j < n; ++j) {
    const JointConstraint& joint = joints[j];
    for (size_t r = 0; r < robots; ++r) {
      const bool quiet = r >= 128 && r < 256;
      const bool lower_finite = std::fabs(joint.lower) < 1e29f;
      const bool upper_finite = std::fabs(joint.upper) < 1e29f;
      float q = 6.0f * unit(rng) - 3.0f;
      if (quiet) {
        q = lower_finite ? joint.lower + 0.3f * unit(rng) : (upper_finite ? joint.upper - 0.1f : q);
        if (lower_finite && upper_finite) q = std::min(q, joint.upper);
      } else if (lower_finite || upper_finite) {
        const bool lower = lower_finite && (!upper_finite || unit(rng) < 0.5f);
        const float limit = lower ? joint.lower : joint.upper;
        const float pick = unit(rng);
        q = pick < 0.05f ? limit : limit + offset(rng);
        if (pick < 0.02f && limit == 0.0f) q = -0.0f;
      }
      in.q.Lane(j)[r] = q;
      if (unit(rng) < 0.1f) in.qd.Lane(j)[r] = 0.0f;
      const float pick = unit(rng);
      in.flags.Lane(j)[r] = quiet || pick < 0.4f ? 0.0f : kFlags[1 + size_t(pick * 6.66f) % 4];
    }
  }
  return in;
}

// The branches the bitwise comparisons went through, and the transitions UpdateLimitFlags made.
struct Coverage {
  size_t arriving = 0, soft_active = 0, inactive_violated = 0, hard = 0, capped = 0;
  size_t released = 0, caught = 0, dropped = 0, stopped = 0;
};

void Count(const std::vector<JointConstraint>& joints, const SoftConstraintStep& limits,
           const JointInputs& in, const PaddedLanes& next, Coverage& coverage) {
  for (size_t j = 0; j < joints.size(); ++j) {
    for (size_t r = 0; r < in.q.count(); ++r) {
      const float flag = in.flags.Lane(j)[r];
      const reference::LimitRow row =
          reference::LimitRowAt(joints[j], limits, in.q.Lane(j)[r], in.qd.Lane(j)[r], flag);
      const bool arrives = row.row_velocity < 0.0f && row.r - limits.dt * row.row_velocity >= 0.0f;
      if (row.active && flag > 0.0f) {
        ++coverage.hard;
      } else if (row.active) {
        ++(arrives ? coverage.arriving : coverage.soft_active);
        if (std::fabs(row.r) > row.row.reach) ++coverage.capped;
      } else if (row.r < 0.0f) {
        ++coverage.inactive_violated;
      }
      const float after = next.Lane(j)[r];
      if (after == flag) continue;
      if (after == kRowReleased) ++coverage.released;
      if (after == kRowCaught) ++coverage.caught;
      if (after == kRowDropped) ++coverage.dropped;
      if (after == kRowStopped) ++coverage.stopped;
    }
  }
}

TEST_CASE("joint constraint kernels match their references bitwise on every target", "[dynamics]") {
  std::mt19937 rng(41);
  const float friction_velocity = 0.02f;
  Coverage coverage;
  size_t changed_calls = 0;
  for (const SoftConstraint& soft : SoftConstraints()) {
    REQUIRE(ValidSoftConstraint(soft));
    const SoftConstraintStep limits = PrepareSoftConstraint(soft, kDt);
    for (size_t robots : test::kJointBatchSizes) {
      const std::vector<JointConstraint> joints = Joints(rng, 8);
      const size_t n = joints.size();
      const JointInputs in = RandomInputs(rng, joints, robots);
      PaddedLanes q = in.q, qd = in.qd, qdd = in.qdd, flags = in.flags;
      PaddedLanes want_tau = in.tau, want_added(robots, n, kPadding),
                  want_forces(robots, n, kPadding);
      reference::JointConstraintTerms(joints.data(), n, limits, friction_velocity, View(q),
                                      View(qd), View(flags), View(want_tau), View(want_tau),
                                      View(want_added));
      reference::JointLimitForces(joints.data(), n, limits, View(q), View(qd), View(qdd),
                                  View(flags), View(want_forces));
      for (bool may_release : {true, false}) {
        PaddedLanes want_flags = in.flags, want_changed = in.changed;
        const bool want_any =
            reference::UpdateLimitFlags(joints.data(), n, limits, View(q), View(qd), View(qdd),
                                        may_release, View(want_flags), View(want_changed));
        if (want_any) ++changed_calls;
        Count(joints, limits, in, want_flags, coverage);
        ForEachTarget([&](const TargetUnderTest& t) {
          INFO("target " << t.name << ", robots " << robots << ", width " << soft.width
                         << ", power " << soft.power << ", may_release " << may_release);
          PaddedLanes tau = in.tau, added(robots, n, kPadding), forces(robots, n, kPadding);
          PaddedLanes torques = in.tau, applied(robots, n, kPadding);
          PaddedLanes applied_added(robots, n, kPadding);
          PaddedLanes got_flags = in.flags, got_changed = in.changed;
          JointConstraintTerms(joints.data(), n, limits, friction_velocity, View(q), View(qd),
                               View(flags), View(tau), View(tau), View(added));
          // Out of place: the torques stay, applied gets what tau got in place.
          JointConstraintTerms(joints.data(), n, limits, friction_velocity, View(q), View(qd),
                               View(flags), View(torques), View(applied), View(applied_added));
          CHECK(torques.BitwiseEqual(in.tau));
          CHECK(applied.BitwiseEqual(tau));
          CHECK(applied_added.BitwiseEqual(added));
          JointLimitForces(joints.data(), n, limits, View(q), View(qd), View(qdd), View(flags),
                           View(forces));
          const bool any = UpdateLimitFlags(joints.data(), n, limits, View(q), View(qd), View(qdd),
                                            may_release, View(got_flags), View(got_changed));
          // BitwiseEqual covers the padding, which must still hold kPadding.
          CHECK(tau.BitwiseEqual(want_tau));
          CHECK(added.BitwiseEqual(want_added));
          CHECK(forces.BitwiseEqual(want_forces));
          CHECK(got_flags.BitwiseEqual(want_flags));
          CHECK(got_changed.BitwiseEqual(want_changed));
          CHECK(any == want_any);
        });
      }
    }
  }
  // The random rows reached every branch and every transition.
  CHECK(coverage.arriving > 100);
  CHECK(coverage.soft_active > 100);
  CHECK(coverage.inactive_violated > 100);
  CHECK(coverage.hard > 100);
  CHECK(coverage.capped > 100);
  CHECK(coverage.released > 100);
  CHECK(coverage.caught > 100);
  CHECK(coverage.dropped > 100);
  CHECK(coverage.stopped > 100);
  CHECK(changed_calls > 5);
}

// Relative error |got - want| / scale, scale >= the magnitudes that set the rounding.
double Relative(double got, double want, double scale) { return std::fabs(got - want) / scale; }

// One joint's rows in lanes: q, qd, qdd, flag and tau.
struct Lanes {
  explicit Lanes(size_t robots)
      : q(robots, 1, kPadding),
        qd(robots, 1, kPadding),
        qdd(robots, 1, kPadding),
        flags(robots, 1, kPadding),
        tau(robots, 1, kPadding) {}
  PaddedLanes q, qd, qdd, flags, tau;
};

// tau and added after JointConstraintTerms, the row forces after JointLimitForces.
struct Results {
  PaddedLanes tau, added, forces;
};
Results Run(const JointConstraint& joint, const SoftConstraintStep& limits, float eps, Lanes& in) {
  const size_t robots = in.q.count();
  Results out{in.tau, PaddedLanes(robots, 1, kPadding), PaddedLanes(robots, 1, kPadding)};
  JointConstraintTerms(&joint, 1, limits, eps, View(in.q), View(in.qd), View(in.flags),
                       View(out.tau), View(out.tau), View(out.added));
  JointLimitForces(&joint, 1, limits, View(in.q), View(in.qd), View(in.qdd), View(in.flags),
                   View(out.forces));
  return out;
}

// The row of robot k in double: side, position, row velocity and MuJoCo's coefficients.
struct ModelRow {
  bool lower;
  double s, position, row_velocity;
  test::MujocoRow row;
};
ModelRow Model(const JointConstraint& joint, const SoftConstraint& soft, const Lanes& in,
               size_t k) {
  const double q = in.q.Lane(0)[k], v = in.qd.Lane(0)[k];
  ModelRow m;
  m.lower = q - joint.lower <= joint.upper - q;
  m.s = m.lower ? 1.0 : -1.0;
  m.position = m.lower ? q - joint.lower : joint.upper - q;
  m.row_velocity = m.s * v;
  m.row = test::MujocoRowAt(soft, kDt, m.position, joint.inverse_inertia0);
  return m;
}

// Whether the row arrives (outside its limit one step ago, moving deeper), and its mass: arriving,
// the larger of its depth's and the depth it reaches within the step.
bool Arrives(const ModelRow& m) {
  return m.row_velocity < 0.0 && m.position - kDt * m.row_velocity >= 0.0;
}
double RowMass(const ModelRow& m, const SoftConstraint& soft, const JointConstraint& joint) {
  if (!Arrives(m)) return m.row.mass;
  const double reached = m.position + kDt * m.row_velocity;
  return std::max(m.row.mass, test::MujocoRowAt(soft, kDt, reached, joint.inverse_inertia0).mass);
}

TEST_CASE("a violated limit at rest pushes with MuJoCo's steady-state force, capped when deep",
          "[dynamics]") {
  // v = 0, qdd = 0: f = f_e = -K clamp(r) / R (MuJoCo's steady state up to the push-out cap), the
  // torque s f, and the added inertia dt damping + dt friction / eps (the friction slope at rest)
  // + m, over r from twice the impedance's width (or the cap's reach, whichever is larger) inside
  // to just past the limit, on both sides.
  JointConstraint joint;
  joint.lower = -0.5f, joint.upper = 0.8f, joint.inverse_inertia0 = 2.5f;
  joint.damping = 0.7f, joint.friction = 0.3f;
  const float eps = 0.02f, tau_in = 1.5f;
  std::vector<SoftConstraint> softs = SoftConstraints();
  softs.push_back({0.02f, 1.0f, 0.6f, 0.97f, 0.05f, 0.3f, 3});
  softs.push_back({0.02f, 1.0f, 0.9f, 0.95f, 0.05f, 0.5f, 6});
  size_t capped = 0;
  for (const SoftConstraint& soft : softs) {
    const SoftConstraintStep limits = PrepareSoftConstraint(soft, kDt);
    const size_t steps = 40, robots = 2 * steps;
    const test::MujocoRow saturated = test::MujocoRowAt(soft, kDt, 1e9, joint.inverse_inertia0);
    const double span = 2.0 * std::max({double(soft.width), 0.01, saturated.reach});
    Lanes in(robots);
    for (size_t k = 0; k < steps; ++k) {
      const float depth = static_cast<float>(span * (double(k) + 0.5) / double(steps));
      in.q.Lane(0)[k] = joint.lower - depth;          // lower side, r = q - lower
      in.q.Lane(0)[steps + k] = joint.upper + depth;  // upper side, r = upper - q
    }
    for (size_t r = 0; r < robots; ++r) {
      in.qd.Lane(0)[r] = 0.0f, in.qdd.Lane(0)[r] = 0.0f, in.flags.Lane(0)[r] = 0.0f;
      in.tau.Lane(0)[r] = tau_in;
    }
    for (size_t r = 0; r < robots; ++r) {
      const ModelRow m = Model(joint, soft, in, r);
      capped += std::fabs(m.position) > m.row.reach;
    }
    ForEachTarget([&](const TargetUnderTest& t) {
      INFO("target " << t.name << ", width " << soft.width << ", power " << soft.power
                     << ", midpoint " << soft.midpoint);
      const Results out = Run(joint, limits, eps, in);
      for (size_t r = 0; r < robots; ++r) {
        INFO("robot " << r);
        const ModelRow m = Model(joint, soft, in, r);
        const double force = -m.row.stiffness * test::CappedPosition(m.row, m.position);
        const double added =
            double(kDt) * joint.damping + double(kDt) * joint.friction / eps + m.row.mass;
        const double errors[] = {
            Relative(out.forces.Lane(0)[r], force, std::fabs(force)),
            Relative(out.tau.Lane(0)[r], tau_in + m.s * force, std::fabs(force) + tau_in),
            Relative(out.added.Lane(0)[r], added, added)};
        for (double error : errors) CHECK(error <= kModelTolerance);
      }
      CHECK(out.tau.PaddingMismatch(kPadding) == std::nullopt);
    });
  }
  CHECK(capped > 40);  // the cap engaged
}

TEST_CASE("a moving limit row damps like MuJoCo's but stops in the step it arrives in",
          "[dynamics]") {
  // Per side and depth (inside the impedance's transition and saturated): a row that arrives
  // (r - dt s v >= 0: outside the limit one step ago) moving deeper stops inelastically, damping
  // m / dt with m the larger of the row's mass at its depth and at the depth it reaches in the
  // step; one already inside moving deeper, or leaving, damps with MuJoCo's (B + dt K) / R. A
  // released or dropped row is inactive: no torque (tau keeps its bits), no force, only damping
  // and friction in the added inertia. f = f_e - m s qdd.
  JointConstraint joint;
  joint.lower = -0.5f, joint.upper = 0.8f, joint.inverse_inertia0 = 0.8f;
  joint.damping = 0.4f, joint.friction = 0.25f;
  const float eps = 0.05f;
  SoftConstraint soft;
  soft.width = 0.02f;
  const SoftConstraintStep limits = PrepareSoftConstraint(soft, kDt);
  struct Case {
    float depth, row_velocity, flag, row_acceleration;
    bool active, arrives;
  };
  const Case cases[] = {
      {0.001f, -0.7f, 0.0f, 12.0f, true, true},          // arrives: 0.001 - 0.002 * 0.7 < 0
      {0.01f, -0.7f, 0.0f, -8.0f, true, false},          // inside, moving deeper
      {0.05f, -9.0f, 0.0f, 3.0f, true, false},           // saturated, moving deeper
      {0.0005f, -2.0f, 0.0f, -4.0f, true, true},         // arrives fast
      {0.01f, 0.9f, 0.0f, -15.0f, true, false},          // leaving
      {0.05f, 0.9f, 0.0f, 4.0f, true, false},            //
      {0.01f, 0.9f, kRowReleased, 5.0f, false, false},   // released
      {0.05f, -1.3f, kRowDropped, -5.0f, false, false},  // dropped
      {0.001f, -0.7f, kRowReleased, 2.0f, false, true},  // released while arriving
  };
  const size_t count = std::size(cases), robots = 2 * count;
  Lanes in(robots);
  for (size_t k = 0; k < robots; ++k) {
    const Case& c = cases[k % count];
    const bool lower = k < count;
    const float s = lower ? 1.0f : -1.0f;
    in.q.Lane(0)[k] = lower ? joint.lower - c.depth : joint.upper + c.depth;
    in.qd.Lane(0)[k] = s * c.row_velocity;
    in.qdd.Lane(0)[k] = s * c.row_acceleration;
    in.flags.Lane(0)[k] = c.flag;
    in.tau.Lane(0)[k] = -2.25f;
  }
  ForEachTarget([&](const TargetUnderTest& t) {
    INFO("target " << t.name);
    const Results out = Run(joint, limits, eps, in);
    for (size_t k = 0; k < robots; ++k) {
      const Case& c = cases[k % count];
      INFO("case " << k % count << (k < count ? ", lower" : ", upper"));
      const ModelRow m = Model(joint, soft, in, k);
      const double v = in.qd.Lane(0)[k];
      const bool arrives = Arrives(m);
      REQUIRE(arrives == c.arrives);  // the case is what it says
      const double mass = RowMass(m, soft, joint);
      const double damping = arrives ? mass / kDt : m.row.damping;
      const double explicit_force =
          test::MujocoExplicitForce(m.row, damping, m.row_velocity, m.position);
      const double slope = joint.friction * eps * eps / std::pow(v * v + double(eps) * eps, 1.5);
      const double joint_terms = double(kDt) * joint.damping + double(kDt) * slope;
      if (c.active) {
        const double force = explicit_force - mass * m.s * in.qdd.Lane(0)[k];
        const double tau = -2.25 + m.s * explicit_force;
        const double scale = std::fabs(explicit_force) + mass * std::fabs(c.row_acceleration);
        CHECK(Relative(out.forces.Lane(0)[k], force, scale) <= kModelTolerance);
        CHECK(Relative(out.tau.Lane(0)[k], tau, std::fabs(tau) + 2.25) <= kModelTolerance);
        CHECK(Relative(out.added.Lane(0)[k], joint_terms + mass, mass) <= kModelTolerance);
      } else {
        CHECK(SameBits(out.forces.Lane(0)[k], 0.0f));
        CHECK(SameBits(out.tau.Lane(0)[k], in.tau.Lane(0)[k]));
        CHECK(Relative(out.added.Lane(0)[k], joint_terms, joint_terms) <= kModelTolerance);
      }
    }
  });
}

TEST_CASE("a caught limit row steers its joint to the limit, a stopped one stops it",
          "[dynamics]") {
  // Hard rows: caught ones about to reach the limit within the step (r > 0 moving in) or inside it
  // (r < 0), and stopped ones. Their explicit force is m (v_target - s v) / dt with
  // v_target = -max(r, 0) / dt (caught) or 0 (stopped), so on a lone joint of inertia I, solving
  // (I + m) a = s f_e, the row ends the step moving at s v' = s v + m / (I + m) (v_target - s v):
  // the target within I / (I + m) of the correction. Active whatever r (a caught or stopped row
  // may be outside its limit).
  JointConstraint joint;
  joint.lower = -1.0f, joint.upper = 1.0f, joint.inverse_inertia0 = 0.5f;
  SoftConstraint soft;
  soft.width = 0.01f;
  const SoftConstraintStep limits = PrepareSoftConstraint(soft, kDt);
  const double inertia = 0.02;  // a light link: the row's mass dominates
  struct Case {
    float position, row_velocity, flag;
  };
  const Case cases[] = {
      {0.003f, -2.0f, kRowCaught},   // reaches the limit within the step
      {-0.004f, 0.5f, kRowCaught},   // released while leaving, turned back in
      {-0.004f, -0.5f, kRowCaught},  // inside, moving deeper
      {0.003f, 2.0f, kRowStopped},   // outside, leaving: stopped all the same
      {-0.002f, -1.5f, kRowStopped},
  };
  const size_t count = std::size(cases), robots = 2 * count;
  Lanes in(robots);
  for (size_t k = 0; k < robots; ++k) {
    const Case& c = cases[k % count];
    const bool lower = k < count;
    const float s = lower ? 1.0f : -1.0f;
    in.q.Lane(0)[k] = lower ? joint.lower + c.position : joint.upper - c.position;
    in.qd.Lane(0)[k] = s * c.row_velocity;
    in.qdd.Lane(0)[k] = 0.0f;
    in.flags.Lane(0)[k] = c.flag;
    in.tau.Lane(0)[k] = 0.0f;
  }
  ForEachTarget([&](const TargetUnderTest& t) {
    INFO("target " << t.name);
    const Results out = Run(joint, limits, 0.01f, in);
    for (size_t k = 0; k < robots; ++k) {
      const Case& c = cases[k % count];
      INFO("case " << k % count << (k < count ? ", lower" : ", upper"));
      const ModelRow m = Model(joint, soft, in, k);
      const double target = c.flag == kRowStopped ? 0.0 : -std::max(m.position, 0.0) / kDt;
      const double mass = RowMass(m, soft, joint);
      const double force = mass * (target - m.row_velocity) / kDt;
      CHECK(Relative(out.forces.Lane(0)[k], force, std::fabs(force)) <= kModelTolerance);
      CHECK(Relative(out.tau.Lane(0)[k], m.s * force, std::fabs(force)) <= kModelTolerance);
      CHECK(Relative(out.added.Lane(0)[k], mass, mass) <= kModelTolerance);
      // The lone joint's step with the kernels' torque and added inertia.
      const double a = double(out.tau.Lane(0)[k]) / (inertia + out.added.Lane(0)[k]);
      const double end_velocity = m.s * (in.qd.Lane(0)[k] + kDt * a);
      const double correction = std::fabs(target - m.row_velocity);
      CHECK(std::fabs(end_velocity - target) <=
            inertia / (inertia + mass) * correction * (1.0 + 1e-4));
      CHECK(std::fabs(end_velocity - target) < 0.01 * correction);
    }
  });
}

// --- UpdateLimitFlags ----------------------------------------------------------------------------

// The next flag of one row in double (soft_constraint.h, one-sided rows; `unsettled`: its robot is
// marked), or -99 when float rounding could decide it either way.
constexpr float kAmbiguous = -99.0f;
float PredictFlag(const JointConstraint& joint, const SoftConstraint& soft, double q, double v,
                  double qdd, float flag, bool may_release, bool unsettled) {
  const bool lower = q - joint.lower <= joint.upper - q;
  const double s = lower ? 1.0 : -1.0;
  const double position = lower ? q - joint.lower : joint.upper - q;
  const double row_velocity = s * v, row_acceleration = s * qdd;
  const test::MujocoRow row = test::MujocoRowAt(soft, kDt, position, joint.inverse_inertia0);
  const bool active = (flag == 0.0f && position < 0.0) || flag > 0.0f;
  double explicit_force;
  if (flag > 0.0f) {
    const double target = flag == kRowStopped ? 0.0 : -std::max(position, 0.0) / kDt;
    explicit_force = row.mass * (target - row_velocity) / kDt;
  } else {
    const bool arrives = row_velocity < 0.0 && position - kDt * row_velocity >= 0.0;
    if (row_velocity < 0.0 && std::fabs(position - kDt * row_velocity) < 1e-6) return kAmbiguous;
    explicit_force = test::MujocoExplicitForce(row, arrives ? row.mass / kDt : row.damping,
                                               row_velocity, position);
  }
  const double force = explicit_force - row.mass * row_acceleration;
  const double force_scale = std::fabs(explicit_force) + row.mass * std::fabs(row_acceleration);
  const double end = position + kDt * (row_velocity + kDt * row_acceleration);
  const double bound = std::min(position, 0.0);
  const double end_scale =
      std::fabs(position) + kDt * std::fabs(row_velocity) + kDt * kDt * std::fabs(row_acceleration);
  if (std::fabs(position) < 1e-6 || std::fabs(end - bound) < 1e-5 * end_scale) return kAmbiguous;
  if (active && std::fabs(force) < 1e-5 * force_scale) return kAmbiguous;
  const bool pulls = active && force < 0.0, crosses = end < bound;
  float next = flag;
  if (may_release && flag == 0.0f && active && pulls) next = kRowReleased;
  if (((flag == 0.0f && !active) || flag == kRowReleased || flag == kRowDropped) && crosses)
    next = kRowCaught;
  if (flag == kRowCaught && pulls) next = may_release ? kRowDropped : kRowStopped;
  if (!may_release && unsettled && (flag == kRowReleased || flag == kRowDropped)) {
    next = kRowStopped;
  }
  return next;
}

TEST_CASE("UpdateLimitFlags releases, catches, drops and stops rows as predicted", "[dynamics]") {
  // Rows within 0.01 of a limit, fast enough to cross within a step, every flag, pulled and pushed
  // by random accelerations: the flags a double-precision prediction gives (released: unflagged,
  // active and pulling, only with may_release; caught: unflagged and inactive, released or dropped,
  // and crossing; dropped (may_release) or stopped (not): caught and pulling; others unchanged),
  // the marks 1 where a robot's flags changed and kept elsewhere, true exactly when a mark was set.
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  SoftConstraint soft;
  soft.width = 0.02f;
  const SoftConstraintStep limits = PrepareSoftConstraint(soft, kDt);
  std::vector<JointConstraint> joints(6);
  for (size_t j = 0; j < joints.size(); ++j) {
    joints[j].lower = -1.0f - 0.3f * unit(rng);
    joints[j].upper = 0.5f + 0.3f * unit(rng);
    joints[j].inverse_inertia0 = 0.2f + 2.0f * unit(rng);
  }
  const size_t n = joints.size();
  size_t transitions[5] = {};  // to released, caught, dropped, stopped; unchanged
  for (size_t robots : {size_t{1}, size_t{17}, size_t{1000}}) {
    PaddedLanes q(robots, n, kPadding);
    PaddedLanes qd = test::Uniform(rng, robots, n, -3.0f, 3.0f);
    PaddedLanes qdd = test::Uniform(rng, robots, n, -2000.0f, 2000.0f);
    PaddedLanes flags(robots, n, kPadding), marks(robots, 1, kPadding);
    for (size_t r = 0; r < robots; ++r) marks.Lane(0)[r] = unit(rng) < 0.3f ? 1.0f : 0.0f;
    for (size_t j = 0; j < n; ++j) {
      for (size_t r = 0; r < robots; ++r) {
        const bool lower = unit(rng) < 0.5f;
        const float offset = 0.02f * unit(rng) - 0.01f;
        q.Lane(j)[r] = lower ? joints[j].lower + offset : joints[j].upper - offset;
        flags.Lane(j)[r] = kFlags[size_t(5.0f * unit(rng)) % 5];
      }
    }
    for (bool may_release : {true, false}) {
      // The last update stops let-go rows of marked robots; a robot's mark is set as soon as one
      // of its rows changes (joints in order), and unknown after an ambiguous row.
      std::vector<float> predicted(robots * n);
      enum Mark { kClear, kSet, kUnknown };
      std::vector<Mark> mark(robots);
      for (size_t r = 0; r < robots; ++r) mark[r] = marks.Lane(0)[r] != 0.0f ? kSet : kClear;
      for (size_t j = 0; j < n; ++j) {
        for (size_t r = 0; r < robots; ++r) {
          const float flag = flags.Lane(j)[r];
          const bool let_go = flag == kRowReleased || flag == kRowDropped;
          float& want = predicted[j * robots + r];
          want = PredictFlag(joints[j], soft, q.Lane(j)[r], qd.Lane(j)[r], qdd.Lane(j)[r], flag,
                             may_release, mark[r] == kSet);
          if (!may_release && let_go && mark[r] == kUnknown) want = kAmbiguous;
          if (want == kAmbiguous && mark[r] == kClear) mark[r] = kUnknown;
          if (want != kAmbiguous && want != flag) mark[r] = kSet;
        }
      }
      ForEachTarget([&](const TargetUnderTest& t) {
        INFO("target " << t.name << ", robots " << robots << ", may_release " << may_release);
        PaddedLanes got = flags, got_marks = marks;
        const bool any = UpdateLimitFlags(joints.data(), n, limits, View(q), View(qd), View(qdd),
                                          may_release, View(got), View(got_marks));
        std::vector<bool> moved(robots, false);
        std::fill(std::begin(transitions), std::end(transitions), 0);
        for (size_t j = 0; j < n; ++j) {
          for (size_t r = 0; r < robots; ++r) {
            INFO("joint " << j << " robot " << r << " flag " << flags.Lane(j)[r]);
            const float want = predicted[j * robots + r], before = flags.Lane(j)[r];
            const float after = got.Lane(j)[r];
            moved[r] = moved[r] || after != before;
            if (want != kAmbiguous) CHECK(after == want);
            if (after == before) {
              ++transitions[4];
            } else {
              ++transitions[after == kRowReleased  ? 0
                            : after == kRowCaught  ? 1
                            : after == kRowDropped ? 2
                                                   : 3];
            }
            if (!may_release) {  // no row released or dropped, caught rows that pull stop
              CHECK((after == before || after == kRowCaught || after == kRowStopped));
            }
          }
        }
        bool any_moved = false;
        for (size_t r = 0; r < robots; ++r) {
          INFO("robot " << r);
          any_moved = any_moved || moved[r];
          CHECK(got_marks.Lane(0)[r] == (moved[r] ? 1.0f : marks.Lane(0)[r]));
        }
        CHECK(any == any_moved);
        CHECK(got.PaddingMismatch(kPadding) == std::nullopt);
        CHECK(got_marks.PaddingMismatch(kPadding) == std::nullopt);
      });
      if (robots == 1000) {
        for (size_t k = 0; k < 4; ++k) {
          INFO("transition " << k << (may_release ? ", may_release" : ""));
          // Releases and drops need may_release; stops need it off.
          const bool possible = k == 1 || (may_release ? k != 3 : (k == 3));
          if (possible) CHECK(transitions[k] > 50);
          if (!possible) CHECK(transitions[k] == 0);
        }
      }
    }
  }
}

TEST_CASE("UpdateLimitFlags counts only the robots of the batch", "[dynamics]") {
  // Five robots whose rows stay clear of their limits; the padding lanes of the inputs hold rows
  // that would cross. No row is caught, the answer is false and the padding is not written.
  JointConstraint joint;
  joint.lower = -1.0f, joint.upper = 1.0f;
  const SoftConstraintStep limits = PrepareSoftConstraint(SoftConstraint{}, kDt);
  const size_t robots = 5;
  PaddedLanes q(robots, 1, -0.999f), qd(robots, 1, -10.0f), qdd(robots, 1, 0.0f);
  PaddedLanes flags(robots, 1, 0.0f), marks(robots, 1, 0.0f);
  for (size_t r = 0; r < robots; ++r) {
    q.Lane(0)[r] = 0.1f * float(r), qd.Lane(0)[r] = 1.0f, qdd.Lane(0)[r] = 5.0f;
  }
  ForEachTarget([&](const TargetUnderTest& t) {
    INFO("target " << t.name);
    PaddedLanes got = flags, got_marks = marks;
    CHECK_FALSE(UpdateLimitFlags(&joint, 1, limits, View(q), View(qd), View(qdd), true, View(got),
                                 View(got_marks)));
    CHECK(got.BitwiseEqual(flags));
    CHECK(got_marks.BitwiseEqual(marks));
    // The same rows as robots of the batch are caught.
    const size_t all = RoundUpToVector<float>(robots);
    PaddedLanes wide_q(all, 1, kPadding), wide_qd(all, 1, kPadding), wide_qdd(all, 1, kPadding);
    PaddedLanes wide_flags(all, 1, kPadding), wide_marks(all, 1, kPadding);
    for (size_t r = 0; r < all; ++r) {
      wide_q.Lane(0)[r] = q.Lane(0)[r], wide_qd.Lane(0)[r] = qd.Lane(0)[r];
      wide_qdd.Lane(0)[r] = qdd.Lane(0)[r], wide_flags.Lane(0)[r] = 0.0f;
      wide_marks.Lane(0)[r] = 0.0f;
    }
    CHECK(UpdateLimitFlags(&joint, 1, limits, View(wide_q), View(wide_qd), View(wide_qdd), true,
                           View(wide_flags), View(wide_marks)) == (all > robots));
  });
}

}  // namespace
}  // namespace swarm
