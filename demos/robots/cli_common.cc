#include "demos/robots/cli_common.h"

#include <cstdio>

namespace swarm {

int Fail(const Status& status) {
  std::fprintf(stderr, "swarm-robots: %s\n", status.message().c_str());
  return kExitBadInput;
}

int FailAgreed(const RankGroup& ranks, const Status& status) {
  if (ranks.is_root()) return Fail(status);
  return kExitBadInput;
}

Status AllocationError(const Status& status, size_t memory_limit, const std::string& what) {
  if (status.code() != ErrorCode::kOverBudget) return status;
  return Status(status.code(), "--memory-limit=" + FormatBytes(memory_limit) +
                                   " is too small for " + what + ": " + status.message());
}

int FailAllocation(const Status& status, size_t memory_limit, const std::string& what) {
  return Fail(AllocationError(status, memory_limit, what));
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
