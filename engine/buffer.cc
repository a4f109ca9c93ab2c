#include "engine/buffer.h"

#include <string>

#include "kernels/aos.h"

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
Status SizeMismatch(const char* operation, size_t buffer_size, size_t span_size) {
  return InvalidArgument(std::string(operation) + ": the span has " + std::to_string(span_size) +
                         " vectors but the buffer has " + std::to_string(buffer_size));
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

}  // namespace swarm
