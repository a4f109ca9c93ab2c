#include "swarm/core/input_file.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "swarm/core/memory.h"

namespace swarm {
namespace {

std::string Context(std::string_view what, const std::string& path) {
  return std::string(what) + " '" + path + "': ";
}

}  // namespace

Result<InputFile> OpenInputFile(const std::string& path, std::string_view what) {
  if (path.empty()) return InvalidArgument(std::string(what) + ": expected a path, got ''");
  InputFile input;
  input.file.reset(std::fopen(path.c_str(), "rb"));
  if (input.file == nullptr) {
    return InvalidArgument(Context(what, path) + "cannot open: " + std::strerror(errno));
  }
  struct stat info;
  if (::fstat(::fileno(input.file.get()), &info) != 0) {
    return InvalidArgument(Context(what, path) + "cannot stat: " + std::strerror(errno));
  }
  if (S_ISDIR(info.st_mode)) return InvalidArgument(Context(what, path) + "is a directory");
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
