// The processes of one swarm-robots run. Built with MPI (CMake option SWARM_MPI) and started
// under `mpirun -np N`, they are the N ranks of MPI_COMM_WORLD; otherwise, or started alone, the
// one process. `swarm-robots run` splits its robots among them (RobotSliceOf); rank 0 prints and
// writes the files, and gathers what the others computed through the collectives below.
//
// Every collective must be called by every rank, in the same order, so that none waits for a
// call that never comes: a rank that fails keeps taking part and reports its failure at the next
// agreement (Agree, AnyOf) instead of leaving. A rank that crashes outright is MPI's to handle:
// mpirun ends the job.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "swarm/core/status.h"

namespace swarm {

// The robots [first, first + count) of a run of `robots` split among `ranks` processes: contiguous
// slices in rank order, the first robots % ranks of them one robot longer.
struct RobotSlice {
  uint64_t first = 0;
  uint64_t count = 0;
};
RobotSlice RobotSliceOf(uint64_t robots, int rank, int ranks);

class RankGroup {
 public:
  // Joins MPI when built with it and started by an MPI launcher (mpirun, srun), which hands each
  // process its part of the job through the environment that MPI_Init reads; leaves it when
  // destroyed. Started otherwise, the process is a group of one without MPI (MPI_Init would
  // make a one-process job, at about half a second per start). Only the thread that made the
  // group calls MPI (MPI_THREAD_FUNNELED). One per process, made before anything else in main.
  RankGroup(int* argc, char*** argv);
  ~RankGroup();
  RankGroup(const RankGroup&) = delete;
  RankGroup& operator=(const RankGroup&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool is_root() const { return rank_ == 0; }
  // "vm" or the node's name as MPI knows it.
  const std::string& host() const { return host_; }

  // Every rank's status in, the same status out on every rank: OK when all are OK, else the
  // error of the lowest failing rank, its message prefixed "rank R of N: " (and followed by how
  // many other ranks failed) when there is more than one rank.
  Status Agree(const Status& mine);
  // True on every rank when any rank passes true.
  bool AnyOf(bool mine);
  // Rank 0's value, on every rank.
  uint64_t BroadcastWord(uint64_t value);

  // Rank 0 gets every rank's words, rank after rank (each rank passes the same count); the
  // others get nothing.
  std::vector<uint64_t> GatherWords(std::span<const uint64_t> mine);
  // Rank 0 gets every rank's text, in rank order; the others get nothing.
  std::vector<std::string> GatherTexts(const std::string& mine);
  // Rank 0 receives every other rank's floats into `root_out` after its own, rank after rank, at
  // offsets given by `counts` (counts[r] floats from rank r, known to every rank). Rank 0's own
  // counts[0] floats must already be at the start of root_out; the other ranks pass root_out
  // empty.
  void GatherFloats(std::span<const float> mine, std::span<const uint64_t> counts,
                    std::span<float> root_out);

 private:
  int rank_ = 0;
  int size_ = 1;
  bool joined_mpi_ = false;
  std::string host_;
};

}  // namespace swarm
