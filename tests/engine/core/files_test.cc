// Tests for swarm/core/output_file.h and input_file.h: an output file appears complete or not at
// all (a failed write, a file-size limit, a discarded writer leave the old file and no temporary),
// and input files are opened and read with clear, bounded errors.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "swarm/core/input_file.h"
#include "swarm/core/output_file.h"
#include "tests/support/file_size_limit.h"

namespace swarm {
namespace {

std::string TestPath(const std::string& name) {
  std::filesystem::create_directories("files_test");
  return "files_test/" + name;
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void WriteAll(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

size_t Temporaries(const std::string& name) {
  size_t count = 0;
  for (const auto& entry : std::filesystem::directory_iterator("files_test")) {
    count += entry.path().filename().string().starts_with(name + ".tmp-");
  }
  return count;
}

TEST_CASE("OutputFile: the destination changes only on Commit") {
  const std::string path = TestPath("out.bin");
  WriteAll(path, "old");
  Result<OutputFile> file = OutputFile::Create(path);
  REQUIRE(file.ok());
  CHECK(Temporaries("out.bin") == 1);
  REQUIRE(file->Write("new ", 4).ok());
  REQUIRE(file->Write("contents", 8).ok());
  CHECK(file->bytes_written() == 12);
  CHECK(ReadAll(path) == "old");
  REQUIRE(file->Commit().ok());
  CHECK(ReadAll(path) == "new contents");
  CHECK(Temporaries("out.bin") == 0);

  // Discarded, by hand or by the destructor: the file keeps its contents.
  {
    Result<OutputFile> discarded = OutputFile::Create(path);
    REQUIRE(discarded.ok());
    REQUIRE(discarded->Write("x", 1).ok());
  }
  CHECK(ReadAll(path) == "new contents");
  CHECK(Temporaries("out.bin") == 0);
}

TEST_CASE("OutputFile: a write that fails (file-size limit) keeps the old file") {
  const std::string path = TestPath("limited.bin");
  WriteAll(path, "previous");
  Status written;
  Status committed;
  {
    const ScopedFileSizeLimit limit(16 << 10);
    Result<OutputFile> file = OutputFile::Create(path);
    REQUIRE(file.ok());
    const std::string block(4096, 'z');
    for (int i = 0; i < 16 && written.ok(); ++i) written = file->Write(block.data(), block.size());
    committed = file->Commit();
  }
  // stdio buffers: the error shows on a Write or at the latest on Commit, and names the file.
  REQUIRE_FALSE(committed.ok());
  CHECK_THAT(committed.message(), Catch::Contains("cannot write the temporary file 'files_test/"
                                                  "limited.bin.tmp-") &&
                                      Catch::Contains("File too large"));
  CHECK(ReadAll(path) == "previous");
  CHECK(Temporaries("limited.bin") == 0);
}

TEST_CASE("OutputFile: errors name the path") {
  Result<OutputFile> nowhere = OutputFile::Create(TestPath("no/such/dir.bin"));
  REQUIRE_FALSE(nowhere.ok());
  CHECK_THAT(nowhere.status().message(),
             Catch::Contains("cannot create the temporary file 'files_test/no/such/dir.bin.tmp-") &&
                 Catch::Contains("No such file or directory"));
  std::filesystem::create_directories(TestPath("a_dir"));
  Result<OutputFile> directory = OutputFile::Create(TestPath("a_dir"));
  REQUIRE_FALSE(directory.ok());
  CHECK(directory.status().message() == "'files_test/a_dir' is a directory");
  CHECK_FALSE(OutputFile::Create("").ok());
}

TEST_CASE("OutputFile: writers of one path get their own temporary files") {
  const std::string path = TestPath("shared.bin");
  Result<OutputFile> first = OutputFile::Create(path);
  Result<OutputFile> second = OutputFile::Create(path);
  REQUIRE(first.ok());
  REQUIRE(second.ok());
  CHECK(first->temporary_path() != second->temporary_path());
  REQUIRE(first->Write("first", 5).ok());
  REQUIRE(second->Write("second", 6).ok());
  REQUIRE(second->Commit().ok());
  REQUIRE(first->Commit().ok());
  CHECK(ReadAll(path) == "first");
  CHECK(Temporaries("shared.bin") == 0);
}

TEST_CASE("ReadInputFile: bounded reads with clear errors") {
  const std::string path = TestPath("input.txt");
  WriteAll(path, std::string(1000, 'a'));
  Result<std::string> whole = ReadInputFile(path, "text file", 1000, "hint");
  REQUIRE(whole.ok());
  CHECK(whole->size() == 1000);
  Result<std::string> longer = ReadInputFile(path, "text file", 999, "raise it with --limit");
  REQUIRE_FALSE(longer.ok());
  CHECK(longer.status().message() ==
        "text file 'files_test/input.txt': the file (1000 bytes) is larger than the limit of "
        "999 B (raise it with --limit)");
  Result<std::string> endless = ReadInputFile("/dev/zero", "text file", 100000, "hint");
  REQUIRE_FALSE(endless.ok());
  CHECK_THAT(endless.status().message(), Catch::Contains("the stream (more than 100000 bytes)"));
  CHECK(ReadInputFile("files_test", "text file", 10, "").status().message() ==
        "text file 'files_test': is a directory");
  CHECK_THAT(ReadInputFile(TestPath("missing"), "text file", 10, "").status().message(),
             Catch::Contains("text file 'files_test/missing': cannot open: No such file"));
  Result<InputFile> device = OpenInputFile("/dev/null", "text file");
  REQUIRE(device.ok());
  CHECK_FALSE(device->regular);
}

}  // namespace
}  // namespace swarm
