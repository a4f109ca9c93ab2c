#include "demos/robots/info_command.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "demos/robots/cli_common.h"
#include "swarm/robots/robot_model.h"

namespace swarm {
namespace {

std::string LimitText(bool limited, double value) {
  if (!limited) return "-";
  char text[32];
  std::snprintf(text, sizeof(text), "%.4f", value);
  return text;
}

std::string OptionalLimit(double value) {
  if (value <= 0.0) return "-";
  char text[32];
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

void PrintTable(const RobotModel& model) {
  std::printf("robot '%s': %zu independent joints, %zu q values, %zu links%s\n", model.name.c_str(),
              model.dof(), model.q_count(), model.links.size(),
              model.floating_base ? ", floating base" : "");
  std::printf("\nq   %-32s %-10s %10s %10s %10s %10s\n", "name", "type", "lower", "upper",
              "velocity", "effort");
  const std::vector<std::string> names = model.QNames();
  const size_t base = model.q_count() - model.dof();
  for (size_t i = 0; i < base; ++i) {
    std::printf("%-3zu %-32s %-10s\n", i, names[i].c_str(), "base");
  }
  for (size_t k = 0; k < model.dof(); ++k) {
    const RobotJoint& joint = model.joints[model.dof_joints[k]];
    std::printf(
        "%-3zu %-32s %-10s %10s %10s %10s %10s\n", base + k, names[base + k].c_str(),
        RobotJointTypeName(joint.type), LimitText(joint.has_position_limits, joint.lower).c_str(),
        LimitText(joint.has_position_limits, joint.upper).c_str(),
        OptionalLimit(joint.velocity_limit).c_str(), OptionalLimit(joint.effort_limit).c_str());
  }
  std::printf("\nlink %-32s %-32s %s\n", "name", "moved by joint", "parent link");
  const size_t end_effector = model.DefaultEndEffector();
  for (size_t l = 0; l < model.links.size(); ++l) {
    std::string joint = "(root)", parent = "-";
    if (l > 0) {
      const RobotJoint& moved_by = model.joints[l - 1];
      joint = moved_by.name;
      if (moved_by.is_mimic) joint += " (mimic)";
      parent = model.links[moved_by.parent_link];
    }
    std::printf("%-4zu %-32s %-32s %s%s\n", l, model.links[l].c_str(), joint.c_str(),
                parent.c_str(), l == end_effector ? "   <- default end effector" : "");
  }
}

// What an MJCF file adds: its actuators (on which joint, with what gain and ranges), keyframes
// and option.
void PrintMjcfTable(const MjcfRobot& robot) {
  const RobotModel& model = robot.model;
  std::printf("\nMJCF: time step %g s, gravity %g %g %g m/s^2\n", robot.timestep, robot.gravity[0],
              robot.gravity[1], robot.gravity[2]);
  std::printf("%zu actuators (force = gain ctrl + bias0 + bias1 q + bias2 qd):\n",
              robot.actuators.size());
  std::printf("%-4s %-24s %-24s %9s %9s %9s %9s %-21s %s\n", "#", "actuator", "joint", "gain",
              "bias0", "bias1", "bias2", "ctrl range", "force range");
  for (size_t a = 0; a < robot.actuators.size(); ++a) {
    const MjcfRobotActuator& actuator = robot.actuators[a];
    const std::string range = actuator.ctrl_limited
                                  ? LimitText(true, actuator.ctrl_range[0]) + " " +
                                        LimitText(true, actuator.ctrl_range[1])
                                  : "-";
    const std::string force = actuator.force_limited
                                  ? LimitText(true, actuator.force_range[0]) + " " +
                                        LimitText(true, actuator.force_range[1])
                                  : "-";
    std::printf("%-4zu %-24s %-24s %9g %9g %9g %9g %-21s %s\n", a, actuator.name.c_str(),
                model.joints[model.dof_joints[actuator.dof]].name.c_str(), actuator.gain,
                actuator.bias[0], actuator.bias[1], actuator.bias[2], range.c_str(), force.c_str());
  }
  std::printf("%zu keyframes:", robot.keyframes.size());
  for (const MjcfRobotKeyframe& key : robot.keyframes) {
    std::printf(" '%s'", key.name.c_str());
  }
  std::printf("\n");
}

}  // namespace

int PrintRobotInfo(const InfoOptions& options) {
  Result<LoadedRobot> robot = LoadRobot(options.source);
  if (!robot.ok()) return Fail(kProgram, robot.status());
  if (options.json) {
    std::printf("%s\n", RobotModelJson(robot->model).c_str());
  } else {
    PrintTable(robot->model);
    if (robot->mjcf) PrintMjcfTable(*robot->mjcf);
  }
  return 0;
}

}  // namespace swarm
