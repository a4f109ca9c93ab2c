#include "demos/robots/dynamics_command.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "demos/command_line/file_roles.h"
#include "demos/robots/cli_common.h"
#include "demos/robots/npy_input.h"
#include "swarm/core/simd.h"
#include "swarm/core/thread_pool.h"
#include "swarm/kernels/robots/dynamics/robot_dynamics.h"
#include "swarm/robots/dynamics_model.h"
#include "swarm/tensor/npy.h"
#include "swarm/tensor/tensor.h"

namespace swarm {
namespace {

// `arrays` lane arrays of `robots` floats (each padded to whole vectors) in one accounted tensor.
struct LaneArrays {
  Tensor storage;
  LanesView view;
};

Result<LaneArrays> AllocateLanes(MemoryAccountant& memory, size_t robots, size_t arrays) {
  const size_t stride = RoundUpToVector<float>(robots);
  const int64_t shape[] = {static_cast<int64_t>(std::max<size_t>(arrays, 1)),
                           static_cast<int64_t>(stride)};
  Result<Tensor> tensor = Tensor::Create(memory, DType::kF32, shape);
  if (!tensor.ok()) return tensor.status();
  LaneArrays lanes{std::move(tensor).value(), {}};
  lanes.view = {static_cast<float*>(lanes.storage.view().data()), robots, stride, arrays};
  return lanes;
}

// Lane arrays -> a float32 .npy of shape [R, arrays] (or [R, n, n] for a matrix).
Status SaveLanes(MemoryAccountant& memory, const ConstLanesView& lanes,
                 const std::vector<int64_t>& shape, const std::string& path) {
  Result<Tensor> out = Tensor::Create(memory, DType::kF32, shape);
  if (!out.ok()) return out.status();
  float* values = static_cast<float*>(out->view().data());
  for (size_t a = 0; a < lanes.arrays; ++a) {
    const float* column = lanes.Array(a);
    for (size_t r = 0; r < lanes.count; ++r) values[r * lanes.arrays + a] = column[r];
  }
  return SaveNpy(out->view(), path);
}

// Robots [begin, end) of thread t's block, on kPadFloats boundaries so that slices are valid.
std::pair<size_t, size_t> Block(size_t robots, size_t t, size_t threads) {
  const size_t vectors = RoundUpToVector<float>(robots) / kPadFloats;
  const size_t begin = std::min(robots, vectors * t / threads * kPadFloats);
  const size_t end = std::min(robots, vectors * (t + 1) / threads * kPadFloats);
  return {begin, end};
}

}  // namespace

int RunDynamics(const DynamicsCommandOptions& options) {
  const FileUse files[] = {{options.source.flag(), options.source.path(), FileRole::kInput},
                           {"--q", options.q_path, FileRole::kInput},
                           {"--qd", options.qd_path, FileRole::kInput},
                           {"--tau", options.tau_path, FileRole::kInput},
                           {"--mass", options.mass_path, FileRole::kOutput},
                           {"--bias", options.bias_path, FileRole::kOutput},
                           {"--qdd", options.qdd_path, FileRole::kOutput}};
  if (Status s = CheckDistinctFiles(files); !s.ok()) return Fail(kProgram, s);
  if (Status s = ForceSimdTarget(options.simd); !s.ok()) return Fail(kProgram, s);
  Result<LoadedRobot> robot = LoadRobot(options.source);
  if (!robot.ok()) return Fail(kProgram, robot.status());
  if (Status s = CheckDistinctFromModel(options.source, *robot, files); !s.ok()) {
    return Fail(kProgram, s);
  }
  const RobotModel* model = &robot->model;
  DynamicsOptions rigid_body_terms;
  rigid_body_terms.joint_friction = false;
  Result<DynamicsModel> dynamics = DynamicsModel::Build(*model, rigid_body_terms);
  if (!dynamics.ok()) return Fail(kProgram, dynamics.status());
  const DynamicsTree tree = dynamics->tree();
  MemoryAccountant memory(options.memory_limit);

  // Inputs, checked before any work.
  const std::vector<std::string> velocity_names = model->VelocityNames();
  Result<Tensor> q_file = LoadNpy(memory, options.q_path);
  if (!q_file.ok()) {
    return FailAllocation(q_file.status(), options.memory_limit, "--q '" + options.q_path + "'");
  }
  const RowsSpec q_spec{"--q", "joint values", "q_count", model->QNames(), 0};
  if (Status s = CheckRows(q_file->view(), options.q_path, q_spec); !s.ok())
    return Fail(kProgram, s);
  const int64_t rows = q_file->view().shape(0);
  const auto load_velocities = [&](const std::string& flag, const std::string& path,
                                   const std::string& what) -> Result<Tensor> {
    Result<Tensor> file = LoadNpy(memory, path);
    if (!file.ok()) return file.status();
    const RowsSpec spec{flag, what, "velocity count", velocity_names, rows};
    if (Status s = CheckRows(file->view(), path, spec); !s.ok()) return s;
    return file;
  };
  Result<Tensor> qd_file = load_velocities("--qd", options.qd_path, "joint velocities");
  if (!qd_file.ok()) {
    return FailAllocation(qd_file.status(), options.memory_limit, "--qd '" + options.qd_path + "'");
  }
  Tensor tau_file;
  if (!options.tau_path.empty()) {
    Result<Tensor> loaded = load_velocities("--tau", options.tau_path, "joint torques");
    if (!loaded.ok()) {
      return FailAllocation(loaded.status(), options.memory_limit,
                            "--tau '" + options.tau_path + "'");
    }
    tau_file = std::move(loaded).value();
  }

  const size_t robots = static_cast<size_t>(rows);
  const size_t n = tree.velocity_count();
  const std::string what = std::to_string(robots) + " robots of '" + model->name + "'";
  Result<LaneArrays> q = AllocateLanes(memory, robots, tree.q_count());
  Result<LaneArrays> qd = AllocateLanes(memory, robots, n);
  Result<LaneArrays> zero = AllocateLanes(memory, robots, n);
  Result<LaneArrays> tau = AllocateLanes(memory, robots, options.tau_path.empty() ? 0 : n);
  Result<LaneArrays> mass = AllocateLanes(memory, robots, options.mass_path.empty() ? 0 : n * n);
  Result<LaneArrays> bias = AllocateLanes(memory, robots, n);
  Result<LaneArrays> qdd = AllocateLanes(memory, robots, options.qdd_path.empty() ? 0 : n);
  ThreadPool pool(options.threads);
  const size_t threads = pool.num_threads();
  const size_t scratch_floats = RobotDynamicsScratchFloats(tree);
  Result<LaneArrays> scratch = AllocateLanes(memory, scratch_floats, threads);
  for (const Result<LaneArrays>* lanes : {&q, &qd, &zero, &tau, &mass, &bias, &qdd, &scratch}) {
    if (!lanes->ok()) return FailAllocation(lanes->status(), options.memory_limit, what);
  }
  CopyRowsToLanes(q_file->view(), q->view);
  CopyRowsToLanes(qd_file->view(), qd->view);
  if (!options.tau_path.empty()) CopyRowsToLanes(tau_file.view(), tau->view);

  // Each thread runs the kernels over its block of robots with its own scratch.
  const float gravity[3] = {static_cast<float>(options.gravity[0]),
                            static_cast<float>(options.gravity[1]),
                            static_cast<float>(options.gravity[2])};
  pool.ParallelFor(threads, [&](size_t t) {
    const auto [begin, end] = Block(robots, t, threads);
    if (begin == end) return;
    const auto slice = [&](const LanesView& view) { return view.Slice(begin, end - begin); };
    float* thread_scratch = scratch->view.Array(t);
    if (!options.bias_path.empty()) {
      InverseDynamics(tree, gravity, slice(q->view), slice(qd->view), slice(zero->view),
                      slice(bias->view), thread_scratch);
    }
    if (!options.mass_path.empty()) {
      MassMatrix(tree, slice(q->view), slice(mass->view), thread_scratch);
    }
    if (!options.qdd_path.empty()) {
      ForwardDynamics(tree, gravity, slice(q->view), slice(qd->view), slice(tau->view),
                      slice(qdd->view), thread_scratch);
    }
  });

  const int64_t r = rows, nv = static_cast<int64_t>(n);
  struct Output {
    const char* flag;
    const std::string& path;
    const LaneArrays& lanes;
    std::vector<int64_t> shape;
    const char* description;
  };
  const Output outputs[] = {
      {"--mass", options.mass_path, mass.value(), {r, nv, nv}, "M(q), row-major per robot"},
      {"--bias", options.bias_path, bias.value(), {r, nv}, "h(q, qd) = C qd + g"},
      {"--qdd", options.qdd_path, qdd.value(), {r, nv}, "qdd = M^-1 (tau - h)"},
  };
  for (const Output& output : outputs) {
    if (output.path.empty()) continue;
    if (Status s = CheckFiniteOutput(output.flag, output.lanes.view,
                                     "the dynamics (a link mass or inertia near zero?)");
        !s.ok()) {
      return Fail(kProgram, s);
    }
  }
  for (const Output& output : outputs) {
    if (output.path.empty()) continue;
    if (Status s = SaveLanes(memory, output.lanes.view, output.shape, output.path); !s.ok()) {
      return FailAllocation(s, options.memory_limit, "the output '" + output.path + "'");
    }
  }
  const SimdTarget target = ActiveSimdTarget();
  std::printf(
      "swarm-robots dynamics: %zu robots of '%s', %zu velocities, gravity (%g, %g, %g), %zu "
      "thread(s), SIMD %s (%s)\n",
      robots, model->name.c_str(), n, options.gravity[0], options.gravity[1], options.gravity[2],
      threads, target.name.c_str(), target.hwy_name.c_str());
  for (const Output& output : outputs) {
    if (output.path.empty()) continue;
    std::string shape;
    for (int64_t extent : output.shape)
      shape += (shape.empty() ? "" : ", ") + std::to_string(extent);
    std::printf("wrote %s: float32 [%s] (%s)\n", output.path.c_str(), shape.c_str(),
                output.description);
  }
  return 0;
}

}  // namespace swarm
