// Tests for swarm/kernels/robots/dynamics/robot_dynamics.h against Orocos KDL 1.5 (Debian
// liborocos-kdl-dev and libkdl-parser-dev), a second double-precision reference beside
// swarm/kernels/robots/dynamics/robot_dynamics_reference.h that shares no code with swarm:
// kdl_parser turns each file of
// ../shared/urdf into a KDL::Tree itself (urdfdom parses the XML for both, but the joint frames,
// axes, inertia rotations and the tree are KDL's), and KDL's solvers compute
//   tau    TreeIdSolver_RNE under gravity (0, 0, -9.81) at random q, qd, qdd;
//   M      column k from TreeIdSolver_RNE without gravity at qd = 0, qdd = e_k;
//   chain  ChainDynParam::JntToMass and JntToGravity on UR5's chain world -> tool0;
// against swarm's float InverseDynamics and MassMatrix on every SIMD target. Fixed base only: KDL's
// tree solvers have no floating base. Rigid-body terms only (no armature, damping or friction:
// KDL's RNE ignores the joints' damping and KDL's joints have no friction).
//
// Conventions bridged here. KDL numbers its moving joints (the q_nr of a tree element) in the order
// kdl_parser adds segments; fixed joints are segments with Joint::None, and <mimic> is ignored, so
// a mimic joint is an independent KDL joint. Each KDL joint is matched with swarm's joint of the
// same name (same child and parent link); a mimic joint gets multiplier * q + offset of its
// master's column and the rates multiplier * qd, multiplier * qdd, and KDL's results are reduced
// to swarm's coordinates, tau = T^T tau_kdl and M = T^T M_kdl T (T[j][c] = multiplier where KDL
// joint j follows column c). Both take gravity as the acceleration vector, and ChainDynParam's
// gravity term is the torque holding the arm (RNEA at qd = qdd = 0): no sign to flip.
//
// Masses: kdl_parser drops the root link's inertia (and warns on stderr): 0.63 kg of panda, 1 kg of
// so100, 1.16 kg of solo12, 0.10 kg of the pendulums; UR5, xarm7 and z1 have a massless "world"
// root. A fixed root carries no load, so the torques do not see it, and the mass test checks that
// KDL's total plus that root link is swarm's and that the moving masses agree.
//
// Tolerance, float32 kernels against double: 1e-4 of the largest |entry| of KDL's result for the
// configuration (tau, M, g). Measured at most 6.1e-7 (z1's tau and M) and 2.3e-7 (UR5's chain M
// and g).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <kdl/chain.hpp>
#include <kdl/chaindynparam.hpp>
#include <kdl/jntarray.hpp>
#include <kdl/jntspaceinertiamatrix.hpp>
#include <kdl/tree.hpp>
#include <kdl/treeidsolver_recursive_newton_euler.hpp>
#include <kdl_parser/kdl_parser.hpp>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "hwy/aligned_allocator.h"
#include "swarm/kernels/robots/dynamics/robot_dynamics.h"
#include "swarm/robots/dynamics_model.h"
#include "swarm/robots/robot_model.h"
#include "tests/kernels/robots/robot_fixture.h"
#include "tests/support/dynamics_scratch.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

using test::RobotLanes;

constexpr double kTolerance = 1e-4;
constexpr float kGravity[3] = {0.0f, 0.0f, -9.81f};
constexpr size_t kConfigurations = 20;

const char* const kFiles[] = {
    "ur5_robot", "panda",  "xarm7",           "z1",
    "so100",     "solo12", "double_pendulum", "double_pendulum_continuous"};

// A KDL joint in swarm's coordinates: its value is multiplier * q[column] + offset.
struct KdlJoint {
  size_t column = 0;
  double multiplier = 1.0, offset = 0.0;
};

struct KdlCase {
  RobotModel model;
  DynamicsModel dynamics;
  KDL::Tree tree;
  std::vector<KdlJoint> joints;  // by KDL joint number (q_nr)
};

// swarm's joint named `joint_name`, or nullptr.
const RobotJoint* FindJoint(const RobotModel& model, const std::string& joint_name) {
  for (const RobotJoint& joint : model.joints) {
    if (joint.name == joint_name) return &joint;
  }
  return nullptr;
}

bool SameMotion(const RobotJoint& joint, KDL::Joint::JointType type) {
  switch (joint.type) {
    case RobotJointType::kRevolute:
    case RobotJointType::kContinuous:
      return type == KDL::Joint::RotAxis;
    case RobotJointType::kPrismatic:
      return type == KDL::Joint::TransAxis;
    case RobotJointType::kFixed:
      return false;
  }
  return false;
}

// Both models of one file, and KDL's joints matched with swarm's columns by name; any file KDL
// cannot read or whose joints it names or connects differently fails here.
KdlCase LoadCase(const std::string& file) {
  KdlCase c;
  const std::string path = std::string(SWARM_SHARED_URDF_DIR) + "/" + file + ".urdf";
  Result<RobotModel> model = LoadUrdfFile(path);
  if (!model.ok()) FAIL(model.status().message());
  c.model = std::move(model).value();
  Result<DynamicsModel> dynamics =
      DynamicsModel::Build(c.model, DynamicsOptions{.armature = {}, .joint_friction = false});
  if (!dynamics.ok()) FAIL(dynamics.status().message());
  c.dynamics = std::move(dynamics).value();
  if (!kdl_parser::treeFromFile(path, c.tree)) FAIL("kdl_parser cannot read " << path);

  size_t moving = 0;
  for (const RobotJoint& joint : c.model.joints) moving += joint.type != RobotJointType::kFixed;
  const size_t kdl_joints = c.tree.getNrOfJoints();
  if (kdl_joints != moving) {
    FAIL(file << ": KDL has " << kdl_joints << " moving joints, swarm " << moving);
  }
  c.joints.assign(kdl_joints, KdlJoint{});
  std::vector<bool> matched(kdl_joints, false);
  for (const auto& [segment_name, element] : c.tree.getSegments()) {
    const KDL::Joint& kdl_joint = GetTreeElementSegment(element).getJoint();
    if (kdl_joint.getType() == KDL::Joint::None) continue;
    const RobotJoint* joint = FindJoint(c.model, kdl_joint.getName());
    if (joint == nullptr) {
      FAIL(file << ": KDL joint '" << kdl_joint.getName() << "' (segment '" << segment_name
                << "') has no swarm joint of that name");
    }
    const std::string& parent_name = GetTreeElementParent(element)->first;
    if (!SameMotion(*joint, kdl_joint.getType()) ||
        c.model.links[joint->child_link] != segment_name ||
        c.model.links[joint->parent_link] != parent_name) {
      FAIL(file << ": joint '" << joint->name << "' is a " << RobotJointTypeName(joint->type)
                << " joint from '" << c.model.links[joint->parent_link] << "' to '"
                << c.model.links[joint->child_link] << "' in swarm, KDL type "
                << kdl_joint.getTypeName() << " from '" << parent_name << "' to '" << segment_name
                << "'");
    }
    const size_t q_nr = GetTreeElementQNr(element);
    REQUIRE(q_nr < kdl_joints);
    REQUIRE(!matched[q_nr]);
    matched[q_nr] = true;
    c.joints[q_nr] = {static_cast<size_t>(joint->q_index),
                      joint->is_mimic ? joint->mimic_multiplier : 1.0,
                      joint->is_mimic ? joint->mimic_offset : 0.0};
  }
  return c;
}

struct Configurations {
  RobotLanes q, qd, qdd;
};

// Revolute values in [-3, 3] rad, prismatic in [-0.2, 0.2] m, rates in [-2, 2], accelerations in
// [-5, 5] (per second and per second squared).
Configurations RandomConfigurations(const RobotModel& model, size_t count, uint32_t seed) {
  const size_t n = model.dof();
  Configurations in{RobotLanes(count, n), RobotLanes(count, n), RobotLanes(count, n)};
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> angle(-3.0f, 3.0f), slide(-0.2f, 0.2f), rate(-2.0f, 2.0f),
      acceleration(-5.0f, 5.0f);
  for (size_t r = 0; r < count; ++r) {
    for (size_t k = 0; k < n; ++k) {
      const bool prismatic = model.joints[model.dof_joints[k]].type == RobotJointType::kPrismatic;
      in.q.At(k, r) = prismatic ? slide(rng) : angle(rng);
      in.qd.At(k, r) = rate(rng);
      in.qdd.At(k, r) = acceleration(rng);
    }
  }
  return in;
}

// KDL's joint array for robot r of swarm's columns `lanes`: multiplier x + offset per KDL joint,
// the offset for positions only.
KDL::JntArray ToKdl(const KdlCase& c, const RobotLanes& lanes, size_t r, bool position) {
  KDL::JntArray values(static_cast<unsigned>(c.joints.size()));
  for (size_t j = 0; j < c.joints.size(); ++j) {
    const KdlJoint& joint = c.joints[j];
    values(j) =
        joint.multiplier * double{lanes.At(joint.column, r)} + (position ? joint.offset : 0.0);
  }
  return values;
}

// tau = T^T tau_kdl.
std::vector<double> ReduceTorques(const KdlCase& c, const KDL::JntArray& tau) {
  std::vector<double> reduced(c.model.dof(), 0.0);
  for (size_t j = 0; j < c.joints.size(); ++j) {
    reduced[c.joints[j].column] += c.joints[j].multiplier * tau(j);
  }
  return reduced;
}

// M = T^T M_kdl T (n * n, row-major), M_kdl's column k = RNE(q, qd = 0, qdd = e_k) without gravity.
std::vector<double> KdlMassMatrix(const KdlCase& c, KDL::TreeIdSolver_RNE& no_gravity,
                                  const KDL::JntArray& q) {
  const unsigned kdl_joints = static_cast<unsigned>(c.joints.size());
  const size_t n = c.model.dof();
  KDL::JntArray zero(kdl_joints), unit(kdl_joints), column(kdl_joints);
  std::vector<double> mass(n * n, 0.0);
  for (unsigned k = 0; k < kdl_joints; ++k) {
    KDL::SetToZero(unit);
    unit(k) = 1.0;
    REQUIRE(no_gravity.CartToJnt(q, zero, unit, KDL::WrenchMap(), column) ==
            KDL::SolverI::E_NOERROR);
    for (unsigned j = 0; j < kdl_joints; ++j) {
      const KdlJoint &row = c.joints[j], &col = c.joints[k];
      mass[row.column * n + col.column] += row.multiplier * col.multiplier * column(j);
    }
  }
  return mass;
}

// max |got - want| / max |want| over robot r's entries.
double RelativeError(const RobotLanes& got, size_t r, const std::vector<double>& want) {
  double scale = 1e-12, error = 0.0;
  for (size_t k = 0; k < want.size(); ++k) {
    scale = std::max(scale, std::fabs(want[k]));
    error = std::max(error, std::fabs(double{got.At(k, r)} - want[k]));
  }
  return error / scale;
}

using Scratch = test::DynamicsScratch;

TEST_CASE("robot dynamics kernels match Orocos KDL's tree RNEA and mass matrix on every target",
          "[dynamics]") {
  const KDL::Vector gravity(kGravity[0], kGravity[1], kGravity[2]);
  for (const char* file : kFiles) {
    INFO(file);
    const KdlCase c = LoadCase(file);
    const DynamicsTree tree = c.dynamics.tree();
    REQUIRE(ValidDynamicsTree(tree));
    const size_t n = tree.velocity_count();
    REQUIRE(n == c.model.dof());
    const Configurations in = RandomConfigurations(c.model, kConfigurations, 5);

    KDL::TreeIdSolver_RNE with_gravity(c.tree, gravity), no_gravity(c.tree, KDL::Vector::Zero());
    std::vector<std::vector<double>> want_tau, want_mass;
    for (size_t r = 0; r < kConfigurations; ++r) {
      const KDL::JntArray q = ToKdl(c, in.q, r, true), qd = ToKdl(c, in.qd, r, false),
                          qdd = ToKdl(c, in.qdd, r, false);
      KDL::JntArray tau(q.rows());
      REQUIRE(with_gravity.CartToJnt(q, qd, qdd, KDL::WrenchMap(), tau) == KDL::SolverI::E_NOERROR);
      want_tau.push_back(ReduceTorques(c, tau));
      want_mass.push_back(KdlMassMatrix(c, no_gravity, q));
    }

    double worst_tau = 0.0, worst_mass = 0.0;
    test::ForEachTarget([&](const test::TargetUnderTest& target) {
      INFO("target " << target.name);
      RobotLanes tau(kConfigurations, n), mass(kConfigurations, n * n);
      Scratch scratch(tree);
      InverseDynamics(tree, kGravity, in.q.view(), in.qd.view(), in.qdd.view(), tau.view(),
                      scratch.get());
      MassMatrix(tree, in.q.view(), mass.view(), scratch.get());
      for (size_t r = 0; r < kConfigurations; ++r) {
        INFO("configuration " << r);
        const double e_tau = RelativeError(tau, r, want_tau[r]);
        const double e_mass = RelativeError(mass, r, want_mass[r]);
        worst_tau = std::max(worst_tau, e_tau);
        worst_mass = std::max(worst_mass, e_mass);
        CHECK(e_tau <= kTolerance);
        CHECK(e_mass <= kTolerance);
      }
    });
    WARN(file << " against KDL: worst relative error tau " << worst_tau << ", M " << worst_mass);
  }
}

TEST_CASE("kdl_parser's trees carry swarm's masses except the fixed root link's", "[dynamics]") {
  for (const char* file : kFiles) {
    INFO(file);
    const KdlCase c = LoadCase(file);
    // KDL: every segment's mass, and that of the segments below a moving joint.
    double kdl_total = 0.0, kdl_moving = 0.0;
    for (const auto& [name, element] : c.tree.getSegments()) {
      const double mass = GetTreeElementSegment(element).getInertia().getMass();
      kdl_total += mass;
      for (auto it = c.tree.getSegment(name); it != c.tree.getRootSegment();
           it = GetTreeElementParent(it->second)) {
        if (GetTreeElementSegment(it->second).getJoint().getType() != KDL::Joint::None) {
          kdl_moving += mass;
          break;
        }
      }
    }
    // swarm: body 0 holds the root link and everything fixed to it.
    const std::vector<DynamicsBody>& bodies = c.dynamics.bodies();
    double swarm_total = 0.0, swarm_moving = 0.0;
    for (size_t b = 0; b < bodies.size(); ++b) {
      swarm_total += bodies[b].mass;
      if (b > 0) swarm_moving += bodies[b].mass;
    }
    const double root_mass = c.model.inertials[0].present ? c.model.inertials[0].mass : 0.0;
    const double tolerance = 1e-6 * swarm_total;  // float masses
    CHECK(std::fabs(kdl_moving - swarm_moving) <= tolerance);
    CHECK(std::fabs(kdl_total + root_mass - swarm_total) <= tolerance);
    WARN(file << ": mass swarm " << swarm_total << " kg (moving " << swarm_moving << "), KDL "
              << kdl_total << " kg (moving " << kdl_moving << "), root link '" << c.model.links[0]
              << "' " << root_mass << " kg");
  }
}

TEST_CASE("robot dynamics kernels match KDL's ChainDynParam on UR5's arm", "[dynamics]") {
  const KdlCase c = LoadCase("ur5_robot");
  const DynamicsTree tree = c.dynamics.tree();
  const size_t n = tree.velocity_count();
  const std::string root = c.tree.getRootSegment()->first, tip = "tool0";
  REQUIRE(root == "world");
  REQUIRE(c.model.links[0] == root);
  KDL::Chain chain;
  REQUIRE(c.tree.getChain(root, tip, chain));
  REQUIRE(chain.getNrOfJoints() == n);
  // Chain joint k (in chain order) drives swarm's column columns[k].
  std::vector<size_t> columns;
  for (unsigned s = 0; s < chain.getNrOfSegments(); ++s) {
    const KDL::Joint& kdl_joint = chain.getSegment(s).getJoint();
    if (kdl_joint.getType() == KDL::Joint::None) continue;
    const RobotJoint* joint = FindJoint(c.model, kdl_joint.getName());
    if (joint == nullptr || joint->is_mimic) FAIL("chain joint " << kdl_joint.getName());
    columns.push_back(static_cast<size_t>(joint->q_index));
  }
  REQUIRE(columns.size() == n);

  const Configurations in = RandomConfigurations(c.model, kConfigurations, 9);
  KDL::ChainDynParam parameters(chain, KDL::Vector(kGravity[0], kGravity[1], kGravity[2]));
  std::vector<std::vector<double>> want_mass, want_gravity;
  for (size_t r = 0; r < kConfigurations; ++r) {
    KDL::JntArray q(static_cast<unsigned>(n)), g(static_cast<unsigned>(n));
    for (size_t k = 0; k < n; ++k) q(k) = in.q.At(columns[k], r);
    KDL::JntSpaceInertiaMatrix mass(static_cast<int>(n));
    REQUIRE(parameters.JntToMass(q, mass) == KDL::SolverI::E_NOERROR);
    REQUIRE(parameters.JntToGravity(q, g) == KDL::SolverI::E_NOERROR);
    std::vector<double> m(n * n), gravity(n);
    for (size_t a = 0; a < n; ++a) {
      gravity[columns[a]] = g(a);
      for (size_t b = 0; b < n; ++b) m[columns[a] * n + columns[b]] = mass(a, b);
    }
    want_mass.push_back(std::move(m));
    want_gravity.push_back(std::move(gravity));
  }

  double worst_mass = 0.0, worst_gravity = 0.0;
  test::ForEachTarget([&](const test::TargetUnderTest& target) {
    INFO("target " << target.name);
    RobotLanes zero(kConfigurations, n), gravity(kConfigurations, n), mass(kConfigurations, n * n);
    Scratch scratch(tree);
    InverseDynamics(tree, kGravity, in.q.view(), zero.view(), zero.view(), gravity.view(),
                    scratch.get());
    MassMatrix(tree, in.q.view(), mass.view(), scratch.get());
    for (size_t r = 0; r < kConfigurations; ++r) {
      INFO("configuration " << r);
      const double e_mass = RelativeError(mass, r, want_mass[r]);
      const double e_gravity = RelativeError(gravity, r, want_gravity[r]);
      worst_mass = std::max(worst_mass, e_mass);
      worst_gravity = std::max(worst_gravity, e_gravity);
      CHECK(e_mass <= kTolerance);
      CHECK(e_gravity <= kTolerance);
    }
  });
  WARN("ur5_robot chain " << root << " -> " << tip << " against ChainDynParam: worst relative "
                          << "error M " << worst_mass << ", g " << worst_gravity);
}

}  // namespace
}  // namespace swarm
