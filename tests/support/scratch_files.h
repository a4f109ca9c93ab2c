// Files the tests of swarm's file handling make and read back: a path in the test's own scratch
// folder (below ctest's working directory), a file's whole contents, and a bound Unix socket.
#pragma once

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace swarm::test {

// `folder`/`name`, the folder created when missing.
inline std::string ScratchPath(const std::string& folder, const std::string& name) {
  std::filesystem::create_directories(folder);
  return folder + "/" + name;
}

// The whole file ("" when it cannot be read).
inline std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A Unix socket bound at `path` (which must not exist); the descriptor, or -1 on failure. The
// socket file stays until removed, after the descriptor is closed.
inline int BindSocket(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::snprintf(address.sun_path, sizeof(address.sun_path), "%s", path.c_str());
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

}  // namespace swarm::test
