// A .npy file written frame by frame: the header (swarm/tensor/npy.h NpyHeaderBytes, the bytes
// numpy's np.save writes) first, then the elements as they are produced, so a long run's trajectory
// never has to sit in memory. The file is written under a temporary name unique to this writer
// (core/output_file.h) and renamed to `path` by Finish once every element is there: a failed run
// leaves an existing file at `path` as it was, and two runs writing the same path never mix
// their frames (the path ends up holding one complete run).
// Files that belong together are finished together (FinishTogether).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "swarm/core/output_file.h"
#include "swarm/core/status.h"

namespace swarm {

class NpyStreamWriter {
 public:
  // Creates the temporary file and writes the float32 C-order header for `shape`. Errors name the
  // path and the system's reason.
  static Result<NpyStreamWriter> Open(const std::string& path, std::vector<int64_t> shape);
  NpyStreamWriter() = default;

  // Appends elements in C order; more than the shape holds is an error.
  Status Append(std::span<const float> values);
  // Checks that exactly the shape's element count was written, closes and renames.
  Status Finish();
  // Finish for files that belong together (a recording and its companion): every file is
  // checked and closed before any is renamed, and either all destinations change or none
  // (OutputFile::CommitTogether).
  static Status FinishTogether(std::span<NpyStreamWriter* const> writers);

  const std::string& path() const { return file_.path(); }
  // Bytes of the whole file (header + elements).
  uint64_t file_bytes() const { return header_bytes_ + 4 * expected_elements_; }

 private:
  // The element count check of Finish; discards the file when it fails.
  Status CheckComplete();

  OutputFile file_;
  uint64_t header_bytes_ = 0;
  uint64_t expected_elements_ = 0;
  uint64_t written_elements_ = 0;
};

// Bytes of a float32 .npy file of `shape` (header included), without writing it.
uint64_t NpyFileBytes(std::span<const int64_t> shape);

}  // namespace swarm
