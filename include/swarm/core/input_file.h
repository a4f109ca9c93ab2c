// Input files opened the same way by every loader: the messages name the path, a directory says
// "is a directory", and reading a whole file is bounded, so a device such as /dev/zero, a FIFO
// that never ends or a file grown to gigabytes gives an error instead of exhausting memory.
//
// Opening never blocks for long: regular files and character devices are read as they are;
// sockets and block devices are refused; a FIFO (a named pipe, or /dev/stdin fed by a pipe) is
// read once a writer has it open, and one with no writer is waited for up to
// kInputFifoWaitMilliseconds and then refused ("is a FIFO with no writer"), where open(2) alone
// would wait forever. Once a writer is there, reading waits for its data as any reader of a pipe
// does. (Loaders that need the file's size, such as .npy, refuse everything but regular files.)
#pragma once

#include <cstddef>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "swarm/core/status.h"

namespace swarm {

// How long OpenInputFile waits for a writer to open a FIFO input before refusing it.
inline constexpr int kInputFifoWaitMilliseconds = 2000;

struct FileCloser {
  void operator()(std::FILE* file) const {
    if (file != nullptr) std::fclose(file);
  }
};
using UniqueFile = std::unique_ptr<std::FILE, FileCloser>;

struct InputFile {
  UniqueFile file;
  bool regular = false;  // a regular file (its size is known); false for devices, FIFOs, sockets
  size_t size = 0;       // bytes, when regular
};

// Opens `path` for reading. `what` names the kind of file in messages ("URDF file", "PNG file"):
// "<what> '<path>': cannot open: No such file or directory", "... is a directory".
Result<InputFile> OpenInputFile(const std::string& path, std::string_view what);

// The whole file, at most `max_bytes` of it: a longer file (or a stream that goes on) is an error
// naming the limit and `limit_hint` (e.g. "raise it with --max-urdf-bytes"). Memory grows with
// what was read, never with what a file claims.
Result<std::string> ReadInputFile(const std::string& path, std::string_view what, size_t max_bytes,
                                  std::string_view limit_hint);

}  // namespace swarm
