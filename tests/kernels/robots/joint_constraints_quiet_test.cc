// The joint constraint kernels' quiet vectors (swarm/kernels/robots/joint_constraints.h): where no
// lane of a vector of robots has its row violated or flagged, JointConstraintTerms,
// JointLimitForces and UpdateLimitFlags skip the row's coefficients. Checked on every compiled
// SIMD target: each quiet robot gets the same bits, and the same changed mark, whether its vector
// is quiet or a neighbour's violated or flagged row sends the vector down the full path, and the
// same bits as the scalar references (which always take the full path). Quiet rows near their
// limits moving in fast enough to cross within the step are caught on either path.
#include <catch2/catch.hpp>
#include <cstddef>
#include <random>
#include <vector>

#include "swarm/kernels/robots/joint_constraints.h"
#include "swarm/kernels/robots/joint_constraints_reference.h"
#include "tests/kernels/geometry/pose_fixture.h"
#include "tests/kernels/robots/joint_lanes_fixture.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

using test::PaddedLanes;
using test::View;

constexpr float kPadding = test::kJointPadding;
constexpr float kDt = 0.002f;

struct Inputs {
  PaddedLanes q, qd, qdd, flags, tau;
};

struct Outputs {
  PaddedLanes tau, added, forces, flags, marks;
  bool any;
};

Outputs Run(const std::vector<JointConstraint>& joints, const SoftConstraintStep& limits,
            Inputs& in, bool reference) {
  const size_t robots = in.q.count(), n = joints.size();
  Outputs out{in.tau,   PaddedLanes(robots, n, kPadding), PaddedLanes(robots, n, kPadding),
              in.flags, PaddedLanes(robots, 1, kPadding), false};
  for (size_t r = 0; r < robots; ++r) out.marks.Lane(0)[r] = 0.0f;
  const float eps = 0.05f;
  if (reference) {
    reference::JointConstraintTerms(joints.data(), n, limits, eps, View(in.q), View(in.qd),
                                    View(in.flags), View(out.tau), View(out.tau), View(out.added));
    reference::JointLimitForces(joints.data(), n, limits, View(in.q), View(in.qd), View(in.qdd),
                                View(in.flags), View(out.forces));
    out.any = reference::UpdateLimitFlags(joints.data(), n, limits, View(in.q), View(in.qd),
                                          View(in.qdd), true, View(out.flags), View(out.marks));
  } else {
    JointConstraintTerms(joints.data(), n, limits, eps, View(in.q), View(in.qd), View(in.flags),
                         View(out.tau), View(out.tau), View(out.added));
    JointLimitForces(joints.data(), n, limits, View(in.q), View(in.qd), View(in.qdd),
                     View(in.flags), View(out.forces));
    out.any = UpdateLimitFlags(joints.data(), n, limits, View(in.q), View(in.qd), View(in.qdd),
                               true, View(out.flags), View(out.marks));
  }
  return out;
}

TEST_CASE("quiet joint-limit vectors give the bits of the full path", "[dynamics]") {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  const size_t robots = 256, n = 5;  // whole vectors of up to 64 lanes
  std::vector<JointConstraint> joints(n);
  for (size_t j = 0; j < n; ++j) {
    joints[j].lower = -1.0f + 0.2f * unit(rng), joints[j].upper = 1.0f - 0.2f * unit(rng);
    joints[j].inverse_inertia0 = 0.5f + unit(rng);
    joints[j].damping = 0.3f * unit(rng), joints[j].friction = j % 2 ? 0.2f : 0.0f;
  }
  const SoftConstraintStep limits = PrepareSoftConstraint(SoftConstraint{}, kDt);
  // Quiet: inside the limits (r >= 0, some exactly 0), unflagged; about a third within a step's
  // reach of a limit and moving in, so that some cross.
  Inputs quiet{PaddedLanes(robots, n, kPadding), test::Uniform(rng, robots, n, -2.0f, 2.0f),
               test::Uniform(rng, robots, n, -3000.0f, 3000.0f), PaddedLanes(robots, n, kPadding),
               test::Uniform(rng, robots, n, -5.0f, 5.0f)};
  for (size_t j = 0; j < n; ++j) {
    for (size_t r = 0; r < robots; ++r) {
      const float pick = unit(rng), depth = 0.01f * unit(rng);
      float q = joints[j].lower + (joints[j].upper - joints[j].lower) * unit(rng);
      if (pick < 0.15f) q = joints[j].lower + depth, quiet.qd.Lane(j)[r] = -3.0f * unit(rng);
      if (pick > 0.85f) q = joints[j].upper - depth, quiet.qd.Lane(j)[r] = 3.0f * unit(rng);
      if (pick < 0.02f) q = joints[j].lower;
      quiet.q.Lane(j)[r] = q;
      quiet.flags.Lane(j)[r] = 0.0f;
    }
  }
  // The same robots with every even one violated or flagged: no vector of two lanes or more is
  // quiet.
  Inputs mixed = quiet;
  const float flags[] = {0.0f, kRowReleased, kRowCaught, kRowDropped, kRowStopped};
  for (size_t r = 0; r < robots; r += 2) {
    for (size_t j = 0; j < n; ++j) {
      const float flag = flags[(r / 2 + j) % 5];
      mixed.flags.Lane(j)[r] = flag;
      if (flag == 0.0f) mixed.q.Lane(j)[r] = joints[j].lower - 0.01f * unit(rng);
    }
  }
  const Outputs want = Run(joints, limits, quiet, true);
  size_t caught = 0;
  for (size_t j = 0; j < n; ++j) {
    for (size_t r = 0; r < robots; ++r) caught += want.flags.Lane(j)[r] == kRowCaught;
  }
  CHECK(caught > 20);
  test::ForEachTarget([&](const test::TargetUnderTest& t) {
    INFO("target " << t.name);
    const Outputs got = Run(joints, limits, quiet, false);
    CHECK(got.tau.BitwiseEqual(want.tau));
    CHECK(got.added.BitwiseEqual(want.added));
    CHECK(got.forces.BitwiseEqual(want.forces));
    CHECK(got.flags.BitwiseEqual(want.flags));
    CHECK(got.marks.BitwiseEqual(want.marks));
    CHECK(got.any == want.any);
    const Outputs full = Run(joints, limits, mixed, false);
    for (size_t r = 1; r < robots; r += 2) {
      INFO("robot " << r);
      for (size_t j = 0; j < n; ++j) {
        INFO("joint " << j);
        CHECK(test::SameBits(full.tau.Lane(j)[r], got.tau.Lane(j)[r]));
        CHECK(test::SameBits(full.added.Lane(j)[r], got.added.Lane(j)[r]));
        CHECK(test::SameBits(full.forces.Lane(j)[r], got.forces.Lane(j)[r]));
        CHECK(test::SameBits(full.flags.Lane(j)[r], got.flags.Lane(j)[r]));
      }
      CHECK(test::SameBits(full.marks.Lane(0)[r], got.marks.Lane(0)[r]));
    }
  });
}

}  // namespace
}  // namespace swarm
