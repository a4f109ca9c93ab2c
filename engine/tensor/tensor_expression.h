// Fused elementwise expressions over f32 tensor views, evaluated ahead of time in one pass: no JIT,
// no full-size temporaries.
//
//   Status s = Evaluate(out, (a - b) * c + 2.0f);            // out = (a - b) * c + 2
//   Status s = Evaluate(out, Maximum(a, 0.0f) / d, &pool);    // on a thread pool
//   Result<double> r = Sum((a - b) * (a - b));                // a reduction fused at the end
//
// Operands are TensorViews, floats and expressions; + - * / and Minimum / Maximum combine them
// (the operations of Elementwise, engine/tensor/tensor_ops.h), and unary -, Abs and Sqrt apply to
// them (UnaryRow, kernels/tensor_ops.h). Writing an expression records it
// (C++ expression templates); Evaluate and Sum turn the record into a small program and run it a
// tile of 512 elements at a time: each tile's operands are loaded (or read in place), every
// operation runs over the tile with the SIMD row kernels of Elementwise, and the tile's result is
// stored into out (or added to the sum). Memory sees each operand once and out once.
//
// Semantics: numpy broadcasting over all the expression's views (shapes aligned at their trailing
// axes, extents equal or 1); each element is the same sequence of correctly rounded IEEE
// operations as evaluating the operations one by one with Elementwise into temporaries, so the
// bits are identical to that on every SIMD target and thread count (no FMA contraction, no
// reassociation). Sum adds the elements in C order of the broadcast shape, exactly as Sum of the
// result evaluated into a C-contiguous tensor does (engine/tensor/tensor_ops.h's order), so it too
// equals the op-by-op sum bit for bit. Errors, with nothing written: a view that is not f32 (named
// by its position in the expression, counting from 0, left to right), shapes that do not broadcast
// (the axis and extents), out's shape, a read-only out, out overlapping a view of the expression
// without being that very view (in place is allowed), an expression of more than
// kMaxExpressionViews views or kMaxExpressionSteps operations.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "swarm/core/status.h"
#include "swarm/core/thread_pool.h"
#include "swarm/tensor/tensor.h"
#include "swarm/tensor/tensor_ops.h"

namespace swarm {

inline constexpr size_t kMaxExpressionViews = 16;
inline constexpr size_t kMaxExpressionSteps = 32;

// An expression flattened into steps: operands are views (leaves), constants or earlier steps.
// The program points at the views of the expression it was recorded from, which must outlive it
// (Evaluate and Sum record and run within one call).
struct ExpressionProgram {
  struct Operand {
    enum class Kind : uint8_t { kView, kConstant, kStep } kind = Kind::kConstant;
    uint8_t index = 0;  // of the view or the step
    float constant = 0.0f;
  };
  // op(a, b), or unary(a) when is_unary is set.
  struct Step {
    BinaryOp op = BinaryOp::kAdd;
    Operand a, b;
    bool is_unary = false;
    UnaryOp unary = UnaryOp::kNeg;
  };
  const TensorView* views[kMaxExpressionViews];
  Step steps[kMaxExpressionSteps];
  size_t view_count = 0;
  size_t step_count = 0;
  size_t views_wanted = 0;  // beyond the limits the expression is counted, then refused
  size_t steps_wanted = 0;
  Operand result;

  Operand AddView(const TensorView& view) {
    Operand operand{Operand::Kind::kView, static_cast<uint8_t>(view_count), 0.0f};
    if (view_count < kMaxExpressionViews) views[view_count++] = &view;
    ++views_wanted;
    return operand;
  }
  Operand AddStep(BinaryOp op, Operand a, Operand b) {
    Step step;
    step.op = op;
    step.a = a;
    step.b = b;
    return Add(step);
  }
  Operand AddUnary(UnaryOp op, Operand a) {
    Step step;
    step.a = a;
    step.is_unary = true;
    step.unary = op;
    return Add(step);
  }

 private:
  Operand Add(const Step& step) {
    Operand operand{Operand::Kind::kStep, static_cast<uint8_t>(step_count), 0.0f};
    if (step_count < kMaxExpressionSteps) steps[step_count++] = step;
    ++steps_wanted;
    return operand;
  }
};

namespace expression {

// Leaves and nodes of the recorded expression; each appends itself to a program.
struct View {
  TensorView view;
  ExpressionProgram::Operand AppendTo(ExpressionProgram& program) const {
    return program.AddView(view);
  }
};
struct Constant {
  float value;
  ExpressionProgram::Operand AppendTo(ExpressionProgram&) const {
    return {ExpressionProgram::Operand::Kind::kConstant, 0, value};
  }
};
template <class Left, class Right>
struct Binary {
  BinaryOp op;
  Left left;
  Right right;
  ExpressionProgram::Operand AppendTo(ExpressionProgram& program) const {
    const ExpressionProgram::Operand a = left.AppendTo(program);
    const ExpressionProgram::Operand b = right.AppendTo(program);
    return program.AddStep(op, a, b);
  }
};

template <class Child>
struct Unary {
  UnaryOp op;
  Child child;
  ExpressionProgram::Operand AppendTo(ExpressionProgram& program) const {
    return program.AddUnary(op, child.AppendTo(program));
  }
};

template <class T>
struct IsNode : std::false_type {};
template <class C>
struct IsNode<Unary<C>> : std::true_type {};
template <>
struct IsNode<View> : std::true_type {};
template <>
struct IsNode<Constant> : std::true_type {};
template <class L, class R>
struct IsNode<Binary<L, R>> : std::true_type {};

// What may stand in an expression: a node, a view or a number.
template <class T>
concept Term =
    IsNode<std::remove_cvref_t<T>>::value || std::same_as<std::remove_cvref_t<T>, TensorView> ||
    std::is_arithmetic_v<std::remove_cvref_t<T>>;
// Operators apply when at least one side is a node or a view (two numbers stay numbers).
template <class A, class B>
concept Operands = Term<A> && Term<B> &&
    !(std::is_arithmetic_v<std::remove_cvref_t<A>> && std::is_arithmetic_v<std::remove_cvref_t<B>>);

template <class T>
auto AsNode(const T& term) {
  if constexpr (std::same_as<T, TensorView>) {
    return View{term};
  } else if constexpr (std::is_arithmetic_v<T>) {
    return Constant{static_cast<float>(term)};
  } else {
    return term;
  }
}

template <class A, class B>
auto Make(BinaryOp op, const A& a, const B& b) {
  return Binary<decltype(AsNode(a)), decltype(AsNode(b))>{op, AsNode(a), AsNode(b)};
}

}  // namespace expression

template <class A, class B>
requires expression::Operands<A, B>
auto operator+(const A& a, const B& b) { return expression::Make(BinaryOp::kAdd, a, b); }
template <class A, class B>
requires expression::Operands<A, B>
auto operator-(const A& a, const B& b) { return expression::Make(BinaryOp::kSub, a, b); }
template <class A, class B>
requires expression::Operands<A, B>
auto operator*(const A& a, const B& b) { return expression::Make(BinaryOp::kMul, a, b); }
template <class A, class B>
requires expression::Operands<A, B>
auto operator/(const A& a, const B& b) { return expression::Make(BinaryOp::kDiv, a, b); }
// Elementwise min and max (Elementwise's kMin / kMax: NaN if either is NaN, -0 below +0).
template <class A, class B>
requires expression::Operands<A, B>
auto Minimum(const A& a, const B& b) { return expression::Make(BinaryOp::kMin, a, b); }
template <class A, class B>
requires expression::Operands<A, B>
auto Maximum(const A& a, const B& b) { return expression::Make(BinaryOp::kMax, a, b); }

// Negation, absolute value and square root of a node or a view (UnaryRow's definitions: the
// sign bit alone for the first two, IEEE sqrt, NaN canonical).
template <class A>
requires expression::Term<A> &&(!std::is_arithmetic_v<std::remove_cvref_t<A>>)auto operator-(
    const A& a) {
  return expression::Unary<decltype(expression::AsNode(a))>{UnaryOp::kNeg, expression::AsNode(a)};
}
template <class A>
requires expression::Term<A> &&(!std::is_arithmetic_v<std::remove_cvref_t<A>>)auto Abs(const A& a) {
  return expression::Unary<decltype(expression::AsNode(a))>{UnaryOp::kAbs, expression::AsNode(a)};
}
template <class A>
requires expression::Term<A> &&
    (!std::is_arithmetic_v<std::remove_cvref_t<A>>)auto Sqrt(const A& a) {
  return expression::Unary<decltype(expression::AsNode(a))>{UnaryOp::kSqrt, expression::AsNode(a)};
}

// The program of any term; it points at the term's views (keep the term alive while it runs).
template <class T>
requires expression::Term<T> ExpressionProgram Record(const T& term) {
  ExpressionProgram program;
  if constexpr (std::same_as<T, TensorView>) {
    program.result = program.AddView(term);
  } else if constexpr (std::is_arithmetic_v<T>) {
    program.result = expression::Constant{static_cast<float>(term)}.AppendTo(program);
  } else {
    program.result = term.AppendTo(program);
  }
  return program;
}

// out = the program's value at every element; threads split the tiles when a pool is given.
Status EvaluateProgram(const TensorView& out, const ExpressionProgram& program,
                       ThreadPool* pool = nullptr);
// The sum of the program's values in C order of the broadcast shape (Sum's order and bits).
Result<double> SumProgram(const ExpressionProgram& program);

template <class T>
requires expression::Term<T> &&(!std::is_arithmetic_v<T>)Status
    Evaluate(const TensorView& out, const T& term, ThreadPool* pool = nullptr) {
  return EvaluateProgram(out, Record(term), pool);
}

template <class L, class R>
Result<double> Sum(const expression::Binary<L, R>& term) {
  return SumProgram(Record(term));
}
template <class C>
Result<double> Sum(const expression::Unary<C>& term) {
  return SumProgram(Record(term));
}

}  // namespace swarm
