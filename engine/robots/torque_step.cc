#include "engine/robots/torque_step.h"

#include <algorithm>

namespace swarm {

void ControlTorques(const TorqueStepModel& model, const TorqueStepArrays& arrays,
                    TorqueController controller, size_t begin, size_t count) {
  if (model.dof == 0) return;
  const auto slice = [&](const auto& view) { return view.Slice(begin, count); };
  const JointTargets& targets = arrays.targets;
  const JointTargets tile_targets{slice(targets.q), slice(targets.qd), slice(targets.qdd)};
  const DynamicsTree& tree = *model.dynamics;
  float* scratch = model.Scratch(begin);
  switch (controller) {
    case TorqueController::kNone:
      ClampTorques(model.control, model.dof, slice(arrays.torques));
      return;
    case TorqueController::kPdGravity:
      // g(q) into [base force | torque]; the base's part is no actuation and is cleared.
      GravityTorques(tree, model.config->gravity, slice(arrays.q), slice(arrays.forces), scratch);
      for (size_t k = 0; k < model.base; ++k) {
        std::fill_n(arrays.forces.Array(k) + begin, count, 0.0f);
      }
      AddPdTorques(model.control, model.dof, slice(arrays.q_joints), slice(arrays.joint_velocities),
                   tile_targets, slice(arrays.torques));
      return;
    case TorqueController::kComputedTorque:
      // Fixed base, so n == dof: the commanded accelerations go through qdd as a temporary.
      PdAccelerations(model.control, model.dof, slice(arrays.q_joints),
                      slice(arrays.joint_velocities), tile_targets, slice(arrays.accelerations));
      InverseDynamics(tree, model.config->gravity, slice(arrays.q), slice(arrays.velocities),
                      slice(arrays.accelerations), slice(arrays.torques), scratch);
      ClampTorques(model.control, model.dof, slice(arrays.torques));
      return;
  }
}

void AddLimitAndContactForces(const TorqueStepModel& model, const TorqueStepArrays& arrays,
                              size_t begin, size_t count, const ConstLanesView& q_state,
                              const ConstLanesView& v_state) {
  const size_t dof = model.dof, base = model.base;
  const LanesView& applied = arrays.applied;
  if (dof > 0) {
    const LanesView joint_applied = applied.Arrays(base, dof).Slice(begin, count);
    AddJointLimitForces(model.control, dof, model.config->limit_spring,
                        q_state.Arrays(model.dynamics->joint_q_begin(), dof),
                        v_state.Arrays(base, dof), arrays.torques.Slice(begin, count),
                        joint_applied);
  }
  if (model.contact_count > 0) {
    // The base's forces are the contacts' alone: cleared before every evaluation.
    for (size_t k = 0; k < base; ++k) std::fill_n(applied.Array(k) + begin, count, 0.0f);
    const LanesView tile_poses = arrays.poses.Slice(begin, count);
    ForwardKinematics(*model.kinematics, q_state, tile_poses);
    AddGroundContactForces(*model.kinematics, model.contacts, model.contact_count,
                           model.config->contacts.ground, tile_poses, v_state,
                           applied.Slice(begin, count), arrays.contact_forces.Slice(begin, count));
  }
}

void ApplyForwardDynamics(const TorqueStepModel& model, const TorqueStepArrays& arrays,
                          size_t begin, size_t count, const ConstLanesView& q_state,
                          const ConstLanesView& v_state, const LanesView& a) {
  AddLimitAndContactForces(model, arrays, begin, count, q_state, v_state);
  ForwardDynamics(*model.dynamics, model.config->gravity, q_state, v_state,
                  arrays.applied.Slice(begin, count), a, model.Scratch(begin));
}

void AdvancePositions(const TorqueStepModel& model, const ConstLanesView& q_from,
                      const ConstLanesView& v, float seconds, const LanesView& q_out) {
  const size_t dof = model.dof, base = model.base;
  const size_t joint_q_begin = model.dynamics->joint_q_begin();
  if (dof > 0) {
    AddScaled(q_from.Arrays(joint_q_begin, dof), v.Arrays(base, dof), seconds,
              q_out.Arrays(joint_q_begin, dof));
  }
  if (base > 0) {
    AdvanceFloatingBase(q_from.Arrays(0, kFloatingBaseArrays), v.Arrays(0, base), seconds,
                        q_out.Arrays(0, kFloatingBaseArrays));
  }
}

void EulerStep(const TorqueStepModel& model, const TorqueStepArrays& arrays, float dt, size_t begin,
               size_t count) {
  const auto slice = [&](const auto& view) { return view.Slice(begin, count); };
  const size_t dof = model.dof, base = model.base;
  ApplyForwardDynamics(model, arrays, begin, count, slice(arrays.q), slice(arrays.velocities),
                       slice(arrays.accelerations));
  if (dof > 0) {
    IntegrateAccelerations(arrays.accelerations.Arrays(base, dof).Slice(begin, count),
                           slice(arrays.q_joints), slice(arrays.joint_velocities), dt);
  }
  if (base > 0) {
    IntegrateFloatingBase(arrays.accelerations.Arrays(0, base).Slice(begin, count),
                          arrays.q.Arrays(0, kFloatingBaseArrays).Slice(begin, count),
                          arrays.velocities.Arrays(0, base).Slice(begin, count), dt);
  }
}

void RungeKutta4Step(const TorqueStepModel& model, const TorqueStepArrays& arrays, float dt,
                     size_t begin, size_t count) {
  const auto slice = [&](const LanesView& view) { return view.Slice(begin, count); };
  const size_t nq = model.q_count, n = model.velocities;
  const LanesView q = slice(arrays.q), v = slice(arrays.velocities);
  const LanesView q0 = slice(arrays.rk_q0), v0 = slice(arrays.rk_v0);
  const LanesView q_stage = slice(arrays.rk_q_stage), v_stage = slice(arrays.rk_v_stage);
  const LanesView v_sum = slice(arrays.rk_v_sum), a_sum = slice(arrays.rk_a_sum);
  const LanesView a_stage = slice(arrays.rk_a_stage);
  const LanesView a1 = slice(arrays.accelerations);
  const auto evaluate = [&](const ConstLanesView& q_at, const ConstLanesView& v_at,
                            const LanesView& a) {
    ApplyForwardDynamics(model, arrays, begin, count, q_at, v_at, a);
  };
  for (size_t k = 0; k < nq; ++k) std::copy_n(q.Array(k), count, q0.Array(k));
  for (size_t k = 0; k < n; ++k) std::copy_n(v.Array(k), count, v0.Array(k));
  const float half = 0.5f * dt;
  // k1 at (q0, v0).
  evaluate(q0, v0, a1);
  // k2 at (q0 + dt/2 v0, v0 + dt/2 a1); sums v0 + 2 v2 + 2 v3 + v4, a1 + 2 a2 + 2 a3 + a4.
  AddScaled(v0, a1, half, v_stage);
  AdvancePositions(model, q0, v0, half, q_stage);
  evaluate(q_stage, v_stage, a_stage);
  AddScaled(v0, v_stage, 2.0f, v_sum);
  AddScaled(a1, a_stage, 2.0f, a_sum);
  // k3 at (q0 + dt/2 v2, v0 + dt/2 a2).
  AdvancePositions(model, q0, v_stage, half, q_stage);
  AddScaled(v0, a_stage, half, v_stage);
  evaluate(q_stage, v_stage, a_stage);
  AddScaled(v_sum, v_stage, 2.0f, v_sum);
  AddScaled(a_sum, a_stage, 2.0f, a_sum);
  // k4 at (q0 + dt v3, v0 + dt a3).
  AdvancePositions(model, q0, v_stage, dt, q_stage);
  AddScaled(v0, a_stage, dt, v_stage);
  evaluate(q_stage, v_stage, a_stage);
  AddScaled(v_sum, v_stage, 1.0f, v_sum);
  AddScaled(a_sum, a_stage, 1.0f, a_sum);
  // The step: v = v0 + dt/6 (a sum), q = q0 moved for dt/6 along the velocity sum.
  const float sixth = dt / 6.0f;
  AddScaled(v0, a_sum, sixth, v);
  AdvancePositions(model, q0, v_sum, sixth, q);
}

}  // namespace swarm
