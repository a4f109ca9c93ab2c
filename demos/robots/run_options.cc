// The run command's options (swarm-robots [run]): parsing, the run's fingerprint and output names.
#include <algorithm>
#include <cmath>
#include <string>

#include "demos/command_line/flags.h"
#include "demos/command_line/runtime_flags.h"
#include "demos/robots/option_parsing.h"
#include "demos/robots/options.h"
#include "swarm/core/simd.h"
#include "swarm/core/text.h"

namespace swarm {

Result<RunOptions> ParseRunOptions(int argc, const char* const* argv, int first) {
  RunOptions options;
  options.threads = DefaultThreads();
  std::string simd = "auto";
  std::string task = RobotTaskName(options.task.task);
  double start_spread = options.task.start_spread;
  double track_radius = options.task.track_radius;
  double track_period = options.task.track_period_seconds;
  bool no_progress = false;
  std::string control = "kinematic";
  std::string controller = "pd-gravity";
  std::string gravity = "0,0,-9.81";
  std::string integrator = "euler";
  std::string posture, contacts;
  double stand_spread = options.task.stand_spread;
  double drop_height = options.task.drop_height;
  std::string terrain_size = "4,4,0.1";
  FlagSet flags(
      "swarm-robots run",
      "Steps R copies of a URDF or MJCF robot in lockstep (16 per AVX-512 register) on a task, "
      "with a\n"
      "progress bar on stderr, a summary on stdout and optional .npy trajectories:\n"
      "  --out run.npy writes q as float32 [frames, M, q_count] (q at steps 0, K, 2K, ... <= N)\n"
      "  and run_ee.npy the end-effector poses as float32 [frames, M, 7] (px py pz qw qx qy qz)\n"
      "  of the first M = --record-robots robots every K = --record-every steps.\n"
      "Tasks: reach (IK + PD toward a reachable goal pose; success: < 1 cm and < 0.1 rad),\n"
      "track (the goal moves on a circle), random (PD toward random joint targets), stand\n"
      "(torque control, --floating-base: dropped onto the ground, PD + gravity compensation\n"
      "holds --posture; success: base height within 2 cm of standing, tilt < 5 degrees).\n"
      "Control: kinematic (joints as double integrators, the default) or torque (rigid-body\n"
      "dynamics from the URDF's inertials: the controller's torques, joint limits as soft\n"
      "constraints, forward dynamics and semi-implicit Euler every step), with --contacts\n"
      "against the ground plane z = 0 (soft constraints with MuJoCo's solref, a friction cone:\n"
      "contacts stick or slide with Coulomb friction).");
  AddRobotSourceFlags(flags, options.source,
                      "--urdf: the root link moves freely: q starts with x y z qw qx qy qz");
  flags.AddString("end-effector", &options.end_effector,
                  "link steered by IK and recorded (default: the deepest link)");
  flags.AddCount("robots", &options.robots, 1, kMaxRobots, "robots stepped in lockstep");
  flags.AddCount("steps", &options.steps, 1, uint64_t{1} << 32, "control steps");
  flags.AddNumber("dt", &options.dt, 1e-6, 1.0, "seconds per step");
  flags.AddString("task", &task, kRobotTaskNames);
  flags.AddCount("seed", &options.task.seed, 0, UINT64_MAX, "random seed of the task");
  flags.AddNumber("start-spread", &start_spread, 0.0, 10.0,
                  "reach/track: start q = goal q + U(-s, s) rad per joint");
  flags.AddNumber("track-radius", &track_radius, 0.0, 10.0, "track: circle radius in metres");
  flags.AddNumber("track-period", &track_period, 1e-3, 1e6, "track: seconds per turn");
  flags.AddCount("resample-every", &options.task.random_resample_steps, 1, uint64_t{1} << 32,
                 "random: steps between new joint targets");
  AddThreadsFlag(flags, &options.threads);
  AddSimdFlag(flags, &simd);
  AddMemoryLimitFlag(flags, &options.memory_limit);
  flags.AddString("out", &options.out, "q trajectory .npy (also writes <name>_ee.npy)");
  flags.AddCount("record-every", &options.record_every, 1, uint64_t{1} << 32,
                 "record every K-th step (step 0 included)");
  flags.AddCount("record-robots", &options.record_robots, 0, kMaxRobots,
                 "record the first M robots (0: all)");
  flags.AddBytes("max-output", &options.max_output,
                 "refuse recordings larger than this (both files), e.g. 4G");
  flags.AddSwitch("no-progress", &no_progress, "no progress bar on stderr");
  flags.AddString("control", &control, "kinematic or torque");
  flags.AddString("controller", &controller,
                  "torque control: pd-gravity (PD + gravity compensation) or computed-torque");
  flags.AddNumber("armature", &options.armature, 0.0, 1e6,
                  "torque control: rotor inertia per joint, kg m^2 (or kg; --mjcf: the file's)");
  flags.AddString("gravity", &gravity,
                  "torque control: gravity in the world frame, gx,gy,gz (--mjcf: the file's)");
  flags.AddString("integrator", &integrator,
                  "torque control: euler (semi-implicit) or rk4 (four forward dynamics a step)");
  flags.AddNumber("kp", &options.kp, 0.0, 1e9,
                  "PD stiffness of every joint, N m/rad or N/m (default 400)");
  flags.AddNumber("kd", &options.kd, 0.0, 1e9,
                  "PD damping of every joint, N m s/rad or N s/m (default 40)");
  flags.AddString("contacts", &contacts,
                  "torque control: links touching the ground, comma-separated, or 'leaves' "
                  "(stand's default)");
  flags.AddSwitch("world-contacts", &options.world_contacts,
                  "torque control with --mjcf: the robot's collision shapes touch the file's world "
                  "shapes (its floor, tables, steps) with the file's contact parameters");
  flags.AddString("terrain", &options.terrain,
                  "world contacts: a heightfield .npy (rows from -y) or grey PNG (top row at +y) "
                  "under the robots, centred on the origin; stand starts its robots this much "
                  "higher");
  flags.AddString("terrain-size", &terrain_size,
                  "--terrain: half width along x, half width along y, height, m (MuJoCo's hfield "
                  "size; default 4,4,0.1)");
  flags.AddNumber("contact-radius", &options.contact_radius, 0.0, 10.0,
                  "contacts: sphere radius around each contact link's origin, m");
  flags.AddNumber("ground-time-constant", &options.ground_time_constant, 1e-6, 1e3,
                  "contacts: the soft constraint's time constant, s (MuJoCo's solref[0]; at least "
                  "2 dt is used)");
  flags.AddNumber("ground-damping-ratio", &options.ground_damping_ratio, 1e-3, 1e3,
                  "contacts: the soft constraint's damping ratio (MuJoCo's solref[1])");
  flags.AddNumber("limit-time-constant", &options.limit_time_constant, 1e-6, 1e3,
                  "torque control: the joint limits' time constant, s (at least 2 dt is used; "
                  "--mjcf: the file's solreflimit)");
  flags.AddNumber("limit-damping-ratio", &options.limit_damping_ratio, 1e-3, 1e3,
                  "torque control: the joint limits' damping ratio (--mjcf: the file's)");
  flags.AddNumber("limit-tolerance", &options.limit_tolerance, 1e-6, 10.0,
                  "torque control: how far a joint's whole effort limit may push it past a joint "
                  "limit, rad or m (the limit is made stiffer where it would go further)");
  flags.AddNumber("max-joint-speed", &options.max_joint_speed, 1e-3, 1e9,
                  "torque control: every joint's speed cap, rad/s or m/s");
  flags.AddNumber("ground-friction", &options.ground_friction, 0.0, 1e3,
                  "contacts: Coulomb friction coefficient");
  flags.AddString("posture", &posture,
                  "stand: joint set points q1,q2,... in q order (default: zero within limits)");
  flags.AddNumber("stand-spread", &stand_spread, 0.0, 10.0,
                  "stand: start q = posture + U(-s, s) rad per joint");
  flags.AddNumber("drop-height", &drop_height, 0.0, 1e3,
                  "stand: start with the lowest contact this high above the ground, m");
  if (Status s = ParseFrom(flags, argc, argv, first); !s.ok()) return s;
  options.help = flags.help_requested();
  options.usage = flags.Usage();
  if (options.help) return options;
  options.progress = !no_progress;
  Result<std::vector<double>> posture_values = ParseNumberList(posture, 1e6);
  if (!posture_values.ok())
    return InvalidArgument("--posture: " + posture_values.status().message());
  options.task.stand_posture.assign(posture_values->begin(), posture_values->end());
  options.task.stand_spread = static_cast<float>(stand_spread);
  options.task.drop_height = static_cast<float>(drop_height);
  if (control != "kinematic" && control != "torque") {
    return InvalidArgument("--control: expected kinematic or torque, got '" + control + "'");
  }
  options.task.torque_control = control == "torque";
  if (controller == "pd-gravity") {
    options.task.controller = TorqueController::kPdGravity;
  } else if (controller == "computed-torque") {
    options.task.controller = TorqueController::kComputedTorque;
  } else {
    return InvalidArgument("--controller: expected pd-gravity or computed-torque, got '" +
                           controller + "'");
  }
  if (Status s = ParseVector3(gravity, options.gravity); !s.ok()) {
    return InvalidArgument("--gravity: " + s.message());
  }
  if (integrator != "euler" && integrator != "rk4") {
    return InvalidArgument("--integrator: expected euler or rk4, got '" + integrator + "'");
  }
  options.integrator =
      integrator == "rk4" ? TorqueIntegrator::kRungeKutta4 : TorqueIntegrator::kSemiImplicitEuler;
  Result<SimdTarget> target = ParseSimdTarget(simd);
  if (!target.ok()) return target.status();
  options.simd = target.value();
  Result<RobotTask> parsed_task = ParseRobotTask(task);
  if (!parsed_task.ok()) return parsed_task.status();
  options.task.task = parsed_task.value();
  options.task.start_spread = static_cast<float>(start_spread);
  options.task.track_radius = static_cast<float>(track_radius);
  options.task.track_period_seconds = static_cast<float>(track_period);
  if (options.task.task == RobotTask::kStand && contacts.empty()) contacts = "leaves";
  options.ground_contacts = !contacts.empty();
  if (options.world_contacts && (!options.task.torque_control || options.source.mjcf.empty())) {
    return InvalidArgument("--world-contacts: needs --mjcf and --control torque");
  }
  if (Status s = ParseVector3(terrain_size, options.terrain_size); !s.ok()) {
    return InvalidArgument("--terrain-size: " + s.message());
  }
  for (double value : options.terrain_size) {
    if (!(value > 0.0 && value <= 1e4)) {
      return InvalidArgument("--terrain-size: expected three sizes in (0, 1e4] m, got '" +
                             terrain_size + "'");
    }
  }
  if (!options.terrain.empty() && !options.world_contacts) {
    return InvalidArgument("--terrain: needs --world-contacts");
  }
  // Stand drops its robots from above the terrain's highest point.
  if (!options.terrain.empty()) {
    options.task.drop_height += static_cast<float>(options.terrain_size[2]);
  }
  if (options.ground_contacts && !options.task.torque_control) {
    return InvalidArgument("--contacts: ground contacts need --control torque");
  }
  if (options.ground_contacts && contacts != "leaves") {
    options.contact_links = SplitCommas(contacts);
    for (const std::string& link : options.contact_links) {
      if (link.empty()) {
        return InvalidArgument("--contacts: expected 'leaves' or link names a,b,c, got '" +
                               contacts + "'");
      }
    }
  }
  if (Status s = CheckRobotSource(options.source); !s.ok()) return s;
  if (options.record_robots == 0 || options.record_robots > options.robots) {
    options.record_robots = options.robots;
  }
  return options;
}

std::string RunFingerprintText(const RunOptions& options) {
  std::string text;
  // Exact: numbers as hexadecimal floating point.
  const auto add = [&text](const char* name, auto value) {
    text += name;
    text += '=';
    if constexpr (std::is_floating_point_v<decltype(value)>) {
      char number[64];
      std::snprintf(number, sizeof(number), "%a", double(value));
      text += number;
    } else if constexpr (std::is_convertible_v<decltype(value), std::string_view>) {
      text += value;
    } else {
      text += std::to_string(value);
    }
    text += ';';
  };
  const RobotTaskParams& task = options.task;
  add("floating_base", options.source.floating_base);
  add("model_format", options.source.mjcf.empty() ? "urdf" : "mjcf");
  add("end_effector", options.end_effector);
  add("robots", options.robots);
  add("steps", options.steps);
  add("dt", options.dt);
  add("task", static_cast<int>(task.task));
  add("seed", task.seed);
  add("first_robot", task.first_robot);
  add("start_spread", task.start_spread);
  add("track_radius", task.track_radius);
  add("track_period", task.track_period_seconds);
  add("resample", task.random_resample_steps);
  add("success_position", task.success_position_m);
  add("success_orientation", task.success_orientation_rad);
  for (float value : task.stand_posture) add("posture", value);
  add("stand_spread", task.stand_spread);
  add("drop_height", task.drop_height);
  add("success_height", task.success_height_m);
  add("success_tilt", task.success_tilt_rad);
  add("torque_control", task.torque_control);
  add("controller", static_cast<int>(task.controller));
  add("records", !options.out.empty());
  add("record_every", options.record_every);
  add("record_robots", options.record_robots);
  add("armature", options.armature);
  for (double g : options.gravity) add("gravity", g);
  add("integrator", static_cast<int>(options.integrator));
  add("ground_contacts", options.ground_contacts);
  add("world_contacts", options.world_contacts);
  add("terrain", options.terrain);
  for (double size : options.terrain_size) add("terrain_size", size);
  add("kp", options.kp);
  add("kd", options.kd);
  for (const std::string& link : options.contact_links) add("contact_link", link);
  add("contact_radius", options.contact_radius);
  add("ground_time_constant", options.ground_time_constant);
  add("ground_damping_ratio", options.ground_damping_ratio);
  add("limit_time_constant", options.limit_time_constant);
  add("limit_damping_ratio", options.limit_damping_ratio);
  add("limit_tolerance", options.limit_tolerance);
  add("max_joint_speed", options.max_joint_speed);
  add("ground_friction", options.ground_friction);
  return text;
}

std::string EndEffectorOutputPath(std::string_view q_path) {
  std::string_view stem = q_path;
  if (stem.ends_with(".npy")) stem.remove_suffix(4);
  return std::string(stem) + "_ee.npy";
}

}  // namespace swarm
