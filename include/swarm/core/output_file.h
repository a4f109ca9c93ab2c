// Output files that never show a partial state: the bytes go to a temporary file created next to
// the destination under a name unique to this writer, and only a complete, closed file is renamed
// over the destination. A reader of the path sees the old file or the new one, never a mixture;
// a failed write (full disk, a file-size limit, an I/O error) removes the temporary file and
// leaves an existing file at the path untouched; two programs writing the same path at once each
// write their own temporary file, and the path ends up holding one of the two complete files.
//
// A process killed mid-write (kill -9, SIGXFSZ) cannot clean up: it leaves its temporary file,
// named "<path>.tmp-<pid>-<n>", and the destination as it was.
//
// The new file replaces whatever the path named: a symlink is replaced, not followed, and the
// file gets the permissions of a new file (0666 less the umask), not those of the old one.
//
// Durability across a power cut would need an fsync before the rename; like numpy's np.save and
// most tools, swarm does not pay for one.
#pragma once

#include <cstddef>
#include <cstdio>
#include <span>
#include <string>

#include "swarm/core/status.h"

namespace swarm {

class OutputFile {
 public:
  // Creates the temporary file beside `path`. Errors name the path or the temporary file and the
  // system's reason (callers put the kind of file in front): "'out.png' is a directory",
  // "cannot create the temporary file 'no/such/out.png.tmp-7-0': No such file or directory".
  static Result<OutputFile> Create(const std::string& path);
  OutputFile() = default;
  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&& other) noexcept;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();  // an uncommitted file is discarded

  // Appends bytes (buffered). After the first failure every call fails with the same error and
  // Commit reports it; the destination is never touched.
  Status Write(std::span<const std::byte> bytes);
  Status Write(const void* data, size_t bytes) {
    return Write(std::span<const std::byte>(static_cast<const std::byte*>(data), bytes));
  }
  // Closes the temporary file and renames it over the destination; on any error the temporary
  // file is removed and the destination is unchanged.
  Status Commit();
  // Removes the temporary file (also done by the destructor when Commit was not called).
  void Discard();

  const std::string& path() const { return path_; }
  const std::string& temporary_path() const { return temporary_path_; }
  size_t bytes_written() const { return bytes_written_; }
  bool is_open() const { return file_ != nullptr; }

 private:
  Status Failed(const std::string& what);

  std::FILE* file_ = nullptr;
  std::string path_;
  std::string temporary_path_;
  size_t bytes_written_ = 0;
  Status error_;
};

}  // namespace swarm
