#include "demos/command_line/file_roles.h"

#include <sys/stat.h>

#include <cstddef>
#include <optional>
#include <vector>

namespace swarm {
namespace {

struct FileIdentity {
  dev_t device = 0;
  ino_t inode = 0;
  std::string name;  // set for a file that does not exist yet: device and inode are its directory's
  bool character_device = false;

  bool operator==(const FileIdentity& other) const {
    return device == other.device && inode == other.inode && name == other.name;
  }
};

// Nothing when the path cannot be resolved (its directory is missing, say): the program's own
// open then reports that, and no other path can be the same file.
std::optional<FileIdentity> IdentityOf(const std::string& path) {
  struct stat info;
  if (::stat(path.c_str(), &info) == 0) {
    return FileIdentity{info.st_dev, info.st_ino, "", S_ISCHR(info.st_mode)};
  }
  const size_t slash = path.rfind('/');
  const std::string directory =
      slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  if (name.empty() || name == "." || name == ".." || ::stat(directory.c_str(), &info) != 0) {
    return std::nullopt;
  }
  return FileIdentity{info.st_dev, info.st_ino, name, false};
}

std::string Named(const FileUse& use) { return std::string(use.flag) + " '" + use.path + "'"; }

}  // namespace

Status CheckDistinctFiles(std::span<const FileUse> uses) {
  std::vector<std::optional<FileIdentity>> identities;
  identities.reserve(uses.size());
  for (const FileUse& use : uses) {
    identities.push_back(use.path.empty() ? std::nullopt : IdentityOf(use.path));
  }
  for (size_t i = 0; i < uses.size(); ++i) {
    if (uses[i].role != FileRole::kOutput || !identities[i] || identities[i]->character_device) {
      continue;
    }
    for (size_t j = 0; j < uses.size(); ++j) {
      if (j == i || !identities[j] || !(*identities[i] == *identities[j])) continue;
      if (uses[j].role == FileRole::kInput) {
        return InvalidArgument(Named(uses[i]) + " is the same file as " + Named(uses[j]) +
                               ": writing it would destroy the input; choose another output path");
      }
      if (j > i) {
        return InvalidArgument(Named(uses[i]) + " and " + Named(uses[j]) +
                               " are the same file: one output would replace the other; choose "
                               "another path for one of them");
      }
    }
  }
  return {};
}

}  // namespace swarm
