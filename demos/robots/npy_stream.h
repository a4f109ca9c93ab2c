// A .npy file written frame by frame: the header (engine/tensor/npy.h NpyHeaderBytes, the bytes
// numpy's np.save writes) first, then the elements as they are produced, so a long run's trajectory
// never has to sit in memory. The file is written under "<path>.partial" and renamed to `path` by
// Finish once every element is there: an interrupted or failed run leaves no truncated .npy
// behind (the partial file is removed on error and by the destructor).
#pragma once

#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "swarm/core/status.h"

namespace swarm {

class NpyStreamWriter {
 public:
  // Creates the partial file and writes the float32 C-order header for `shape`. Errors name the
  // path and the system's reason.
  static Result<NpyStreamWriter> Open(const std::string& path, std::vector<int64_t> shape);
  NpyStreamWriter() = default;
  NpyStreamWriter(NpyStreamWriter&& other) noexcept;
  NpyStreamWriter& operator=(NpyStreamWriter&& other) noexcept;
  NpyStreamWriter(const NpyStreamWriter&) = delete;
  NpyStreamWriter& operator=(const NpyStreamWriter&) = delete;
  ~NpyStreamWriter();

  // Appends elements in C order; more than the shape holds is an error.
  Status Append(std::span<const float> values);
  // Checks that exactly the shape's element count was written, closes and renames.
  Status Finish();

  const std::string& path() const { return path_; }
  // Bytes of the whole file (header + elements).
  uint64_t file_bytes() const { return header_bytes_ + 4 * expected_elements_; }

 private:
  void Abandon();

  std::FILE* file_ = nullptr;
  std::string path_;
  std::string partial_path_;
  uint64_t header_bytes_ = 0;
  uint64_t expected_elements_ = 0;
  uint64_t written_elements_ = 0;
};

// Bytes of a float32 .npy file of `shape` (header included), without writing it.
uint64_t NpyFileBytes(std::span<const int64_t> shape);

}  // namespace swarm
