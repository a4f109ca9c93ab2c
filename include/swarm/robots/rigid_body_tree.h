// The rigid bodies of a robot model, as rigid-body dynamics sees them: one body per moving joint
// (revolute, continuous, prismatic; mimic joints included) plus the root, each holding every link
// attached to it through fixed joints, with the links' inertials combined into one (mass, centre of
// mass, inertia about it) in the body frame, which is the frame of the body's first link.
//
// Built in double precision from the URDF values (robot_model.h); the batched dynamics kernels
// read a float copy. Validation follows what a physical body must satisfy, for every body that
// moves (every joint's body, and the root when the base floats): mass > 0 and an inertia tensor
// that is positive definite and satisfies the triangle inequality of principal moments
// (I1 + I2 >= I3 for each ordering; no mass distribution has anything else). A link without an
// <inertial>, or with zero mass, is fine when folded into a body that has mass. A joint's body
// whose links all state an inertial of zero mass and inertia is fine when other bodies hang from
// it (a floating root needs mass): a link between two joints (a universal joint's cross, MJCF's
// several joints in one body) moves the bodies beyond it, and DynamicsModel::Build checks that the
// mass matrix is positive definite.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "swarm/core/status.h"
#include "swarm/robots/robot_model.h"

namespace swarm {

struct RigidBody {
  int joint = -1;   // the moving joint that carries the body (index into RobotModel::joints),
                    // -1 for the root body
  int parent = -1;  // parent body (index into RigidBodyTree::bodies), -1 for the root body
  size_t link = 0;  // the body frame's link: the joint's child link, or the root link
  std::vector<size_t> links;        // every link folded into the body, `link` first, in pose order
  double mass = 0.0;                // kg
  std::array<double, 3> com{};      // centre of mass in the body frame (m)
  std::array<double, 9> inertia{};  // about the centre of mass, body frame, row-major (kg m^2)
};

struct RigidBodyTree {
  std::vector<RigidBody> bodies;  // bodies[0] is the root; parents come before their children
  // Per link of the model: its body, and the link frame's pose in the body frame.
  std::vector<size_t> body_of_link;
  std::vector<std::array<double, 3>> link_xyz;
  std::vector<std::array<double, 4>> link_quat;  // x y z w
  double total_mass = 0.0;                       // every link's mass, the root's included
};

// Folds the model's fixed joints and checks every moving body (see above). Errors name the robot,
// the body's joint and links and the problem, e.g. "ur5: the body of joint 'wrist_3_joint'
// (links 'wrist_3_link', 'ee_link') has no mass: dynamics needs mass > 0 for every moving body".
Result<RigidBodyTree> BuildRigidBodyTree(const RobotModel& model);

// Whether a symmetric 3 x 3 tensor (row-major) is a rigid body's inertia: positive definite and
// satisfying the triangle inequality, with a relative tolerance of 1e-9 for files that state
// limiting cases (a thin rod's I1 + I2 = I3) in rounded decimals. An empty string when it is, or
// the reason.
std::string CheckInertiaTensor(const std::array<double, 9>& inertia);

}  // namespace swarm
