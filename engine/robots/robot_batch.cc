#include "swarm/robots/robot_batch.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <utility>

#include "engine/robots/constraint_model.h"
#include "engine/robots/frame_math.h"
#include "engine/robots/step_guard.h"
#include "engine/robots/torque_step.h"
#include "swarm/core/checked_math.h"
#include "swarm/core/lane_storage.h"
#include "swarm/core/state_hash.h"
#include "swarm/core/text.h"
#include "swarm/kernels/robots/contact_inertia.h"

namespace swarm {

// Layout of `storage` (one allocation; every array holds `stride` floats, stride a multiple of
// kPadFloats, so each array starts on a vector boundary and its padding stays zero):
//   q (q_count) | base velocity (b) | qd (dof) | torque mode with contacts: contact normal
//   forces (c) | friction forces (2c) | anchors (2c) | sliding (c) | q_target (dof) |
//   base force (b) | torque (dof) | link poses (7 links) | target (7) | torque mode:
//   qd_target (dof) | qdd_target (dof) | ctrl (actuators) | applied (n) | qdd (n) |
//   limit forces (dof) |
//   added joint inertia (dof) |
//   added point inertia (8c) | contact geometry (7c) and point velocities (3c) | the step's
//   limit flags (dof), contact
//   flags (c), slipping (c),
//   slip forces (2c) and the robots it solves again (1) | RK4 only: q0 (q_count) | v0 (n) | q stage
//   (q_count) | v stage (n) | velocity sum (n) | acceleration sum (n) | stage accelerations (n) |
//   the step's start (engine/robots/step_guard.h): q, base velocity, qd and the constraints' state
// with b = 6 for a floating base in torque mode (else 0), c contacts and n = b + dof, so that
// [base velocity | qd] and [base force | torque] are the dynamics' velocity-like views; a
// kinematic batch has exactly its old layout. `applied` is what forward dynamics reads (the
// torques plus the limits' and contacts' explicit forces; the base's 6 hold only the contacts'
// forces: nothing actuates a floating base); the added inertia is the step's
// (swarm/kernels/robots/dynamics/robot_dynamics.h, AddedInertia).
// `jacobian` holds one block of 6 * dof arrays of TileWidth(config.schedule) floats per tile of
// config.schedule: the end effector's Jacobian lives only between the two stages of IkStep on one
// tile, so each tile has its own block, no two threads share one, and steps need no allocation.
// `dynamics_scratch` likewise holds one swarm/kernels/robots/dynamics/robot_dynamics.h scratch per
// tile of config.torque.schedule, the torque steps' tiles.
// DetectContacts, like the torque step's world contacts, computes shape frames kCollisionChunk
// robots at a time (engine/robots/torque_step.h).

struct RobotBatch::State {
  RobotModel model;
  std::vector<KinematicJoint> kinematic_joints;  // tree.joints points here
  KinematicTree tree;
  RobotBatchConfig config;                  // end_effector and control resolved
  std::unique_ptr<DynamicsModel> dynamics;  // torque mode only
  DynamicsTree dynamics_tree;
  std::vector<JointConstraint> joint_constraints;  // torque mode only, one per joint
  // Torque mode with contacts only: the ground contacts, then the world contacts (`world`).
  std::vector<ContactPoint> contacts;
  std::vector<uint32_t> contact_bodies;  // each contact's dynamics body
  size_t ground_contacts = 0;
  std::optional<WorldContacts> world;
  std::vector<uint32_t> world_pairs;  // each world contact's pair in config.collisions
  // Each contact's friction, margin and soft constraint; the parameters the step reads, prepared
  // for prepared_dt (again when a step's dt differs).
  std::vector<SoftConstraint> contact_softs;
  std::vector<ContactParameters> contact_parameters;
  float prepared_dt = 0.0f;
  // The world pairs' shape frames of the torque steps: kCollisionChunk robots' worth per tile of
  // config.torque.schedule.
  LaneStorage<float, 1> world_frames;
  // What each column of the step's arrays is, for a failed step's message (ColumnNames).
  struct Columns {
    std::vector<std::string> q, velocities, joints, base, contacts, contact_xy;
  } columns;
  size_t scratch_floats = 0;
  // Trees with couplings and contacts: where each tile's dynamics scratch holds the contacts'
  // dense added inertia (swarm/kernels/robots/contact_inertia.h) past the dynamics' own floats;
  // 0 otherwise.
  size_t contact_matrix_offset = 0;
  size_t robots = 0;
  size_t stride = 0;
  LaneStorage<float, 1> storage;
  LaneStorage<float, 1> jacobian;
  LaneStorage<float, 1> dynamics_scratch;
  // The Euler step's re-solves gather their robots here: one block per tile (ResolveStagingFloats).
  LaneStorage<float, 1> resolve_staging;
  size_t staging_robots = 0;
  size_t staging_floats = 0;
  // The joints' sines and cosines a step's kernels share (TorqueStepModel::trig): trig_arrays
  // arrays of tile_elements floats per tile, for a torque batch without couplings.
  LaneStorage<float, 1> joint_trig;
  size_t trig_arrays = 0;
  // config.collisions made ready, its contact slots (kContactArrays per slot, stride `stride`)
  // and the shape frames DetectContacts passes through: kCollisionChunk robots' worth per tile of
  // config.schedule.
  std::optional<CollisionPlan> collisions;
  LaneStorage<float, 1> contacts_out;
  LaneStorage<float, 1> collision_frames;

  bool torque_mode() const { return config.torque.enabled; }
  size_t dof() const { return model.dof(); }
  size_t base() const { return torque_mode() && model.floating_base ? 6 : 0; }
  size_t velocities() const { return base() + dof(); }
  size_t torque_arrays() const { return torque_mode() ? dof() : 0; }
  size_t q_begin() const { return 0; }
  size_t base_velocity_begin() const { return model.q_count(); }
  size_t qd_begin() const { return base_velocity_begin() + base(); }
  size_t contact_forces_begin() const { return qd_begin() + dof(); }
  size_t friction_forces_begin() const { return contact_forces_begin() + contacts.size(); }
  size_t anchors_begin() const { return friction_forces_begin() + 2 * contacts.size(); }
  size_t sliding_begin() const { return anchors_begin() + 2 * contacts.size(); }
  size_t q_target_begin() const { return sliding_begin() + contacts.size(); }
  size_t base_force_begin() const { return q_target_begin() + dof(); }
  size_t torque_begin() const { return base_force_begin() + base(); }
  size_t poses_begin() const { return torque_begin() + dof(); }
  size_t target_pose_begin() const { return poses_begin() + kPoseArrays * model.links.size(); }
  size_t qd_target_begin() const { return target_pose_begin() + kPoseArrays; }
  size_t qdd_target_begin() const { return qd_target_begin() + torque_arrays(); }
  size_t actuator_arrays() const { return torque_mode() ? config.torque.actuators.size() : 0; }
  size_t ctrl_begin() const { return qdd_target_begin() + torque_arrays(); }
  size_t applied_begin() const { return ctrl_begin() + actuator_arrays(); }
  size_t dynamics_arrays() const { return torque_mode() ? velocities() : 0; }
  size_t qdd_begin() const { return applied_begin() + dynamics_arrays(); }
  size_t limit_forces_begin() const { return qdd_begin() + dynamics_arrays(); }
  size_t added_joints_begin() const { return limit_forces_begin() + torque_arrays(); }
  size_t added_points_begin() const { return added_joints_begin() + torque_arrays(); }
  bool runge_kutta() const {
    return torque_mode() && config.torque.integrator == TorqueIntegrator::kRungeKutta4;
  }
  size_t rk_q_arrays() const { return runge_kutta() ? model.q_count() : 0; }
  size_t rk_v_arrays() const { return runge_kutta() ? velocities() : 0; }
  size_t contact_geometry_begin() const {
    return added_points_begin() + kAddedPointArrays * contacts.size();
  }
  size_t contact_velocities_begin() const {
    return contact_geometry_begin() + kContactArrays * contacts.size();
  }
  size_t limit_flags_begin() const {
    return contact_velocities_begin() + kContactVelocityArrays * contacts.size();
  }
  size_t contact_flags_begin() const { return limit_flags_begin() + torque_arrays(); }
  size_t slipping_begin() const { return contact_flags_begin() + contacts.size(); }
  size_t slip_forces_begin() const { return slipping_begin() + contacts.size(); }
  size_t resolve_marks_begin() const { return slip_forces_begin() + 2 * contacts.size(); }
  size_t rk_q0_begin() const { return resolve_marks_begin() + (torque_mode() ? 1 : 0); }
  size_t rk_v0_begin() const { return rk_q0_begin() + rk_q_arrays(); }
  size_t rk_q_stage_begin() const { return rk_v0_begin() + rk_v_arrays(); }
  size_t rk_v_stage_begin() const { return rk_q_stage_begin() + rk_q_arrays(); }
  size_t rk_v_sum_begin() const { return rk_v_stage_begin() + rk_v_arrays(); }
  size_t rk_a_sum_begin() const { return rk_v_sum_begin() + rk_v_arrays(); }
  size_t rk_a_stage_begin() const { return rk_a_sum_begin() + rk_v_arrays(); }
  // The state a step changes, [q | base velocity | qd | the contacts' state], and where a step
  // saves it (engine/robots/step_guard.h). The torques, qdd and the limits' forces are what the
  // step applied and computed: a failed step leaves its values there, which show the cause.
  size_t step_state_arrays() const { return q_target_begin(); }
  size_t saved_begin() const { return rk_a_stage_begin() + rk_v_arrays(); }
  size_t array_count() const { return saved_begin() + step_state_arrays(); }
  LanesView StepState() { return Arrays(q_begin(), step_state_arrays()); }
  LanesView SavedStepState() { return Arrays(saved_begin(), step_state_arrays()); }
  swarm::ContactState ContactState() {
    const size_t c = contacts.size();
    return {Arrays(contact_forces_begin(), c), Arrays(friction_forces_begin(), 2 * c),
            Arrays(anchors_begin(), 2 * c), Arrays(sliding_begin(), c)};
  }

  LanesView Arrays(size_t first, size_t n) {
    return {storage.lane(0) + first * stride, robots, stride, n};
  }
  ConstLanesView Arrays(size_t first, size_t n) const {
    return {storage.lane(0) + first * stride, robots, stride, n};
  }
  LanesView JointQ() { return Arrays(tree.joint_q_begin(), dof()); }
  const TileSchedule& torque_schedule() const { return config.torque.schedule; }
  // The floats per array of a per-tile block: a tile's robots, or the padded batch if smaller.
  size_t TileWidth(const TileSchedule& schedule) const {
    return std::min(schedule.tile_elements, stride);
  }
  float* DynamicsScratch(size_t begin) {
    return dynamics_scratch.lane(0) + begin / torque_schedule().tile_elements * scratch_floats;
  }
  // The Jacobian block of the tile starting at robot `begin`, for its n robots.
  size_t contact_arrays() const {
    return collisions ? kContactArrays * collisions->slot_count() : 0;
  }
  LanesView JacobianTile(size_t begin, size_t n) {
    const size_t width = TileWidth(config.schedule);
    const size_t block = 6 * dof() * width;
    return {jacobian.lane(0) + begin / config.schedule.tile_elements * block, n, width, 6 * dof()};
  }
};

namespace {

// kAutoTorqueTileBytes's rule for robots of `robot_bytes` bytes of state each.
size_t AutoTorqueTile(size_t robot_bytes) {
  size_t tile = kMaxAutoTorqueTile;
  while (tile > kMinAutoTorqueTile && tile * robot_bytes > kAutoTorqueTileBytes) tile /= 2;
  return tile;
}

Status ValidateControl(const RobotModel& model, const std::vector<JointControl>& control) {
  if (control.size() != model.dof()) {
    return InvalidArgument("RobotBatch: config.control has " + std::to_string(control.size()) +
                           " entries, expected one per independent joint of " + Quoted(model.name) +
                           " (" + std::to_string(model.dof()) + ")");
  }
  for (size_t j = 0; j < control.size(); ++j) {
    const JointControl& c = control[j];
    const std::string where = "RobotBatch: config.control[" + std::to_string(j) + "] (joint " +
                              Quoted(model.joints[model.dof_joints[j]].name) + "): ";
    const auto finite_non_negative = [&](const char* name, float value) -> Status {
      if (std::isfinite(value) && value >= 0.0f) return {};
      return InvalidArgument(where + name + " must be finite and >= 0, got " + NumberText(value));
    };
    const auto positive = [&](const char* name, float value) -> Status {
      if (value > 0.0f) return {};  // +infinity allowed: unlimited
      return InvalidArgument(where + name + " must be > 0 (may be infinity), got " +
                             NumberText(value));
    };
    if (Status s = finite_non_negative("kp", c.kp); !s.ok()) return s;
    if (Status s = finite_non_negative("kd", c.kd); !s.ok()) return s;
    if (Status s = positive("effort_limit", c.effort_limit); !s.ok()) return s;
    if (Status s = positive("velocity_limit", c.velocity_limit); !s.ok()) return s;
    if (!(std::isfinite(c.inverse_inertia) && c.inverse_inertia > 0.0f)) {
      return InvalidArgument(where + "inverse_inertia must be finite and > 0, got " +
                             NumberText(c.inverse_inertia));
    }
    const float kInfinity = std::numeric_limits<float>::infinity();
    if (!(c.lower <= c.upper) || c.lower == kInfinity || c.upper == -kInfinity) {
      return InvalidArgument(where + "position limits must satisfy lower <= upper with lower < " +
                             "inf and upper > -inf, got lower " + NumberText(c.lower) + ", upper " +
                             NumberText(c.upper));
    }
  }
  return {};
}

Status ValidateIk(const IkParams& ik) {
  if (!(std::isfinite(ik.damping) && ik.damping > 0.0f)) {
    return InvalidArgument("RobotBatch: config.ik.damping must be finite and > 0, got " +
                           NumberText(ik.damping));
  }
  if (!(std::isfinite(ik.orientation_weight) && ik.orientation_weight >= 0.0f)) {
    return InvalidArgument(
        "RobotBatch: config.ik.orientation_weight must be finite and >= 0, got " +
        NumberText(ik.orientation_weight));
  }
  if (!(std::isfinite(ik.max_step) && ik.max_step > 0.0f)) {
    return InvalidArgument("RobotBatch: config.ik.max_step must be finite and > 0, got " +
                           NumberText(ik.max_step));
  }
  return {};
}

// The first field of `soft` out of range, named under `prefix`.
Status ValidateSoftConstraint(const std::string& prefix, const SoftConstraint& soft) {
  const auto fail = [&](const char* field, const std::string& value, const char* expected) {
    return InvalidArgument("RobotBatch: " + prefix + "." + field + " is " + value + ", expected " +
                           expected);
  };
  const auto open_unit = [](float value) { return value > 0.0f && value < 1.0f; };
  if (!(std::isfinite(soft.time_constant) && soft.time_constant > 0.0f)) {
    return fail("time_constant", NumberText(soft.time_constant), "a finite value > 0 (seconds)");
  }
  if (!(std::isfinite(soft.damping_ratio) && soft.damping_ratio > 0.0f)) {
    return fail("damping_ratio", NumberText(soft.damping_ratio), "a finite value > 0");
  }
  if (!open_unit(soft.impedance_min)) {
    return fail("impedance_min", NumberText(soft.impedance_min), "a value in (0, 1)");
  }
  if (!open_unit(soft.impedance_max)) {
    return fail("impedance_max", NumberText(soft.impedance_max), "a value in (0, 1)");
  }
  if (!(std::isfinite(soft.width) && soft.width >= 0.0f)) {
    return fail("width", NumberText(soft.width), "a finite value >= 0");
  }
  if (!open_unit(soft.midpoint)) {
    return fail("midpoint", NumberText(soft.midpoint), "a value in (0, 1)");
  }
  if (!(std::isfinite(soft.max_push_speed) && soft.max_push_speed > 0.0f)) {
    return fail("max_push_speed", NumberText(soft.max_push_speed), "a finite value > 0");
  }
  if (!(soft.max_mass_ratio > 0.0f)) {
    return fail("max_mass_ratio", NumberText(soft.max_mass_ratio), "a value > 0 (or infinity)");
  }
  if (soft.power < 1 || soft.power > kMaxImpedancePower) {
    return fail("power", std::to_string(soft.power),
                ("an integer from 1 to " + std::to_string(kMaxImpedancePower)).c_str());
  }
  return {};
}

Status ValidateGround(const GroundContact& ground) {
  if (!std::isfinite(ground.height)) {
    return InvalidArgument("RobotBatch: config.torque.contacts.ground.height must be finite, got " +
                           NumberText(ground.height));
  }
  if (!(std::isfinite(ground.friction) && ground.friction >= 0.0f)) {
    return InvalidArgument(
        "RobotBatch: config.torque.contacts.ground.friction must be finite and >= 0, got " +
        NumberText(ground.friction));
  }
  return ValidateSoftConstraint("config.torque.contacts.ground.soft", ground.soft);
}

// The links of config.torque.contacts: the named links (or the leaves), each once.
Result<std::vector<size_t>> ResolveContactLinks(const RobotModel& model,
                                                const GroundContactConfig& config) {
  if (Status s = ValidateGround(config.ground); !s.ok()) return s;
  if (!(std::isfinite(config.radius) && config.radius >= 0.0f)) {
    return InvalidArgument(
        "RobotBatch: config.torque.contacts.radius must be finite and >= 0, got " +
        NumberText(config.radius));
  }
  std::vector<size_t> links;
  if (config.links.empty()) {
    links = model.LeafLinks();
  } else {
    for (const std::string& name : config.links) {
      Result<size_t> link = model.FindLink(name);
      if (!link.ok()) return link.status();
      if (std::find(links.begin(), links.end(), *link) != links.end()) {
        return InvalidArgument("RobotBatch: config.torque.contacts.links names " + Quoted(name) +
                               " twice");
      }
      links.push_back(*link);
    }
  }
  return links;
}

// The joints' and contacts' constraint constants of a torque batch
// (engine/robots/constraint_model.h): the ground contacts first, then the world contacts.
struct Constraints {
  std::vector<JointConstraint> joints;
  std::vector<ContactPoint> contacts;
  std::vector<uint32_t> contact_bodies;
  size_t ground_contacts = 0;
  std::optional<WorldContacts> world;
  std::vector<uint32_t> world_pairs;
  std::vector<SoftConstraint> softs;
  std::vector<ContactParameters> parameters;  // friction and margin; prepared per step
};

// Appends contact points on `links` (one each, of `radius`), failing for a link that cannot move.
Status AddContactPoints(const RobotModel& model, const DynamicsModel& dynamics,
                        const KinematicTree& tree, const std::vector<size_t>& links, float radius,
                        const std::vector<double>& inverse_mass, Constraints& out) {
  for (const ContactPoint& contact :
       BuildContactPoints(dynamics, tree, links, radius, inverse_mass)) {
    if (!(contact.inverse_inertia0 > 0.0f) || !ValidContactPoint(contact)) {
      return InvalidArgument("RobotBatch: contact link " + Quoted(model.links[contact.link]) +
                             " does not move (it is fixed to the ground), so it cannot touch it");
    }
    out.contacts.push_back(contact);
    out.contact_bodies.push_back(contact.body);
  }
  return {};
}

Result<Constraints> BuildConstraints(const RobotModel& model, const DynamicsModel& dynamics,
                                     const KinematicTree& tree, const RobotBatchConfig& config) {
  const TorqueModeConfig& torque = config.torque;
  Result<std::vector<double>> inverse_mass = ReferenceInverseMassMatrix(dynamics);
  if (!inverse_mass.ok()) {
    return InvalidArgument("RobotBatch: " + Quoted(model.name) + ": " +
                           inverse_mass.status().message());
  }
  Constraints out;
  out.joints = BuildJointConstraints(dynamics, config.control, torque.actuators, *inverse_mass,
                                     torque.limits, torque.limit_tolerance);
  if (!torque.contacts.enabled && !torque.world_contacts) return out;
  if (torque.integrator == TorqueIntegrator::kRungeKutta4) {
    return InvalidArgument(
        "RobotBatch: contacts need the euler integrator (config.torque.integrator): their "
        "friction modes advance once per step");
  }
  if (torque.contacts.enabled) {
    Result<std::vector<size_t>> links = ResolveContactLinks(model, torque.contacts);
    if (!links.ok()) return links.status();
    if (Status s = AddContactPoints(model, dynamics, tree, *links, torque.contacts.radius,
                                    *inverse_mass, out);
        !s.ok()) {
      return s;
    }
    ContactParameters ground;
    ground.friction = torque.contacts.ground.friction;
    out.ground_contacts = out.contacts.size();
    out.softs.assign(out.ground_contacts, torque.contacts.ground.soft);
    out.parameters.assign(out.ground_contacts, ground);
  }
  if (!torque.world_contacts) return out;
  Result<WorldContacts> world = WorldContacts::Make(model, config.collisions);
  if (!world.ok()) {
    return Status(world.status().code(),
                  "RobotBatch: config.collisions: " + world.status().message());
  }
  std::vector<size_t> links;
  for (const WorldContacts::Contact& contact : world->contacts()) {
    links.push_back(contact.link);
    out.world_pairs.push_back(contact.pair);
    out.softs.push_back(contact.soft);
    ContactParameters parameters;
    parameters.friction = contact.friction;
    parameters.margin = contact.margin;
    parameters.regulariser_scale = contact.regulariser_scale;
    out.parameters.push_back(parameters);
  }
  if (Status s = AddContactPoints(model, dynamics, tree, links, 0.0f, *inverse_mass, out);
      !s.ok()) {
    return s;
  }
  out.world = std::move(world).value();
  return out;
}

// What each column of a batch's arrays is: q's (a floating base's x y z qw qx qy qz, then the
// joints), the velocities' (a floating base's vx vy vz wx wy wz, then the joints), the joints',
// the base's, and the contacts' (one and two per contact).
template <class Columns>
Columns ColumnNamesOf(const RobotModel& model, const std::vector<ContactPoint>& contacts) {
  Columns columns;
  for (size_t j = 0; j < model.dof(); ++j) {
    columns.joints.push_back("joint " + Quoted(model.joints[model.dof_joints[j]].name));
  }
  if (model.floating_base) {
    for (const char* name : {"x", "y", "z", "qw", "qx", "qy", "qz"}) {
      columns.q.push_back(std::string("base ") + name);
    }
    for (const char* name : {"vx", "vy", "vz", "wx", "wy", "wz"}) {
      columns.base.push_back(std::string("base ") + name);
    }
  }
  columns.q.insert(columns.q.end(), columns.joints.begin(), columns.joints.end());
  columns.velocities = columns.base;
  columns.velocities.insert(columns.velocities.end(), columns.joints.begin(), columns.joints.end());
  for (const ContactPoint& contact : contacts) {
    const std::string name = "contact " + Quoted(model.links[contact.link]);
    columns.contacts.push_back(name);
    columns.contact_xy.push_back(name + " x");
    columns.contact_xy.push_back(name + " y");
  }
  return columns;
}

// q = 0 clamped into [lower, upper]; a floating base at the identity (qw = 1); q_target = q.
void InitialConfiguration(const RobotModel& model, const std::vector<JointControl>& control,
                          const LanesView& q, const LanesView& q_target) {
  if (model.floating_base) {
    float* qw = q.Array(3);
    for (size_t r = 0; r < q.count; ++r) qw[r] = 1.0f;
  }
  const size_t begin = model.floating_base ? kFloatingBaseArrays : 0;
  for (size_t j = 0; j < control.size(); ++j) {
    float value = 0.0f;
    if (value < control[j].lower) value = control[j].lower;
    if (value > control[j].upper) value = control[j].upper;
    float* column = q.Array(begin + j);
    float* target = q_target.Array(j);
    for (size_t r = 0; r < q.count; ++r) {
      column[r] = value;
      target[r] = value;
    }
  }
}

}  // namespace

RobotBatch::RobotBatch() = default;
RobotBatch::~RobotBatch() = default;
RobotBatch::RobotBatch(RobotBatch&& other) noexcept = default;
RobotBatch& RobotBatch::operator=(RobotBatch&& other) noexcept = default;
RobotBatch::RobotBatch(std::unique_ptr<State> state) : state_(std::move(state)) {}

Result<RobotBatch> RobotBatch::Create(MemoryAccountant& accountant, const RobotModel& model,
                                      size_t robots, const RobotBatchConfig& config) {
  if (robots == 0) return InvalidArgument("RobotBatch: robots must be > 0, got 0");
  if (model.links.size() != model.joints.size() + 1) {
    return InvalidArgument("RobotBatch: model " + Quoted(model.name) + " has " +
                           std::to_string(model.links.size()) + " links and " +
                           std::to_string(model.joints.size()) +
                           " joints, expected links = joints + 1 (load it with LoadUrdf)");
  }
  auto state = std::make_unique<State>();
  state->config = config;
  state->config.control = config.control.empty() ? DefaultJointControl(model) : config.control;
  if (Status s = ValidateControl(model, state->config.control); !s.ok()) return s;
  if (config.end_effector == SIZE_MAX) state->config.end_effector = model.DefaultEndEffector();
  if (state->config.end_effector >= model.links.size()) {
    return InvalidArgument("RobotBatch: config.end_effector is link " +
                           std::to_string(config.end_effector) + ", but " + Quoted(model.name) +
                           " has " + std::to_string(model.links.size()) + " links");
  }
  if (Status s = ValidateIk(config.ik); !s.ok()) return s;
  const size_t tile = config.schedule.tile_elements;
  if (tile == 0 || tile % kPadFloats != 0) {
    return InvalidArgument("RobotBatch: config.schedule.tile_elements must be a positive " +
                           ("multiple of " + std::to_string(kPadFloats)) + ", got " +
                           std::to_string(tile));
  }
  const size_t torque_tile = config.torque.schedule.tile_elements;
  if (config.torque.enabled && torque_tile % kPadFloats != 0) {
    return InvalidArgument(
        "RobotBatch: config.torque.schedule.tile_elements must be 0 (sized from the robots' "
        "state) or a multiple of " +
        std::to_string(kPadFloats) + ", got " + std::to_string(torque_tile));
  }

  state->model = model;
  state->tree = BuildKinematicTree(state->model, state->kinematic_joints);
  if (config.torque.enabled) {
    const TorqueModeConfig& torque = config.torque;
    if (Status s = ValidateSoftConstraint("config.torque.limits", torque.limits); !s.ok()) {
      return s;
    }
    if (!(std::isfinite(torque.max_step_turn) && torque.max_step_turn > 0.0f)) {
      return InvalidArgument(
          "RobotBatch: config.torque.max_step_turn must be finite and > 0, got " +
          NumberText(torque.max_step_turn));
    }
    if (!(torque.max_joint_speed > 0.0f) || !(torque.max_base_angular_speed > 0.0f)) {
      return InvalidArgument(
          "RobotBatch: config.torque.max_joint_speed and max_base_angular_speed must be > 0 (may "
          "be "
          "infinity), got " +
          NumberText(torque.max_joint_speed) + " and " + NumberText(torque.max_base_angular_speed));
    }
    if (!(std::isfinite(torque.limit_tolerance) && torque.limit_tolerance > 0.0f)) {
      return InvalidArgument(
          "RobotBatch: config.torque.limit_tolerance must be finite and > 0, got " +
          NumberText(torque.limit_tolerance));
    }
    for (float g : torque.gravity) {
      if (!std::isfinite(g)) {
        return InvalidArgument("RobotBatch: config.torque.gravity must be finite, got " +
                               NumberText(g));
      }
    }
    for (size_t a = 0; a < torque.actuators.size(); ++a) {
      const JointActuator& actuator = torque.actuators[a];
      if (actuator.dof >= model.dof() || !ValidJointActuator(actuator)) {
        return InvalidArgument("RobotBatch: config.torque.actuators[" + std::to_string(a) +
                               "] needs a joint below " + std::to_string(model.dof()) +
                               ", finite gear, gain and biases and ranges with lower <= upper");
      }
    }
    Result<DynamicsModel> dynamics = DynamicsModel::Build(state->model, torque.dynamics);
    if (!dynamics.ok()) return dynamics.status();
    state->dynamics = std::make_unique<DynamicsModel>(std::move(dynamics).value());
    state->dynamics_tree = state->dynamics->tree();
    state->scratch_floats = RobotDynamicsScratchFloats(state->dynamics_tree);
    Result<Constraints> constraints =
        BuildConstraints(state->model, *state->dynamics, state->tree, state->config);
    if (!constraints.ok()) return constraints.status();
    state->joint_constraints = std::move(constraints->joints);
    state->contacts = std::move(constraints->contacts);
    state->contact_bodies = std::move(constraints->contact_bodies);
    state->ground_contacts = constraints->ground_contacts;
    state->world = std::move(constraints->world);
    state->world_pairs = std::move(constraints->world_pairs);
    state->contact_softs = std::move(constraints->softs);
    state->contact_parameters = std::move(constraints->parameters);
  }

  if (!config.collisions.shapes.empty() || !config.collisions.pairs.empty()) {
    Result<CollisionPlan> plan = CollisionPlan::Make(state->model, config.collisions);
    if (!plan.ok())
      return Status(plan.status().code(),
                    "RobotBatch: config.collisions: " + plan.status().message());
    state->collisions = std::move(plan).value();
  }

  // Sizes, checked for overflow before anything is allocated.
  state->robots = robots;
  const auto too_many = [&](const char* what) {
    return Status(ErrorCode::kOutOfMemory, "RobotBatch: " + std::to_string(robots) + " robots of " +
                                               Quoted(model.name) + " are too many: the " + what +
                                               " would not fit in the address space");
  };
  if (robots > std::numeric_limits<size_t>::max() - kPadFloats) return too_many("state");
  state->stride = RoundUpToVector<float>(robots);
  size_t state_floats = 0;
  if (!MultiplyFits<size_t>(state->array_count(), state->stride, &state_floats)) {
    return too_many("state");
  }
  TileSchedule& torque_schedule = state->config.torque.schedule;
  if (torque_schedule.tile_elements == 0) {
    torque_schedule.tile_elements = AutoTorqueTile(state->array_count() * sizeof(float));
  }
  size_t jacobian_floats = 0;
  const auto tile_count = [&](const TileSchedule& schedule) {
    return robots / schedule.tile_elements + (robots % schedule.tile_elements != 0 ? 1 : 0);
  };
  const size_t tiles = tile_count(config.schedule);
  const size_t torque_tiles = tile_count(torque_schedule);
  const size_t torque_width = state->TileWidth(torque_schedule);
  size_t jacobian_tile_floats = 0;
  if (!MultiplyFits<size_t>(6 * state->dof(), state->TileWidth(config.schedule),
                            &jacobian_tile_floats) ||
      !MultiplyFits<size_t>(jacobian_tile_floats, tiles, &jacobian_floats)) {
    return too_many("Jacobian scratch");
  }

  if (state->torque_mode() && !state->contacts.empty() && HasCouplings(state->dynamics_tree)) {
    // The contacts' matrix (n^2 arrays of a tile) and its kernel's scratch after the dynamics'.
    const size_t n = state->velocities();
    state->contact_matrix_offset = RoundUpToVector<float>(state->scratch_floats);
    state->scratch_floats = state->contact_matrix_offset +
                            RoundUpToVector<float>(n * n * torque_width) +
                            ContactInertiaScratchFloats(state->tree);
  }
  size_t scratch_floats = 0;
  if (!MultiplyFits<size_t>(state->scratch_floats, torque_tiles, &scratch_floats)) {
    return too_many("dynamics scratch");
  }
  size_t staging_floats = 0, trig_floats = 0;
  if (state->torque_mode() && !state->runge_kutta()) {
    if (!HasCouplings(state->dynamics_tree)) {
      state->trig_arrays = JointTrigArrays(state->dynamics_tree);
    }
    state->staging_robots = std::min(torque_width, kResolveStagingRobots);
    state->staging_floats =
        ResolveStagingFloats(state->model.q_count(), state->velocities(), state->dof(),
                             kPoseArrays * state->model.links.size(), state->contacts.size(),
                             state->trig_arrays, state->staging_robots);
    if (!MultiplyFits<size_t>(state->staging_floats, torque_tiles, &staging_floats) ||
        !MultiplyFits<size_t>(state->trig_arrays * torque_width, torque_tiles, &trig_floats)) {
      return too_many("re-solve staging");
    }
  }

  size_t contact_floats = 0, frame_floats = 0, world_frame_floats = 0;
  if (state->collisions &&
      (!MultiplyFits<size_t>(state->contact_arrays(), state->stride, &contact_floats) ||
       !MultiplyFits<size_t>(state->collisions->frame_arrays() * kCollisionChunk, tiles,
                             &frame_floats))) {
    return too_many("contacts");
  }
  if (state->world &&
      !MultiplyFits<size_t>(state->world->frame_floats(), torque_tiles, &world_frame_floats)) {
    return too_many("contacts");
  }

  // Every allocation or none: a refused later one frees the earlier ones on return.
  const auto allocate = [&](LaneStorage<float, 1>& storage, size_t floats) {
    storage = LaneStorage<float, 1>(accountant, MemoryCategory::kRobots);
    return floats > 0 ? storage.Resize(floats) : Status{};
  };
  for (const auto& [storage, floats] :
       {std::pair{&state->storage, state_floats}, std::pair{&state->jacobian, jacobian_floats},
        std::pair{&state->dynamics_scratch, scratch_floats},
        std::pair{&state->resolve_staging, staging_floats},
        std::pair{&state->joint_trig, trig_floats}, std::pair{&state->contacts_out, contact_floats},
        std::pair{&state->collision_frames, frame_floats},
        std::pair{&state->world_frames, world_frame_floats}}) {
    if (Status s = allocate(*storage, floats); !s.ok()) return s;
  }

  state->columns = ColumnNamesOf<State::Columns>(state->model, state->contacts);
  for (size_t a = 0; a < state->contact_arrays(); a += kContactArrays) {
    std::fill_n(state->contacts_out.lane(0) + a * state->stride, robots, kNoContact);
  }
  RobotBatch batch(std::move(state));
  InitialConfiguration(batch.model(), batch.config().control, batch.q(), batch.q_target());
  // One pass over the whole batch: robot r's poses do not depend on how robots are grouped.
  swarm::ForwardKinematics(batch.tree(), batch.q(), batch.link_poses());
  const LanesView goal = batch.target_pose();
  const ConstLanesView end_effector =
      batch.link_poses().Arrays(kPoseArrays * batch.end_effector(), kPoseArrays);
  for (size_t k = 0; k < kPoseArrays; ++k) {
    std::copy(end_effector.Array(k), end_effector.Array(k) + robots, goal.Array(k));
  }
  return batch;
}

const char* TorqueIntegratorName(TorqueIntegrator integrator) {
  return integrator == TorqueIntegrator::kRungeKutta4 ? "rk4" : "euler";
}

const char* TorqueControllerName(TorqueController controller) {
  switch (controller) {
    case TorqueController::kNone:
      return "none";
    case TorqueController::kPdGravity:
      return "pd-gravity";
    case TorqueController::kComputedTorque:
      return "computed-torque";
    case TorqueController::kActuators:
      return "actuators";
  }
  return "?";
}

size_t RobotBatch::size() const { return state_ ? state_->robots : 0; }
const RobotModel& RobotBatch::model() const { return state_->model; }
const KinematicTree& RobotBatch::tree() const { return state_->tree; }
const RobotBatchConfig& RobotBatch::config() const { return state_->config; }
size_t RobotBatch::end_effector() const { return state_->config.end_effector; }

LanesView RobotBatch::q() { return state_->Arrays(state_->q_begin(), state_->model.q_count()); }
LanesView RobotBatch::qd() { return state_->Arrays(state_->qd_begin(), state_->dof()); }
LanesView RobotBatch::q_target() { return state_->Arrays(state_->q_target_begin(), state_->dof()); }
LanesView RobotBatch::torque() { return state_->Arrays(state_->torque_begin(), state_->dof()); }
LanesView RobotBatch::link_poses() {
  return state_->Arrays(state_->poses_begin(), kPoseArrays * state_->model.links.size());
}
LanesView RobotBatch::target_pose() {
  return state_->Arrays(state_->target_pose_begin(), kPoseArrays);
}
LanesView RobotBatch::base_velocity() {
  return state_->Arrays(state_->base_velocity_begin(), state_->base());
}
LanesView RobotBatch::qd_target() {
  return state_->Arrays(state_->qd_target_begin(), state_->torque_arrays());
}
LanesView RobotBatch::qdd_target() {
  return state_->Arrays(state_->qdd_target_begin(), state_->torque_arrays());
}
LanesView RobotBatch::ctrl() {
  return state_->Arrays(state_->ctrl_begin(), state_->actuator_arrays());
}
ConstLanesView RobotBatch::ctrl() const {
  return state_->Arrays(state_->ctrl_begin(), state_->actuator_arrays());
}
LanesView RobotBatch::qdd() {
  return state_->Arrays(state_->qdd_begin(), state_->dynamics_arrays());
}
ConstLanesView RobotBatch::qd_target() const {
  return state_->Arrays(state_->qd_target_begin(), state_->torque_arrays());
}
ConstLanesView RobotBatch::qdd_target() const {
  return state_->Arrays(state_->qdd_target_begin(), state_->torque_arrays());
}
ConstLanesView RobotBatch::base_velocity() const {
  return state_->Arrays(state_->base_velocity_begin(), state_->base());
}
ConstLanesView RobotBatch::qdd() const {
  return state_->Arrays(state_->qdd_begin(), state_->dynamics_arrays());
}
ConstLanesView RobotBatch::contact_forces() const {
  return state_->Arrays(state_->contact_forces_begin(), state_->contacts.size());
}
ConstLanesView RobotBatch::contact_friction_forces() const {
  return state_->Arrays(state_->friction_forces_begin(), 2 * state_->contacts.size());
}
ConstLanesView RobotBatch::contact_sliding() const {
  return state_->Arrays(state_->sliding_begin(), state_->contacts.size());
}
ConstLanesView RobotBatch::contact_geometry() const {
  return state_->Arrays(state_->contact_geometry_begin(), kContactArrays * state_->contacts.size());
}
std::span<const ContactPoint> RobotBatch::contact_points() const { return state_->contacts; }
size_t RobotBatch::ground_contact_count() const { return state_->ground_contacts; }
std::span<const uint32_t> RobotBatch::world_contact_pairs() const { return state_->world_pairs; }
ConstLanesView RobotBatch::limit_forces() const {
  return state_->Arrays(state_->limit_forces_begin(), state_->torque_arrays());
}
std::span<const JointConstraint> RobotBatch::joint_constraints() const {
  return state_->joint_constraints;
}
const DynamicsTree* RobotBatch::dynamics_tree() const {
  return state_->torque_mode() ? &state_->dynamics_tree : nullptr;
}

ConstLanesView RobotBatch::q() const {
  return state_->Arrays(state_->q_begin(), state_->model.q_count());
}
ConstLanesView RobotBatch::qd() const { return state_->Arrays(state_->qd_begin(), state_->dof()); }
ConstLanesView RobotBatch::q_target() const {
  return state_->Arrays(state_->q_target_begin(), state_->dof());
}
ConstLanesView RobotBatch::torque() const {
  return state_->Arrays(state_->torque_begin(), state_->dof());
}
ConstLanesView RobotBatch::link_poses() const {
  return state_->Arrays(state_->poses_begin(), kPoseArrays * state_->model.links.size());
}
ConstLanesView RobotBatch::target_pose() const {
  return state_->Arrays(state_->target_pose_begin(), kPoseArrays);
}

ConstLanesView RobotBatch::contacts() const {
  const State& s = *state_;
  return {s.contacts_out.lane(0), s.robots, s.stride, s.contact_arrays()};
}

const CollisionPlan* RobotBatch::collision_plan() const {
  return state_->collisions ? &*state_->collisions : nullptr;
}

void RobotBatch::DetectContacts(ThreadPool& pool) {
  State& s = *state_;
  if (!s.collisions) return;
  const CollisionPlan& plan = *s.collisions;
  const ConstLanesView poses = link_poses();
  const LanesView out{s.contacts_out.lane(0), s.robots, s.stride, s.contact_arrays()};
  const size_t tile_frames = plan.frame_arrays() * kCollisionChunk;
  RunFused(pool, size(), s.config.schedule, [&](size_t begin, size_t n) {
    DetectInChunks(
        plan, poses.Slice(begin, n),
        s.collision_frames.lane(0) + begin / s.config.schedule.tile_elements * tile_frames,
        out.Slice(begin, n));
  });
}

void RobotBatch::ForwardKinematics(ThreadPool& pool) {
  const KinematicTree& kinematic_tree = state_->tree;
  const ConstLanesView q_all = q();
  const LanesView poses = link_poses();
  RunFused(pool, size(), state_->config.schedule, [&](size_t begin, size_t n) {
    swarm::ForwardKinematics(kinematic_tree, q_all.Slice(begin, n), poses.Slice(begin, n));
  });
}

namespace {

Status CheckStepSeconds(const char* function, float dt) {
  if (!(std::isfinite(dt) && dt > 0.0f && dt <= kMaxStepSeconds)) {
    return InvalidArgument(std::string(function) + ": dt must be finite, > 0 and at most " +
                           NumberText(kMaxStepSeconds) + " s, got " + NumberText(dt));
  }
  return {};
}

}  // namespace

template <class... Stages>
Status RobotBatch::GuardedStep(ThreadPool& pool, const TileSchedule& schedule, const char* function,
                               const StepOutput* named, size_t named_count,
                               const Stages&... stages) {
  const LanesView state = state_->StepState();
  const LanesView saved = state_->SavedStepState();
  std::atomic<size_t> first_bad_robot{SIZE_MAX};
  RunFused(
      pool, size(), schedule,
      [&](size_t begin, size_t n) { SaveStepStart(state, saved, begin, n); }, stages...,
      [&](size_t begin, size_t n) { CheckStepState(state, begin, n, &first_bad_robot); });
  const size_t robot = first_bad_robot.load();
  if (robot >= size()) return {};
  const std::string what = DescribeNonFinite(named, named_count, robot);
  RestoreStepStart(saved, state);
  ForwardKinematics(pool);
  return InvalidArgument(std::string(function) +
                         ": the step overflowed from finite inputs: " + what +
                         " (reduce dt, the torques or the state's magnitude); every robot is back "
                         "at its state before the step");
}

Status RobotBatch::ControlStep(ThreadPool& pool, float dt) {
  constexpr const char* kFunction = "RobotBatch::ControlStep";
  if (Status s = CheckStepSeconds(kFunction, dt); !s.ok()) return s;
  const KinematicTree& kinematic_tree = state_->tree;
  const JointControl* control = state_->config.control.data();
  const size_t dof = state_->dof();
  const LanesView q_all = q();
  const LanesView q_joints = state_->JointQ();
  const LanesView velocities = qd();
  const ConstLanesView targets = q_target();
  const LanesView torques = torque();
  const LanesView poses = link_poses();
  // A model without joints only has forward kinematics to run.
  const auto pd = [&](size_t begin, size_t n) {
    if (dof == 0) return;
    PdTorques(control, dof, q_joints.Slice(begin, n), velocities.Slice(begin, n),
              targets.Slice(begin, n), torques.Slice(begin, n));
  };
  const auto integrate = [&](size_t begin, size_t n) {
    if (dof == 0) return;
    IntegrateJoints(control, dof, torques.Slice(begin, n), q_joints.Slice(begin, n),
                    velocities.Slice(begin, n), dt);
  };
  const auto fk = [&](size_t begin, size_t n) {
    swarm::ForwardKinematics(kinematic_tree, q_all.Slice(begin, n), poses.Slice(begin, n));
  };
  // The causes first when naming a failure's value: the torques, then what was integrated.
  const State::Columns& columns = state_->columns;
  const StepOutput named[] = {{"torque", torques, &columns.joints},
                              {"q", q_all, &columns.q},
                              {"qd", velocities, &columns.joints}};
  return GuardedStep(pool, state_->config.schedule, kFunction, named, std::size(named), pd,
                     integrate, fk);
}

Status RobotBatch::TorqueStep(ThreadPool& pool, float dt, TorqueController controller) {
  State& s = *state_;
  if (!s.torque_mode()) {
    return InvalidArgument(
        "RobotBatch::TorqueStep: torque mode is off (create the batch with config.torque.enabled)");
  }
  if (Status status = CheckStepSeconds("RobotBatch::TorqueStep", dt); !status.ok()) return status;
  if (controller == TorqueController::kComputedTorque && s.model.floating_base) {
    return InvalidArgument(
        "RobotBatch::TorqueStep: computed torque needs a fixed base (nothing actuates the "
        "floating base of " +
        Quoted(s.model.name) + "); use pd-gravity");
  }
  if (controller == TorqueController::kActuators && s.config.torque.actuators.empty()) {
    return InvalidArgument(
        "RobotBatch::TorqueStep: the actuators controller needs config.torque.actuators (an MJCF "
        "robot's: MjcfTorqueConfig)");
  }
  const size_t n = s.velocities();
  TorqueStepModel model;
  model.dynamics = &s.dynamics_tree;
  model.kinematics = &s.tree;
  model.control = s.config.control.data();
  model.config = &s.config.torque;
  model.joints = s.joint_constraints.data();
  if (s.prepared_dt != dt) {
    for (size_t c = 0; c < s.contacts.size(); ++c) {
      s.contact_parameters[c].normal = PrepareSoftConstraint(s.contact_softs[c], dt);
    }
    s.prepared_dt = dt;
  }
  model.contacts = s.contacts.data();
  model.contact_parameters = s.contact_parameters.data();
  model.contact_bodies = s.contact_bodies.data();
  model.contact_count = s.contacts.size();
  model.ground_contacts = s.ground_contacts;
  if (s.world) {
    model.world = &*s.world;
    model.world_frames = s.world_frames.lane(0);
    model.world_frame_floats = s.world->frame_floats();
  }
  model.limits = PrepareSoftConstraint(s.config.torque.limits, dt);
  model.dof = s.dof();
  model.base = s.base();
  model.velocities = n;
  model.q_count = s.model.q_count();
  model.scratch = s.dynamics_scratch.lane(0);
  model.scratch_floats = s.scratch_floats;
  model.contact_matrix_offset = s.contact_matrix_offset;
  model.tile_elements = s.torque_schedule().tile_elements;
  model.tile_width = s.TileWidth(s.torque_schedule());
  model.staging = s.resolve_staging.lane(0);
  model.staging_floats = s.staging_floats;
  model.staging_robots = s.staging_robots;
  if (s.trig_arrays > 0) {
    model.trig = s.joint_trig.lane(0);
    model.trig_arrays = s.trig_arrays;
    model.control_writes_trig = controller == TorqueController::kPdGravity;
  }
  const size_t rk_q = s.rk_q_arrays(), rk_v = s.rk_v_arrays();
  const TorqueStepArrays arrays{
      .q = q(),
      .q_joints = s.JointQ(),
      .velocities = s.Arrays(s.base_velocity_begin(), n),
      .joint_velocities = qd(),
      .forces = s.Arrays(s.base_force_begin(), n),
      .torques = torque(),
      .applied = s.Arrays(s.applied_begin(), n),
      .accelerations = qdd(),
      .poses = link_poses(),
      .contact_geometry = s.Arrays(s.contact_geometry_begin(), kContactArrays * s.contacts.size()),
      .contact_velocities =
          s.Arrays(s.contact_velocities_begin(), kContactVelocityArrays * s.contacts.size()),
      .limit_forces = s.Arrays(s.limit_forces_begin(), s.torque_arrays()),
      .contacts = s.ContactState(),
      .added_joints = s.Arrays(s.added_joints_begin(), s.torque_arrays()),
      .added_points = s.Arrays(s.added_points_begin(), kAddedPointArrays * s.contacts.size()),
      .limit_flags = s.Arrays(s.limit_flags_begin(), s.torque_arrays()),
      .contact_step = {s.Arrays(s.contact_flags_begin(), s.contacts.size()),
                       s.Arrays(s.slipping_begin(), s.contacts.size()),
                       s.Arrays(s.slip_forces_begin(), 2 * s.contacts.size())},
      .resolve_marks = s.Arrays(s.resolve_marks_begin(), s.torque_mode() ? 1 : 0),
      .targets = {q_target(), qd_target(), qdd_target()},
      .ctrl = ctrl(),
      .rk_q0 = s.Arrays(s.rk_q0_begin(), rk_q),
      .rk_v0 = s.Arrays(s.rk_v0_begin(), rk_v),
      .rk_q_stage = s.Arrays(s.rk_q_stage_begin(), rk_q),
      .rk_v_stage = s.Arrays(s.rk_v_stage_begin(), rk_v),
      .rk_v_sum = s.Arrays(s.rk_v_sum_begin(), rk_v),
      .rk_a_sum = s.Arrays(s.rk_a_sum_begin(), rk_v),
      .rk_a_stage = s.Arrays(s.rk_a_stage_begin(), rk_v)};
  // The stages (engine/robots/torque_step.h), fused over tiles: controller, integration (each
  // evaluation of the dynamics adds limits and contacts, then runs forward dynamics), and the
  // links' poses at the new state.
  const auto control = [&](size_t begin, size_t count) {
    ControlTorques(model, arrays, controller, begin, count);
  };
  const auto euler = [&](size_t begin, size_t count) {
    EulerStep(model, arrays, dt, begin, count);
  };
  const auto runge_kutta = [&](size_t begin, size_t count) {
    RungeKutta4Step(model, arrays, dt, begin, count);
  };
  const auto fk = [&](size_t begin, size_t count) {
    swarm::ForwardKinematics(s.tree, arrays.q.Slice(begin, count),
                             arrays.poses.Slice(begin, count));
  };
  // The causes first when naming a failure's value: the torques (a controller's, or the
  // caller's clamped), the accelerations, then what was integrated.
  const State::Columns& columns = s.columns;
  const StepOutput named[] = {
      {"torque", arrays.torques, &columns.joints},
      {"qdd", arrays.accelerations, &columns.velocities},
      {"q", arrays.q, &columns.q},
      {"base_velocity", arrays.velocities.Arrays(0, n - model.dof), &columns.base},
      {"qd", arrays.joint_velocities, &columns.joints},
      {"limit_forces", arrays.limit_forces, &columns.joints},
      {"contact_forces", arrays.contacts.normal_forces, &columns.contacts},
      {"contact_friction_forces", arrays.contacts.friction_forces, &columns.contact_xy},
      {"contact_anchors", arrays.contacts.anchors, &columns.contact_xy}};
  constexpr const char* kFunction = "RobotBatch::TorqueStep";
  if (s.runge_kutta()) {
    return GuardedStep(pool, s.torque_schedule(), kFunction, named, std::size(named), control,
                       runge_kutta, fk);
  }
  return GuardedStep(pool, s.torque_schedule(), kFunction, named, std::size(named), control, euler,
                     fk);
}

void RobotBatch::IkStep(ThreadPool& pool) {
  const size_t dof = state_->dof();
  if (dof == 0) return;
  State& s = *state_;
  const size_t link = s.config.end_effector;
  const ConstLanesView poses = link_poses();
  const ConstLanesView link_pose = poses.Arrays(kPoseArrays * link, kPoseArrays);
  const ConstLanesView goal = target_pose();
  const ConstLanesView q_joints = s.JointQ();
  const LanesView targets = q_target();
  const auto jacobian = [&](size_t begin, size_t n) {
    LinkJacobian(s.tree, link, poses.Slice(begin, n), s.JacobianTile(begin, n));
  };
  const auto step = [&](size_t begin, size_t n) {
    DampedLeastSquaresStep(s.config.control.data(), dof, link_pose.Slice(begin, n),
                           goal.Slice(begin, n), s.JacobianTile(begin, n), q_joints.Slice(begin, n),
                           targets.Slice(begin, n), s.config.ik);
  };
  RunFused(pool, size(), s.config.schedule, jacobian, step);
}

void RobotBatch::MeasureEnergy(ThreadPool& pool, std::span<float> kinetic,
                               std::span<float> potential) {
  State& s = *state_;
  SWARM_ASSERT(s.torque_mode() && kinetic.size() == size() && potential.size() == size());
  const DynamicsTree& tree = s.dynamics_tree;
  const size_t n = s.velocities();
  const ConstLanesView q_all = q();
  const ConstLanesView velocities = s.Arrays(s.base_velocity_begin(), n);
  const LanesView momentum = s.Arrays(s.applied_begin(), n);  // (M + A) v, then zeroed again
  const ConstLanesView poses = link_poses();
  const std::vector<RigidBody>& bodies = s.dynamics->rigid_bodies().bodies;
  const float* g = s.config.torque.gravity;
  RunFused(pool, size(), s.torque_schedule(), [&](size_t begin, size_t count) {
    MassTimes(tree, q_all.Slice(begin, count), velocities.Slice(begin, count),
              momentum.Slice(begin, count), s.DynamicsScratch(begin));
    for (size_t r = begin; r < begin + count; ++r) {
      double twice_kinetic = 0.0;
      for (size_t k = 0; k < n; ++k) {
        twice_kinetic += double(velocities.Array(k)[r]) * momentum.Array(k)[r];
      }
      kinetic[r] = static_cast<float>(0.5 * twice_kinetic);
      double energy = 0.0;
      for (const RigidBody& body : bodies) {
        const auto pose = [&](size_t k) {
          return double(poses.Array(kPoseArrays * body.link + k)[r]);
        };
        const frame_math::Mat3 rotation =
            frame_math::RotationOf({pose(3), pose(4), pose(5), pose(6)});
        for (int k = 0; k < 3; ++k) {
          const double c = pose(k) + rotation[3 * k] * body.com[0] +
                           rotation[3 * k + 1] * body.com[1] + rotation[3 * k + 2] * body.com[2];
          energy -= body.mass * g[k] * c;
        }
      }
      potential[r] = static_cast<float>(energy);
    }
    for (size_t k = 0; k < n; ++k) std::fill_n(momentum.Array(k) + begin, count, 0.0f);
  });
}

size_t RobotBatch::allocated_bytes() const {
  return state_
             ? state_->storage.allocated_bytes() + state_->jacobian.allocated_bytes() +
                   state_->dynamics_scratch.allocated_bytes() +
                   state_->resolve_staging.allocated_bytes() +
                   state_->joint_trig.allocated_bytes() + state_->contacts_out.allocated_bytes() +
                   state_->collision_frames.allocated_bytes() +
                   state_->world_frames.allocated_bytes()
             : 0;
}

double RobotBatch::BytesPerRobot() const {
  return size() == 0 ? 0.0 : static_cast<double>(allocated_bytes()) / static_cast<double>(size());
}

std::array<ConstLanesView, 7> RobotBatch::StateArrays() const {
  return {q(), qd(), q_target(), torque(), link_poses(), target_pose(), base_velocity()};
}

uint64_t RobotBatch::StateDigest(ThreadPool& pool, uint64_t first_robot) const {
  const std::array<ConstLanesView, 7> groups = StateArrays();
  std::atomic<uint64_t> digest{0};  // addition mod 2^64 commutes: any order of ranges agrees
  constexpr size_t kRobotsPerRange = 1024;
  pool.ParallelForRanges(size(), kRobotsPerRange, [&](size_t begin, size_t end) {
    uint64_t sum = 0;
    for (size_t r = begin; r < end; ++r) {
      uint64_t hash = SplitMix64(first_robot + r);
      for (const ConstLanesView& group : groups) {
        for (size_t k = 0; k < group.arrays; ++k) {
          hash = SplitMix64(hash ^ CanonicalFloatBits(std::bit_cast<uint32_t>(group.Array(k)[r])));
        }
      }
      sum += hash;
    }
    digest.fetch_add(sum, std::memory_order_relaxed);
  });
  return digest.load();
}

uint64_t RobotBatch::StateHash() const {
  StateHasher hasher;
  for (const ConstLanesView& arrays : StateArrays()) {
    for (size_t k = 0; k < arrays.arrays; ++k) {
      hasher.Add(ConstFloatView{arrays.Array(k), arrays.count});
    }
  }
  return hasher.Digest();
}

}  // namespace swarm
