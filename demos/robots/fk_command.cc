#include "demos/robots/fk_command.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "demos/robots/cli_common.h"
#include "demos/robots/pose_layout.h"
#include "swarm/core/simd.h"
#include "swarm/core/thread_pool.h"
#include "swarm/robots/robot_batch.h"
#include "swarm/tensor/npy.h"
#include "swarm/tensor/tensor.h"

namespace swarm {
namespace {

// Element (row, column) of a rank-2 view of T (any strides: numpy may write Fortran order).
template <typename T>
T ElementAt(const TensorView& view, int64_t row, int64_t column) {
  const int64_t index[] = {row, column};
  T value;
  std::memcpy(&value, view.ElementAddress(index), sizeof(T));
  return value;
}

std::string FormatValue(double value) {
  char text[40];
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

// Checks q's dtype, shape and values against the model.
Status CheckQ(const TensorView& q, const RobotModel& model, const std::string& path) {
  const std::string expected_shape = "[R, " + std::to_string(model.q_count()) +
                                     "] (R robots, q_count " + std::to_string(model.q_count()) +
                                     " in the order of 'swarm-robots info')";
  if (q.dtype() != DType::kF32 && q.dtype() != DType::kF64) {
    return InvalidArgument("--q '" + path + "': expected float32 or float64 joint values, got " +
                           DTypeName(q.dtype()) + " (convert with q.astype(np.float32))");
  }
  if (q.rank() != 2 || q.shape(1) != static_cast<int64_t>(model.q_count())) {
    return InvalidArgument("--q '" + path + "': expected shape " + expected_shape + ", got " +
                           ShapeString(q.shape()));
  }
  if (q.shape(0) == 0) {
    return InvalidArgument("--q '" + path + "': expected at least one robot (shape " +
                           expected_shape + "), got " + ShapeString(q.shape()));
  }
  const std::vector<std::string> names = model.QNames();
  for (int64_t r = 0; r < q.shape(0); ++r) {
    for (int64_t c = 0; c < q.shape(1); ++c) {
      const double value =
          q.dtype() == DType::kF32 ? ElementAt<float>(q, r, c) : ElementAt<double>(q, r, c);
      const bool fits_float = std::fabs(value) <= std::numeric_limits<float>::max();
      if (!std::isfinite(value) || !fits_float) {
        return InvalidArgument("--q '" + path + "': q[" + std::to_string(r) + ", " +
                               std::to_string(c) + "] (" + names[c] + ") is " + FormatValue(value) +
                               "; every value must be finite" +
                               (std::isfinite(value) ? " and within float32 range" : ""));
      }
    }
  }
  return {};
}

}  // namespace

int RunForwardKinematics(const FkOptions& options) {
  if (Status s = ForceSimdTarget(options.simd); !s.ok()) return Fail(s);
  Result<RobotModel> model =
      LoadRobotModel(options.urdf, options.floating_base, options.max_urdf_bytes);
  if (!model.ok()) return Fail(model.status());
  MemoryAccountant memory(options.memory_limit);
  Result<Tensor> q_file = LoadNpy(memory, options.q_path);
  if (!q_file.ok()) {
    return FailAllocation(q_file.status(), options.memory_limit, "--q '" + options.q_path + "'");
  }
  const TensorView q = q_file->view();
  if (Status s = CheckQ(q, model.value(), options.q_path); !s.ok()) return Fail(s);

  const size_t robots = static_cast<size_t>(q.shape(0));
  const size_t links = model->links.size();
  const std::string what = std::to_string(robots) + " robots of '" + model->name + "'";
  Result<RobotBatch> created = RobotBatch::Create(memory, model.value(), robots);
  if (!created.ok()) return FailAllocation(created.status(), options.memory_limit, what);
  RobotBatch& batch = created.value();
  const LanesView batch_q = batch.q();
  for (size_t c = 0; c < model->q_count(); ++c) {
    float* column = batch_q.Array(c);
    for (size_t r = 0; r < robots; ++r) {
      const int64_t row = static_cast<int64_t>(r), col = static_cast<int64_t>(c);
      column[r] = q.dtype() == DType::kF32 ? ElementAt<float>(q, row, col)
                                           : static_cast<float>(ElementAt<double>(q, row, col));
    }
  }
  ThreadPool pool(options.threads);
  batch.ForwardKinematics(pool);

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
  if (Status s = SaveNpy(poses->view(), options.out); !s.ok()) return Fail(s);
  const SimdTarget target = ActiveSimdTarget();
  std::printf("swarm-robots fk: %zu robots of '%s', %zu links, %zu thread(s), SIMD %s (%s)\n",
              robots, model->name.c_str(), links, pool.num_threads(), target.name.c_str(),
              target.hwy_name.c_str());
  std::printf("wrote %s: float32 [%zu, %zu, 7] (px py pz qw qx qy qz per link)\n",
              options.out.c_str(), robots, links);
  return 0;
}

}  // namespace swarm
