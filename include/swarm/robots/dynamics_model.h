// The float model the batched dynamics kernels read
// (swarm/kernels/robots/dynamics/robot_dynamics.h), built from a robot model's rigid bodies
// (rigid_body_tree.h): each body's joint frame composed into its parent body's frame, its inertia
// moved to the body origin, and per-joint terms (armature from the caller, damping and friction
// from the URDF's <dynamics>). Body frames are the links' frames turned by the quarter turns
// between URDF frames (exactly; the root's is its link's), so that joint frames differ from their
// parent's by an offset alone and the kernels rotate by plane rotations (dynamics_model.cc says
// how); bodies() shows the turned frames.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "swarm/core/status.h"
#include "swarm/kernels/robots/dynamics/robot_dynamics.h"
#include "swarm/robots/rigid_body_tree.h"
#include "swarm/robots/robot_model.h"

namespace swarm {

struct DynamicsOptions {
  // Rotor inertia per independent joint (dof() entries, q order, kg m^2 or kg), or empty for none.
  std::vector<double> armature;
  // The URDF's joint damping and friction; false gives the rigid-body terms only (what
  // `swarm-robots dynamics` reports: M, h = C qd + g, qdd = M^-1 (tau - h)).
  bool joint_friction = true;
  // eps of the smoothed Coulomb friction (rad/s or m/s), > 0.
  double friction_velocity = 0.01;
};

class DynamicsModel {
 public:
  // Errors: the rigid-body tree's (missing or invalid inertials, naming the link), armature with
  // the wrong count, negative or non-finite, friction_velocity not finite > 0, or constants beyond
  // float range.
  static Result<DynamicsModel> Build(const RobotModel& model, const DynamicsOptions& options = {});

  // Points into this object: valid while it lives and is not moved.
  DynamicsTree tree() const;
  const std::vector<DynamicsBody>& bodies() const { return bodies_; }
  const std::vector<int32_t>& velocity_parent() const { return velocity_parent_; }
  const RigidBodyTree& rigid_bodies() const { return rigid_bodies_; }

  // Where a link sits in the dynamics: its body, and its frame in the body's (turned) frame, so
  // that body coordinates = rotation (row-major) link coordinates + origin.
  struct LinkFrame {
    size_t body = 0;
    std::array<double, 9> rotation{};
    std::array<double, 3> origin{};
  };
  LinkFrame LinkInBody(size_t link) const;

 private:
  RigidBodyTree rigid_bodies_;
  std::vector<DynamicsBody> bodies_;
  std::vector<std::array<double, 9>> turns_;  // per body: its frame's turn from its link's frame
  std::vector<int32_t> velocity_parent_;
  size_t joint_q_count_ = 0;
  bool floating_base_ = false;
  float friction_velocity_ = 0.01f;
};

}  // namespace swarm
