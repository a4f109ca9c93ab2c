#include "demos/robots/trajectory_recorder.h"

#include <algorithm>
#include <vector>

#include "demos/robots/options.h"
#include "demos/robots/pose_layout.h"

namespace swarm {

Result<RecordingPlan> PlanRecording(const std::string& q_path, uint64_t steps, uint64_t every,
                                    uint64_t robots, uint64_t q_count, uint64_t max_output) {
  RecordingPlan plan;
  plan.frames = steps / every + 1;
  plan.robots = robots;
  plan.every = every;
  plan.q_count = q_count;
  plan.q_path = q_path;
  plan.ee_path = EndEffectorOutputPath(q_path);
  const int64_t frames = static_cast<int64_t>(plan.frames);
  const int64_t m = static_cast<int64_t>(robots);
  const int64_t q_shape[] = {frames, m, static_cast<int64_t>(q_count)};
  const int64_t ee_shape[] = {frames, m, 7};
  plan.total_bytes = NpyFileBytes(q_shape) + NpyFileBytes(ee_shape);
  if (plan.total_bytes > max_output) {
    return InvalidArgument("--out: the recording would take " + FormatBytes(plan.total_bytes) +
                           " (" + std::to_string(plan.frames) + " frames x " +
                           std::to_string(robots) + " robots x (" + std::to_string(q_count) +
                           " q + 7 pose) floats), over --max-output=" + FormatBytes(max_output) +
                           "; record less with --record-every or --record-robots, or "
                           "raise --max-output");
  }
  return plan;
}

Result<TrajectoryRecorder> TrajectoryRecorder::Create(MemoryAccountant& accountant,
                                                      const RecordingPlan& plan) {
  TrajectoryRecorder recorder;
  recorder.plan_ = plan;
  const size_t floats_per_robot = std::max<size_t>(plan.q_count, kPoseArrays);
  Result<FloatArray> frame =
      FloatArray::Create(accountant, plan.robots * floats_per_robot, MemoryCategory::kScratch);
  if (!frame.ok()) return frame.status();
  recorder.frame_ = std::move(frame).value();
  const int64_t frames = static_cast<int64_t>(plan.frames);
  const int64_t m = static_cast<int64_t>(plan.robots);
  Result<NpyStreamWriter> q_file =
      NpyStreamWriter::Open(plan.q_path, {frames, m, static_cast<int64_t>(plan.q_count)});
  if (!q_file.ok()) return q_file.status();
  recorder.q_file_ = std::move(q_file).value();
  Result<NpyStreamWriter> ee_file = NpyStreamWriter::Open(plan.ee_path, {frames, m, 7});
  if (!ee_file.ok()) return ee_file.status();
  recorder.ee_file_ = std::move(ee_file).value();
  return recorder;
}

Status TrajectoryRecorder::Record(const RobotBatch& batch) {
  const size_t m = plan_.robots;
  const size_t q_count = plan_.q_count;
  float* frame = frame_.span().data();
  const ConstLanesView q = batch.q();
  for (size_t c = 0; c < q_count; ++c) {
    const float* column = q.Array(c);
    for (size_t r = 0; r < m; ++r) frame[r * q_count + c] = column[r];
  }
  if (Status s = q_file_.Append({frame, m * q_count}); !s.ok()) return s;
  const ConstLanesView poses = batch.link_poses();
  const size_t link = kPoseArrays * batch.end_effector();
  for (size_t c = 0; c < kPoseArrays; ++c) {
    const float* column = poses.Array(link + kFileToPoseArray[c]);
    for (size_t r = 0; r < m; ++r) frame[r * kPoseArrays + c] = column[r];
  }
  return ee_file_.Append({frame, m * kPoseArrays});
}

Status TrajectoryRecorder::Finish() {
  if (Status s = q_file_.Finish(); !s.ok()) return s;
  return ee_file_.Finish();
}

}  // namespace swarm
