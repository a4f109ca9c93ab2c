// The .npy outputs of `swarm-robots run --out run.npy`: every K-th state (K = --record-every,
// steps 0, K, 2K, ... <= the last step) of the first M robots (M = --record-robots):
//   run.npy     float32 [frames, M, q_count]  q in the order of `swarm-robots info`
//   run_ee.npy  float32 [frames, M, 7]        end-effector pose px py pz qw qx qy qz
// (swarm's pose arrays hold qx qy qz qw; the files use the w-first order most robotics tools
// print). Frames stream to disk as they are recorded, through one scratch frame of M robots.
#pragma once

#include <cstdint>
#include <string>

#include "demos/robots/npy_stream.h"
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
  // Opens both files and allocates the scratch frame (MemoryCategory::kScratch).
  static Result<TrajectoryRecorder> Create(MemoryAccountant& accountant, const RecordingPlan& plan);
  TrajectoryRecorder() = default;

  // Appends the batch's current q and end-effector pose of robots [0, M) as one frame.
  Status Record(const RobotBatch& batch);
  // Checks that every frame was written and renames the files into place.
  Status Finish();

  const RecordingPlan& plan() const { return plan_; }

 private:
  RecordingPlan plan_;
  NpyStreamWriter q_file_;
  NpyStreamWriter ee_file_;
  FloatArray frame_;
};

}  // namespace swarm
