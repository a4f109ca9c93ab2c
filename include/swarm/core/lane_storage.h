// The owning storage behind every swarm buffer: kLanes arrays of T (lane-major) in one
// kAlignBytes-aligned, accounted allocation. Each lane array holds `capacity` elements, a multiple
// of kPadElements<T>, so kernels may read whole vectors; elements past `size` are zero and stay
// zero (kernels never write past a view's count, and shrinking re-zeroes the tail).
//
// Growing past the capacity allocates the new block first and copies, so a refused request (over
// budget, out of memory) leaves the old contents intact.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <limits>
#include <string>
#include <utility>

#include "swarm/core/memory.h"
#include "swarm/core/status.h"
#include "swarm/kernels/base/views.h"

namespace swarm {

template <typename T, size_t kLanes>
class LaneStorage {
 public:
  LaneStorage() = default;
  LaneStorage(MemoryAccountant& accountant, MemoryCategory category)
      : accountant_(&accountant), category_(category) {}
  LaneStorage(LaneStorage&& other) noexcept { Swap(other); }
  LaneStorage& operator=(LaneStorage&& other) noexcept {
    if (this != &other) {
      Release();
      size_ = 0;
      Swap(other);
    }
    return *this;
  }
  LaneStorage(const LaneStorage&) = delete;
  LaneStorage& operator=(const LaneStorage&) = delete;
  ~LaneStorage() { Release(); }

  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  T* lane(size_t index) { return data_ + index * capacity_; }
  const T* lane(size_t index) const { return data_ + index * capacity_; }
  MemoryCategory category() const { return category_; }
  size_t allocated_bytes() const { return BytesFor(capacity_); }

  // The largest element count whose allocation size fits in size_t.
  static constexpr size_t MaxSize() {
    return std::numeric_limits<size_t>::max() / (2 * kLanes * sizeof(T)) / kPadElements<T> *
           kPadElements<T>;
  }

  // A new storage of `new_size` elements (capacity for at least `min_capacity`) holding the first
  // min(size, new_size) elements of this one; the rest is zero. This storage is not changed, so a
  // caller growing several arrays can allocate them all before committing any.
  Result<LaneStorage> ResizedCopy(size_t new_size, size_t min_capacity = 0) const {
    const size_t wanted = std::max(new_size, min_capacity);
    if (wanted > MaxSize()) {
      return InvalidArgument("buffer of " + std::to_string(wanted) + " elements for " +
                             MemoryCategoryName(category_) + " is too large (maximum " +
                             std::to_string(MaxSize()) + ")");
    }
    const size_t new_capacity = RoundUpToVector<T>(wanted);
    Result<void*> memory = accountant_->Allocate(category_, BytesFor(new_capacity));
    if (!memory.ok()) return memory.status();
    LaneStorage copy(*accountant_, category_);
    copy.data_ = static_cast<T*>(memory.value());
    copy.capacity_ = new_capacity;
    copy.size_ = new_size;
    const size_t kept = std::min(size_, new_size);
    for (size_t index = 0; index < kLanes && kept > 0; ++index) {
      std::memcpy(copy.lane(index), lane(index), kept * sizeof(T));
    }
    return copy;
  }

  Status Reserve(size_t min_capacity) {
    if (min_capacity <= capacity_ && data_ != nullptr) return {};
    Result<LaneStorage> grown = ResizedCopy(size_, min_capacity);
    if (!grown.ok()) return grown.status();
    *this = std::move(grown).value();
    return {};
  }

  // New elements are zero; elements past the new size are zeroed.
  Status Resize(size_t new_size) {
    if (Status status = Reserve(new_size); !status.ok()) return status;
    for (size_t index = 0; index < kLanes && new_size < size_; ++index) {
      std::memset(lane(index) + new_size, 0, (size_ - new_size) * sizeof(T));
    }
    size_ = new_size;
    return {};
  }

 private:
  static size_t BytesFor(size_t capacity) { return kLanes * capacity * sizeof(T); }

  void Release() {
    if (data_ != nullptr) accountant_->Free(category_, data_, BytesFor(capacity_));
    data_ = nullptr;
    capacity_ = 0;
  }

  void Swap(LaneStorage& other) {
    std::swap(accountant_, other.accountant_);
    std::swap(category_, other.category_);
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
  }

  MemoryAccountant* accountant_ = nullptr;
  MemoryCategory category_ = MemoryCategory::kScratch;
  T* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace swarm
