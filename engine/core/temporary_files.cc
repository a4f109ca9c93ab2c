#include "engine/core/temporary_files.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstring>

#include "swarm/core/output_file.h"

namespace swarm {
namespace {

// A fixed table, because a signal handler may neither allocate nor take a lock: each slot's state
// is a lock-free atomic, and its path a plain buffer written only while the slot is claimed.
// 64 slots of PATH_MAX bytes (256 KiB of zero pages until used) cover every writer swarm's
// programs keep open at once (two recording files, a PNG, a few .npy outputs).
constexpr int kSlots = 64;
constexpr size_t kSlotBytes = PATH_MAX;

enum SlotState : int { kFree = 0, kClaimed = 1, kLive = 2, kRemoving = 3 };

struct Slot {
  std::atomic<int> state{kFree};
  char path[kSlotBytes];
};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs lock-free slots");

Slot slots[kSlots];

}  // namespace

std::string TemporaryPathFor(const std::string& path, unsigned long n) {
  const size_t slash = path.rfind('/');
  const size_t base_start = slash == std::string::npos ? 0 : slash + 1;
  const std::string suffix = ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(n);
  const size_t base_room = NAME_MAX - suffix.size();
  const size_t base_length = std::min(path.size() - base_start, base_room);
  return path.substr(0, base_start + base_length) + suffix;
}

int RegisterTemporaryFile(const std::string& path) {
  if (path.size() >= kSlotBytes) return -1;
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (!slots[i].state.compare_exchange_strong(expected, kClaimed)) continue;
    std::memcpy(slots[i].path, path.c_str(), path.size() + 1);
    slots[i].state.store(kLive, std::memory_order_release);
    return i;
  }
  return -1;
}

void UnregisterTemporaryFile(int slot) {
  if (slot < 0) return;
  // A slot a handler is removing stays kRemoving: the handler frees it when done.
  int expected = kLive;
  slots[slot].state.compare_exchange_strong(expected, kFree);
}

void RemoveLiveTemporaryFiles() {
  for (Slot& slot : slots) {
    int expected = kLive;
    if (!slot.state.compare_exchange_strong(expected, kRemoving, std::memory_order_acquire)) {
      continue;
    }
    ::unlink(slot.path);  // async-signal-safe; a file already renamed or removed gives ENOENT
    slot.state.store(kFree, std::memory_order_release);
  }
}

}  // namespace swarm
