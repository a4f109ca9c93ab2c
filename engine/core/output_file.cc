#include "swarm/core/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#include "engine/core/bounded_wait.h"
#include "engine/core/temporary_files.h"

namespace swarm {
namespace {

std::string SystemReason() { return std::strerror(errno); }

std::string Quoted(const std::string& path) { return "'" + path + "'"; }

// Names a writer has not used before: the process id keeps programs apart, the counter keeps
// writers of one process apart, and O_EXCL makes a name left by a killed process (or taken in a
// race) move on to the next one instead of sharing it.
std::atomic<unsigned long> next_temporary{0};

std::string OctalMode(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof(text), "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

bool SameFile(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// The descriptor (1 or 2) whose regular file `target` is: /dev/stdout, /proc/self/fd/1 or the
// file's own name after `> file`. Replacing that file would leave the stream writing to a deleted
// one, and a second descriptor would write at its own offset over the stream's text; writing
// through a duplicate shares the stream's offset instead. -1 for any other file.
int OwnStandardStream(const struct stat& target) {
  for (int fd : {STDOUT_FILENO, STDERR_FILENO}) {
    struct stat stream;
    if (::fstat(fd, &stream) == 0 && S_ISREG(stream.st_mode) && SameFile(stream, target)) {
      return fd;
    }
  }
  return -1;
}

// Opens a FIFO or character device for writing in place. O_NONBLOCK keeps a FIFO without a
// reader from blocking open() forever (it fails with ENXIO instead), so the wait is ours to bound;
// the writes themselves block as usual.
Result<int> OpenWriteThrough(const std::string& path, bool fifo) {
  std::optional<Result<int>> opened = PollFor(kOutputFifoWaitMilliseconds, [&] {
    std::optional<Result<int>> outcome;
    const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd >= 0) {
      const int flags = ::fcntl(fd, F_GETFL);
      if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        const std::string reason = SystemReason();
        ::close(fd);
        outcome = InvalidArgument("cannot open " + Quoted(path) + " for writing: " + reason);
      } else {
        outcome = fd;
      }
    } else if (!(fifo && errno == ENXIO)) {
      outcome = InvalidArgument("cannot open " + Quoted(path) + " for writing: " + SystemReason());
    }
    return outcome;  // empty: a FIFO with no reader yet
  });
  if (opened) return *opened;
  return InvalidArgument(Quoted(path) + " is a FIFO with no reader (waited " +
                         std::to_string(kOutputFifoWaitMilliseconds / 1000) +
                         " s); start its reader first or choose a regular file");
}

// A descriptor sharing the offset of `stream` (1 or 2), after what the program printed to it.
Result<int> DuplicateStream(const std::string& path, int stream) {
  std::fflush(stream == STDOUT_FILENO ? stdout : stderr);
  const int fd = ::fcntl(stream, F_DUPFD_CLOEXEC, 0);
  if (fd < 0) return InvalidArgument("cannot write " + Quoted(path) + ": " + SystemReason());
  return fd;
}

}  // namespace

Result<OutputFile> OutputFile::Create(const std::string& path) {
  if (path.empty()) return InvalidArgument("expected the path of an output file, got ''");
  OutputFile file;
  file.path_ = path;
  file.destination_ = path;
  struct stat existing;
  const bool exists = ::stat(path.c_str(), &existing) == 0;
  if (exists) {
    const mode_t type = existing.st_mode & S_IFMT;
    if (type == S_IFDIR) return InvalidArgument(Quoted(path) + " is a directory");
    if (type == S_IFSOCK || type == S_IFBLK) {
      return InvalidArgument(Quoted(path) + " is a " +
                             (type == S_IFSOCK ? "socket" : "block device") +
                             "; outputs go to regular files, FIFOs or character devices such as "
                             "/dev/null");
    }
    const int own_stream = type == S_IFREG ? OwnStandardStream(existing) : -1;
    if (type == S_IFIFO || type == S_IFCHR || own_stream >= 0) {
      Result<int> fd = own_stream >= 0 ? DuplicateStream(path, own_stream)
                                       : OpenWriteThrough(path, type == S_IFIFO);
      if (!fd.ok()) return fd.status();
      file.file_ = ::fdopen(fd.value(), "wb");
      if (file.file_ == nullptr) {
        const std::string reason = SystemReason();
        ::close(fd.value());
        return InvalidArgument("cannot open " + Quoted(path) + ": " + reason);
      }
      file.write_through_ = true;
      return file;
    }
    if (type != S_IFREG) return InvalidArgument(Quoted(path) + " is not a regular file");
    // Root may write anything, so the mode bits decide what "read-only" means; other users are
    // also refused a file they may not write (renaming over it would only need the directory).
    if ((existing.st_mode & 0222) == 0 || (::access(path.c_str(), W_OK) != 0 && errno == EACCES)) {
      return InvalidArgument(Quoted(path) + " is read-only (mode " + OctalMode(existing.st_mode) +
                             "): make it writable or choose another path");
    }
    struct stat link;
    if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
      char resolved[PATH_MAX];
      if (::realpath(path.c_str(), resolved) == nullptr) {
        return InvalidArgument("cannot follow the symbolic link " + Quoted(path) + ": " +
                               SystemReason());
      }
      file.destination_ = resolved;
    }
  }
  for (int attempt = 0;; ++attempt) {
    file.temporary_path_ = TemporaryPathFor(file.destination_, next_temporary.fetch_add(1));
    // 0666 less the umask, as for any file the program creates (mkstemp would give 0600); an
    // existing file's mode and owner are copied below.
    const int fd =
        ::open(file.temporary_path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      file.registry_slot_ = RegisterTemporaryFile(file.temporary_path_);
      if (exists) {
        // Owner first: chown clears the set-id bits that the chmod then restores. Only root (or
        // the owner giving the file to its own group) may chown; otherwise the new file is ours.
        if (::fchown(fd, existing.st_uid, existing.st_gid) != 0) errno = 0;
        if (::fchmod(fd, existing.st_mode & 07777) != 0) errno = 0;
      }
      file.file_ = ::fdopen(fd, "wb");
      if (file.file_ == nullptr) {
        const std::string reason = SystemReason();
        ::close(fd);
        file.RemoveTemporary();
        return InvalidArgument("cannot open the temporary file " + Quoted(file.temporary_path_) +
                               ": " + reason);
      }
      return file;
    }
    if (errno != EEXIST || attempt == 1000) {
      return InvalidArgument("cannot create the temporary file " + Quoted(file.temporary_path_) +
                             ": " + SystemReason());
    }
  }
}

OutputFile::OutputFile(OutputFile&& other) noexcept { *this = std::move(other); }

OutputFile& OutputFile::operator=(OutputFile&& other) noexcept {
  if (this != &other) {
    Discard();
    file_ = std::exchange(other.file_, nullptr);
    path_ = std::move(other.path_);
    destination_ = std::move(other.destination_);
    temporary_path_ = std::move(other.temporary_path_);
    write_through_ = other.write_through_;
    registry_slot_ = std::exchange(other.registry_slot_, -1);
    bytes_written_ = other.bytes_written_;
    error_ = std::move(other.error_);
  }
  return *this;
}

OutputFile::~OutputFile() { Discard(); }

void OutputFile::RemoveTemporary() {
  if (write_through_ || temporary_path_.empty()) return;
  ::unlink(temporary_path_.c_str());
  UnregisterTemporaryFile(std::exchange(registry_slot_, -1));
}

void OutputFile::Discard() {
  if (file_ == nullptr) return;
  std::fclose(file_);
  file_ = nullptr;
  RemoveTemporary();
}

Status OutputFile::Failed(const std::string& what) {
  if (error_.ok()) {
    const std::string target =
        write_through_ ? Quoted(path_) : "the temporary file " + Quoted(temporary_path_);
    error_ = InvalidArgument("cannot " + what + " " + target + " (after " +
                             std::to_string(bytes_written_) + " bytes): " + SystemReason());
  }
  return error_;
}

Status OutputFile::Write(std::span<const std::byte> bytes) {
  if (!error_.ok()) return error_;
  if (file_ == nullptr) return InvalidArgument("output file " + Quoted(path_) + " is not open");
  if (bytes.empty()) return {};
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) {
    return Failed("write");
  }
  bytes_written_ += bytes.size();
  return {};
}

Status OutputFile::Close() {
  if (file_ == nullptr && error_.ok()) {
    return InvalidArgument("output file " + Quoted(path_) + " is not open");
  }
  if (!error_.ok()) {
    Discard();
    return error_;
  }
  // fflush first so that a full disk is reported by the step that met it.
  if (std::fflush(file_) != 0) {
    Status error = Failed("write");
    Discard();
    return error;
  }
  std::FILE* file = std::exchange(file_, nullptr);
  if (std::fclose(file) != 0) {
    Status error = Failed("close");
    RemoveTemporary();
    return error;
  }
  return {};
}

Status OutputFile::Commit() {
  OutputFile* const self[] = {this};
  return CommitTogether(self);
}

Status OutputFile::CommitTogether(std::span<OutputFile* const> files) {
  Status closed;
  for (OutputFile* file : files) {
    if (Status s = file->Close(); !s.ok() && closed.ok()) closed = s;
  }
  if (!closed.ok()) {
    for (OutputFile* file : files) file->RemoveTemporary();
    return closed;
  }
  // The old destinations, kept under a second name until every rename has succeeded. Without a
  // hard link (a file system that has none) the group is committed without that safety net.
  // A single file needs none: its one rename either happens or not.
  std::vector<std::string> backups(files.size());
  std::vector<bool> had_destination(files.size(), true);
  for (size_t i = 0; i < files.size() && files.size() > 1; ++i) {
    const OutputFile& file = *files[i];
    if (file.write_through_) continue;
    const std::string backup = TemporaryPathFor(file.destination_, next_temporary.fetch_add(1));
    if (::link(file.destination_.c_str(), backup.c_str()) == 0) {
      backups[i] = backup;
    } else {
      had_destination[i] = errno != ENOENT;
    }
  }
  for (size_t i = 0; i < files.size(); ++i) {
    OutputFile& file = *files[i];
    if (file.write_through_) continue;
    if (std::rename(file.temporary_path_.c_str(), file.destination_.c_str()) == 0) {
      UnregisterTemporaryFile(std::exchange(file.registry_slot_, -1));
      continue;
    }
    Status error =
        InvalidArgument("cannot rename the temporary file " + Quoted(file.temporary_path_) +
                        " to " + Quoted(file.destination_) + ": " + SystemReason());
    for (size_t j = 0; j < i; ++j) {
      const OutputFile& done = *files[j];
      if (done.write_through_) continue;
      if (!backups[j].empty()) {
        std::rename(backups[j].c_str(), done.destination_.c_str());
        backups[j].clear();
      } else if (!had_destination[j]) {
        ::unlink(done.destination_.c_str());
      }
    }
    for (size_t j = i; j < files.size(); ++j) files[j]->RemoveTemporary();
    for (const std::string& backup : backups) {
      if (!backup.empty()) ::unlink(backup.c_str());
    }
    return error;
  }
  for (const std::string& backup : backups) {
    if (!backup.empty()) ::unlink(backup.c_str());
  }
  return {};
}

}  // namespace swarm
