#include "swarm/core/buffer.h"

#include <string>

#include "swarm/kernels/base/aos.h"

namespace swarm {

Result<Vec4Buffer> Vec4Buffer::Create(MemoryAccountant& accountant, size_t count,
                                      MemoryCategory category) {
  LaneStorage<float, 4> storage(accountant, category);
  if (Status status = storage.Resize(count); !status.ok()) return status;
  return Vec4Buffer(std::move(storage));
}

glm::vec4 Vec4Buffer::Get(size_t index) const {
  SWARM_ASSERT(index < size());
  const ConstVec4View v = view();
  return {v.x()[index], v.y()[index], v.z()[index], v.w()[index]};
}

void Vec4Buffer::Set(size_t index, const glm::vec4& value) {
  SWARM_ASSERT(index < size());
  const Vec4View v = view();
  v.x()[index] = value.x;
  v.y()[index] = value.y;
  v.z()[index] = value.z;
  v.w()[index] = value.w;
}

namespace {
Status SizeMismatch(const char* operation, size_t buffer_size, size_t span_size,
                    const char* elements = "vectors") {
  return InvalidArgument(std::string(operation) + ": the span has " + std::to_string(span_size) +
                         " " + elements + " but the buffer has " + std::to_string(buffer_size));
}
}  // namespace

Status Vec4Buffer::CopyFrom(std::span<const glm::vec4> values) {
  if (values.size() != size()) return SizeMismatch("Vec4Buffer::CopyFrom", size(), values.size());
  static_assert(sizeof(glm::vec4) == 4 * sizeof(float));
  AosToSoa(reinterpret_cast<const float*>(values.data()), view());
  return {};
}

Status Vec4Buffer::CopyTo(std::span<glm::vec4> values) const {
  if (values.size() != size()) return SizeMismatch("Vec4Buffer::CopyTo", size(), values.size());
  SoaToAos(view(), reinterpret_cast<float*>(values.data()));
  return {};
}

Result<Mat4Buffer> Mat4Buffer::Create(MemoryAccountant& accountant, size_t count,
                                      MemoryCategory category) {
  LaneStorage<float, 16> storage(accountant, category);
  if (Status status = storage.Resize(count); !status.ok()) return status;
  return Mat4Buffer(std::move(storage));
}

glm::mat4 Mat4Buffer::Get(size_t index) const {
  SWARM_ASSERT(index < size());
  const ConstMat4View m = view();
  glm::mat4 value;
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) value[c][r] = m.Element(c, r)[index];
  }
  return value;
}

void Mat4Buffer::Set(size_t index, const glm::mat4& value) {
  SWARM_ASSERT(index < size());
  const Mat4View m = view();
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) m.Element(c, r)[index] = value[c][r];
  }
}

// A 16-way transpose: one pass over the AoS array, 16 contiguous lane streams. Not a hot path
// (loading a scene or a robot batch), so plain scalar code, bit-exact by construction.
Status Mat4Buffer::CopyFrom(std::span<const glm::mat4> values) {
  if (values.size() != size()) {
    return SizeMismatch("Mat4Buffer::CopyFrom", size(), values.size(), "matrices");
  }
  static_assert(sizeof(glm::mat4) == 16 * sizeof(float));
  const float* aos = reinterpret_cast<const float*>(values.data());
  const Mat4View m = view();
  for (size_t i = 0; i < values.size(); ++i) {
    for (size_t lane = 0; lane < 16; ++lane) m.Lane(lane)[i] = aos[16 * i + lane];
  }
  return {};
}

Status Mat4Buffer::CopyTo(std::span<glm::mat4> values) const {
  if (values.size() != size()) {
    return SizeMismatch("Mat4Buffer::CopyTo", size(), values.size(), "matrices");
  }
  float* aos = reinterpret_cast<float*>(values.data());
  const ConstMat4View m = view();
  for (size_t i = 0; i < values.size(); ++i) {
    for (size_t lane = 0; lane < 16; ++lane) aos[16 * i + lane] = m.Lane(lane)[i];
  }
  return {};
}

}  // namespace swarm
