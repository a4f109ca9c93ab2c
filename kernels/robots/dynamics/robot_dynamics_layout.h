// Scratch layout of the robot dynamics kernels (kernels/robots/dynamics/spatial_algebra-inl.h and
// the algorithms that include it), shared with the dispatch code that sizes the scratch. A slot
// holds one vector of robots.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "swarm/kernels/base/views.h"
#include "swarm/kernels/robots/dynamics/robot_dynamics.h"

namespace swarm::dynamics_layout {

// Per body, at body * kBodySlots.
inline constexpr size_t kE = 0;         // 9: rotation from the parent's coordinates, row-major
inline constexpr size_t kR = 9;         // 3: the body origin in the parent's coordinates
inline constexpr size_t kV = 12;        // 6: spatial velocity
inline constexpr size_t kA = 18;        // 6: spatial acceleration (ABA: velocity-product term c)
inline constexpr size_t kF = 24;        // 6: spatial force (ABA: bias force pA)
inline constexpr size_t kInertia = 30;  // 27: spatial inertia A, B, C (composite or articulated)
inline constexpr size_t kU = 57;        // 6: ABA's U = IA S
inline constexpr size_t kDInv = 63;     // ABA's 1 / (S^T U + armature)
inline constexpr size_t kSmallU = 64;   // ABA's u = tau - S^T pA - joint terms
inline constexpr size_t kBodySlots = 65;

// After the bodies: an n x n matrix, two n-vectors, temporaries, the 6 x 6 system of a
// floating base's articulated inertia, the joints' sines and cosines on their way out (JointTrig),
// and the staging area of streamed mass matrices.
inline constexpr size_t kTempSlots = 48;
inline constexpr size_t kBaseSystemSlots = 36 + 6;

struct Regions {
  size_t matrix, vector1, vector2, temp, base_system, trig, staging, total;
};

// Mass matrices streamed far past the caches (kStreamOutputBytes or more per call) leave in groups
// of this many vectors of robots: each output array then gets that many consecutive cache lines
// at once. A mass matrix and its factor are ~100 arrays, and DRAM took one line of each in turn
// at about half the rate of two (13 vs 22 GB/s, one AVX-512 core): the staging area holds the
// group's matrices and factors until they are written.
inline constexpr size_t kStreamGroup = 2;

inline Regions ScratchRegions(size_t bodies, size_t velocities) {
  Regions r;
  r.matrix = bodies * kBodySlots;
  r.vector1 = r.matrix + velocities * velocities;
  r.vector2 = r.vector1 + velocities;
  r.temp = r.vector2 + velocities;
  r.base_system = r.temp + kTempSlots;
  r.trig = r.base_system + kBaseSystemSlots;
  r.staging = r.trig + 2 * bodies;
  r.total = r.staging + kStreamGroup * 2 * velocities * velocities;
  return r;
}

// A body's joint, as the kernels branch on it. Each call writes one per body into the joint
// table at the end of the scratch (JointTable), and the per-vector code reads it back instead of
// deriving it from the tree: the tree's fields would be reloaded after every vector store (a store
// may alias any float), and deriving this took a fifth of the mass matrix's time.
//
// `aligned` is k when the axis is exactly +-e_k, as in every shipped robot and every
// ../shared/urdf file: the joint terms then read or write one component (negated for -e_k)
// instead of forming three products and two sums of zeros, which gives the same values but for
// the sign of a zero result. -1: a general axis.
struct JointSubspace {
  int8_t aligned = -1;
  bool revolute = true;
  bool negative = false;
  // Aligned, and the joint frame's rotation is the identity (DynamicsModel chooses body frames so
  // that it is, wherever the URDF's frames differ by quarter turns): E is then the identity
  // (prismatic) or a plane rotation of coordinates a = k + 1 and b = k + 2 (revolute), and only
  // its entries (a, a), (a, b), (b, a), (b, b) are in the slots (PlaneRotate).
  bool plain = false;
  float axis[3] = {1, 0, 0};
};

inline JointSubspace SubspaceOf(const DynamicsBody& body) {
  JointSubspace joint;
  joint.revolute = body.motion == JointMotion::kRevolute;
  for (size_t k = 0; k < 3; ++k) joint.axis[k] = body.axis[k];
  for (int k = 0; k < 3; ++k) {
    const float along = body.axis[k];
    if ((along == 1.0f || along == -1.0f) && body.axis[(k + 1) % 3] == 0.0f &&
        body.axis[(k + 2) % 3] == 0.0f) {
      joint.aligned = static_cast<int8_t>(k);
      joint.negative = along < 0.0f;
    }
  }
  const float* o = body.origin_rotation;
  const bool identity = o[0] == 1.0f && o[4] == 1.0f && o[8] == 1.0f && o[1] == 0.0f &&
                        o[2] == 0.0f && o[3] == 0.0f && o[5] == 0.0f && o[6] == 0.0f &&
                        o[7] == 0.0f;
  joint.plain = joint.aligned >= 0 && identity;
  return joint;
}

// The joint table: a JointSubspace per body, in floats' storage after the slots.
inline constexpr size_t kJointFloats = (sizeof(JointSubspace) + sizeof(float) - 1) / sizeof(float);

inline size_t JointTableOffset(size_t bodies, size_t velocities) {
  return ScratchRegions(bodies, velocities).total * kPadFloats;
}
// Whole cache lines, so that scratch areas laid end to end stay aligned.
inline size_t ScratchFloats(size_t bodies, size_t velocities) {
  constexpr size_t kLineFloats = kAlignBytes / sizeof(float);
  const size_t floats = JointTableOffset(bodies, velocities) + bodies * kJointFloats;
  return (floats + kLineFloats - 1) / kLineFloats * kLineFloats;
}

// Writes the joint table of `tree` into `scratch` (once per call).
inline void WriteJointTable(const DynamicsTree& tree, float* scratch) {
  float* table = scratch + JointTableOffset(tree.body_count, tree.velocity_count());
  for (size_t b = 0; b < tree.body_count; ++b) {
    const JointSubspace joint = SubspaceOf(tree.bodies[b]);
    std::memcpy(static_cast<void*>(table + b * kJointFloats), &joint, sizeof(joint));
  }
}

}  // namespace swarm::dynamics_layout
