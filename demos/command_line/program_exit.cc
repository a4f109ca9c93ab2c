#include "demos/command_line/program_exit.h"

#include <cstdio>
#include <cstdlib>

#include "swarm/core/memory.h"

namespace swarm {

int Fail(std::string_view program, const Status& status) {
  std::fprintf(stderr, "%.*s: %s\n", static_cast<int>(program.size()), program.data(),
               status.message().c_str());
  return kExitBadInput;
}

void FailAndExit(std::string_view program, const Status& status) {
  std::exit(Fail(program, status));
}

Status BudgetError(const Status& status, size_t memory_limit, const std::string& what) {
  if (status.code() != ErrorCode::kOverBudget) return status;
  return Status(status.code(), "--memory-limit=" + FormatBytes(memory_limit) +
                                   " is too small for " + what + ": " + status.message());
}

}  // namespace swarm
