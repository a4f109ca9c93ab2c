// Dispatch for the tensor row kernels, and the target-independent finishing trees.
#include "swarm/kernels/tensor/row_kernels.h"

#include <cmath>
#include <limits>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/tensor/row_kernels.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/tensor/row_kernels-inl.h"

#if HWY_ONCE
#include "swarm/kernels/base/assert.h"

namespace swarm {

HWY_EXPORT(ElementwiseRowImpl);
HWY_EXPORT(ElementwiseRowStreamedImpl);
HWY_EXPORT(ElementwiseRowStridedImpl);
HWY_EXPORT(UnaryRowImpl);
HWY_EXPORT(SelectRowImpl);
HWY_EXPORT(WidenRowImpl);
HWY_EXPORT(NarrowRowImpl);
HWY_EXPORT(AccumulateSumImpl);
HWY_EXPORT(SumRowImpl);
HWY_EXPORT(AccumulateSumStridedImpl);
HWY_EXPORT(AccumulateMinImpl);
HWY_EXPORT(AccumulateMaxImpl);
HWY_EXPORT(AccumulateMinStridedImpl);
HWY_EXPORT(AccumulateMaxStridedImpl);

namespace {

// The fixed tree of swarm/kernels/tensor/row_kernels.h: halves of the accumulator array combined
// pairwise.
template <typename T, class Combine>
T Tree(const T (&lanes)[kReduceLanes], const Combine& combine) {
  T values[kReduceLanes];
  for (size_t i = 0; i < kReduceLanes; ++i) values[i] = lanes[i];
  for (size_t half = kReduceLanes / 2; half >= 1; half /= 2) {
    for (size_t i = 0; i < half; ++i) values[i] = combine(values[i], values[i + half]);
  }
  return values[0];
}

}  // namespace

void ElementwiseRow(ElementwiseOp op, const float* a, size_t a_step, const float* b, size_t b_step,
                    float* out, size_t count) {
  SWARM_ASSERT(a_step <= 1 && b_step <= 1);
  SWARM_ASSERT(count == 0 || (a != nullptr && b != nullptr && out != nullptr));
  HWY_DYNAMIC_DISPATCH(ElementwiseRowImpl)(op, a, a_step, b, b_step, out, count);
}

void ElementwiseRowStreamed(ElementwiseOp op, const float* a, size_t a_step, const float* b,
                            size_t b_step, float* out, size_t count) {
  SWARM_ASSERT(a_step <= 1 && b_step <= 1);
  SWARM_ASSERT(count == 0 || (a != nullptr && b != nullptr && out != nullptr));
  HWY_DYNAMIC_DISPATCH(ElementwiseRowStreamedImpl)(op, a, a_step, b, b_step, out, count);
}

void ElementwiseRowStrided(ElementwiseOp op, const float* a, ptrdiff_t a_stride, const float* b,
                           ptrdiff_t b_stride, float* out, ptrdiff_t out_stride, size_t count) {
  SWARM_ASSERT(count == 0 || (a != nullptr && b != nullptr && out != nullptr));
  HWY_DYNAMIC_DISPATCH(ElementwiseRowStridedImpl)
  (op, a, a_stride, b, b_stride, out, out_stride, count);
}

void UnaryRow(UnaryOp op, const float* a, float* out, size_t count) {
  SWARM_ASSERT(count == 0 || (a != nullptr && out != nullptr));
  if (count == 0) return;
  HWY_DYNAMIC_DISPATCH(UnaryRowImpl)(op, a, out, count);
}

void SelectRow(const float* mask, size_t mask_step, const float* a, size_t a_step, const float* b,
               size_t b_step, float* out, size_t count) {
  SWARM_ASSERT(mask_step <= 1 && a_step <= 1 && b_step <= 1);
  SWARM_ASSERT(count == 0 || (mask != nullptr && a != nullptr && b != nullptr && out != nullptr));
  if (count == 0) return;
  HWY_DYNAMIC_DISPATCH(SelectRowImpl)(mask, mask_step, a, a_step, b, b_step, out, count);
}

void WidenRow(StorageType from, const void* in, float* out, size_t count) {
  SWARM_ASSERT(count == 0 || (in != nullptr && out != nullptr));
  if (count == 0) return;
  HWY_DYNAMIC_DISPATCH(WidenRowImpl)(from, in, out, count);
}

void NarrowRow(StorageType to, const float* in, void* out, size_t count) {
  SWARM_ASSERT(count == 0 || (in != nullptr && out != nullptr));
  if (count == 0) return;
  HWY_DYNAMIC_DISPATCH(NarrowRowImpl)(to, in, out, count);
}

void AccumulateSum(const float* row, size_t count, SumLanes& state) {
  SWARM_ASSERT(count == 0 || row != nullptr);
  HWY_DYNAMIC_DISPATCH(AccumulateSumImpl)(row, count, state);
}

void AccumulateSumStrided(const float* row, ptrdiff_t stride, size_t count, SumLanes& state) {
  SWARM_ASSERT(count == 0 || row != nullptr);
  HWY_DYNAMIC_DISPATCH(AccumulateSumStridedImpl)(row, stride, count, state);
}

double SumRow(const float* row, size_t count) {
  if (count == 0) return 0.0;
  SWARM_ASSERT(row != nullptr);
  const double sum = HWY_DYNAMIC_DISPATCH(SumRowImpl)(row, count);
  return std::isnan(sum) ? std::numeric_limits<double>::quiet_NaN() : sum;
}

double FinishSum(const SumLanes& state) {
  if (state.count == 0) return 0.0;
  const double sum = Tree(state.lanes, [](double a, double b) { return a + b; });
  return std::isnan(sum) ? std::numeric_limits<double>::quiet_NaN() : sum;
}

void AccumulateMin(const float* row, size_t count, ExtremumLanes& state) {
  SWARM_ASSERT(count == 0 || row != nullptr);
  HWY_DYNAMIC_DISPATCH(AccumulateMinImpl)(row, count, state);
}

void AccumulateMax(const float* row, size_t count, ExtremumLanes& state) {
  SWARM_ASSERT(count == 0 || row != nullptr);
  HWY_DYNAMIC_DISPATCH(AccumulateMaxImpl)(row, count, state);
}

void AccumulateMinStrided(const float* row, ptrdiff_t stride, size_t count, ExtremumLanes& state) {
  SWARM_ASSERT(count == 0 || row != nullptr);
  HWY_DYNAMIC_DISPATCH(AccumulateMinStridedImpl)(row, stride, count, state);
}

void AccumulateMaxStrided(const float* row, ptrdiff_t stride, size_t count, ExtremumLanes& state) {
  SWARM_ASSERT(count == 0 || row != nullptr);
  HWY_DYNAMIC_DISPATCH(AccumulateMaxStridedImpl)(row, stride, count, state);
}

float FinishMin(const ExtremumLanes& state) {
  SWARM_ASSERT(state.count > 0);
  if (state.saw_nan) return std::numeric_limits<float>::quiet_NaN();
  return Tree(state.lanes, [](float a, float b) { return ScalarMin(a, b); });
}

float FinishMax(const ExtremumLanes& state) {
  SWARM_ASSERT(state.count > 0);
  if (state.saw_nan) return std::numeric_limits<float>::quiet_NaN();
  return Tree(state.lanes, [](float a, float b) { return ScalarMax(a, b); });
}

}  // namespace swarm
#endif  // HWY_ONCE
