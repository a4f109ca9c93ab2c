// libFuzzer harness for text expressions (swarm/tensor/tensor_expression_text.h), which reach
// swarm from Python and C callers: any bytes are parsed over four small views (a f32[3][4] with a
// NaN, b f32[4], c f16[3][1], m bool[3][4]). Besides the sanitizers (the parser's recursion, reads
// past the text), each input checks the parser's promises: an error is a message naming the
// expression; a program stays within its limits, every operand names a view or an earlier step,
// and it runs: its sum always, and into an f32[3][4] out whenever its views broadcast to that
// shape, twice with the same bits. Build and run: `make fuzz` (see the Makefile).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>

#include "swarm/core/memory.h"
#include "swarm/tensor/tensor.h"
#include "swarm/tensor/tensor_expression.h"
#include "swarm/tensor/tensor_expression_text.h"
#include "tests/fuzz/require.h"

namespace {

using swarm::fuzz::Require;

bool OperandValid(const swarm::ExpressionProgram& program,
                  const swarm::ExpressionProgram::Operand& operand, size_t step) {
  using Kind = swarm::ExpressionProgram::Operand::Kind;
  switch (operand.kind) {
    case Kind::kView:
      return operand.index < program.view_count;
    case Kind::kStep:
      return operand.index < step;
    case Kind::kConstant:
      return true;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace swarm;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  static float a_values[12] = {1.0f, -2.0f,  0.5f,   std::numeric_limits<float>::quiet_NaN(),
                               0.0f, -0.0f,  3.0f,   std::numeric_limits<float>::infinity(),
                               7.0f, -1e30f, 1e-40f, 2.0f};
  static float b_values[4] = {0.25f, -4.0f, 65504.0f, 1.5f};
  static Float16 c_values[3] = {ToFloat16(1.0), ToFloat16(-0.5), ToFloat16(1e9)};
  static Bool m_values[12] = {{1}, {0}, {7}, {1}, {0}, {0}, {1}, {255}, {0}, {1}, {1}, {0}};
  const int64_t shape_3x4[] = {3, 4};
  const int64_t shape_4[] = {4};
  const int64_t shape_3x1[] = {3, 1};
  const TensorView a = TensorView::Contiguous(a_values, DType::kF32, shape_3x4).value();
  const TensorView b = TensorView::Contiguous(b_values, DType::kF32, shape_4).value();
  const TensorView c = TensorView::Contiguous(c_values, DType::kF16, shape_3x1).value();
  const TensorView m = TensorView::Contiguous(m_values, DType::kBool, shape_3x4).value();
  const NamedView views[] = {{"a", &a}, {"b", &b}, {"c", &c}, {"m", &m}};

  Result<ExpressionProgram> parsed = ParseExpression(text, views);
  if (!parsed.ok()) {
    Require(parsed.status().message().rfind("expression \"", 0) == 0);
    return 0;
  }
  const ExpressionProgram& program = parsed.value();
  Require(program.view_count <= kMaxExpressionViews && program.view_count <= 4);
  Require(program.step_count <= kMaxExpressionSteps);
  for (size_t s = 0; s < program.step_count; ++s) {
    const ExpressionProgram::Step& step = program.steps[s];
    Require(OperandValid(program, step.a, s));
    if (step.kind != ExpressionProgram::Step::Kind::kUnary)
      Require(OperandValid(program, step.b, s));
    if (step.kind == ExpressionProgram::Step::Kind::kSelect)
      Require(OperandValid(program, step.c, s));
  }
  Require(OperandValid(program, program.result, program.step_count));

  Require(SumProgram(program).ok());
  float out_values[2][12];
  const TensorView out0 = TensorView::Contiguous(out_values[0], DType::kF32, shape_3x4).value();
  const TensorView out1 = TensorView::Contiguous(out_values[1], DType::kF32, shape_3x4).value();
  const Status first = EvaluateProgram(out0, program);
  if (!first.ok()) {
    // Only a program whose views broadcast to another shape cannot fill f32[3][4].
    Require(first.message().find("broadcast to shape") != std::string::npos);
    return 0;
  }
  Require(EvaluateProgram(out1, program).ok());
  Require(std::memcmp(out_values[0], out_values[1], sizeof(out_values[0])) == 0);
  return 0;
}
