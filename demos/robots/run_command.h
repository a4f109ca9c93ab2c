// `swarm-robots run`: builds a RobotBatch of --robots copies of the model, starts the task,
// steps it with a progress bar, records trajectories and prints the summary.
#pragma once

#include "demos/robots/options.h"

namespace swarm {

// Returns the process exit status: 0, or 2 after printing why the run could not happen.
int RunRobots(const RunOptions& options);

}  // namespace swarm
