// A file-size limit (RLIMIT_FSIZE) for the scope of a test, with SIGXFSZ ignored: write(2) past
// the limit then fails with EFBIG ("File too large"), which is how a test makes a disk "full" for
// one writer without touching the machine's disks.
#pragma once

#include <sys/resource.h>

#include <catch2/catch.hpp>
#include <csignal>
#include <cstddef>

namespace swarm {

class ScopedFileSizeLimit {
 public:
  explicit ScopedFileSizeLimit(size_t bytes) {
    REQUIRE(getrlimit(RLIMIT_FSIZE, &previous_) == 0);
    previous_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limited = previous_;
    limited.rlim_cur = bytes;
    REQUIRE(setrlimit(RLIMIT_FSIZE, &limited) == 0);
  }
  ~ScopedFileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &previous_);
    std::signal(SIGXFSZ, previous_handler_);
  }
  ScopedFileSizeLimit(const ScopedFileSizeLimit&) = delete;
  ScopedFileSizeLimit& operator=(const ScopedFileSizeLimit&) = delete;

 private:
  rlimit previous_{};
  void (*previous_handler_)(int) = SIG_DFL;
};

}  // namespace swarm
