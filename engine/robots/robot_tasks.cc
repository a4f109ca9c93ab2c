#include "swarm/robots/robot_tasks.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numbers>
#include <span>

#include "engine/robots/frame_math.h"
#include "swarm/core/exact_sum.h"
#include "swarm/core/state_hash.h"
#include "swarm/core/text.h"
#include "swarm/kernels/robots/robot_kinematics_reference.h"

namespace swarm {
namespace {

// Hash streams: one per kind of random number, so that no two draws share a key.
enum : uint32_t {
  kStreamGoal = 1,
  kStreamStart = 2,
  kStreamPhase = 3,
  kStreamRandomTarget = 4,
  kStreamStand = 5
};

// Robots per block when filling or measuring over the pool: a block touches every array of its
// robots, a few hundred KB at most.
constexpr size_t kRobotsPerBlock = 4096;

template <class Body>
void ForEachRobotBlock(ThreadPool& pool, size_t robots, const Body& body) {
  pool.ParallelForRanges(robots, kRobotsPerBlock, body);
}

bool IsUnlimited(float value) { return !std::isfinite(value) || std::fabs(value) >= 1e29f; }

float Clamp(float value, float lower, float upper) {
  if (value < lower) return lower;
  if (value > upper) return upper;
  return value;
}

float Sample(const JointSampleRange& range, float u) {
  return Clamp(range.lower + u * (range.upper - range.lower), range.lower, range.upper);
}

std::vector<JointControl> ControlOf(const RobotBatch& batch) {
  const std::vector<JointControl>& control = batch.config().control;
  if (control.size() == batch.model().dof()) return control;
  return DefaultJointControl(batch.model());
}

// Writes value(robot, k) into joint arrays [first, first + dof) of `view`.
template <class Value>
void FillJoints(ThreadPool& pool, const LanesView& view, size_t first, size_t dof,
                const Value& value) {
  ForEachRobotBlock(pool, view.count, [&](size_t begin, size_t end) {
    for (size_t k = 0; k < dof; ++k) {
      float* out = view.Array(first + k);
      for (size_t r = begin; r < end; ++r) out[r] = value(r, k);
    }
  });
}

void CopyArrays(ThreadPool& pool, const ConstLanesView& from, size_t from_first,
                const LanesView& to, size_t to_first, size_t arrays) {
  ForEachRobotBlock(pool, to.count, [&](size_t begin, size_t end) {
    for (size_t a = 0; a < arrays; ++a) {
      std::copy(from.Array(from_first + a) + begin, from.Array(from_first + a) + end,
                to.Array(to_first + a) + begin);
    }
  });
}

std::string Quote(std::string_view text) {
  std::string quoted(1, '\'');
  quoted.append(text);
  quoted.push_back('\'');
  return quoted;
}

// The stand task's posture: params.stand_posture, or zero clamped into the limits; every value
// finite and within its joint's limits.
Result<std::vector<float>> StandPosture(const RobotModel& model,
                                        std::span<const JointControl> control,
                                        const std::vector<float>& requested) {
  if (!requested.empty() && requested.size() != model.dof()) {
    return InvalidArgument("robot task: stand_posture has " + std::to_string(requested.size()) +
                           " values, expected one per independent joint of " + Quote(model.name) +
                           " (" + std::to_string(model.dof()) + ")");
  }
  std::vector<float> posture(model.dof());
  for (size_t k = 0; k < model.dof(); ++k) {
    const JointControl& joint = control[k];
    if (requested.empty()) {
      posture[k] = Clamp(0.0f, joint.lower, joint.upper);
      continue;
    }
    posture[k] = requested[k];
    if (!std::isfinite(posture[k]) || posture[k] < joint.lower || posture[k] > joint.upper) {
      return InvalidArgument("robot task: stand_posture[" + std::to_string(k) + "] (joint " +
                             Quote(model.joints[model.dof_joints[k]].name) + ") is " +
                             NumberText(posture[k]) + ", outside the joint's limits [" +
                             NumberText(joint.lower) + ", " + NumberText(joint.upper) + "]");
    }
  }
  return posture;
}

// The base height at which the posture's lowest contact point touches the ground, for a level
// base (the forward kinematics of one robot with its base at the origin).
// The lowest z of a link's collision shape (a sphere, capsule, cylinder or box; others: +inf)
// with the link at `pose` (px py pz qx qy qz qw): its support point along -z.
double LowestPointOf(const CollisionShape& shape, const float* pose) {
  namespace fm = frame_math;
  const fm::Mat3 link = fm::RotationOf({pose[3], pose[4], pose[5], pose[6]});
  const fm::Vec3 offset = fm::Rotate(link, shape.position);
  const fm::Mat3 rotation = fm::Multiply(link, fm::RotationOf(shape.quaternion));
  const double centre = pose[2] + offset[2];
  const double axis_z = std::fabs(rotation[8]);  // the shape's z axis along the world's z
  const std::array<double, 3>& size = shape.size;
  switch (shape.type) {
    case CollisionShapeType::kSphere:
      return centre - size[0];
    case CollisionShapeType::kCapsule:
      return centre - size[1] * axis_z - size[0];
    case CollisionShapeType::kCylinder:
      return centre - size[1] * axis_z - size[0] * std::sqrt(std::max(0.0, 1.0 - axis_z * axis_z));
    case CollisionShapeType::kBox:
      return centre - size[0] * std::fabs(rotation[6]) - size[1] * std::fabs(rotation[7]) -
             size[2] * axis_z;
    default:
      return std::numeric_limits<double>::infinity();
  }
}

// The base height at which the posture's lowest contact touches z = ground height (the ground
// contacts' plane): the ground contacts' spheres and the robot's shapes of the world contact
// pairs.
float StandingHeight(const RobotBatch& batch, const std::vector<float>& posture) {
  const KinematicTree& tree = batch.tree();
  std::vector<float> q(tree.q_count, 0.0f);
  q[3] = 1.0f;  // qw
  std::copy(posture.begin(), posture.end(), q.begin() + kFloatingBaseArrays);
  std::vector<float> poses(kPoseArrays * tree.link_count());
  reference::ForwardKinematics(tree, ConstLanesView{q.data(), 1, 1, q.size()},
                               LanesView{poses.data(), 1, 1, poses.size()});
  double lowest = std::numeric_limits<double>::infinity();
  const std::span<const ContactPoint> points = batch.contact_points();
  for (size_t c = 0; c < batch.ground_contact_count(); ++c) {
    lowest = std::min(lowest, double{poses[kPoseArrays * points[c].link + 2] - points[c].radius});
  }
  const CollisionModel& collisions = batch.config().collisions;
  for (uint32_t p : batch.world_contact_pairs()) {
    for (uint32_t s : {collisions.pairs[p].shape1, collisions.pairs[p].shape2}) {
      const CollisionShape& shape = collisions.shapes[s];
      if (shape.link < 0) continue;
      lowest = std::min(lowest, LowestPointOf(shape, &poses[kPoseArrays * size_t(shape.link)]));
    }
  }
  return static_cast<float>(batch.config().torque.contacts.ground.height - lowest);
}

}  // namespace

const char* RobotTaskName(RobotTask task) {
  switch (task) {
    case RobotTask::kReach:
      return "reach";
    case RobotTask::kTrack:
      return "track";
    case RobotTask::kRandom:
      return "random";
    case RobotTask::kStand:
      return "stand";
  }
  return "?";
}

Result<RobotTask> ParseRobotTask(std::string_view name) {
  for (RobotTask task :
       {RobotTask::kReach, RobotTask::kTrack, RobotTask::kRandom, RobotTask::kStand}) {
    if (name == RobotTaskName(task)) return task;
  }
  return InvalidArgument("--task: unknown task " + Quote(name) + " (expected one of " +
                         kRobotTaskNames + ")");
}

Status ValidateRobotTaskParams(const RobotTaskParams& params) {
  const auto check = [](const char* field, double value, bool positive) -> Status {
    if (!std::isfinite(value) || value < 0.0 || (positive && value == 0.0)) {
      return InvalidArgument(std::string("robot task: ") + field + " must be finite and " +
                             (positive ? "> 0" : ">= 0") + ", got " + std::to_string(value));
    }
    return {};
  };
  if (Status s = check("start_spread", params.start_spread, false); !s.ok()) return s;
  if (Status s = check("track_radius", params.track_radius, false); !s.ok()) return s;
  if (Status s = check("track_period_seconds", params.track_period_seconds, true); !s.ok()) {
    return s;
  }
  if (Status s = check("success_position_m", params.success_position_m, true); !s.ok()) return s;
  if (Status s = check("success_orientation_rad", params.success_orientation_rad, true); !s.ok()) {
    return s;
  }
  if (Status s = check("stand_spread", params.stand_spread, false); !s.ok()) return s;
  if (Status s = check("drop_height", params.drop_height, false); !s.ok()) return s;
  if (Status s = check("success_height_m", params.success_height_m, true); !s.ok()) return s;
  if (Status s = check("success_tilt_rad", params.success_tilt_rad, true); !s.ok()) return s;
  if (params.random_resample_steps == 0) {
    return InvalidArgument("robot task: random_resample_steps must be >= 1, got 0");
  }
  return {};
}

float TaskUniform(uint64_t seed, uint64_t robot, uint32_t stream, uint64_t index) {
  uint64_t h = SplitMix64(seed);
  h = SplitMix64(h ^ robot);
  h = SplitMix64(h ^ stream);
  h = SplitMix64(h ^ index);
  return static_cast<float>(h >> 40) * (1.0f / 16777216.0f);
}

std::vector<JointSampleRange> JointSampleRanges(const RobotModel& model,
                                                std::span<const JointControl> control) {
  std::vector<JointSampleRange> ranges(model.dof());
  for (size_t k = 0; k < model.dof(); ++k) {
    const bool prismatic = model.joints[model.dof_joints[k]].type == RobotJointType::kPrismatic;
    JointSampleRange& range = ranges[k];
    range.spread_scale = prismatic ? 0.1f : 1.0f;
    const float default_half = prismatic ? 0.1f : std::numbers::pi_v<float>;
    const JointControl& joint = control[k];
    range.lower = IsUnlimited(joint.lower) ? -default_half : joint.lower;
    range.upper = IsUnlimited(joint.upper) ? default_half : joint.upper;
    if (range.upper < range.lower) range.upper = range.lower;
  }
  return ranges;
}

float GoalJointValue(std::span<const JointSampleRange> ranges, uint64_t seed, size_t robot,
                     size_t joint) {
  return Sample(ranges[joint], TaskUniform(seed, robot, kStreamGoal, joint));
}

float StartJointValue(std::span<const JointSampleRange> ranges, const RobotTaskParams& params,
                      size_t robot, size_t joint) {
  const JointSampleRange& range = ranges[joint];
  const float goal = GoalJointValue(ranges, params.seed, robot, joint);
  const float u = TaskUniform(params.seed, robot, kStreamStart, joint);
  const float offset = params.start_spread * range.spread_scale * (2.0f * u - 1.0f);
  return Clamp(goal + offset, range.lower, range.upper);
}

float RandomTargetJointValue(std::span<const JointSampleRange> ranges, uint64_t seed, size_t robot,
                             size_t joint, uint64_t epoch) {
  // Joint columns stay far below 2^20, so (epoch, joint) keys never collide.
  return Sample(ranges[joint],
                TaskUniform(seed, robot, kStreamRandomTarget, (epoch << 20) | joint));
}

Result<RobotTaskRunner> RobotTaskRunner::Create(MemoryAccountant& accountant, RobotBatch& batch,
                                                const RobotTaskParams& params) {
  if (Status s = ValidateRobotTaskParams(params); !s.ok()) return s;
  if (params.torque_control && batch.dynamics_tree() == nullptr) {
    return InvalidArgument(
        "robot task: torque control needs a batch created in torque mode "
        "(RobotBatchConfig::torque.enabled)");
  }
  if (params.torque_control && params.controller == TorqueController::kComputedTorque &&
      batch.model().floating_base) {
    return InvalidArgument("robot task: computed torque needs a fixed base; use pd-gravity");
  }
  RobotTaskRunner runner;
  runner.batch_ = &batch;
  runner.params_ = params;
  const std::vector<JointControl> control = ControlOf(batch);
  runner.ranges_ = JointSampleRanges(batch.model(), control);
  if (params.task == RobotTask::kStand) {
    if (!params.torque_control || !batch.model().floating_base || batch.contact_points().empty()) {
      return InvalidArgument(
          "robot task: stand needs a floating-base robot under torque control with ground "
          "contacts (RobotBatchConfig::torque.contacts) or world contacts "
          "(TorqueModeConfig::world_contacts)");
    }
    Result<std::vector<float>> posture = StandPosture(batch.model(), control, params.stand_posture);
    if (!posture.ok()) return posture.status();
    runner.posture_ = std::move(posture).value();
    runner.standing_height_ = StandingHeight(batch, runner.posture_);
  }
  if (params.task == RobotTask::kTrack) {
    for (FloatArray* array : {&runner.center_x_, &runner.center_y_, &runner.center_z_,
                              &runner.phase_cos_, &runner.phase_sin_}) {
      Result<FloatArray> created =
          FloatArray::Create(accountant, batch.size(), MemoryCategory::kRobots);
      if (!created.ok()) return created.status();
      *array = std::move(created).value();
    }
  }
  return runner;
}

void RobotTaskRunner::Start(ThreadPool& pool) {
  RobotBatch& batch = *batch_;
  const size_t dof = batch.model().dof();
  const size_t first = batch.tree().joint_q_begin();
  const LanesView q = batch.q();
  if (batch.tree().floating_base) {
    // x y z qw qx qy qz: the identity pose.
    FillJoints(pool, q, 0, kFloatingBaseArrays,
               [](size_t, size_t k) { return k == 3 ? 1.0f : 0.0f; });
  }
  const uint64_t seed = params_.seed;
  const size_t robot0 = params_.first_robot;  // this batch's robot 0 among all robots of the run
  if (params_.task == RobotTask::kStand) {
    StartStanding(pool);
    return;
  }
  if (params_.task != RobotTask::kRandom) {
    // The goal pose: forward kinematics of the goal configuration.
    FillJoints(pool, q, first, dof,
               [&](size_t r, size_t k) { return GoalJointValue(ranges_, seed, robot0 + r, k); });
    batch.ForwardKinematics(pool);
    CopyArrays(pool, batch.link_poses(), kPoseArrays * batch.end_effector(), batch.target_pose(), 0,
               kPoseArrays);
    FillJoints(pool, q, first, dof, [&](size_t r, size_t k) {
      return StartJointValue(ranges_, params_, robot0 + r, k);
    });
  } else {
    FillJoints(pool, q, first, dof,
               [&](size_t r, size_t k) { return GoalJointValue(ranges_, seed, robot0 + r, k); });
  }
  FillJoints(pool, batch.qd(), 0, dof, [](size_t, size_t) { return 0.0f; });
  FillJoints(pool, batch.base_velocity(), 0, batch.base_velocity().arrays,
             [](size_t, size_t) { return 0.0f; });
  if (params_.task == RobotTask::kRandom) {
    FillJoints(pool, batch.q_target(), 0, dof, [&](size_t r, size_t k) {
      return RandomTargetJointValue(ranges_, seed, robot0 + r, k, 0);
    });
  } else {
    CopyArrays(pool, batch.q(), first, batch.q_target(), 0, dof);
  }
  if (params_.task == RobotTask::kTrack) {
    const ConstLanesView goal = batch.target_pose();
    ForEachRobotBlock(pool, batch.size(), [&](size_t begin, size_t end) {
      for (size_t r = begin; r < end; ++r) {
        center_x_[r] = goal.Array(0)[r];
        center_y_[r] = goal.Array(1)[r];
        center_z_[r] = goal.Array(2)[r];
        const double phase =
            2.0 * std::numbers::pi * double(TaskUniform(seed, robot0 + r, kStreamPhase, 0));
        phase_cos_[r] = static_cast<float>(std::cos(phase));
        phase_sin_[r] = static_cast<float>(std::sin(phase));
      }
    });
    MoveTrackTargets(pool, 0.0);
  }
  batch.ForwardKinematics(pool);
}

void RobotTaskRunner::StartStanding(ThreadPool& pool) {
  RobotBatch& batch = *batch_;
  const size_t dof = batch.model().dof();
  const float base_height = standing_height_ + params_.drop_height;
  // x y z qw qx qy qz: level, raised so that the posture's lowest contact is drop_height up.
  FillJoints(pool, batch.q(), 0, kFloatingBaseArrays, [&](size_t, size_t k) {
    return k == 2 ? base_height : k == 3 ? 1.0f : 0.0f;
  });
  FillJoints(pool, batch.q(), kFloatingBaseArrays, dof, [&](size_t r, size_t k) {
    const JointSampleRange& range = ranges_[k];
    const float u = TaskUniform(params_.seed, params_.first_robot + r, kStreamStand, k);
    const float offset = params_.stand_spread * range.spread_scale * (2.0f * u - 1.0f);
    return Clamp(posture_[k] + offset, range.lower, range.upper);
  });
  FillJoints(pool, batch.q_target(), 0, dof, [&](size_t, size_t k) { return posture_[k]; });
  for (const LanesView& zero :
       {batch.qd(), batch.base_velocity(), batch.qd_target(), batch.qdd_target()}) {
    FillJoints(pool, zero, 0, zero.arrays, [](size_t, size_t) { return 0.0f; });
  }
  // The goal: the base level at its standing height above where it started.
  FillJoints(pool, batch.target_pose(), 0, kPoseArrays, [&](size_t, size_t k) {
    return k == 2 ? standing_height_ : k == 6 ? 1.0f : 0.0f;
  });
  batch.ForwardKinematics(pool);
}

void RobotTaskRunner::MoveTrackTargets(ThreadPool& pool, double time_seconds) {
  // (cos, sin)(w t + phase) by angle addition from one (cos, sin)(w t) shared by all robots.
  const double angle = 2.0 * std::numbers::pi * time_seconds / params_.track_period_seconds;
  const float c = static_cast<float>(std::cos(angle));
  const float s = static_cast<float>(std::sin(angle));
  const float radius = params_.track_radius;
  const LanesView target = batch_->target_pose();
  ForEachRobotBlock(pool, batch_->size(), [&](size_t begin, size_t end) {
    float* x = target.Array(0);
    float* y = target.Array(1);
    float* z = target.Array(2);
    for (size_t r = begin; r < end; ++r) {
      const float cos_total = c * phase_cos_[r] - s * phase_sin_[r];
      const float sin_total = s * phase_cos_[r] + c * phase_sin_[r];
      x[r] = center_x_[r] + radius * cos_total;
      y[r] = center_y_[r] + radius * sin_total;
      z[r] = center_z_[r];
    }
  });
}

Status RobotTaskRunner::Step(ThreadPool& pool, uint64_t step, float dt) {
  RobotBatch& batch = *batch_;
  const auto control_step = [&] {
    return params_.torque_control ? batch.TorqueStep(pool, dt, params_.controller)
                                  : batch.ControlStep(pool, dt);
  };
  if (!(dt > 0.0f) || !std::isfinite(dt)) return control_step();
  switch (params_.task) {
    case RobotTask::kReach:
      batch.IkStep(pool);
      break;
    case RobotTask::kTrack:
      MoveTrackTargets(pool, double(step + 1) * double(dt));
      batch.IkStep(pool);
      break;
    case RobotTask::kStand:
      break;
    case RobotTask::kRandom:
      if (step > 0 && step % params_.random_resample_steps == 0) {
        const uint64_t epoch = step / params_.random_resample_steps;
        FillJoints(pool, batch.q_target(), 0, batch.model().dof(), [&](size_t r, size_t k) {
          return RandomTargetJointValue(ranges_, params_.seed, params_.first_robot + r, k, epoch);
        });
      }
      break;
  }
  return control_step();
}

void RobotTaskRunner::MeasureErrors(ThreadPool& pool, std::span<float> position_error,
                                    std::span<float> orientation_error,
                                    std::span<float> joint_error) const {
  const RobotBatch& batch = *batch_;
  SWARM_ASSERT(position_error.size() == batch.size() && orientation_error.size() == batch.size() &&
               joint_error.size() == batch.size());
  const ConstLanesView poses = batch.link_poses();
  const ConstLanesView target = batch.target_pose();
  const ConstLanesView q = batch.q();
  const ConstLanesView q_target = batch.q_target();
  const size_t link = kPoseArrays * batch.end_effector();
  const size_t first = batch.tree().joint_q_begin();
  const size_t dof = batch.model().dof();
  const bool stand = params_.task == RobotTask::kStand;
  ForEachRobotBlock(pool, batch.size(), [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) {
      float worst = 0.0f;
      for (size_t k = 0; k < dof; ++k) {
        const float d = std::fabs(q.Array(first + k)[r] - q_target.Array(k)[r]);
        if (d > worst) worst = d;
      }
      joint_error[r] = worst;
      if (stand) {
        // The base link's height error, and the angle between its z axis and the world's:
        // cos = 1 - 2 (qx^2 + qy^2) for a unit quaternion.
        position_error[r] = std::fabs(poses.Array(2)[r] - target.Array(2)[r]);
        const double x = poses.Array(3)[r], y = poses.Array(4)[r];
        orientation_error[r] =
            static_cast<float>(std::acos(std::clamp(1.0 - 2.0 * (x * x + y * y), -1.0, 1.0)));
        continue;
      }
      double squared = 0.0;
      for (size_t i = 0; i < 3; ++i) {
        const double d = double(poses.Array(link + i)[r]) - double(target.Array(i)[r]);
        squared += d * d;
      }
      position_error[r] = static_cast<float>(std::sqrt(squared));
      // The angle of the relative rotation: 2 acos |<q_link, q_target>| for unit quaternions.
      double dot = 0.0, link_norm = 0.0, target_norm = 0.0;
      for (size_t i = 3; i < kPoseArrays; ++i) {
        const double a = poses.Array(link + i)[r];
        const double b = target.Array(i)[r];
        dot += a * b;
        link_norm += a * a;
        target_norm += b * b;
      }
      const double cosine = std::fabs(dot) / std::sqrt(link_norm * target_norm);
      orientation_error[r] = static_cast<float>(2.0 * std::acos(std::min(1.0, cosine)));
    }
  });
}

TaskErrorTotals RobotTaskRunner::Totals(std::span<const float> position_error,
                                        std::span<const float> orientation_error,
                                        std::span<const float> joint_error) const {
  // Orientation counts towards success only when IK steers it.
  const bool steers_orientation = batch_->config().ik.orientation_weight > 0.0f;
  TaskErrorTotals totals;
  totals.robots = position_error.size();
  for (size_t r = 0; r < totals.robots; ++r) {
    totals.position_m.Add(position_error[r]);
    totals.orientation_rad.Add(orientation_error[r]);
    totals.joint_error.Add(joint_error[r]);
    totals.max_position_m = std::max<double>(totals.max_position_m, position_error[r]);
    totals.max_orientation_rad = std::max<double>(totals.max_orientation_rad, orientation_error[r]);
    totals.max_joint_error = std::max<double>(totals.max_joint_error, joint_error[r]);
    if (params_.task == RobotTask::kStand) {
      totals.successes += position_error[r] < params_.success_height_m &&
                          orientation_error[r] < params_.success_tilt_rad;
    } else if (position_error[r] < params_.success_position_m &&
               (!steers_orientation || orientation_error[r] < params_.success_orientation_rad)) {
      ++totals.successes;
    }
  }
  return totals;
}

void TaskErrorTotals::Merge(const TaskErrorTotals& other) {
  robots += other.robots;
  successes += other.successes;
  position_m.Merge(other.position_m);
  orientation_rad.Merge(other.orientation_rad);
  joint_error.Merge(other.joint_error);
  max_position_m = std::max(max_position_m, other.max_position_m);
  max_orientation_rad = std::max(max_orientation_rad, other.max_orientation_rad);
  max_joint_error = std::max(max_joint_error, other.max_joint_error);
}

TaskErrorSummary TaskErrorTotals::Summary() const {
  TaskErrorSummary summary;
  summary.robots = robots;
  summary.successes = successes;
  summary.max_position_m = max_position_m;
  summary.max_orientation_rad = max_orientation_rad;
  summary.max_joint_error = max_joint_error;
  if (robots > 0) {
    const double n = double(robots);
    summary.mean_position_m = position_m.Value() / n;
    summary.mean_orientation_rad = orientation_rad.Value() / n;
    summary.mean_joint_error = joint_error.Value() / n;
  }
  return summary;
}

std::array<uint64_t, TaskErrorTotals::kWords> TaskErrorTotals::Words() const {
  std::array<uint64_t, kWords> words{};
  auto out = words.begin();
  *out++ = robots;
  *out++ = successes;
  for (const ExactSum* sum : {&position_m, &orientation_rad, &joint_error}) {
    out = std::ranges::copy(sum->Words(), out).out;
  }
  for (double max : {max_position_m, max_orientation_rad, max_joint_error}) {
    *out++ = std::bit_cast<uint64_t>(max);
  }
  return words;
}

TaskErrorTotals TaskErrorTotals::FromWords(std::span<const uint64_t, kWords> words) {
  TaskErrorTotals totals;
  totals.robots = static_cast<size_t>(words[0]);
  totals.successes = static_cast<size_t>(words[1]);
  size_t next = 2;
  for (ExactSum* sum : {&totals.position_m, &totals.orientation_rad, &totals.joint_error}) {
    *sum = ExactSum::FromWords(words.subspan(next).first<ExactSum::kWords>());
    next += ExactSum::kWords;
  }
  for (double* max :
       {&totals.max_position_m, &totals.max_orientation_rad, &totals.max_joint_error}) {
    *max = std::bit_cast<double>(words[next++]);
  }
  return totals;
}

}  // namespace swarm
