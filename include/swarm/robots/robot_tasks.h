// Task generators for robot batches: what each robot of a RobotBatch is asked to do, and how well
// it did. These drive swarm-robots and give RL or planning users a ready-made workload.
//
//   reach   a goal pose of the end effector, taken from the forward kinematics of a random
//           configuration within the joint limits (so it is reachable by construction); the
//           robot starts from that configuration perturbed by up to start_spread per joint and
//           every step runs an IK step (q_target toward the goal) then a PD control step.
//           Success: final position error < success_position_m and, when IK steers the
//           orientation (IkParams::orientation_weight > 0), orientation error
//           < success_orientation_rad.
//   track   the goal position moves on a horizontal circle of track_radius around such a pose,
//           one turn per track_period_seconds, each robot at its own phase; IK + PD every step.
//   random  random joint targets within the limits, resampled every random_resample_steps
//           steps and tracked by the PD controller (no IK).
//   stand   floating-base robots in torque mode with ground contacts or world contacts: each
//           starts level with its joints at stand_posture plus up to stand_spread per joint and
//           its lowest contact (a ground contact's sphere, or the lowest point of a shape of a
//           world contact pair) drop_height above the ground contacts' plane (z = 0 with world
//           contacts alone), falls, and holds the posture by PD + gravity
//           compensation. Success: the base height within success_height_m of the posture's
//           standing height (its lowest contact on the ground) and the tilt of the base's z axis
//           under success_tilt_rad.
//
// Determinism: every random number is a hash of (seed, robot index, stream, index) (splitmix64),
// never of the thread, tile or batch size, so robot r does the same thing alone or among 1e5, on
// any thread count and SIMD target, and in a batch of its own range of robots (first_robot). The
// per-step circle uses one cos/sin of the step's time for all robots and the angle-addition formula
// per robot, so no robot evaluates a transcendental function of its own.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "swarm/core/buffer.h"
#include "swarm/core/exact_sum.h"
#include "swarm/core/memory.h"
#include "swarm/core/status.h"
#include "swarm/core/thread_pool.h"
#include "swarm/robots/robot_batch.h"

namespace swarm {

enum class RobotTask : uint8_t { kReach, kTrack, kRandom, kStand };

const char* RobotTaskName(RobotTask task);  // "reach", "track", "random", "stand"
// Parses a name RobotTaskName returns; errors name the value and list the tasks.
Result<RobotTask> ParseRobotTask(std::string_view name);
inline constexpr const char* kRobotTaskNames = "reach, track, random, stand";

struct RobotTaskParams {
  RobotTask task = RobotTask::kReach;
  uint64_t seed = 1;
  // The index of the batch's robot 0 among all robots of a run split into batches: robot r of
  // the batch draws its numbers as robot first_robot + r, so batches of consecutive ranges (one
  // per process of an MPI run, say) do exactly what one batch of all the robots does.
  uint64_t first_robot = 0;
  // reach and track: start q = goal q + U(-start_spread, start_spread) per joint, clamped into the
  // limits (radians for revolute joints; a tenth of it in metres for prismatic ones).
  float start_spread = 0.5f;
  float track_radius = 0.05f;         // metres
  float track_period_seconds = 2.0f;  // one turn of the circle
  uint64_t random_resample_steps = 250;
  float success_position_m = 0.01f;
  float success_orientation_rad = 0.1f;
  // stand: the posture (dof values in q order; empty: zero clamped into the limits), the
  // perturbation of the start (radians; a tenth in metres for prismatic joints), the lowest
  // contact's height above the ground at the start, and the success thresholds.
  std::vector<float> stand_posture;
  float stand_spread = 0.05f;
  float drop_height = 0.1f;
  float success_height_m = 0.02f;
  float success_tilt_rad = 0.0872665f;  // 5 degrees
  // How the robots follow the task: the kinematic ControlStep (default), or TorqueStep with
  // `controller` (the batch must be created in torque mode, RobotBatchConfig::torque).
  bool torque_control = false;
  TorqueController controller = TorqueController::kPdGravity;
};

// Checks ranges (finite, positive where needed); errors name the field and the value.
Status ValidateRobotTaskParams(const RobotTaskParams& params);

// A uniform float in [0, 1) (24 random bits) from the hash of (seed, robot, stream, index).
float TaskUniform(uint64_t seed, uint64_t robot, uint32_t stream, uint64_t index);

// The range random joint values are drawn from, per independent joint (q order after a floating
// base): the position limits, or [-pi, pi] (revolute) / [-0.1, 0.1] m (prismatic) if unlimited.
struct JointSampleRange {
  float lower = 0.0f;
  float upper = 0.0f;
  float spread_scale = 1.0f;  // 1 for revolute joints, 0.1 (metres per radian) for prismatic
};
std::vector<JointSampleRange> JointSampleRanges(const RobotModel& model,
                                                std::span<const JointControl> control);

// The joint values the tasks draw for robot `robot`, joint column `joint` (q order after a
// floating base), from the ranges above:
//   goal: lower + u (upper - lower): reach and track take their goal pose from the FK of these
//         values; random starts from them.
//   start (reach, track): goal + start_spread * spread_scale * (2u' - 1), clamped to the range.
//   random target of epoch e (steps [e K, (e + 1) K), K = random_resample_steps): like goal with
//         its own u.
float GoalJointValue(std::span<const JointSampleRange> ranges, uint64_t seed, size_t robot,
                     size_t joint);
float StartJointValue(std::span<const JointSampleRange> ranges, const RobotTaskParams& params,
                      size_t robot, size_t joint);
float RandomTargetJointValue(std::span<const JointSampleRange> ranges, uint64_t seed, size_t robot,
                             size_t joint, uint64_t epoch);

// Per-robot final errors, and their summary.
struct TaskErrorSummary {
  size_t robots = 0;
  size_t successes = 0;          // within the success thresholds (meaningful for reach)
  double mean_position_m = 0.0;  // reach, track: end-effector position error
  double max_position_m = 0.0;
  double mean_orientation_rad = 0.0;
  double max_orientation_rad = 0.0;
  double mean_joint_error = 0.0;  // every task: max over joints of |q - q_target|
  double max_joint_error = 0.0;
  double SuccessRate() const { return robots ? double(successes) / double(robots) : 0.0; }
};

// What a summary is made of, before the means: counts, exact sums and maxima. The totals of
// batches of consecutive robot ranges merge, in any order, into the totals of one batch of all
// the robots, so a run split among processes summarizes to the same bits.
struct TaskErrorTotals {
  size_t robots = 0;
  size_t successes = 0;
  ExactSum position_m, orientation_rad, joint_error;
  double max_position_m = 0.0, max_orientation_rad = 0.0, max_joint_error = 0.0;

  void Merge(const TaskErrorTotals& other);
  TaskErrorSummary Summary() const;  // means: the exact sums, rounded once, over robots

  // The totals as words, and back, for moving them between processes (MPI_UINT64_T): the two
  // counts, the three sums' ExactSum words, then the three maxima's IEEE bits.
  static constexpr size_t kWords = 2 + 3 * ExactSum::kWords + 3;
  std::array<uint64_t, kWords> Words() const;
  static TaskErrorTotals FromWords(std::span<const uint64_t, kWords> words);
};

class RobotTaskRunner {
 public:
  // Allocates what the task keeps per robot (track: the circle centres and phases) under
  // MemoryCategory::kRobots. The runner keeps a pointer to the batch: the batch must outlive it
  // and stay where it is (not be moved). Errors: the params' ranges; torque control on a
  // kinematic batch; computed torque on a floating base; stand without torque control, a
  // floating base or contacts, or with a posture of the wrong size or outside the limits.
  static Result<RobotTaskRunner> Create(MemoryAccountant& accountant, RobotBatch& batch,
                                        const RobotTaskParams& params);
  RobotTaskRunner() = default;

  const RobotTaskParams& params() const { return params_; }
  const std::vector<JointSampleRange>& ranges() const { return ranges_; }

  // Writes every robot's starting state (q; a floating base at the identity, stand: raised to
  // its drop height; qd = 0; q_target = q), its goal (target_pose for reach and track, q_target
  // for random; stand: q_target = the posture and target_pose the standing base pose) and the
  // link poses of the starting state.
  void Start(ThreadPool& pool);

  // Step `step` (0, 1, 2, ... after Start) of dt seconds: moves the track goal to time
  // (step + 1) * dt, resamples random targets when step is a positive multiple of
  // random_resample_steps, runs IkStep for reach and track, then ControlStep (TorqueStep with the
  // params' controller under torque_control). An invalid dt changes nothing and returns the
  // batch's error.
  Status Step(ThreadPool& pool, uint64_t step, float dt);

  // Per robot: end-effector position error (m) and orientation error (rad, the angle of
  // q_target q_link^*) against target_pose (stand: the base's height error and its tilt), and
  // max_j |q_j - q_target_j|. Spans have batch.size() entries.
  void MeasureErrors(ThreadPool& pool, std::span<float> position_error,
                     std::span<float> orientation_error, std::span<float> joint_error) const;
  // The totals of per-robot errors (any number of robots: a batch's, or a range of them),
  // and their summary, Totals(...).Summary(). Exact sums: the same result for any thread count,
  // order or split.
  TaskErrorTotals Totals(std::span<const float> position_error,
                         std::span<const float> orientation_error,
                         std::span<const float> joint_error) const;
  TaskErrorSummary Summarize(std::span<const float> position_error,
                             std::span<const float> orientation_error,
                             std::span<const float> joint_error) const {
    return Totals(position_error, orientation_error, joint_error).Summary();
  }

 private:
  void MoveTrackTargets(ThreadPool& pool, double time_seconds);
  void StartStanding(ThreadPool& pool);

  RobotBatch* batch_ = nullptr;
  RobotTaskParams params_;
  std::vector<JointSampleRange> ranges_;
  std::vector<float> posture_;    // stand: the joint set points
  float standing_height_ = 0.0f;  // stand: base height with the posture's lowest contact on the
                                  // ground
  // track: per robot circle centre (x, y, z) and cos/sin of its phase.
  FloatArray center_x_, center_y_, center_z_, phase_cos_, phase_sin_;
};

}  // namespace swarm
