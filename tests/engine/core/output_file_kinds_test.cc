// Tests for swarm/core/output_file.h by what the output path names: a regular file keeps its
// permissions and a read-only one is refused; a symbolic link is followed; FIFOs and character
// devices are written through and never replaced; sockets and directories are refused; temporary
// names fit NAME_MAX; files committed together change together; a signal handler removes the
// live temporary files. Every refusal leaves the old file byte for byte.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "swarm/core/output_file.h"
#include "tests/support/file_size_limit.h"
#include "tests/support/scratch_files.h"

namespace swarm {
namespace {

using Catch::Contains;

const std::string kDir = "output_file_kinds_test";

std::string TestPath(const std::string& name) { return test::ScratchPath(kDir, name); }

using test::ReadAll;

void WriteAll(const std::string& path, const std::string& text) {
  std::filesystem::remove(path);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

// Temporary files (and commit-group backups) of `name` left in the test directory.
size_t Temporaries(const std::string& name) {
  size_t count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kDir)) {
    count += entry.path().filename().string().starts_with(name.substr(0, 200)) &&
             entry.path().filename().string().find(".tmp-") != std::string::npos;
  }
  return count;
}

std::string Quoted(const std::string& text) { return "'" + text + "'"; }

mode_t ModeOf(const std::string& path) {
  struct stat info;
  REQUIRE(::stat(path.c_str(), &info) == 0);
  return info.st_mode;
}

Status WriteFile(const std::string& path, const std::string& text) {
  Result<OutputFile> file = OutputFile::Create(path);
  if (!file.ok()) return file.status();
  if (Status s = file->Write(text.data(), text.size()); !s.ok()) return s;
  return file->Commit();
}

TEST_CASE("OutputFile: a replaced regular file keeps its permission bits") {
  for (mode_t mode : {0600, 0640, 0755}) {
    const std::string path = TestPath("mode.bin");
    WriteAll(path, "old");
    REQUIRE(::chmod(path.c_str(), mode) == 0);
    REQUIRE(WriteFile(path, "new").ok());
    CHECK(ReadAll(path) == "new");
    CHECK((ModeOf(path) & 07777) == mode);
  }
  // The owner too, where the process may set it (root: any owner).
  if (::geteuid() == 0) {
    const std::string path = TestPath("owned.bin");
    WriteAll(path, "old");
    REQUIRE(::chown(path.c_str(), 1234, 2345) == 0);
    REQUIRE(WriteFile(path, "new").ok());
    struct stat info;
    REQUIRE(::stat(path.c_str(), &info) == 0);
    CHECK(info.st_uid == 1234);
    CHECK(info.st_gid == 2345);
  }
  // A new file gets 0666 less the umask.
  const std::string fresh = TestPath("fresh.bin");
  std::filesystem::remove(fresh);
  const mode_t umask_bits = ::umask(022);
  REQUIRE(WriteFile(fresh, "x").ok());
  ::umask(umask_bits);
  CHECK((ModeOf(fresh) & 07777) == 0644);
}

TEST_CASE("OutputFile: a read-only file is refused, not replaced (even for root)") {
  // Root may write anything, so the refusal must come from the mode bits, not from EACCES.
  const std::string path = TestPath("read_only.bin");
  WriteAll(path, "keep me");
  REQUIRE(::chmod(path.c_str(), 0444) == 0);
  Result<OutputFile> file = OutputFile::Create(path);
  REQUIRE_FALSE(file.ok());
  CHECK(file.status().message() == "'" + path +
                                       "' is read-only (mode 0444): make it writable or choose "
                                       "another path");
  CHECK(ReadAll(path) == "keep me");
  CHECK((ModeOf(path) & 07777) == 0444);
  CHECK(Temporaries("read_only.bin") == 0);
  REQUIRE(::chmod(path.c_str(), 0644) == 0);
}

TEST_CASE("OutputFile: a symbolic link is followed; the link stays and its target is replaced") {
  const std::string target = TestPath("link_target.bin");
  const std::string link = TestPath("link.bin");
  WriteAll(target, "old");
  std::filesystem::remove(link);
  std::filesystem::create_symlink("link_target.bin", link);
  REQUIRE(WriteFile(link, "new").ok());
  CHECK(std::filesystem::is_symlink(link));
  CHECK(ReadAll(target) == "new");
  CHECK(Temporaries("link_target.bin") == 0);
}

TEST_CASE("OutputFile: /dev/null is written through and stays a character device") {
  Result<OutputFile> file = OutputFile::Create("/dev/null");
  REQUIRE(file.ok());
  CHECK(file->writes_through());
  CHECK(file->temporary_path().empty());
  REQUIRE(file->Write("ignored", 7).ok());
  REQUIRE(file->Commit().ok());
  CHECK(S_ISCHR(ModeOf("/dev/null")));
  struct stat info;
  REQUIRE(::stat("/dev/null", &info) == 0);
  CHECK(::major(info.st_rdev) == 1);
  CHECK(::minor(info.st_rdev) == 3);
}

TEST_CASE("OutputFile: a device's write error is reported (/dev/full: no space)") {
  Result<OutputFile> file = OutputFile::Create("/dev/full");
  REQUIRE(file.ok());
  const std::string block(1 << 16, 'x');
  Status written = file->Write(block.data(), block.size());
  Status committed = file->Commit();
  REQUIRE_FALSE(committed.ok());
  CHECK_THAT(committed.message(),
             Contains("cannot write '/dev/full'") && Contains("No space left on device"));
  CHECK(S_ISCHR(ModeOf("/dev/full")));
}

TEST_CASE("OutputFile: a FIFO is written through to its reader and never replaced") {
  const std::string path = TestPath("fifo");
  std::filesystem::remove(path);
  REQUIRE(::mkfifo(path.c_str(), 0644) == 0);
  std::string received;
  std::thread reader([&] { received = ReadAll(path); });
  REQUIRE(WriteFile(path, "through the pipe").ok());
  reader.join();
  CHECK(received == "through the pipe");
  CHECK(S_ISFIFO(ModeOf(path)));
  CHECK(Temporaries("fifo") == 0);
}

TEST_CASE("OutputFile: a FIFO without a reader is refused after a bounded wait") {
  const std::string path = TestPath("lonely_fifo");
  std::filesystem::remove(path);
  REQUIRE(::mkfifo(path.c_str(), 0644) == 0);
  const auto start = std::chrono::steady_clock::now();
  Result<OutputFile> file = OutputFile::Create(path);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  REQUIRE_FALSE(file.ok());
  CHECK_THAT(file.status().message(), Contains("is a FIFO with no reader"));
  CHECK(seconds < kOutputFifoWaitMilliseconds / 1000.0 + 2);
  CHECK(S_ISFIFO(ModeOf(path)));
}

TEST_CASE("OutputFile: /dev/stdout redirected to a file is written in the stream's order") {
  // Renaming over the file would leave stdout writing to a deleted file, and a descriptor of
  // its own would write over what stdout printed: the output goes through stdout's offset.
  const std::string path = TestPath("stdout.txt");
  std::filesystem::remove(path);
  std::fflush(nullptr);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || ::dup2(fd, STDOUT_FILENO) < 0) ::_exit(3);
    std::printf("before\n");
    if (!WriteFile("/dev/stdout", "data\n").ok()) ::_exit(4);
    std::printf("after\n");
    std::fflush(stdout);
    ::_exit(0);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(ReadAll(path) == "before\ndata\nafter\n");
  CHECK(std::filesystem::is_symlink("/dev/stdout"));
}

TEST_CASE("OutputFile: sockets and directories are refused and left alone") {
  const std::string path = TestPath("socket");
  std::filesystem::remove(path);
  const int fd = test::BindSocket(path);
  REQUIRE(fd >= 0);
  Result<OutputFile> file = OutputFile::Create(path);
  ::close(fd);
  REQUIRE_FALSE(file.ok());
  CHECK_THAT(file.status().message(), Contains("'" + path + "' is a socket"));
  CHECK(S_ISSOCK(ModeOf(path)));
  CHECK(Temporaries("socket") == 0);
  const std::string directory = TestPath("a_dir");
  std::filesystem::create_directories(directory);
  CHECK_THAT(OutputFile::Create(directory).status().message(),
             Catch::Equals(Quoted(directory) + " is a directory"));
}

TEST_CASE("OutputFile: temporary names fit NAME_MAX for the longest basenames") {
  for (size_t length : {size_t{200}, size_t{240}, size_t{250}, size_t{NAME_MAX}}) {
    const std::string name = std::string(length - 4, 'n') + ".bin";
    const std::string path = TestPath(name);
    Result<OutputFile> file = OutputFile::Create(path);
    REQUIRE(file.ok());
    const std::string temporary = std::filesystem::path(file->temporary_path()).filename().string();
    CHECK(temporary.size() <= NAME_MAX);
    REQUIRE(file->Write("long", 4).ok());
    REQUIRE(file->Commit().ok());
    CHECK(ReadAll(path) == "long");
    std::filesystem::remove(path);
  }
}

TEST_CASE("OutputFile::CommitTogether: a failed second write leaves both old files") {
  const std::string first = TestPath("group.npy");
  const std::string second = TestPath("group_ee.npy");
  WriteAll(first, "old first");
  WriteAll(second, "old second");
  Status committed;
  {
    Result<OutputFile> a = OutputFile::Create(first);
    Result<OutputFile> b = OutputFile::Create(second);
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    const ScopedFileSizeLimit limit(16 << 10);
    REQUIRE(a->Write("new first", 9).ok());
    const std::string block(64 << 10, 'z');
    (void)b->Write(block.data(), block.size());
    OutputFile* const files[] = {&a.value(), &b.value()};
    committed = OutputFile::CommitTogether(files);
  }
  REQUIRE_FALSE(committed.ok());
  CHECK_THAT(committed.message(), Contains("group_ee.npy.tmp-") && Contains("File too large"));
  CHECK(ReadAll(first) == "old first");
  CHECK(ReadAll(second) == "old second");
  CHECK(Temporaries("group") == 0);
}

TEST_CASE("OutputFile::CommitTogether: a failed second rename restores the first destination") {
  const std::string first = TestPath("pair.npy");
  const std::string second = TestPath("pair_ee.npy");
  for (bool first_existed : {true, false}) {
    std::filesystem::remove_all(second);
    std::filesystem::remove(first);
    if (first_existed) WriteAll(first, "old first");
    WriteAll(second, "old second");
    Result<OutputFile> a = OutputFile::Create(first);
    Result<OutputFile> b = OutputFile::Create(second);
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    REQUIRE(a->Write("new first", 9).ok());
    REQUIRE(b->Write("new second", 10).ok());
    // The second destination becomes a non-empty directory: its rename fails (EISDIR).
    std::filesystem::remove(second);
    std::filesystem::create_directories(second + "/inside");
    OutputFile* const files[] = {&a.value(), &b.value()};
    Status committed = OutputFile::CommitTogether(files);
    REQUIRE_FALSE(committed.ok());
    CHECK_THAT(committed.message(), Contains("cannot rename the temporary file"));
    if (first_existed) {
      CHECK(ReadAll(first) == "old first");
    } else {
      CHECK_FALSE(std::filesystem::exists(first));
    }
    CHECK(std::filesystem::is_directory(second + "/inside"));
    CHECK(Temporaries("pair") == 0);
  }
  std::filesystem::remove_all(second);
  // And the good case: both replaced, no backups left.
  WriteAll(first, "old first");
  WriteAll(second, "old second");
  Result<OutputFile> a = OutputFile::Create(first);
  Result<OutputFile> b = OutputFile::Create(second);
  REQUIRE((a.ok() && b.ok()));
  REQUIRE(a->Write("1", 1).ok());
  REQUIRE(b->Write("2", 1).ok());
  OutputFile* const files[] = {&a.value(), &b.value()};
  REQUIRE(OutputFile::CommitTogether(files).ok());
  CHECK(ReadAll(first) == "1");
  CHECK(ReadAll(second) == "2");
  CHECK(Temporaries("pair") == 0);
}

extern "C" void RemoveAndDie(int signal_number) {
  RemoveLiveTemporaryFiles();
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

TEST_CASE("RemoveLiveTemporaryFiles: a handler removes the temporaries of a writer cut short") {
  const std::string path = TestPath("interrupted.bin");
  WriteAll(path, "old");
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    std::signal(SIGINT, RemoveAndDie);
    Result<OutputFile> file = OutputFile::Create(path);
    Result<OutputFile> other = OutputFile::Create(TestPath("interrupted_other.bin"));
    if (!file.ok() || !other.ok()) ::_exit(3);
    const std::string block(1 << 20, 'x');
    for (int i = 0; i < 4; ++i) (void)file->Write(block.data(), block.size());
    std::raise(SIGINT);  // mid-write: neither file is committed
    ::_exit(4);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGINT);
  CHECK(ReadAll(path) == "old");
  CHECK(Temporaries("interrupted") == 0);
}

}  // namespace
}  // namespace swarm
