// Scratch layout of the robot dynamics kernels (kernels/robot_dynamics-inl.h), shared with the
// dispatch code that sizes the scratch. A slot holds one vector of robots.
#pragma once

#include <cstddef>

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

// After the bodies: an n x n matrix, two n-vectors, temporaries, and the 6 x 6 system of a
// floating base's articulated inertia.
inline constexpr size_t kTempSlots = 48;
inline constexpr size_t kBaseSystemSlots = 36 + 6;

struct Regions {
  size_t matrix, vector1, vector2, temp, base_system, total;
};

inline Regions ScratchRegions(size_t bodies, size_t velocities) {
  Regions r;
  r.matrix = bodies * kBodySlots;
  r.vector1 = r.matrix + velocities * velocities;
  r.vector2 = r.vector1 + velocities;
  r.temp = r.vector2 + velocities;
  r.base_system = r.temp + kTempSlots;
  r.total = r.base_system + kBaseSystemSlots;
  return r;
}

}  // namespace swarm::dynamics_layout
