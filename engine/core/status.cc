#include "swarm/core/status.h"

namespace swarm {

const char* ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk:
      return "ok";
    case ErrorCode::kInvalidArgument:
      return "invalid argument";
    case ErrorCode::kOverBudget:
      return "over memory budget";
    case ErrorCode::kOutOfMemory:
      return "out of memory";
    case ErrorCode::kUnavailable:
      return "unavailable";
  }
  return "unknown error";
}

}  // namespace swarm
