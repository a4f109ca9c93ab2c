// The scratch the dynamics kernels take (swarm/kernels/robots/dynamics/robot_dynamics.h), owned by
// a test: aligned, sized for one tree.
#pragma once

#include "hwy/aligned_allocator.h"
#include "swarm/kernels/robots/dynamics/robot_dynamics.h"

namespace swarm::test {

class DynamicsScratch {
 public:
  explicit DynamicsScratch(const DynamicsTree& tree)
      : storage_(hwy::AllocateAligned<float>(RobotDynamicsScratchFloats(tree))) {}
  float* get() { return storage_.get(); }

 private:
  hwy::AlignedFreeUniquePtr<float[]> storage_;
};

}  // namespace swarm::test
