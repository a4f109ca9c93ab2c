// MuJoCo 2.2.2's narrow phase on the shape pairs of swarm's (swarm/kernels/collision/
// narrow_phase.h), for the narrow-phase benchmark and the tests' comparison: a model holding the
// two geoms, their frames written straight into mjData, and MuJoCo's own collision function for
// the pair (mjCOLLISIONFUNC, exported by libmujoco). Compiled only when CMake finds
// libmujoco-dev; includes MuJoCo's header, so only .cc files include this.
#pragma once

#include <mujoco/mujoco.h>

#include <vector>

#include "swarm/core/status.h"
#include "swarm/kernels/collision/narrow_phase.h"

namespace swarm::bench {

class MujocoShapePair {
 public:
  // Both geoms in the world body, a before b (MuJoCo's type order is swarm's).
  static Result<MujocoShapePair> Make(const ShapeGeometry& a, const ShapeGeometry& b);
  MujocoShapePair(MujocoShapePair&& other) noexcept;
  MujocoShapePair& operator=(MujocoShapePair&&) = delete;
  MujocoShapePair(const MujocoShapePair&) = delete;
  ~MujocoShapePair();

  // MuJoCo's contacts of the two geoms at these frames (12 floats each, the kernels' order:
  // position, rotation row-major) within `margin`: how many (up to mjMAXCONPAIR) into `contacts`.
  int Collide(const float frame_a[12], const float frame_b[12], double margin, mjContact* contacts);

 private:
  MujocoShapePair(mjModel* model, mjData* data, mjfCollision collide)
      : model_(model), data_(data), collide_(collide) {}
  mjModel* model_;
  mjData* data_;
  mjfCollision collide_;
};

}  // namespace swarm::bench
