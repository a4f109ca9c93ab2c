// RankGroup over MPI_COMM_WORLD. MPI's default error handler ends the whole job on a
// communication failure, so the calls here do not return MPI errors. A process started without
// an MPI launcher does not join MPI: it is a group of one, and every collective is its trivial
// one-process form.
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdlib>

#include "demos/robots/rank_group.h"
#include "demos/robots/rank_group_internal.h"

namespace swarm {
namespace {

// MPI counts are ints: larger messages go in pieces of at most this many elements.
constexpr uint64_t kMaxPiece = uint64_t{1} << 30;
constexpr int kFloatsTag = 1;
constexpr int kTextTag = 2;

// The text of rank 0, on every rank.
void BroadcastText(std::string& text) {
  uint64_t length = text.size();
  MPI_Bcast(&length, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  text.resize(length);
  for (uint64_t done = 0; done < length;) {
    const uint64_t piece = std::min(length - done, kMaxPiece);
    MPI_Bcast(text.data() + done, static_cast<int>(piece), MPI_CHAR, 0, MPI_COMM_WORLD);
    done += piece;
  }
}

// Whether a launcher started this process as part of an MPI job: OpenMPI's mpirun, or a PMIx
// or PMI launcher such as Slurm's srun, sets these for MPI_Init to read.
bool StartedByMpiLauncher() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"}) {
    if (std::getenv(name) != nullptr) return true;
  }
  return false;
}

}  // namespace

RankGroup::RankGroup(int* argc, char*** argv) : host_("this machine") {
  if (!StartedByMpiLauncher()) return;
  joined_mpi_ = true;
  int provided = 0;
  MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(name, &length);
  host_.assign(name, static_cast<size_t>(std::max(length, 0)));
}

RankGroup::~RankGroup() {
  if (joined_mpi_) MPI_Finalize();
}

Status RankGroup::Agree(const Status& mine) {
  if (!joined_mpi_) return mine;
  if (!AnyOf(!mine.ok())) return {};
  const std::vector<std::string> encoded = GatherTexts(rank_group_internal::EncodeStatus(mine));
  std::string agreed;
  if (is_root())
    agreed = rank_group_internal::EncodeStatus(rank_group_internal::AgreedStatus(encoded));
  BroadcastText(agreed);
  // Decoded as the status of a one-rank group: the message already names the rank.
  const std::string single[] = {agreed};
  return rank_group_internal::AgreedStatus(single);
}

bool RankGroup::AnyOf(bool mine) {
  if (!joined_mpi_) return mine;
  int value = mine ? 1 : 0;
  int any = 0;
  MPI_Allreduce(&value, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return any != 0;
}

uint64_t RankGroup::BroadcastWord(uint64_t value) {
  if (!joined_mpi_) return value;
  MPI_Bcast(&value, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  return value;
}

std::vector<uint64_t> RankGroup::GatherWords(std::span<const uint64_t> mine) {
  if (!joined_mpi_) return {mine.begin(), mine.end()};
  std::vector<uint64_t> all(is_root() ? mine.size() * static_cast<size_t>(size_) : 0);
  MPI_Gather(mine.data(), static_cast<int>(mine.size()), MPI_UINT64_T, all.data(),
             static_cast<int>(mine.size()), MPI_UINT64_T, 0, MPI_COMM_WORLD);
  return all;
}

std::vector<std::string> RankGroup::GatherTexts(const std::string& mine) {
  if (!joined_mpi_) return {mine};
  const uint64_t length = mine.size();
  const std::vector<uint64_t> lengths = GatherWords({&length, 1});
  std::vector<std::string> texts;
  if (!is_root()) {
    if (length > 0) {
      MPI_Send(mine.data(), static_cast<int>(std::min<uint64_t>(length, INT_MAX)), MPI_CHAR, 0,
               kTextTag, MPI_COMM_WORLD);
    }
    return texts;
  }
  texts.resize(static_cast<size_t>(size_));
  texts[0] = mine;
  for (int r = 1; r < size_; ++r) {
    texts[r].resize(std::min<uint64_t>(lengths[r], INT_MAX));
    if (!texts[r].empty()) {
      MPI_Recv(texts[r].data(), static_cast<int>(texts[r].size()), MPI_CHAR, r, kTextTag,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  return texts;
}

void RankGroup::GatherFloats(std::span<const float> mine, std::span<const uint64_t> counts,
                             std::span<float> root_out) {
  if (!joined_mpi_) return;  // rank 0's floats are already in place
  if (!is_root()) {
    for (uint64_t done = 0; done < mine.size();) {
      const uint64_t piece = std::min<uint64_t>(mine.size() - done, kMaxPiece);
      MPI_Send(mine.data() + done, static_cast<int>(piece), MPI_FLOAT, 0, kFloatsTag,
               MPI_COMM_WORLD);
      done += piece;
    }
    return;
  }
  uint64_t offset = counts[0];
  for (int r = 1; r < size_; ++r) {
    for (uint64_t done = 0; done < counts[r];) {
      const uint64_t piece = std::min<uint64_t>(counts[r] - done, kMaxPiece);
      MPI_Recv(root_out.data() + offset + done, static_cast<int>(piece), MPI_FLOAT, r, kFloatsTag,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      done += piece;
    }
    offset += counts[r];
  }
}

}  // namespace swarm
