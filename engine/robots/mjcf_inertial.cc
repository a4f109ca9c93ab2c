#include "engine/robots/mjcf_inertial.h"

#include <string>
#include <vector>

#include "engine/robots/frame_math.h"

namespace swarm {
namespace {

namespace fm = frame_math;

// Moments (or diagonal entries) a, b, c of a rigid body obey a + b >= c in every order; a
// relative tolerance admits the rounding of values written to a few digits.
bool Triangle(double a, double b, double c) {
  const double slack = 1e-9 * (a + b + c);
  return a + b + slack >= c && b + c + slack >= a && a + c + slack >= b;
}

}  // namespace

Result<LinkInertial> ReadMjcfInertial(const MjcfDocument& document, uint32_t element,
                                      const MjcfCompiler& compiler) {
  const MjcfElement& inertial = document.elements[element];
  LinkInertial out;
  out.present = true;
  Result<MjcfPose> pose = ReadMjcfPose(document, element, compiler);
  if (!pose.ok()) return pose.status();
  out.com = pose->position;
  Result<std::vector<double>> mass = MjcfNumbers(document, element, "mass", {0});
  if (!mass.ok()) return mass.status();
  if ((*mass)[0] < 0.0) return document.Error(element, "mass must be >= 0");
  out.mass = (*mass)[0];
  if (inertial.Find("fullinertia") != nullptr) {
    for (const char* orientation : kMjcfOrientations) {
      if (inertial.Find(orientation) != nullptr) {
        return document.Error(element,
                              std::string("gives fullinertia and ") + orientation +
                                  ": a full tensor is written in the body frame and takes no "
                                  "orientation");
      }
    }
    Result<std::vector<double>> full =
        MjcfNumbers(document, element, "fullinertia", {0, 0, 0, 0, 0, 0});
    if (!full.ok()) return full.status();
    const std::vector<double>& f = *full;
    out.inertia = {f[0], f[3], f[4], f[3], f[1], f[5], f[4], f[5], f[2]};
    // Positive definite: the leading principal minors are positive (Sylvester).
    const double minor2 = f[0] * f[1] - f[3] * f[3];
    const double det = f[0] * (f[1] * f[2] - f[5] * f[5]) - f[3] * (f[3] * f[2] - f[5] * f[4]) +
                       f[4] * (f[3] * f[5] - f[1] * f[4]);
    if (!(f[0] > 0.0 && minor2 > 0.0 && det > 0.0)) {
      return document.Error(element, "fullinertia is not positive definite");
    }
    if (!Triangle(f[0], f[1], f[2])) {
      return document.Error(
          element,
          "fullinertia's diagonal breaks the triangle inequality (ixx + iyy >= izz, "
          "...)");
    }
    return out;
  }
  if (inertial.Find("diaginertia") == nullptr) {
    return document.Error(element, "needs diaginertia or fullinertia");
  }
  Result<std::vector<double>> diagonal = MjcfNumbers(document, element, "diaginertia", {0, 0, 0});
  if (!diagonal.ok()) return diagonal.status();
  const std::vector<double>& d = *diagonal;
  if (d[0] < 0.0 || d[1] < 0.0 || d[2] < 0.0) {
    return document.Error(element, "diaginertia's moments must be >= 0");
  }
  if (!Triangle(d[0], d[1], d[2])) {
    return document.Error(
        element, "diaginertia breaks the triangle inequality (a + b >= c for every order)");
  }
  const std::array<double, 4>& q = pose->quaternion;  // w x y z
  const fm::Mat3 rotation = fm::RotationOf({q[1], q[2], q[3], q[0]});
  out.inertia = fm::RotateTensor(rotation, {d[0], 0, 0, 0, d[1], 0, 0, 0, d[2]});
  return out;
}

}  // namespace swarm
