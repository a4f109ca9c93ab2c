// MJCF robots (swarm/robots/mjcf_robot.h) against MuJoCo 2.2.2 compiling the same Menagerie files
// in this process (mj_loadXML on the 2.2.2-compatible copies of bench/mjcf_compat.h,
// written to the build folder): every body's mass, centre of mass and inertia tensor, every
// joint's axis, limits, damping, frictionloss and armature, every actuator's gain, bias, gear and
// ranges, the keyframes and the file's configuration (qpos0) to 1e-6 relative; the collision
// shapes (type, size, contact parameters; pairs and excludes) as MuJoCo's geoms; the forward
// kinematics of random configurations (every body's position to 1e-5 m and orientation to 1e-5,
// every collision shape's world pose to 2e-5,
// float kernels against MuJoCo's double), and the joint-space mass matrix M(q) and bias forces
// C(q, v) v + g(q) of random states to 1e-4 relative in float32 on every SIMD target.
//
// Coordinates: swarm's floating-base velocity is (v, w) in the base frame, MuJoCo's free joint
// (R v, w); and the Panda's second finger follows the first in swarm (an equality in MuJoCo), so
// MuJoCo's velocities are T v for swarm's v, with T one row per MuJoCo dof. Then swarm's M is
// T^T M_mj T and its bias T^T (b_mj + M_mj dT v), where dT v = (R (w x v), 0...) is the rate of
// change of the base's world-frame velocity that a constant body-frame velocity has.
#include <mujoco/mujoco.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/robots/frame_math.h"
#include "swarm/core/memory.h"
#include "swarm/core/thread_pool.h"
#include "swarm/kernels/robots/dynamics/robot_dynamics.h"
#include "swarm/robots/dynamics_model.h"
#include "swarm/robots/mjcf_robot.h"
#include "swarm/robots/robot_batch.h"
#include "tests/engine/robots/mjcf_peer.h"
#include "tests/kernels/robots/robot_fixture.h"
#include "tests/support/dynamics_scratch.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

namespace fm = frame_math;

using test::DofMap;
using test::LoadMujoco;
using test::MapDofs;
using test::MujocoData;
using test::MujocoModel;
using test::SetQpos;

struct Case {
  const char* folder;
  const char* file;
};
// Every robot, with its scene where it has one (the scene adds a floor and, for the G1, the
// keyframes; the Panda's single-cube scene has an object, which swarm does not read yet).
constexpr Case kCases[] = {{"anybotics_anymal_c", "scene_mjx.xml"},
                           {"unitree_go2", "scene_mjx.xml"},
                           {"unitree_g1", "scene_mjx.xml"},
                           {"franka_emika_panda", "mjx_scene.xml"}};

bool Near(double got, double want, double scale, double tolerance) {
  return std::abs(got - want) <= tolerance * std::max(scale, 1e-12);
}

// A random configuration: joints within their limits (else +-pi), a free base anywhere within a
// metre with a random orientation.
std::vector<double> RandomQ(const MjcfRobot& robot, std::mt19937& random) {
  std::uniform_real_distribution<double> unit(0.0, 1.0), normal(-1.0, 1.0);
  const RobotModel& model = robot.model;
  std::vector<double> q;
  if (model.floating_base) {
    double quat[4], norm = 0.0;
    for (double& v : quat) v = normal(random), norm += v * v;
    q = {normal(random), normal(random), normal(random)};
    for (double v : quat) q.push_back(v / std::sqrt(norm));
  }
  for (size_t j : model.dof_joints) {
    const RobotJoint& joint = model.joints[j];
    const double lower = joint.has_position_limits ? joint.lower : -3.0;
    const double upper = joint.has_position_limits ? joint.upper : 3.0;
    q.push_back(lower + (upper - lower) * unit(random));
  }
  return q;
}

void CheckModel(const MjcfRobot& robot, const mjModel* m) {
  const RobotModel& model = robot.model;

  // Bodies: mass, centre of mass, R diag(I) R^T.
  size_t bodies = 0;
  for (size_t link = 0; link < model.links.size(); ++link) {
    const int b = robot.link_body[link];
    if (b <= 0) continue;
    ++bodies;
    INFO("link " << model.links[link]);
    REQUIRE(b < m->nbody);
    const char* name = mj_id2name(m, mjOBJ_BODY, b);
    CHECK(model.links[link] == (name != nullptr ? name : "body" + std::to_string(b)));
    const LinkInertial& inertial = model.inertials[link];
    CHECK(Near(inertial.mass, m->body_mass[b], m->body_mass[b], 1e-6));
    const double* iq = m->body_iquat + 4 * b;
    const fm::Mat3 tensor =
        fm::RotateTensor(fm::RotationOf({iq[1], iq[2], iq[3], iq[0]}),
                         {m->body_inertia[3 * b], 0, 0, 0, m->body_inertia[3 * b + 1], 0, 0, 0,
                          m->body_inertia[3 * b + 2]});
    const double scale = std::max({tensor[0], tensor[4], tensor[8]});
    for (int k = 0; k < 9; ++k) CHECK(Near(inertial.inertia[k], tensor[k], scale, 1e-6));
    for (int k = 0; k < 3; ++k) CHECK(Near(inertial.com[k], m->body_ipos[3 * b + k], 1.0, 1e-6));
  }
  // Every MuJoCo body of the robot has its link (the world's, with a fixed base, is "world").
  CHECK(bodies == static_cast<size_t>(m->nbody - 1));

  // Joints.
  for (int j = 0; j < m->njnt; ++j) {
    if (m->jnt_type[j] == mjJNT_FREE) {
      CHECK(model.floating_base);
      continue;
    }
    const std::string name = mj_id2name(m, mjOBJ_JOINT, j);
    INFO("joint " << name);
    const auto found = std::find_if(model.joints.begin(), model.joints.end(),
                                    [&](const RobotJoint& joint) { return joint.name == name; });
    REQUIRE(found != model.joints.end());
    const RobotJoint& joint = *found;
    const int dof = m->jnt_dofadr[j];
    CHECK((joint.type == RobotJointType::kPrismatic) == (m->jnt_type[j] == mjJNT_SLIDE));
    CHECK(joint.has_position_limits == (m->jnt_limited[j] != 0));
    for (int k = 0; k < 3; ++k) CHECK(Near(joint.axis[k], m->jnt_axis[3 * j + k], 1.0, 1e-12));
    if (joint.has_position_limits) {
      CHECK(Near(joint.lower, m->jnt_range[2 * j], 1.0, 1e-12));
      CHECK(Near(joint.upper, m->jnt_range[2 * j + 1], 1.0, 1e-12));
    }
    CHECK(Near(joint.damping, m->dof_damping[dof], 1.0, 1e-12));
    CHECK(Near(joint.friction, m->dof_frictionloss[dof], 1.0, 1e-12));
  }

  // Armature per column: a follower's rotor turns with its leader, multiplier times as fast.
  const DofMap dofs = MapDofs(robot, m);
  const size_t base = model.floating_base ? 6 : 0;
  std::vector<double> armature(model.dof(), 0.0);
  for (int d = 0; d < m->nv; ++d) {
    if (dofs.column[d] < static_cast<int>(base)) continue;
    armature[dofs.column[d] - base] += dofs.factor[d] * dofs.factor[d] * m->dof_armature[d];
  }
  for (size_t k = 0; k < model.dof(); ++k) CHECK(Near(robot.armature[k], armature[k], 1.0, 1e-12));

  // Actuators, in MuJoCo's order.
  REQUIRE(robot.actuators.size() == static_cast<size_t>(m->nu));
  for (int a = 0; a < m->nu; ++a) {
    const MjcfRobotActuator& actuator = robot.actuators[static_cast<size_t>(a)];
    INFO("actuator " << actuator.name);
    CHECK(actuator.name == mj_id2name(m, mjOBJ_ACTUATOR, a));
    REQUIRE(m->actuator_trntype[a] == mjTRN_JOINT);
    const int dof = m->jnt_dofadr[m->actuator_trnid[2 * a]];
    CHECK(base + actuator.dof == static_cast<size_t>(dofs.column[dof]));
    CHECK(actuator.gear == m->actuator_gear[6 * a]);
    CHECK(Near(actuator.gain, m->actuator_gainprm[mjNGAIN * a], 1.0, 1e-12));
    for (int k = 0; k < 3; ++k) {
      CHECK(Near(actuator.bias[k], m->actuator_biasprm[mjNBIAS * a + k], 1.0, 1e-12));
    }
    CHECK(actuator.ctrl_limited == (m->actuator_ctrllimited[a] != 0));
    if (actuator.ctrl_limited) {
      for (int k = 0; k < 2; ++k) {
        CHECK(Near(actuator.ctrl_range[k], m->actuator_ctrlrange[2 * a + k], 1.0, 1e-12));
      }
    }
    // The force clamp: the actuator's forcerange, or (MuJoCo 3's actuatorfrcrange, moved onto
    // the actuator in the copy) the joint's effort limit.
    if (m->actuator_forcelimited[a]) {
      const double limit = std::max(std::abs(m->actuator_forcerange[2 * a]),
                                    std::abs(m->actuator_forcerange[2 * a + 1]));
      const RobotJoint& joint = model.joints[model.dof_joints[actuator.dof]];
      CHECK(Near(joint.effort_limit, limit * std::abs(m->actuator_gear[6 * a]), 1.0, 1e-12));
      if (actuator.force_limited) {
        for (int k = 0; k < 2; ++k) {
          CHECK(Near(actuator.force_range[k], m->actuator_forcerange[2 * a + k], 1.0, 1e-12));
        }
      }
    } else {
      CHECK_FALSE(actuator.force_limited);
    }
  }

  // The file's configuration and the keyframes, through MuJoCo's qpos layout.
  std::vector<double> qpos(m->nq);
  SetQpos(robot, m, robot.q0, qpos.data());
  // (A follower's qpos0 need not satisfy its equality in MuJoCo; in swarm it follows.)
  for (int j = 0; j < m->njnt; ++j) {
    const int k = m->jnt_qposadr[j];
    const char* name = mj_id2name(m, mjOBJ_JOINT, j);
    const bool follower = std::any_of(
        model.joints.begin(), model.joints.end(),
        [&](const auto& joint) { return joint.is_mimic && name != nullptr && joint.name == name; });
    const int size = m->jnt_type[j] == mjJNT_FREE ? 7 : 1;
    for (int i = 0; i < size && !follower; ++i) {
      CHECK(Near(qpos[k + i], m->qpos0[k + i], 1.0, 1e-12));
    }
  }
  REQUIRE(robot.keyframes.size() == static_cast<size_t>(m->nkey));
  for (int key = 0; key < m->nkey; ++key) {
    const MjcfRobotKeyframe& frame = robot.keyframes[static_cast<size_t>(key)];
    INFO("keyframe " << frame.name);
    SetQpos(robot, m, frame.q, qpos.data());
    for (int k = 0; k < m->nq; ++k) {
      CHECK(Near(qpos[k], m->key_qpos[m->nq * key + k], 1.0, 1e-6));
    }
    for (int k = 0; k < m->nu; ++k) {
      CHECK(frame.ctrl[static_cast<size_t>(k)] == m->key_ctrl[m->nu * key + k]);
    }
    for (int d = 0; d < m->nv; ++d) {
      double v = frame.velocities[static_cast<size_t>(dofs.column[d])] * dofs.factor[d];
      if (model.floating_base && d < 3) {
        // The base's linear velocity: body frame in swarm, world frame in MuJoCo.
        const fm::Mat3 r = fm::RotationOf({frame.q[4], frame.q[5], frame.q[6], frame.q[3]});
        v = r[3 * d] * frame.velocities[0] + r[3 * d + 1] * frame.velocities[1] +
            r[3 * d + 2] * frame.velocities[2];
      }
      CHECK(Near(v, m->key_qvel[m->nv * key + d], 1.0, 1e-12));
    }
  }
}
// MuJoCo's geoms that collide (contype or conaffinity nonzero, or in a <pair>), in order: the
// geoms of swarm's collision shapes.
std::vector<int> CollidingGeoms(const mjModel* m) {
  std::vector<bool> paired(m->ngeom, false);
  for (int p = 0; p < m->npair; ++p) paired[m->pair_geom1[p]] = paired[m->pair_geom2[p]] = true;
  std::vector<int> geoms;
  for (int g = 0; g < m->ngeom; ++g) {
    if (m->geom_contype[g] != 0 || m->geom_conaffinity[g] != 0 || paired[g]) geoms.push_back(g);
  }
  return geoms;
}

// The shapes' types, sizes and contact parameters, the pairs and the excludes, as MuJoCo has them.
void CheckCollisionModel(const MjcfRobot& robot, const mjModel* m) {
  const std::vector<int> geoms = CollidingGeoms(m);
  REQUIRE(geoms.size() == robot.collision_shapes.size());
  constexpr int kMujocoType[] = {mjGEOM_PLANE,     mjGEOM_HFIELD,   mjGEOM_SPHERE, mjGEOM_CAPSULE,
                                 mjGEOM_ELLIPSOID, mjGEOM_CYLINDER, mjGEOM_BOX};
  std::vector<int> shape_of_geom(m->ngeom, -1);
  for (size_t s = 0; s < geoms.size(); ++s) {
    const CollisionShape& shape = robot.collision_shapes[s];
    const int g = geoms[s];
    shape_of_geom[g] = static_cast<int>(s);
    INFO("shape " << s << " '" << shape.name << "'");
    CHECK(kMujocoType[static_cast<int>(shape.type)] == m->geom_type[g]);
    CHECK(robot.shape_body[s] == m->geom_bodyid[g]);
    for (int k = 0; k < 3; ++k) {
      CHECK(Near(shape.size[k], m->geom_size[3 * g + k], 1.0, 1e-12));
      CHECK(shape.friction[k] == m->geom_friction[3 * g + k]);
    }
    CHECK(int(shape.contype) == m->geom_contype[g]);
    CHECK(int(shape.conaffinity) == m->geom_conaffinity[g]);
    CHECK(shape.condim == m->geom_condim[g]);
    CHECK(shape.priority == m->geom_priority[g]);
    for (int k = 0; k < 2; ++k) CHECK(shape.solref[k] == m->geom_solref[2 * g + k]);
    for (int k = 0; k < 5; ++k) CHECK(shape.solimp[k] == m->geom_solimp[5 * g + k]);
    CHECK(shape.margin == m->geom_margin[g]);
  }
  // Pairs, as unordered shape pairs (MuJoCo orders each pair's geoms by body, and the pairs by
  // their bodies): each of MuJoCo's is one of swarm's with the same parameters.
  REQUIRE(robot.collision_pairs.size() == static_cast<size_t>(m->npair));
  for (int p = 0; p < m->npair; ++p) {
    INFO("MuJoCo's pair " << p);
    const int a = shape_of_geom[m->pair_geom1[p]], b = shape_of_geom[m->pair_geom2[p]];
    const auto same = [&](const CollisionPair& pair) {
      return std::min(a, b) == int(std::min(pair.shape1, pair.shape2)) &&
             std::max(a, b) == int(std::max(pair.shape1, pair.shape2));
    };
    const auto found =
        std::find_if(robot.collision_pairs.begin(), robot.collision_pairs.end(), same);
    REQUIRE(found != robot.collision_pairs.end());
    const CollisionPair& pair = *found;
    CHECK(pair.condim == m->pair_dim[p]);
    for (int k = 0; k < 5; ++k) CHECK(pair.friction[k] == m->pair_friction[5 * p + k]);
    for (int k = 0; k < 2; ++k) CHECK(pair.solref[k] == m->pair_solref[2 * p + k]);
    for (int k = 0; k < 5; ++k) CHECK(pair.solimp[k] == m->pair_solimp[5 * p + k]);
  }
  // Excludes as body pairs (MuJoCo's signature: (body1 + 1) << 16 | (body2 + 1), body1 <= body2).
  REQUIRE(robot.collision_excludes.size() == static_cast<size_t>(m->nexclude));
  std::vector<int> got, want;
  const auto body_of = [&](int link) { return link < 0 ? 0 : robot.link_body[size_t(link)]; };
  for (const CollisionExclude& exclude : robot.collision_excludes) {
    const int b1 = body_of(exclude.link1), b2 = body_of(exclude.link2);
    got.push_back(((std::min(b1, b2) + 1) << 16) + std::max(b1, b2) + 1);
  }
  for (int e = 0; e < m->nexclude; ++e) want.push_back(m->exclude_signature[e]);
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  CHECK(got == want);
}

void CheckKinematics(const MjcfRobot& robot, const mjModel* m, std::mt19937& random) {
  MujocoData data(mj_makeData(m));
  constexpr size_t kRobots = 5;
  MemoryAccountant memory;
  ThreadPool pool(1);
  Result<RobotBatch> batch = RobotBatch::Create(memory, robot.model, kRobots);
  REQUIRE(batch.ok());
  std::vector<std::vector<double>> qs;
  for (size_t r = 0; r < kRobots; ++r) {
    qs.push_back(RandomQ(robot, random));
    for (size_t k = 0; k < qs[r].size(); ++k) {
      batch->q().Array(k)[r] = static_cast<float>(qs[r][k]);
    }
  }
  batch->ForwardKinematics(pool);
  for (size_t r = 0; r < kRobots; ++r) {
    // MuJoCo from the float q swarm used.
    std::vector<double> q(qs[r].size());
    for (size_t k = 0; k < q.size(); ++k) q[k] = batch->q().Array(k)[r];
    SetQpos(robot, m, q, data->qpos);
    mj_kinematics(m, data.get());
    for (size_t link = 0; link < robot.model.links.size(); ++link) {
      const int b = robot.link_body[link];
      if (b < 0) continue;
      INFO("robot " << r << " link " << robot.model.links[link]);
      const ConstLanesView poses = std::as_const(*batch).link_poses();
      double dot = 0.0;
      const double* want = data->xquat + 4 * b;  // w x y z
      const double got[4] = {poses.Array(7 * link + 6)[r], poses.Array(7 * link + 3)[r],
                             poses.Array(7 * link + 4)[r], poses.Array(7 * link + 5)[r]};
      for (int k = 0; k < 4; ++k) dot += got[k] * want[k];
      for (int k = 0; k < 3; ++k) {
        CHECK(std::abs(poses.Array(7 * link + k)[r] - data->xpos[3 * b + k]) < 1e-5);
      }
      for (int k = 0; k < 4; ++k) CHECK(std::abs(got[k] - (dot < 0 ? -want[k] : want[k])) < 1e-5);
    }
    // Every collision shape where MuJoCo places its geom: the link's pose composed with the
    // shape's, or the world pose of a fixed shape.
    const std::vector<int> geoms = CollidingGeoms(m);
    REQUIRE(geoms.size() == robot.collision_shapes.size());
    for (size_t s = 0; s < geoms.size(); ++s) {
      const CollisionShape& shape = robot.collision_shapes[s];
      const int g = geoms[s];
      INFO("robot " << r << " shape " << s << " '" << shape.name << "'");
      fm::Vec3 position = shape.position;
      fm::Mat3 rotation = fm::RotationOf(shape.quaternion);
      if (shape.link >= 0) {
        const ConstLanesView poses = std::as_const(*batch).link_poses();
        const size_t l = static_cast<size_t>(shape.link);
        const fm::Quat link_quat{poses.Array(7 * l + 3)[r], poses.Array(7 * l + 4)[r],
                                 poses.Array(7 * l + 5)[r], poses.Array(7 * l + 6)[r]};
        const fm::Mat3 link_rotation = fm::RotationOf(link_quat);
        const fm::Vec3 offset = fm::Rotate(link_rotation, shape.position);
        for (int k = 0; k < 3; ++k) position[k] = poses.Array(7 * l + k)[r] + offset[k];
        rotation = fm::Multiply(link_rotation, rotation);
      }
      for (int k = 0; k < 3; ++k) CHECK(std::abs(position[k] - data->geom_xpos[3 * g + k]) < 2e-5);
      for (int k = 0; k < 9; ++k) CHECK(std::abs(rotation[k] - data->geom_xmat[9 * g + k]) < 2e-5);
    }
  }
}

void CheckDynamics(const MjcfRobot& robot, const mjModel* m, std::mt19937& random) {
  const RobotModel& model = robot.model;
  MujocoData data(mj_makeData(m));
  DynamicsOptions options;
  options.armature = robot.armature;
  options.joint_friction = false;  // MuJoCo's bias has no damping or friction
  Result<DynamicsModel> dynamics = DynamicsModel::Build(model, options);
  if (!dynamics.ok()) FAIL(dynamics.status().message());
  const DynamicsTree tree = dynamics->tree();
  const size_t n = model.velocity_count(), nq = model.q_count();
  const DofMap dofs = MapDofs(robot, m);
  constexpr size_t kStates = 6;
  test::RobotLanes q(kStates, nq), v(kStates, n), zero(kStates, n);
  std::normal_distribution<double> speed(0.0, 1.0);
  for (size_t s = 0; s < kStates; ++s) {
    const std::vector<double> state = RandomQ(robot, random);
    for (size_t k = 0; k < nq; ++k) q.At(k, s) = static_cast<float>(state[k]);
    for (size_t k = 0; k < n; ++k) v.At(k, s) = static_cast<float>(speed(random));
  }
  const float gravity[3] = {static_cast<float>(robot.gravity[0]),
                            static_cast<float>(robot.gravity[1]),
                            static_cast<float>(robot.gravity[2])};
  test::ForEachTarget([&](const test::TargetUnderTest& target) {
    INFO(target.name);
    test::RobotLanes mass(kStates, n * n), bias(kStates, n);
    test::DynamicsScratch scratch(tree);
    MassMatrix(tree, q.view(), mass.view(), scratch.get());
    InverseDynamics(tree, gravity, q.view(), v.view(), zero.view(), bias.view(), scratch.get());
    for (size_t s = 0; s < kStates; ++s) {
      INFO("state " << s);
      std::vector<double> state(nq);
      for (size_t k = 0; k < nq; ++k) state[k] = q.At(k, s);
      SetQpos(robot, m, state, data->qpos);
      // T (MuJoCo's velocities are T v) and the base's dT v.
      std::vector<double> t(static_cast<size_t>(m->nv) * n, 0.0), drift(m->nv, 0.0);
      for (int d = 0; d < m->nv; ++d) t[n * d + dofs.column[d]] = dofs.factor[d];
      if (model.floating_base) {
        const fm::Mat3 r = fm::RotationOf({state[4], state[5], state[6], state[3]});
        for (size_t row = 0; row < 3; ++row) {
          for (size_t col = 0; col < 3; ++col) t[n * row + col] = r[3 * row + col];
        }
        const fm::Vec3 linear{v.At(0, s), v.At(1, s), v.At(2, s)};
        const fm::Vec3 angular{v.At(3, s), v.At(4, s), v.At(5, s)};
        const fm::Vec3 turn = fm::Rotate(r, {angular[1] * linear[2] - angular[2] * linear[1],
                                             angular[2] * linear[0] - angular[0] * linear[2],
                                             angular[0] * linear[1] - angular[1] * linear[0]});
        for (int k = 0; k < 3; ++k) drift[k] = turn[k];
      }
      for (int d = 0; d < m->nv; ++d) {
        data->qvel[d] = 0.0;
        for (size_t k = 0; k < n; ++k) data->qvel[d] += t[n * d + k] * v.At(k, s);
      }
      mj_forward(m, data.get());
      std::vector<double> full(m->nv * m->nv);
      mj_fullM(m, full.data(), data->qM);
      // swarm's M = T^T M_mj T; bias = T^T (b + M_mj dT v).
      std::vector<double> want_mass(n * n, 0.0), want_bias(n, 0.0), mt(m->nv * n, 0.0);
      for (int a = 0; a < m->nv; ++a) {
        for (int d = 0; d < m->nv; ++d) {
          for (size_t k = 0; k < n; ++k) mt[n * a + k] += full[m->nv * a + d] * t[n * d + k];
        }
      }
      for (int a = 0; a < m->nv; ++a) {
        double b = data->qfrc_bias[a];
        for (int d = 0; d < m->nv; ++d) b += full[m->nv * a + d] * drift[d];
        for (size_t i = 0; i < n; ++i) {
          want_bias[i] += t[n * a + i] * b;
          for (size_t k = 0; k < n; ++k) want_mass[n * i + k] += t[n * a + i] * mt[n * a + k];
        }
      }
      double mass_scale = 0.0, bias_scale = 0.0, mass_error = 0.0, bias_error = 0.0;
      for (size_t k = 0; k < n * n; ++k) {
        mass_scale = std::max(mass_scale, std::abs(want_mass[k]));
        mass_error = std::max(mass_error, std::abs(mass.At(k, s) - want_mass[k]));
      }
      for (size_t k = 0; k < n; ++k) {
        bias_scale = std::max(bias_scale, std::abs(want_bias[k]));
        bias_error = std::max(bias_error, std::abs(bias.At(k, s) - want_bias[k]));
      }
      CHECK(mass_error <= 1e-4 * mass_scale);
      CHECK(bias_error <= 1e-4 * bias_scale);
    }
  });
}
// The mapping's rules on small models that MuJoCo 2.2.2 reads as they are: a fixed base whose
// root is placed off the origin; a body with two joints, each with an anchor, one with a ref; a
// slide joint with a ref along a slanted axis; an unnamed body; inertia from geoms of every solid
// (oriented, offset, one with its mass given); a joint equality with an offset and a factor of
// 2; motor, general and position actuators with gears and ranges; keyframes with velocities; and
// a free base with a keyframe velocity (world frame in MuJoCo).
constexpr const char* kRulesModel = R"(<mujoco model="rules">
  <compiler angle="degree" autolimits="true"/>
  <option timestep="0.001" gravity="0.5 -1 -9"/>
  <default>
    <joint damping="0.3" armature="0.02"/>
    <default class="arm"><joint frictionloss="0.1"/></default>
  </default>
  <worldbody>
    <geom type="plane" size="1 1 0.1"/>
    <body name="base" pos="0.1 0.2 0.3" euler="10 20 30">
      <geom type="box" size="0.1 0.2 0.05" pos="0 0 0.1" euler="0 15 0"/>
      <geom type="sphere" size="0.05" pos="0.1 0 0" mass="0.3"/>
      <body name="two_joints" pos="0 0 0.2" quat="1 0.2 0.1 0">
        <joint name="yaw" axis="0 0 1" pos="0.05 0 0" range="-90 90" ref="20"/>
        <joint name="pitch" axis="0 1 0" pos="0 0.03 0.01" class="arm"/>
        <geom type="capsule" fromto="0 0 0 0 0.1 0.3" size="0.03"/>
        <geom type="cylinder" size="0.02 0.05" pos="0 0 0.15" euler="90 0 0"/>
        <body pos="0 0 0.3">
          <joint name="slide" type="slide" axis="1 1 0" range="-0.1 0.2" ref="0.05"/>
          <inertial pos="0.01 0 0.02" mass="0.5" diaginertia="0.01 0.02 0.025" euler="5 10 15"/>
          <body name="tip" pos="0 0 0.1">
            <joint name="tip_a" axis="1 0 0" range="-45 45"/>
            <geom type="ellipsoid" size="0.03 0.04 0.05"/>
            <body name="tip_b" pos="0.05 0 0">
              <joint name="tip_b" axis="1 0 0"/>
              <geom type="box" size="0.01 0.01 0.03"/>
            </body>
          </body>
        </body>
      </body>
    </body>
  </worldbody>
  <equality><joint joint1="tip_b" joint2="tip_a" polycoef="0.1 2 0 0 0"/></equality>
  <actuator>
    <motor name="yaw" joint="yaw" gear="2" ctrlrange="-1 1" forcerange="-5 5"/>
    <general name="slide" joint="slide" gainprm="30" biasprm="0 -30 -2" biastype="affine"/>
    <position name="pitch" joint="pitch" kp="20" forcerange="-3 4"/>
  </actuator>
  <keyframe>
    <key name="k" qpos="0.3 -0.2 0.05 0.2 0.5" qvel="0.1 0.2 0.3 0.4 0.8" ctrl="0.5 0.1 -0.2"/>
  </keyframe>
</mujoco>)";

constexpr const char* kFreeModel = R"(<mujoco model="free">
  <compiler angle="radian" autolimits="true"/>
  <worldbody>
    <body name="torso" pos="0.3 -0.2 1" quat="0.9 0.1 -0.3 0.2">
      <freejoint name="root"/>
      <geom type="capsule" size="0.05 0.2" pos="0 0.02 0" euler="0.3 0.2 0.1"/>
      <geom type="box" size="0.1 0.05 0.08" pos="0.1 0 0" mass="2"/>
      <body name="leg" pos="0 0 -0.3">
        <joint name="hip_x" axis="1 0 0" pos="0 0 0.05" range="-1 1"/>
        <joint name="hip_y" axis="0 1 0" range="-1 1"/>
        <geom type="capsule" fromto="0 0 0 0 0 -0.4" size="0.04"/>
      </body>
    </body>
  </worldbody>
  <keyframe>
    <key name="moving" qpos="0 0 0.8 0.6 0 0.8 0 0.2 -0.1" qvel="1 2 3 0.5 -0.5 0.25 0.1 -0.2"/>
  </keyframe>
</mujoco>)";

}  // namespace

TEST_CASE("MJCF robots: the mapping's rules as MuJoCo 2.2.2 compiles them", "[mujoco]") {
  std::mt19937 random(3);
  for (const char* text : {kRulesModel, kFreeModel}) {
    const std::string path = std::string(SWARM_MUJOCO_SCENE_DIR) + "/mjcf/" +
                             (text == kRulesModel ? "rules.xml" : "free.xml");
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream(path) << text;
    INFO(path);
    Result<MjcfRobot> robot = LoadMjcfFile(path);
    if (!robot.ok()) FAIL(robot.status().message());
    const MujocoModel mujoco = LoadMujoco(path);
    CheckModel(*robot, mujoco.get());
    CheckCollisionModel(*robot, mujoco.get());
    CheckKinematics(*robot, mujoco.get(), random);
    CheckDynamics(*robot, mujoco.get(), random);
  }
}

TEST_CASE(
    "MJCF robots: the Menagerie's bodies, joints, actuators, keyframes, kinematics and "
    "dynamics as MuJoCo 2.2.2's",
    "[mujoco]") {
  std::mt19937 random(7);
  for (const Case& c : kCases) {
    INFO(c.folder << "/" << c.file);
    const test::MjcfPeer peer = test::PrepareMjcfPeer(c.folder, c.file);
    CheckModel(peer.robot, peer.mujoco.get());
    CheckCollisionModel(peer.robot, peer.mujoco.get());
    CheckKinematics(peer.robot, peer.mujoco.get(), random);
    CheckDynamics(peer.robot, peer.mujoco.get(), random);
  }
}

}  // namespace swarm
