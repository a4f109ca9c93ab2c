// swarm-robots' command lines, one parser per command, each checking every flag before anything
// runs (a bad command line yields one message naming the flag; the program exits with 2):
//
//   swarm-robots [run] ROBOT [--robots R] [--steps N] [--dt S] [--task reach|track|random]
//       [--seed S] [--threads N] [--simd X] [--out run.npy] [--record-every K]
//       [--record-robots M] [--max-output 1G] [--memory-limit 96M] ...
//   swarm-robots info ROBOT [--json]
//   swarm-robots fk ROBOT --q q.npy --out poses.npy [--threads N] [--simd X]
//   swarm-robots dynamics ROBOT --q q.npy --qd qd.npy [--tau tau.npy] [--mass M.npy]
//       [--bias h.npy] [--qdd qdd.npy] [--gravity gx,gy,gz] [--threads N]
// where ROBOT is --urdf F [--floating-base] or --mjcf F (RobotSource).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "swarm/core/memory.h"
#include "swarm/core/simd.h"
#include "swarm/core/status.h"
#include "swarm/robots/mjcf_robot.h"
#include "swarm/robots/robot_batch.h"
#include "swarm/robots/robot_model.h"
#include "swarm/robots/robot_tasks.h"

namespace swarm {

enum class RobotsCommand { kRun, kInfo, kFk, kDynamics, kHelp };

// The command named by argv[1] ("run", "info", "fk", "dynamics"; a flag or nothing means run;
// "--help" or "help" alone means kHelp) and the index of the first argument after it.
struct CommandLine {
  RobotsCommand command = RobotsCommand::kRun;
  int first_argument = 1;
};
Result<CommandLine> ParseCommand(int argc, const char* const* argv);
// The text `swarm-robots --help` prints: the commands and where their flags are described.
std::string CommandsUsage();

inline constexpr uint64_t kMaxRobots = uint64_t{1} << 28;

// Where a command's robot comes from: a URDF file (--urdf, with --floating-base for a free root)
// or an MJCF file (--mjcf, whose free joint says whether the base floats), exactly one; each with
// its size limit (--max-urdf-bytes, --max-mjcf-bytes: an MJCF's files together).
struct RobotSource {
  std::string urdf, mjcf;
  bool floating_base = false;
  size_t max_urdf_bytes = kUrdfMaxBytes;
  size_t max_mjcf_bytes = kMjcfDefaultMaxBytes;
  // The given file's flag and path.
  const char* flag() const { return mjcf.empty() ? "--urdf" : "--mjcf"; }
  const std::string& path() const { return mjcf.empty() ? urdf : mjcf; }
};
inline constexpr size_t kDefaultMaxOutputBytes = size_t{1} << 30;

struct RunOptions {
  RobotSource source;
  std::string end_effector;  // link name; empty: the model's deepest link
  uint64_t robots = 1000;
  uint64_t steps = 1000;
  double dt = 0.002;
  RobotTaskParams task;
  uint64_t threads = 1;
  SimdTarget simd{0, "auto", "auto"};
  size_t memory_limit = kNoBudget;
  std::string out;  // q trajectory .npy; empty: nothing written
  uint64_t record_every = 10;
  uint64_t record_robots = 1000;  // clamped to robots; 0: all
  size_t max_output = kDefaultMaxOutputBytes;
  bool progress = true;
  // --control torque: rigid-body dynamics with task.controller (task.torque_control), a rotor
  // inertia of `armature` on every joint and `gravity` (an MJCF file's own armature, gravity and
  // joint-limit softness instead).
  double armature = 0.1;
  double gravity[3] = {0.0, 0.0, -9.81};
  TorqueIntegrator integrator = TorqueIntegrator::kSemiImplicitEuler;
  // Ground contacts (torque control): at contact_links (empty: the leaf links), with the
  // parameters of swarm/kernels/robots/robot_contact.h.
  bool ground_contacts = false;
  // An MJCF robot's shapes against the file's world shapes (its floor), with the file's contact
  // parameters (TorqueModeConfig::world_contacts), torque control.
  bool world_contacts = false;
  // With world contacts: a heightfield (.npy or PNG, swarm/robots/heightfield.h) fixed in the
  // world, centred on the origin, x in [-terrain_size[0], +], y in [-terrain_size[1], +], its
  // heights normalised to [0, terrain_size[2]] above z = 0 (MuJoCo's hfield); "" for none.
  std::string terrain;
  double terrain_size[3] = {4.0, 4.0, 0.1};
  // PD gains of every joint; negative: DefaultJointControl's.
  double kp = -1.0, kd = -1.0;
  std::vector<std::string> contact_links;
  double contact_radius = 0.0;
  // The contacts' and the joint limits' soft constraints (swarm/kernels/robots/soft_constraint.h):
  // time constant and damping ratio (MuJoCo's solref); the impedance keeps its defaults. Then
  // TorqueModeConfig's limit tolerance (how far a joint's whole effort limit may push it past a
  // limit) and joint speed cap. The defaults are the library's, written as the decimals --help
  // prints (checked below).
  double ground_time_constant = 0.02;
  double ground_damping_ratio = 1.0;
  double ground_friction = 0.8;
  double limit_time_constant = 0.02;
  double limit_damping_ratio = 1.0;
  double limit_tolerance = 0.01;
  double max_joint_speed = 100.0;
  bool help = false;
  std::string usage;
  // A new field that changes what a run computes belongs in RunFingerprintText too.
};

static_assert(float(RunOptions{}.ground_time_constant) == SoftConstraint{}.time_constant &&
                  float(RunOptions{}.ground_damping_ratio) == SoftConstraint{}.damping_ratio &&
                  float(RunOptions{}.ground_friction) == GroundContact{}.friction &&
                  float(RunOptions{}.limit_time_constant) == SoftConstraint{}.time_constant &&
                  float(RunOptions{}.limit_damping_ratio) == SoftConstraint{}.damping_ratio &&
                  float(RunOptions{}.limit_tolerance) == TorqueModeConfig{}.limit_tolerance &&
                  float(RunOptions{}.max_joint_speed) == TorqueModeConfig{}.max_joint_speed,
              "swarm-robots run's defaults are the library's");

// The options that make a run what it is, as text: everything but the process's own resources
// (--threads, --simd, --memory-limit, --no-progress, --max-urdf-bytes, --max-mjcf-bytes), where
// files are (--urdf's or --mjcf's path: the model files' bytes are compared instead; --out's
// path and --max-output, which only rank
// 0 uses) and the help. Every MPI rank of a sharded run must have the same.
std::string RunFingerprintText(const RunOptions& options);

struct InfoOptions {
  RobotSource source;
  bool json = false;
  bool help = false;
  std::string usage;
};

struct FkOptions {
  RobotSource source;
  std::string q_path;
  std::string out;
  uint64_t threads = 1;
  SimdTarget simd{0, "auto", "auto"};
  size_t memory_limit = kNoBudget;
  bool help = false;
  std::string usage;
};

struct DynamicsCommandOptions {
  RobotSource source;
  std::string q_path, qd_path, tau_path;       // inputs; tau only with --qdd
  std::string mass_path, bias_path, qdd_path;  // outputs; at least one
  double gravity[3] = {0.0, 0.0, -9.81};       // m/s^2, world frame
  uint64_t threads = 1;
  SimdTarget simd{0, "auto", "auto"};
  size_t memory_limit = kNoBudget;
  bool help = false;
  std::string usage;
};

// argv[first..argc) are the command's flags.
Result<RunOptions> ParseRunOptions(int argc, const char* const* argv, int first);
Result<InfoOptions> ParseInfoOptions(int argc, const char* const* argv, int first);
Result<FkOptions> ParseFkOptions(int argc, const char* const* argv, int first);
Result<DynamicsCommandOptions> ParseDynamicsOptions(int argc, const char* const* argv, int first);

// "run_ee.npy" for "run.npy" (and "name_ee.npy" for a path without the .npy suffix).
std::string EndEffectorOutputPath(std::string_view q_path);

}  // namespace swarm
