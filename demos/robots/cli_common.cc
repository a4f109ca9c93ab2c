#include "demos/robots/cli_common.h"

#include <cstdio>

namespace swarm {

int Fail(const Status& status) {
  std::fprintf(stderr, "swarm-robots: %s\n", status.message().c_str());
  return kExitBadInput;
}

int FailAllocation(const Status& status, size_t memory_limit, const std::string& what) {
  if (status.code() == ErrorCode::kOverBudget) {
    std::fprintf(stderr, "swarm-robots: --memory-limit=%s is too small for %s\n",
                 FormatBytes(memory_limit).c_str(), what.c_str());
  }
  return Fail(status);
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

}  // namespace swarm
