// The .npy outputs of `swarm-robots run --out run.npy`: every K-th state (K = --record-every,
// steps 0, K, 2K, ... <= the last step) of the first M robots (M = --record-robots):
//   run.npy     float32 [frames, M, q_count]  q in the order of `swarm-robots info`
//   run_ee.npy  float32 [frames, M, 7]        end-effector pose px py pz qw qx qy qz
// (swarm's pose arrays hold qx qy qz qw; the files use the w-first order most robotics tools
// print). Frames stream to disk as they are recorded, through one scratch frame of M robots.
// In a run sharded over MPI ranks the recorded robots may lie on several ranks: each packs its
// own, rank 0 gathers them into its frame (robot order is rank order) and writes the files.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "demos/robots/npy_stream.h"
#include "demos/robots/rank_group.h"
#include "swarm/core/buffer.h"
#include "swarm/core/memory.h"
#include "swarm/core/status.h"
#include "swarm/robots/robot_batch.h"

namespace swarm {

struct RecordingPlan {
  uint64_t frames = 0;  // steps / every + 1
  uint64_t robots = 0;  // M
  uint64_t every = 1;   // K
  uint64_t q_count = 0;
  std::string q_path;
  std::string ee_path;
  uint64_t total_bytes = 0;  // both files

  bool IsRecordedStep(uint64_t step) const { return step % every == 0; }
};

// The plan for a run of `steps` steps, or an error naming --max-output (with the sizes and the
// flags that shrink them) when the two files together would exceed max_output bytes.
Result<RecordingPlan> PlanRecording(const std::string& q_path, uint64_t steps, uint64_t every,
                                    uint64_t robots, uint64_t q_count, uint64_t max_output);

class TrajectoryRecorder {
 public:
  // One rank's recorder in a run of `run_robots` robots split among the ranks by RobotSliceOf:
  // rank 0 opens both files and allocates the frame of all M robots, the others a frame of their
  // own recorded robots (MemoryCategory::kScratch). `Record` then takes robot r of this rank's
  // batch to be robot slice.first + r of the run.
  static Result<TrajectoryRecorder> Create(MemoryAccountant& accountant, const RecordingPlan& plan,
                                           uint64_t run_robots, const RankGroup& ranks);
  TrajectoryRecorder() = default;

  // Appends the current q and end-effector pose of robots [0, M) as one frame. Collective: every
  // rank calls it at the same steps; the status is rank 0's writing.
  Status Record(const RobotBatch& batch, RankGroup& ranks);
  // Checks that every frame was written and renames both files into place together (rank 0):
  // a failure leaves both old files (or neither new one) at the paths.
  Status Finish();

  const RecordingPlan& plan() const { return plan_; }
  // Seconds rank 0 spent receiving the other ranks' robots (and waiting for them).
  double gather_seconds() const { return gather_seconds_; }

 private:
  // Packs `floats_per_robot` columns (pack_column(c): column c over the batch's robots) of this
  // rank's recorded robots, robot-major, into frame_; gathers the other ranks' after them on
  // rank 0, and appends the frame to `file` there.
  template <typename PackColumn>
  Status RecordColumns(size_t floats_per_robot, PackColumn pack_column, NpyStreamWriter& file,
                       RankGroup& ranks);

  RecordingPlan plan_;
  bool writes_files_ = false;
  uint64_t local_robots_ = 0;          // this rank's robots among [0, M)
  std::vector<uint64_t> rank_robots_;  // every rank's robots among [0, M)
  std::vector<uint64_t> rank_floats_;  // scratch: every rank's floats of one gather
  NpyStreamWriter q_file_;
  NpyStreamWriter ee_file_;
  FloatArray frame_;
  double gather_seconds_ = 0.0;
};

}  // namespace swarm
