// Runs a body in a forked child under an address-space limit (RLIMIT_AS), so a test can make
// the system refuse memory, and with it thread stacks, for one call without touching the test
// process: the child reports what happened through a pipe and exits.
//
// Not under AddressSanitizer: its shadow memory reserves terabytes of address space up front, so
// any such limit breaks the sanitizer itself; callers skip their case when kUnderAddressSanitizer.
// (RLIMIT_NPROC would be the other way to refuse threads, but it does not bind root.) Nor under
// qemu-user, which accepts the limit without applying it (it would starve the emulator): callers
// tag their cases [native].
#pragma once

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstddef>
#include <string>

namespace swarm::test {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kUnderAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kUnderAddressSanitizer = true;
#else
inline constexpr bool kUnderAddressSanitizer = false;
#endif
#else
inline constexpr bool kUnderAddressSanitizer = false;
#endif

struct ChildOutcome {
  int exit_status = -1;  // the child's exit status; -1 if it did not exit normally (a signal)
  std::string report;    // what the body returned
};

// Forks; the child sets RLIMIT_AS to `bytes`, runs body() (a std::string describing what
// happened) and writes the text back. The body must not use the test framework's assertions.
template <typename Body>
ChildOutcome RunUnderAddressSpaceLimit(size_t bytes, const Body& body) {
  int channel[2];
  if (pipe(channel) != 0) return {};
  const pid_t child = fork();
  if (child < 0) return {};
  if (child == 0) {
    close(channel[0]);
    const rlimit limit{bytes, bytes};
    std::string report = setrlimit(RLIMIT_AS, &limit) == 0 ? body() : "setrlimit failed";
    for (size_t written = 0; written < report.size();) {
      const ssize_t n = write(channel[1], report.data() + written, report.size() - written);
      if (n <= 0) break;
      written += static_cast<size_t>(n);
    }
    _exit(0);
  }
  close(channel[1]);
  ChildOutcome outcome;
  char chunk[512];
  for (ssize_t n; (n = read(channel[0], chunk, sizeof(chunk))) > 0;)
    outcome.report.append(chunk, n);
  close(channel[0]);
  int status = 0;
  waitpid(child, &status, 0);
  outcome.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return outcome;
}

}  // namespace swarm::test
