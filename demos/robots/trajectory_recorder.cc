#include "demos/robots/trajectory_recorder.h"

#include <algorithm>
#include <chrono>
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
                                                      const RecordingPlan& plan,
                                                      uint64_t run_robots, const RankGroup& ranks) {
  TrajectoryRecorder recorder;
  recorder.plan_ = plan;
  recorder.writes_files_ = ranks.is_root();
  for (int r = 0; r < ranks.size(); ++r) {
    const RobotSlice slice = RobotSliceOf(run_robots, r, ranks.size());
    const uint64_t recorded = std::min(plan.robots, slice.first + slice.count);
    recorder.rank_robots_.push_back(recorded > slice.first ? recorded - slice.first : 0);
  }
  recorder.rank_floats_.resize(recorder.rank_robots_.size());
  recorder.local_robots_ = recorder.rank_robots_[ranks.rank()];
  const size_t frame_robots = recorder.writes_files_ ? plan.robots : recorder.local_robots_;
  const size_t floats_per_robot = std::max<size_t>(plan.q_count, kPoseArrays);
  Result<FloatArray> frame =
      FloatArray::Create(accountant, frame_robots * floats_per_robot, MemoryCategory::kScratch);
  if (!frame.ok()) return frame.status();
  recorder.frame_ = std::move(frame).value();
  if (!recorder.writes_files_) return recorder;
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

template <typename PackColumn>
Status TrajectoryRecorder::RecordColumns(size_t floats_per_robot, PackColumn pack_column,
                                         NpyStreamWriter& file, RankGroup& ranks) {
  float* frame = frame_.span().data();
  for (size_t c = 0; c < floats_per_robot; ++c) {
    const float* column = pack_column(c);
    for (size_t r = 0; r < local_robots_; ++r) frame[r * floats_per_robot + c] = column[r];
  }
  for (size_t r = 0; r < rank_robots_.size(); ++r) {
    rank_floats_[r] = rank_robots_[r] * floats_per_robot;
  }
  const size_t local_floats = local_robots_ * floats_per_robot;
  const auto gather_start = std::chrono::steady_clock::now();
  ranks.GatherFloats(
      {frame, local_floats}, rank_floats_,
      writes_files_ ? frame_.span().first(plan_.robots * floats_per_robot) : std::span<float>());
  gather_seconds_ +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - gather_start).count();
  if (!writes_files_) return {};
  return file.Append({frame, plan_.robots * floats_per_robot});
}

Status TrajectoryRecorder::Record(const RobotBatch& batch, RankGroup& ranks) {
  const ConstLanesView q = batch.q();
  Status q_status = RecordColumns(
      plan_.q_count, [&](size_t c) { return q.Array(c); }, q_file_, ranks);
  const ConstLanesView poses = batch.link_poses();
  const size_t link = kPoseArrays * batch.end_effector();
  Status ee_status = RecordColumns(
      kPoseArrays, [&](size_t c) { return poses.Array(link + kFileToPoseArray[c]); }, ee_file_,
      ranks);
  return q_status.ok() ? ee_status : q_status;
}

Status TrajectoryRecorder::Finish() {
  if (!writes_files_) return {};
  NpyStreamWriter* const files[] = {&q_file_, &ee_file_};
  return NpyStreamWriter::FinishTogether(files);
}

}  // namespace swarm
