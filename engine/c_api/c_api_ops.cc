// C API: elementwise arithmetic and reductions on f32 tensor views (swarm/tensor/tensor_ops.h),
// and fused expressions (swarm/tensor/tensor_expression.h), evaluated once or prepared.
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/c_api/c_api_internal.h"
#include "swarm/tensor/tensor_expression.h"
#include "swarm/tensor/tensor_expression_text.h"
#include "swarm/tensor/tensor_ops.h"

namespace swarm::c_api {
namespace {

static_assert(static_cast<int>(BinaryOp::kAdd) == SWARM_OP_ADD &&
              static_cast<int>(BinaryOp::kDiv) == SWARM_OP_DIV &&
              static_cast<int>(BinaryOp::kMax) == SWARM_OP_MAX &&
              static_cast<int>(BinaryOp::kLess) == SWARM_OP_LESS &&
              static_cast<int>(BinaryOp::kOr) == SWARM_OP_OR);
static_assert(static_cast<int>(ReduceOp::kSum) == SWARM_REDUCE_SUM &&
              static_cast<int>(ReduceOp::kMin) == SWARM_REDUCE_MIN &&
              static_cast<int>(ReduceOp::kMax) == SWARM_REDUCE_MAX);

// The operation a C caller passed, or an error naming the value (any int may arrive).
template <typename Op, typename CEnum>
Result<Op> ToOp(const CEnum& op, Op last) {
  const int value = EnumValue(op);
  if (value < 0 || value > static_cast<int>(last)) {
    return InvalidArgument("operation " + std::to_string(value) + " is not one of 0.." +
                           std::to_string(static_cast<int>(last)));
  }
  return static_cast<Op>(value);
}

// Widens a Result<float> or Result<double> into *out.
template <typename T>
swarm_status Store(const char* function, Result<T> value, double* out) {
  if (!value.ok()) return Report(function, value.status());
  *out = static_cast<double>(value.value());
  return SWARM_OK;
}

// The program of a C caller's expression over its named tensors.
swarm_status ParseFor(const char* function, const char* expression, const char* const* names,
                      const swarm_tensor* tensors, size_t count,
                      Result<ExpressionProgram>* program) {
  if (expression == nullptr) return NullArgument(function, "expression");
  if (count > 0 && names == nullptr) return NullArgument(function, "names");
  if (count > 0 && tensors == nullptr) return NullArgument(function, "tensors");
  std::vector<NamedView> views;
  for (size_t i = 0; i < count; ++i) {
    if (names[i] == nullptr)
      return NullArgument(function, ("names[" + std::to_string(i) + "]").c_str());
    if (tensors[i] == nullptr) {
      return NullArgument(function, ("tensors[" + std::to_string(i) + "]").c_str());
    }
    views.push_back({names[i], &tensors[i]->view});
  }
  *program = ParseExpression(expression, views);
  if (!program->ok()) return Report(function, program->status());
  return SWARM_OK;
}

}  // namespace
}  // namespace swarm::c_api

struct swarm_expression_impl {
  std::shared_ptr<swarm::c_api::ContextState> context;
  std::vector<std::shared_ptr<const void>> owners;  // of the views' memory
  std::optional<swarm::PreparedExpression> prepared;
};

using swarm::BinaryOp;
using swarm::ExpressionProgram;
using swarm::ReduceOp;
using swarm::Result;
using swarm::c_api::Guarded;
using swarm::c_api::NullArgument;
using swarm::c_api::ParseFor;
using swarm::c_api::Report;
using swarm::c_api::Store;
using swarm::c_api::ToOp;

extern "C" {

swarm_status swarm_elementwise(swarm_binary_op op, swarm_tensor a, swarm_tensor b,
                               swarm_tensor out) {
  constexpr const char* kFunction = "swarm_elementwise";
  return Guarded(kFunction, [&]() -> swarm_status {
    Result<BinaryOp> checked = ToOp(op, BinaryOp::kOr);
    if (!checked.ok()) return Report(kFunction, checked.status());
    if (a == nullptr) return NullArgument(kFunction, "a");
    if (b == nullptr) return NullArgument(kFunction, "b");
    if (out == nullptr) return NullArgument(kFunction, "out");
    return Report(kFunction, swarm::Elementwise(checked.value(), a->view, b->view, out->view));
  });
}

swarm_status swarm_evaluate(swarm_context context, const char* expression, const char* const* names,
                            const swarm_tensor* tensors, size_t count, swarm_tensor out) {
  constexpr const char* kFunction = "swarm_evaluate";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (context == nullptr) return NullArgument(kFunction, "context");
    if (out == nullptr) return NullArgument(kFunction, "out");
    Result<ExpressionProgram> program = swarm::InvalidArgument("not parsed");
    if (swarm_status s = ParseFor(kFunction, expression, names, tensors, count, &program);
        s != SWARM_OK) {
      return s;
    }
    const std::shared_ptr<swarm::c_api::ContextState> held = swarm::c_api::HoldContext(context);
    swarm::c_api::ContextState& state = *held;
    std::lock_guard<std::mutex> lock(state.kernel_mutex);  // the pool runs one batch at a time
    return Report(kFunction, swarm::EvaluateProgram(out->view, program.value(), &state.pool));
  });
}

swarm_status swarm_expression_prepare(swarm_context context, const char* expression,
                                      const char* const* names, const swarm_tensor* tensors,
                                      size_t count, swarm_tensor out, swarm_expression* prepared) {
  constexpr const char* kFunction = "swarm_expression_prepare";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (context == nullptr) return NullArgument(kFunction, "context");
    if (out == nullptr) return NullArgument(kFunction, "out");
    if (prepared == nullptr) return NullArgument(kFunction, "prepared");
    Result<ExpressionProgram> program = swarm::InvalidArgument("not parsed");
    if (swarm_status s = ParseFor(kFunction, expression, names, tensors, count, &program);
        s != SWARM_OK) {
      return s;
    }
    auto handle = std::make_unique<swarm_expression_impl>();
    handle->context = swarm::c_api::HoldContext(context);
    Result<swarm::PreparedExpression> checked = swarm::PreparedExpression::PrepareProgram(
        out->view, program.value(), &handle->context->pool);
    if (!checked.ok()) return Report(kFunction, checked.status());
    handle->prepared.emplace(checked.value());
    for (size_t i = 0; i < count; ++i) handle->owners.push_back(tensors[i]->owner);
    handle->owners.push_back(out->owner);
    *prepared = handle.release();
    return SWARM_OK;
  });
}

swarm_status swarm_expression_run(swarm_expression prepared) {
  constexpr const char* kFunction = "swarm_expression_run";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (prepared == nullptr) return NullArgument(kFunction, "prepared");
    std::lock_guard<std::mutex> lock(prepared->context->kernel_mutex);
    prepared->prepared->Run();
    return SWARM_OK;
  });
}

void swarm_expression_destroy(swarm_expression prepared) { delete prepared; }

swarm_status swarm_evaluate_sum(const char* expression, const char* const* names,
                                const swarm_tensor* tensors, size_t count, double* out) {
  constexpr const char* kFunction = "swarm_evaluate_sum";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (out == nullptr) return NullArgument(kFunction, "out");
    Result<ExpressionProgram> program = swarm::InvalidArgument("not parsed");
    if (swarm_status s = ParseFor(kFunction, expression, names, tensors, count, &program);
        s != SWARM_OK) {
      return s;
    }
    return Store(kFunction, swarm::SumProgram(program.value()), out);
  });
}

swarm_status swarm_evaluate_reduce(swarm_reduce_op op, const char* expression,
                                   const char* const* names, const swarm_tensor* tensors,
                                   size_t count, double* out) {
  constexpr const char* kFunction = "swarm_evaluate_reduce";
  return Guarded(kFunction, [&]() -> swarm_status {
    Result<ReduceOp> checked = ToOp(op, ReduceOp::kMax);
    if (!checked.ok()) return Report(kFunction, checked.status());
    if (out == nullptr) return NullArgument(kFunction, "out");
    Result<ExpressionProgram> program = swarm::InvalidArgument("not parsed");
    if (swarm_status s = ParseFor(kFunction, expression, names, tensors, count, &program);
        s != SWARM_OK) {
      return s;
    }
    return Store(kFunction, swarm::ReduceProgram(checked.value(), program.value()), out);
  });
}

swarm_status swarm_tensor_reduce_all(swarm_reduce_op op, swarm_tensor tensor, double* out) {
  constexpr const char* kFunction = "swarm_tensor_reduce_all";
  return Guarded(kFunction, [&]() -> swarm_status {
    Result<ReduceOp> checked = ToOp(op, ReduceOp::kMax);
    if (!checked.ok()) return Report(kFunction, checked.status());
    if (tensor == nullptr) return NullArgument(kFunction, "tensor");
    if (out == nullptr) return NullArgument(kFunction, "out");
    switch (checked.value()) {
      case ReduceOp::kSum:
        return Store(kFunction, swarm::Sum(tensor->view), out);
      case ReduceOp::kMean:
        return Store(kFunction, swarm::Mean(tensor->view), out);
      case ReduceOp::kMin:
        return Store(kFunction, swarm::Min(tensor->view), out);
      case ReduceOp::kMax:
        return Store(kFunction, swarm::Max(tensor->view), out);
    }
    return SWARM_OK;  // unreachable: every ReduceOp is handled above
  });
}

swarm_status swarm_tensor_reduce(swarm_reduce_op op, swarm_tensor tensor, size_t axis,
                                 swarm_tensor out) {
  constexpr const char* kFunction = "swarm_tensor_reduce";
  return Guarded(kFunction, [&]() -> swarm_status {
    Result<ReduceOp> checked = ToOp(op, ReduceOp::kMax);
    if (!checked.ok()) return Report(kFunction, checked.status());
    if (tensor == nullptr) return NullArgument(kFunction, "tensor");
    if (out == nullptr) return NullArgument(kFunction, "out");
    return Report(kFunction, swarm::Reduce(checked.value(), tensor->view, axis, out->view));
  });
}

}  // extern "C"
