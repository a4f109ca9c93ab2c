// RobotBatch's torque mode (swarm/robots/robot_batch.h) against MuJoCo 2.2.2 on the same model
// (tests/support/mujoco_peer.h: MuJoCo reads the same URDF, with the same armature, solref,
// solimp, contacts, time step and Euler integrator), in the steady states where both solve the
// same equations:
//   - a Solo12 standing on flat ground under PD + gravity compensation toward its standing posture
//     (both sides: tau = g(q) + kp (target - q) - kd qd, g from each engine's own recursive
//     Newton-Euler at zero velocity): after the same 3 s both are at rest, each foot's normal force
//     is within 5% of MuJoCo's and swarm's feet carry m g to 0.5%;
//   - a Panda joint pushed into its limit by a constant torque with gravity off and the other
//     joints held by the same PD: the rows' reference inverse inertia w0 is MuJoCo's
//     dof_invweight0 (to 2%), and the settled penetration is MuJoCo's to 10% (at rest both give
//     the limit force k d r / R with the same k, d(r) and R = (1 - d) / d w0).
// The MJCF of each scene is written to the build folder (SWARM_MUJOCO_SCENE_DIR). Steady states
// only: MuJoCo's pyramidal cone, its velocity-only friction rows (a loaded foot creeps) and its
// contact w0 (body_invweight0 at the body's centre of mass, where swarm takes the contact
// point's) make the transients and depths differ by design.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "swarm/core/memory.h"
#include "swarm/core/thread_pool.h"
#include "swarm/robots/robot_batch.h"
#include "swarm/robots/robot_model.h"
#include "tests/engine/robots/solo12_fixture.h"
#include "tests/support/mujoco_peer.h"

namespace swarm {
namespace {

using test::MujocoPeer;

constexpr double kGravity = 9.81;

RobotModel Load(const std::string& path, bool floating) {
  UrdfOptions options;
  options.floating_base = floating;
  Result<RobotModel> model = LoadUrdfFile(path, options);
  if (!model.ok()) FAIL(model.status().message());
  return std::move(model).value();
}

RobotBatch Create(MemoryAccountant& memory, const RobotModel& model,
                  const RobotBatchConfig& config) {
  Result<RobotBatch> batch = RobotBatch::Create(memory, model, 1, config);
  if (!batch.ok()) FAIL(batch.status().message());
  return std::move(batch).value();
}

std::unique_ptr<MujocoPeer> Peer(const RobotBatch& batch, const std::string& urdf, double dt,
                                 const std::string& name) {
  Result<std::unique_ptr<MujocoPeer>> peer =
      MujocoPeer::Create(urdf, bench::JointColumnNames(batch.model()),
                         bench::SceneOptionsOf(batch, dt, SWARM_MUJOCO_SCENE_DIR, name));
  if (!peer.ok()) FAIL(peer.status().message());
  return std::move(peer).value();
}

std::vector<double> StateQ(const RobotBatch& batch) {
  std::vector<double> q;
  for (size_t k = 0; k < batch.q().arrays; ++k) q.push_back(batch.q().Array(k)[0]);
  return q;
}

TEST_CASE("MuJoCo peer: a standing Solo12's feet carry what MuJoCo's carry", "[mujoco]") {
  const RobotModel model = Load(test::Solo12Path(), true);
  RobotBatchConfig config = test::SoloStandConfig(model);
  config.torque.contacts.radius = 0.016f;  // Solo's foot spheres
  MemoryAccountant memory;
  RobotBatch batch = Create(memory, model, config);
  const size_t dof = model.dof();
  REQUIRE(batch.contact_points().size() == 4);
  ThreadPool pool(1);
  // The posture with the base level at the origin, then lowered until the lowest foot sphere
  // touches the ground.
  const LanesView q = batch.q();
  for (size_t j = 0; j < dof; ++j) {
    q.Array(7 + j)[0] = test::kSoloPosture[j];
    batch.q_target().Array(j)[0] = test::kSoloPosture[j];
  }
  batch.ForwardKinematics(pool);
  float lowest = 1e30f;
  for (const ContactPoint& contact : batch.contact_points()) {
    lowest = std::min(lowest, batch.link_poses().Array(7 * contact.link + 2)[0] - contact.radius);
  }
  q.Array(2)[0] = config.torque.contacts.ground.height - lowest;
  batch.ForwardKinematics(pool);

  constexpr double kDt = 0.001;
  constexpr int kSteps = 3000;  // 3 s
  std::unique_ptr<MujocoPeer> peer = Peer(batch, test::Solo12Path(), kDt, "solo12_stand");
  peer->SetQ(StateQ(batch));
  bench::MujocoPdGravity pd;
  for (size_t j = 0; j < dof; ++j) {
    const JointControl& joint = batch.config().control[j];
    pd.kp.push_back(joint.kp);
    pd.kd.push_back(joint.kd);
    pd.target.push_back(test::kSoloPosture[j]);
    pd.effort.push_back(joint.effort_limit);
  }
  for (int step = 0; step < kSteps; ++step) {
    const Status status =
        batch.TorqueStep(pool, static_cast<float>(kDt), TorqueController::kPdGravity);
    if (!status.ok()) FAIL(status.message());
    peer->StepPdGravity(pd);
  }

  double mass = 0.0;
  for (const LinkInertial& inertial : model.inertials) mass += inertial.mass;
  const std::vector<double> mujoco = peer->ContactNormalForces();
  double total = 0.0, mujoco_total = 0.0;
  for (size_t c = 0; c < 4; ++c) {
    const double swarm_force = batch.contact_forces().Array(c)[0];
    total += swarm_force;
    mujoco_total += mujoco[c];
    const std::string& foot = model.links[batch.contact_points()[c].link];
    INFO(foot << ": swarm " << swarm_force << " N, MuJoCo " << mujoco[c] << " N; w0 swarm "
              << batch.contact_points()[c].inverse_inertia0 << ", MuJoCo body_invweight0 "
              << peer->ContactBodyInvWeight0(c));
    CHECK(std::fabs(swarm_force - mujoco[c]) <= 0.05 * mujoco[c]);
  }
  INFO("m g " << mass * kGravity << " N, swarm " << total << " N, MuJoCo " << mujoco_total
              << " N; base height swarm " << q.Array(2)[0] << " m, MuJoCo " << peer->Q()[2]
              << " m");
  CHECK(std::fabs(total - mass * kGravity) <= 0.005 * mass * kGravity);
  CHECK(std::fabs(mujoco_total - mass * kGravity) <= 0.005 * mass * kGravity);
  // Both at rest: the base and every joint.
  for (size_t k = 0; k < 6; ++k) CHECK(std::fabs(batch.base_velocity().Array(k)[0]) < 1e-3);
  for (size_t k = 0; k < 6; ++k)
    CHECK(std::fabs(peer->data()->qvel[peer->scene().free_dof + k]) < 1e-3);
  for (size_t j = 0; j < dof; ++j) {
    CHECK(std::fabs(batch.qd().Array(j)[0]) < 1e-3);
    CHECK(std::fabs(peer->Qd(j)) < 1e-3);
  }
}

TEST_CASE("MuJoCo peer: a Panda joint pushed into its limit settles as deep as in MuJoCo",
          "[mujoco]") {
  const std::string urdf = std::string(SWARM_ROBOT_ASSETS_DIR) + "/panda_arm.urdf";
  const RobotModel model = Load(urdf, false);
  RobotBatchConfig config;
  config.control = DefaultJointControl(model);
  config.torque.enabled = true;
  config.torque.dynamics.armature.assign(model.dof(), 0.1);
  for (float& g : config.torque.gravity) g = 0.0f;
  MemoryAccountant memory;
  RobotBatch batch = Create(memory, model, config);
  const size_t dof = model.dof();
  constexpr double kDt = 0.001;
  std::unique_ptr<MujocoPeer> peer = Peer(batch, urdf, kDt, "panda_limit");
  constexpr size_t kJoint = 3;  // panda_joint4, upper limit -0.0698 rad
  const JointControl& pushed = batch.config().control[kJoint];
  const double torque = 0.25 * pushed.effort_limit;  // 21.75 N m toward the upper limit
  INFO("w0 swarm " << batch.joint_constraints()[kJoint].inverse_inertia0 << ", MuJoCo "
                   << peer->DofInvWeight0(kJoint));
  CHECK(std::fabs(batch.joint_constraints()[kJoint].inverse_inertia0 -
                  peer->DofInvWeight0(kJoint)) <= 0.02 * peer->DofInvWeight0(kJoint));
  // Start inside the range, the other joints held where they start by PD.
  std::vector<double> start(dof, 0.0);
  start[kJoint] = pushed.upper - 0.3;
  for (size_t j = 0; j < dof; ++j) {
    start[j] = std::clamp(start[j], double(batch.config().control[j].lower),
                          double(batch.config().control[j].upper));
    batch.q().Array(j)[0] = static_cast<float>(start[j]);
  }
  peer->SetQ(StateQ(batch));
  constexpr double kKp = 200.0, kKd = 20.0;
  std::vector<double> effort;
  for (const JointControl& joint : batch.config().control) effort.push_back(joint.effort_limit);
  const auto torques = [&](const std::vector<double>& q, const std::vector<double>& qd) {
    std::vector<double> tau(dof);
    for (size_t j = 0; j < dof; ++j) tau[j] = kKp * (start[j] - q[j]) - kKd * qd[j];
    tau[kJoint] = torque;
    return tau;
  };
  ThreadPool pool(1);
  for (int step = 0; step < 3000; ++step) {  // 3 s
    std::vector<double> q(dof), qd(dof);
    for (size_t j = 0; j < dof; ++j) q[j] = batch.q().Array(j)[0], qd[j] = batch.qd().Array(j)[0];
    const std::vector<double> tau = torques(q, qd);
    for (size_t j = 0; j < dof; ++j) batch.torque().Array(j)[0] = static_cast<float>(tau[j]);
    const Status status = batch.TorqueStep(pool, static_cast<float>(kDt), TorqueController::kNone);
    if (!status.ok()) FAIL(status.message());
    std::vector<double> mq = peer->Q(), mqd(dof);
    for (size_t j = 0; j < dof; ++j) mqd[j] = peer->Qd(j);
    peer->StepTorques(torques(mq, mqd), effort);
  }
  const double swarm_depth = double(batch.q().Array(kJoint)[0]) - double(pushed.upper);
  const double mujoco_depth = peer->LimitPenetration(kJoint);
  // The steady state both should reach: the limit force k d r / R, R = (1 - d) / d w0, equals the
  // torque, with d = dmax past the impedance's width (soft_constraint.h).
  const SoftConstraint& soft = batch.config().torque.limits;
  const double dmax = soft.impedance_max, tc = soft.time_constant, zeta = soft.damping_ratio;
  const double k = 1.0 / (dmax * dmax * tc * tc * zeta * zeta);
  const double analytic = torque * (1.0 - dmax) * peer->DofInvWeight0(kJoint) / (k * dmax * dmax);
  INFO("penetration swarm " << swarm_depth << " rad, MuJoCo " << mujoco_depth << " rad, analytic "
                            << analytic << " rad");
  REQUIRE(analytic > soft.width);
  CHECK(std::fabs(mujoco_depth - analytic) <= 0.02 * analytic);
  CHECK(std::fabs(swarm_depth - mujoco_depth) <= 0.1 * mujoco_depth);
  CHECK(std::fabs(batch.qd().Array(kJoint)[0]) < 1e-3);
  CHECK(std::fabs(peer->Qd(kJoint)) < 1e-3);
}

}  // namespace
}  // namespace swarm
