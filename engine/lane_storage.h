// The owning storage behind every swarm buffer: kLanes arrays of T (lane-major) in one
// kAlignBytes-aligned, accounted allocation. Each lane array holds `capacity` elements, a multiple
// of kPadElements<T>, so kernels may read whole vectors; elements past `size` are zero and stay
// zero (kernels never write past a view's count, and shrinking re-zeroes the tail).
//
// Growing past the capacity allocates the new block first and copies, so a refused request (over
// budget, out of memory) leaves the old contents intact.
#pragma once

#include <cstddef>
#include <cstring>
#include <limits>
#include <string>
#include <utility>

#include "engine/memory.h"
#include "engine/status.h"
#include "kernels/views.h"

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

  Status Reserve(size_t min_capacity) {
    if (min_capacity <= capacity_ && data_ != nullptr) return {};
    if (min_capacity > MaxSize()) {
      return InvalidArgument("buffer of " + std::to_string(min_capacity) + " elements for " +
                             MemoryCategoryName(category_) + " is too large (maximum " +
                             std::to_string(MaxSize()) + ")");
    }
    const size_t new_capacity = RoundUpToVector<T>(min_capacity);
    Result<void*> memory = accountant_->Allocate(category_, BytesFor(new_capacity));
    if (!memory.ok()) return memory.status();
    T* new_data = static_cast<T*>(memory.value());
    for (size_t index = 0; index < kLanes && size_ > 0; ++index) {
      std::memcpy(new_data + index * new_capacity, lane(index), size_ * sizeof(T));
    }
    Release();
    data_ = new_data;
    capacity_ = new_capacity;
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
    // size_ is kept: Reserve calls Release before installing the copied block.
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
