// Dispatch for the quaternion kernels: compiled once per SIMD target, and each exported entry
// picks the best supported target once per call.
#include "swarm/kernels/geometry/quaternion.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/geometry/quaternion-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/geometry/quaternion-inl.h"

#if HWY_ONCE
namespace swarm {

HWY_EXPORT(RotateVectorsImpl);
HWY_EXPORT(RotateVectorsPerElementImpl);
HWY_EXPORT(MultiplyQuaternionsImpl);
HWY_EXPORT(ConjugateQuaternionsImpl);
HWY_EXPORT(NormalizeQuaternionsImpl);
HWY_EXPORT(QuaternionsToMatricesImpl);
HWY_EXPORT(MatricesToQuaternionsImpl);
HWY_EXPORT(NlerpQuaternionsImpl);
HWY_EXPORT(SlerpQuaternionsImpl);

void RotateVectors(const glm::quat& q, const ConstVec4View& in, const Vec4View& out) {
  SWARM_ASSERT(SameCount(in, out));
  HWY_DYNAMIC_DISPATCH(RotateVectorsImpl)(q, in, out);
}

void RotateVectorsPerElement(const ConstVec4View& q, const ConstVec4View& in, const Vec4View& out) {
  SWARM_ASSERT(SameCount(q, in) && SameCount(q, out));
  HWY_DYNAMIC_DISPATCH(RotateVectorsPerElementImpl)(q, in, out);
}

void MultiplyQuaternions(const ConstVec4View& a, const ConstVec4View& b, const Vec4View& out) {
  SWARM_ASSERT(SameCount(a, b) && SameCount(a, out));
  HWY_DYNAMIC_DISPATCH(MultiplyQuaternionsImpl)(a, b, out);
}

void ConjugateQuaternions(const ConstVec4View& q, const Vec4View& out) {
  SWARM_ASSERT(SameCount(q, out));
  HWY_DYNAMIC_DISPATCH(ConjugateQuaternionsImpl)(q, out);
}

void NormalizeQuaternions(const ConstVec4View& q, const Vec4View& out) {
  SWARM_ASSERT(SameCount(q, out));
  HWY_DYNAMIC_DISPATCH(NormalizeQuaternionsImpl)(q, out);
}

void QuaternionsToMatrices(const ConstVec4View& q, const Mat4View& matrices) {
  SWARM_ASSERT(SameCount(q, matrices));
  HWY_DYNAMIC_DISPATCH(QuaternionsToMatricesImpl)(q, matrices);
}

void MatricesToQuaternions(const ConstMat4View& matrices, const Vec4View& q) {
  SWARM_ASSERT(SameCount(matrices, q));
  HWY_DYNAMIC_DISPATCH(MatricesToQuaternionsImpl)(matrices, q);
}

void NlerpQuaternions(const ConstVec4View& a, const ConstVec4View& b, float t,
                      const Vec4View& out) {
  SWARM_ASSERT(SameCount(a, b) && SameCount(a, out));
  HWY_DYNAMIC_DISPATCH(NlerpQuaternionsImpl)(a, b, t, out);
}

void SlerpQuaternions(const ConstVec4View& a, const ConstVec4View& b, float t,
                      const Vec4View& out) {
  SWARM_ASSERT(SameCount(a, b) && SameCount(a, out));
  HWY_DYNAMIC_DISPATCH(SlerpQuaternionsImpl)(a, b, t, out);
}

}  // namespace swarm
#endif  // HWY_ONCE
