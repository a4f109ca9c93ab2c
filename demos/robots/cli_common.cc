#include "demos/robots/cli_common.h"

#include <cmath>

#include "swarm/core/text.h"

namespace swarm {

int FailAgreed(const RankGroup& ranks, const Status& status) {
  if (ranks.is_root()) return Fail(kProgram, status);
  return kExitBadInput;
}

int FailAllocation(const Status& status, size_t memory_limit, const std::string& what) {
  return Fail(kProgram, BudgetError(status, memory_limit, what));
}

Result<RobotModel> LoadRobotModel(const std::string& urdf_path, bool floating_base,
                                  size_t max_urdf_bytes) {
  if (urdf_path.empty()) {
    return InvalidArgument(
        "--urdf: expected the path of a URDF file (e.g. --urdf "
        "assets/robots/ur5.urdf), got none");
  }
  UrdfOptions options;
  options.floating_base = floating_base;
  options.max_bytes = max_urdf_bytes;
  return LoadUrdfFile(urdf_path, options);
}

Status CheckFiniteOutput(std::string_view flag, const ConstLanesView& lanes,
                         std::string_view what) {
  for (size_t r = 0; r < lanes.count; ++r) {
    for (size_t a = 0; a < lanes.arrays; ++a) {
      const float value = lanes.Array(a)[r];
      if (!std::isfinite(value)) {
        return InvalidArgument(std::string(flag) + ": robot " + std::to_string(r) + ", column " +
                               std::to_string(a) + " is " + NumberText(value) + ": " +
                               std::string(what) +
                               " overflowed from finite inputs; nothing was written");
      }
    }
  }
  return {};
}

}  // namespace swarm
