#include "demos/robots/options.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <type_traits>

#include "swarm/core/flags.h"
#include "swarm/core/simd.h"
#include "swarm/core/text.h"

namespace swarm {
namespace {

// FlagSet parses argv[1..argc): hand it the command's arguments with the word before them in
// the place of the program name.
Status ParseFrom(FlagSet& flags, int argc, const char* const* argv, int first) {
  return flags.Parse(argc - first + 1, argv + first - 1);
}

// "gx,gy,gz": three finite numbers.
// The comma-separated parts of `text` ("" has none; "a,,b" has an empty middle part).
std::vector<std::string> SplitCommas(const std::string& text) {
  std::vector<std::string> parts;
  if (text.empty()) return parts;
  for (size_t start = 0;;) {
    const size_t comma = text.find(',', start);
    parts.push_back(text.substr(start, comma == std::string::npos ? comma : comma - start));
    if (comma == std::string::npos) return parts;
    start = comma + 1;
  }
}

// Comma-separated finite numbers of magnitude <= max_magnitude ("" is an empty list).
Result<std::vector<double>> ParseNumberList(const std::string& text, double max_magnitude) {
  std::vector<double> values;
  for (const std::string& part : SplitCommas(text)) {
    char* end = nullptr;
    const double value = std::strtod(part.c_str(), &end);
    if (part.empty() || end != part.c_str() + part.size() || !std::isfinite(value) ||
        std::fabs(value) > max_magnitude) {
      return InvalidArgument("expected comma-separated finite numbers (|x| <= " +
                             NumberText(max_magnitude) + "), got '" + part + "' in '" + text + "'");
    }
    values.push_back(value);
  }
  return values;
}

Status ParseVector3(const std::string& text, double out[3]) {
  Result<std::vector<double>> values = ParseNumberList(text, 1e6);
  if (!values.ok()) return values.status();
  if (values->size() != 3) {
    return InvalidArgument("expected three numbers gx,gy,gz, got '" + text + "'");
  }
  std::copy(values->begin(), values->end(), out);
  return {};
}

uint64_t DefaultThreads() {
  return std::clamp<uint64_t>(std::thread::hardware_concurrency(), 1, 256);
}

}  // namespace

Result<CommandLine> ParseCommand(int argc, const char* const* argv) {
  CommandLine line;
  if (argc < 2) return line;
  const std::string_view word = argv[1];
  if (word.starts_with("-")) {
    if ((word == "--help" || word == "-h") && argc == 2) line.command = RobotsCommand::kHelp;
    return line;
  }
  line.first_argument = 2;
  if (word == "run") {
    line.command = RobotsCommand::kRun;
  } else if (word == "info") {
    line.command = RobotsCommand::kInfo;
  } else if (word == "fk") {
    line.command = RobotsCommand::kFk;
  } else if (word == "dynamics") {
    line.command = RobotsCommand::kDynamics;
  } else if (word == "help") {
    line.command = RobotsCommand::kHelp;
  } else {
    return InvalidArgument("unknown command '" + std::string(word) +
                           "' (expected run, info, fk or dynamics; see swarm-robots --help)");
  }
  return line;
}

std::string CommandsUsage() {
  return "usage: swarm-robots [run] --urdf F [flags]   step R robots of a URDF model in lockstep\n"
         "       swarm-robots info --urdf F [--json]   joints (q order) and links (pose order)\n"
         "       swarm-robots fk --urdf F --q q.npy --out poses.npy\n"
         "                                             world pose of every link for each q row\n"
         "       swarm-robots dynamics --urdf F --q q.npy --qd qd.npy [--mass M.npy] [--bias "
         "h.npy]\n"
         "                             [--tau tau.npy --qdd qdd.npy]\n"
         "                                             mass matrix, bias and forward dynamics\n"
         "'swarm-robots <command> --help' lists a command's flags.\n";
}

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
  FlagSet flags(
      "swarm-robots run",
      "Steps R copies of a URDF robot in lockstep (16 per AVX-512 register) on a task, with a\n"
      "progress bar on stderr, a summary on stdout and optional .npy trajectories:\n"
      "  --out run.npy writes q as float32 [frames, M, q_count] (q at steps 0, K, 2K, ... <= N)\n"
      "  and run_ee.npy the end-effector poses as float32 [frames, M, 7] (px py pz qw qx qy qz)\n"
      "  of the first M = --record-robots robots every K = --record-every steps.\n"
      "Tasks: reach (IK + PD toward a reachable goal pose; success: < 1 cm and < 0.1 rad),\n"
      "track (the goal moves on a circle), random (PD toward random joint targets), stand\n"
      "(torque control, --floating-base: dropped onto the ground, PD + gravity compensation\n"
      "holds --posture; success: base height within 2 cm of standing, tilt < 5 degrees).\n"
      "Control: kinematic (joints as double integrators, the default) or torque (rigid-body\n"
      "dynamics from the URDF's inertials: the controller's torques, joint-limit springs,\n"
      "forward dynamics and semi-implicit Euler every step), with --contacts against the\n"
      "ground plane z = 0 (spring-damper normal force, regularised Coulomb friction).");
  flags.AddString("urdf", &options.urdf, "URDF file of the robot (required)");
  flags.AddBytes("max-urdf-bytes", &options.max_urdf_bytes, "refuse larger URDF files");
  flags.AddSwitch("floating-base", &options.floating_base,
                  "the root link moves freely: q starts with x y z qw qx qy qz");
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
  flags.AddCount("threads", &options.threads, 1, 256, "threads in the pool (caller included)");
  flags.AddString("simd", &simd, SimdChoices());
  flags.AddBytes("memory-limit", &options.memory_limit, "memory budget, e.g. 256M");
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
                  "torque control: rotor inertia per joint, kg m^2 (or kg)");
  flags.AddString("gravity", &gravity, "torque control: gravity in the world frame, gx,gy,gz");
  flags.AddString("integrator", &integrator,
                  "torque control: euler (semi-implicit) or rk4 (four forward dynamics a step)");
  flags.AddNumber("kp", &options.kp, 0.0, 1e9,
                  "PD stiffness of every joint, N m/rad or N/m (default 400)");
  flags.AddNumber("kd", &options.kd, 0.0, 1e9,
                  "PD damping of every joint, N m s/rad or N s/m (default 40)");
  flags.AddString("contacts", &contacts,
                  "torque control: links touching the ground, comma-separated, or 'leaves' "
                  "(stand's default)");
  flags.AddNumber("contact-radius", &options.contact_radius, 0.0, 10.0,
                  "contacts: sphere radius around each contact link's origin, m");
  flags.AddNumber("ground-stiffness", &options.ground_stiffness, 1e-3, 1e9,
                  "contacts: normal spring, N/m");
  flags.AddNumber("ground-damping", &options.ground_damping, 0.0, 1e9,
                  "contacts: normal damper, N s/m");
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
  if (options.urdf.empty()) {
    return InvalidArgument(
        "--urdf: expected the path of a URDF file (e.g. --urdf "
        "assets/robots/ur5.urdf), got none");
  }
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
  add("floating_base", options.floating_base);
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
  add("kp", options.kp);
  add("kd", options.kd);
  for (const std::string& link : options.contact_links) add("contact_link", link);
  add("contact_radius", options.contact_radius);
  add("ground_stiffness", options.ground_stiffness);
  add("ground_damping", options.ground_damping);
  add("ground_friction", options.ground_friction);
  return text;
}

Result<InfoOptions> ParseInfoOptions(int argc, const char* const* argv, int first) {
  InfoOptions options;
  FlagSet flags("swarm-robots info",
                "Prints a URDF model's independent joints in q order (a floating base first as\n"
                "base_x base_y base_z base_qw base_qx base_qy base_qz) and its links in pose\n"
                "order: a table, or one JSON object {\"name\", \"joints\", \"links\", \"dof\",\n"
                "\"floating_base\"} with --json.");
  flags.AddString("urdf", &options.urdf, "URDF file of the robot (required)");
  flags.AddBytes("max-urdf-bytes", &options.max_urdf_bytes, "refuse larger URDF files");
  flags.AddSwitch("floating-base", &options.floating_base, "add the 7 floating-base values");
  flags.AddSwitch("json", &options.json, "one line of JSON instead of the table");
  if (Status s = ParseFrom(flags, argc, argv, first); !s.ok()) return s;
  options.help = flags.help_requested();
  options.usage = flags.Usage();
  if (!options.help && options.urdf.empty()) {
    return InvalidArgument("--urdf: expected the path of a URDF file, got none");
  }
  return options;
}

Result<FkOptions> ParseFkOptions(int argc, const char* const* argv, int first) {
  FkOptions options;
  options.threads = DefaultThreads();
  std::string simd = "auto";
  FlagSet flags(
      "swarm-robots fk",
      "Forward kinematics of every link for each row of q: reads q.npy as float32 or\n"
      "float64 [R, q_count] (q order of 'swarm-robots info') and writes every link's\n"
      "world pose as float32 [R, links, 7] (px py pz qw qx qy qz, links in info's order).");
  flags.AddString("urdf", &options.urdf, "URDF file of the robot (required)");
  flags.AddBytes("max-urdf-bytes", &options.max_urdf_bytes, "refuse larger URDF files");
  flags.AddSwitch("floating-base", &options.floating_base,
                  "the root link moves freely: q starts with x y z qw qx qy qz");
  flags.AddString("q", &options.q_path, "input .npy of joint values (required)");
  flags.AddString("out", &options.out, "output .npy of link poses (required)");
  flags.AddCount("threads", &options.threads, 1, 256, "threads in the pool (caller included)");
  flags.AddString("simd", &simd, SimdChoices());
  flags.AddBytes("memory-limit", &options.memory_limit, "memory budget, e.g. 256M");
  if (Status s = ParseFrom(flags, argc, argv, first); !s.ok()) return s;
  options.help = flags.help_requested();
  options.usage = flags.Usage();
  if (options.help) return options;
  Result<SimdTarget> target = ParseSimdTarget(simd);
  if (!target.ok()) return target.status();
  options.simd = target.value();
  if (options.urdf.empty()) {
    return InvalidArgument("--urdf: expected the path of a URDF file, got none");
  }
  if (options.q_path.empty()) {
    return InvalidArgument("--q: expected the path of a .npy file of joint values, got none");
  }
  if (options.out.empty()) {
    return InvalidArgument("--out: expected the path of the .npy file to write, got none");
  }
  return options;
}

Result<DynamicsCommandOptions> ParseDynamicsOptions(int argc, const char* const* argv, int first) {
  DynamicsCommandOptions options;
  options.threads = DefaultThreads();
  std::string simd = "auto";
  std::string gravity = "0,0,-9.81";
  FlagSet flags(
      "swarm-robots dynamics",
      "The rigid-body dynamics terms of each robot row (no joint damping, friction or rotor\n"
      "inertia): reads q [R, q_count] and qd (and tau) [R, n] as float32 or float64, in the\n"
      "orders of 'swarm-robots info' (n = dof, plus 6 first for a floating base: its velocity\n"
      "vx vy vz wx wy wz in the base frame), and writes float32\n"
      "  --mass: M(q) [R, n, n]   --bias: h(q, qd) = C(q, qd) qd + g(q) [R, n]\n"
      "  --qdd: qdd = M^-1 (tau - h) [R, n] (needs --tau).\n"
      "Every link of a moving body needs an <inertial> with mass.");
  flags.AddString("urdf", &options.urdf, "URDF file of the robot (required)");
  flags.AddBytes("max-urdf-bytes", &options.max_urdf_bytes, "refuse larger URDF files");
  flags.AddSwitch("floating-base", &options.floating_base,
                  "the root link moves freely: q starts with x y z qw qx qy qz, qd with 6 values");
  flags.AddString("q", &options.q_path, "input .npy of joint values (required)");
  flags.AddString("qd", &options.qd_path, "input .npy of joint velocities (required)");
  flags.AddString("tau", &options.tau_path, "input .npy of joint torques (for --qdd)");
  flags.AddString("mass", &options.mass_path, "output .npy of mass matrices");
  flags.AddString("bias", &options.bias_path, "output .npy of bias forces");
  flags.AddString("qdd", &options.qdd_path, "output .npy of accelerations (forward dynamics)");
  flags.AddString("gravity", &gravity, "gravity in the world frame, m/s^2: gx,gy,gz");
  flags.AddCount("threads", &options.threads, 1, 256, "threads in the pool (caller included)");
  flags.AddString("simd", &simd, SimdChoices());
  flags.AddBytes("memory-limit", &options.memory_limit, "memory budget, e.g. 256M");
  if (Status s = ParseFrom(flags, argc, argv, first); !s.ok()) return s;
  options.help = flags.help_requested();
  options.usage = flags.Usage();
  if (options.help) return options;
  Result<SimdTarget> target = ParseSimdTarget(simd);
  if (!target.ok()) return target.status();
  options.simd = target.value();
  if (Status s = ParseVector3(gravity, options.gravity); !s.ok()) {
    return InvalidArgument("--gravity: " + s.message());
  }
  if (options.urdf.empty()) {
    return InvalidArgument("--urdf: expected the path of a URDF file, got none");
  }
  if (options.q_path.empty()) {
    return InvalidArgument("--q: expected the path of a .npy file of joint values, got none");
  }
  if (options.qd_path.empty()) {
    return InvalidArgument("--qd: expected the path of a .npy file of joint velocities, got none");
  }
  if (options.mass_path.empty() && options.bias_path.empty() && options.qdd_path.empty()) {
    return InvalidArgument("expected at least one output: --mass, --bias or --qdd");
  }
  if (!options.qdd_path.empty() && options.tau_path.empty()) {
    return InvalidArgument("--qdd: forward dynamics needs the joint torques, --tau tau.npy");
  }
  if (options.qdd_path.empty() && !options.tau_path.empty()) {
    return InvalidArgument("--tau: only forward dynamics (--qdd) reads torques");
  }
  return options;
}

std::string EndEffectorOutputPath(std::string_view q_path) {
  std::string_view stem = q_path;
  if (stem.ends_with(".npy")) stem.remove_suffix(4);
  return std::string(stem) + "_ee.npy";
}

}  // namespace swarm
