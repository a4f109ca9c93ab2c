// Soft constraints: how joint limits and ground contacts push back in torque-controlled robot
// batches (swarm/kernels/robots/joint_constraints.h, swarm/kernels/robots/robot_contact.h), with
// MuJoCo's parameters (solref, solimp) and MuJoCo's force law, solved exactly inside the
// articulated-body algorithm instead of by an iterative solver.
//
// The model (Todorov, "Convex and analytically-invertible dynamics with contacts and
// constraints", ICRA 2014; MuJoCo's documentation, "Computation" and "Solver parameters"). A
// constraint row has a position r (its signed distance: negative when violated), a velocity
// v = J qd and an acceleration J qdd, with J the row's Jacobian. From the parameters:
//   k = 1 / (dmax^2 tc^2 zeta^2),  b = 2 / (dmax tc)          (solref = (tc, zeta))
//   d = d(r) in [dmin, dmax]                                  the impedance (solimp, below)
//   R = (1 - d) / d * w0                                      the regulariser
// with w0 the row's inverse inertia in the model's reference configuration (q = 0; MuJoCo's
// dof_invweight0 and body_invweight0), MuJoCo's row force is
//   f = -(J qdd - a_ref) / R,  a_ref = -b v - k d r                               (1)
// as long as f is admissible (a limit or a normal force pushes; friction stays in its cone). Row
// by row, (1) says the constraint behaves as a virtual mass 1 / R on the row's coordinate, a
// damper b / R and a spring k d / R; at rest f = -k d r / R, which fixes how deep a constraint
// settles under a load (MuJoCo's steady state).
//
// Why not MuJoCo's solver: with the forces of all active rows given by (1), the equations of
// motion become (M + sum J^T J / R) qdd = tau - h + sum J^T a_ref / R, and J^T J / R is a term
// the articulated-body algorithm (ABA) absorbs exactly, in O(n): on a joint's diagonal for a joint
// row, as a point inertia on the contact's body for a contact row
// (swarm/kernels/robots/dynamics/robot_dynamics.h, AddedInertia). So the constrained
// accelerations cost one ABA, the same fixed work in every lane, with no iteration count and no
// convergence tolerance, where a projected Gauss-Seidel solver (MuJoCo's PGS) needs the mass
// matrix, its factor, the rows' Delassus matrix and iterations: 2-3x the whole step here. The
// price: which rows are active, and whether friction sticks or slides, is decided from the state
// at the step's start (below) instead of by the solver, so a force that leaves its admissible set
// does so for at most one step.
//
// Integration. The batch steps with semi-implicit Euler (v' = v + dt qdd, q' = q + dt v'); the
// rows' damper and spring are evaluated at the step's end (backward Euler), i.e. a_ref uses
// v' = v + dt J qdd and r' = r + dt v + dt^2 J qdd:
//   f = f_e - m J qdd,   m = (1 + dt b + dt^2 k d) / R,   f_e = -((b + dt k d) v + k d r) / R   (2)
// A virtual mass m on the row and an explicit force f_e: whatever the stiffness, damping, time
// step or the inertia behind the row, the row's motion is an implicitly integrated damped
// oscillator, so it cannot grow (A-stable), and at rest (2) is (1). MuJoCo's "refsafe" rule is
// kept so that the same solref means the same constraint: tc is raised to 2 dt when shorter.
//
// Deep violations. A violation far beyond anything a load causes (a robot dropped through the
// ground, a joint driven far past its limit) would make the spring push back at speeds that only
// create new violations. As in Box2D, the spring's position is clamped at the depth where it
// alone pushes at max_push_speed, |r| <= max_push_speed damping / stiffness; loads settle at
// depths far below it (millimetres against centimetres), where the constraint is MuJoCo's.
//
// Stiff point rows. An impedance near 1 (MuJoCo's solimp dmax up to 0.9999, as the Menagerie's
// feet use) or a small regulariser makes the virtual mass m of (2) millions of times the inertia
// behind the row. A contact's point inertia enters the articulated-body algorithm inside a link's
// spatial inertia, which float32 sums with the link's own and subtracts again one joint up
// (I_A - U D^-1 U^T), keeping about 1e-7 of the largest term: a light link's rotational inertia
// (1e-4 kg m^2) beside a point mass m at 0.2 m is lost once m reaches about 1e3 / w0, and the
// step blows up. So 1 / R is capped where m would exceed max_mass_ratio / w0 (w0 the row's
// reference inverse inertia, 1 / w0 the inertia the row sees): contacts use
// kContactMaxMassRatio = 100, where a row is rigid for the motion either way (a 50 kg robot on
// four feet settles 0.3 mm deep) and stays an implicit damped oscillator. Measured: with a cap of
// 1000 the Go2 under random actions on the floor gains energy at 5 ms steps; at 100 no robot of
// ../shared/mjcf does. A joint row's mass sits on its joint's diagonal instead, which that
// subtraction divides out rather than cancels: limits need no cap (infinity, the default), and
// capping them would let strong motors drive joints deeper past their limits.
//
// One-sided rows within a step. Which rows act is settled by solving the step again while it
// changes (RobotBatch's Euler step: at most a few solves, usually one), with a flag per row and
// robot, zero before the step's first solve:
//   kRowReleased  a violated row found pulling (force < 0: its point leaves faster than the row
//                 lets it): inactive, so that a row never sticks
//   kRowCaught    an inactive row (unflagged, released or dropped) whose point a solve lets end
//                 the step violated and deeper than it started, r + dt (v + dt a) < min(r, 0):
//                 active and hard, as Box2D's speculative contacts, its virtual mass steering the
//                 point to end the step on the row's surface (or no deeper), v' = -max(r, 0) / dt
//   kRowDropped   a caught row found pulling: inactive, until a later solve (other rows changed)
//                 lets its point cross again, which catches it again
//   kRowStopped   in the step's last update, when no row may be released any more, a caught row
//                 found pulling, and every row the step let go (released or dropped) in a robot
//                 whose rows have not settled (its mark is set): hard with v' = 0, which does no
//                 work (a pulling row steering to the surface would add energy), so that the
//                 step's last solve, which no update checks, drives no row it let go deeper
// The step's solves bound how often a flag changes (a row may go caught, dropped, caught, ... while
// other rows settle, and is stopped in the last update), and a robot whose flags did not change
// gets the same bits from the next solve.
inline constexpr float kRowReleased = -1.0f;
inline constexpr float kRowCaught = 1.0f;
inline constexpr float kRowDropped = -2.0f;
inline constexpr float kRowStopped = 2.0f;

// The impedance (MuJoCo's getimpedance): x = min(|r| / width, 1),
//   y = x^p / mid^(p-1) for x <= mid, 1 - (1 - x)^p / (1 - mid)^(p-1) above,
//   d = dmin + y (dmax - dmin)
// (d = (dmin + dmax) / 2 when dmin == dmax or width == 0). The power p is an integer here (MuJoCo
// allows any real >= 1; every model in MuJoCo's Menagerie uses 2), so that d is the same product
// sequence on every target.
#pragma once

#include <limits>

namespace swarm {

struct SoftConstraint {
  float time_constant = 0.02f;  // tc of solref, s, > 0 (raised to 2 dt per step)
  float damping_ratio = 1.0f;   // zeta of solref, > 0 (1: critically damped)
  float impedance_min = 0.9f;   // dmin of solimp, in (0, 1)
  float impedance_max = 0.95f;  // dmax of solimp, in (0, 1)
  float width = 0.001f;         // of the impedance's transition, m or rad, >= 0
  float midpoint = 0.5f;        // of the transition, in (0, 1)
  int power = 2;                // of the transition, integer in [1, kMaxImpedancePower]
  // The fastest a violated constraint is pushed back, m/s or rad/s, finite > 0 (Box2D's
  // contactPushMaxVelocity): the spring's position is clamped to +-max_push_speed damping /
  // stiffness, beyond which a deeper violation pushes no harder (below).
  float max_push_speed = 3.0f;
  // The largest virtual mass of a row, as a multiple of the inertia 1 / w0 it sees (above); > 0,
  // may be infinity (no cap).
  float max_mass_ratio = std::numeric_limits<float>::infinity();
};
inline constexpr float kContactMaxMassRatio = 100.0f;

inline constexpr int kMaxImpedancePower = 16;

// Finite values in the ranges above (swarm/robots/robot_batch.h names the field that is not).
bool ValidSoftConstraint(const SoftConstraint& soft);

// The per-step constants of a soft constraint: k, b (with tc raised to 2 dt) and the impedance's
// shape, which the kernels evaluate per lane.
struct SoftConstraintStep {
  float k = 0.0f, b = 0.0f;
  float impedance_min = 0.9f, impedance_max = 0.95f;
  float inverse_width = 1000.0f;  // 1 / width, 0 for a flat impedance
  float midpoint = 0.5f;
  float low_scale = 2.0f;   // 1 / mid^(p - 1)
  float high_scale = 2.0f;  // 1 / (1 - mid)^(p - 1)
  int power = 2;
  float max_push_speed = 3.0f;
  float max_mass_ratio = std::numeric_limits<float>::infinity();
  float dt = 0.0f;
};
// For a valid `soft` and a finite dt > 0.
SoftConstraintStep PrepareSoftConstraint(const SoftConstraint& soft, float dt);

}  // namespace swarm
