// The stages of one torque-controlled step of a robot batch (RobotBatch::TorqueStep), each a
// function over one tile of robots [begin, begin + count), so that the step reads as the sequence
// it is and each stage can be read, tested and replaced alone:
//
//   ControlTorques               the controller's joint torques (none, PD + gravity, computed
//   torque, actuators)
//   PlaceContacts                with contacts, the links placed by forward kinematics of the
//                                step's start and the contacts' geometry there (ground spheres,
//                                the narrow phase of the world pairs); then, per evaluation of the
//                                dynamics at a state (q, v):
//     AddConstraintTerms         applied = torques + the joints' explicit constraint forces, their
//                                added inertia; the contacts' forces and point inertias
//                                (swarm/kernels/robots/joint_constraints.h, robot_contact.h)
//     ApplyForwardDynamics       a = (M + E)^-1 (applied - bias) by ABA (or CRBA + LTDL with
//                                couplings), E the added inertia
//   EulerStep or RungeKutta4Step one evaluation, the limits' and contacts' forces and modes for the
//                                next step (UpdateConstraints) and semi-implicit Euler; or four
//                                evaluations and classical RK4 (as MuJoCo's mj_Euler and
//                                mj_RungeKutta)
//   then forward kinematics of the new state (RobotBatch::TorqueStep runs it).
//
// RobotBatch keeps the state and orchestrates: it checks the call, describes its arrays and model
// here (TorqueStepModel, TorqueStepArrays) and runs the stages fused over tiles (RunFused). Every
// stage touches only its tile's robots, so the step gives the same bits at any tile or thread
// count. Internal to engine/robots.
#pragma once

#include <cstddef>

#include "engine/robots/world_contacts.h"
#include "swarm/kernels/base/views.h"
#include "swarm/kernels/robots/dynamics/robot_dynamics.h"
#include "swarm/kernels/robots/joint_constraints.h"
#include "swarm/kernels/robots/robot_contact.h"
#include "swarm/kernels/robots/robot_control.h"
#include "swarm/kernels/robots/robot_kinematics.h"
#include "swarm/kernels/robots/robot_torque.h"
#include "swarm/kernels/robots/soft_constraint.h"
#include "swarm/robots/robot_batch.h"

namespace swarm {

// The model a torque step runs: the dynamics and kinematic trees, the joints' control settings,
// the torque-mode settings and the contact points, with the sizes derived from them.
// The most solves of one Euler step: the first, and again while a solve changes which rows act
// (flags only change once per row and step; usually nothing changes, and one more solve settles
// it).
inline constexpr size_t kMaxConstraintSolves = 5;

struct TorqueStepModel {
  const DynamicsTree* dynamics = nullptr;
  const KinematicTree* kinematics = nullptr;
  const JointControl* control = nullptr;  // one per joint (dof)
  const TorqueModeConfig* config = nullptr;
  const JointConstraint* joints = nullptr;  // one per joint (dof)
  // The contacts: the ground contacts (config->contacts) first, then one per slot of the world
  // pairs (`world`), with their parameters prepared for the step's dt.
  const ContactPoint* contacts = nullptr;
  const ContactParameters* contact_parameters = nullptr;
  const uint32_t* contact_bodies = nullptr;  // each contact's dynamics body
  size_t contact_count = 0;
  size_t ground_contacts = 0;
  const WorldContacts* world = nullptr;
  // The world pairs' shape frames: one block of world_frame_floats per tile (kCollisionChunk
  // robots' worth).
  float* world_frames = nullptr;
  size_t world_frame_floats = 0;
  // The limits' soft constraint prepared for the step's dt.
  SoftConstraintStep limits;
  size_t dof = 0;         // joints
  size_t base = 0;        // 6 for a floating base, else 0
  size_t velocities = 0;  // base + dof
  size_t q_count = 0;     // arrays of q (a floating base's 7 first)
  // Dynamics scratch: one block of scratch_floats per tile of tile_elements robots.
  float* scratch = nullptr;
  size_t scratch_floats = 0;
  size_t tile_elements = 0;
  size_t tile_width = 0;  // min(tile_elements, the padded batch): the floats of a tile's array
  // Where the Euler step solves again the robots whose rows changed, gathered from their tile
  // (ResolveStagingFloats): one block of staging_floats per tile, for staging_robots robots.
  float* staging = nullptr;
  size_t staging_floats = 0;
  size_t staging_robots = 0;

  // The joints' sines and cosines at the step's q (JointTrig), which the gravity torques and the
  // Euler step's solves share: trig_arrays arrays of tile_width floats per tile (none for a tree
  // with couplings); control_writes_trig when the controller computes them (PD + gravity).
  float* trig = nullptr;
  size_t trig_arrays = 0;
  bool control_writes_trig = false;

  // Trees with couplings and contacts: the offset in a tile's scratch of the contacts' dense added
  // inertia (velocity_count^2 arrays of tile_width floats) and its kernel's scratch after it; 0
  // for other trees, whose forward dynamics take the contacts as point inertias.
  size_t contact_matrix_offset = 0;

  float* Scratch(size_t begin) const { return scratch + begin / tile_elements * scratch_floats; }
  float* WorldFrames(size_t begin) const {
    return world_frames + begin / tile_elements * world_frame_floats;
  }
  float* Staging(size_t begin) const { return staging + begin / tile_elements * staging_floats; }
  // The tile's trig arrays for robots [begin, begin + count) of the tile starting at begin.
  LanesView Trig(size_t begin, size_t count) const {
    return {trig + begin / tile_elements * trig_arrays * tile_width, count, tile_width,
            trig_arrays};
  }
};

// The robots one gathered re-solve takes at most (a multiple of every target's vector): few
// enough that their arrays stay in the core's cache, many enough that gathering costs little.
inline constexpr size_t kResolveStagingRobots = 64;
static_assert(kResolveStagingRobots % kPadFloats == 0);

// The floats of one tile's staging block for `robots` robots (a multiple of kPadFloats): the
// arrays a re-solve reads and writes (q, velocities, forces, applied, accelerations, the link
// poses and contact geometry when there are contacts, the contacts' state and step flags, the
// added inertia, the limit flags, the marks and the joints' sines and cosines) for each robot.
size_t ResolveStagingFloats(size_t q_count, size_t velocities, size_t dof, size_t pose_arrays,
                            size_t contacts, size_t trig_arrays, size_t robots);

// The batch's arrays a torque step reads and writes, each over all robots (RobotBatch's storage
// layout, engine/robots/robot_batch.cc). The rk_* arrays exist for the RK4 integrator only.
struct TorqueStepArrays {
  LanesView q;                   // q_count arrays
  LanesView q_joints;            // the joints' part of q (dof)
  LanesView velocities;          // [base velocity | qd] (velocities)
  LanesView joint_velocities;    // qd (dof)
  LanesView forces;              // [base force | torque] (velocities)
  LanesView torques;             // torque (dof)
  LanesView applied;             // what forward dynamics reads (velocities)
  LanesView accelerations;       // qdd (velocities)
  LanesView poses;               // link poses
  LanesView contact_geometry;    // kContactArrays per contact, at the step's start
  LanesView contact_velocities;  // kContactVelocityArrays per contact, at the step's start
  LanesView limit_forces;        // one per joint (dof)
  ContactState contacts;         // the contacts' forces, anchors and modes
  LanesView added_joints;        // the added inertia's joint entries (dof)
  LanesView added_points;        // and its points (kAddedPointArrays per contact)
  LanesView limit_flags;         // what a step's solves settled per limit row (dof)
  ContactStep contact_step;      // and per contact
  LanesView resolve_marks;       // 1 array: robots a step solves again
  JointTargets targets;          // q, qd and qdd targets (dof each)
  LanesView ctrl;                // the actuators' inputs (config->actuators.size())
  LanesView rk_q0, rk_v0, rk_q_stage, rk_v_stage, rk_v_sum, rk_a_sum, rk_a_stage;
};

// The controller's joint torques into arrays.torques: kNone clamps the user's torques to the
// effort limits; kPdGravity adds PD torques to the gravity torques g(q) (the base's part of g is
// no actuation and is cleared); kComputedTorque (fixed base only) runs the commanded
// accelerations through inverse dynamics and clamps; kActuators sums the actuators' torques
// from arrays.ctrl and clamps.
void ControlTorques(const TorqueStepModel& model, const TorqueStepArrays& arrays,
                    TorqueController controller, size_t begin, size_t count);

// With contacts: the tile's link poses at its q by forward kinematics, every contact's geometry
// there (GroundContactGeometry, then the world pairs' narrow phase) and its point's velocity
// (ContactVelocities), which every solve of the step reads.
void PlaceContacts(const TorqueStepModel& model, const TorqueStepArrays& arrays, size_t begin,
                   size_t count);

// The constraint terms at state (q_state, v_state) of the tile's robots (views of the tile, not
// of the batch): the joints' applied forces are the torques plus the limits' explicit forces and
// their added inertia goes to arrays.added_joints; with contact points (placed by PlaceContacts
// at q_state) the base's applied forces are cleared, and the contacts' explicit forces added and
// their point inertias written.
// The step's flags (arrays.limit_flags, arrays.contact_step) say which rows act
// (swarm/kernels/robots/joint_constraints.h, robot_contact.h).
void AddConstraintTerms(const TorqueStepModel& model, const TorqueStepArrays& arrays, size_t begin,
                        size_t count, const ConstLanesView& q_state, const ConstLanesView& v_state);

// Accelerations `a` of the tile's robots at (q_state, v_state) under the applied forces:
// AddConstraintTerms, then forward dynamics with the added inertia (in the tile's dynamics
// `scratch`; with the joints' sines and cosines at q_state when `trig` is given). A tree with
// couplings takes its contacts' point inertias as a dense matrix (ContactInertiaMatrix, in the
// tile's scratch past the dynamics' own).
void ApplyForwardDynamics(const TorqueStepModel& model, const TorqueStepArrays& arrays,
                          float* scratch, size_t begin, size_t count, const ConstLanesView& q_state,
                          const ConstLanesView& v_state, const LanesView& a,
                          const JointTrig* trig = nullptr);

// Clears the tile's flags before a step's first solve.
void ClearConstraintFlags(const TorqueStepModel& model, const TorqueStepArrays& arrays,
                          size_t begin, size_t count);

// After PlaceContacts, before the step's first solve: a contact that the last step let go
// (normal force 0) and whose point is still inside its margin but leaving (v_n > 0) starts the
// step released (kRowReleased), as the last step's solves found it: without this, a foot rising
// out of a soft contact's first millimetres (the Menagerie's solimp makes them soft) is found
// pulling and released again, one more solve, every step until it is out. A release that would
// let the point sink deeper than it started is caught as ever (soft_constraint.h).
void ReleaseLeavingContacts(const TorqueStepModel& model, const TorqueStepArrays& arrays,
                            size_t begin, size_t count);

// After a solve at (q_state, v_state) gave `a`: releases, catches and slips rows (the kernels'
// UpdateLimitFlags, UpdateContactFlags); true when the tile should solve again.
bool UpdateConstraintFlags(const TorqueStepModel& model, const TorqueStepArrays& arrays,
                           size_t begin, size_t count, const ConstLanesView& q_state,
                           const ConstLanesView& v_state, const ConstLanesView& a,
                           bool may_release);

// After the step's last solve at (q_state, v_state) gave `a`: the limits' forces, and the
// contacts' forces, anchors and modes, for the next step (tile views; the link poses still those
// of q_state).
void UpdateConstraints(const TorqueStepModel& model, const TorqueStepArrays& arrays, size_t begin,
                       size_t count, const ConstLanesView& q_state, const ConstLanesView& v_state,
                       const ConstLanesView& a);

// q_out = q_from moved for `seconds` at velocity v: joints linearly, a floating base along its
// body velocity (AdvanceFloatingBase). Views of one tile.
void AdvancePositions(const TorqueStepModel& model, const ConstLanesView& q_from,
                      const ConstLanesView& v, float seconds, const LanesView& q_out);

// One semi-implicit Euler step of dt seconds: accelerations at the current state (solved again
// while the rows that act change, at most kMaxConstraintSolves times), the constraints' update,
// the speed limits, then v += a dt and q advanced with the new v. The robots solved again are
// gathered into the tile's staging block (kResolveStagingRobots at a time), so that a re-solve
// costs what the robots whose rows changed cost, not what their vectors of the tile do: a
// robot's solves read its own lanes alone, so it gets the same bits gathered or in place.
void EulerStep(const TorqueStepModel& model, const TorqueStepArrays& arrays, float dt, size_t begin,
               size_t count);

// One classical Runge-Kutta step of dt seconds: four evaluations of the dynamics at the stages
// k1 = f(q0, v0), k2 and k3 at dt/2, k4 at dt, then v = v0 + dt/6 (a1 + 2 a2 + 2 a3 + a4) and q
// moved from q0 for dt/6 along v0 + 2 v2 + 2 v3 + v4, with the sums kept in the rk_* arrays; the
// limits' forces for the next step from the first evaluation (no contacts: the batch refuses them
// with RK4).
void RungeKutta4Step(const TorqueStepModel& model, const TorqueStepArrays& arrays, float dt,
                     size_t begin, size_t count);

}  // namespace swarm
