// Fused elementwise expressions over tensor views, evaluated ahead of time in one pass: no JIT,
// no full-size temporaries.
//
//   Status s = Evaluate(out, (a - b) * c + 2.0f);            // out = (a - b) * c + 2
//   Status s = Evaluate(out, Maximum(a, 0.0f) / d, &pool);    // on a thread pool
//   Status s = Evaluate(out, Where(a > b, a - b, 0.0f));      // select
//   Status s = Evaluate(half, Cast(a * b, DType::kF16));      // out of any real dtype
//   Result<double> r = Sum((a - b) * (a - b));                // a reduction fused at the end
//
// Operands are TensorViews, floats and expressions. + - * /, Minimum / Maximum, the comparisons
// < <= > >= (operators) and Equal / NotEqual, and And / Or combine two of them (Elementwise's
// operations, swarm/tensor/tensor_ops.h: comparisons and logic give 1 or 0); unary -, Abs, Sqrt
// and Not apply to one (UnaryRow, swarm/kernels/tensor/row_kernels.h); Where(mask, a, b) selects a
// where mask is not zero and b elsewhere (numpy's where, bits copied); Cast(x, dtype) rounds x to a
// dtype as CopyInto casts (f16 and bf16 to nearest even, bool to 0 or 1, integers truncated and
// clamped to their range, NaN to 0).
//
// Every value is computed as f32. Views may have any real dtype: f32 is read in place, f16, bf16,
// bool and the integers are converted to f32 as they load (exactly, except 32- and 64-bit
// integers and f64, which round to the nearest f32, as a cast to f32 does), and out may have any
// real dtype too, each element stored as CopyInto casts an f32 (which equals Cast to out's dtype).
//
// Writing an expression records it (C++ expression templates); Evaluate and the reductions turn
// the record into a small program and run it a tile of up to 2,048 elements at a time: each
// tile's operands are loaded (or read in place), every operation runs over the tile with the
// SIMD row kernels, and the tile's result is stored into out (or reduced). Memory sees each
// operand once and out once.
//
// Semantics: numpy broadcasting over all the expression's views (shapes aligned at their trailing
// axes, extents equal or 1); each element is the same sequence of correctly rounded IEEE
// operations as evaluating the operations one by one with Elementwise into f32 temporaries, so
// the bits are identical to that on every SIMD target and thread count (no FMA contraction, no
// reassociation). Sum and Mean add the elements in C order of the broadcast shape, exactly as
// Sum of the result evaluated into a C-contiguous f32 tensor does (swarm/tensor/tensor_ops.h's
// order), so they too equal the op-by-op results bit for bit; Min and Max are exact. Errors,
// with nothing written: a complex view (named by its position in the expression, counting from
// 0, left to right), shapes that do not broadcast (the axis and extents), out's shape or a
// complex out, a read-only out, out overlapping a view of the expression without being that very
// view (in place is allowed), a cast to a complex dtype, an expression of more than
// kMaxExpressionViews views or kMaxExpressionSteps operations, Mean / Min / Max of no elements.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "swarm/core/status.h"
#include "swarm/core/thread_pool.h"
#include "swarm/tensor/tensor.h"
#include "swarm/tensor/tensor_expression_plan.h"
#include "swarm/tensor/tensor_ops.h"

namespace swarm {

// An expression flattened into steps: operands are views (leaves), constants or earlier steps.
// The program points at the views of the expression it was recorded from, which must outlive it
// (Evaluate and the reductions record and run within one call).
struct ExpressionProgram {
  struct Operand {
    enum class Kind : uint8_t { kView, kConstant, kStep } kind = Kind::kConstant;
    uint8_t index = 0;  // of the view or the step
    float constant = 0.0f;
  };
  // kBinary: op(a, b); kUnary: unary(a); kSelect: a (the mask) != 0 ? b : c.
  struct Step {
    enum class Kind : uint8_t { kBinary, kUnary, kSelect } kind = Kind::kBinary;
    BinaryOp op = BinaryOp::kAdd;
    UnaryOp unary = UnaryOp::kNeg;
    Operand a, b, c;
  };
  const TensorView* views[kMaxExpressionViews];
  Step steps[kMaxExpressionSteps];
  size_t view_count = 0;
  size_t step_count = 0;
  size_t views_wanted = 0;  // beyond the limits the expression is counted, then refused
  size_t steps_wanted = 0;
  bool complex_cast = false;  // a Cast to c64 or c128 was recorded (refused when run)
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
    step.kind = Step::Kind::kUnary;
    step.a = a;
    step.unary = op;
    return Add(step);
  }
  Operand AddSelect(Operand mask, Operand a, Operand b) {
    Step step;
    step.kind = Step::Kind::kSelect;
    step.a = mask;
    step.b = a;
    step.c = b;
    return Add(step);
  }
  // The steps of a cast to `dtype` and back to f32 (none for f32 and f64, which hold every f32).
  Operand AddCast(DType dtype, Operand a);

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

template <class Mask, class Left, class Right>
struct Select {
  Mask mask;
  Left left;
  Right right;
  ExpressionProgram::Operand AppendTo(ExpressionProgram& program) const {
    const ExpressionProgram::Operand m = mask.AppendTo(program);
    const ExpressionProgram::Operand a = left.AppendTo(program);
    const ExpressionProgram::Operand b = right.AppendTo(program);
    return program.AddSelect(m, a, b);
  }
};

template <class Child>
struct CastTo {
  DType dtype;
  Child child;
  ExpressionProgram::Operand AppendTo(ExpressionProgram& program) const {
    return program.AddCast(dtype, child.AppendTo(program));
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
template <class M, class L, class R>
struct IsNode<Select<M, L, R>> : std::true_type {};
template <class C>
struct IsNode<CastTo<C>> : std::true_type {};

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
template <class A>
auto MakeUnary(UnaryOp op, const A& a) {
  return Unary<decltype(AsNode(a))>{op, AsNode(a)};
}

// A node or a view (not a number): what unary operations and casts apply to.
template <class T>
concept Operand = Term<T> && !std::is_arithmetic_v<std::remove_cvref_t<T>>;

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

// Comparisons (1 where true, 0 elsewhere; false with NaN but for NotEqual) and logic (operands
// that are not zero, NaN included, are true). == and != are functions, so that comparing views
// keeps its usual meaning.
template <class A, class B>
requires expression::Operands<A, B>
auto operator<(const A& a, const B& b) { return expression::Make(BinaryOp::kLess, a, b); }
template <class A, class B>
requires expression::Operands<A, B>
auto operator<=(const A& a, const B& b) { return expression::Make(BinaryOp::kLessEqual, a, b); }
template <class A, class B>
requires expression::Operands<A, B>
auto operator>(const A& a, const B& b) { return expression::Make(BinaryOp::kGreater, a, b); }
template <class A, class B>
requires expression::Operands<A, B>
auto operator>=(const A& a, const B& b) { return expression::Make(BinaryOp::kGreaterEqual, a, b); }
template <class A, class B>
requires expression::Operands<A, B>
auto Equal(const A& a, const B& b) { return expression::Make(BinaryOp::kEqual, a, b); }
template <class A, class B>
requires expression::Operands<A, B>
auto NotEqual(const A& a, const B& b) { return expression::Make(BinaryOp::kNotEqual, a, b); }
template <class A, class B>
requires expression::Operands<A, B>
auto And(const A& a, const B& b) { return expression::Make(BinaryOp::kAnd, a, b); }
template <class A, class B>
requires expression::Operands<A, B>
auto Or(const A& a, const B& b) { return expression::Make(BinaryOp::kOr, a, b); }

// Negation, absolute value, square root and logical not of a node or a view (UnaryRow's
// definitions: the sign bit alone for the first two, IEEE sqrt, NaN canonical).
template <expression::Operand A>
auto operator-(const A& a) {
  return expression::MakeUnary(UnaryOp::kNeg, a);
}
template <expression::Operand A>
auto Abs(const A& a) {
  return expression::MakeUnary(UnaryOp::kAbs, a);
}
template <expression::Operand A>
auto Sqrt(const A& a) {
  return expression::MakeUnary(UnaryOp::kSqrt, a);
}
template <expression::Operand A>
auto Not(const A& a) {
  return expression::MakeUnary(UnaryOp::kNot, a);
}

// mask != 0 ? a : b elementwise (numpy's where); any of the three may be a number.
template <class M, class A, class B>
requires expression::Term<M> && expression::Term<A> && expression::Term<B>
auto Where(const M& mask, const A& a, const B& b) {
  using expression::AsNode;
  return expression::Select<decltype(AsNode(mask)), decltype(AsNode(a)), decltype(AsNode(b))>{
      AsNode(mask), AsNode(a), AsNode(b)};
}

// x rounded to `dtype` and back, as CopyInto casts an f32 (see the top of this file).
template <expression::Operand A>
auto Cast(const A& a, DType dtype) {
  return expression::CastTo<decltype(expression::AsNode(a))>{dtype, expression::AsNode(a)};
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
// A whole reduction of the program's values: Sum and Mean in C order of the broadcast shape
// (Sum's order and bits; Mean divides that sum by the count), Min and Max exact.
Result<double> ReduceProgram(ReduceOp op, const ExpressionProgram& program);
inline Result<double> SumProgram(const ExpressionProgram& program) {
  return ReduceProgram(ReduceOp::kSum, program);
}

template <expression::Operand T>
Status Evaluate(const TensorView& out, const T& term, ThreadPool* pool = nullptr) {
  return EvaluateProgram(out, Record(term), pool);
}

// An expression checked once and evaluated many times (as PreparedElementwise): Prepare makes
// every check of Evaluate and keeps copies of the expression's views and of out; Run evaluates it
// again on their current values, with no check, no recording and no allocation. The caller keeps
// the memory alive and unchanged in layout (and the pool alive) while it runs the expression.
//
//   Result<PreparedExpression> step = PreparedExpression::Prepare(p, p + v * dt);
//   for (...) step->Run();
class PreparedExpression {
 public:
  // The errors of Evaluate, for the same operands.
  template <expression::Operand T>
  static Result<PreparedExpression> Prepare(const TensorView& out, const T& term,
                                            ThreadPool* pool = nullptr) {
    return PrepareProgram(out, Record(term), pool);
  }
  static Result<PreparedExpression> PrepareProgram(const TensorView& out,
                                                   const ExpressionProgram& program,
                                                   ThreadPool* pool = nullptr);
  void Run() const;

  // The program points at this object's own views, so a copy or move points it at the new copy's.
  PreparedExpression(const PreparedExpression& other) { *this = other; }
  PreparedExpression& operator=(const PreparedExpression& other) {
    views_ = other.views_;
    program_ = other.program_;
    out_ = other.out_;
    layout_ = other.layout_;
    store_ = other.store_;
    pool_ = other.pool_;
    PointAtOwnViews();
    return *this;
  }

 private:
  PreparedExpression() = default;
  void PointAtOwnViews() {
    for (size_t v = 0; v < program_.view_count; ++v) program_.views[v] = &views_[v];
  }
  std::array<TensorView, kMaxExpressionViews> views_;
  ExpressionProgram program_;
  TensorView out_;
  expression::Layout layout_;
  expression::Store store_;
  ThreadPool* pool_ = nullptr;
};

// Reductions of expressions (of views alone, the overloads of swarm/tensor/tensor_ops.h run).
template <expression::Operand T>
requires(!std::same_as<T, TensorView>) Result<double> Sum(const T& term) {
  return ReduceProgram(ReduceOp::kSum, Record(term));
}
template <expression::Operand T>
requires(!std::same_as<T, TensorView>) Result<double> Mean(const T& term) {
  return ReduceProgram(ReduceOp::kMean, Record(term));
}
template <expression::Operand T>
requires(!std::same_as<T, TensorView>) Result<float> Min(const T& term) {
  Result<double> result = ReduceProgram(ReduceOp::kMin, Record(term));
  if (!result.ok()) return result.status();
  return static_cast<float>(result.value());
}
template <expression::Operand T>
requires(!std::same_as<T, TensorView>) Result<float> Max(const T& term) {
  Result<double> result = ReduceProgram(ReduceOp::kMax, Record(term));
  if (!result.ok()) return result.status();
  return static_cast<float>(result.value());
}

}  // namespace swarm
