// Output files that never show a partial state: the bytes go to a temporary file created next to
// the destination under a name unique to this writer, and only a complete, closed file is renamed
// over the destination. A reader of the path sees the old file or the new one, never a mixture;
// a failed write (full disk, a file-size limit, an I/O error) removes the temporary file and
// leaves an existing file at the path untouched; two programs writing the same path at once each
// write their own temporary file, and the path ends up holding one of the two complete files.
// Files that belong together (a recording and its companion) are committed by CommitTogether:
// both new or both old.
//
// What the path names decides how it is written:
// - nothing yet: a new file with the permissions of a new file (0666 less the umask);
// - a regular file: replaced atomically as above; the new file keeps the old one's permission
//   bits, and its owner and group where the process may set them. A file nobody may write (no
//   write bit, e.g. 0444, or one this user may not write) is refused as "read-only" instead of
//   being replaced;
// - a symbolic link: followed; the file it leads to is written by these rules and the link stays;
// - a FIFO or a character device (/dev/null, a terminal, /dev/stdout of a pipe): written through,
//   in place, with no temporary file and no rename, so the special file is never replaced. A
//   FIFO with no reader is waited for up to kOutputFifoWaitMilliseconds, then refused. Errors of
//   the device are reported (/dev/full: "No space left on device"). Nothing is atomic here;
// - the regular file that is this process's standard output or error (`--out /dev/stdout >
//   file`): written through a duplicate of that descriptor, at the stream's own offset, after
//   flushing what the program printed before;
// - a directory, a socket or a block device: refused.
//
// Temporary files are named "<basename>.tmp-<pid>-<n>" beside the destination, the basename cut
// short when needed so the name fits in NAME_MAX. While a temporary file is alive its path is
// kept in a fixed, lock-free registry, and RemoveLiveTemporaryFiles removes them all: a program
// calls it from its SIGINT/SIGTERM handler (swarm installs no handler itself). A process killed
// by SIGKILL cannot clean up and leaves its temporary file and the destination as it was. With
// SIGXFSZ ignored, a file-size limit is an ordinary write error (EFBIG, "File too large"); with
// the default action the process dies at the limit and leaves its temporary file.
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

// How long Create waits for a reader to open a FIFO output before refusing it.
inline constexpr int kOutputFifoWaitMilliseconds = 2000;

class OutputFile {
 public:
  // Opens the temporary file beside `path` (or `path` itself, written through, for a FIFO or a
  // character device). Errors name the path or the temporary file and the reason (callers put
  // the kind of file in front): "'out.png' is a directory", "'out.npy' is read-only (mode 0444):
  // make it writable or choose another path", "cannot create the temporary file
  // 'no/such/out.png.tmp-7-0': No such file or directory".
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
  // file is removed and the destination is unchanged. Written through: flushes and closes.
  Status Commit();
  // Commits every file or none: each is written out and closed first (any failure discards them
  // all), then renamed in order; if a rename fails, the destinations already replaced get their
  // old files back (kept meanwhile under a hard link beside them) or are removed if they had
  // none. Files written through cannot be taken back and are only flushed. (A signal that ends
  // the process between two renames is the one gap: the replaced file's old contents are then
  // left under their "<basename>.tmp-<pid>-<n>" name beside it.)
  static Status CommitTogether(std::span<OutputFile* const> files);
  // Removes the temporary file (also done by the destructor when Commit was not called).
  void Discard();

  const std::string& path() const { return path_; }
  const std::string& temporary_path() const { return temporary_path_; }  // "" if written through
  bool writes_through() const { return write_through_; }
  size_t bytes_written() const { return bytes_written_; }
  bool is_open() const { return file_ != nullptr; }

 private:
  Status Failed(const std::string& what);
  // Flushes and closes the file, keeping the temporary file (the first half of a commit).
  Status Close();
  // Removes the closed or open temporary file.
  void RemoveTemporary();

  std::FILE* file_ = nullptr;
  std::string path_;         // as the caller gave it, for messages
  std::string destination_;  // where the rename goes: path_ with its symbolic links followed
  std::string temporary_path_;
  bool write_through_ = false;
  int registry_slot_ = -1;
  size_t bytes_written_ = 0;
  Status error_;
};

// Removes every temporary file an OutputFile of this process has open or closed but not yet
// renamed. Async-signal-safe (no allocation, no locks): meant for a SIGINT/SIGTERM handler, which
// then re-raises the signal. The OutputFiles concerned fail on Commit afterwards.
void RemoveLiveTemporaryFiles();

}  // namespace swarm
