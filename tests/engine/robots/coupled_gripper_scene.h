// A scene of a tree with mimic joints touching the floor, for the world-contact tests: a free palm
// with two fingers on slide joints along x, the second following the first mirrored (a joint
// equality, which swarm reads as a mimic joint: the tree has couplings, and its contacts go
// through the dense added inertia of swarm/kernels/robots/contact_inertia.h), resting on the
// fingers' tips. 0.7 kg in all.
#pragma once

namespace swarm::test {

inline constexpr const char* kCoupledGripperScene = R"(<mujoco model="gripper">
  <compiler autolimits="true"/>
  <option timestep="0.002" cone="elliptic"/>
  <worldbody>
    <geom name="floor" type="plane" size="0 0 0.05"/>
    <body name="palm" pos="0 0 0.1">
      <freejoint/>
      <geom type="box" size="0.06 0.03 0.01" mass="0.5"/>
      <body name="left" pos="-0.04 0 -0.05">
        <joint name="left" type="slide" axis="1 0 0" range="-0.02 0.02" damping="1"/>
        <geom type="box" size="0.01 0.02 0.05" mass="0.1"/>
      </body>
      <body name="right" pos="0.04 0 -0.05">
        <joint name="right" type="slide" axis="1 0 0" range="-0.02 0.02" damping="1"/>
        <geom type="box" size="0.01 0.02 0.05" mass="0.1"/>
      </body>
    </body>
  </worldbody>
  <equality><joint joint1="left" joint2="right" polycoef="0 -1 0 0 0"/></equality>
</mujoco>
)";

}  // namespace swarm::test
