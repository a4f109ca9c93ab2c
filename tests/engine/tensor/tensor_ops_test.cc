// Tests for swarm/tensor/tensor_ops.h: elementwise ops with broadcasting against a naive
// index-by-index loop on random shapes and layouts (SoA buffers, transposes, negative and step-2
// slices, in place); reductions against the documented order bit for bit, against long double and
// numpy (/usr/bin/python3) within stated tolerances, and across SIMD targets; and every kind of
// bad input, asserting the message and that the output is unchanged. The row kernels themselves
// are tested in tests/kernels/tensor/row_kernels_test.cc.
#include "swarm/tensor/tensor_ops.h"

#include <algorithm>
#include <array>
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "swarm/core/buffer.h"
#include "swarm/core/memory.h"
#include "swarm/core/state_hash.h"
#include "swarm/kernels/tensor/row_kernels_reference.h"
#include "swarm/tensor/tensor.h"
#include "swarm/tensor/tensor_adapters.h"
#include "swarm/tensor/tensor_copy.h"
#include "tests/support/for_each_target.h"
#include "tests/support/golden.h"
#include "tests/support/python_process.h"

namespace swarm {
namespace {

using Catch::Matchers::Contains;
using test::ForEachTarget;
using test::TargetUnderTest;

constexpr BinaryOp kOps[] = {BinaryOp::kAdd,          BinaryOp::kSub,       BinaryOp::kMul,
                             BinaryOp::kDiv,          BinaryOp::kMin,       BinaryOp::kMax,
                             BinaryOp::kLess,         BinaryOp::kLessEqual, BinaryOp::kGreater,
                             BinaryOp::kGreaterEqual, BinaryOp::kEqual,     BinaryOp::kNotEqual,
                             BinaryOp::kAnd,          BinaryOp::kOr};
static_assert(std::size(kOps) == kBinaryOpCount);

uint32_t Bits(float value) { return std::bit_cast<uint32_t>(value); }
uint64_t Bits(double value) { return std::bit_cast<uint64_t>(value); }

float& At(const TensorView& view, const int64_t* index) {
  return *reinterpret_cast<float*>(view.ElementAddress(index));
}

// Values spread over 2^-30 .. 2^30 in magnitude, so that double sums round and a different
// summation order would show in the bits (numbers from one octave often sum exactly).
void FillRandom(const TensorView& view, std::mt19937& rng, double special_fraction = 0.0) {
  std::uniform_real_distribution<float> mantissa(-1.0f, 1.0f);
  std::uniform_int_distribution<int> exponent(-30, 30);
  const auto uniform = [&](std::mt19937& r) { return std::ldexp(mantissa(r), exponent(r)); };
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  const float specials[] = {0.0f, -0.0f, std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN()};
  ForEachIndex(view.shape(), [&](const int64_t* index) {
    At(view, index) = coin(rng) < special_fraction ? specials[rng() % 5] : uniform(rng);
  });
}

// A tensor and a view of `shape` into it with a random layout: the view's axes are a random
// permutation of the storage axes, each sliced with step 1, 2, -1 or -2 (so strides are
// permuted, gapped and negative), unless `contiguous`.
struct Laid {
  Tensor storage;
  TensorView view;
};

Laid RandomLayout(MemoryAccountant& memory, std::span<const int64_t> shape, std::mt19937& rng,
                  bool contiguous = false) {
  const size_t rank = shape.size();
  std::vector<size_t> permutation(rank);
  std::iota(permutation.begin(), permutation.end(), 0);
  std::vector<int64_t> steps(rank, 1);
  if (!contiguous) {
    std::shuffle(permutation.begin(), permutation.end(), rng);
    const int64_t choices[] = {1, 2, -1, -2};
    for (int64_t& step : steps) step = choices[rng() % 4];
  }
  // Storage axis j holds view axis permutation[j], |step| times as long.
  std::vector<int64_t> storage_shape(rank);
  std::vector<AxisSlice> slices(rank);
  for (size_t j = 0; j < rank; ++j) {
    storage_shape[j] = shape[permutation[j]] * std::abs(steps[j]);
    slices[j].step = steps[j];
    slices[j].start_omitted = true;
  }
  Result<Tensor> storage = Tensor::Create(memory, DType::kF32, storage_shape);
  REQUIRE(storage.ok());
  Result<TensorView> sliced = storage->view().Sliced(slices);
  REQUIRE(sliced.ok());
  std::vector<size_t> axes(rank);  // view axis i is storage axis j with permutation[j] == i
  for (size_t j = 0; j < rank; ++j) axes[permutation[j]] = j;
  Result<TensorView> view = sliced->Permuted(axes);
  REQUIRE(view.ok());
  REQUIRE(std::equal(view->shape().begin(), view->shape().end(), shape.begin(), shape.end()));
  return {std::move(storage).value(), view.value()};
}

std::vector<int64_t> RandomShape(std::mt19937& rng, size_t rank, int64_t max_extent) {
  std::vector<int64_t> shape(rank);
  for (int64_t& extent : shape) extent = 1 + static_cast<int64_t>(rng() % max_extent);
  return shape;
}

// The elements of a view in the canonical order of swarm/tensor/tensor_ops.h, written plainly:
// drop extent-1 axes, walk negative strides backwards, nest by decreasing |stride| (stable).
std::vector<float> CanonicalOrder(const TensorView& view) {
  std::vector<size_t> axes;
  for (size_t axis = 0; axis < view.rank(); ++axis) {
    if (view.shape(axis) != 1) axes.push_back(axis);
  }
  std::stable_sort(axes.begin(), axes.end(), [&](size_t x, size_t y) {
    return std::abs(view.stride(x)) > std::abs(view.stride(y));
  });
  std::vector<int64_t> walk_shape;
  for (size_t axis : axes) walk_shape.push_back(view.shape(axis));
  std::vector<float> values;
  ForEachIndex(walk_shape, [&](const int64_t* walk) {
    std::vector<int64_t> index(view.rank(), 0);
    for (size_t k = 0; k < axes.size(); ++k) {
      const size_t axis = axes[k];
      index[axis] = view.stride(axis) < 0 ? view.shape(axis) - 1 - walk[k] : walk[k];
    }
    values.push_back(At(view, index.data()));
  });
  return values;
}

std::vector<float> Snapshot(const Tensor& tensor) {
  const TensorView view = tensor.view();
  std::vector<float> values(static_cast<size_t>(view.size()));
  std::memcpy(values.data(), view.data(), values.size() * sizeof(float));
  return values;
}

std::vector<uint32_t> BitsOf(const std::vector<float>& values) {
  std::vector<uint32_t> bits;
  for (float value : values) bits.push_back(Bits(value));
  return bits;
}

// out[index] must equal reference::Elementwise of a and b at the broadcast indices.
void RequireNaiveElementwise(BinaryOp op, const TensorView& a, const std::vector<float>& a_values,
                             const TensorView& b, const std::vector<float>& b_values,
                             const TensorView& out) {
  // a_values / b_values hold the inputs in C order of their own shapes (captured before the call,
  // since out may be a or b).
  const auto value_at = [](const TensorView& view, const std::vector<float>& values,
                           const int64_t* out_index, size_t out_rank) {
    size_t flat = 0;
    for (size_t axis = 0; axis < view.rank(); ++axis) {
      const int64_t i = view.shape(axis) == 1 ? 0 : out_index[axis + out_rank - view.rank()];
      flat = flat * static_cast<size_t>(view.shape(axis)) + static_cast<size_t>(i);
    }
    return values[flat];
  };
  ForEachIndex(out.shape(), [&](const int64_t* index) {
    const float va = value_at(a, a_values, index, out.rank());
    const float vb = value_at(b, b_values, index, out.rank());
    const float want = reference::Elementwise(op, va, vb);
    const float got = At(out, index);
    if (Bits(got) != Bits(want)) {
      INFO("op " << BinaryOpName(op) << " a " << va << " b " << vb << " got " << got << " want "
                 << want);
      REQUIRE(Bits(got) == Bits(want));
    }
  });
}

std::vector<float> CValues(const TensorView& view) {
  std::vector<float> values;
  ForEachIndex(view.shape(), [&](const int64_t* index) { values.push_back(At(view, index)); });
  return values;
}

TEST_CASE("Elementwise matches a naive broadcasting loop on random shapes and layouts") {
  MemoryAccountant memory;
  std::mt19937 rng(1);
  for (int trial = 0; trial < 400; ++trial) {
    const size_t rank = rng() % 5;
    std::vector<int64_t> shape = RandomShape(rng, rank, 6);
    if (trial % 50 == 7 && rank > 0) shape[rng() % rank] = 0;  // empty results too
    // a and b: a suffix of the result's axes, each kept or set to 1.
    std::vector<int64_t> a_shape(shape.begin() + static_cast<ptrdiff_t>(rng() % (rank + 1)),
                                 shape.end());
    std::vector<int64_t> b_shape(shape.begin() + static_cast<ptrdiff_t>(rng() % (rank + 1)),
                                 shape.end());
    for (int64_t& extent : a_shape) extent = rng() % 3 == 0 ? 1 : extent;
    for (int64_t& extent : b_shape) extent = rng() % 3 == 0 ? 1 : extent;
    // The result of broadcasting may now be smaller than `shape` where both became 1.
    std::vector<int64_t> result = shape;
    for (size_t axis = 0; axis < rank; ++axis) {
      const size_t a_offset = rank - a_shape.size();
      const size_t b_offset = rank - b_shape.size();
      const int64_t ea = axis >= a_offset ? a_shape[axis - a_offset] : 1;
      const int64_t eb = axis >= b_offset ? b_shape[axis - b_offset] : 1;
      result[axis] = ea == 1 ? eb : ea;
    }
    // The broadcast shape has the larger rank of a and b.
    result.erase(
        result.begin(),
        result.begin() + static_cast<ptrdiff_t>(rank - std::max(a_shape.size(), b_shape.size())));
    Laid a = RandomLayout(memory, a_shape, rng, trial % 4 == 0);
    Laid b = RandomLayout(memory, b_shape, rng, trial % 4 == 1);
    Laid out = RandomLayout(memory, result, rng, trial % 4 == 2);
    FillRandom(a.view, rng, 0.05);
    FillRandom(b.view, rng, 0.05);
    const BinaryOp op = kOps[trial % std::size(kOps)];
    INFO("trial " << trial << ": " << BinaryOpName(op) << " a " << a.view.TypeString()
                  << " strides " << ShapeString(a.view.strides()) << ", b " << b.view.TypeString()
                  << " strides " << ShapeString(b.view.strides()) << ", out strides "
                  << ShapeString(out.view.strides()));
    const Status status = Elementwise(op, a.view, b.view, out.view);
    REQUIRE(status.ok());
    RequireNaiveElementwise(op, a.view, CValues(a.view), b.view, CValues(b.view), out.view);
  }
}

TEST_CASE("Elementwise computes in place into a or b also with negative strides") {
  MemoryAccountant memory;
  std::mt19937 rng(2);
  for (int trial = 0; trial < 100; ++trial) {
    const std::vector<int64_t> shape = RandomShape(rng, 1 + rng() % 3, 40);
    std::vector<int64_t> row(shape.end() - 1, shape.end());
    Laid a = RandomLayout(memory, shape, rng);
    Laid b = RandomLayout(memory, trial % 2 == 0 ? shape : row, rng);
    FillRandom(a.view, rng);
    FillRandom(b.view, rng);
    const std::vector<float> a_values = CValues(a.view);
    const std::vector<float> b_values = CValues(b.view);
    const BinaryOp op = kOps[trial % std::size(kOps)];
    INFO("trial " << trial << " a strides " << ShapeString(a.view.strides()));
    REQUIRE(Elementwise(op, a.view, b.view, a.view).ok());
    RequireNaiveElementwise(op, a.view, a_values, b.view, b_values, a.view);
    if (trial % 2 == 0) {  // b has the result's shape: it can be out too
      FillRandom(a.view, rng);
      const std::vector<float> a_again = CValues(a.view);
      REQUIRE(Elementwise(op, a.view, b.view, b.view).ok());
      RequireNaiveElementwise(op, a.view, a_again, b.view, b_values, b.view);
    }
  }
}

TEST_CASE("A row of 4 broadcast onto an SoA buffer view in place leaves the padding zero") {
  MemoryAccountant memory;
  for (const size_t count : {1, 15, 17, 1003}) {
    INFO("N " << count);
    Result<Vec4Buffer> buffer = Vec4Buffer::Create(memory, count);
    REQUIRE(buffer.ok());
    const TensorView soa = TensorOf(*buffer);
    REQUIRE(soa.stride(0) == 1);
    std::mt19937 rng(3);
    FillRandom(soa, rng);
    const std::vector<float> before = CValues(soa);
    float offsets[4] = {0.5f, -1.25f, 3.0f, 100.0f};
    const int64_t row_shape[] = {4};
    const TensorView row = TensorView::Contiguous(offsets, DType::kF32, row_shape).value();
    for (const BinaryOp op : kOps) {
      std::vector<float> values = CValues(soa);
      REQUIRE(Elementwise(op, soa, row, soa).ok());
      RequireNaiveElementwise(op, soa, values, row, {offsets, offsets + 4}, soa);
    }
    const Vec4View lanes = buffer->view();
    for (size_t lane = 0; lane < 4; ++lane) {
      for (size_t i = count; i < lanes.lane_stride; ++i) REQUIRE(Bits(lanes.Lane(lane)[i]) == 0);
    }
    REQUIRE(before.size() == count * 4);
  }
}

TEST_CASE("Elementwise results have the same bits on every SIMD target") {
  MemoryAccountant memory;
  std::mt19937 rng(4);
  const int64_t shape[] = {37, 5, 29};
  const int64_t row_shape[] = {5, 1};
  Laid a = RandomLayout(memory, shape, rng);
  Laid b = RandomLayout(memory, row_shape, rng);
  FillRandom(a.view, rng, 0.1);
  FillRandom(b.view, rng, 0.1);
  for (const BinaryOp op : kOps) {
    std::vector<std::vector<uint32_t>> per_target;
    ForEachTarget([&](const TargetUnderTest& target) {
      INFO("target " << target.name);
      Laid out = RandomLayout(memory, shape, rng, true);
      REQUIRE(Elementwise(op, a.view, b.view, out.view).ok());
      per_target.push_back(BitsOf(CValues(out.view)));
    });
    for (const auto& bits : per_target) REQUIRE(bits == per_target.front());
  }
}

TEST_CASE("Contiguous operands of one shape give the reference's bits at every short length") {
  // Such calls skip the plan (one row; plain scalar code below kShortRow elements): every op and
  // every length around the short-row and vector boundaries, in place and apart, with NaN, +-0,
  // +-inf among the values, against the scalar reference, on every target.
  MemoryAccountant memory;
  std::mt19937 rng(21);
  for (int64_t n = 0; n <= 70; ++n) {
    const int64_t shape[] = {n};
    Laid a = RandomLayout(memory, shape, rng, true);
    Laid b = RandomLayout(memory, shape, rng, true);
    FillRandom(a.view, rng, 0.2);
    FillRandom(b.view, rng, 0.2);
    const auto* pa = static_cast<const float*>(a.view.data());
    const auto* pb = static_cast<const float*>(b.view.data());
    for (const BinaryOp op : kOps) {
      std::vector<float> want(static_cast<size_t>(n));
      reference::ElementwiseRow(op, pa, 1, pb, 1, want.data(), want.size());
      ForEachTarget([&](const TargetUnderTest& target) {
        INFO("n " << n << ", " << BinaryOpName(op) << ", target " << target.name);
        Laid out = RandomLayout(memory, shape, rng, true);
        REQUIRE(Elementwise(op, a.view, b.view, out.view).ok());
        REQUIRE(BitsOf(CValues(out.view)) == BitsOf(want));
        // In place into b: a copy of b is the out.
        Laid in_place = RandomLayout(memory, shape, rng, true);
        if (n > 0) std::copy_n(pb, n, static_cast<float*>(in_place.view.data()));
        REQUIRE(Elementwise(op, a.view, in_place.view, in_place.view).ok());
        REQUIRE(BitsOf(CValues(in_place.view)) == BitsOf(want));
      });
    }
    // Every pair of special values, one element at a time (the scalar path) and all at once.
    if (n == 0) {
      const float values[] = {0.0f,
                              -0.0f,
                              std::numeric_limits<float>::infinity(),
                              -std::numeric_limits<float>::infinity(),
                              std::numeric_limits<float>::quiet_NaN(),
                              1.5f,
                              -2.25f};
      std::vector<float> xs, ys;
      for (const float x : values) {
        for (const float y : values) {
          xs.push_back(x);
          ys.push_back(y);
        }
      }
      const int64_t pairs_shape[] = {static_cast<int64_t>(xs.size())};
      const int64_t one[] = {1};
      for (const BinaryOp op : kOps) {
        std::vector<float> want(xs.size()), got(xs.size());
        reference::ElementwiseRow(op, xs.data(), 1, ys.data(), 1, want.data(), want.size());
        ForEachTarget([&](const TargetUnderTest& target) {
          INFO(BinaryOpName(op) << ", target " << target.name);
          for (size_t i = 0; i < xs.size(); ++i) {
            REQUIRE(Elementwise(op, TensorView::Contiguous(&xs[i], DType::kF32, one).value(),
                                TensorView::Contiguous(&ys[i], DType::kF32, one).value(),
                                TensorView::Contiguous(&got[i], DType::kF32, one).value())
                        .ok());
          }
          REQUIRE(BitsOf(got) == BitsOf(want));
          REQUIRE(Elementwise(op,
                              TensorView::Contiguous(xs.data(), DType::kF32, pairs_shape).value(),
                              TensorView::Contiguous(ys.data(), DType::kF32, pairs_shape).value(),
                              TensorView::Contiguous(got.data(), DType::kF32, pairs_shape).value())
                      .ok());
          REQUIRE(BitsOf(got) == BitsOf(want));
        });
      }
    }
    // Sums and means: the reference's order of accumulation, bit for bit.
    ForEachTarget([&](const TargetUnderTest& target) {
      INFO("n " << n << ", target " << target.name);
      REQUIRE(Bits(Sum(a.view).value()) == Bits(reference::Sum(pa, static_cast<size_t>(n))));
      if (n > 0) {
        REQUIRE(Bits(Mean(a.view).value()) ==
                Bits(reference::Sum(pa, static_cast<size_t>(n)) / static_cast<double>(n)));
      }
    });
  }
}

TEST_CASE("Contiguous operands that only look alike still get the general checks") {
  // Views the fast path must turn down: the general path's errors, word for word.
  MemoryAccountant memory;
  Tensor storage = Tensor::Create(memory, DType::kF32, {9}).value();
  float* data = static_cast<float*>(storage.view().data());
  std::fill_n(data, 9, 1.0f);
  const int64_t shape[] = {8};
  const TensorView first = TensorView::Contiguous(data, DType::kF32, shape).value();
  const TensorView shifted = TensorView::Contiguous(data + 1, DType::kF32, shape).value();
  REQUIRE_THAT(Add(first, first, shifted).message(), Contains("overlaps operand a"));
  REQUIRE_THAT(Add(first, shifted, first).message(), Contains("overlaps operand b"));
  REQUIRE_THAT(Add(first, first, first.ReadOnly()).message(), Contains("read-only"));
  const int64_t other_shape[] = {2, 4};
  const TensorView reshaped = TensorView::Contiguous(data, DType::kF32, other_shape).value();
  REQUIRE_THAT(Add(first, first, reshaped).message(), Contains("broadcast to shape [8]"));
  REQUIRE(Add(reshaped, reshaped, reshaped).ok());  // the same view: in place
}

TEST_CASE("Prepared operations give the calls' bits and errors, run after run") {
  MemoryAccountant memory;
  std::mt19937 rng(22);
  for (int trial = 0; trial < 60; ++trial) {
    // Contiguous and short, contiguous and long, and random layouts with broadcasting.
    const bool contiguous = trial % 3 != 2;
    const int64_t n = trial % 3 == 0 ? trial % 17 : 20 + trial;
    std::vector<int64_t> shape = contiguous ? std::vector<int64_t>{n} : RandomShape(rng, 3, 6);
    std::vector<int64_t> b_shape = shape;
    if (!contiguous && !b_shape.empty()) b_shape[0] = 1;  // broadcast along the first axis
    Laid a = RandomLayout(memory, shape, rng, contiguous);
    Laid b = RandomLayout(memory, b_shape, rng, contiguous);
    Laid out = RandomLayout(memory, shape, rng, contiguous);
    Laid expected = RandomLayout(memory, shape, rng, true);
    const BinaryOp op = kOps[trial % std::size(kOps)];
    INFO("trial " << trial << ", " << BinaryOpName(op) << " of " << a.view.TypeString());
    Result<PreparedElementwise> prepared =
        PreparedElementwise::Prepare(op, a.view, b.view, out.view);
    REQUIRE(prepared.ok());
    Result<PreparedSum> sum = PreparedSum::Prepare(a.view);
    REQUIRE(sum.ok());
    for (int run = 0; run < 3; ++run) {  // new values each run: Run reads them afresh
      FillRandom(a.view, rng, 0.1);
      FillRandom(b.view, rng, 0.1);
      prepared->Run();
      REQUIRE(Elementwise(op, a.view, b.view, expected.view).ok());
      REQUIRE(BitsOf(CValues(out.view)) == BitsOf(CValues(expected.view)));
      REQUIRE(Bits(sum->Run()) == Bits(Sum(a.view).value()));
    }
  }
  // The same errors as the calls.
  Tensor storage = Tensor::Create(memory, DType::kF32, {9}).value();
  float* data = static_cast<float*>(storage.view().data());
  const int64_t shape[] = {8};
  const TensorView first = TensorView::Contiguous(data, DType::kF32, shape).value();
  const TensorView shifted = TensorView::Contiguous(data + 1, DType::kF32, shape).value();
  REQUIRE(PreparedElementwise::Prepare(BinaryOp::kMul, first, shifted, first).status().message() ==
          Mul(first, shifted, first).message());
  Tensor ints = Tensor::Create(memory, DType::kS32, {8}).value();
  REQUIRE(PreparedSum::Prepare(ints.view()).status().message() ==
          Sum(ints.view()).status().message());
}

// --- reductions ---

TEST_CASE("Sum follows the documented order so transposed and reversed and Fortran views agree") {
  MemoryAccountant memory;
  std::mt19937 rng(5);
  const int64_t shape[] = {7, 33, 5};
  Result<Tensor> tensor = Tensor::Create(memory, DType::kF32, shape);
  REQUIRE(tensor.ok());
  const TensorView view = tensor->view();
  Result<Tensor> fortran =
      Tensor::Create(memory, DType::kF32, shape, MemoryCategory::kTensors, MemoryOrder::kFortran);
  REQUIRE(fortran.ok());
  const std::array<size_t, 3> rotate = {2, 0, 1};
  const std::vector<TensorView> same_memory = {
      view, view.Transposed(), view.Permuted(rotate).value(),
      view.Sliced({{}, {0, kSliceEnd, -1, true}}).value(),
      view.Sliced({{0, kSliceEnd, -1, true}, {}, {0, kSliceEnd, -1, true}}).value().Transposed()};
  // Several fills: a different order changes the bits of one sum only with some probability.
  for (int fill = 0; fill < 20; ++fill) {
    FillRandom(view, rng);
    const std::vector<float> flat = Snapshot(*tensor);
    const double want = reference::Sum(flat.data(), flat.size());
    for (const TensorView& v : same_memory) {
      INFO("fill " << fill << ": " << v.TypeString() << " strides " << ShapeString(v.strides()));
      REQUIRE(Bits(Sum(v).value()) == Bits(want));
      REQUIRE(Bits(Mean(v).value()) == Bits(want / static_cast<double>(flat.size())));
    }
    REQUIRE(CopyInto(view, fortran->view()).ok());
    const std::vector<float> fortran_flat = Snapshot(*fortran);
    REQUIRE(Bits(Sum(fortran->view()).value()) ==
            Bits(reference::Sum(fortran_flat.data(), fortran_flat.size())));
  }
}

TEST_CASE("Sum of an SoA buffer view adds lane x then y then z then w along the particles") {
  MemoryAccountant memory;
  Result<Vec4Buffer> buffer = Vec4Buffer::Create(memory, 1001);
  REQUIRE(buffer.ok());
  std::mt19937 rng(6);
  FillRandom(TensorOf(*buffer), rng);
  const Vec4View lanes = buffer->view();
  std::vector<float> in_order;
  for (size_t lane = 0; lane < 4; ++lane) {
    in_order.insert(in_order.end(), lanes.Lane(lane), lanes.Lane(lane) + lanes.count);
  }
  REQUIRE(Bits(Sum(TensorOf(*buffer)).value()) ==
          Bits(reference::Sum(in_order.data(), in_order.size())));
}

TEST_CASE("Reductions of random layouts match the canonical order and long double") {
  MemoryAccountant memory;
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const std::vector<int64_t> shape = RandomShape(rng, rng() % 5, 9);
    Laid laid = RandomLayout(memory, shape, rng);
    FillRandom(laid.view, rng, trial % 5 == 0 ? 0.05 : 0.0);
    INFO("trial " << trial << " " << laid.view.TypeString() << " strides "
                  << ShapeString(laid.view.strides()));
    const std::vector<float> ordered = CanonicalOrder(laid.view);
    const double sum = Sum(laid.view).value();
    REQUIRE(Bits(sum) == Bits(reference::Sum(ordered.data(), ordered.size())));
    REQUIRE(Bits(Min(laid.view).value()) == Bits(reference::Min(ordered.data(), ordered.size())));
    REQUIRE(Bits(Max(laid.view).value()) == Bits(reference::Max(ordered.data(), ordered.size())));
    long double exact = 0.0L;
    long double magnitude = 0.0L;
    for (float value : ordered) {
      exact += value;
      magnitude += std::fabs(static_cast<long double>(value));
    }
    if (std::isfinite(static_cast<double>(exact)) && !std::isnan(sum)) {
      // The bound of swarm/kernels/tensor/row_kernels.h with n <= 9^4.
      REQUIRE(std::fabs(sum - exact) <= magnitude * ((6561.0 / 32 + 5) * 0x1p-53 + 1e-16L));
    }
  }
}

TEST_CASE("Whole-view sums have the same bits on every SIMD target") {
  MemoryAccountant memory;
  std::mt19937 rng(8);
  const int64_t shape[] = {1000, 3, 333};
  Laid laid = RandomLayout(memory, shape, rng);
  FillRandom(laid.view, rng);
  Laid with_specials = RandomLayout(memory, shape, rng);
  FillRandom(with_specials.view, rng, 0.0001);
  std::vector<std::array<uint64_t, 5>> per_target;
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    per_target.push_back({Bits(Sum(laid.view).value()), Bits(Mean(laid.view).value()),
                          Bits(static_cast<double>(Min(laid.view).value())),
                          Bits(static_cast<double>(Max(laid.view).value())),
                          Bits(Sum(with_specials.view).value())});
  });
  for (const auto& bits : per_target) REQUIRE(bits == per_target.front());
}

TEST_CASE("Reductions give the golden bits on every SIMD target (cross-architecture)") {
  // Values from integer hashing only (no library random or math functions, which may differ
  // between architectures): a spread of magnitudes and signs, exactly representable.
  MemoryAccountant memory;
  const int64_t shape[] = {1000, 3, 333};
  Tensor tensor = Tensor::Create(memory, DType::kF32, shape).value();
  float* values = static_cast<float*>(tensor.view().data());
  const size_t count = 1000 * 3 * 333;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t x = i * 0x9e3779b1u;
    x ^= x >> 15;
    x *= 0x2c1b3c6du;
    x ^= x >> 12;
    values[i] = std::ldexp(static_cast<float>(static_cast<int32_t>(x % 2000001) - 1000000),
                           static_cast<int>(x >> 28) - 20);
  }
  const TensorView view = tensor.view();
  Tensor axis0 = Tensor::Create(memory, DType::kF32, std::vector<int64_t>{3, 333}).value();
  Tensor axis2 = Tensor::Create(memory, DType::kF32, std::vector<int64_t>{1000, 3}).value();
  std::vector<uint64_t> digests;
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    REQUIRE(Reduce(ReduceOp::kSum, view, 0, axis0.view()).ok());
    REQUIRE(Reduce(ReduceOp::kMean, view, 2, axis2.view()).ok());
    const uint64_t whole[] = {Bits(Sum(view).value()), Bits(Mean(view).value()),
                              Bits(static_cast<double>(Min(view).value())),
                              Bits(static_cast<double>(Max(view).value()))};
    digests.push_back(StateHasher()
                          .AddBytes(whole, sizeof(whole))
                          .AddBytes(axis0.view().data(), 3 * 333 * sizeof(float))
                          .AddBytes(axis2.view().data(), 1000 * 3 * sizeof(float))
                          .Digest());
    CHECK(digests.back() == digests.front());
  });
  test::CheckGolden("tensor.f32_1000x3x333.sum_mean_min_max_axis_sums", digests.front());
}

TEST_CASE("Sum of an empty view is +0 and NaN propagates and -0 sums stay -0") {
  MemoryAccountant memory;
  const int64_t empty_shape[] = {3, 0};
  Result<Tensor> empty = Tensor::Create(memory, DType::kF32, empty_shape);
  REQUIRE(empty.ok());
  REQUIRE(Bits(Sum(empty->view()).value()) == Bits(0.0));
  const int64_t shape[] = {50};
  Result<Tensor> tensor = Tensor::Create(memory, DType::kF32, shape);
  const TensorView view = tensor->view();
  for (int64_t i = 0; i < 50; ++i) REQUIRE(view.Set<float>({i}, -0.0f).ok());
  REQUIRE(Bits(Sum(view).value()) == Bits(-0.0));
  REQUIRE(Bits(Min(view).value()) == Bits(-0.0f));
  REQUIRE(view.Set<float>({20}, 0.0f).ok());
  REQUIRE(Bits(Max(view).value()) == Bits(0.0f));
  REQUIRE(view.Set<float>({31}, std::numeric_limits<float>::quiet_NaN()).ok());
  REQUIRE(std::isnan(Sum(view).value()));
  REQUIRE(std::isnan(Mean(view).value()));
  REQUIRE(std::isnan(Min(view).value()));
  REQUIRE(std::isnan(Max(view).value()));
}

TEST_CASE("Reduce over each axis equals the whole-view reduction of each slice") {
  MemoryAccountant memory;
  std::mt19937 rng(9);
  const ReduceOp ops[] = {ReduceOp::kSum, ReduceOp::kMean, ReduceOp::kMin, ReduceOp::kMax};
  for (int trial = 0; trial < 120; ++trial) {
    const std::vector<int64_t> shape = RandomShape(rng, 1 + rng() % 4, 7);
    Laid laid = RandomLayout(memory, shape, rng);
    FillRandom(laid.view, rng, trial % 6 == 0 ? 0.05 : 0.0);
    const size_t axis = rng() % shape.size();
    const ReduceOp op = ops[trial % 4];
    std::vector<int64_t> out_shape = shape;
    out_shape.erase(out_shape.begin() + static_cast<ptrdiff_t>(axis));
    Laid out = RandomLayout(memory, out_shape, rng);
    INFO("trial " << trial << " " << ReduceOpName(op) << " over axis " << axis << " of "
                  << laid.view.TypeString() << " strides " << ShapeString(laid.view.strides()));
    REQUIRE(Reduce(op, laid.view, axis, out.view).ok());
    ForEachIndex(out_shape, [&](const int64_t* out_index) {
      // The slice as a 1-d view, reduced by the whole-view functions and by the reference.
      std::vector<AxisSlice> slices;
      for (size_t i = 0, j = 0; i < shape.size(); ++i) {
        if (i == axis) {
          slices.push_back({});
        } else {
          slices.push_back({out_index[j], out_index[j] + 1, 1});
          ++j;
        }
      }
      const TensorView slice = laid.view.Sliced(slices).value();
      const std::vector<float> ordered = CanonicalOrder(slice);
      float want = 0.0f;
      switch (op) {
        case ReduceOp::kSum:
          want = static_cast<float>(reference::Sum(ordered.data(), ordered.size()));
          REQUIRE(Bits(want) == Bits(static_cast<float>(Sum(slice).value())));
          break;
        case ReduceOp::kMean:
          want = static_cast<float>(reference::Sum(ordered.data(), ordered.size()) /
                                    static_cast<double>(ordered.size()));
          REQUIRE(Bits(want) == Bits(static_cast<float>(Mean(slice).value())));
          break;
        case ReduceOp::kMin:
          want = reference::Min(ordered.data(), ordered.size());
          break;
        case ReduceOp::kMax:
          want = reference::Max(ordered.data(), ordered.size());
          break;
      }
      REQUIRE(Bits(At(out.view, out_index)) == Bits(want));
    });
  }
}

TEST_CASE("Reduce over the lanes and over the particles of an SoA view") {
  MemoryAccountant memory;
  const size_t count = 517;
  Result<Vec4Buffer> buffer = Vec4Buffer::Create(memory, count);
  REQUIRE(buffer.ok());
  std::mt19937 rng(10);
  const TensorView soa = TensorOf(*buffer);
  FillRandom(soa, rng);
  const Vec4View lanes = buffer->view();
  const int64_t per_lane_shape[] = {4};
  const int64_t per_particle_shape[] = {static_cast<int64_t>(count)};
  Result<Tensor> per_lane = Tensor::Create(memory, DType::kF32, per_lane_shape);
  Result<Tensor> per_particle = Tensor::Create(memory, DType::kF32, per_particle_shape);
  REQUIRE(Reduce(ReduceOp::kSum, soa, 0, per_lane->view()).ok());
  REQUIRE(Reduce(ReduceOp::kMax, soa, 1, per_particle->view()).ok());
  for (int64_t lane = 0; lane < 4; ++lane) {
    const float want = static_cast<float>(reference::Sum(lanes.Lane(lane), count));
    REQUIRE(Bits(per_lane->view().At<float>({lane}).value()) == Bits(want));
  }
  for (size_t i = 0; i < count; ++i) {
    const float values[] = {lanes.x()[i], lanes.y()[i], lanes.z()[i], lanes.w()[i]};
    REQUIRE(Bits(per_particle->view().At<float>({static_cast<int64_t>(i)}).value()) ==
            Bits(*std::max_element(std::begin(values), std::end(values))));
  }
}

// --- numpy ---

// Runs numpy on `script` and returns its standard output.
std::string RunPython(const std::string& script) {
  const std::string path = "tensor_ops_test_files/check.py";
  std::ofstream(path) << script;
  const test::PythonRun run = test::RunPython(path);
  REQUIRE(run.status == 0);
  return run.output;
}

TEST_CASE("Sums and means and extrema and axis sums agree with numpy") {
  std::filesystem::create_directories("tensor_ops_test_files");
  MemoryAccountant memory;
  std::mt19937 rng(11);
  const int64_t shape[] = {40, 50, 60};
  Result<Tensor> tensor = Tensor::Create(memory, DType::kF32, shape);
  REQUIRE(tensor.ok());
  const TensorView view = tensor->view();
  FillRandom(view, rng);
  const std::vector<float> flat = Snapshot(*tensor);
  {
    std::ofstream file("tensor_ops_test_files/values.f32", std::ios::binary);
    file.write(reinterpret_cast<const char*>(flat.data()),
               static_cast<std::streamsize>(flat.size() * sizeof(float)));
  }
  // float.hex prints exact values; numpy's float64 sum is pairwise (error ~1e-16 * sum |x|).
  const std::string output = RunPython(R"(import numpy as np
a = np.fromfile("tensor_ops_test_files/values.f32", dtype="<f4").reshape(40, 50, 60)
print("sum", float(a.sum(dtype=np.float64)).hex())
print("transposed_sum", float(a.T[::-1].sum(dtype=np.float64)).hex())
print("mean", float(a.mean(dtype=np.float64)).hex())
print("magnitude", float(np.abs(a).sum(dtype=np.float64)).hex())
print("min", float(a.min()).hex())
print("max", float(a.max()).hex())
for i, s in enumerate(a.sum(axis=1, dtype=np.float64).astype(np.float32).ravel()):
    print("axis1", float(s).hex())
)");
  std::map<std::string, double> numpy;
  std::vector<float> numpy_axis1;
  size_t begin = 0;
  while (begin < output.size()) {
    const size_t end = output.find('\n', begin);
    const std::string line = output.substr(begin, end - begin);
    begin = end + 1;
    const size_t space = line.find(' ');
    const double value = std::strtod(line.c_str() + space + 1, nullptr);
    if (line.substr(0, space) == "axis1") {
      numpy_axis1.push_back(static_cast<float>(value));
    } else {
      numpy[line.substr(0, space)] = value;
    }
  }
  REQUIRE(numpy.size() == 6);
  REQUIRE(numpy_axis1.size() == 40 * 60);
  // Tolerance: both sums err by far less than 1e-12 of the sum of magnitudes (ours by at most
  // (n / 32 + 5) * 2^-53 = 4e-13 at n = 1.2e5, numpy's pairwise sum by ~1e-14).
  const double tolerance = 1e-12 * numpy["magnitude"];
  CHECK(std::fabs(Sum(view).value() - numpy["sum"]) <= tolerance);
  CHECK(std::fabs(Sum(view.Transposed().Sliced({{0, kSliceEnd, -1, true}}).value()).value() -
                  numpy["transposed_sum"]) <= tolerance);
  CHECK(std::fabs(Mean(view).value() - numpy["mean"]) <=
        tolerance / static_cast<double>(flat.size()));
  CHECK(Min(view).value() == static_cast<float>(numpy["min"]));  // exact: no rounding
  CHECK(Max(view).value() == static_cast<float>(numpy["max"]));
  const int64_t out_shape[] = {40, 60};
  Result<Tensor> axis1 = Tensor::Create(memory, DType::kF32, out_shape);
  REQUIRE(Reduce(ReduceOp::kSum, view, 1, axis1->view()).ok());
  const std::vector<float> ours = Snapshot(*axis1);
  for (int64_t i = 0; i < 40; ++i) {
    for (int64_t k = 0; k < 60; ++k) {
      // Both round a double sum to float: they may differ by one float ulp near a rounding tie,
      // or by the double sums' own errors (< 1e-12 of the row's magnitude) where it cancels.
      long double row_magnitude = 0.0L;
      for (int64_t j = 0; j < 50; ++j)
        row_magnitude += std::fabs(view.At<float>({i, j, k}).value());
      const float theirs = numpy_axis1[static_cast<size_t>(i * 60 + k)];
      const float ulp = std::nextafter(std::fabs(theirs), INFINITY) - std::fabs(theirs);
      INFO("element " << i << ", " << k);
      REQUIRE(std::fabs(ours[static_cast<size_t>(i * 60 + k)] - theirs) <=
              std::max<double>(ulp, 1e-12 * static_cast<double>(row_magnitude)));
    }
  }
}

// --- errors ---

struct ErrorFixture {
  MemoryAccountant memory;
  Tensor a = Tensor::Create(memory, DType::kF32, {3, 4}).value();
  Tensor b = Tensor::Create(memory, DType::kF32, {4}).value();
  Tensor out = Tensor::Create(memory, DType::kF32, {3, 4}).value();
  ErrorFixture() {
    std::mt19937 rng(12);
    FillRandom(a.view(), rng);
    FillRandom(b.view(), rng);
    FillRandom(out.view(), rng);
  }
};

// The call must fail with a message containing every one of `parts` and leave `guarded` as it was.
template <class Call>
void RequireError(const Tensor& guarded, const Call& call,
                  std::initializer_list<const char*> parts) {
  const std::vector<uint32_t> before = BitsOf(Snapshot(guarded));
  const Status status = call();
  REQUIRE_FALSE(status.ok());
  REQUIRE(status.code() == ErrorCode::kInvalidArgument);
  for (const char* part : parts) REQUIRE_THAT(status.message(), Contains(part));
  REQUIRE(BitsOf(Snapshot(guarded)) == before);
}

TEST_CASE("Elementwise rejects shapes that do not broadcast and names the axis") {
  ErrorFixture f;
  Tensor c = Tensor::Create(f.memory, DType::kF32, {5}).value();
  RequireError(f.out, [&] { return Add(f.a.view(), c.view(), f.out.view()); },
               {"Add", "f32[3][4]", "f32[5]", "axis 1", "extent 4", "extent 5", "(its axis 0)"});
  Tensor d = Tensor::Create(f.memory, DType::kF32, {2, 1}).value();
  RequireError(f.out, [&] { return Mul(d.view(), f.a.view(), f.out.view()); },
               {"Mul", "axis 0", "extent 2", "extent 3"});
}

TEST_CASE("Elementwise rejects an out whose shape is not the broadcast shape") {
  ErrorFixture f;
  Tensor wrong = Tensor::Create(f.memory, DType::kF32, {4, 3}).value();
  RequireError(wrong, [&] { return Sub(f.a.view(), f.b.view(), wrong.view()); },
               {"Sub", "out is f32[4][3]", "broadcast to shape [3, 4]"});
  Tensor lower = Tensor::Create(f.memory, DType::kF32, {4}).value();
  RequireError(lower, [&] { return Sub(f.a.view(), f.b.view(), lower.view()); },
               {"out is f32[4]", "[3, 4]"});
}

TEST_CASE("Elementwise rejects other dtypes and names the operand") {
  ErrorFixture f;
  Tensor ints = Tensor::Create(f.memory, DType::kS32, {4}).value();
  RequireError(f.out, [&] { return Add(f.a.view(), ints.view(), f.out.view()); },
               {"Add operand b", "expected a f32", "s32[4]"});
  Tensor doubles = Tensor::Create(f.memory, DType::kF64, {3, 4}).value();
  RequireError(doubles, [&] { return Add(f.a.view(), f.b.view(), doubles.view()); },
               {"Add out", "f64[3][4]"});
}

TEST_CASE("Elementwise rejects a read-only out") {
  ErrorFixture f;
  RequireError(f.out, [&] { return Div(f.a.view(), f.b.view(), f.out.view().ReadOnly()); },
               {"Div", "read-only"});
}

TEST_CASE("Elementwise rejects an out that overlaps an input without being it") {
  ErrorFixture f;
  // The same memory as a, shifted by one element.
  const TensorView a_flat = f.a.view().Reshaped({12}).value();
  const TensorView shifted = a_flat.Sliced({{1, 12}}).value();
  Tensor other = Tensor::Create(f.memory, DType::kF32, {11}).value();
  std::mt19937 rng(13);
  FillRandom(other.view(), rng);
  RequireError(f.a,
               [&] {
                 return Add(a_flat.Sliced({{0, 11}}).value(), other.view(), shifted);
               },
               {"Add", "overlaps operand a"});
  // a transposed is the same memory with other strides: not in place, refused.
  Tensor square = Tensor::Create(f.memory, DType::kF32, {4, 4}).value();
  RequireError(square, [&] { return Add(square.view(), f.b.view(), square.view().Transposed()); },
               {"overlaps operand a"});
  // An out whose elements overlap each other (a broadcast view).
  const int64_t shape[] = {3, 4};
  const int64_t strides[] = {0, 1};
  const TensorView writable_broadcast =
      TensorView::Create(f.out.view().data(), DType::kF32, shape, strides).value();
  REQUIRE_FALSE(writable_broadcast.read_only());
  RequireError(f.out, [&] { return Add(f.a.view(), f.b.view(), writable_broadcast); },
               {"overlap each other"});
}

TEST_CASE("Reductions reject empty views and other dtypes and bad axes and bad outs") {
  ErrorFixture f;
  Tensor empty = Tensor::Create(f.memory, DType::kF32, {0, 4}).value();
  for (const auto& [name, status] : {std::pair{"Mean", Mean(empty.view()).status()},
                                     std::pair{"Min", Min(empty.view()).status()},
                                     std::pair{"Max", Max(empty.view()).status()}}) {
    INFO(name);
    REQUIRE_FALSE(status.ok());
    REQUIRE_THAT(status.message(), Contains(name) && Contains("f32[0][4]") && Contains("empty"));
  }
  Tensor ints = Tensor::Create(f.memory, DType::kS32, {4}).value();
  REQUIRE_THAT(Sum(ints.view()).status().message(), Contains("Sum") && Contains("s32[4]"));

  Tensor out3 = Tensor::Create(f.memory, DType::kF32, {3}).value();
  RequireError(out3, [&] { return Reduce(ReduceOp::kSum, f.a.view(), 2, out3.view()); },
               {"Sum over axis 2", "only 2 axes"});
  RequireError(out3, [&] { return Reduce(ReduceOp::kMin, f.a.view(), 0, out3.view()); },
               {"Min over axis 0", "out is f32[3]", "must have shape [4]"});
  RequireError(out3, [&] { return Reduce(ReduceOp::kMax, f.a.view(), 1, out3.view().ReadOnly()); },
               {"Max over axis 1", "read-only"});
  Tensor empty_axis = Tensor::Create(f.memory, DType::kF32, {3, 0}).value();
  RequireError(out3, [&] { return Reduce(ReduceOp::kMean, empty_axis.view(), 1, out3.view()); },
               {"Mean over axis 1", "axis is empty"});
  REQUIRE(Reduce(ReduceOp::kSum, empty_axis.view(), 1, out3.view()).ok());
  for (int64_t i = 0; i < 3; ++i) REQUIRE(Bits(out3.view().At<float>({i}).value()) == 0);
  // out inside the input: the first row of a.
  const TensorView first_row = f.a.view().Sliced({{0, 1}}).value().Reshaped({4}).value();
  RequireError(f.a, [&] { return Reduce(ReduceOp::kSum, f.a.view(), 0, first_row); },
               {"Sum over axis 0", "overlaps the input"});
  Tensor doubles = Tensor::Create(f.memory, DType::kF64, {4}).value();
  RequireError(doubles, [&] { return Reduce(ReduceOp::kSum, f.a.view(), 0, doubles.view()); },
               {"Sum over axis 0 out", "f64[4]"});
}

}  // namespace
}  // namespace swarm
