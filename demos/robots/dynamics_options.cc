// The dynamics command's options (swarm-robots dynamics).
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
      "Every moving body needs mass (a URDF link's <inertial>; an MJCF body's inertial or\n"
      "geoms); an MJCF file's armature is not included either.");
  AddRobotSourceFlags(
      flags, options.source,
      "--urdf: the root link moves freely: q starts with x y z qw qx qy qz, qd with 6 values");
  flags.AddString("q", &options.q_path, "input .npy of joint values (required)");
  flags.AddString("qd", &options.qd_path, "input .npy of joint velocities (required)");
  flags.AddString("tau", &options.tau_path, "input .npy of joint torques (for --qdd)");
  flags.AddString("mass", &options.mass_path, "output .npy of mass matrices");
  flags.AddString("bias", &options.bias_path, "output .npy of bias forces");
  flags.AddString("qdd", &options.qdd_path, "output .npy of accelerations (forward dynamics)");
  flags.AddString("gravity", &gravity, "gravity in the world frame, m/s^2: gx,gy,gz");
  AddThreadsFlag(flags, &options.threads);
  AddSimdFlag(flags, &simd);
  AddMemoryLimitFlag(flags, &options.memory_limit);
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
  if (Status s = CheckRobotSource(options.source); !s.ok()) return s;
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

}  // namespace swarm
