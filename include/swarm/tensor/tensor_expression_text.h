// Expressions written as text, numexpr-style, for the C API and Python:
//
//   const NamedView views[] = {{"a", &a}, {"b", &b}, {"c", &c}};
//   Result<ExpressionProgram> program = ParseExpression("(a - b) * c + 2", views);
//   if (program.ok()) Status s = EvaluateProgram(out, program.value());
//
// The text is parsed once into the program Evaluate runs (swarm/tensor/tensor_expression.h), so
// it runs exactly as the same expression written in C++ does: one pass per tile, the same bits as
// the operations one by one. Grammar (Python's and numexpr's precedence, left to right; spaces
// anywhere between tokens):
//   expr     := or_expr (compare or_expr)?           (one comparison: a < b < c is an error)
//   compare  := '<' | '<=' | '>' | '>=' | '==' | '!='  (1 where true, 0 elsewhere)
//   or_expr  := and_expr ('|' and_expr)*              (logical or: not zero is true)
//   and_expr := sum ('&' sum)*                        (logical and)
//   sum      := product (('+' | '-') product)*
//   product  := unary (('*' | '/') unary)*
//   unary    := ('-' | '+' | '~') unary | primary    (negation: the sign bit; ~: logical not)
//   primary  := number | name | '(' expr ')' | function '(' expr ',' expr ')'
//               | ('abs' | 'sqrt' | dtype) '(' expr ')'
//               | 'where' '(' expr ',' expr ',' expr ')'
//   function := minimum | maximum | min | max         (Elementwise's min and max)
//   dtype    := f32 | f64 | f16 | bf16 | bool | s8 | ... | u64: Cast to that dtype
// As in numpy, & and | bind tighter than comparisons: write (a > 0) & (b < 1).
//   number   := digits with an optional '.', fraction and exponent ("2", "0.5", "1e-3", ".5"),
//               rounded to the nearest float
//   name     := a letter or '_', then letters, digits or '_': one of the views given
// Errors name the problem, the token and its position (counting from 0): an unknown name (and the
// names given), an unexpected or missing token, a malformed number, an empty expression, more
// views or operations than a program holds, nesting deeper than 200 levels. The text is untrusted
// input: any bytes give a program or an error (tests/fuzz/expression_fuzzer.cc).
#pragma once

#include <span>
#include <string_view>

#include "swarm/core/status.h"
#include "swarm/tensor/tensor.h"
#include "swarm/tensor/tensor_expression.h"

namespace swarm {

struct NamedView {
  std::string_view name;
  const TensorView* view;
};

// The program of `text` over `views`. Each view's name must differ from the others' (a name
// given twice is an error naming it); a name the text uses twice is one view of the program.
// The program points at the views, which must outlive it.
Result<ExpressionProgram> ParseExpression(std::string_view text, std::span<const NamedView> views);

}  // namespace swarm
