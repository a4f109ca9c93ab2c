// The contacts a torque step evaluates between a robot's collision shapes and the world's (the
// pairs of RobotBatchConfig::collisions with one shape on a link and the other fixed in the
// world: a floor, a table, a step): one point contact per contact slot of those pairs
// (swarm/kernels/robots/robot_contact.h), with the pair's MuJoCo parameters, its geometry from
// the narrow phase (swarm/kernels/collision/narrow_phase.h) with the normal turned to push the
// robot. Pairs of two links' shapes (self-collision) are not among them. Internal to
// engine/robots.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "swarm/core/status.h"
#include "swarm/kernels/base/views.h"
#include "swarm/kernels/robots/soft_constraint.h"
#include "swarm/robots/robot_collisions.h"
#include "swarm/robots/robot_model.h"

namespace swarm {

// Shape frames are computed for this many robots at a time (a multiple of kPadFloats on every
// architecture), so a tile's frame scratch stays small whatever its width.
inline constexpr size_t kCollisionChunk = 64;

// plan.Detect over robots of any count, kCollisionChunk at a time through `frames`
// (plan.frame_arrays() * kCollisionChunk floats): what RobotBatch::DetectContacts and the torque
// step's world contacts run on a tile.
void DetectInChunks(const CollisionPlan& plan, const ConstLanesView& link_poses, float* frames,
                    const LanesView& contacts);

class WorldContacts {
 public:
  // One contact slot of a world pair, as the step's rows see it.
  struct Contact {
    uint32_t link = 0;      // the link whose shape touches the world
    uint32_t pair = 0;      // its pair in the collision model
    float friction = 0.0f;  // the pair's sliding friction (0 for condim 1)
    float margin = 0.0f;    // MuJoCo's includemargin: margin - gap
    SoftConstraint soft;    // the pair's solref and solimp
    // The factor on the contact's reference inverse inertia w0 (its regulariser R): 1, or with
    // MuJoCo's pyramidal cone (CollisionModel) for a pair with friction, MuJoCo's effective normal
    // regulariser. MuJoCo gives each of the 2 (condim - 1) pyramid edges
    // R_py = 2 (mu^2 / impratio) (1 + mu^2) R_n (mu the sliding friction, R_n the elliptic normal
    // row's; engine_core_constraint.c, mj_makeImpedance and mj_diagApprox), and the edges push in
    // parallel along the normal: R = R_py / (2 (condim - 1)) = mu^2 (1 + mu^2) / ((condim - 1)
    // impratio) R_n. With the Menagerie's impratio = 100 that is 100 to 1000 times stiffer.
    float regulariser_scale = 1.0f;
  };

  // The world pairs of `collisions` (made by CollisionPlan::Make's rules), or an error naming the
  // pair: a solref MuJoCo reads as direct stiffness and damping (an entry <= 0), a solimp power
  // that is not an integer from 1 to kMaxImpedancePower, a condim other than 1, 3, 4 or 6.
  // Torsional and rolling friction (condim 4 and 6) are not modelled: such a pair acts as condim 3.
  static Result<WorldContacts> Make(const RobotModel& model, const CollisionModel& collisions);

  size_t count() const { return contacts_.size(); }
  const std::vector<Contact>& contacts() const { return contacts_; }
  // Floats of the scratch Detect needs: the frames of the world pairs' shapes for
  // kCollisionChunk robots.
  size_t frame_floats() const { return plan_.frame_arrays() * kCollisionChunk; }

  // The contacts' geometry (kContactArrays per contact: distance, point, and the normal that
  // pushes the robot out of the world's shape) of robots with these link poses, through `frames`
  // (frame_floats()).
  void Detect(const ConstLanesView& link_poses, float* frames, const LanesView& geometry) const;

 private:
  CollisionPlan plan_;
  std::vector<Contact> contacts_;
  std::vector<uint8_t> turned_;  // per contact: the link's shape is the pair's shape1
};

}  // namespace swarm
