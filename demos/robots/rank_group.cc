// What RankGroup does the same with or without MPI (rank_group_mpi.cc, rank_group_single.cc).
#include "demos/robots/rank_group.h"

#include <algorithm>

#include "demos/robots/rank_group_internal.h"

namespace swarm {

RobotSlice RobotSliceOf(uint64_t robots, int rank, int ranks) {
  const uint64_t r = static_cast<uint64_t>(rank);
  const uint64_t n = static_cast<uint64_t>(ranks);
  const uint64_t base = robots / n;
  const uint64_t longer = robots % n;  // ranks [0, longer) hold base + 1 robots
  return {r * base + std::min(r, longer), base + (r < longer ? 1 : 0)};
}

namespace rank_group_internal {

std::string EncodeStatus(const Status& status) {
  return std::to_string(static_cast<int>(status.code())) + ":" + status.message();
}

Status AgreedStatus(std::span<const std::string> encoded) {
  const int ranks = static_cast<int>(encoded.size());
  int failed = 0;
  int first = -1;
  for (int r = 0; r < ranks; ++r) {
    if (encoded[r].starts_with("0:")) continue;
    ++failed;
    if (first < 0) first = r;
  }
  if (first < 0) return {};
  const std::string& text = encoded[first];
  const size_t colon = text.find(':');
  const ErrorCode code = static_cast<ErrorCode>(std::stoi(text.substr(0, colon)));
  std::string message = text.substr(colon + 1);
  const bool everywhere_alike =
      std::all_of(encoded.begin(), encoded.end(), [&](const std::string& e) { return e == text; });
  if (ranks > 1 && everywhere_alike) {
    message += " (on each of the " + std::to_string(ranks) + " ranks)";
  } else if (ranks > 1) {
    message = "rank " + std::to_string(first) + " of " + std::to_string(ranks) + ": " + message;
    if (failed > 1) {
      message += " (and " + std::to_string(failed - 1) + " more rank" + (failed > 2 ? "s" : "") +
                 " failed)";
    }
  }
  return Status(code, std::move(message));
}

}  // namespace rank_group_internal
}  // namespace swarm
