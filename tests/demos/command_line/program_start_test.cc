// Tests for demos/command_line/program_start.h, each in a forked child that is the "program":
// after StartProgram a file-size limit is a write error (EFBIG) instead of a silent death by
// SIGXFSZ, SIGINT and SIGTERM remove the temporary files of unfinished outputs and still end the
// process by the signal, and FinishProgram turns a report lost on stdout into status 2.
#include "demos/command_line/program_start.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <new>
#include <string>
#include <system_error>

#include "demos/command_line/program_exit.h"
#include "swarm/core/output_file.h"
#include "tests/support/scratch_files.h"

namespace swarm {
namespace {

const std::string kDir = "program_start_test";

std::string TestPath(const std::string& name) { return test::ScratchPath(kDir, name); }

using test::ReadAll;

// Temporary files of outputs whose names start with `prefix`: only this case's, since ctest runs
// the cases of this file at the same time in the same directory.
size_t Temporaries(const std::string& prefix) {
  size_t count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kDir)) {
    const std::string name = entry.path().filename().string();
    count += name.starts_with(prefix) && name.find(".tmp-") != std::string::npos;
  }
  return count;
}

// Runs `program` in a child with SIGXFSZ, SIGINT and SIGTERM at their defaults (as a shell
// starts a program) and returns its wait status.
template <typename Program>
int RunChild(Program program) {
  std::fflush(nullptr);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    for (int signal_number : {SIGXFSZ, SIGINT, SIGTERM}) std::signal(signal_number, SIG_DFL);
    ::_exit(program());
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  return status;
}

TEST_CASE("StartProgram: a file-size limit is a write error, the old file kept") {
  const std::string path = TestPath("limited.npy");
  std::ofstream(path) << "old";
  const int status = RunChild([&] {
    StartProgram();
    rlimit limit{16 << 10, RLIM_INFINITY};
    if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) return 10;
    Result<OutputFile> file = OutputFile::Create(path);
    if (!file.ok()) return 11;
    const std::string block(1 << 20, 'x');
    (void)file->Write(block.data(), block.size());
    Status committed = file->Commit();
    if (committed.ok()) return 12;
    return committed.message().find("File too large") != std::string::npos ? 0 : 13;
  });
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(ReadAll(path) == "old");
  CHECK(Temporaries("limited") == 0);
}

TEST_CASE("StartProgram: SIGINT and SIGTERM remove temporaries and end the process by the signal") {
  for (int signal_number : {SIGINT, SIGTERM}) {
    const std::string path = TestPath("interrupted.npy");
    std::ofstream(path) << "old";
    const int status = RunChild([&] {
      StartProgram();
      Result<OutputFile> file = OutputFile::Create(path);
      Result<OutputFile> companion = OutputFile::Create(TestPath("interrupted_ee.npy"));
      if (!file.ok() || !companion.ok()) return 10;
      const std::string block(1 << 20, 'x');
      for (int i = 0; i < 8; ++i) (void)file->Write(block.data(), block.size());
      std::raise(signal_number);
      return 11;
    });
    REQUIRE(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == signal_number);
    CHECK(ReadAll(path) == "old");
    CHECK(Temporaries("interrupted") == 0);
  }
}

TEST_CASE("RunProgram: threads or memory the system refuses end with a message and status 2") {
  const std::string errors = TestPath("run_program_stderr.txt");
  const auto run_child = [&](int (*program)(int, char**)) {
    return RunChild([&] {
      const int log = ::open(errors.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (log < 0 || ::dup2(log, 2) < 0) return 10;
      return RunProgram("swarm-test", program, 0, nullptr);
    });
  };
  int status = run_child([](int, char**) -> int {
    throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again),
                            "could not start a pool of 128 threads: thread 3 failed to start");
  });
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == kExitBadInput);
  CHECK(ReadAll(errors).starts_with(
      "swarm-test: could not start a pool of 128 threads: thread 3 failed to start: "));
  CHECK(ReadAll(errors).ends_with("(with fewer --threads it may start)\n"));
  status = run_child([](int, char**) -> int { throw std::bad_alloc(); });
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == kExitBadInput);
  CHECK(ReadAll(errors).starts_with("swarm-test: out of memory"));
  // A program that returns keeps its status.
  status = run_child([](int, char**) { return 7; });
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 7);
}

TEST_CASE("FinishProgram: a report lost on stdout is status 2 with a message") {
  const std::string errors = TestPath("stderr.txt");
  const int status = RunChild([&] {
    const int full = ::open("/dev/full", O_WRONLY);
    const int log = ::open(errors.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (full < 0 || log < 0 || ::dup2(full, 1) < 0 || ::dup2(log, 2) < 0) return 10;
    std::printf("a summary nobody will read\n");
    return FinishProgram("swarm-test", 0);
  });
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == kExitBadInput);
  CHECK(ReadAll(errors) ==
        "swarm-test: cannot write the report to standard output: No space left on device\n");
  // A good stdout keeps the program's own status.
  const int good = RunChild([&] {
    const int null = ::open("/dev/null", O_WRONLY);
    if (null < 0 || ::dup2(null, 1) < 0) return 10;
    std::printf("fine\n");
    return FinishProgram("swarm-test", 0);
  });
  REQUIRE(WIFEXITED(good));
  CHECK(WEXITSTATUS(good) == 0);
}

}  // namespace
}  // namespace swarm
