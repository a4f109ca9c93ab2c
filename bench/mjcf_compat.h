// MuJoCo 2.2.2-compatible copies of the Menagerie files of ../shared/mjcf, for comparisons with
// Debian's MuJoCo (the files target MuJoCo 3). Each copy is edited as text, so that MuJoCo itself
// resolves the classes and values (nothing of swarm's loader is used), and the edits keep the
// compiled model equal to MuJoCo 3's:
// - option ls_iterations and flag eulerdamp are deleted (MuJoCo 3 only: the line search's
//   iterations and explicit damping under Euler);
// - integrator implicitfast becomes implicit;
// - an actuator <position> with kv (MuJoCo 3.1) becomes <general gainprm="kp 0 0"
//   biasprm="0 -kp -kv" biastype="affine">, the same force; in a default class too, and then the
//   class's <position> actuators become <general> with an explicit ctrlrange equal to their joint's
//   range (inheritrange="1", MuJoCo 3.1.3), the ranges taken from a first MuJoCo compilation;
// - a joint's actuatorfrcrange (MuJoCo 3) becomes a <general forcerange> in the same default
//   class (one actuator per joint with gear 1: the same clamp);
// - compiler autolimits="true" is added (MuJoCo 3's default, false in 2.2.2);
// - keyframe qpos and ctrl lose leading and trailing whitespace (2.2.2 repeats the last number
//   when a list ends in a space);
// - mesh geoms, mesh assets and file textures are deleted (their files are not in
//   ../shared/mjcf; the geoms have contype = conaffinity = 0 and their bodies explicit inertials,
//   so nothing physical changes).
#pragma once

#include <string>
#include <vector>

namespace swarm::bench {

// Writes the compatible copies of every .xml file of `source_folder` into `target_folder`
// (created) and returns the edits made, one line each, for the test's log. The second pass for
// inheritrange needs MuJoCo: `joint_range(path, joint)` returns the range MuJoCo compiles for a
// joint of the copy at `path`.
using JointRangeLookup = std::vector<double> (*)(const std::string& path, const std::string& joint);
std::vector<std::string> WriteMujoco222Copies(const std::string& source_folder,
                                              const std::string& target_folder,
                                              JointRangeLookup joint_range);

}  // namespace swarm::bench
