// Fused expressions (swarm/tensor/tensor_expression.h) against the same operations evaluated one
// by one with Elementwise into C-contiguous temporaries: bit for bit, on random shapes,
// broadcasts and layouts (transposed, reversed, gapped), with NaN, +-0 and +-inf among the
// values, under every SIMD target and 1-3 threads; and against double precision within a stated
// tolerance, so that both cannot be wrong together.
#include "swarm/tensor/tensor_expression.h"

#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "swarm/core/memory.h"
#include "swarm/core/thread_pool.h"
#include "swarm/tensor/tensor.h"
#include "swarm/tensor/tensor_copy.h"
#include "swarm/tensor/tensor_expression_text.h"
#include "swarm/tensor/tensor_ops.h"
#include "tests/engine/tensor/expression_operands.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

using Catch::Matchers::Contains;
using test::ForEachTarget;
using test::TargetUnderTest;
using namespace test::expression_operands;  // NOLINT: the shared operand helpers

TEST_CASE("Fused expressions equal the operations one by one, bit for bit") {
  MemoryAccountant memory;
  std::mt19937 rng(5);
  for (int trial = 0; trial < 40; ++trial) {
    const std::vector<int64_t> shape = RandomShape(rng);
    Operand a = MakeOperand(memory, shape, rng, trial % 4 == 0);
    Operand b = MakeOperand(memory, BroadcastPartner(shape, rng), rng, trial % 4 == 0);
    Operand c = MakeOperand(memory, BroadcastPartner(shape, rng), rng, false);
    Operand d = MakeOperand(memory, shape, rng, trial % 2 == 0);
    for (const Operand* operand : {&a, &b, &c, &d}) Fill(operand->view, rng, 0.05);
    INFO("trial " << trial << ": a " << a.view.TypeString() << ", b " << b.view.TypeString()
                  << ", c " << c.view.TypeString());
    // The operations one by one, into C-contiguous temporaries of the full shape.
    const auto temporary = [&] { return Tensor::Create(memory, DType::kF32, shape).value(); };
    Tensor t1 = temporary(), t2 = temporary(), want = temporary(), want2 = temporary();
    const float two[] = {2.0f};
    const TensorView two_view =
        TensorView::Contiguous(const_cast<float*>(two), DType::kF32, std::span<const int64_t>())
            .value();
    REQUIRE(Sub(a.view, b.view, t1.view()).ok());
    REQUIRE(Mul(t1.view(), c.view, t2.view()).ok());
    REQUIRE(Add(t2.view(), two_view, want.view()).ok());
    // Maximum(a, d) / (b - 0.5) - c
    Tensor u1 = temporary(), u2 = temporary();
    const float half[] = {0.5f};
    const TensorView half_view =
        TensorView::Contiguous(const_cast<float*>(half), DType::kF32, std::span<const int64_t>())
            .value();
    Tensor b_minus = Tensor::Create(memory, DType::kF32, b.view.shape()).value();
    REQUIRE(Sub(b.view, half_view, b_minus.view()).ok());
    REQUIRE(Max(a.view, d.view, u1.view()).ok());
    REQUIRE(Div(u1.view(), b_minus.view(), u2.view()).ok());
    REQUIRE(Sub(u2.view(), c.view, want2.view()).ok());
    const double want_sum = Sum(want.view()).value();
    for (size_t threads = 1; threads <= 3; ++threads) {
      ThreadPool pool(threads);
      ForEachTarget([&](const TargetUnderTest& target) {
        INFO("target " << target.name << ", " << threads << " threads");
        Operand out = MakeOperand(memory, shape, rng, trial % 3 == 0);
        REQUIRE(Evaluate(out.view, (a.view - b.view) * c.view + 2.0f, &pool).ok());
        REQUIRE(Bits(out.view) == Bits(want.view()));
        REQUIRE(Evaluate(out.view, Maximum(a.view, d.view) / (b.view - 0.5f) - c.view, &pool).ok());
        REQUIRE(Bits(out.view) == Bits(want2.view()));
        const double sum = Sum((a.view - b.view) * c.view + 2.0f).value();
        REQUIRE(std::bit_cast<uint64_t>(sum) == std::bit_cast<uint64_t>(want_sum));
      });
    }
  }
}

TEST_CASE("Unary operations in expressions equal UnaryRow one by one, bit for bit") {
  MemoryAccountant memory;
  std::mt19937 rng(10);
  for (int trial = 0; trial < 10; ++trial) {
    const std::vector<int64_t> shape = RandomShape(rng);
    Operand a = MakeOperand(memory, shape, rng, trial % 2 == 0);
    Operand b = MakeOperand(memory, BroadcastPartner(shape, rng), rng, false);
    Operand c = MakeOperand(memory, shape, rng, true);
    for (const Operand* operand : {&a, &b, &c}) Fill(operand->view, rng, 0.1);
    INFO("trial " << trial << ", a " << a.view.TypeString());
    // sqrt(|a - b|) * -c, one operation at a time into C-contiguous temporaries.
    const auto temporary = [&] { return Tensor::Create(memory, DType::kF32, shape).value(); };
    Tensor t = temporary(), u = temporary(), want = temporary();
    REQUIRE(Sub(a.view, b.view, t.view()).ok());
    const auto n = static_cast<size_t>(t.view().size());
    float* pt = static_cast<float*>(t.view().data());
    float* pu = static_cast<float*>(u.view().data());
    UnaryRow(UnaryOp::kAbs, pt, pt, n);
    UnaryRow(UnaryOp::kSqrt, pt, pt, n);
    UnaryRow(UnaryOp::kNeg, static_cast<const float*>(c.view.data()), pu, n);
    REQUIRE(Mul(t.view(), u.view(), want.view()).ok());
    const double want_sum = Sum(want.view()).value();
    ForEachTarget([&](const TargetUnderTest& target) {
      INFO("target " << target.name);
      Operand out = MakeOperand(memory, shape, rng, false);
      REQUIRE(Evaluate(out.view, Sqrt(Abs(a.view - b.view)) * -c.view).ok());
      REQUIRE(Bits(out.view) == Bits(want.view()));
      REQUIRE(std::bit_cast<uint64_t>(Sum(Sqrt(Abs(a.view - b.view)) * -c.view).value()) ==
              std::bit_cast<uint64_t>(want_sum));
    });
  }
}

TEST_CASE("Fused expressions agree with double precision to a few float ulps") {
  // Values away from 0 and each operation's result rounded once: the float result of
  // (a - b) * c + d is within 4 ulps of the double one for these magnitudes.
  MemoryAccountant memory;
  std::mt19937 rng(6);
  const std::vector<int64_t> shape = {37, 41};
  Operand a = MakeOperand(memory, shape, rng, true);
  Operand b = MakeOperand(memory, {41}, rng, true);
  Operand c = MakeOperand(memory, {37, 1}, rng, true);
  Operand d = MakeOperand(memory, shape, rng, false);
  std::uniform_real_distribution<float> value(1.0f, 2.0f);
  for (const Operand* operand : {&a, &b, &c, &d}) {
    ForEachIndex(operand->view.shape(), [&](const int64_t* index) {
      *reinterpret_cast<float*>(operand->view.ElementAddress(index)) = value(rng);
    });
  }
  Tensor out = Tensor::Create(memory, DType::kF32, shape).value();
  REQUIRE(Evaluate(out.view(), (a.view - 3.0f * b.view) * c.view + d.view).ok());
  double total = 0.0;
  for (int64_t i = 0; i < 37; ++i) {
    for (int64_t j = 0; j < 41; ++j) {
      const auto at = [&](const TensorView& v, std::initializer_list<int64_t> index) {
        return static_cast<double>(v.At<float>(std::vector<int64_t>(index)).value());
      };
      const double exact =
          (at(a.view, {i, j}) - 3.0 * at(b.view, {j})) * at(c.view, {i, 0}) + at(d.view, {i, j});
      const double got = at(out.view(), {i, j});
      REQUIRE(std::abs(got - exact) <= 4.0 * 0x1p-23 * std::max(8.0, std::abs(exact)));
      total += exact;
    }
  }
  const double sum = Sum((a.view - 3.0f * b.view) * c.view + d.view).value();
  REQUIRE(std::abs(sum - total) <= 1e-6 * 37 * 41 * 8.0);
}

TEST_CASE("Fused expressions work in place and on empty shapes") {
  MemoryAccountant memory;
  std::mt19937 rng(7);
  Operand a = MakeOperand(memory, {3, 700}, rng, false);
  Operand b = MakeOperand(memory, {700}, rng, true);
  Fill(a.view, rng, 0.02);
  Fill(b.view, rng, 0.02);
  Tensor want = Tensor::Create(memory, DType::kF32, {3, 700}).value();
  Tensor t = Tensor::Create(memory, DType::kF32, {3, 700}).value();
  REQUIRE(Mul(a.view, b.view, t.view()).ok());
  const float one[] = {1.0f};
  REQUIRE(
      Add(t.view(),
          TensorView::Contiguous(const_cast<float*>(one), DType::kF32, std::span<const int64_t>())
              .value(),
          want.view())
          .ok());
  REQUIRE(Evaluate(a.view, a.view * b.view + 1.0f).ok());  // a = a * b + 1
  REQUIRE(Bits(a.view) == Bits(want.view()));
  Operand empty = MakeOperand(memory, {4, 0}, rng, true);
  REQUIRE(Evaluate(empty.view, empty.view * 2.0f).ok());
  REQUIRE(Sum(empty.view * 2.0f - empty.view).value() == 0.0);
}

TEST_CASE("Fused expressions refuse bad operands, naming them, and write nothing") {
  MemoryAccountant memory;
  Tensor a = Tensor::Create(memory, DType::kF32, {4, 3}).value();
  Tensor b = Tensor::Create(memory, DType::kF32, {5}).value();
  Tensor complex = Tensor::Create(memory, DType::kC64, {3}).value();
  Tensor out = Tensor::Create(memory, DType::kF32, {4, 3}).value();
  static_cast<float*>(out.view().data())[0] = 42.0f;
  REQUIRE_THAT(Evaluate(out.view(), a.view() + b.view()).message(),
               Contains("cannot broadcast view 0 of the expression (f32[4][3]) with view 1 of "
                        "the expression (f32[5]): on axis 1 of the result their extents are 3 "
                        "and 5"));
  REQUIRE(Evaluate(out.view(), a.view() * complex.view()).message() ==
          "Evaluate: view 1 of the expression (c64[3]) is complex; expressions compute with real "
          "dtypes");
  REQUIRE_THAT(Evaluate(b.view(), a.view() * 2.0f).message(),
               Contains("out is f32[5] but the expression's views broadcast to shape [4, 3]"));
  REQUIRE_THAT(Evaluate(out.view().ReadOnly(), a.view() * 2.0f).message(), Contains("read-only"));
  const TensorView shifted = a.view().Sliced({{1, 4}}).value();
  const TensorView head = a.view().Sliced({{0, 3}}).value();
  REQUIRE_THAT(Evaluate(head, shifted * 2.0f).message(),
               Contains("overlaps view 0 of the expression"));
  // An expression of more operations than a program holds.
  auto long_chain = a.view() + 1.0f;
  ExpressionProgram program = Record(long_chain);
  for (int i = 0; i < 40; ++i) program.result = program.AddStep(BinaryOp::kAdd, program.result, {});
  REQUIRE_THAT(EvaluateProgram(out.view(), program).message(),
               Contains("41 operations; at most 16 and 32 are allowed"));
  REQUIRE(static_cast<float*>(out.view().data())[0] == 42.0f);  // nothing written
  REQUIRE_THAT(Sum(a.view() * complex.view()).status().message(), Contains("view 1"));
}

TEST_CASE("Prepared expressions give Evaluate's bits run after run, and its errors") {
  MemoryAccountant memory;
  std::mt19937 rng(12);
  for (int trial = 0; trial < 8; ++trial) {
    const std::vector<int64_t> shape = RandomShape(rng);
    Operand a = MakeOperand(memory, shape, rng, trial % 2 == 0);
    Operand b = MakeOperand(memory, BroadcastPartner(shape, rng), rng, false);
    Operand out = MakeOperand(memory, shape, rng, trial % 3 == 0);
    Operand want = MakeOperand(memory, shape, rng, true);
    ThreadPool pool(1 + trial % 3);
    std::optional<PreparedExpression> copy;
    {
      // The expression and the Result go out of scope: the copy must stand alone.
      Result<PreparedExpression> prepared = PreparedExpression::Prepare(
          out.view, Where(a.view > b.view, a.view - b.view, 0.5f) * a.view, &pool);
      REQUIRE(prepared.ok());
      copy = prepared.value();
    }
    for (int run = 0; run < 3; ++run) {
      INFO("trial " << trial << ", run " << run);
      Fill(a.view, rng, 0.1);
      Fill(b.view, rng, 0.1);
      copy->Run();
      REQUIRE(Evaluate(want.view, Where(a.view > b.view, a.view - b.view, 0.5f) * a.view).ok());
      REQUIRE(Bits(out.view) == Bits(want.view));
    }
  }
  Tensor a = Tensor::Create(memory, DType::kF32, {4, 3}).value();
  Tensor b = Tensor::Create(memory, DType::kF32, {5}).value();
  REQUIRE(PreparedExpression::Prepare(a.view(), a.view() + b.view()).status().message() ==
          Evaluate(a.view(), a.view() + b.view()).message());
  REQUIRE(PreparedExpression::Prepare(a.view().ReadOnly(), a.view() * 2.0f).status().message() ==
          Evaluate(a.view().ReadOnly(), a.view() * 2.0f).message());
}

TEST_CASE("Text expressions run as the same expressions written in C++, bit for bit") {
  MemoryAccountant memory;
  std::mt19937 rng(8);
  const std::vector<int64_t> shape = {9, 300};
  Operand a = MakeOperand(memory, shape, rng, false);
  Operand b = MakeOperand(memory, {300}, rng, true);
  Operand c = MakeOperand(memory, {9, 1}, rng, false);
  for (const Operand* operand : {&a, &b, &c}) Fill(operand->view, rng, 0.05);
  const NamedView views[] = {{"a", &a.view}, {"b", &b.view}, {"c_2", &c.view}};
  Operand want = MakeOperand(memory, shape, rng, true);
  Operand got = MakeOperand(memory, shape, rng, false);
  const auto same = [&](const char* text, const auto& expression) {
    INFO(text);
    Result<ExpressionProgram> program = ParseExpression(text, views);
    REQUIRE(program.ok());
    REQUIRE(EvaluateProgram(got.view, program.value()).ok());
    REQUIRE(Evaluate(want.view, expression).ok());
    REQUIRE(Bits(got.view) == Bits(want.view));
    REQUIRE(std::bit_cast<uint64_t>(SumProgram(program.value()).value()) ==
            std::bit_cast<uint64_t>(Sum(expression).value()));
  };
  const TensorView& av = a.view;
  const TensorView& bv = b.view;
  const TensorView& cv = c.view;
  same("(a - b) * c_2 + 2", (av - bv) * cv + 2.0f);
  same("a - b * c_2 / 0.5", av - bv * cv / 0.5f);  // precedence
  same("a - b - c_2", (av - bv) - cv);             // left to right
  same("  -a*-b + +c_2 ", (-av) * (-bv) + cv);
  same("sqrt(abs(a - b)) * -c_2 + abs(-2)", Sqrt(Abs(av - bv)) * (-cv) + 2.0f);
  same("maximum(a, 0) / minimum(b, c_2) - max(a,b)*min(1e-3,b) + .5",
       Maximum(av, 0.0f) / Minimum(bv, cv) - Maximum(av, bv) * Minimum(1e-3f, bv) + 0.5f);
  same("a * max(2, 3.0)", av * 3.0f);  // an operation of two numbers is one too
  same("(a - b) * (a - b)", (av - bv) * (av - bv));
  // A name used twice is one view of the program.
  REQUIRE(ParseExpression("(a - b) * (a - b)", views).value().view_count == 2);
}

// Two views given one name would leave the text ambiguous: refused, naming the name, even when
// the text does not use it.
TEST_CASE("Text expressions refuse two views of the same name") {
  MemoryAccountant memory;
  Tensor a = Tensor::Create(memory, DType::kF32, {3}).value();
  const TensorView view = a.view();
  const NamedView views[] = {{"a", &view}, {"b", &view}, {"b", &view}};
  for (const char* text : {"a + b", "a"}) {
    Result<ExpressionProgram> program = ParseExpression(text, views);
    REQUIRE_FALSE(program.ok());
    CHECK(program.status().message() == "expression \"" + std::string(text) +
                                            "\": the name 'b' is given twice (operands 1 and 2)");
  }
}

TEST_CASE("Text expressions name the token and position of every error") {
  MemoryAccountant memory;
  Tensor a = Tensor::Create(memory, DType::kF32, {3}).value();
  const TensorView view = a.view();
  const NamedView views[] = {{"a", &view}, {"b", &view}};
  const auto message = [&](const char* text) {
    Result<ExpressionProgram> program = ParseExpression(text, views);
    REQUIRE_FALSE(program.ok());
    return program.status().message();
  };
  REQUIRE(message("a + q") ==
          "expression \"a + q\": unknown name 'q' (names given: a, b) at position 4");
  REQUIRE(message("(a - b") ==
          "expression \"(a - b\": expected ')' but the expression ended at position 6");
  REQUIRE(message("a b") == "expression \"a b\": unexpected 'b' at position 2");
  REQUIRE(message("a * ") == "expression \"a * \": the expression ended too soon at position 4");
  REQUIRE(message("a $ 2") == "expression \"a $ 2\": unexpected '$' at position 2");
  REQUIRE(message("1.2.3 * a") ==
          "expression \"1.2.3 * a\": malformed number '1.2.3' at position 0");
  REQUIRE(message("sin(a)") ==
          "expression \"sin(a)\": unknown function 'sin' (functions: minimum, maximum, min, max, "
          "abs, sqrt, where, and the dtype names as casts: f32, f16, bf16, bool, u8, s32, ...) at "
          "position 0");
  REQUIRE(message("a < b < 1") ==
          "expression \"a < b < 1\": comparisons do not chain (write (a < b) & (b < c)) at "
          "position 6");
  REQUIRE(message("where(a, b)") ==
          "expression \"where(a, b)\": expected ',' but found ')' at position 10");
  REQUIRE(message("c64(a)") ==
          "expression \"c64(a)\": cannot cast to c64: expressions compute real values (cast to a "
          "real dtype) at position 0");
  REQUIRE(message("a =< b") == "expression \"a =< b\": unexpected '=' at position 2");
  // Nesting is bounded, so deep text cannot overflow the parser's stack.
  const std::string deep = std::string(100000, '(') + "a" + std::string(100000, ')');
  REQUIRE_THAT(message(deep.c_str()), Contains("nests deeper than 200 levels at position 200"));
  const std::string signs = std::string(100000, '-') + "a";
  REQUIRE_THAT(message(signs.c_str()), Contains("nests deeper than 200 levels"));
  REQUIRE(ParseExpression(std::string(150, '(') + "a" + std::string(150, ')'), views).ok());
  // Untrusted text is quoted with its control bytes escaped and cut after 120 bytes.
  REQUIRE(message("a \x1b[2J") == "expression \"a \\x1b[2J\": unexpected '\\x1b' at position 2");
  REQUIRE_THAT(message(deep.c_str()),
               Catch::Matchers::StartsWith("expression \"" + std::string(120, '(') + "...\": "));
  REQUIRE(message("max(a b)") ==
          "expression \"max(a b)\": expected ',' but found 'b' at position 6");
  REQUIRE(message("   ") == "expression \"   \": the expression is empty at position 0");
  std::string long_text = "a";
  for (int i = 0; i < 40; ++i) long_text += " + 1";
  REQUIRE_THAT(message(long_text.c_str()), Contains("40 operations; at most 16 and 32"));
}

}  // namespace
}  // namespace swarm
