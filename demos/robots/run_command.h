// `swarm-robots run`: builds a RobotBatch of --robots copies of the model (under mpirun: of this
// rank's share of them), starts the task, steps it with a progress bar, records trajectories and
// prints the summary.
#pragma once

#include "demos/robots/options.h"
#include "demos/robots/rank_group.h"

namespace swarm {

// Returns the process exit status, the same on every rank: 0, or 2 after rank 0 printed why the
// run could not happen.
int RunRobots(const RunOptions& options, RankGroup& ranks);

}  // namespace swarm
