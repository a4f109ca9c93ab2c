// R robots of one model stepped in lockstep: state in structure-of-arrays over the robot index
// (robot r's joint j is element r of array j, docs/design.md), accounted under
// MemoryCategory::kRobots, and the kernels of swarm/kernels/robots/ run fused per cache-sized tile
// of robots over a ThreadPool.
//
// Every step is deterministic: robot r's state depends only on its own inputs, never on the batch
// size, the tile, the thread count or the SIMD target (tests/engine/robots/robot_batch_test.cc).
// Steady-state steps allocate nothing.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "swarm/core/memory.h"
#include "swarm/core/status.h"
#include "swarm/core/thread_pool.h"
#include "swarm/core/tile_pipeline.h"
#include "swarm/kernels/base/views.h"
#include "swarm/kernels/robots/dynamics/robot_dynamics.h"
#include "swarm/kernels/robots/joint_constraints.h"
#include "swarm/kernels/robots/robot_contact.h"
#include "swarm/kernels/robots/robot_control.h"
#include "swarm/kernels/robots/robot_ik.h"
#include "swarm/kernels/robots/robot_kinematics.h"
#include "swarm/kernels/robots/robot_torque.h"
#include "swarm/kernels/robots/soft_constraint.h"
#include "swarm/robots/dynamics_model.h"
#include "swarm/robots/robot_collisions.h"
#include "swarm/robots/robot_model.h"

namespace swarm {

// Robots per tile. A tile's state is ~130 floats per robot for a 6-DOF arm (q, velocities,
// targets, torques, every link pose, the end effector's Jacobian), so 1024 robots are ~0.5 MB,
// inside L2. Measured on 100,000 UR5s (AVX-512, one thread): fused control steps take about 2x
// longer at 256 robots per tile and 3x at 64 than at 1024-4096; IK steps are fastest near 1024.
inline constexpr size_t kDefaultRobotTileElements = 1024;
// A robot step costs ~100x a particle step, so a worker pays for its wake-up (~10-50 us) from a
// few thousand robots on.
inline constexpr size_t kDefaultRobotMinElementsPerThread = 4096;
// Robots per tile of a torque step when config.torque.schedule.tile_elements is 0 (the default):
// the largest power of two from kMinAutoTorqueTile to kMaxAutoTorqueTile whose robots' state
// arrays take at most kAutoTorqueTileBytes (RobotBatch::Create resolves it; config() shows it).
// Past the caches two things set a torque step's time: each array's run within a tile (longer
// runs stream better) and how much of the tile the later stages still find in the caches (more
// state, or more passes over it, want smaller tiles). Measured on 100,000 robots (AVX-512, one
// thread, PD + gravity): Pandas (704 bytes of state each) step in 123 ns per robot at 4096 per
// tile, 126 at 2048, 130 at 1024 and 163 at 256; standing Solo12s (1,692 bytes, four contacts)
// in 436-441 ns at 512-1024, 449-462 at 2048 and 448-465 at 4096. 3 MiB gives them 4096 (2.9 MB)
// and 1024 (1.7 MB). Control and IK steps are fastest at 1024 (kDefaultRobotTileElements).
inline constexpr size_t kAutoTorqueTileBytes = size_t{3} << 20;
inline constexpr size_t kMinAutoTorqueTile = 512;
inline constexpr size_t kMaxAutoTorqueTile = 8192;

struct StepOutput;  // engine/robots/step_guard.h

// The longest step a batch takes, in seconds: a longer one is refused up front. Robots step at
// 0.1-10 ms; past a second, the explicit integration of any stiff term is meaningless, and a
// dt of 1e30 can only overflow.
inline constexpr float kMaxStepSeconds = 1.0f;

// What TorqueStep computes the joint torques with (swarm/kernels/robots/robot_torque.h):
//   kNone            the torques the caller wrote into torque() (a policy's output), clamped to
//                    the effort limits
//   kPdGravity       g(q) + kp (q_target - q) + kd (qd_target - qd), clamped
//   kComputedTorque  M(q) a + h(q, qd) with a = qdd_target + kp (q_target - q) +
//                    kd (qd_target - qd), clamped (fixed-base robots: a floating base is not
//                    actuated)
//   kActuators       the actuators' torques from ctrl() (TorqueModeConfig::actuators, e.g. an
//                    MJCF file's: swarm/kernels/robots/robot_torque.h ActuatorTorques), clamped
enum class TorqueController { kNone, kPdGravity, kComputedTorque, kActuators };
const char* TorqueControllerName(TorqueController controller);  // "none", "pd-gravity", ...

// How TorqueStep advances (q, v) over dt:
//   kSemiImplicitEuler  v += qdd dt, then q += v dt (one forward dynamics per step), with the
//                       stiff terms' added inertia (swarm/kernels/robots/soft_constraint.h)
//   kRungeKutta4        classical RK4 on (q, v) with the controller's torques held over the step
//                       and the joints' constraint terms evaluated at every stage (four forward
//                       dynamics); a floating base's stage poses move from the step's start pose
//                       along the stage's body velocity, and the final pose along the RK4 average
//                       velocity. Ground contacts need kSemiImplicitEuler (their friction modes
//                       and anchors advance once per step).
enum class TorqueIntegrator { kSemiImplicitEuler, kRungeKutta4 };
const char* TorqueIntegratorName(TorqueIntegrator integrator);  // "euler", "rk4"

// Point contacts of links against the ground plane in torque mode, as soft constraints with a
// friction cone (swarm/kernels/robots/robot_contact.h), evaluated at the step's start from the
// forward kinematics of its configuration.
struct GroundContactConfig {
  bool enabled = false;
  std::vector<std::string> links;  // link names; empty: every leaf link (RobotModel::LeafLinks)
  float radius = 0.0f;             // of every contact sphere (centred on the link origin), m
  GroundContact ground;
};

// Torque-controlled simulation: rigid-body dynamics from the URDF's inertials
// (swarm/robots/dynamics_model.h); joint limits, joint damping and friction and ground contacts
// handled so that no stiffness, damping or time step makes a step unstable
// (swarm/kernels/robots/soft_constraint.h, joint_constraints.h, robot_contact.h); semi-implicit
// Euler.
struct TorqueModeConfig {
  bool enabled = false;      // off: the batch is kinematic (ControlStep), and needs no inertials
  DynamicsOptions dynamics;  // armature per joint; the URDF's joint damping and friction
  SoftConstraint limits;     // every joint limit's solref and solimp (MuJoCo's defaults)
  // A joint pushed into a limit by its whole effort limit settles at most this far past it (rad or
  // m), finite > 0: where the solref and solimp above would let it sink deeper (a light link with a
  // strong motor: a 35 N m servo on a 2e-5 kg m^2 gripper sinks 40 rad with MuJoCo's defaults), the
  // row's reference inverse inertia w0 is lowered until they hold it (joint_constraints()).
  float limit_tolerance = 0.01f;
  // Speed limits of every step (swarm/kernels/robots/robot_torque.h LimitSpeeds): each joint's
  // speed (rad/s or m/s) and a floating base's angular speed (rad/s), > 0 (may be infinity), and
  // the furthest a joint or the base turns in one Euler step, rad, > 0: a step of dt caps the
  // speeds at max_step_turn / dt too (50 rad/s at 5 ms), because semi-implicit Euler integrates
  // the velocity-product terms explicitly and adds energy at (speed dt)^2 per step (RK4 does not
  // need it).
  float max_joint_speed = 100.0f;
  float max_base_angular_speed = 100.0f;
  float max_step_turn = 0.25f;
  float gravity[3] = {0.0f, 0.0f, -9.81f};  // world frame, m/s^2
  TorqueIntegrator integrator = TorqueIntegrator::kSemiImplicitEuler;
  GroundContactConfig contacts;
  // The pairs of RobotBatchConfig::collisions between a link's shape and a shape fixed in the
  // world (a floor, a table, steps) act in every step as point contacts
  // (swarm/kernels/robots/robot_contact.h), one per contact slot after the ground contacts, with
  // each pair's friction, solref, solimp, margin and gap as MuJoCo mixes them
  // (swarm/robots/contact_pairs.h); they need the euler integrator. Pairs of two links' shapes
  // (self-collision) are detected by DetectContacts but do not act in the step.
  bool world_contacts = false;
  // The actuators TorqueController::kActuators runs, each with its ctrl() array (an MJCF robot's:
  // MjcfTorqueConfig, swarm/robots/mjcf_robot.h). Their velocity terms add dt gear^2 (-kv) to
  // their joints' added inertia in every step (swarm/kernels/robots/robot_torque.h), whichever
  // controller runs.
  std::vector<JointActuator> actuators;
  // Robots per tile (a positive multiple of kPadFloats, or 0 to size it from the model's state:
  // kAutoTorqueTileBytes) and per thread of the torque steps and MeasureEnergy;
  // RobotBatchConfig::schedule is the kinematic steps'. Results do not depend on either.
  TileSchedule schedule{0, kDefaultRobotMinElementsPerThread};
};

struct RobotBatchConfig {
  // Collision shapes on the model's links and in the world, and the pairs every robot evaluates
  // (swarm/robots/robot_collisions.h; an MJCF robot's: MjcfCollisionModel). DetectContacts fills
  // contacts(); the torque step's ground contacts stay those of torque.contacts.
  CollisionModel collisions;
  // Link whose pose IK steers and whose pose is reported (the end effector); SIZE_MAX picks
  // model.DefaultEndEffector().
  size_t end_effector = SIZE_MAX;
  // Per independent joint (dof entries); empty picks DefaultJointControl(model).
  std::vector<JointControl> control;
  IkParams ik;
  // Robots per tile (a positive multiple of kPadFloats) and per thread. Results do not depend on
  // either.
  TileSchedule schedule{kDefaultRobotTileElements, kDefaultRobotMinElementsPerThread};
  TorqueModeConfig torque;
};

class RobotBatch {
 public:
  // All arrays are allocated here (and only here) under kRobots: the state in one allocation
  // (each array padded to a whole number of vectors), per tile of config.schedule a Jacobian
  // scratch, and per tile of config.torque.schedule a dynamics scratch and, in torque mode with
  // Euler steps, the joints' sines and cosines of a step and a block where robots are re-solved
  // (64 at a time), so that steps allocate nothing; a batch smaller than a tile gets blocks of
  // its own width. q starts at zero (clamped into the position limits; a floating base at the
  // identity pose), velocities and torques zero, q_target = q, link_poses() the forward
  // kinematics of q and target_pose() the end effector's pose (IK holds still). Errors (nothing
  // stays allocated; the accountant's bytes in use are unchanged): robots == 0 or too many to
  // address, config.control.size() != dof, gains not finite >= 0, limits not > 0 or lower >
  // upper, an end effector out of range, IK parameters not finite > 0 (orientation_weight >= 0),
  // a tile size that is not a positive multiple of kPadFloats (a torque tile may be 0), or the
  // accountant's budget (kOverBudget, naming "robots"); with
  // config.torque.enabled also the dynamics model's errors (a moving body without mass, naming its
  // links), limit parameters out of range or gravity that is not finite (naming the field), and
  // an actuator on a joint the model does not have or with parameters out of range,
  // with contacts enabled an unknown, repeated or immovable contact link, a radius not finite >= 0,
  // ground parameters out of range (naming the field), the RK4 integrator, or a model with mimic
  // joints; with world contacts the same, a world pair's parameters the step cannot model (named:
  // WorldContacts in engine/robots/world_contacts.h) or a shape on a link that cannot move.
  static Result<RobotBatch> Create(MemoryAccountant& accountant, const RobotModel& model,
                                   size_t robots, const RobotBatchConfig& config = {});
  RobotBatch();
  ~RobotBatch();
  RobotBatch(RobotBatch&& other) noexcept;
  RobotBatch& operator=(RobotBatch&& other) noexcept;

  size_t size() const;
  const RobotModel& model() const;
  const KinematicTree& tree() const;
  const RobotBatchConfig& config() const;
  size_t end_effector() const;

  // State views over all robots (padding excluded from count). Writing through them is how users
  // set initial configurations, set points and goals; the views stay valid while the batch lives.
  LanesView q();            // q_count arrays (floating base first)
  LanesView qd();           // dof arrays (joint velocities)
  LanesView q_target();     // dof arrays (PD set points)
  LanesView torque();       // dof arrays (last PD output)
  LanesView link_poses();   // 7 * links arrays (px py pz qx qy qz qw per link)
  LanesView target_pose();  // 7 arrays: each robot's end-effector goal for IK
  // Torque mode only (zero arrays otherwise): a floating base's velocity (6 arrays, vx vy vz wx wy
  // wz in the base frame, swarm/kernels/robots/dynamics/robot_dynamics.h), the controllers' target
  // velocities and accelerations (dof arrays each, zero unless written), and the last step's
  // accelerations (velocity_count arrays: the base's 6 first).
  LanesView base_velocity();
  // Torque mode: one array per actuator of config.torque.actuators, the actuators' inputs (zero
  // until written), which TorqueController::kActuators reads.
  LanesView ctrl();
  ConstLanesView ctrl() const;
  LanesView qd_target();
  LanesView qdd_target();
  LanesView qdd();
  ConstLanesView q() const;
  ConstLanesView qd() const;
  ConstLanesView q_target() const;
  ConstLanesView torque() const;
  ConstLanesView link_poses() const;
  ConstLanesView target_pose() const;
  ConstLanesView base_velocity() const;
  ConstLanesView qd_target() const;
  ConstLanesView qdd_target() const;
  ConstLanesView qdd() const;
  // Torque mode with contacts: each contact's normal force in the last step (N; 0 out of contact),
  // one array per contact in contact_points() order, its friction force (along the contact's
  // tangents t1 t2, ContactTangents of its normal: x y in the world for the ground contacts; two
  // arrays per contact), whether it slides (1) or sticks (0), its geometry at the last step's
  // start (kContactArrays per contact: distance, point x y z, and the unit normal along which it
  // pushes the robot; distance kNoContact for a world contact slot the robot did not use), and the
  // contacts themselves (empty without contacts): the ground contacts of config.torque.contacts
  // first (ground_contact_count()), then one per contact slot of the world pairs, each of the
  // pair world_contact_pairs() names (an index into config.collisions.pairs).
  ConstLanesView contact_forces() const;
  ConstLanesView contact_friction_forces() const;
  ConstLanesView contact_sliding() const;
  ConstLanesView contact_geometry() const;
  std::span<const ContactPoint> contact_points() const;
  size_t ground_contact_count() const;
  std::span<const uint32_t> world_contact_pairs() const;
  // Torque mode: each joint limit's force in the last step (dof arrays; positive pushes the joint
  // back into its range, 0 when the limit is inactive; the torque on the joint is +force at the
  // lower limit, -force at the upper), and the joints' constraint constants.
  ConstLanesView limit_forces() const;
  // The contact slots of config.collisions (CollisionPlan: kContactArrays per slot, slot_count()
  // slots; distance kNoContact where a robot's slot holds none), as of the last DetectContacts
  // (all kNoContact before it); the plan, or null without collision shapes.
  ConstLanesView contacts() const;
  const CollisionPlan* collision_plan() const;
  std::span<const JointConstraint> joint_constraints() const;
  // The dynamics tree of torque mode (nullptr when it is off).
  const DynamicsTree* dynamics_tree() const;

  // Forward kinematics of every link into link_poses().
  void ForwardKinematics(ThreadPool& pool);
  // Every robot's contacts (contacts()) at its current link_poses(), which ForwardKinematics and
  // every step keep current: shape frames from the link poses, then every pair's narrow phase. A
  // robot's contacts do not depend on the batch, the schedule or the thread count.
  void DetectContacts(ThreadPool& pool);
  // One control step, fused per tile: PD torques toward q_target, integration with limits over
  // dt seconds, forward kinematics. Errors (state untouched): dt not in (0, kMaxStepSeconds]; a
  // step that makes q or qd non-finite (from finite but extreme inputs) restores q and qd,
  // recomputes the link poses from the restored q (the same bits, unless q was written since the
  // last step or FK) and names the first non-finite value of the lowest such robot, its torques
  // first ("the step overflowed from finite inputs: torque of robot 3, column 2 is inf ...");
  // torque() keeps the torques the failed step applied.
  Status ControlStep(ThreadPool& pool, float dt);
  // One IK step, fused per tile: the end effector's Jacobian from link_poses() (so call after FK
  // or ControlStep), then a damped-least-squares step that writes q_target toward target_pose().
  void IkStep(ThreadPool& pool);
  // One torque-controlled step, fused per tile: the controller's torques into torque() (clamped
  // to the effort limits); with contacts, the link poses of the step's start; the joints' and
  // contacts' constraint terms; forward dynamics (ABA) with their added inertia; the limits' and
  // contacts' forces and modes for the next step; the configured integrator (semi-implicit Euler:
  // qd += qdd dt, then q += qd dt; a floating base as swarm/kernels/robots/robot_torque.h; or
  // RK4); forward kinematics. qdd() holds the accelerations at the step's start. Errors (state
  // untouched): torque mode off, dt not in (0, kMaxStepSeconds], computed torque on a floating
  // base; and, as ControlStep, a step that makes its state non-finite: q, the velocities and the
  // contacts' state are restored, and torque(), qdd() and limit_forces() keep the failed step's
  // values, which show the cause (the message names the first non-finite torque, acceleration, q or
  // velocity of the lowest such robot, and its joint).
  Status TorqueStep(ThreadPool& pool, float dt, TorqueController controller);

  // Torque mode: each robot's kinetic energy 0.5 v^T (M + A) v (v = [base velocity, qd]) and
  // potential energy -sum_b m_b g . c_b (c_b a body's world centre of mass from link_poses(), so
  // call after a step or ForwardKinematics), in J. Spans have size() entries. Uses the batch's
  // internal force arrays as scratch, so it allocates nothing and leaves the state unchanged.
  void MeasureEnergy(ThreadPool& pool, std::span<float> kinetic, std::span<float> potential);

  // Bytes this batch allocated (state and scratch) and their per-robot share.
  size_t allocated_bytes() const;
  double BytesPerRobot() const;
  // xxHash of every state array's first size() elements (q, qd, q_target, torque, link poses,
  // target pose, and a floating base's velocity in torque mode), for determinism checks.
  uint64_t StateHash() const;
  // A digest of the same state that does not depend on how a run's robots are split into
  // batches: the sum modulo 2^64 of one hash per robot, of its index among all the run's robots
  // (first_robot + r, as RobotTaskParams::first_robot numbers them) and its values (NaN
  // canonical, as StateHash). The digests of batches of consecutive ranges add up (mod 2^64) to
  // the digest of one batch of all the robots.
  uint64_t StateDigest(ThreadPool& pool, uint64_t first_robot = 0) const;

 private:
  // Runs a step's stages fused per tile of `schedule` between the guard's save and check
  // (engine/robots/step_guard.h): OK, or every robot restored, the link poses recomputed and the
  // first non-finite value of the lowest failed robot named (among `named`, in order).
  // Defined and used in robot_batch.cc only.
  template <class... Stages>
  Status GuardedStep(ThreadPool& pool, const TileSchedule& schedule, const char* function,
                     const StepOutput* named, size_t named_count, const Stages&... stages);
  // The arrays StateHash and StateDigest cover, in their order.
  std::array<ConstLanesView, 7> StateArrays() const;
  struct State;  // defined in robot_batch.cc; on the heap so that tree()'s joint pointer and
                 // the views survive moves of the batch
  explicit RobotBatch(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace swarm
