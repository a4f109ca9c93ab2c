// Tests for demos/command_line/file_roles.h: an output that is the same file as an input or as
// another output is refused whatever the spelling (hard links, symbolic links, "./" and ".."
// paths, an output that does not exist yet), naming both flags; distinct files, two inputs on
// one file and character devices named twice pass.
#include "demos/command_line/file_roles.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace swarm {
namespace {

using Catch::Contains;

// Each case works in a folder of its own below this one: ctest runs the cases at the same time,
// and one case's remove-and-create of q.npy must not meet another's check.
std::string CaseDir(const std::string& name) {
  const std::string dir = "file_roles_test/" + name;
  std::filesystem::create_directories(dir + "/sub");
  return dir;
}

std::string Existing(const std::string& dir, const std::string& name) {
  const std::string path = dir + "/" + name;
  std::filesystem::remove(path);
  std::ofstream(path) << "contents";
  return path;
}

Status Check(std::vector<FileUse> uses) { return CheckDistinctFiles(uses); }

TEST_CASE("CheckDistinctFiles: an output on an input is refused, naming both flags") {
  const std::string kDir = CaseDir("input");
  const std::string q = Existing(kDir, "q.npy");
  const std::string link = kDir + "/q_link.npy";
  const std::string hard = kDir + "/q_hard.npy";
  std::filesystem::remove(link);
  std::filesystem::remove(hard);
  std::filesystem::create_symlink("q.npy", link);
  std::filesystem::create_hard_link(q, hard);
  for (const std::string& out : {q, link, hard, kDir + "/./q.npy", kDir + "/sub/../q.npy",
                                 std::filesystem::absolute(q).string()}) {
    Status status = Check({{"--urdf", Existing(kDir, "r.urdf"), FileRole::kInput},
                           {"--q", q, FileRole::kInput},
                           {"--out", out, FileRole::kOutput}});
    REQUIRE_FALSE(status.ok());
    CHECK(status.message() == "--out '" + out + "' is the same file as --q '" + q +
                                  "': writing it would destroy the input; choose another output "
                                  "path");
  }
}

TEST_CASE("CheckDistinctFiles: two outputs on one file are refused, existing or not") {
  const std::string kDir = CaseDir("outputs");
  const std::string q = Existing(kDir, "q.npy");
  for (bool exists : {true, false}) {
    const std::string out = kDir + "/x.npy";
    std::filesystem::remove(out);
    if (exists) Existing(kDir, "x.npy");
    Status status = Check({{"--q", q, FileRole::kInput},
                           {"--mass", out, FileRole::kOutput},
                           {"--bias", kDir + "/sub/../x.npy", FileRole::kOutput}});
    REQUIRE_FALSE(status.ok());
    CHECK_THAT(status.message(), Contains("--mass '" + out + "' and --bias '" + kDir +
                                          "/sub/../x.npy' are the same file"));
  }
}

TEST_CASE("CheckDistinctFiles: distinct files, shared inputs and /dev/null pass") {
  const std::string kDir = CaseDir("distinct");
  const std::string q = Existing(kDir, "q.npy");
  CHECK(Check({{"--q", q, FileRole::kInput},
               {"--qd", q, FileRole::kInput},
               {"--mass", kDir + "/m.npy", FileRole::kOutput},
               {"--bias", kDir + "/sub/m.npy", FileRole::kOutput},
               {"--qdd", "", FileRole::kOutput},
               {"--tau", "", FileRole::kInput}})
            .ok());
  CHECK(Check({{"--mass", "/dev/null", FileRole::kOutput},
               {"--bias", "/dev/null", FileRole::kOutput}})
            .ok());
  // A path whose directory is missing is the program's own open to report.
  CHECK(Check({{"--q", q, FileRole::kInput},
               {"--out", kDir + "/no/such/dir/out.npy", FileRole::kOutput}})
            .ok());
}

}  // namespace
}  // namespace swarm
