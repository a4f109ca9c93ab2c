#include "swarm/core/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <utility>

namespace swarm {
namespace {

std::string SystemReason() { return std::strerror(errno); }

// Names a writer has not used before: the process id keeps programs apart, the counter keeps
// writers of one process apart, and O_EXCL makes a name left by a killed process (or taken in a
// race) move on to the next one instead of sharing it.
std::atomic<unsigned long> next_temporary{0};

}  // namespace

Result<OutputFile> OutputFile::Create(const std::string& path) {
  if (path.empty()) return InvalidArgument("expected the path of an output file, got ''");
  struct stat existing;
  if (::stat(path.c_str(), &existing) == 0 && S_ISDIR(existing.st_mode)) {
    return InvalidArgument("'" + path + "' is a directory");
  }
  OutputFile file;
  file.path_ = path;
  const std::string base = path + ".tmp-" + std::to_string(::getpid()) + "-";
  for (int attempt = 0;; ++attempt) {
    file.temporary_path_ = base + std::to_string(next_temporary.fetch_add(1));
    // 0666 less the umask, as for any file the program creates (mkstemp would give 0600).
    const int fd =
        ::open(file.temporary_path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      file.file_ = ::fdopen(fd, "wb");
      if (file.file_ == nullptr) {
        const std::string reason = SystemReason();
        ::close(fd);
        ::unlink(file.temporary_path_.c_str());
        return InvalidArgument("cannot open the temporary file '" + file.temporary_path_ +
                               "': " + reason);
      }
      return file;
    }
    if (errno != EEXIST || attempt == 1000) {
      return InvalidArgument("cannot create the temporary file '" + file.temporary_path_ +
                             "': " + SystemReason());
    }
  }
}

OutputFile::OutputFile(OutputFile&& other) noexcept { *this = std::move(other); }

OutputFile& OutputFile::operator=(OutputFile&& other) noexcept {
  if (this != &other) {
    Discard();
    file_ = std::exchange(other.file_, nullptr);
    path_ = std::move(other.path_);
    temporary_path_ = std::move(other.temporary_path_);
    bytes_written_ = other.bytes_written_;
    error_ = std::move(other.error_);
  }
  return *this;
}

OutputFile::~OutputFile() { Discard(); }

void OutputFile::Discard() {
  if (file_ == nullptr) return;
  std::fclose(file_);
  file_ = nullptr;
  ::unlink(temporary_path_.c_str());
}

Status OutputFile::Failed(const std::string& what) {
  if (error_.ok()) {
    error_ =
        InvalidArgument("cannot " + what + " the temporary file '" + temporary_path_ + "' (after " +
                        std::to_string(bytes_written_) + " bytes): " + SystemReason());
  }
  return error_;
}

Status OutputFile::Write(std::span<const std::byte> bytes) {
  if (!error_.ok()) return error_;
  if (file_ == nullptr) return InvalidArgument("output file '" + path_ + "' is not open");
  if (bytes.empty()) return {};
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) {
    return Failed("write");
  }
  bytes_written_ += bytes.size();
  return {};
}

Status OutputFile::Commit() {
  if (file_ == nullptr && error_.ok()) {
    return InvalidArgument("output file '" + path_ + "' is not open");
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
    ::unlink(temporary_path_.c_str());
    return error;
  }
  if (std::rename(temporary_path_.c_str(), path_.c_str()) != 0) {
    Status error = InvalidArgument("cannot rename the temporary file '" + temporary_path_ +
                                   "' to '" + path_ + "': " + SystemReason());
    ::unlink(temporary_path_.c_str());
    return error;
  }
  return {};
}

}  // namespace swarm
