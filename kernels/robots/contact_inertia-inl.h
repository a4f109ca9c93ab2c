// Per-target code of the contacts' dense added inertia (swarm/kernels/robots/contact_inertia.h):
// per vector of robots and contact, the point's Jacobian columns (the path from its link to the
// root, zero elsewhere) into scratch, then E += J^T C J. Trees with couplings are small (an arm
// and its gripper): every column pair is evaluated.

#if defined(SWARM_KERNELS_CONTACT_INERTIA_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_CONTACT_INERTIA_INL_H_
#undef SWARM_KERNELS_CONTACT_INERTIA_INL_H_
#else
#define SWARM_KERNELS_CONTACT_INERTIA_INL_H_
#endif

#include <cstddef>

#include "hwy/highway.h"
#include "kernels/base/loop-inl.h"
#include "kernels/robots/robot_contact-inl.h"
#include "swarm/kernels/robots/contact_inertia.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

inline void ContactInertiaMatrixImpl(const KinematicTree& tree, const ContactSet& contacts,
                                     const ConstLanesView& poses,
                                     const ConstLanesView& added_points, const LanesView& matrix,
                                     float* scratch) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const size_t n = ContactVelocityCount(tree);
  const size_t lanes = hn::Lanes(d);
  const size_t joint_begin = tree.floating_base ? 6 : 0;
  // Column k's Jacobian (x, y, z) for the vector of lanes in hand.
  const auto jacobian = [&](size_t k, size_t axis) { return scratch + (3 * k + axis) * lanes; };
  ForEachVector(d, matrix.count, [&](size_t i, auto store) HWY_ATTR {
    const V zero = hn::Zero(d);
    for (size_t k = 0; k < n * n; ++k) store(zero, d, matrix.Array(k) + i);
    for (size_t c = 0; c < contacts.count; ++c) {
      const V normal_mass = hn::LoadU(d, added_points.Array(kAddedPointArrays * c + 6) + i);
      const V tangent_mass = hn::LoadU(d, added_points.Array(kAddedPointArrays * c + 7) + i);
      if (hn::AllTrue(d, hn::And(hn::Eq(normal_mass, zero), hn::Eq(tangent_mass, zero)))) continue;
      V distance, cx, cy, cz, nx, ny, nz, t1x, t1y, t1z, t2x, t2y, t2z;
      LoadContactFrame(d, contacts.geometry, c, i, distance, cx, cy, cz, nx, ny, nz, t1x, t1y, t1z,
                       t2x, t2y, t2z);
      const size_t link = contacts.points[c].link;
      for (size_t k = 0; k < n; ++k) {  // columns off the path stay zero
        for (size_t axis = 0; axis < 3; ++axis) hn::Store(zero, d, jacobian(k, axis));
      }
      // The joints' columns: revolute axis x (c - o), prismatic axis, times the multiplier.
      for (size_t l = link; l != 0; l = tree.joints[l - 1].parent_link) {
        const KinematicJoint& joint = tree.joints[l - 1];
        if (joint.motion == JointMotion::kFixed) continue;
        V zx, zy, zz, ox, oy, oz;
        JointWorldAxis(d, poses, joint, l, i, zx, zy, zz, ox, oy, oz);
        if (joint.motion == JointMotion::kRevolute) {
          V tx, ty, tz;
          Cross(zx, zy, zz, hn::Sub(cx, ox), hn::Sub(cy, oy), hn::Sub(cz, oz), tx, ty, tz);
          zx = tx, zy = ty, zz = tz;
        }
        const V multiplier = hn::Set(d, joint.multiplier);
        const size_t k = joint_begin + static_cast<size_t>(joint.q_index);
        hn::Store(hn::Add(hn::Load(d, jacobian(k, 0)), hn::Mul(zx, multiplier)), d, jacobian(k, 0));
        hn::Store(hn::Add(hn::Load(d, jacobian(k, 1)), hn::Mul(zy, multiplier)), d, jacobian(k, 1));
        hn::Store(hn::Add(hn::Load(d, jacobian(k, 2)), hn::Mul(zz, multiplier)), d, jacobian(k, 2));
      }
      if (tree.floating_base) {
        // Linear: R e_k; angular: (R e_k) x (c - o_base).
        V bx, by, bz, bqx, bqy, bqz, bqw;
        LoadLinkPose(d, poses, 0, i, bx, by, bz, bqx, bqy, bqz, bqw);
        for (size_t k = 0; k < 3; ++k) {
          V ex, ey, ez, ax, ay, az;
          const V one = hn::Set(d, 1.0f);
          Rotate(bqx, bqy, bqz, bqw, k == 0 ? one : zero, k == 1 ? one : zero, k == 2 ? one : zero,
                 ex, ey, ez);
          hn::Store(ex, d, jacobian(k, 0)), hn::Store(ey, d, jacobian(k, 1));
          hn::Store(ez, d, jacobian(k, 2));
          Cross(ex, ey, ez, hn::Sub(cx, bx), hn::Sub(cy, by), hn::Sub(cz, bz), ax, ay, az);
          hn::Store(ax, d, jacobian(3 + k, 0)), hn::Store(ay, d, jacobian(3 + k, 1));
          hn::Store(az, d, jacobian(3 + k, 2));
        }
      }
      // E[a][b] += J_a . (m_t J_b + (m_n - m_t) n (n . J_b)) over every column (those off the
      // path add zeros: the same bits as leaving them out).
      const V extra = hn::Sub(normal_mass, tangent_mass);
      for (size_t b = 0; b < n; ++b) {
        const V jx = hn::Load(d, jacobian(b, 0)), jy = hn::Load(d, jacobian(b, 1)),
                jz = hn::Load(d, jacobian(b, 2));
        const V along = hn::Mul(extra, Dot3(nx, ny, nz, jx, jy, jz));
        const V wx = hn::Add(hn::Mul(tangent_mass, jx), hn::Mul(along, nx));
        const V wy = hn::Add(hn::Mul(tangent_mass, jy), hn::Mul(along, ny));
        const V wz = hn::Add(hn::Mul(tangent_mass, jz), hn::Mul(along, nz));
        for (size_t a = 0; a < n; ++a) {
          const V term = Dot3(hn::Load(d, jacobian(a, 0)), hn::Load(d, jacobian(a, 1)),
                              hn::Load(d, jacobian(a, 2)), wx, wy, wz);
          float* entry = matrix.Array(a * n + b) + i;
          store(hn::Add(hn::LoadU(d, entry), term), d, entry);
        }
      }
    }
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_CONTACT_INERTIA_INL_H_
