#include "demos/robots/fk_command.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "demos/command_line/file_roles.h"
#include "demos/robots/cli_common.h"
#include "demos/robots/npy_input.h"
#include "demos/robots/pose_layout.h"
#include "swarm/core/simd.h"
#include "swarm/core/thread_pool.h"
#include "swarm/robots/robot_batch.h"
#include "swarm/tensor/npy.h"
#include "swarm/tensor/tensor.h"

namespace swarm {
namespace {

// What --q must hold for the model.
RowsSpec QSpec(const RobotModel& model) {
  return {"--q", "joint values", "q_count", model.QNames(), 0};
}

}  // namespace

int RunForwardKinematics(const FkOptions& options) {
  const FileUse files[] = {{options.source.flag(), options.source.path(), FileRole::kInput},
                           {"--q", options.q_path, FileRole::kInput},
                           {"--out", options.out, FileRole::kOutput}};
  if (Status s = CheckDistinctFiles(files); !s.ok()) return Fail(kProgram, s);
  if (Status s = ForceSimdTarget(options.simd); !s.ok()) return Fail(kProgram, s);
  Result<LoadedRobot> robot = LoadRobot(options.source);
  if (!robot.ok()) return Fail(kProgram, robot.status());
  if (Status s = CheckDistinctFromModel(options.source, *robot, files); !s.ok()) {
    return Fail(kProgram, s);
  }
  const RobotModel* model = &robot->model;
  MemoryAccountant memory(options.memory_limit);
  Result<Tensor> q_file = LoadNpy(memory, options.q_path);
  if (!q_file.ok()) {
    return FailAllocation(q_file.status(), options.memory_limit, "--q '" + options.q_path + "'");
  }
  const TensorView q = q_file->view();
  if (Status s = CheckRows(q, options.q_path, QSpec(*model)); !s.ok()) return Fail(kProgram, s);

  const size_t robots = static_cast<size_t>(q.shape(0));
  const size_t links = model->links.size();
  const std::string what = std::to_string(robots) + " robots of '" + model->name + "'";
  Result<RobotBatch> created = RobotBatch::Create(memory, *model, robots);
  if (!created.ok()) return FailAllocation(created.status(), options.memory_limit, what);
  RobotBatch& batch = created.value();
  CopyRowsToLanes(q, batch.q());
  ThreadPool pool(options.threads);
  batch.ForwardKinematics(pool);
  if (Status s = CheckFiniteOutput("--out", std::as_const(batch).link_poses(),
                                   "forward kinematics (joint values near float32's limit?)");
      !s.ok()) {
    return Fail(kProgram, s);
  }

  const int64_t shape[] = {static_cast<int64_t>(robots), static_cast<int64_t>(links),
                           static_cast<int64_t>(kPoseArrays)};
  Result<Tensor> poses = Tensor::Create(memory, DType::kF32, shape);
  if (!poses.ok()) return FailAllocation(poses.status(), options.memory_limit, what);
  float* out = static_cast<float*>(poses->view().data());
  const ConstLanesView link_poses = std::as_const(batch).link_poses();
  for (size_t l = 0; l < links; ++l) {
    for (size_t c = 0; c < kPoseArrays; ++c) {
      const float* column = link_poses.Array(kPoseArrays * l + kFileToPoseArray[c]);
      for (size_t r = 0; r < robots; ++r) out[(r * links + l) * kPoseArrays + c] = column[r];
    }
  }
  if (Status s = SaveNpy(poses->view(), options.out); !s.ok()) return Fail(kProgram, s);
  const SimdTarget target = ActiveSimdTarget();
  std::printf("swarm-robots fk: %zu robots of '%s', %zu links, %zu thread(s), SIMD %s (%s)\n",
              robots, model->name.c_str(), links, pool.num_threads(), target.name.c_str(),
              target.hwy_name.c_str());
  std::printf("wrote %s: float32 [%zu, %zu, 7] (px py pz qw qx qy qz per link)\n",
              options.out.c_str(), robots, links);
  return 0;
}

}  // namespace swarm
