#include "engine/robots/mjcf_frame.h"

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "engine/robots/frame_math.h"

namespace swarm {
namespace {

namespace fm = frame_math;

double Norm(const fm::Vec3& v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

fm::Vec3 Cross(const fm::Vec3& a, const fm::Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

// The last source of `element` that gives any orientation, and which one it gives.
Result<std::pair<uint32_t, const char*>> OrientationSource(const MjcfDocument& document,
                                                           uint32_t element) {
  Result<std::vector<uint32_t>> sources = document.AttributeSources(element);
  if (!sources.ok()) return sources.status();
  for (size_t k = sources->size(); k-- > 0;) {
    const MjcfElement& source = document.elements[(*sources)[k]];
    const char* found = nullptr;
    for (const char* name : kMjcfOrientations) {
      if (source.Find(name) == nullptr) continue;
      if (found != nullptr) {
        return document.Error((*sources)[k], std::string("gives ") + found + " and " + name +
                                                 ": an orientation is one of quat, axisangle, "
                                                 "euler, xyaxes or zaxis");
      }
      found = name;
    }
    if (found != nullptr) return std::pair{(*sources)[k], found};
  }
  return std::pair{element, static_cast<const char*>(nullptr)};
}

}  // namespace

std::array<double, 4> MjcfQuatOfZAxis(const std::array<double, 3>& direction) {
  fm::Vec3 z = direction;
  const double norm = Norm(z);
  for (double& c : z) c /= norm;
  // The shortest turn from +z to z: about +z x z by acos(z_z); a half turn about x if opposite.
  const fm::Vec3 axis = Cross({0, 0, 1}, z);
  const double sine = Norm(axis);
  fm::Quat q;
  if (sine < 1e-12) {
    q = z[2] > 0 ? fm::Quat{0, 0, 0, 1} : fm::Quat{1, 0, 0, 0};
  } else {
    q = fm::QuatOfAxisAngle({axis[0] / sine, axis[1] / sine, axis[2] / sine},
                            std::atan2(sine, z[2]));
  }
  return {q[3], q[0], q[1], q[2]};
}

Result<MjcfCompiler> ReadMjcfCompiler(const MjcfDocument& document) {
  MjcfCompiler compiler;
  bool mesh_folder_given = false;
  for (uint32_t e : document.Children(0, "compiler")) {
    const MjcfElement& element = document.elements[e];
    if (const std::string* folder = element.Find("meshdir")) {
      compiler.mesh_folder = *folder, mesh_folder_given = true;
    } else if (const std::string* assets = element.Find("assetdir"); assets && !mesh_folder_given) {
      compiler.mesh_folder = *assets;
    }
    if (const std::string* angle = element.Find("angle")) {
      if (*angle != "degree" && *angle != "radian") {
        return document.Error(e, "angle \"" + *angle + "\": expected degree or radian");
      }
      compiler.degrees = *angle == "degree";
    }
    if (const std::string* sequence = element.Find("eulerseq")) {
      if (sequence->size() != 3 || sequence->find_first_not_of("xyzXYZ") != std::string::npos) {
        return document.Error(e,
                              "eulerseq \"" + *sequence + "\": expected three of x, y, z, X, Y, Z");
      }
      compiler.euler_sequence = {(*sequence)[0], (*sequence)[1], (*sequence)[2]};
    }
    if (const std::string* autolimits = element.Find("autolimits")) {
      if (*autolimits != "true" && *autolimits != "false") {
        return document.Error(e, "autolimits \"" + *autolimits + "\": expected true or false");
      }
      compiler.autolimits = *autolimits == "true";
    }
    if (const std::string* from_geoms = element.Find("inertiafromgeom")) {
      if (*from_geoms == "false") {
        compiler.inertia_from_geoms = MjcfInertiaFromGeoms::kNever;
      } else if (*from_geoms == "true") {
        compiler.inertia_from_geoms = MjcfInertiaFromGeoms::kAlways;
      } else if (*from_geoms == "auto") {
        compiler.inertia_from_geoms = MjcfInertiaFromGeoms::kWithoutInertial;
      } else {
        return document.Error(
            e, "inertiafromgeom \"" + *from_geoms + "\": expected false, true or auto");
      }
    }
    std::vector<double> groups{static_cast<double>(compiler.inertia_groups[0]),
                               static_cast<double>(compiler.inertia_groups[1])};
    if (Status s = OverwriteMjcfNumbers(document, e, "inertiagrouprange", groups); !s.ok()) {
      return s;
    }
    for (int k = 0; k < 2; ++k) {
      if (groups[k] != std::floor(groups[k]) || std::fabs(groups[k]) > 1e9) {
        return document.Error(e, "inertiagrouprange must be two integers");
      }
      compiler.inertia_groups[k] = static_cast<int>(groups[k]);
    }
  }
  return compiler;
}

Result<MjcfPose> ReadMjcfPose(const MjcfDocument& document, uint32_t element,
                              const MjcfCompiler& compiler) {
  MjcfPose pose;
  Result<std::vector<double>> position = MjcfNumbers(document, element, "pos", {0, 0, 0});
  if (!position.ok()) return position.status();
  pose.position = {(*position)[0], (*position)[1], (*position)[2]};
  Result<std::pair<uint32_t, const char*>> found = OrientationSource(document, element);
  if (!found.ok()) return found.status();
  const auto [source, kind] = found.value();
  if (kind == nullptr) return pose;
  const std::string name = kind;
  const double unit = compiler.degrees ? std::numbers::pi / 180.0 : 1.0;
  fm::Quat q{0, 0, 0, 1};  // x y z w
  if (name == "quat") {
    Result<std::vector<double>> v = MjcfNumbers(document, element, "quat", {1, 0, 0, 0});
    if (!v.ok()) return v.status();
    const double norm =
        std::sqrt((*v)[0] * (*v)[0] + (*v)[1] * (*v)[1] + (*v)[2] * (*v)[2] + (*v)[3] * (*v)[3]);
    if (!(norm > 0.0)) return document.Error(source, "quat is zero");
    q = {(*v)[1] / norm, (*v)[2] / norm, (*v)[3] / norm, (*v)[0] / norm};
  } else if (name == "axisangle") {
    Result<std::vector<double>> v = MjcfNumbers(document, element, "axisangle", {0, 0, 1, 0});
    if (!v.ok()) return v.status();
    const fm::Vec3 axis{(*v)[0], (*v)[1], (*v)[2]};
    const double norm = Norm(axis);
    if (!(norm > 0.0)) return document.Error(source, "axisangle has a zero axis");
    q = fm::QuatOfAxisAngle({axis[0] / norm, axis[1] / norm, axis[2] / norm}, (*v)[3] * unit);
  } else if (name == "euler") {
    Result<std::vector<double>> v = MjcfNumbers(document, element, "euler", {0, 0, 0});
    if (!v.ok()) return v.status();
    for (int k = 0; k < 3; ++k) {
      const char axis_name = compiler.euler_sequence[k];
      const int axis_index = (axis_name | 0x20) - 'x';
      fm::Vec3 axis{0, 0, 0};
      axis[axis_index] = 1.0;
      const fm::Quat turn = fm::QuatOfAxisAngle(axis, (*v)[k] * unit);
      // Moving (intrinsic) axes compose on the right, fixed (extrinsic) ones on the left.
      q = axis_name >= 'a' ? fm::Multiply(q, turn) : fm::Multiply(turn, q);
    }
  } else if (name == "xyaxes") {
    Result<std::vector<double>> v = MjcfNumbers(document, element, "xyaxes", {1, 0, 0, 0, 1, 0});
    if (!v.ok()) return v.status();
    fm::Vec3 x{(*v)[0], (*v)[1], (*v)[2]}, y{(*v)[3], (*v)[4], (*v)[5]};
    const double x_norm = Norm(x);
    if (!(x_norm > 0.0)) return document.Error(source, "xyaxes has a zero x axis");
    for (double& c : x) c /= x_norm;
    const double along = x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
    for (int k = 0; k < 3; ++k) y[k] -= along * x[k];
    const double y_norm = Norm(y);
    if (!(y_norm > 1e-12 * std::max(1.0, Norm({(*v)[3], (*v)[4], (*v)[5]})))) {
      return document.Error(source, "xyaxes has a y axis parallel to its x axis (or zero)");
    }
    for (double& c : y) c /= y_norm;
    const fm::Vec3 z = Cross(x, y);
    q = fm::QuatOfRotation({x[0], y[0], z[0], x[1], y[1], z[1], x[2], y[2], z[2]});
  } else {  // zaxis
    Result<std::vector<double>> v = MjcfNumbers(document, element, "zaxis", {0, 0, 1});
    if (!v.ok()) return v.status();
    if (!(Norm({(*v)[0], (*v)[1], (*v)[2]}) > 0.0)) return document.Error(source, "zaxis is zero");
    const std::array<double, 4> turn = MjcfQuatOfZAxis({(*v)[0], (*v)[1], (*v)[2]});
    q = {turn[1], turn[2], turn[3], turn[0]};
  }
  const double norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  pose.quaternion = {q[3] / norm, q[0] / norm, q[1] / norm, q[2] / norm};
  return pose;
}

Result<bool> ReadMjcfLimited(const MjcfDocument& document, uint32_t element, const char* limited,
                             const char* range_name, const std::vector<double>& range,
                             const MjcfCompiler& compiler) {
  Result<std::string> value = MjcfText(document, element, limited, "auto");
  if (!value.ok()) return value.status();
  if (*value == "true") return true;
  if (*value == "false") return false;
  if (*value != "auto") {
    return document.Error(
        element, std::string(limited) + " \"" + *value + "\": expected true, false or auto");
  }
  const bool has_range = range[0] != 0.0 || range[1] != 0.0;
  if (has_range && !compiler.autolimits) {
    return document.Error(element, std::string("has a ") + range_name + " but neither " + limited +
                                       " nor compiler autolimits=\"true\"");
  }
  return has_range;
}

}  // namespace swarm
