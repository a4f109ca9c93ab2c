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

}  // namespace

int PrintRobotInfo(const InfoOptions& options) {
  Result<RobotModel> model =
      LoadRobotModel(options.urdf, options.floating_base, options.max_urdf_bytes);
  if (!model.ok()) return Fail(kProgram, model.status());
  if (options.json) {
    std::printf("%s\n", RobotModelJson(model.value()).c_str());
  } else {
    PrintTable(model.value());
  }
  return 0;
}

}  // namespace swarm
