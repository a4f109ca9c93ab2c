#include "demos/command_line/program_start.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <new>
#include <system_error>

#include "demos/command_line/program_exit.h"
#include "swarm/core/output_file.h"

namespace swarm {
namespace {

// Runs with the signal blocked: the re-raised signal stays pending until the handler returns,
// then takes its default action (the handler is reset first), ending the process by the signal.
extern "C" void RemoveTemporariesAndDie(int signal_number) {
  const int saved_errno = errno;
  RemoveLiveTemporaryFiles();
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
  errno = saved_errno;
}

}  // namespace

void StartProgram() {
  std::signal(SIGXFSZ, SIG_IGN);
  struct sigaction action {};
  action.sa_handler = RemoveTemporariesAndDie;
  sigemptyset(&action.sa_mask);
  for (int signal_number : {SIGINT, SIGTERM, SIGHUP}) {
    // A signal the caller ignores (nohup, a background job's SIGINT) stays ignored.
    struct sigaction previous {};
    if (::sigaction(signal_number, nullptr, &previous) == 0 && previous.sa_handler == SIG_IGN) {
      continue;
    }
    ::sigaction(signal_number, &action, nullptr);
  }
}

int FinishProgram(std::string_view program, int status) {
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  const int reason = errno;
  if (flushed && !std::ferror(stdout)) return status;
  std::fprintf(stderr, "%.*s: cannot write the report to standard output: %s\n",
               static_cast<int>(program.size()), program.data(),
               reason != 0 ? std::strerror(reason) : "a write failed");
  return kExitBadInput;
}

int RunProgram(std::string_view program, int (*run)(int argc, char** argv), int argc, char** argv) {
  StartProgram();
  int status;
  try {
    status = run(argc, argv);
  } catch (const std::system_error& error) {
    std::fprintf(stderr, "%.*s: %s (with fewer --threads it may start)\n",
                 static_cast<int>(program.size()), program.data(), error.what());
    status = kExitBadInput;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr,
                 "%.*s: out of memory: the system refused an allocation (see --memory-limit)\n",
                 static_cast<int>(program.size()), program.data());
    status = kExitBadInput;
  }
  return FinishProgram(program, status);
}

}  // namespace swarm
