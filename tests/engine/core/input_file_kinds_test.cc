// Tests for swarm/core/input_file.h by what the input path names: opening never blocks for long
// (a FIFO without a writer is refused after a bounded wait, one with a writer is read whole),
// sockets are refused with a message, character devices are read as before.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "swarm/core/input_file.h"
#include "tests/support/scratch_files.h"

namespace swarm {
namespace {

using Catch::Contains;

std::string TestPath(const std::string& name) {
  const std::string path = test::ScratchPath("input_file_kinds_test", name);
  std::filesystem::remove(path);
  return path;
}

TEST_CASE("OpenInputFile: a FIFO without a writer is refused after a bounded wait") {
  const std::string path = TestPath("no_writer");
  REQUIRE(::mkfifo(path.c_str(), 0644) == 0);
  const auto start = std::chrono::steady_clock::now();
  Result<std::string> text = ReadInputFile(path, "URDF file", 1000, "hint");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  REQUIRE_FALSE(text.ok());
  CHECK_THAT(text.status().message(),
             Contains("URDF file '" + path + "': is a FIFO with no writer (waited 2 s)"));
  CHECK(seconds >= kInputFifoWaitMilliseconds / 1000.0 - 0.1);
  CHECK(seconds < kInputFifoWaitMilliseconds / 1000.0 + 2);
}

TEST_CASE("OpenInputFile: a FIFO with a writer is read whole, its first byte included") {
  for (int delay_ms : {0, 300}) {  // a writer that comes first, and one that comes late
    const std::string path = TestPath("with_writer");
    REQUIRE(::mkfifo(path.c_str(), 0644) == 0);
    std::thread writer([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
      std::ofstream(path, std::ios::binary) << "<robot name='r'/>";
    });
    Result<std::string> text = ReadInputFile(path, "URDF file", 1000, "hint");
    writer.join();
    REQUIRE(text.ok());
    CHECK(text.value() == "<robot name='r'/>");
  }
}

TEST_CASE("OpenInputFile: sockets are refused with a message") {
  const std::string path = TestPath("socket");
  const int fd = test::BindSocket(path);
  REQUIRE(fd >= 0);
  Result<InputFile> input = OpenInputFile(path, "PNG file");
  ::close(fd);
  REQUIRE_FALSE(input.ok());
  CHECK(input.status().message() ==
        "PNG file '" + path +
            "': is a socket; inputs are read from regular files, FIFOs or character devices");
}

}  // namespace
}  // namespace swarm
