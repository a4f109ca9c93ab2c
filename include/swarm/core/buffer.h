// Owning buffers: Vec4Buffer (N f32x4 vectors as SoA lane arrays), Mat4Buffer (N 4x4 matrices as
// 16 lane arrays) and PaddedArray<T> (one padded array of per-element scalars such as age or
// mass, or flags as uint8_t). Both are move-only,
// accounted by a MemoryAccountant, and hand out the non-owning views that kernels take.
//
//   MemoryAccountant memory(/*budget_bytes=*/96 << 20);
//   Result<Vec4Buffer> positions = Vec4Buffer::Create(memory, 1'000'000);
//   if (!positions.ok()) { puts(positions.status().message().c_str()); return 2; }
//   IntegrateEuler(positions->view(), velocities->view(), params);
//
// Views stay valid until the buffer is resized beyond its capacity, moved or destroyed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <glm/mat4x4.hpp>
#include <glm/vec4.hpp>
#include <span>

#include "swarm/core/lane_storage.h"
#include "swarm/core/memory.h"
#include "swarm/core/status.h"
#include "swarm/kernels/base/views.h"

namespace swarm {

class Vec4Buffer {
 public:
  // A buffer of `count` zero vectors.
  static Result<Vec4Buffer> Create(MemoryAccountant& accountant, size_t count,
                                   MemoryCategory category = MemoryCategory::kParticles);
  Vec4Buffer() = default;

  size_t size() const { return storage_.size(); }
  size_t capacity() const { return storage_.capacity(); }
  MemoryCategory category() const { return storage_.category(); }

  Vec4View view() { return {storage_.lane(0), size(), capacity()}; }
  ConstVec4View view() const { return {storage_.lane(0), size(), capacity()}; }

  // Keep contents; new vectors are zero. On error the buffer is unchanged.
  Status Resize(size_t count) { return storage_.Resize(count); }
  Status Reserve(size_t capacity) { return storage_.Reserve(capacity); }
  // A new buffer of `count` vectors starting with a copy of this one's first min(size, count);
  // this buffer is unchanged (for all-or-nothing growth of several buffers).
  Result<Vec4Buffer> ResizedCopy(size_t count) const {
    Result<LaneStorage<float, 4>> copy = storage_.ResizedCopy(count);
    if (!copy.ok()) return copy.status();
    return Vec4Buffer(std::move(copy).value());
  }

  glm::vec4 Get(size_t index) const;
  void Set(size_t index, const glm::vec4& value);

  // Bulk AoS <-> SoA (SIMD). The span's size must equal size(); on error nothing is written.
  Status CopyFrom(std::span<const glm::vec4> values);
  Status CopyTo(std::span<glm::vec4> values) const;

 private:
  explicit Vec4Buffer(LaneStorage<float, 4> storage) : storage_(std::move(storage)) {}
  LaneStorage<float, 4> storage_;
};

// N 4x4 matrices as 16 lane arrays, column-major like glm::mat4 (swarm/kernels/base/views.h,
// Mat4View): entry (column c, row r) of matrix i is view().Element(c, r)[i] = Get(i)[c][r]. Same
// allocation, padding and error rules as Vec4Buffer; new matrices are all zero (not identity),
// because the zero-padding rule makes zero the one value a resize can promise.
class Mat4Buffer {
 public:
  static Result<Mat4Buffer> Create(MemoryAccountant& accountant, size_t count,
                                   MemoryCategory category = MemoryCategory::kParticles);
  Mat4Buffer() = default;

  size_t size() const { return storage_.size(); }
  size_t capacity() const { return storage_.capacity(); }
  MemoryCategory category() const { return storage_.category(); }

  Mat4View view() { return {storage_.lane(0), size(), capacity()}; }
  ConstMat4View view() const { return {storage_.lane(0), size(), capacity()}; }

  // Keep contents; new matrices are zero. On error the buffer is unchanged.
  Status Resize(size_t count) { return storage_.Resize(count); }
  Status Reserve(size_t capacity) { return storage_.Reserve(capacity); }
  // A new buffer of `count` matrices starting with a copy of this one's first min(size, count);
  // this buffer is unchanged.
  Result<Mat4Buffer> ResizedCopy(size_t count) const {
    Result<LaneStorage<float, 16>> copy = storage_.ResizedCopy(count);
    if (!copy.ok()) return copy.status();
    return Mat4Buffer(std::move(copy).value());
  }

  glm::mat4 Get(size_t index) const;
  void Set(size_t index, const glm::mat4& value);

  // Bulk AoS (glm::mat4[], 16 consecutive floats each) <-> SoA. The span's size must equal
  // size(); on error nothing is written.
  Status CopyFrom(std::span<const glm::mat4> values);
  Status CopyTo(std::span<glm::mat4> values) const;

 private:
  explicit Mat4Buffer(LaneStorage<float, 16> storage) : storage_(std::move(storage)) {}
  LaneStorage<float, 16> storage_;
};

template <typename T>
class PaddedArray {
 public:
  static Result<PaddedArray> Create(MemoryAccountant& accountant, size_t count,
                                    MemoryCategory category = MemoryCategory::kParticles) {
    LaneStorage<T, 1> storage(accountant, category);
    if (Status status = storage.Resize(count); !status.ok()) return status;
    return PaddedArray(std::move(storage));
  }
  PaddedArray() = default;

  size_t size() const { return storage_.size(); }
  size_t capacity() const { return storage_.capacity(); }
  MemoryCategory category() const { return storage_.category(); }

  ArrayView<T> view() { return {storage_.lane(0), size()}; }
  ArrayView<const T> view() const { return {storage_.lane(0), size()}; }
  std::span<T> span() { return {storage_.lane(0), size()}; }
  std::span<const T> span() const { return {storage_.lane(0), size()}; }
  T& operator[](size_t index) {
    SWARM_DASSERT(index < size());
    return storage_.lane(0)[index];
  }
  const T& operator[](size_t index) const {
    SWARM_DASSERT(index < size());
    return storage_.lane(0)[index];
  }

  Status Resize(size_t count) { return storage_.Resize(count); }
  Status Reserve(size_t capacity) { return storage_.Reserve(capacity); }
  Result<PaddedArray> ResizedCopy(size_t count) const {
    Result<LaneStorage<T, 1>> copy = storage_.ResizedCopy(count);
    if (!copy.ok()) return copy.status();
    return PaddedArray(std::move(copy).value());
  }

 private:
  explicit PaddedArray(LaneStorage<T, 1> storage) : storage_(std::move(storage)) {}
  LaneStorage<T, 1> storage_;
};

using FloatArray = PaddedArray<float>;
using ByteArray = PaddedArray<uint8_t>;

}  // namespace swarm
