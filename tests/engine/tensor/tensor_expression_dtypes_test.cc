// Fused expressions (swarm/tensor/tensor_expression.h) with comparisons, logic, Where, casts,
// views and outs of every real dtype, and the reductions other than Sum. Each is checked bit for
// bit against the same operations one by one: Elementwise and UnaryRow into f32 temporaries,
// CopyInto for every conversion between dtypes, and a plain loop for Where, under every SIMD
// target and 1-3 threads.
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "swarm/core/memory.h"
#include "swarm/core/thread_pool.h"
#include "swarm/tensor/tensor.h"
#include "swarm/tensor/tensor_copy.h"
#include "swarm/tensor/tensor_expression.h"
#include "swarm/tensor/tensor_expression_text.h"
#include "swarm/tensor/tensor_ops.h"
#include "tests/engine/tensor/expression_operands.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

using test::ForEachTarget;
using test::TargetUnderTest;
using namespace test::expression_operands;  // NOLINT: the shared operand helpers

TensorView Scalar(const float& value) {
  return TensorView::Contiguous(const_cast<float*>(&value), DType::kF32, std::span<const int64_t>())
      .value();
}

// The bytes of a view's elements in C order.
std::vector<uint8_t> Bytes(const TensorView& view) {
  std::vector<uint8_t> bytes;
  ForEachIndex(view.shape(), [&](const int64_t* index) {
    const auto* element = reinterpret_cast<const uint8_t*>(view.ElementAddress(index));
    bytes.insert(bytes.end(), element, element + view.element_bytes());
  });
  return bytes;
}

uint64_t Bits64(double value) { return std::bit_cast<uint64_t>(value); }

TEST_CASE("Comparisons, logic and Where in expressions equal the operations one by one") {
  MemoryAccountant memory;
  std::mt19937 rng(21);
  for (int trial = 0; trial < 24; ++trial) {
    const std::vector<int64_t> shape = RandomShape(rng);
    Operand a = MakeOperand(memory, shape, rng, trial % 3 == 0);
    Operand b = MakeOperand(memory, BroadcastPartner(shape, rng), rng, false);
    Operand c = MakeOperand(memory, BroadcastPartner(shape, rng), rng, trial % 2 == 0);
    Operand d = MakeOperand(memory, shape, rng, false);
    for (const Operand* operand : {&a, &b, &c, &d}) Fill(operand->view, rng, 0.15);
    // Zeros and equal values, so that == and the logic meet both answers often.
    ForEachIndex(c.view.shape(), [&](const int64_t* index) {
      if (rng() % 3 == 0) *reinterpret_cast<float*>(c.view.ElementAddress(index)) = 0.0f;
    });
    INFO("trial " << trial << ": a " << a.view.TypeString() << ", b " << b.view.TypeString()
                  << ", c " << c.view.TypeString());
    // Where(And(a > b, NotEqual(c, 0)) | (d <= -1), a - b, Not(d) * 2), one by one.
    const auto temporary = [&] { return Tensor::Create(memory, DType::kF32, shape).value(); };
    Tensor nonzero = Tensor::Create(memory, DType::kF32, c.view.shape()).value();
    Tensor greater = temporary(), both = temporary(), low = temporary(), mask = temporary(),
           difference = temporary(), negated = temporary(), doubled = temporary(),
           want = temporary();
    const float zero = 0.0f, minus_one = -1.0f, two = 2.0f;
    REQUIRE(Elementwise(BinaryOp::kGreater, a.view, b.view, greater.view()).ok());
    REQUIRE(Elementwise(BinaryOp::kNotEqual, c.view, Scalar(zero), nonzero.view()).ok());
    REQUIRE(Elementwise(BinaryOp::kAnd, greater.view(), nonzero.view(), both.view()).ok());
    REQUIRE(Elementwise(BinaryOp::kLessEqual, d.view, Scalar(minus_one), low.view()).ok());
    REQUIRE(Elementwise(BinaryOp::kOr, both.view(), low.view(), mask.view()).ok());
    REQUIRE(Sub(a.view, b.view, difference.view()).ok());
    const Tensor d_copy = Copy(memory, d.view).value();
    const auto n = static_cast<size_t>(d_copy.view().size());
    UnaryRow(UnaryOp::kNot, static_cast<const float*>(d_copy.view().data()),
             static_cast<float*>(negated.view().data()), n);
    REQUIRE(Mul(negated.view(), Scalar(two), doubled.view()).ok());
    const auto* m = static_cast<const float*>(mask.view().data());
    const auto* x = static_cast<const float*>(difference.view().data());
    const auto* y = static_cast<const float*>(doubled.view().data());
    auto* w = static_cast<float*>(want.view().data());
    for (size_t i = 0; i < n; ++i) w[i] = m[i] != 0.0f ? x[i] : y[i];
    const double want_sum = Sum(want.view()).value();
    const double want_mean = Mean(want.view()).value();
    const float want_min = Min(want.view()).value();
    const float want_max = Max(want.view()).value();
    const auto& av = a.view;
    const auto& bv = b.view;
    const auto& cv = c.view;
    const auto& dv = d.view;
    const auto expression =
        Where(Or(And(av > bv, NotEqual(cv, 0.0f)), dv <= -1.0f), av - bv, Not(dv) * 2.0f);
    for (size_t threads = 1; threads <= 3; ++threads) {
      ThreadPool pool(threads);
      ForEachTarget([&](const TargetUnderTest& target) {
        INFO("target " << target.name << ", " << threads << " threads");
        Operand out = MakeOperand(memory, shape, rng, trial % 2 == 1);
        REQUIRE(Evaluate(out.view, expression, &pool).ok());
        REQUIRE(Bits(out.view) == Bits(want.view()));
        REQUIRE(Bits64(Sum(expression).value()) == Bits64(want_sum));
        REQUIRE(Bits64(Mean(expression).value()) == Bits64(want_mean));
        REQUIRE(std::bit_cast<uint32_t>(Min(expression).value()) ==
                std::bit_cast<uint32_t>(want_min));
        REQUIRE(std::bit_cast<uint32_t>(Max(expression).value()) ==
                std::bit_cast<uint32_t>(want_max));
      });
    }
    // The same written as text.
    const NamedView views[] = {{"a", &av}, {"b", &bv}, {"c", &cv}, {"d", &dv}};
    Result<ExpressionProgram> program =
        ParseExpression("where((a > b) & (c != 0) | (d <= -1), a - b, ~d * 2)", views);
    REQUIRE(program.ok());
    Operand out = MakeOperand(memory, shape, rng, false);
    REQUIRE(EvaluateProgram(out.view, program.value()).ok());
    REQUIRE(Bits(out.view) == Bits(want.view()));
  }
}

constexpr DType kRealDTypes[] = {DType::kF32, DType::kF64, DType::kF16, DType::kBF16, DType::kBool,
                                 DType::kU8,  DType::kS8,  DType::kS16, DType::kS32,  DType::kU16,
                                 DType::kU32, DType::kS64, DType::kU64};

// Values that reach every conversion's edges after scaling by 300: fractions, negatives, values
// past 255 and past the f16 range, zeros of both signs, infinities and NaN.
void FillWide(const TensorView& view, std::mt19937& rng) {
  Fill(view, rng, 0.1);
  ForEachIndex(view.shape(), [&](const int64_t* index) {
    float& value = *reinterpret_cast<float*>(view.ElementAddress(index));
    if (rng() % 7 == 0) value *= 1e4f;
  });
}

TEST_CASE("Views and outs of every real dtype convert as CopyInto does, on every target") {
  MemoryAccountant memory;
  std::mt19937 rng(31);
  for (const DType in_dtype : kRealDTypes) {
    for (const DType out_dtype : kRealDTypes) {
      INFO(DTypeName(in_dtype) << " in, " << DTypeName(out_dtype) << " out");
      const std::vector<int64_t> shape = RandomShape(rng);
      const bool plain = rng() % 2 == 0;
      // x: random floats cast into the input dtype (a random layout); y: f32.
      Operand source = MakeOperand(memory, shape, rng, true);
      FillWide(source.view, rng);
      Operand x = MakeOperand(memory, shape, rng, plain, in_dtype);
      REQUIRE(CopyInto(source.view, x.view).ok());
      Operand y = MakeOperand(memory, BroadcastPartner(shape, rng), rng, true);
      Fill(y.view, rng, 0.05);
      // One by one: x to f32 (CopyInto), x * 300 - y (Elementwise), to out's dtype (CopyInto).
      const Tensor x_f32 = Copy(memory, x.view, DType::kF32).value();
      Tensor product = Tensor::Create(memory, DType::kF32, shape).value();
      Tensor result = Tensor::Create(memory, DType::kF32, shape).value();
      const float scale = 300.0f;
      REQUIRE(Mul(x_f32.view(), Scalar(scale), product.view()).ok());
      REQUIRE(Sub(product.view(), y.view, result.view()).ok());
      const Tensor want = Copy(memory, result.view(), out_dtype).value();
      const double want_sum = Sum(result.view()).value();
      ForEachTarget([&](const TargetUnderTest& target) {
        INFO("target " << target.name);
        Operand out = MakeOperand(memory, shape, rng, rng() % 2 == 0, out_dtype);
        REQUIRE(Evaluate(out.view, x.view * 300.0f - y.view).ok());
        REQUIRE(Bytes(out.view) == Bytes(want.view()));
        REQUIRE(Bits64(Sum(x.view * 300.0f - y.view).value()) == Bits64(want_sum));
      });
      // Cast(expression, out's dtype) into f32 is the same value as storing it into out.
      Operand cast_out = MakeOperand(memory, shape, rng, false);
      REQUIRE(Evaluate(cast_out.view, Cast(x.view * 300.0f - y.view, out_dtype)).ok());
      const Tensor want_cast = Copy(memory, want.view(), DType::kF32).value();
      REQUIRE(Bits(cast_out.view) == Bits(want_cast.view()));
    }
  }
}

TEST_CASE("Casts in expressions equal CopyInto to the dtype and back, on every target") {
  MemoryAccountant memory;
  std::mt19937 rng(41);
  const std::vector<int64_t> shape = {3, 700};
  Operand a = MakeOperand(memory, shape, rng, true);
  FillWide(a.view, rng);
  // Every edge at once: the f16 and bf16 rounding ties, integer bounds and their neighbours.
  auto* values = static_cast<float*>(a.view.data());
  const float edges[] = {
      0.5f / 300,    -0.5f / 300,        65519.0f / 300,      65520.0f / 300,     255.5f / 300,
      -128.7f / 300, 2.1474836e9f / 300, -2.1474836e9f / 300, 4.2949673e9f / 300, 1e30f,
      -1e30f};
  std::memcpy(values, edges, sizeof(edges));
  Tensor scaled = Tensor::Create(memory, DType::kF32, shape).value();
  const float scale = 300.0f;
  REQUIRE(Mul(a.view, Scalar(scale), scaled.view()).ok());
  for (const DType dtype : kRealDTypes) {
    INFO("cast to " << DTypeName(dtype));
    const Tensor as_dtype = Copy(memory, scaled.view(), dtype).value();
    const Tensor want = Copy(memory, as_dtype.view(), DType::kF32).value();
    ForEachTarget([&](const TargetUnderTest& target) {
      INFO("target " << target.name);
      Operand out = MakeOperand(memory, shape, rng, false);
      REQUIRE(Evaluate(out.view, Cast(a.view * 300.0f, dtype)).ok());
      REQUIRE(Bits(out.view) == Bits(want.view()));
    });
  }
}

TEST_CASE("An out larger than the caches, written past them, holds the ops' bits") {
  // 20 MB of out: the last operation streams its stores (tensor_expression.cc's threshold).
  MemoryAccountant memory;
  std::mt19937 rng(61);
  const std::vector<int64_t> shape = {5, 1'000'000};
  Operand a = MakeOperand(memory, shape, rng, true);
  Operand b = MakeOperand(memory, {1'000'000}, rng, true);
  Operand c = MakeOperand(memory, shape, rng, true);
  for (const Operand* operand : {&a, &b, &c}) Fill(operand->view, rng, 0.01);
  Tensor t = Tensor::Create(memory, DType::kF32, shape).value();
  Tensor want = Tensor::Create(memory, DType::kF32, shape).value();
  REQUIRE(Sub(a.view, b.view, t.view()).ok());
  REQUIRE(Mul(t.view(), c.view, want.view()).ok());
  Tensor out = Tensor::Create(memory, DType::kF32, shape).value();
  for (size_t threads : {1, 2}) {
    ThreadPool pool(threads);
    REQUIRE(Evaluate(out.view(), (a.view - b.view) * c.view, &pool).ok());
    REQUIRE(Bits(out.view()) == Bits(want.view()));
    // In place over a copy of a.
    Tensor copy = Copy(memory, a.view).value();
    REQUIRE(Evaluate(copy.view(), (copy.view() - b.view) * c.view, &pool).ok());
    REQUIRE(Bits(copy.view()) == Bits(want.view()));
  }
}

TEST_CASE(
    "Expressions of other dtypes work in place, and refuse complex dtypes and empty "
    "reductions") {
  MemoryAccountant memory;
  std::mt19937 rng(51);
  // In place on f16: each tile is loaded before it is stored.
  Operand source = MakeOperand(memory, {5000}, rng, true);
  Fill(source.view, rng, 0.0);
  Tensor half = Copy(memory, source.view, DType::kF16).value();
  const Tensor half_f32 = Copy(memory, half.view(), DType::kF32).value();
  Tensor doubled = Tensor::Create(memory, DType::kF32, {5000}).value();
  const float two = 2.0f;
  REQUIRE(Mul(half_f32.view(), Scalar(two), doubled.view()).ok());
  const Tensor want = Copy(memory, doubled.view(), DType::kF16).value();
  REQUIRE(Evaluate(half.view(), half.view() * 2.0f).ok());
  REQUIRE(Bytes(half.view()) == Bytes(want.view()));

  Tensor complex = Tensor::Create(memory, DType::kC128, {5000}).value();
  REQUIRE(Evaluate(complex.view(), half.view() * 2.0f).message() ==
          "Evaluate: out c128[5000] is complex; expressions compute with real dtypes");
  REQUIRE(Evaluate(doubled.view(), Cast(half.view(), DType::kC64)).message() ==
          "Evaluate: the expression casts to a complex dtype; expressions compute real f32 "
          "values (Cast to a real dtype)");
  Tensor empty = Tensor::Create(memory, DType::kF32, {0, 3}).value();
  REQUIRE(Sum(empty.view() * 2.0f).value() == 0.0);
  for (const auto& [status, name] : {std::pair{Mean(empty.view() * 2.0f).status(), "Mean"},
                                     std::pair{Min(empty.view() * 2.0f).status(), "Min"},
                                     std::pair{Max(empty.view() * 2.0f).status(), "Max"}}) {
    REQUIRE(status.message() == std::string(name) +
                                    ": the expression's broadcast shape [0, 3] has no elements "
                                    "(the " +
                                    name + " of no elements is undefined)");
  }
}

}  // namespace
}  // namespace swarm
