// Dispatch for the matrix transform kernels: compiled once per SIMD target; each exported entry
// checks its preconditions once and picks the best supported target once per call.
#include "swarm/kernels/geometry/transform.h"

#include <cmath>
#include <cstdint>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/geometry/transform-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/geometry/transform-inl.h"

#if HWY_ONCE
namespace swarm {

HWY_EXPORT(TransformVectorsImpl);
HWY_EXPORT(TransformVectorsPerElementImpl);
HWY_EXPORT(MultiplyMatricesImpl);
HWY_EXPORT(CameraProjectImpl);

namespace {

// The elements [0, count) of `lanes` lane arrays starting `stride` elements apart, as address
// ranges. Two views overlap if any lane range of one intersects any lane range of the other;
// views that interleave (tiles of one buffer) do not.
struct Lanes {
  uintptr_t begin;
  size_t lanes;
  size_t stride_bytes;
  size_t count_bytes;
};

template <typename T>
Lanes LanesOf(const T* data, size_t lanes, size_t stride, size_t count) {
  return {reinterpret_cast<uintptr_t>(data), lanes, stride * sizeof(T), count * sizeof(T)};
}
Lanes LanesOf(const ConstVec4View& v) { return LanesOf(v.data, 4, v.lane_stride, v.count); }
Lanes LanesOf(const ConstMat4View& m) { return LanesOf(m.data, 16, m.lane_stride, m.count); }
Lanes LanesOf(const ConstByteView& b) { return LanesOf(b.data, 1, 0, b.count); }

bool Overlap(const Lanes& a, const Lanes& b) {
  if (a.count_bytes == 0 || b.count_bytes == 0) return false;
  for (size_t i = 0; i < a.lanes; ++i) {
    const uintptr_t a_begin = a.begin + i * a.stride_bytes;
    for (size_t j = 0; j < b.lanes; ++j) {
      const uintptr_t b_begin = b.begin + j * b.stride_bytes;
      if (a_begin < b_begin + b.count_bytes && b_begin < a_begin + a.count_bytes) return true;
    }
  }
  return false;
}

// In-place (the very same view) or disjoint.
bool SameOrDisjoint(const ConstVec4View& in, const ConstVec4View& out) {
  const bool same = in.data == out.data && in.lane_stride == out.lane_stride;
  return same || !Overlap(LanesOf(in), LanesOf(out));
}

bool ValidVec4(const ConstVec4View& v) {
  return v.count == 0 || (v.data != nullptr && v.lane_stride >= v.count);
}
bool ValidMat4(const ConstMat4View& m) {
  return m.count == 0 || (m.data != nullptr && m.lane_stride >= m.count);
}

}  // namespace

void TransformVectors(const glm::mat4& matrix, const ConstVec4View& in, const Vec4View& out,
                      const TransformParams& params) {
  SWARM_ASSERT(in.count == out.count && ValidVec4(in) && ValidVec4(out));
  SWARM_ASSERT(SameOrDisjoint(in, out));
  SWARM_ASSERT(!(params.perspective_divide && params.mode == TransformMode::kDirections));
  HWY_DYNAMIC_DISPATCH(TransformVectorsImpl)(matrix, in, out, params);
}

void TransformVectorsPerElement(const ConstMat4View& matrices, const ConstVec4View& in,
                                const Vec4View& out, TransformMode mode) {
  SWARM_ASSERT(matrices.count == in.count && in.count == out.count && ValidMat4(matrices) &&
               ValidVec4(in) && ValidVec4(out));
  SWARM_ASSERT(SameOrDisjoint(in, out) && !Overlap(LanesOf(matrices), LanesOf(out)));
  HWY_DYNAMIC_DISPATCH(TransformVectorsPerElementImpl)(matrices, in, out, mode);
}

void MultiplyMatrices(const ConstMat4View& a, const ConstMat4View& b, const Mat4View& out) {
  SWARM_ASSERT(a.count == b.count && a.count == out.count && ValidMat4(a) && ValidMat4(b) &&
               ValidMat4(out));
  SWARM_ASSERT(!Overlap(LanesOf(a), LanesOf(out)) && !Overlap(LanesOf(b), LanesOf(out)));
  HWY_DYNAMIC_DISPATCH(MultiplyMatricesImpl)(a, b, out);
}

void CameraProject(const CameraParams& camera, const ConstVec4View& points, const Vec4View& screen,
                   const ByteView& visible) {
  SWARM_ASSERT(points.count == screen.count && points.count == visible.count && ValidVec4(points) &&
               ValidVec4(screen) && (visible.count == 0 || visible.data != nullptr));
  SWARM_ASSERT(std::isfinite(camera.width_pixels) && camera.width_pixels > 0.0f &&
               std::isfinite(camera.height_pixels) && camera.height_pixels > 0.0f);
  SWARM_ASSERT(SameOrDisjoint(points, screen) && !Overlap(LanesOf(points), LanesOf(visible)) &&
               !Overlap(LanesOf(screen), LanesOf(visible)));
  HWY_DYNAMIC_DISPATCH(CameraProjectImpl)(camera, points, screen, visible);
}

}  // namespace swarm
#endif  // HWY_ONCE
