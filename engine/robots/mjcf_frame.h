// MJCF compiler settings and frames (XML reference, "compiler" and "Frame orientations"): the
// units of angles, the Euler sequence and the limits rule that the whole model shares, and the
// position and orientation an element gives, in its parent's frame.
// - angle: "degree" (MJCF's default) or "radian"; it scales euler, axisangle's angle, hinge and
//   ball ranges and refs, never quat.
// - eulerseq: three of x y z (X Y Z): a lowercase axis turns about the moving (intrinsic) axis, an
//   uppercase one about the fixed (extrinsic) axis; default "xyz".
// - autolimits: a range without `limited` limits the joint (MuJoCo 3's default, true; these
//   models are written for it).
// - An orientation is one of quat (w x y z, normalized), axisangle, euler, xyaxes (y is made
//   orthogonal to x, z = x cross y) or zaxis (the shortest turn from +z; antiparallel: a half
//   turn about x); two in one element are an error naming both.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/robots/mjcf_document.h"
#include "swarm/core/status.h"

namespace swarm {

// The attributes that give an orientation; an element has at most one of them.
inline constexpr const char* kMjcfOrientations[] = {"quat", "axisangle", "euler", "xyaxes",
                                                    "zaxis"};

// inertiafromgeom: whether a body's inertia comes from its geoms (those whose group lies within
// inertiagrouprange, default 0 5): never, when it has no <inertial> (auto, the default), always.
enum class MjcfInertiaFromGeoms { kNever, kWithoutInertial, kAlways };

struct MjcfCompiler {
  bool degrees = true;
  std::array<char, 3> euler_sequence{'x', 'y', 'z'};
  bool autolimits = true;
  MjcfInertiaFromGeoms inertia_from_geoms = MjcfInertiaFromGeoms::kWithoutInertial;
  std::array<int, 2> inertia_groups{0, 5};
  // Where heightfield (and mesh) files are, relative to the main file's folder (meshdir, or
  // assetdir where meshdir is not given); "" for that folder.
  std::string mesh_folder;
};

struct MjcfPose {
  std::array<double, 3> position{0, 0, 0};
  std::array<double, 4> quaternion{1, 0, 0, 0};  // w x y z, unit
};

// The shortest rotation (w x y z) that turns +z to `direction` (nonzero): zaxis's and fromto's
// frame; a half turn about x when direction points along -z.
std::array<double, 4> MjcfQuatOfZAxis(const std::array<double, 3>& direction);

// The settings of every <compiler> of the document, later attributes overriding earlier ones.
// Errors name the attribute, file and line: an angle other than degree or radian, an eulerseq
// that is not three of xyzXYZ, an autolimits other than true or false, an inertiafromgeom other
// than false, true or auto, an inertiagrouprange that is not two integers.
Result<MjcfCompiler> ReadMjcfCompiler(const MjcfDocument& document);

// The pose `element` gives (through its defaults: AttributeSources). Errors name the element,
// file and line: two orientations, a zero quaternion, axis or xyaxes vector, xyaxes whose
// vectors are parallel, and the number errors of MjcfNumbers.
Result<MjcfPose> ReadMjcfPose(const MjcfDocument& document, uint32_t element,
                              const MjcfCompiler& compiler);

// Whether a range is in force: attribute `limited` (limited, ctrllimited, forcelimited, ...) of
// `element` is true, false or auto (the default), and auto means a range that is not 0 0 when
// compiler autolimits is true. Errors name the element, file and line: another value, or auto with
// a range that is not 0 0 and autolimits false (MuJoCo 2.2.2's compile error).
Result<bool> ReadMjcfLimited(const MjcfDocument& document, uint32_t element, const char* limited,
                             const char* range_name, const std::vector<double>& range,
                             const MjcfCompiler& compiler);

}  // namespace swarm
