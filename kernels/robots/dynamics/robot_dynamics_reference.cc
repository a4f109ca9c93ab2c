#include "swarm/kernels/robots/dynamics/robot_dynamics_reference.h"

#include <array>
#include <cmath>
#include <cstddef>
#include <utility>

namespace swarm::reference {
namespace {

using Vec3 = std::array<double, 3>;
using Mat3 = std::array<double, 9>;   // row-major
using Vec6 = std::array<double, 6>;   // angular first
using Mat6 = std::array<double, 36>;  // row-major

Mat6 Multiply(const Mat6& a, const Mat6& b) {
  Mat6 r{};
  for (int i = 0; i < 6; ++i) {
    for (int j = 0; j < 6; ++j) {
      double sum = 0.0;
      for (int k = 0; k < 6; ++k) sum += a[6 * i + k] * b[6 * k + j];
      r[6 * i + j] = sum;
    }
  }
  return r;
}

Mat6 Transpose(const Mat6& a) {
  Mat6 r{};
  for (int i = 0; i < 6; ++i) {
    for (int j = 0; j < 6; ++j) r[6 * j + i] = a[6 * i + j];
  }
  return r;
}

Vec6 Apply(const Mat6& a, const Vec6& v) {
  Vec6 r{};
  for (int i = 0; i < 6; ++i) {
    for (int k = 0; k < 6; ++k) r[i] += a[6 * i + k] * v[k];
  }
  return r;
}

Vec6 Add(const Vec6& a, const Vec6& b) {
  Vec6 r;
  for (int i = 0; i < 6; ++i) r[i] = a[i] + b[i];
  return r;
}

double Dot(const Vec6& a, const Vec6& b) {
  double sum = 0.0;
  for (int i = 0; i < 6; ++i) sum += a[i] * b[i];
  return sum;
}

Mat3 Skew(const Vec3& v) { return {0, -v[2], v[1], v[2], 0, -v[0], -v[1], v[0], 0}; }

// rot(E) = diag(E, E) (Featherstone eq. 2.24).
Mat6 Rot(const Mat3& e) {
  Mat6 x{};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      x[6 * i + j] = e[3 * i + j];
      x[6 * (i + 3) + j + 3] = e[3 * i + j];
    }
  }
  return x;
}

// xlt(r) = [[1, 0], [-r x, 1]] (eq. 2.24).
Mat6 Xlt(const Vec3& r) {
  Mat6 x{};
  const Mat3 s = Skew(r);
  for (int i = 0; i < 6; ++i) x[6 * i + i] = 1.0;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) x[6 * (i + 3) + j] = -s[3 * i + j];
  }
  return x;
}

// crm(v): v x for motion vectors (eq. 2.31); crf(v) = -crm(v)^T.
Mat6 Crm(const Vec6& v) {
  Mat6 x{};
  const Mat3 w = Skew({v[0], v[1], v[2]});
  const Mat3 u = Skew({v[3], v[4], v[5]});
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      x[6 * i + j] = w[3 * i + j];
      x[6 * (i + 3) + j + 3] = w[3 * i + j];
      x[6 * (i + 3) + j] = u[3 * i + j];
    }
  }
  return x;
}
Mat6 Crf(const Vec6& v) {
  Mat6 x = Transpose(Crm(v));
  for (double& value : x) value = -value;
  return x;
}

// The body's spatial inertia about its origin: [[I_O, h x], [(h x)^T, m 1]] (eq. 2.63).
Mat6 SpatialInertia(const DynamicsBody& body) {
  Mat6 x{};
  const float* I = body.rotational_inertia;
  const Mat3 inertia = {I[0], I[3], I[4], I[3], I[1], I[5], I[4], I[5], I[2]};
  const Mat3 h = Skew({body.first_moment[0], body.first_moment[1], body.first_moment[2]});
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      x[6 * i + j] = inertia[3 * i + j];
      x[6 * i + j + 3] = h[3 * i + j];
      x[6 * (j + 3) + i] = h[3 * i + j];
    }
    x[6 * (i + 3) + i + 3] = body.mass;
  }
  return x;
}

Vec6 MotionSubspace(const DynamicsBody& body) {
  Vec6 s{};
  const int at = body.motion == JointMotion::kRevolute ? 0 : 3;
  for (int k = 0; k < 3; ++k) s[at + k] = body.axis[k];
  return s;
}

// Xup = X_J(value) X_T, X_T = rot(R_o^T) xlt(p_o); revolute X_J = rot(R_axis(value)^T),
// prismatic X_J = xlt(axis value) (jcalc, table 4.1).
Mat6 JointTransform(const DynamicsBody& body, double value) {
  Mat3 origin_t{};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) origin_t[3 * i + j] = body.origin_rotation[3 * j + i];
  }
  const Mat6 tree_transform = Multiply(
      Rot(origin_t),
      Xlt({body.origin_translation[0], body.origin_translation[1], body.origin_translation[2]}));
  const Vec3 a = {body.axis[0], body.axis[1], body.axis[2]};
  if (body.motion == JointMotion::kPrismatic) {
    return Multiply(Xlt({a[0] * value, a[1] * value, a[2] * value}), tree_transform);
  }
  const double c = std::cos(value), s = std::sin(value), t = 1.0 - c;
  const Mat3 skew = Skew(a);
  Mat3 rotation_t{};  // R_axis^T
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const double r = (i == j ? c : 0.0) + s * skew[3 * i + j] + t * a[i] * a[j];
      rotation_t[3 * j + i] = r;
    }
  }
  return Multiply(Rot(rotation_t), tree_transform);
}

// The base's E = R^T from q's qw qx qy qz (normalised; zero -> identity).
Mat3 BaseRotationTranspose(const double* q) {
  double w = q[3], x = q[4], y = q[5], z = q[6];
  const double norm = std::sqrt(w * w + x * x + y * y + z * z);
  if (norm == 0.0) return {1, 0, 0, 0, 1, 0, 0, 0, 1};
  w /= norm, x /= norm, y /= norm, z /= norm;
  const Mat3 r = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z),     2 * (x * z + w * y),
                  2 * (x * y + w * z),     1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                  2 * (x * z - w * y),     2 * (y * z + w * x),     1 - 2 * (x * x + y * y)};
  Mat3 e{};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) e[3 * i + j] = r[3 * j + i];
  }
  return e;
}

// The base's (w, v) spatial vector from (v, w) velocity-like values.
Vec6 SpatialOfBase(const double* values) {
  return {values[3], values[4], values[5], values[0], values[1], values[2]};
}

struct JointState {
  size_t column;  // velocity index
  double multiplier, value, rate, acceleration;
};

JointState Joint(const DynamicsTree& tree, size_t b, const double* q, const double* qd,
                 const double* qdd) {
  const DynamicsBody& body = tree.bodies[b];
  const size_t k = static_cast<size_t>(body.q_index);
  const size_t column = tree.joint_velocity_begin() + k;
  const double m = body.multiplier;
  return {column, m, m * q[tree.joint_q_begin() + k] + body.offset, m * qd[column],
          qdd == nullptr ? 0.0 : m * qdd[column]};
}

double Resistance(const DynamicsTree& tree, const DynamicsBody& body, double rate) {
  const double eps = tree.friction_velocity;
  return body.damping * rate + body.friction * rate / std::sqrt(rate * rate + eps * eps);
}

}  // namespace

std::vector<double> RobotInverseDynamics(const DynamicsTree& tree, const double gravity[3],
                                         const double* q, const double* qd, const double* qdd) {
  const size_t bodies = tree.body_count;
  const std::vector<double> zeros(tree.velocity_count(), 0.0);
  if (qdd == nullptr) qdd = zeros.data();
  std::vector<Mat6> up(bodies);
  std::vector<Vec6> v(bodies), a(bodies), f(bodies);
  Vec3 g = {gravity[0], gravity[1], gravity[2]};
  if (tree.floating_base) {
    const Mat3 e = BaseRotationTranspose(q);
    g = {e[0] * g[0] + e[1] * g[1] + e[2] * g[2], e[3] * g[0] + e[4] * g[1] + e[5] * g[2],
         e[6] * g[0] + e[7] * g[1] + e[8] * g[2]};
    v[0] = SpatialOfBase(qd);
    a[0] = SpatialOfBase(qdd);
    for (int k = 0; k < 3; ++k) a[0][3 + k] -= g[k];
    const Mat6 inertia = SpatialInertia(tree.bodies[0]);
    f[0] = Add(Apply(inertia, a[0]), Apply(Crf(v[0]), Apply(inertia, v[0])));
  } else {
    a[0] = {0, 0, 0, -g[0], -g[1], -g[2]};
  }
  for (size_t b = 1; b < bodies; ++b) {
    const DynamicsBody& body = tree.bodies[b];
    const JointState joint = Joint(tree, b, q, qd, qdd);
    const Vec6 s = MotionSubspace(body);
    up[b] = JointTransform(body, joint.value);
    Vec6 vj;
    for (int k = 0; k < 6; ++k) vj[k] = s[k] * joint.rate;
    v[b] = Add(Apply(up[b], v[body.parent]), vj);
    a[b] = Add(Apply(up[b], a[body.parent]), Apply(Crm(v[b]), vj));
    for (int k = 0; k < 6; ++k) a[b][k] += s[k] * joint.acceleration;
    const Mat6 inertia = SpatialInertia(body);
    f[b] = Add(Apply(inertia, a[b]), Apply(Crf(v[b]), Apply(inertia, v[b])));
  }
  std::vector<double> tau(tree.velocity_count(), 0.0);
  for (size_t b = bodies; b-- > 1;) {
    const DynamicsBody& body = tree.bodies[b];
    const JointState joint = Joint(tree, b, q, qd, qdd);
    const double joint_tau = Dot(MotionSubspace(body), f[b]) + body.armature * joint.acceleration +
                             Resistance(tree, body, joint.rate);
    tau[joint.column] += joint.multiplier * joint_tau;
    f[body.parent] = Add(f[body.parent], Apply(Transpose(up[b]), f[b]));
  }
  if (tree.floating_base) {
    for (int k = 0; k < 3; ++k) {
      tau[k] = f[0][3 + k];
      tau[3 + k] = f[0][k];
    }
  }
  return tau;
}

std::vector<double> RobotMassMatrix(const DynamicsTree& tree, const double* q) {
  const size_t bodies = tree.body_count;
  // Full coordinates: the base's 6 (spatial order), then one per body.
  const size_t base = tree.floating_base ? 6 : 0;
  const size_t full = base + bodies - 1;
  const auto full_index = [&](size_t b) { return base + b - 1; };
  std::vector<Mat6> up(bodies), composite(bodies);
  std::vector<double> zero_rates(tree.velocity_count(), 0.0);
  for (size_t b = 0; b < bodies; ++b) {
    composite[b] = SpatialInertia(tree.bodies[b]);
    if (b > 0) {
      up[b] = JointTransform(tree.bodies[b], Joint(tree, b, q, zero_rates.data(), nullptr).value);
    }
  }
  std::vector<double> h(full * full, 0.0);
  for (size_t b = bodies; b-- > 1;) {
    const DynamicsBody& body = tree.bodies[b];
    const size_t p = body.parent;
    if (p != 0 || tree.floating_base) {
      composite[p] = [&] {
        Mat6 sum = composite[p];
        const Mat6 add = Multiply(Transpose(up[b]), Multiply(composite[b], up[b]));
        for (int k = 0; k < 36; ++k) sum[k] += add[k];
        return sum;
      }();
    }
    Vec6 force = Apply(composite[b], MotionSubspace(body));
    const size_t i = full_index(b);
    h[i * full + i] = Dot(MotionSubspace(body), force) + body.armature;
    size_t j = b;
    while (tree.bodies[j].parent != 0) {
      force = Apply(Transpose(up[j]), force);
      j = tree.bodies[j].parent;
      const size_t k = full_index(j);
      h[i * full + k] = h[k * full + i] = Dot(MotionSubspace(tree.bodies[j]), force);
    }
    if (tree.floating_base) {
      force = Apply(Transpose(up[j]), force);
      for (size_t k = 0; k < 6; ++k) h[i * full + k] = h[k * full + i] = force[k];
    }
  }
  if (tree.floating_base) {
    for (size_t r = 0; r < 6; ++r) {
      for (size_t c = 0; c < 6; ++c) h[r * full + c] = composite[0][6 * r + c];
    }
  }
  // M = T^T H T: full coordinate -> (velocity index, factor).
  const size_t n = tree.velocity_count();
  std::vector<size_t> column(full);
  std::vector<double> factor(full, 1.0);
  for (size_t k = 0; k < base; ++k) column[k] = k < 3 ? k + 3 : k - 3;  // spatial -> (v, w)
  for (size_t b = 1; b < bodies; ++b) {
    column[full_index(b)] = tree.joint_velocity_begin() + size_t(tree.bodies[b].q_index);
    factor[full_index(b)] = tree.bodies[b].multiplier;
  }
  std::vector<double> m(n * n, 0.0);
  for (size_t r = 0; r < full; ++r) {
    for (size_t c = 0; c < full; ++c) {
      m[column[r] * n + column[c]] += factor[r] * factor[c] * h[r * full + c];
    }
  }
  return m;
}

namespace {

// x = m^-1 b for a symmetric n x n matrix m (row-major) by Cholesky m = L L^T; empty when m is not
// positive definite.
std::vector<double> SolveDense(std::vector<double> l, const std::vector<double>& b) {
  const size_t n = b.size();
  for (size_t j = 0; j < n; ++j) {
    double diagonal = l[j * n + j];
    for (size_t k = 0; k < j; ++k) diagonal -= l[j * n + k] * l[j * n + k];
    if (!(diagonal > 0.0)) return {};
    l[j * n + j] = std::sqrt(diagonal);
    for (size_t i = j + 1; i < n; ++i) {
      double sum = l[i * n + j];
      for (size_t k = 0; k < j; ++k) sum -= l[i * n + k] * l[j * n + k];
      l[i * n + j] = sum / l[j * n + j];
    }
  }
  std::vector<double> x(n);
  for (size_t i = 0; i < n; ++i) {
    double sum = b[i];
    for (size_t k = 0; k < i; ++k) sum -= l[i * n + k] * x[k];
    x[i] = sum / l[i * n + i];
  }
  for (size_t i = n; i-- > 0;) {
    double sum = x[i];
    for (size_t k = i + 1; k < n; ++k) sum -= l[k * n + i] * x[k];
    x[i] = sum / l[i * n + i];
  }
  return x;
}

// tau - h(q, qd).
std::vector<double> FreeForces(const DynamicsTree& tree, const double gravity[3], const double* q,
                               const double* qd, const double* tau) {
  std::vector<double> rhs = RobotInverseDynamics(tree, gravity, q, qd, nullptr);
  for (size_t k = 0; k < rhs.size(); ++k) rhs[k] = tau[k] - rhs[k];
  return rhs;
}

}  // namespace

std::vector<double> RobotForwardDynamics(const DynamicsTree& tree, const double gravity[3],
                                         const double* q, const double* qd, const double* tau) {
  return SolveDense(RobotMassMatrix(tree, q), FreeForces(tree, gravity, q, qd, tau));
}

std::vector<double> RobotPointJacobian(const DynamicsTree& tree, const double* q, uint32_t body,
                                       const double point[3]) {
  const size_t n = tree.velocity_count(), bodies = tree.body_count;
  std::vector<Mat6> up(bodies);
  const std::vector<double> zero_rates(n, 0.0);
  for (size_t b = 1; b < bodies; ++b) {
    up[b] = JointTransform(tree.bodies[b], Joint(tree, b, q, zero_rates.data(), nullptr).value);
  }
  std::vector<double> jacobian(3 * n, 0.0);
  for (size_t k = 0; k < n; ++k) {
    std::vector<double> rates(n, 0.0);
    rates[k] = 1.0;
    std::vector<Vec6> v(bodies, Vec6{});
    if (tree.floating_base) v[0] = SpatialOfBase(rates.data());
    for (size_t b = 1; b <= body; ++b) {
      const JointState joint = Joint(tree, b, q, rates.data(), nullptr);
      const Vec6 s = MotionSubspace(tree.bodies[b]);
      v[b] = Apply(up[b], v[tree.bodies[b].parent]);
      for (int i = 0; i < 6; ++i) v[b][i] += s[i] * joint.rate;
    }
    const Vec6& w = v[body];
    // v_O + w x p.
    const double velocity[3] = {w[3] + (w[1] * point[2] - w[2] * point[1]),
                                w[4] + (w[2] * point[0] - w[0] * point[2]),
                                w[5] + (w[0] * point[1] - w[1] * point[0])};
    for (size_t row = 0; row < 3; ++row) jacobian[row * n + k] = velocity[row];
  }
  return jacobian;
}

std::vector<double> RobotForwardDynamics(const DynamicsTree& tree, const double gravity[3],
                                         const double* q, const double* qd, const double* tau,
                                         const RobotAddedInertia& added) {
  const size_t n = tree.velocity_count();
  std::vector<double> m = RobotMassMatrix(tree, q);
  for (size_t k = 0; k < added.joints.size(); ++k) {
    const size_t column = tree.joint_velocity_begin() + k;
    m[column * n + column] += added.joints[k];
  }
  for (const RobotAddedPoint& p : added.points) {
    const std::vector<double> j = RobotPointJacobian(tree, q, p.body, p.point);
    double c[9];
    for (int row = 0; row < 3; ++row) {
      for (int col = 0; col < 3; ++col) {
        c[3 * row + col] = (row == col ? p.tangent_mass : 0.0) +
                           (p.normal_mass - p.tangent_mass) * p.normal[row] * p.normal[col];
      }
    }
    for (size_t a = 0; a < n; ++a) {
      for (size_t b = 0; b < n; ++b) {
        double sum = 0.0;
        for (int row = 0; row < 3; ++row) {
          for (int col = 0; col < 3; ++col)
            sum += j[row * n + a] * c[3 * row + col] * j[col * n + b];
        }
        m[a * n + b] += sum;
      }
    }
  }
  return SolveDense(std::move(m), FreeForces(tree, gravity, q, qd, tau));
}

}  // namespace swarm::reference
