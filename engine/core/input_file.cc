#include "swarm/core/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>

#include "engine/core/bounded_wait.h"
#include "swarm/core/memory.h"

namespace swarm {
namespace {

std::string Context(std::string_view what, const std::string& path) {
  return std::string(what) + " '" + path + "': ";
}

constexpr const char* kReadable = "inputs are read from regular files, FIFOs or character devices";

struct UniqueDescriptor {
  explicit UniqueDescriptor(int fd) : fd(fd) {}
  ~UniqueDescriptor() {
    if (fd >= 0) ::close(fd);
  }
  void release() { fd = -1; }
  int fd;
};

// A non-blocking read of a FIFO tells the two cases apart: 0 (end of file) while no writer has it
// open, EAGAIN once one has, but no data yet. Waits up to kInputFifoWaitMilliseconds for a writer;
// returns the byte the test read (EOF when none) for the caller to put back.
Result<int> WaitForWriter(int fd) {
  std::optional<Result<int>> read = PollFor(kInputFifoWaitMilliseconds, [&] {
    unsigned char byte;
    const ssize_t got = ::read(fd, &byte, 1);
    std::optional<Result<int>> outcome;
    if (got == 1) {
      outcome = static_cast<int>(byte);
    } else if (got < 0 && errno == EAGAIN) {
      outcome = static_cast<int>(EOF);
    } else if (got < 0 && errno != EINTR) {
      outcome = InvalidArgument(std::string("cannot read: ") + std::strerror(errno));
    }
    return outcome;  // empty: no writer yet (end of file), or interrupted
  });
  if (read) return *read;
  return InvalidArgument("is a FIFO with no writer (waited " +
                         std::to_string(kInputFifoWaitMilliseconds / 1000) +
                         " s); start its writer first or pass a regular file");
}

}  // namespace

Result<InputFile> OpenInputFile(const std::string& path, std::string_view what) {
  if (path.empty()) return InvalidArgument(std::string(what) + ": expected a path, got ''");
  // O_NONBLOCK: open(2) of a FIFO without a writer returns at once instead of blocking.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    const int error = errno;
    struct stat info;
    if (error == ENXIO && ::stat(path.c_str(), &info) == 0 && S_ISSOCK(info.st_mode)) {
      return InvalidArgument(Context(what, path) + "is a socket; " + kReadable);
    }
    return InvalidArgument(Context(what, path) + "cannot open: " + std::strerror(error));
  }
  UniqueDescriptor descriptor(fd);
  struct stat info;
  if (::fstat(fd, &info) != 0) {
    return InvalidArgument(Context(what, path) + "cannot stat: " + std::strerror(errno));
  }
  if (S_ISDIR(info.st_mode)) return InvalidArgument(Context(what, path) + "is a directory");
  if (S_ISBLK(info.st_mode) || S_ISSOCK(info.st_mode)) {
    return InvalidArgument(Context(what, path) + "is a " +
                           (S_ISBLK(info.st_mode) ? "block device" : "socket") + "; " + kReadable);
  }
  int first_byte = EOF;
  if (S_ISFIFO(info.st_mode)) {
    Result<int> waited = WaitForWriter(fd);
    if (!waited.ok()) return InvalidArgument(Context(what, path) + waited.status().message());
    first_byte = waited.value();
  }
  // Reads block from here on, as any reader's do.
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
    return InvalidArgument(Context(what, path) + "cannot open: " + std::strerror(errno));
  }
  InputFile input;
  input.file.reset(::fdopen(fd, "rb"));
  if (input.file == nullptr) {
    return InvalidArgument(Context(what, path) + "cannot open: " + std::strerror(errno));
  }
  descriptor.release();
  if (first_byte != EOF) std::ungetc(first_byte, input.file.get());
  input.regular = S_ISREG(info.st_mode);
  input.size = input.regular ? static_cast<size_t>(info.st_size) : 0;
  return input;
}

Result<std::string> ReadInputFile(const std::string& path, std::string_view what, size_t max_bytes,
                                  std::string_view limit_hint) {
  Result<InputFile> input = OpenInputFile(path, what);
  if (!input.ok()) return input.status();
  const auto too_large = [&](const std::string& size) {
    return InvalidArgument(Context(what, path) + size + " is larger than the limit of " +
                           FormatBytes(max_bytes) + " (" + std::string(limit_hint) + ")");
  };
  if (input->regular && input->size > max_bytes) {
    return too_large("the file (" + std::to_string(input->size) + " bytes)");
  }
  std::string text;
  if (input->regular) text.reserve(input->size);
  char buffer[1 << 16];
  while (true) {
    const size_t room = std::min(sizeof(buffer), max_bytes - std::min(max_bytes, text.size()) + 1);
    const size_t got = std::fread(buffer, 1, room, input->file.get());
    if (got == 0) break;
    text.append(buffer, got);
    if (text.size() > max_bytes) {
      return too_large(input->regular
                           ? "the file (it grew while being read)"
                           : "the stream (more than " + std::to_string(max_bytes) + " bytes)");
    }
  }
  if (std::ferror(input->file.get())) {
    return InvalidArgument(Context(what, path) + "cannot read: " + std::strerror(errno));
  }
  return text;
}

}  // namespace swarm
