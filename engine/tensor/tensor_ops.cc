#include "swarm/tensor/tensor_ops.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string>

#include "swarm/kernels/tensor/row_kernels.h"
#include "swarm/tensor/tensor_copy.h"

namespace swarm {
namespace {

// A walk over elements as rows: `rank` outer axes in C order, then an inner row of `inner_extent`
// elements. Each operand has a base pointer and strides (in elements) per axis.
template <size_t kOperands>
struct RowPlan {
  size_t rank = 0;  // outer axes
  std::array<int64_t, kMaxTensorRank> shape{};
  std::array<std::array<int64_t, kMaxTensorRank>, kOperands> strides{};
  std::array<float*, kOperands> base{};
  int64_t inner_extent = 1;
  std::array<int64_t, kOperands> inner_stride{};

  // Calls row(pointers) for each outer index in C order.
  template <class Row>
  void ForEachRow(const Row& row) const {
    ForEachIndex(std::span<const int64_t>(shape.data(), rank), [&](const int64_t* index) {
      std::array<float*, kOperands> pointers = base;
      for (size_t axis = 0; axis < rank; ++axis) {
        for (size_t k = 0; k < kOperands; ++k) pointers[k] += index[axis] * strides[k][axis];
      }
      row(pointers);
    });
  }
};

// One axis shared by every operand of a walk, before it becomes part of a RowPlan.
template <size_t kOperands>
struct Axis {
  int64_t extent;
  std::array<int64_t, kOperands> strides;
};

// Builds the plan: axes in the given order (outermost first), the last one the inner row, with
// neighbours merged wherever every operand is contiguous across them (stride of the outer one =
// stride of the inner one * its extent): the visit order is unchanged, the rows get longer.
template <size_t kOperands>
RowPlan<kOperands> MakePlan(std::array<Axis<kOperands>, kMaxTensorRank> axes, size_t count,
                            const std::array<float*, kOperands>& base) {
  size_t merged = 0;
  for (size_t i = 0; i < count; ++i) {
    if (merged > 0) {
      Axis<kOperands>& outer = axes[merged - 1];
      bool contiguous = true;
      for (size_t k = 0; k < kOperands; ++k) {
        contiguous = contiguous && outer.strides[k] == axes[i].strides[k] * axes[i].extent;
      }
      if (contiguous) {
        outer.extent *= axes[i].extent;
        outer.strides = axes[i].strides;
        continue;
      }
    }
    axes[merged++] = axes[i];
  }
  RowPlan<kOperands> plan;
  plan.base = base;
  if (merged == 0) {  // a single element: one row of one
    for (size_t k = 0; k < kOperands; ++k) plan.inner_stride[k] = 1;
    return plan;
  }
  plan.rank = merged - 1;
  for (size_t axis = 0; axis < plan.rank; ++axis) {
    plan.shape[axis] = axes[axis].extent;
    for (size_t k = 0; k < kOperands; ++k) plan.strides[k][axis] = axes[axis].strides[k];
  }
  plan.inner_extent = axes[merged - 1].extent;
  plan.inner_stride = axes[merged - 1].strides;
  return plan;
}

float* MutableFloats(const TensorView& view) { return static_cast<float*>(view.data()); }

// --- the fast path ---
//
// Views that are f32, C-contiguous and of one shape need no plan: the whole call is one row. The
// checks below accept exactly the calls the general path would accept and run as one row, so
// every error still comes from the general path, with its message.

// The element count of an f32 C-contiguous view (TensorView::IsContiguous), or -1.
int64_t ContiguousF32Count(const TensorView& view) {
  if (view.dtype() != DType::kF32) return -1;
  int64_t count = 1;
  for (size_t axis = view.rank(); axis-- > 0;) {
    const int64_t extent = view.shape(axis);
    if (extent == 0) return 0;
    if (extent != 1 && view.stride(axis) != count) return -1;
    count *= extent;
  }
  return count;
}

bool SameShape(const TensorView& x, const TensorView& y) {
  if (x.rank() != y.rank()) return false;
  for (size_t axis = 0; axis < x.rank(); ++axis) {
    if (x.shape(axis) != y.shape(axis)) return false;
  }
  return true;
}

// Input `in` may feed `out` (both contiguous, `count` elements): the very same elements, or
// none of them.
bool InPlaceOrApart(const TensorView& in, const TensorView& out, int64_t count) {
  const auto* a = static_cast<const float*>(in.data());
  const auto* o = static_cast<const float*>(out.data());
  return a == o || a + count <= o || o + count <= a;
}

// --- elementwise ---

// Operand order in elementwise plans.
constexpr size_t kOut = 0;
constexpr size_t kA = 1;
constexpr size_t kB = 2;

// Strides (out, a, b) along which the SIMD kernel can run: out steps by one, each input by one or
// not at all.
bool KernelStrides(const std::array<int64_t, 3>& s) {
  return s[kOut] == 1 && (s[kA] == 0 || s[kA] == 1) && (s[kB] == 0 || s[kB] == 1);
}
bool KernelAxis(const Axis<3>& axis) { return KernelStrides(axis.strides); }

// numpy broadcasting of a and b: the result's shape and the inputs' strides on it (0 where an
// input has extent 1). bad_axis < rank names the first axis whose extents clash.
struct Broadcast {
  size_t rank = 0;
  std::array<int64_t, kMaxTensorRank> shape{};
  std::array<std::array<int64_t, kMaxTensorRank>, 3> strides{};  // out (left to fill), a, b
  size_t bad_axis = kMaxTensorRank;
  int64_t a_extent = 1, b_extent = 1;  // at bad_axis

  Broadcast(const TensorView& a, const TensorView& b) : rank(std::max(a.rank(), b.rank())) {
    bad_axis = rank;
    // Result axis `axis` is axis axis - (rank - a.rank()) of a, if that is >= 0.
    for (size_t axis = 0; axis < rank; ++axis) {
      const bool in_a = axis + a.rank() >= rank;
      const bool in_b = axis + b.rank() >= rank;
      const int64_t a_at = in_a ? a.shape(axis + a.rank() - rank) : 1;
      const int64_t b_at = in_b ? b.shape(axis + b.rank() - rank) : 1;
      if (a_at != b_at && a_at != 1 && b_at != 1) {
        bad_axis = axis;
        a_extent = a_at;
        b_extent = b_at;
        return;
      }
      shape[axis] = a_at == 1 ? b_at : a_at;
      strides[kA][axis] = a_at == 1 ? 0 : a.stride(axis + a.rank() - rank);
      strides[kB][axis] = b_at == 1 ? 0 : b.stride(axis + b.rank() - rank);
    }
  }
  std::span<const int64_t> shape_span() const { return {shape.data(), rank}; }
};

// The walk documented in swarm/tensor/tensor_ops.h: axes of extent 1 dropped; axes where out steps
// backwards walked forwards instead (element results do not depend on the order); axes nested by
// decreasing |out stride| for write locality, except that if the innermost cannot run the kernel
// and another axis can, that one (the longest such) becomes the inner row.
RowPlan<3> ElementwisePlan(std::span<const int64_t> shape,
                           const std::array<std::array<int64_t, kMaxTensorRank>, 3>& strides,
                           std::array<float*, 3> base) {
  std::array<Axis<3>, kMaxTensorRank> axes{};
  size_t count = 0;
  for (size_t axis = 0; axis < shape.size(); ++axis) {
    if (shape[axis] == 1) continue;
    Axis<3> entry{shape[axis], {strides[0][axis], strides[1][axis], strides[2][axis]}};
    if (entry.strides[kOut] < 0) {
      for (size_t k = 0; k < 3; ++k) {
        base[k] += entry.strides[k] * (entry.extent - 1);
        entry.strides[k] = -entry.strides[k];
      }
    }
    axes[count++] = entry;
  }
  std::stable_sort(axes.begin(), axes.begin() + count, [](const Axis<3>& x, const Axis<3>& y) {
    return x.strides[kOut] > y.strides[kOut];
  });
  if (count > 1 && !KernelAxis(axes[count - 1])) {
    size_t best = count;
    for (size_t i = 0; i < count - 1; ++i) {
      if (KernelAxis(axes[i]) && (best == count || axes[i].extent > axes[best].extent)) best = i;
    }
    if (best != count)
      std::rotate(axes.begin() + best, axes.begin() + best + 1, axes.begin() + count);
  }
  return MakePlan<3>(axes, count, base);
}

// --- reductions ---

// The canonical traversal of swarm/tensor/tensor_ops.h for one view.
RowPlan<1> CanonicalPlan(const TensorView& view) {
  std::array<Axis<1>, kMaxTensorRank> axes{};
  size_t count = 0;
  float* base = MutableFloats(view);
  for (size_t axis = 0; axis < view.rank(); ++axis) {
    if (view.shape(axis) == 1) continue;
    Axis<1> entry{view.shape(axis), {view.stride(axis)}};
    if (entry.strides[0] < 0) {
      base += entry.strides[0] * (entry.extent - 1);
      entry.strides[0] = -entry.strides[0];
    }
    axes[count++] = entry;
  }
  std::stable_sort(axes.begin(), axes.begin() + count,
                   [](const Axis<1>& x, const Axis<1>& y) { return x.strides[0] > y.strides[0]; });
  return MakePlan<1>(axes, count, {base});
}

void SumRows(const RowPlan<1>& plan, SumLanes& state) {
  const auto extent = static_cast<size_t>(plan.inner_extent);
  const int64_t stride = plan.inner_stride[0];
  plan.ForEachRow([&](const std::array<float*, 1>& row) {
    if (stride == 1) {
      AccumulateSum(row[0], extent, state);
    } else {
      AccumulateSumStrided(row[0], stride, extent, state);
    }
  });
}

template <bool kMin>
void ExtremumRows(const RowPlan<1>& plan, ExtremumLanes& state) {
  const auto extent = static_cast<size_t>(plan.inner_extent);
  const int64_t stride = plan.inner_stride[0];
  plan.ForEachRow([&](const std::array<float*, 1>& row) {
    if (stride == 1) {
      (kMin ? AccumulateMin : AccumulateMax)(row[0], extent, state);
    } else {
      (kMin ? AccumulateMinStrided : AccumulateMaxStrided)(row[0], stride, extent, state);
    }
  });
}

// The reduction of the `count` (> 0) elements of a plan, as double.
double ReducePlan(ReduceOp op, const RowPlan<1>& plan, int64_t count) {
  switch (op) {
    case ReduceOp::kSum:
    case ReduceOp::kMean: {
      SumLanes state;
      SumRows(plan, state);
      const double sum = FinishSum(state);
      return op == ReduceOp::kSum ? sum : sum / static_cast<double>(count);
    }
    case ReduceOp::kMin: {
      ExtremumLanes state = ExtremumLanes::ForMin();
      ExtremumRows<true>(plan, state);
      return FinishMin(state);
    }
    case ReduceOp::kMax: {
      ExtremumLanes state = ExtremumLanes::ForMax();
      ExtremumRows<false>(plan, state);
      return FinishMax(state);
    }
  }
  SWARM_ASSERT(false);
  return 0.0;
}

}  // namespace

double SumContiguous(const float* row, size_t count) {
  return count <= kReduceLanes ? SumShortRow(row, count) : SumRow(row, count);
}

void RunContiguous(ElementwiseOp op, const float* a, const float* b, float* out, size_t count) {
  if (count < kShortRow) {
    ElementwiseShortRow(op, a, b, out, count);
  } else {
    ElementwiseRow(op, a, 1, b, 1, out, count);
  }
}

namespace {

Result<double> ReduceWhole(ReduceOp op, const TensorView& view) {
  // Fast path: a contiguous view is one row in memory order, its canonical traversal.
  if (const int64_t count = ContiguousF32Count(view); count > 0) {
    const auto* row = static_cast<const float*>(view.data());
    const auto n = static_cast<size_t>(count);
    if (op == ReduceOp::kSum || op == ReduceOp::kMean) {
      const double sum = SumContiguous(row, n);
      return op == ReduceOp::kSum ? sum : sum / static_cast<double>(count);
    }
  }
  const char* name = ReduceOpName(op);
  if (Status s = CheckDType(view, DType::kF32, name); !s.ok()) return s;
  if (view.empty()) {
    if (op == ReduceOp::kSum) return 0.0;
    return InvalidArgument(std::string(name) + ": the " + view.TypeString() +
                           " view is empty (the " + name + " of no elements is undefined)");
  }
  return ReducePlan(op, CanonicalPlan(view), view.size());
}

// The fast path's element count of `out`, or -1 when the call needs the general path.
int64_t FastElementwiseCount(const TensorView& a, const TensorView& b, const TensorView& out) {
  const int64_t count = ContiguousF32Count(out);
  if (count >= 0 && !out.read_only() && SameShape(a, out) && SameShape(b, out) &&
      ContiguousF32Count(a) == count && ContiguousF32Count(b) == count &&
      InPlaceOrApart(a, out, count) && InPlaceOrApart(b, out, count)) {
    return count;
  }
  return -1;
}

// Every precondition of Elementwise, with its message.
Status CheckElementwise(BinaryOp op, const TensorView& a, const TensorView& b,
                        const TensorView& out) {
  const std::string name = BinaryOpName(op);
  if (Status s = CheckDType(a, DType::kF32, name + " operand a"); !s.ok()) return s;
  if (Status s = CheckDType(b, DType::kF32, name + " operand b"); !s.ok()) return s;
  if (Status s = CheckDType(out, DType::kF32, name + " out"); !s.ok()) return s;
  const Broadcast broadcast(a, b);
  if (broadcast.bad_axis < broadcast.rank) {
    const size_t axis = broadcast.bad_axis;
    const size_t a_axis = axis + a.rank() - broadcast.rank;
    const size_t b_axis = axis + b.rank() - broadcast.rank;
    return InvalidArgument(name + ": cannot broadcast a " + a.TypeString() + " with b " +
                           b.TypeString() + ": on axis " + std::to_string(axis) +
                           " of the result a has extent " + std::to_string(broadcast.a_extent) +
                           " (its axis " + std::to_string(a_axis) + ") and b has extent " +
                           std::to_string(broadcast.b_extent) + " (its axis " +
                           std::to_string(b_axis) + "); extents must be equal or 1");
  }
  const std::span<const int64_t> result_shape = broadcast.shape_span();
  if (!std::equal(out.shape().begin(), out.shape().end(), result_shape.begin(),
                  result_shape.end())) {
    return InvalidArgument(name + ": out is " + out.TypeString() + " but a " + a.TypeString() +
                           " and b " + b.TypeString() + " broadcast to shape " +
                           ShapeString(result_shape));
  }
  if (out.read_only()) {
    return InvalidArgument(name + ": out " + out.TypeString() + " is a read-only view");
  }
  if (MayOverlapItself(out)) {
    return InvalidArgument(name + ": out " + out.TypeString() + " with strides " +
                           ShapeString(out.strides()) +
                           " has elements that overlap each other (e.g. a broadcast view)");
  }
  const TensorView* inputs[] = {&a, &b};
  const char* roles[] = {"a", "b"};
  for (int k = 0; k < 2; ++k) {
    if (!SameView(*inputs[k], out) && ViewsOverlap(*inputs[k], out)) {
      return InvalidArgument(name + ": out " + out.TypeString() + " overlaps operand " + roles[k] +
                             " " + inputs[k]->TypeString() +
                             " in memory without being the very same view (in place); write "
                             "into separate memory or into that operand itself");
    }
  }
  return {};
}

// Elementwise on operands that passed CheckElementwise: the plan, then its rows.
void RunElementwise(BinaryOp op, const TensorView& a, const TensorView& b, const TensorView& out) {
  if (out.empty()) return;
  Broadcast broadcast(a, b);
  for (size_t axis = 0; axis < broadcast.rank; ++axis) {
    broadcast.strides[kOut][axis] = out.stride(axis);
  }
  const RowPlan<3> plan = ElementwisePlan(broadcast.shape_span(), broadcast.strides,
                                          {MutableFloats(out), MutableFloats(a), MutableFloats(b)});
  const auto extent = static_cast<size_t>(plan.inner_extent);
  const auto& s = plan.inner_stride;
  const bool kernel = KernelStrides(s);
  plan.ForEachRow([&](const std::array<float*, 3>& row) {
    if (kernel) {
      ElementwiseRow(op, row[kA], static_cast<size_t>(s[kA]), row[kB], static_cast<size_t>(s[kB]),
                     row[kOut], extent);
    } else {
      ElementwiseRowStrided(op, row[kA], s[kA], row[kB], s[kB], row[kOut], s[kOut], extent);
    }
  });
}

}  // namespace

const char* BinaryOpName(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd:
      return "Add";
    case BinaryOp::kSub:
      return "Sub";
    case BinaryOp::kMul:
      return "Mul";
    case BinaryOp::kDiv:
      return "Div";
    case BinaryOp::kMin:
      return "Min";
    case BinaryOp::kMax:
      return "Max";
    case BinaryOp::kLess:
      return "Less";
    case BinaryOp::kLessEqual:
      return "LessEqual";
    case BinaryOp::kGreater:
      return "Greater";
    case BinaryOp::kGreaterEqual:
      return "GreaterEqual";
    case BinaryOp::kEqual:
      return "Equal";
    case BinaryOp::kNotEqual:
      return "NotEqual";
    case BinaryOp::kAnd:
      return "And";
    case BinaryOp::kOr:
      return "Or";
  }
  return "?";
}

const char* ReduceOpName(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum:
      return "Sum";
    case ReduceOp::kMean:
      return "Mean";
    case ReduceOp::kMin:
      return "Min";
    case ReduceOp::kMax:
      return "Max";
  }
  return "?";
}

Status Elementwise(BinaryOp op, const TensorView& a, const TensorView& b, const TensorView& out) {
  if (const int64_t count = FastElementwiseCount(a, b, out); count >= 0) {
    RunContiguous(op, MutableFloats(a), MutableFloats(b), MutableFloats(out),
                  static_cast<size_t>(count));
    return {};
  }
  if (Status s = CheckElementwise(op, a, b, out); !s.ok()) return s;
  RunElementwise(op, a, b, out);
  return {};
}

Result<PreparedElementwise> PreparedElementwise::Prepare(BinaryOp op, const TensorView& a,
                                                         const TensorView& b,
                                                         const TensorView& out) {
  PreparedElementwise prepared;
  prepared.op_ = op;
  prepared.a_ = a;
  prepared.b_ = b;
  prepared.out_ = out;
  if (const int64_t count = FastElementwiseCount(a, b, out); count >= 0) {
    prepared.count_ = count;
    return prepared;
  }
  if (Status s = CheckElementwise(op, a, b, out); !s.ok()) return s;
  return prepared;
}

void PreparedElementwise::RunGeneral() const { RunElementwise(op_, a_, b_, out_); }

Result<PreparedSum> PreparedSum::Prepare(const TensorView& view) {
  if (Status s = CheckDType(view, DType::kF32, "Sum"); !s.ok()) return s;
  PreparedSum prepared;
  prepared.view_ = view;
  prepared.count_ = ContiguousF32Count(view);
  return prepared;
}

// Sum itself: the view passed Sum's one check at preparation, so this cannot fail.
double PreparedSum::RunGeneral() const { return ReduceWhole(ReduceOp::kSum, view_).value(); }

Result<double> Sum(const TensorView& view) { return ReduceWhole(ReduceOp::kSum, view); }
Result<double> Mean(const TensorView& view) { return ReduceWhole(ReduceOp::kMean, view); }

Result<float> Min(const TensorView& view) {
  Result<double> result = ReduceWhole(ReduceOp::kMin, view);
  if (!result.ok()) return result.status();
  return static_cast<float>(result.value());
}

Result<float> Max(const TensorView& view) {
  Result<double> result = ReduceWhole(ReduceOp::kMax, view);
  if (!result.ok()) return result.status();
  return static_cast<float>(result.value());
}

Status Reduce(ReduceOp op, const TensorView& view, size_t axis, const TensorView& out) {
  const std::string name = std::string(ReduceOpName(op)) + " over axis " + std::to_string(axis);
  if (Status s = CheckDType(view, DType::kF32, name); !s.ok()) return s;
  if (Status s = CheckDType(out, DType::kF32, name + " out"); !s.ok()) return s;
  if (axis >= view.rank()) {
    return InvalidArgument(name + ": the " + view.TypeString() + " view has only " +
                           std::to_string(view.rank()) + " axes");
  }
  std::array<int64_t, kMaxTensorRank> out_shape{};
  std::array<int64_t, kMaxTensorRank> out_strides{};  // view's strides on out's axes
  for (size_t i = 0, j = 0; i < view.rank(); ++i) {
    if (i == axis) continue;
    out_shape[j] = view.shape(i);
    out_strides[j++] = view.stride(i);
  }
  const std::span<const int64_t> want(out_shape.data(), view.rank() - 1);
  if (!std::equal(out.shape().begin(), out.shape().end(), want.begin(), want.end())) {
    return InvalidArgument(name + " of " + view.TypeString() + ": out is " + out.TypeString() +
                           " but must have shape " + ShapeString(want));
  }
  if (out.read_only()) {
    return InvalidArgument(name + ": out " + out.TypeString() + " is a read-only view");
  }
  if (MayOverlapItself(out)) {
    return InvalidArgument(name + ": out " + out.TypeString() + " with strides " +
                           ShapeString(out.strides()) + " has elements that overlap each other");
  }
  if (ViewsOverlap(view, out)) {
    return InvalidArgument(name + ": out " + out.TypeString() + " overlaps the input " +
                           view.TypeString() + " in memory; write into separate memory");
  }
  const int64_t extent = view.shape(axis);
  if (out.empty()) return {};
  if (extent == 0 && op != ReduceOp::kSum) {
    return InvalidArgument(name + " of " + view.TypeString() + ": the axis is empty (the " +
                           ReduceOpName(op) + " of no elements is undefined)");
  }

  if (extent == 0) {  // sums of nothing; the view may have no memory at all
    ForEachIndex(want, [&](const int64_t* index) {
      *reinterpret_cast<float*>(out.ElementAddress(index)) = 0.0f;
    });
    return {};
  }

  // Each slice is a 1-d view along `axis`, reduced exactly as the whole-view functions do.
  RowPlan<1> slice;
  int64_t stride = view.stride(axis);
  if (stride < 0) stride = -stride;
  slice.inner_extent = extent;
  slice.inner_stride = {extent > 1 ? stride : 1};
  const int64_t flip = view.stride(axis) < 0 ? view.stride(axis) * (extent - 1) : 0;
  const auto* base = static_cast<const float*>(view.data());
  ForEachIndex(want, [&](const int64_t* index) {
    int64_t offset = flip;
    for (size_t i = 0; i < want.size(); ++i) offset += index[i] * out_strides[i];
    slice.base = {const_cast<float*>(base + offset)};
    const auto value = static_cast<float>(ReducePlan(op, slice, extent));
    *reinterpret_cast<float*>(out.ElementAddress(index)) = value;
  });
  return {};
}

}  // namespace swarm
