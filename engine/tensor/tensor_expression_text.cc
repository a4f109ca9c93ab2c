#include "swarm/tensor/tensor_expression_text.h"

#include <array>
#include <cctype>
#include <charconv>
#include <string>
#include <system_error>

#include "swarm/core/text.h"

namespace swarm {
namespace {

using Operand = ExpressionProgram::Operand;

bool NameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool NamePart(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool Digit(char c) { return std::isdigit(static_cast<unsigned char>(c)); }

// A recursive-descent parser over the grammar of the header, appending to one program.
class Parser {
 public:
  Parser(std::string_view text, std::span<const NamedView> views) : text_(text), views_(views) {}

  Result<ExpressionProgram> Parse() {
    SkipSpaces();
    if (position_ == text_.size()) return Error("the expression is empty", 0);
    Result<Operand> result = Expression();
    if (!result.ok()) return result.status();
    SkipSpaces();
    if (position_ != text_.size()) return Unexpected();
    if (program_.views_wanted > kMaxExpressionViews ||
        program_.steps_wanted > kMaxExpressionSteps) {
      return Error("the expression has " + std::to_string(program_.views_wanted) + " views and " +
                       std::to_string(program_.steps_wanted) + " operations; at most " +
                       std::to_string(kMaxExpressionViews) + " and " +
                       std::to_string(kMaxExpressionSteps) + " are allowed",
                   0);
    }
    program_.result = result.value();
    return program_;
  }

 private:
  // or_expr, then at most one comparison.
  Result<Operand> Expression() {
    Result<Operand> left = OrExpression();
    if (!left.ok()) return left;
    BinaryOp op;
    size_t at = position_;
    if (!Comparison(&op, &at)) return left;
    Result<Operand> right = OrExpression();
    if (!right.ok()) return right;
    size_t again = position_;
    if (BinaryOp unused; Comparison(&unused, &again)) {
      return Error("comparisons do not chain (write (a < b) & (b < c))", again);
    }
    return program_.AddStep(op, left.value(), right.value());
  }

  // Reads a comparison operator if one is next; *at is where it starts.
  bool Comparison(BinaryOp* op, size_t* at) {
    SkipSpaces();
    *at = position_;
    const char c = Peek();
    const char next = position_ + 1 < text_.size() ? text_[position_ + 1] : '\0';
    if (c == '<' || c == '>') {
      const bool equal = next == '=';
      *op = c == '<' ? (equal ? BinaryOp::kLessEqual : BinaryOp::kLess)
                     : (equal ? BinaryOp::kGreaterEqual : BinaryOp::kGreater);
      position_ += equal ? 2 : 1;
      return true;
    }
    if ((c == '=' || c == '!') && next == '=') {
      *op = c == '=' ? BinaryOp::kEqual : BinaryOp::kNotEqual;
      position_ += 2;
      return true;
    }
    return false;
  }

  Result<Operand> OrExpression() {
    return LeftToRight([this] { return AndExpression(); }, '|', BinaryOp::kOr, '|', BinaryOp::kOr);
  }
  Result<Operand> AndExpression() {
    return LeftToRight([this] { return Sum(); }, '&', BinaryOp::kAnd, '&', BinaryOp::kAnd);
  }
  Result<Operand> Sum() {
    return LeftToRight([this] { return Product(); }, '+', BinaryOp::kAdd, '-', BinaryOp::kSub);
  }
  Result<Operand> Product() {
    return LeftToRight([this] { return Unary(); }, '*', BinaryOp::kMul, '/', BinaryOp::kDiv);
  }

  // operand ((first | second) operand)*, applied left to right; next() parses an operand.
  template <class Next>
  Result<Operand> LeftToRight(const Next& next, char first, BinaryOp first_op, char second,
                              BinaryOp second_op) {
    Result<Operand> left = next();
    if (!left.ok()) return left;
    while (true) {
      SkipSpaces();
      const char c = Peek();
      if (c != first && c != second) return left;
      ++position_;
      Result<Operand> right = next();
      if (!right.ok()) return right;
      left = program_.AddStep(c == first ? first_op : second_op, left.value(), right.value());
    }
  }

  Result<Operand> Unary() {
    SkipSpaces();
    // Every level of nesting (parentheses, calls, unary signs) passes here once: bounding the
    // depth bounds the parser's recursion, so no text can overflow the stack.
    if (depth_ == kMaxDepth) {
      return Error("the expression nests deeper than " + std::to_string(kMaxDepth) + " levels",
                   position_);
    }
    const DepthGuard guard(depth_);
    const char c = Peek();
    if (c == '-' || c == '+' || c == '~') {
      ++position_;
      Result<Operand> operand = Unary();
      if (!operand.ok() || c == '+') return operand;
      return program_.AddUnary(c == '-' ? UnaryOp::kNeg : UnaryOp::kNot, operand.value());
    }
    return Primary();
  }

  // Parentheses, calls and signs nested deeper than this are refused (a program holds 32
  // operations, so deeper nesting is mostly parentheses around nothing).
  static constexpr size_t kMaxDepth = 200;
  struct DepthGuard {
    explicit DepthGuard(size_t& depth) : depth_(depth) { ++depth_; }
    ~DepthGuard() { --depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;
    size_t& depth_;
  };

  Result<Operand> Primary() {
    SkipSpaces();
    const size_t start = position_;
    const char c = Peek();
    if (c == '(') {
      ++position_;
      Result<Operand> inner = Expression();
      if (!inner.ok()) return inner;
      if (Status s = Expect(')'); !s.ok()) return s;
      return inner;
    }
    if (Digit(c) || c == '.') return Number();
    if (!NameStart(c)) return Unexpected();
    while (position_ < text_.size() && NamePart(text_[position_])) ++position_;
    const std::string_view name = text_.substr(start, position_ - start);
    SkipSpaces();
    if (Peek() == '(') return Call(name, start);
    for (size_t v = 0; v < views_.size(); ++v) {
      if (views_[v].name != name) continue;
      // A name used again is the same view of the program.
      if (bound_[v] < 0) bound_[v] = static_cast<int>(program_.AddView(*views_[v].view).index);
      return Operand{Operand::Kind::kView, static_cast<uint8_t>(bound_[v]), 0.0f};
    }
    std::string known;
    for (const NamedView& view : views_)
      known += (known.empty() ? "" : ", ") + std::string(view.name);
    return Error("unknown name '" + std::string(name) +
                     "' (names given: " + (known.empty() ? "none" : known) + ")",
                 start);
  }

  // name '(' arguments ')', at the '('.
  Result<Operand> Call(std::string_view name, size_t start) {
    size_t arity;
    if (name == "sqrt" || name == "abs" || ParseDType(name).ok()) {
      arity = 1;
    } else if (name == "minimum" || name == "min" || name == "maximum" || name == "max") {
      arity = 2;
    } else if (name == "where") {
      arity = 3;
    } else {
      return Error("unknown function '" + std::string(name) +
                       "' (functions: minimum, maximum, min, max, abs, sqrt, where, and the "
                       "dtype names as casts: f32, f16, bf16, bool, u8, s32, ...)",
                   start);
    }
    ++position_;  // '('
    Operand arguments[3];
    for (size_t i = 0; i < arity; ++i) {
      if (i > 0) {
        if (Status s = Expect(','); !s.ok()) return s;
      }
      Result<Operand> argument = Expression();
      if (!argument.ok()) return argument;
      arguments[i] = argument.value();
    }
    if (Status s = Expect(')'); !s.ok()) return s;
    if (arity == 3) return program_.AddSelect(arguments[0], arguments[1], arguments[2]);
    if (arity == 2) {
      const bool min = name == "minimum" || name == "min";
      return program_.AddStep(min ? BinaryOp::kMin : BinaryOp::kMax, arguments[0], arguments[1]);
    }
    if (name == "sqrt" || name == "abs") {
      return program_.AddUnary(name == "sqrt" ? UnaryOp::kSqrt : UnaryOp::kAbs, arguments[0]);
    }
    const DType dtype = ParseDType(name).value();
    if (dtype == DType::kC64 || dtype == DType::kC128) {
      return Error("cannot cast to " + std::string(name) +
                       ": expressions compute real values (cast to a real dtype)",
                   start);
    }
    return program_.AddCast(dtype, arguments[0]);
  }

  Result<Operand> Number() {
    const size_t start = position_;
    while (position_ < text_.size() && (Digit(text_[position_]) || text_[position_] == '.')) {
      ++position_;
    }
    if (position_ < text_.size() && (text_[position_] == 'e' || text_[position_] == 'E')) {
      ++position_;
      if (position_ < text_.size() && (text_[position_] == '+' || text_[position_] == '-')) {
        ++position_;
      }
      while (position_ < text_.size() && Digit(text_[position_])) ++position_;
    }
    const std::string_view token = text_.substr(start, position_ - start);
    float value = 0.0f;
    const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (error != std::errc() || end != token.data() + token.size()) {
      return Error("malformed number '" + std::string(token) + "'", start);
    }
    return Constant(value);
  }

  static Operand Constant(float value) { return {Operand::Kind::kConstant, 0, value}; }

  Status Expect(char wanted) {
    SkipSpaces();
    if (Peek() == wanted) {
      ++position_;
      return {};
    }
    if (position_ == text_.size()) {
      return Error(std::string("expected '") + wanted + "' but the expression ended", position_);
    }
    return Error(std::string("expected '") + wanted + "' but found " + Token(), position_);
  }

  Status Unexpected() {
    if (position_ == text_.size()) return Error("the expression ended too soon", position_);
    return Error("unexpected " + Token(), position_);
  }

  Status Error(const std::string& what, size_t at) const {
    // The text is untrusted: quoted with its unprintable bytes escaped, and cut after 120 bytes.
    return InvalidArgument("expression " + Quoted(text_, '"', 120) + ": " + what + " at position " +
                           std::to_string(at));
  }

  // The byte at the position, quoted (escaped if unprintable).
  std::string Token() const { return Quoted(text_.substr(position_, 1)); }

  char Peek() const { return position_ < text_.size() ? text_[position_] : '\0'; }
  void SkipSpaces() {
    while (position_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[position_]))) {
      ++position_;
    }
  }

  std::string_view text_;
  std::span<const NamedView> views_;
  size_t position_ = 0;
  size_t depth_ = 0;
  ExpressionProgram program_;
  std::array<int, 64> bound_ = [] {
    std::array<int, 64> unbound;
    unbound.fill(-1);
    return unbound;
  }();
};

}  // namespace

Result<ExpressionProgram> ParseExpression(std::string_view text, std::span<const NamedView> views) {
  if (views.size() > 64) {
    return InvalidArgument("expression \"" + std::string(text) +
                           "\": " + std::to_string(views.size()) + " names given, at most 64");
  }
  // Two views of one name would leave the text ambiguous: which one does `a` mean?
  for (size_t later = 1; later < views.size(); ++later) {
    for (size_t earlier = 0; earlier < later; ++earlier) {
      if (views[earlier].name != views[later].name) continue;
      return InvalidArgument("expression \"" + std::string(text) + "\": the name '" +
                             std::string(views[later].name) + "' is given twice (operands " +
                             std::to_string(earlier) + " and " + std::to_string(later) + ")");
    }
  }
  return Parser(text, views).Parse();
}

}  // namespace swarm
