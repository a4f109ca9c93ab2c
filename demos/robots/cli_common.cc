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

Result<LoadedRobot> LoadRobot(const RobotSource& source) {
  LoadedRobot robot;
  if (!source.mjcf.empty()) {
    MjcfOptions options;
    options.max_bytes = source.max_mjcf_bytes;
    Result<MjcfRobot> loaded = LoadMjcfFile(source.mjcf, options);
    if (!loaded.ok()) return loaded.status();
    robot.model = loaded->model;
    robot.files = loaded->files;
    robot.mjcf = std::move(loaded).value();
    return robot;
  }
  if (source.urdf.empty()) {
    return InvalidArgument(
        "--urdf or --mjcf: expected the path of a robot file (e.g. --urdf "
        "assets/robots/ur5.urdf), got none");
  }
  UrdfOptions options;
  options.floating_base = source.floating_base;
  options.max_bytes = source.max_urdf_bytes;
  Result<RobotModel> model = LoadUrdfFile(source.urdf, options);
  if (!model.ok()) return model.status();
  robot.model = std::move(model).value();
  robot.files = {source.urdf};
  return robot;
}

Status CheckDistinctFromModel(const RobotSource& source, const LoadedRobot& robot,
                              std::span<const FileUse> uses) {
  std::vector<FileUse> all(uses.begin(), uses.end());
  for (const std::string& file : robot.files) {
    all.push_back({source.flag(), file, FileRole::kInput});
  }
  return CheckDistinctFiles(all);
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
