// Command lines that name one file twice. An output that is also an input would be replaced by
// the program's result before (or while) the input is read, and two outputs on one file leave only
// the last: both are refused before anything runs, with a message naming both flags.
//
// "The same file" is decided by the file system, not by the spelling: the device and inode number
// of what the path leads to (symbolic links followed, so a link and its target are one file, and
// hard links are one inode). An output that does not exist yet is its directory's device and inode
// (links followed) plus its name, so "out.npy" and "./dir/../out.npy" are still one file.
// Character devices (/dev/null, /dev/stdout on a terminal) may be named any number of times:
// writing one twice destroys nothing.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "swarm/core/status.h"

namespace swarm {

enum class FileRole { kInput, kOutput };

struct FileUse {
  std::string_view flag;  // as the message shows it: "--out", "--out's end-effector file"
  std::string path;       // "" when the flag was not given (skipped)
  FileRole role;
};

// ok, or "--out 'r.urdf' is the same file as --urdf 'r.urdf': writing it would destroy the input;
// choose another output path" (or "--mass 'x.npy' and --bias 'x.npy' are the same file ...").
Status CheckDistinctFiles(std::span<const FileUse> uses);

}  // namespace swarm
