// Arithmetic and reductions on f32 tensor views, checked at the boundary and run by the SIMD row
// kernels of swarm/kernels/tensor/row_kernels.h.
//
//   TensorView particles = TensorOf(positions);                 // f32[N][4], strides [1, P]
//   float offset[4] = {0.0f, 1.0f, 0.0f, 0.0f};
//   const int64_t row_shape[] = {4};
//   TensorView row = TensorView::Contiguous(offset, DType::kF32, row_shape).value();
//   Status s = Add(particles, row, particles);                  // every particle += offset
//   Result<double> total = Sum(particles);
//
// Iteration. Every operation walks its views in rows along one axis and calls a kernel per row:
//   - elementwise ops walk every axis on which out steps backwards forwards instead (results do
//     not depend on the order), nest the axes by decreasing |out stride| and merge neighbours
//     that stay contiguous in every operand; if the innermost axis cannot run the SIMD kernel
//     but another can, the longest such axis becomes the inner one. So an SoA f32[N][4] view
//     runs four rows of N along the particles, not N rows of 4 lanes. A row whose out stride is
//     1 and whose input strides are 0 or 1 runs the SIMD kernel; any other row (a transposed
//     operand, a step-2 slice) runs a plain strided loop with identical per-element results.
//   - reductions visit elements in the canonical memory order below and accumulate contiguous
//     rows with the SIMD kernel, other rows with a plain strided loop into the same lane state.
//
// Reduction order (this is what makes sums deterministic). A view's elements are visited in its
// canonical traversal: axes of extent 1 are dropped, an axis with a negative stride is walked
// from its last index to its first, and the remaining axes are nested by decreasing |stride| (the
// smallest stride innermost; equal strides keep the view's axis order). For a dense block of
// memory seen in any axis order or direction (C or Fortran order, transposed, reversed) that is
// increasing address order. The k-th element visited is converted to double and added to
// accumulator k mod 32 (accumulators start at -0.0 and add in visit order); the 32 accumulators
// are then combined by the fixed pairwise tree a[i] += a[i + 16] (i < 16), a[i] += a[i + 8]
// (i < 8), ..., a[0] += a[1]. The result depends on the values and the view's layout only: the
// same bits on every SIMD target, every run, and equal to the sum of a contiguous copy of the
// elements in visit order. Mean is that sum divided by the element count, in double.
// Min and max are exact (no rounding), so their result does not depend on the order at all.
//
// Semantics shared by every operation here:
//   - all views are f32 (anything else is an error naming the operand);
//   - NaN propagates: an elementwise op gives NaN where either operand is NaN (min and max
//     too, like numpy's np.minimum / np.maximum) or IEEE arithmetic makes one (inf - inf, 0 / 0);
//     Min and Max give NaN if any element is NaN; Sum and Mean follow IEEE addition (any NaN, or
//     +inf and -inf together, give NaN). Every NaN result is the quiet NaN 0x7fc00000, so results
//     keep the same bits on every target (swarm/kernels/tensor/row_kernels.h explains why);
//   - -0 is ordered below +0 by min and max: min(-0, +0) = -0, max(-0, +0) = +0;
//   - on error nothing is written.
#pragma once

#include <cstddef>
#include <cstdint>

#include "swarm/core/status.h"
#include "swarm/kernels/tensor/row_kernels.h"
#include "swarm/tensor/tensor.h"

namespace swarm {

// The operations of ElementwiseRow (swarm/kernels/tensor/row_kernels.h): arithmetic, min / max,
// then comparisons and logic, which give 1.0f or 0.0f.
using BinaryOp = ElementwiseOp;
inline constexpr size_t kBinaryOpCount = kElementwiseOpCount;
// "Add", "Sub", ..., as error messages name the operation.
const char* BinaryOpName(BinaryOp op);

// out = a op b elementwise with numpy broadcasting: shapes are aligned at their trailing axes,
// and on each axis the two extents are equal or one of them is 1 (a missing leading axis counts
// as 1), giving the broadcast shape. Preconditions checked, with an error naming the op, the
// shapes and the offending axis: all three views f32; a and b broadcast; out's shape equals the
// broadcast shape; out writable; out's elements do not overlap each other; out either is the very
// same view as a or b (same data, shape and strides: in place) or does not overlap them at all.
// Each out element is the single IEEE operation (correctly rounded) or min/max as documented
// above, so results are identical on every SIMD target.
Status Elementwise(BinaryOp op, const TensorView& a, const TensorView& b, const TensorView& out);
inline Status Add(const TensorView& a, const TensorView& b, const TensorView& out) {
  return Elementwise(BinaryOp::kAdd, a, b, out);
}
inline Status Sub(const TensorView& a, const TensorView& b, const TensorView& out) {
  return Elementwise(BinaryOp::kSub, a, b, out);
}
inline Status Mul(const TensorView& a, const TensorView& b, const TensorView& out) {
  return Elementwise(BinaryOp::kMul, a, b, out);
}
inline Status Div(const TensorView& a, const TensorView& b, const TensorView& out) {
  return Elementwise(BinaryOp::kDiv, a, b, out);
}
inline Status Min(const TensorView& a, const TensorView& b, const TensorView& out) {
  return Elementwise(BinaryOp::kMin, a, b, out);
}
inline Status Max(const TensorView& a, const TensorView& b, const TensorView& out) {
  return Elementwise(BinaryOp::kMax, a, b, out);
}

// The one-row paths shared by the calls and the prepared operations: the sum of `count`
// contiguous floats (the reduction order above), and ElementwiseRow of contiguous operands.
double SumContiguous(const float* row, size_t count);
void RunContiguous(ElementwiseOp op, const float* a, const float* b, float* out, size_t count);

// Calls on f32 C-contiguous views of one shape (out writable, and in place or apart from each
// input) skip the plan: the call is one row, run by plain scalar code below kShortRow elements
// and by the SIMD row kernel above, with the same bits either way. Whole-view sums of contiguous
// views do the same. Any other call is checked and planned as above.
//
// An operation checked once and run many times, for callers that repeat it on the same views
// (every frame, every step): Prepare makes every check of the call and keeps the views; Run
// repeats the operation on their current values, with no check and, for contiguous views, no
// call into the library but the kernel's. The caller keeps the memory alive and unchanged in
// layout while it runs the prepared operation.
//
//   Result<PreparedElementwise> step = PreparedElementwise::Prepare(BinaryOp::kAdd, p, v, p);
//   for (...) step->Run();                                   // p += v
class PreparedElementwise {
 public:
  // The errors of Elementwise, for the same views.
  static Result<PreparedElementwise> Prepare(BinaryOp op, const TensorView& a, const TensorView& b,
                                             const TensorView& out);
  void Run() const {
    if (count_ >= 0) {
      RunContiguous(op_, static_cast<const float*>(a_.data()), static_cast<const float*>(b_.data()),
                    static_cast<float*>(out_.data()), static_cast<size_t>(count_));
    } else {
      RunGeneral();
    }
  }

 private:
  void RunGeneral() const;
  BinaryOp op_ = BinaryOp::kAdd;
  TensorView a_, b_, out_;
  int64_t count_ = -1;  // >= 0: contiguous operands of this many elements
};

// Sum(view), prepared (as PreparedElementwise).
class PreparedSum {
 public:
  // The errors of Sum, for the same view.
  static Result<PreparedSum> Prepare(const TensorView& view);
  double Run() const {
    if (count_ >= 0 && count_ <= static_cast<int64_t>(kReduceLanes)) {
      return SumShortRow(static_cast<const float*>(view_.data()), static_cast<size_t>(count_));
    }
    return RunGeneral();
  }

 private:
  double RunGeneral() const;
  TensorView view_;
  int64_t count_ = -1;  // >= 0: a contiguous view of this many elements
};

// Whole-view reductions of an f32 view of any shape and strides, in the order documented above.
// Sum of an empty view is +0.0; Mean, Min and Max of an empty view are errors.
Result<double> Sum(const TensorView& view);
Result<double> Mean(const TensorView& view);
Result<float> Min(const TensorView& view);
Result<float> Max(const TensorView& view);

enum class ReduceOp : uint8_t { kSum, kMean, kMin, kMax };
const char* ReduceOpName(ReduceOp op);

// Reduces `view` over one axis: out[j] = op over i of view[..., i (at `axis`), ...], where out's
// shape is view's shape without `axis`. Each out element is exactly the whole-view reduction
// above applied to that 1-d slice (so Sum and Mean are computed in double, then rounded to f32).
// Preconditions checked: f32 views, axis < rank, out's shape, out writable and not overlapping
// view or itself; an empty axis is allowed for kSum only (out = 0) unless out is empty.
// Slices run the SIMD kernel when `axis` has stride +-1 and a plain strided loop otherwise (e.g.
// reducing the 4 lanes of an SoA f32[N][4] view: N strided rows of 4).
Status Reduce(ReduceOp op, const TensorView& view, size_t axis, const TensorView& out);

}  // namespace swarm
