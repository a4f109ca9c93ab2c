#include "engine/robots/torque_step.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

#include "swarm/kernels/robots/contact_inertia.h"

namespace swarm {

namespace {

ContactState TileState(const ContactState& state, size_t begin, size_t count) {
  return {state.normal_forces.Slice(begin, count), state.friction_forces.Slice(begin, count),
          state.anchors.Slice(begin, count), state.sliding.Slice(begin, count)};
}

ContactStep TileStep(const ContactStep& step, size_t begin, size_t count) {
  return {step.flags.Slice(begin, count), step.slipping.Slice(begin, count),
          step.slip_forces.Slice(begin, count)};
}

ContactSet TileContacts(const TorqueStepModel& model, const TorqueStepArrays& arrays, size_t begin,
                        size_t count) {
  return {model.contacts, model.contact_parameters, model.contact_count,
          arrays.contact_geometry.Slice(begin, count),
          arrays.contact_velocities.Slice(begin, count)};
}

// The views of TorqueStepArrays that a re-solve reads or writes, and which of them a gathered
// re-solve copies in and back out: the state, the controller's forces, the contacts' placement
// and state and `applied` (a floating base without contacts keeps its zero base forces there) are
// read only; the flags and marks are read and written; the accelerations are written; the added
// inertia is written and read within each solve, so neither (a solve writes all of it first).
struct SolveView {
  LanesView* view;
  bool copy_in, copy_out;
};
inline constexpr size_t kSolveViews = 19;
std::array<SolveView, kSolveViews> SolveViews(TorqueStepArrays& arrays) {
  return {SolveView{&arrays.q, true, false},
          {&arrays.velocities, true, false},
          {&arrays.forces, true, false},
          {&arrays.poses, true, false},
          {&arrays.contact_geometry, true, false},
          {&arrays.contact_velocities, true, false},
          {&arrays.applied, true, false},
          {&arrays.accelerations, false, true},
          {&arrays.contacts.normal_forces, true, false},
          {&arrays.contacts.friction_forces, true, false},
          {&arrays.contacts.anchors, true, false},
          {&arrays.contacts.sliding, true, false},
          {&arrays.added_joints, false, false},
          {&arrays.added_points, false, false},
          {&arrays.limit_flags, true, true},
          {&arrays.contact_step.flags, true, true},
          {&arrays.contact_step.slipping, true, true},
          {&arrays.contact_step.slip_forces, true, true},
          {&arrays.resolve_marks, true, true}};
}

// The link poses take part only with contacts (forward kinematics places the contact points).
size_t StagedArrays(size_t view, size_t arrays, size_t contacts) {
  constexpr size_t kPoses = 3;
  return view == kPoses && contacts == 0 ? 0 : arrays;
}

// Solves 2, 3, ... of robots [begin, begin + count) of `arrays` (a tile's, or robots gathered
// into a staging block), with their joints' sines and cosines (`trig`, lane k for robot
// begin + k) when given: the robots whose rows that act changed (their marks) are solved again,
// in runs of whole vectors, at most kMaxConstraintSolves times in all; the last update only
// catches and stops, so that no row released in it goes unchecked, and it stops the rows the step
// let go of the robots still unsettled (their marks are kept for it). A robot's solves depend on
// its own flags alone, so it gets the same bits in any run.
void SolveMarkedAgain(const TorqueStepModel& model, const TorqueStepArrays& arrays, float* scratch,
                      size_t begin, size_t count, const JointTrig* trig) {
  const LanesView a = arrays.accelerations.Slice(begin, count);
  const LanesView q = arrays.q.Slice(begin, count), v = arrays.velocities.Slice(begin, count);
  const float* marks = arrays.resolve_marks.Array(0) + begin;
  bool pending = true;
  for (size_t solve = 2; pending && solve <= kMaxConstraintSolves; ++solve) {
    pending = false;
    const bool may_release = solve + 1 < kMaxConstraintSolves;
    const auto marked = [&](size_t block) {
      const size_t end = std::min(block + kPadFloats, count);
      return std::any_of(marks + block, marks + end, [](float mark) { return mark != 0.0f; });
    };
    for (size_t block = 0; block < count;) {
      if (!marked(block)) {
        block += kPadFloats;
        continue;
      }
      const size_t run = block;
      while (block < count && marked(block)) block += kPadFloats;
      const size_t run_count = std::min(block, count) - run;
      if (may_release) std::fill_n(arrays.resolve_marks.Array(0) + begin + run, run_count, 0.0f);
      const LanesView run_q = q.Slice(run, run_count), run_v = v.Slice(run, run_count);
      const LanesView run_a = a.Slice(run, run_count);
      const JointTrig run_trig{trig != nullptr ? trig->values.Slice(run, run_count) : LanesView{},
                               true};
      ApplyForwardDynamics(model, arrays, scratch, begin + run, run_count, run_q, run_v, run_a,
                           trig != nullptr ? &run_trig : nullptr);
      if (solve < kMaxConstraintSolves) {
        pending = UpdateConstraintFlags(model, arrays, begin + run, run_count, run_q, run_v, run_a,
                                        may_release) ||
                  pending;
      }
    }
  }
}

// Marks are 0 or 1, and most robots are unmarked: runs of kMarkRun are tested at once (one OR of
// their bits, which the compiler vectorizes, instead of a compare and branch per robot).
constexpr size_t kMarkRun = 16;
bool NoneMarked(const float* marks) {
  uint32_t any = 0;
  for (size_t k = 0; k < kMarkRun; ++k) {
    uint32_t bits;
    std::memcpy(&bits, marks + k, sizeof(bits));
    any |= bits << 1;  // -0.0f counts as 0, as in marks[k] != 0.0f
  }
  return any == 0;
}

// The marked robots of the tile (after its first solve and update), gathered
// kResolveStagingRobots at a time into the tile's staging block, solved again there
// (SolveMarkedAgain) and put back.
void ResolveMarked(const TorqueStepModel& model, const TorqueStepArrays& arrays, float* scratch,
                   size_t begin, size_t count, const JointTrig* trig) {
  TorqueStepArrays source = arrays;
  TorqueStepArrays staged;
  const std::array<SolveView, kSolveViews> from = SolveViews(source), to = SolveViews(staged);
  const size_t capacity = model.staging_robots;
  uint32_t robots[kResolveStagingRobots];
  const float* marks = arrays.resolve_marks.Array(0) + begin;
  for (size_t next = 0; next < count;) {
    size_t gathered = 0;
    while (next < count && gathered < capacity) {
      if (next % kMarkRun == 0 && next + kMarkRun <= count && NoneMarked(marks + next)) {
        next += kMarkRun;
        continue;
      }
      if (marks[next] != 0.0f) robots[gathered++] = static_cast<uint32_t>(begin + next);
      ++next;
    }
    if (gathered == 0) break;
    // The staged views: `gathered` robots in arrays of `capacity` lanes; the lanes past them are
    // zero, as the batch's padding, so that whole vectors read finite values there.
    float* at = model.Staging(begin);
    for (size_t k = 0; k < kSolveViews; ++k) {
      const size_t staged_arrays = StagedArrays(k, from[k].view->arrays, model.contact_count);
      *to[k].view = LanesView{at, gathered, capacity, staged_arrays};
      at += staged_arrays * capacity;
      for (size_t array = 0; array < staged_arrays; ++array) {
        const float* in = from[k].view->Array(array);
        float* out = to[k].view->Array(array);
        if (from[k].copy_in) {
          for (size_t r = 0; r < gathered; ++r) out[r] = in[robots[r]];
        }
        std::fill(out + gathered, out + RoundUpToVector<float>(gathered), 0.0f);
      }
    }
    staged.q_joints = staged.q.Arrays(model.dynamics->joint_q_begin(), model.dof);
    staged.joint_velocities = staged.velocities.Arrays(model.base, model.dof);
    staged.torques = staged.forces.Arrays(model.base, model.dof);
    JointTrig staged_trig{
        LanesView{at, gathered, capacity, trig != nullptr ? model.trig_arrays : 0}, true};
    for (size_t array = 0; array < staged_trig.values.arrays; ++array) {
      const float* in = trig->values.Array(array);
      float* out = staged_trig.values.Array(array);
      for (size_t r = 0; r < gathered; ++r) out[r] = in[robots[r] - begin];
      std::fill(out + gathered, out + RoundUpToVector<float>(gathered), 0.0f);
    }
    SolveMarkedAgain(model, staged, scratch, 0, gathered, trig != nullptr ? &staged_trig : nullptr);
    for (size_t k = 0; k < kSolveViews; ++k) {
      if (!from[k].copy_out) continue;
      for (size_t array = 0; array < to[k].view->arrays; ++array) {
        const float* in = to[k].view->Array(array);
        float* out = from[k].view->Array(array);
        for (size_t r = 0; r < gathered; ++r) out[robots[r]] = in[r];
      }
    }
  }
}

}  // namespace

size_t ResolveStagingFloats(size_t q_count, size_t velocities, size_t dof, size_t pose_arrays,
                            size_t contacts, size_t trig_arrays, size_t robots) {
  const size_t arrays = q_count + 4 * velocities + (contacts > 0 ? pose_arrays : 0) +
                        (kContactArrays + kContactVelocityArrays) * contacts + 6 * contacts + dof +
                        kAddedPointArrays * contacts + dof + 4 * contacts + 1 + trig_arrays;
  return arrays * robots;
}

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
      if (model.trig != nullptr) {
        const JointTrig trig{model.Trig(begin, count), false};
        GravityTorques(tree, model.config->gravity, slice(arrays.q), slice(arrays.forces), scratch,
                       &trig);
      } else {
        GravityTorques(tree, model.config->gravity, slice(arrays.q), slice(arrays.forces), scratch);
      }
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
    case TorqueController::kActuators: {
      const std::vector<JointActuator>& actuators = model.config->actuators;
      ActuatorTorques(actuators.data(), actuators.size(), slice(arrays.q_joints),
                      slice(arrays.joint_velocities), slice(arrays.ctrl), slice(arrays.torques));
      ClampTorques(model.control, model.dof, slice(arrays.torques));
      return;
    }
  }
}

void AddConstraintTerms(const TorqueStepModel& model, const TorqueStepArrays& arrays, size_t begin,
                        size_t count, const ConstLanesView& q_state,
                        const ConstLanesView& v_state) {
  const size_t dof = model.dof, base = model.base;
  const LanesView& applied = arrays.applied;
  if (dof > 0) {
    JointConstraintTerms(
        model.joints, dof, model.limits, model.dynamics->friction_velocity,
        q_state.Arrays(model.dynamics->joint_q_begin(), dof), v_state.Arrays(base, dof),
        arrays.limit_flags.Slice(begin, count), arrays.torques.Slice(begin, count),
        applied.Arrays(base, dof).Slice(begin, count), arrays.added_joints.Slice(begin, count));
  }
  if (model.contact_count > 0) {
    // The base's forces are the contacts' alone: cleared before every evaluation.
    for (size_t k = 0; k < base; ++k) std::fill_n(applied.Array(k) + begin, count, 0.0f);
    ContactTerms(*model.kinematics, TileContacts(model, arrays, begin, count),
                 arrays.poses.Slice(begin, count), v_state,
                 TileState(arrays.contacts, begin, count),
                 TileStep(arrays.contact_step, begin, count), applied.Slice(begin, count),
                 arrays.added_points.Slice(begin, count));
  }
}

void PlaceContacts(const TorqueStepModel& model, const TorqueStepArrays& arrays, size_t begin,
                   size_t count) {
  if (model.contact_count == 0) return;
  const LanesView poses = arrays.poses.Slice(begin, count);
  ForwardKinematics(*model.kinematics, arrays.q.Slice(begin, count), poses);
  const size_t ground = model.ground_contacts;
  if (ground > 0) {
    GroundContactGeometry(
        *model.kinematics, model.contacts, ground, model.config->contacts.ground.height, poses,
        arrays.contact_geometry.Arrays(0, kContactArrays * ground).Slice(begin, count));
  }
  if (model.world != nullptr && model.world->count() > 0) {
    const WorldContacts& world = *model.world;
    world.Detect(
        poses, model.WorldFrames(begin),
        arrays.contact_geometry.Arrays(kContactArrays * ground, kContactArrays * world.count())
            .Slice(begin, count));
  }
  ContactVelocities(*model.kinematics, TileContacts(model, arrays, begin, count), poses,
                    arrays.velocities.Slice(begin, count),
                    arrays.contact_velocities.Slice(begin, count));
}

void ApplyForwardDynamics(const TorqueStepModel& model, const TorqueStepArrays& arrays,
                          float* scratch, size_t begin, size_t count, const ConstLanesView& q_state,
                          const ConstLanesView& v_state, const LanesView& a,
                          const JointTrig* trig) {
  AddConstraintTerms(model, arrays, begin, count, q_state, v_state);
  AddedInertia added;
  if (model.dof > 0) added.joints = arrays.added_joints.Slice(begin, count);
  if (model.contact_matrix_offset > 0) {
    // The contacts as a dense matrix, which the coupled tree's CRBA + LTDL solve adds to M.
    const size_t n = model.velocities;
    float* matrix = scratch + model.contact_matrix_offset;
    const LanesView dense{matrix, count, model.tile_width, n * n};
    ContactInertiaMatrix(*model.kinematics, TileContacts(model, arrays, begin, count),
                         arrays.poses.Slice(begin, count), arrays.added_points.Slice(begin, count),
                         dense, matrix + RoundUpToVector<float>(n * n * model.tile_width));
    added.matrix = dense;
  } else {
    added.point_bodies = model.contact_bodies;
    added.point_count = model.contact_count;
    added.points = arrays.added_points.Slice(begin, count);
  }
  ForwardDynamics(*model.dynamics, model.config->gravity, q_state, v_state,
                  arrays.applied.Slice(begin, count), a, scratch, &added, trig);
}

void ClearConstraintFlags(const TorqueStepModel& model, const TorqueStepArrays& arrays,
                          size_t begin, size_t count) {
  const auto clear = [&](const LanesView& view) {
    for (size_t k = 0; k < view.arrays; ++k) std::fill_n(view.Array(k) + begin, count, 0.0f);
  };
  clear(arrays.limit_flags);
  clear(arrays.resolve_marks);
  clear(arrays.contact_step.flags);
  clear(arrays.contact_step.slipping);
  clear(arrays.contact_step.slip_forces);
  (void)model;
}

void ReleaseLeavingContacts(const TorqueStepModel& model, const TorqueStepArrays& arrays,
                            size_t begin, size_t count) {
  for (size_t c = 0; c < model.contact_count; ++c) {
    const float margin = model.contact_parameters[c].margin;
    const float* distance = arrays.contact_geometry.Array(kContactArrays * c) + begin;
    const float* normal_speed =
        arrays.contact_velocities.Array(kContactVelocityArrays * c + 2) + begin;
    const float* previous = arrays.contacts.normal_forces.Array(c) + begin;
    float* flags = arrays.contact_step.flags.Array(c) + begin;
    for (size_t r = 0; r < count; ++r) {
      const bool leaving =
          previous[r] == 0.0f && distance[r] - margin < 0.0f && normal_speed[r] > 0.0f;
      flags[r] = leaving ? kRowReleased : flags[r];
    }
  }
}

bool UpdateConstraintFlags(const TorqueStepModel& model, const TorqueStepArrays& arrays,
                           size_t begin, size_t count, const ConstLanesView& q_state,
                           const ConstLanesView& v_state, const ConstLanesView& a,
                           bool may_release) {
  const size_t dof = model.dof, base = model.base;
  bool changed = false;
  if (dof > 0) {
    changed = UpdateLimitFlags(
        model.joints, dof, model.limits, q_state.Arrays(model.dynamics->joint_q_begin(), dof),
        v_state.Arrays(base, dof), a.Arrays(base, dof), may_release,
        arrays.limit_flags.Slice(begin, count), arrays.resolve_marks.Slice(begin, count));
  }
  if (model.contact_count > 0) {
    changed = UpdateContactFlags(*model.kinematics, TileContacts(model, arrays, begin, count),
                                 arrays.poses.Slice(begin, count), v_state, a,
                                 TileState(arrays.contacts, begin, count), may_release,
                                 TileStep(arrays.contact_step, begin, count),
                                 arrays.resolve_marks.Slice(begin, count)) ||
              changed;
  }
  return changed;
}

void UpdateConstraints(const TorqueStepModel& model, const TorqueStepArrays& arrays, size_t begin,
                       size_t count, const ConstLanesView& q_state, const ConstLanesView& v_state,
                       const ConstLanesView& a) {
  const size_t dof = model.dof, base = model.base;
  if (dof > 0) {
    JointLimitForces(
        model.joints, dof, model.limits, q_state.Arrays(model.dynamics->joint_q_begin(), dof),
        v_state.Arrays(base, dof), a.Arrays(base, dof), arrays.limit_flags.Slice(begin, count),
        arrays.limit_forces.Slice(begin, count));
  }
  if (model.contact_count > 0) {
    ContactForces(*model.kinematics, TileContacts(model, arrays, begin, count),
                  arrays.poses.Slice(begin, count), v_state, a,
                  TileStep(arrays.contact_step, begin, count),
                  TileState(arrays.contacts, begin, count));
  }
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
  const LanesView a = slice(arrays.accelerations);
  const LanesView q = slice(arrays.q), v = slice(arrays.velocities);
  float* scratch = model.Scratch(begin);
  // Solve, then solve again the robots whose rows that act changed (releases, catches, slips),
  // gathered from the tile (SolveMarkedAgain).
  // Every solve is at the step's q: the joints' sines and cosines are computed once (by the
  // controller's gravity torques, or else by the first solve) and read by the rest.
  JointTrig trig{model.trig != nullptr ? model.Trig(begin, count) : LanesView{},
                 model.control_writes_trig};
  const JointTrig* shared_trig = model.trig != nullptr ? &trig : nullptr;
  ClearConstraintFlags(model, arrays, begin, count);
  PlaceContacts(model, arrays, begin, count);
  ReleaseLeavingContacts(model, arrays, begin, count);
  ApplyForwardDynamics(model, arrays, scratch, begin, count, q, v, a, shared_trig);
  trig.known = true;
  if (UpdateConstraintFlags(model, arrays, begin, count, q, v, a, 2 < kMaxConstraintSolves)) {
    ResolveMarked(model, arrays, scratch, begin, count, shared_trig);
  }

  UpdateConstraints(model, arrays, begin, count, q, v, a);
  const float turn_speed = model.config->max_step_turn / dt;
  LimitSpeeds(slice(arrays.velocities), a, dt, base,
              std::min(model.config->max_joint_speed, turn_speed),
              std::min(model.config->max_base_angular_speed, turn_speed));
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
    ApplyForwardDynamics(model, arrays, model.Scratch(begin), begin, count, q_at, v_at, a);
  };
  ClearConstraintFlags(model, arrays, begin, count);  // RK4 solves each stage once
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
  // The limits' forces of the first evaluation, the step's start (no contacts with RK4).
  UpdateConstraints(model, arrays, begin, count, q0, v0, a1);
  // The step: v = v0 + dt/6 (a sum), q = q0 moved for dt/6 along the velocity sum.
  const float sixth = dt / 6.0f;
  LimitSpeeds(v0, a_sum, sixth, model.base, model.config->max_joint_speed,
              model.config->max_base_angular_speed);
  AddScaled(v0, a_sum, sixth, v);
  AdvancePositions(model, q0, v_sum, sixth, q);
}

}  // namespace swarm
