#include "swarm/tensor/tensor_expression.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <string>

#include "swarm/kernels/tensor_ops.h"

namespace swarm {
namespace {

using Operand = ExpressionProgram::Operand;

// A tile is at most kTile elements; every step's result and every copied view has a tile of
// floats in a scratch area of kScratchFloats on the evaluating thread's stack (96 KB), so a
// typical expression (a few steps, views read in place) runs tiles of 2,048 elements whose
// intermediates stay in L1 and L2, and a tile's fixed costs (a kernel call per step) spread over
// that many elements; larger expressions run shorter tiles.
constexpr size_t kTile = 2048;
constexpr size_t kScratchFloats = 24 * 1024;

// The broadcast shape of a program's views, each view's strides on it (0 where it broadcasts),
// and the element count.
struct Layout {
  size_t rank = 0;
  std::array<int64_t, kMaxTensorRank> shape{};
  std::array<std::array<int64_t, kMaxTensorRank>, kMaxExpressionViews> strides{};
  std::array<bool, kMaxExpressionViews> dense{};  // strides are the shape's C-order strides
  int64_t count = 1;
  size_t tile = kTile;                                      // elements per tile
  std::array<size_t, kMaxExpressionViews> copy_register{};  // of the views not read in place
};

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
  for (size_t v = 0; v < program.view_count; ++v) {
    // Messages are built only for an error: a call that passes allocates nothing.
    if (program.views[v]->dtype() != DType::kF32) {
      return CheckDType(*program.views[v], DType::kF32,
                        std::string(what) + ": view " + std::to_string(v) + " of the expression");
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
    layout.dense[v] = Dense(layout, layout.strides[v]);
  }
  size_t registers = program.step_count;
  for (size_t v = 0; v < program.view_count; ++v) {
    if (!layout.dense[v]) layout.copy_register[v] = registers++;
  }
  layout.tile = TileFor(registers);
  if (out == nullptr) return {};
  if (out->dtype() != DType::kF32) return CheckDType(*out, DType::kF32, std::string(what) + " out");
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

// Runs the program over flat elements [begin, begin + n), n <= layout.tile. The last step writes
// into `into` when given (out's own elements, when out is C-contiguous); returns where the result
// is, and in *step its step (0: a broadcast constant).
const float* RunTile(const ExpressionProgram& program, const Layout& layout, int64_t begin,
                     size_t n, Scratch& scratch, float* into, size_t* step) {
  const float* view_data[kMaxExpressionViews];
  for (size_t v = 0; v < program.view_count; ++v) {
    const auto* base = static_cast<const float*>(program.views[v]->data());
    if (layout.dense[v]) {
      view_data[v] = base + begin;  // read in place
    } else {
      float* copy = scratch.Register(layout.copy_register[v], layout);
      size_t i = 0;
      ForEachOffset(layout, layout.strides[v], begin, n,
                    [&](int64_t offset) { copy[i++] = base[offset]; });
      view_data[v] = copy;
    }
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
  for (size_t s = 0; s < program.step_count; ++s) {
    const ExpressionProgram::Step& instruction = program.steps[s];
    size_t a_step, b_step;
    const float* a = data(instruction.a, &a_step);
    const float* b = data(instruction.b, &b_step);
    // The result's step goes straight into out: in place is safe, since each element is read
    // before it is written.
    const bool last = s + 1 == program.step_count && into != nullptr;
    float* target = last ? into : scratch.Register(s, layout);
    if (instruction.is_unary) {
      if (a_step == 0) {  // of a number: one value for the whole tile
        const float value = UnaryScalar(instruction.unary, *a);
        std::fill_n(target, n, value);
      } else {
        UnaryRow(instruction.unary, a, target, n);
      }
    } else {
      ElementwiseRow(static_cast<ElementwiseOp>(instruction.op), a, a_step, b, b_step, target, n);
    }
    if (last) {
      *step = 1;
      return into;
    }
  }
  return data(program.result, step);
}

// Writes a tile's result to out's elements [begin, begin + n) (unless it is there already).
void StoreTile(const TensorView& out, const Layout& layout,
               const std::array<int64_t, kMaxTensorRank>& out_strides, int64_t begin, size_t n,
               const float* result, size_t step) {
  auto* base = static_cast<float*>(out.data());
  if (result == base + begin) return;
  size_t i = 0;
  ForEachOffset(layout, out_strides, begin, n, [&](int64_t offset) {
    base[offset] = result[i];
    i += step;
  });
}

}  // namespace

Status EvaluateProgram(const TensorView& out, const ExpressionProgram& program, ThreadPool* pool) {
  Layout layout;
  if (Status s = Check(program, &out, "Evaluate", layout); !s.ok()) return s;
  if (layout.count == 0) return {};
  std::array<int64_t, kMaxTensorRank> out_strides{};
  for (size_t axis = 0; axis < layout.rank; ++axis) out_strides[axis] = out.stride(axis);
  const bool out_dense = Dense(layout, out_strides);
  // The last step writes into out when out is C-contiguous and the result is that step.
  const bool direct = out_dense && program.result.kind == Operand::Kind::kStep;
  const size_t tile = layout.tile;
  const auto tiles = static_cast<size_t>((layout.count + static_cast<int64_t>(tile) - 1) /
                                         static_cast<int64_t>(tile));
  const auto run = [&](size_t first, size_t last) {
    Scratch scratch;  // one thread's, on its stack, reused tile after tile
    for (size_t t = first; t < last; ++t) {
      const auto begin = static_cast<int64_t>(t * tile);
      const auto n =
          static_cast<size_t>(std::min<int64_t>(static_cast<int64_t>(tile), layout.count - begin));
      float* into = direct ? static_cast<float*>(out.data()) + begin : nullptr;
      size_t step;
      const float* result = RunTile(program, layout, begin, n, scratch, into, &step);
      StoreTile(out, layout, out_strides, begin, n, result, step);
    }
  };
  if (pool == nullptr || pool->num_threads() == 1 || tiles < 2) {
    run(0, tiles);
  } else {
    // Tiles are independent: the split does not change a bit.
    constexpr size_t kTilesPerTask = 16;
    pool->ParallelForRanges(tiles, kTilesPerTask, run);
  }
  return {};
}

Result<double> SumProgram(const ExpressionProgram& program) {
  Layout layout;
  if (Status s = Check(program, nullptr, "Sum", layout); !s.ok()) return s;
  if (layout.count == 0) return 0.0;
  Scratch scratch;
  SumLanes state;
  const auto tile = static_cast<int64_t>(layout.tile);
  for (int64_t begin = 0; begin < layout.count; begin += tile) {
    const auto n = static_cast<size_t>(std::min<int64_t>(tile, layout.count - begin));
    size_t step;
    const float* result = RunTile(program, layout, begin, n, scratch, nullptr, &step);
    if (step == 1) {
      AccumulateSum(result, n, state);
    } else {
      AccumulateSumStrided(result, 0, n, state);
    }
  }
  return FinishSum(state);
}

}  // namespace swarm
