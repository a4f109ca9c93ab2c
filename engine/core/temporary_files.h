// The temporary files of swarm/core/output_file.h: names that always fit the file system, and the
// registry of the ones alive now, which RemoveLiveTemporaryFiles (declared in output_file.h)
// empties from a signal handler. Internal to engine/core.
#pragma once

#include <string>

namespace swarm {

// "<dir>/<basename>.tmp-<pid>-<n>" beside `path`, with the basename cut short so the name stays
// within NAME_MAX (255 bytes): a destination whose own name is 250 bytes long still gets a
// temporary file, named after its first 230-odd bytes.
std::string TemporaryPathFor(const std::string& path, unsigned long n);

// Records `path` for RemoveLiveTemporaryFiles; returns its slot, or -1 when it cannot be recorded
// (every slot taken, or the path longer than a slot), in which case a signal leaves it behind.
int RegisterTemporaryFile(const std::string& path);
// Forgets the slot (after the file was renamed or removed); -1 is ignored.
void UnregisterTemporaryFile(int slot);

}  // namespace swarm
