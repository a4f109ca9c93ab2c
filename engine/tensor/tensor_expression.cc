#include "swarm/tensor/tensor_expression.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "swarm/kernels/tensor/row_kernels.h"
#include "swarm/tensor/tensor_copy.h"

namespace swarm {
namespace {

using Operand = ExpressionProgram::Operand;
using expression::Layout;
using expression::Load;
using expression::Store;

// A tile is at most kTile elements; every step's result and every copied view has a tile of
// floats in a scratch area of kScratchFloats on the evaluating thread's stack (96 KB), so a
// typical expression (a few steps, views read in place) runs tiles of 2,048 elements whose
// intermediates stay in L1 and L2, and a tile's fixed costs (a kernel call per step) spread over
// that many elements; larger expressions run shorter tiles.
using expression::kTile;
constexpr size_t kScratchFloats = 24 * 1024;

// The dtypes the row kernels widen and narrow.
bool StorageTypeOf(DType dtype, StorageType* type) {
  switch (dtype) {
    case DType::kF16:
      *type = StorageType::kF16;
      return true;
    case DType::kBF16:
      *type = StorageType::kBF16;
      return true;
    case DType::kBool:
      *type = StorageType::kBool;
      return true;
    case DType::kU8:
      *type = StorageType::kU8;
      return true;
    default:
      return false;
  }
}

bool IsComplex(DType dtype) { return dtype == DType::kC64 || dtype == DType::kC128; }

// The tile length for `registers` tiles in the scratch area: a multiple of 16 floats.
size_t TileFor(size_t registers) {
  if (registers == 0) return kTile;
  return std::min(kTile, kScratchFloats / registers / 16 * 16);
}

std::string ViewName(size_t index, const TensorView& view) {
  return "view " + std::to_string(index) + " of the expression (" + view.TypeString() + ")";
}

// Whether `strides` on the layout's shape are its C-order strides (axes of extent 1 aside): the
// elements of a tile are then consecutive in memory.
bool Dense(const Layout& layout, const std::array<int64_t, kMaxTensorRank>& strides) {
  int64_t dense_stride = 1;
  for (size_t axis = layout.rank; axis-- > 0;) {
    if (layout.shape[axis] != 1 && strides[axis] != dense_stride) return false;
    dense_stride *= layout.shape[axis];
  }
  return true;
}

// Every check of Evaluate (out given) or Sum (out null), and the layout.
Status Check(const ExpressionProgram& program, const TensorView* out, const char* what,
             Layout& layout) {
  if (program.views_wanted > kMaxExpressionViews || program.steps_wanted > kMaxExpressionSteps) {
    return InvalidArgument(std::string(what) + ": the expression has " +
                           std::to_string(program.views_wanted) + " views and " +
                           std::to_string(program.steps_wanted) + " operations; at most " +
                           std::to_string(kMaxExpressionViews) + " and " +
                           std::to_string(kMaxExpressionSteps) + " are allowed");
  }
  if (program.complex_cast) {
    return InvalidArgument(std::string(what) +
                           ": the expression casts to a complex dtype; expressions compute real "
                           "f32 values (Cast to a real dtype)");
  }
  for (size_t v = 0; v < program.view_count; ++v) {
    // Messages are built only for an error: a call that passes allocates nothing.
    if (IsComplex(program.views[v]->dtype())) {
      return InvalidArgument(std::string(what) + ": " + ViewName(v, *program.views[v]) +
                             " is complex; expressions compute with real dtypes");
    }
    layout.rank = std::max(layout.rank, program.views[v]->rank());
  }
  // Broadcast: result axis `axis` is axis axis - (rank - view.rank()) of a view, if >= 0.
  for (size_t axis = 0; axis < layout.rank; ++axis) {
    int64_t extent = 1;
    size_t from = 0;
    for (size_t v = 0; v < program.view_count; ++v) {
      const TensorView& view = *program.views[v];
      if (axis + view.rank() < layout.rank) continue;
      const int64_t here = view.shape(axis + view.rank() - layout.rank);
      if (here == 1 || here == extent) continue;
      if (extent != 1) {
        return InvalidArgument(std::string(what) + ": cannot broadcast " +
                               ViewName(from, *program.views[from]) + " with " + ViewName(v, view) +
                               ": on axis " + std::to_string(axis) +
                               " of the result their extents are " + std::to_string(extent) +
                               " and " + std::to_string(here) + "; extents must be equal or 1");
      }
      extent = here;
      from = v;
    }
    layout.shape[axis] = extent;
    layout.count *= extent;
  }
  const std::span<const int64_t> shape(layout.shape.data(), layout.rank);
  for (size_t v = 0; v < program.view_count; ++v) {
    const TensorView& view = *program.views[v];
    for (size_t axis = 0; axis < layout.rank; ++axis) {
      const bool in_view = axis + view.rank() >= layout.rank;
      const size_t view_axis = axis + view.rank() - layout.rank;
      layout.strides[v][axis] = in_view && view.shape(view_axis) != 1 ? view.stride(view_axis) : 0;
    }
    const bool dense = Dense(layout, layout.strides[v]);
    const DType dtype = view.dtype();
    if (dense && dtype == DType::kF32) {
      layout.load[v] = Load::kInPlace;
    } else if (dense && StorageTypeOf(dtype, &layout.storage[v])) {
      layout.load[v] = Load::kWiden;
    } else {
      layout.load[v] = Load::kElements;
      layout.element[v] = LoadAsF32(dtype);
    }
  }
  size_t registers = program.step_count;
  for (size_t v = 0; v < program.view_count; ++v) {
    if (layout.load[v] != Load::kInPlace) layout.copy_register[v] = registers++;
  }
  layout.tile = TileFor(registers);
  if (out == nullptr) return {};
  if (IsComplex(out->dtype())) {
    return InvalidArgument(std::string(what) + ": out " + out->TypeString() +
                           " is complex; expressions compute with real dtypes");
  }
  if (!std::equal(out->shape().begin(), out->shape().end(), shape.begin(), shape.end())) {
    return InvalidArgument(std::string(what) + ": out is " + out->TypeString() +
                           " but the expression's views broadcast to shape " + ShapeString(shape));
  }
  if (out->read_only()) {
    return InvalidArgument(std::string(what) + ": out " + out->TypeString() +
                           " is a read-only view");
  }
  if (MayOverlapItself(*out)) {
    return InvalidArgument(std::string(what) + ": out " + out->TypeString() + " with strides " +
                           ShapeString(out->strides()) + " has elements that overlap each other");
  }
  for (size_t v = 0; v < program.view_count; ++v) {
    if (!SameView(*program.views[v], *out) && ViewsOverlap(*program.views[v], *out)) {
      return InvalidArgument(std::string(what) + ": out " + out->TypeString() + " overlaps " +
                             ViewName(v, *program.views[v]) +
                             " in memory without being that very view (in place)");
    }
  }
  return {};
}

// Element offsets (in floats) of flat C-order indices [begin, begin + n) of the layout's shape
// under `strides`, visited in order: visit(offset) per element.
template <class Visit>
void ForEachOffset(const Layout& layout, const std::array<int64_t, kMaxTensorRank>& strides,
                   int64_t begin, size_t n, const Visit& visit) {
  std::array<int64_t, kMaxTensorRank> index{};
  int64_t offset = 0;
  int64_t rest = begin;
  for (size_t axis = layout.rank; axis-- > 0;) {
    index[axis] = rest % layout.shape[axis];
    rest /= layout.shape[axis];
    offset += index[axis] * strides[axis];
  }
  for (size_t i = 0; i < n; ++i) {
    visit(offset);
    for (size_t axis = layout.rank; axis-- > 0;) {
      offset += strides[axis];
      if (++index[axis] < layout.shape[axis]) break;
      offset -= strides[axis] * layout.shape[axis];
      index[axis] = 0;
    }
  }
}

// A unary operation on one number, with UnaryRow's bits.
float UnaryScalar(UnaryOp op, float value) {
  float result;
  UnaryRow(op, &value, &result, 1);
  return result;
}

// A thread's scratch area for the registers of its tiles.
struct Scratch {
  alignas(64) float floats[kScratchFloats];
  float* Register(size_t index, const Layout& layout) { return floats + index * layout.tile; }
};

// Elements [begin, begin + n) of view v as f32: in place, or loaded into `copy`.
const float* LoadView(const TensorView& view, const Layout& layout, size_t v, int64_t begin,
                      size_t n, float* copy) {
  const auto* bytes = static_cast<const std::byte*>(view.data());
  if (layout.load[v] == Load::kInPlace) return reinterpret_cast<const float*>(bytes) + begin;
  const size_t element_bytes = view.element_bytes();
  switch (layout.load[v]) {
    case Load::kInPlace:
      break;
    case Load::kWiden:
      WidenRow(layout.storage[v], bytes + static_cast<size_t>(begin) * element_bytes, copy, n);
      return copy;
    case Load::kElements:
      break;
  }
  size_t i = 0;
  if (view.dtype() == DType::kF32) {  // strided f32: a plain gather
    const auto* base = reinterpret_cast<const float*>(bytes);
    ForEachOffset(layout, layout.strides[v], begin, n,
                  [&](int64_t offset) { copy[i++] = base[offset]; });
  } else {
    const ElementToF32 load = layout.element[v];
    ForEachOffset(layout, layout.strides[v], begin, n, [&](int64_t offset) {
      copy[i++] = load(bytes + offset * static_cast<int64_t>(element_bytes));
    });
  }
  return copy;
}

// Runs the program over flat elements [begin, begin + n), n <= layout.tile. The last step writes
// into `into` when given (out's own elements, when out is C-contiguous f32); returns where the
// result is, and in *step its step (0: a broadcast constant).
const float* RunTile(const ExpressionProgram& program, const Layout& layout, int64_t begin,
                     size_t n, Scratch& scratch, float* into, size_t* step, bool stream = false) {
  const float* view_data[kMaxExpressionViews];
  for (size_t v = 0; v < program.view_count; ++v) {
    view_data[v] = LoadView(*program.views[v], layout, v, begin, n,
                            scratch.Register(layout.copy_register[v], layout));
  }
  const auto data = [&](const Operand& operand, size_t* operand_step) -> const float* {
    *operand_step = 1;
    switch (operand.kind) {
      case Operand::Kind::kView:
        return view_data[operand.index];
      case Operand::Kind::kStep:
        return scratch.Register(operand.index, layout);
      case Operand::Kind::kConstant:
        *operand_step = 0;
        return &operand.constant;
    }
    return nullptr;
  };
  using StepKind = ExpressionProgram::Step::Kind;
  for (size_t s = 0; s < program.step_count; ++s) {
    const ExpressionProgram::Step& instruction = program.steps[s];
    size_t a_step, b_step, c_step = 1;
    const float* a = data(instruction.a, &a_step);
    const float* b = data(instruction.b, &b_step);
    const float* c = instruction.kind == StepKind::kSelect ? data(instruction.c, &c_step) : nullptr;
    // The result's step goes straight into out: in place is safe, since each element is read
    // before it is written.
    const bool last = s + 1 == program.step_count && into != nullptr;
    float* target = last ? into : scratch.Register(s, layout);
    switch (instruction.kind) {
      case StepKind::kUnary:
        if (a_step == 0) {  // of a number: one value for the whole tile
          std::fill_n(target, n, UnaryScalar(instruction.unary, *a));
        } else {
          UnaryRow(instruction.unary, a, target, n);
        }
        break;
      case StepKind::kSelect:
        SelectRow(a, a_step, b, b_step, c, c_step, target, n);
        break;
      case StepKind::kBinary:
        if (n < kShortRow) {  // below a vector or two, a plain loop beats a dispatch
          ElementwiseShortRow(instruction.op, a, a_step, b, b_step, target, n);
        } else {
          (last && stream ? ElementwiseRowStreamed : ElementwiseRow)(instruction.op, a, a_step, b,
                                                                     b_step, target, n);
        }
        break;
    }
    if (last) {
      *step = 1;
      return into;
    }
  }
  return data(program.result, step);
}

// Writes a tile's result to out's elements [begin, begin + n) (unless it is there already).
void StoreTile(const TensorView& out, const Layout& layout, const Store& store, int64_t begin,
               size_t n, const float* result, size_t step) {
  auto* bytes = static_cast<std::byte*>(out.data());
  if (out.dtype() == DType::kF32) {
    auto* base = reinterpret_cast<float*>(bytes);
    if (result == base + begin) return;
    size_t i = 0;
    ForEachOffset(layout, store.strides, begin, n, [&](int64_t offset) {
      base[offset] = result[i];
      i += step;
    });
    return;
  }
  const auto element_bytes = static_cast<int64_t>(out.element_bytes());
  if (store.narrow && step == 1) {
    NarrowRow(store.storage, result, bytes + begin * element_bytes, n);
    return;
  }
  size_t i = 0;
  ForEachOffset(layout, store.strides, begin, n, [&](int64_t offset) {
    store.element(result[i], bytes + offset * element_bytes);
    i += step;
  });
}

}  // namespace

ExpressionProgram::Operand ExpressionProgram::AddCast(DType dtype, Operand a) {
  switch (dtype) {
    case DType::kF32:
    case DType::kF64:
      return a;
    case DType::kF16:
      return AddUnary(UnaryOp::kRoundF16, a);
    case DType::kBF16:
      return AddUnary(UnaryOp::kRoundBF16, a);
    case DType::kBool:
      return AddUnary(UnaryOp::kToBool, a);
    case DType::kC64:
    case DType::kC128:
      complex_cast = true;
      return a;
    default:
      break;
  }
  // An integer: the integer part (NaN 0), clamped to the range as f32 sees it (the bounds
  // rounded to f32, which is what the cast and back gives at the bounds).
  return VisitDType(dtype, [&](auto zero) {
    using Integer = decltype(zero);
    if constexpr (std::is_integral_v<Integer>) {
      const Operand low = {Operand::Kind::kConstant, 0,
                           static_cast<float>(std::numeric_limits<Integer>::lowest())};
      const Operand high = {Operand::Kind::kConstant, 0,
                            static_cast<float>(std::numeric_limits<Integer>::max())};
      const Operand integer = AddUnary(UnaryOp::kIntegerPart, a);
      return AddStep(BinaryOp::kMax, AddStep(BinaryOp::kMin, integer, high), low);
    }
    return a;
  });
}

namespace {

// Every check of Evaluate, and the plan.
Status PlanEvaluation(const TensorView& out, const ExpressionProgram& program, Layout& layout,
                      Store& store) {
  if (Status s = Check(program, &out, "Evaluate", layout); !s.ok()) return s;
  for (size_t axis = 0; axis < layout.rank; ++axis) store.strides[axis] = out.stride(axis);
  const bool dense = Dense(layout, store.strides);  // C-contiguous on the broadcast shape
  // The last step writes into out when out is C-contiguous f32 and the result is that step.
  store.direct = dense && out.dtype() == DType::kF32 && program.result.kind == Operand::Kind::kStep;
  // An out that cannot stay in the caches is written past them: without reading each line
  // first, memory moves 20 bytes per element of (a - b) * c + d rather than 24.
  constexpr int64_t kStreamBytes = int64_t{16} << 20;
  store.stream = store.direct && layout.count * int64_t{4} >= kStreamBytes;
  store.narrow = dense && StorageTypeOf(out.dtype(), &store.storage);
  // Element by element for other dtypes and layouts, and for a constant result.
  if (out.dtype() != DType::kF32) store.element = StoreFromF32(out.dtype());
  return {};
}

void RunEvaluation(const TensorView& out, const ExpressionProgram& program, const Layout& layout,
                   const Store& store, ThreadPool* pool) {
  if (layout.count == 0) return;
  const size_t tile = layout.tile;
  const auto tiles = static_cast<size_t>((layout.count + static_cast<int64_t>(tile) - 1) /
                                         static_cast<int64_t>(tile));
  const auto run = [&](size_t first, size_t last) {
    Scratch scratch;  // one thread's, on its stack, reused tile after tile
    for (size_t t = first; t < last; ++t) {
      const auto begin = static_cast<int64_t>(t * tile);
      const auto n =
          static_cast<size_t>(std::min<int64_t>(static_cast<int64_t>(tile), layout.count - begin));
      float* into = store.direct ? static_cast<float*>(out.data()) + begin : nullptr;
      size_t step;
      const float* result = RunTile(program, layout, begin, n, scratch, into, &step, store.stream);
      StoreTile(out, layout, store, begin, n, result, step);
    }
  };
  if (pool == nullptr || pool->num_threads() == 1 || tiles < 2) {
    run(0, tiles);
  } else {
    // Tiles are independent: the split does not change a bit.
    constexpr size_t kTilesPerTask = 16;
    pool->ParallelForRanges(tiles, kTilesPerTask, run);
  }
}

}  // namespace

Status EvaluateProgram(const TensorView& out, const ExpressionProgram& program, ThreadPool* pool) {
  Layout layout;
  Store store;
  if (Status s = PlanEvaluation(out, program, layout, store); !s.ok()) return s;
  RunEvaluation(out, program, layout, store, pool);
  return {};
}

Result<PreparedExpression> PreparedExpression::PrepareProgram(const TensorView& out,
                                                              const ExpressionProgram& program,
                                                              ThreadPool* pool) {
  PreparedExpression prepared;
  for (size_t v = 0; v < program.view_count; ++v) prepared.views_[v] = *program.views[v];
  prepared.program_ = program;
  prepared.out_ = out;
  prepared.pool_ = pool;
  prepared.PointAtOwnViews();
  if (Status s =
          PlanEvaluation(prepared.out_, prepared.program_, prepared.layout_, prepared.store_);
      !s.ok()) {
    return s;
  }
  return prepared;
}

void PreparedExpression::Run() const { RunEvaluation(out_, program_, layout_, store_, pool_); }

Result<double> ReduceProgram(ReduceOp op, const ExpressionProgram& program) {
  const char* name = ReduceOpName(op);
  Layout layout;
  if (Status s = Check(program, nullptr, name, layout); !s.ok()) return s;
  if (layout.count == 0) {
    if (op == ReduceOp::kSum) return 0.0;
    return InvalidArgument(std::string(name) + ": the expression's broadcast shape " +
                           ShapeString({layout.shape.data(), layout.rank}) +
                           " has no elements (the " + name + " of no elements is undefined)");
  }
  Scratch scratch;
  SumLanes sum;
  ExtremumLanes extremum = op == ReduceOp::kMin ? ExtremumLanes::ForMin() : ExtremumLanes::ForMax();
  const auto tile = static_cast<int64_t>(layout.tile);
  for (int64_t begin = 0; begin < layout.count; begin += tile) {
    const auto n = static_cast<size_t>(std::min<int64_t>(tile, layout.count - begin));
    size_t step;
    const float* result = RunTile(program, layout, begin, n, scratch, nullptr, &step);
    // A row, or a broadcast constant (stride 0) through the strided kernel.
    const auto accumulate = [&](auto row, auto strided, auto& state) {
      if (step == 1) {
        row(result, n, state);
      } else {
        strided(result, ptrdiff_t{0}, n, state);
      }
    };
    switch (op) {
      case ReduceOp::kSum:
      case ReduceOp::kMean:
        accumulate(AccumulateSum, AccumulateSumStrided, sum);
        break;
      case ReduceOp::kMin:
        accumulate(AccumulateMin, AccumulateMinStrided, extremum);
        break;
      case ReduceOp::kMax:
        accumulate(AccumulateMax, AccumulateMaxStrided, extremum);
        break;
    }
  }
  switch (op) {
    case ReduceOp::kSum:
      return FinishSum(sum);
    case ReduceOp::kMean:
      return FinishSum(sum) / static_cast<double>(layout.count);
    case ReduceOp::kMin:
      return static_cast<double>(FinishMin(extremum));
    case ReduceOp::kMax:
      return static_cast<double>(FinishMax(extremum));
  }
  return 0.0;
}

}  // namespace swarm
