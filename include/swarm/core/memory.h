// Memory accounting: every byte swarm allocates goes through a MemoryAccountant with a category
// tag, so a program can print where its memory went (like Nx's
// runtime_info([:memory, :allocators])) and cap it with a budget that fails with a clear error
// instead of letting the machine run out of memory.
//
// An accountant is an explicit object (no process-wide default): create one per program or per
// subsystem and hand it to the buffers. It is thread-safe; allocation is rare (setup, resizes),
// so a mutex is cheap. Allocations are kAlignBytes-aligned and zero-filled, which also commits
// their pages, so the reported bytes and the process RSS agree.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <mutex>
#include <string>
#include <utility>

#include "swarm/core/status.h"

namespace swarm {

enum class MemoryCategory : uint8_t { kParticles, kImages, kTensors, kRobots, kScratch };
inline constexpr size_t kMemoryCategoryCount = 5;
const char* MemoryCategoryName(MemoryCategory category);

struct CategoryStats {
  size_t bytes_in_use = 0;
  size_t peak_bytes = 0;
  uint64_t allocations = 0;       // allocations made since the accountant was created
  uint64_t live_allocations = 0;  // allocations not yet freed
};

inline constexpr size_t kNoBudget = std::numeric_limits<size_t>::max();

class MemoryReservation;

class MemoryAccountant {
 public:
  explicit MemoryAccountant(size_t budget_bytes = kNoBudget) : budget_bytes_(budget_bytes) {}
  ~MemoryAccountant();  // asserts that everything allocated was freed
  MemoryAccountant(const MemoryAccountant&) = delete;
  MemoryAccountant& operator=(const MemoryAccountant&) = delete;

  // Returns zeroed, kAlignBytes-aligned memory of at least `bytes` bytes (blocks of 8 MiB or more
  // are rounded up to 2 MiB huge pages, and accounted so), or an error naming the
  // category, the request, the budget and the bytes already in use. On error nothing changes.
  Result<void*> Allocate(MemoryCategory category, size_t bytes);
  // As Allocate, but the memory is not zero-filled, so its pages are committed only as they are
  // written: for decoders of untrusted files (PNG), whose header may claim an image the data never
  // delivers. The accounted bytes may then exceed the RSS; every byte must be written before it
  // is read.
  Result<void*> AllocateUntouched(MemoryCategory category, size_t bytes);
  // Bytes promised to a later stage of a run, accounted (and checked against the budget) as an
  // allocation of `category` without memory behind them: a run reserves what its last stage
  // (saving a file, say) will need, so a budget too small fails up front instead of after the
  // work. Releasing the reservation (its destructor) returns the bytes just before that stage.
  Result<MemoryReservation> Reserve(MemoryCategory category, size_t bytes);
  // `bytes` and `category` must be those of the Allocate call that returned `memory`.
  void Free(MemoryCategory category, void* memory, size_t bytes);

  // A budget below the bytes already in use is accepted: it only refuses new requests.
  void SetBudget(size_t budget_bytes);
  size_t budget() const;

  CategoryStats Stats(MemoryCategory category) const;
  CategoryStats Total() const;  // peak_bytes is the peak of the sum, not the sum of peaks

  // A table of every category, the total, the budget and the process RSS.
  std::string Report() const;

 private:
  friend class MemoryReservation;
  enum class Backing { kZeroed, kUntouched, kNone };
  Result<void*> AllocateWith(MemoryCategory category, size_t bytes, Backing backing);
  // The accounting half of Allocate and Free.
  Status Charge(MemoryCategory category, size_t rounded);
  void Uncharge(MemoryCategory category, size_t rounded);

  mutable std::mutex mutex_;
  size_t budget_bytes_;
  std::array<CategoryStats, kMemoryCategoryCount> stats_{};
  CategoryStats total_{};
};

// A MemoryAccountant::Reserve promise; move-only, released by Release() or the destructor.
class MemoryReservation {
 public:
  MemoryReservation() = default;
  MemoryReservation(MemoryReservation&& other) noexcept { *this = std::move(other); }
  MemoryReservation& operator=(MemoryReservation&& other) noexcept;
  MemoryReservation(const MemoryReservation&) = delete;
  MemoryReservation& operator=(const MemoryReservation&) = delete;
  ~MemoryReservation() { Release(); }

  void Release();
  size_t bytes() const { return bytes_; }

 private:
  friend class MemoryAccountant;
  MemoryReservation(MemoryAccountant* accountant, MemoryCategory category, size_t bytes)
      : accountant_(accountant), category_(category), bytes_(bytes) {}
  MemoryAccountant* accountant_ = nullptr;
  MemoryCategory category_ = MemoryCategory::kScratch;
  size_t bytes_ = 0;
};

// Resident set size of this process in bytes (from /proc/self/statm), 0 if unknown.
size_t ProcessResidentBytes();

// "1.50 GiB", "96.0 MiB", "512 B".
std::string FormatBytes(size_t bytes);

}  // namespace swarm
