// Tests for the C API's arithmetic and kernels (engine/c_api/c_api_ops.cc,
// engine/c_api/c_api_kernels.cc): results against naive scalar loops written here (elementwise with
// broadcasting, reductions, Euler integration, a separable Gaussian with reflect-101 borders), and
// every kind of bad input with its message and the destination left unchanged.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "swarm/c_api/swarm_c.h"
#include "tests/engine/c_api/c_api_test_support.h"

namespace swarm::test {
namespace {

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

// Writes f(index) into every element of a rank-2 f32 view.
template <typename F>
void Fill2d(swarm_tensor tensor, F&& f) {
  const swarm_tensor_info info = Info(tensor);
  for (int64_t i = 0; i < info.shape[0]; ++i) {
    for (int64_t j = 0; j < info.shape[1]; ++j) *ElementOf<float>(info, {i, j}) = f(i, j);
  }
}

// a f32[3][4] (values 0.5 (4i + j) - 2), a row b f32[4] (j - 1.5) and an out f32[3][4].
struct RowOperands {
  ContextPtr context = MakeContext();
  BufferPtr a = MakeTensorBuffer(context.get(), SWARM_F32, {3, 4});
  BufferPtr b = MakeTensorBuffer(context.get(), SWARM_F32, {4});
  BufferPtr out = MakeTensorBuffer(context.get(), SWARM_F32, {3, 4});
  TensorPtr a_view = ViewOf(a.get());
  TensorPtr b_view = ViewOf(b.get());
  TensorPtr out_view = ViewOf(out.get());
  float* row = static_cast<float*>(Info(b_view.get()).data);

  RowOperands() {
    Fill2d(a_view.get(), [](int64_t i, int64_t j) { return 0.5f * float(i * 4 + j) - 2.0f; });
    for (int j = 0; j < 4; ++j) row[j] = float(j) - 1.5f;
  }
};

TEST_CASE("elementwise ops broadcast like numpy and match scalar arithmetic exactly") {
  RowOperands operands;
  const TensorPtr& a_view = operands.a_view;
  const TensorPtr& b_view = operands.b_view;
  const TensorPtr& out_view = operands.out_view;
  const ContextPtr& context = operands.context;
  const float* row = operands.row;

  auto reference = [](swarm_binary_op op, float x, float y) {
    switch (op) {
      case SWARM_OP_ADD:
        return x + y;
      case SWARM_OP_SUB:
        return x - y;
      case SWARM_OP_MUL:
        return x * y;
      case SWARM_OP_DIV:
        return x / y;
      case SWARM_OP_MIN:
        return y < x ? y : x;
      case SWARM_OP_MAX:
        return y > x ? y : x;
      case SWARM_OP_LESS:
        return x < y ? 1.0f : 0.0f;
      case SWARM_OP_LESS_EQUAL:
        return x <= y ? 1.0f : 0.0f;
      case SWARM_OP_GREATER:
        return x > y ? 1.0f : 0.0f;
      case SWARM_OP_GREATER_EQUAL:
        return x >= y ? 1.0f : 0.0f;
      case SWARM_OP_EQUAL:
        return x == y ? 1.0f : 0.0f;
      case SWARM_OP_NOT_EQUAL:
        return x != y ? 1.0f : 0.0f;
      case SWARM_OP_AND:
        return x != 0.0f && y != 0.0f ? 1.0f : 0.0f;
      case SWARM_OP_OR:
        return x != 0.0f || y != 0.0f ? 1.0f : 0.0f;
    }
    return 0.0f;
  };
  const swarm_tensor_info a_info = Info(a_view.get());
  const swarm_tensor_info out_info = Info(out_view.get());
  for (int op = SWARM_OP_ADD; op <= SWARM_OP_OR; ++op) {
    INFO("op " << op);
    REQUIRE(swarm_elementwise(static_cast<swarm_binary_op>(op), a_view.get(), b_view.get(),
                              out_view.get()) == SWARM_OK);
    for (int64_t i = 0; i < 3; ++i) {
      for (int64_t j = 0; j < 4; ++j) {
        CHECK(*ElementOf<float>(out_info, {i, j}) == reference(static_cast<swarm_binary_op>(op),
                                                               *ElementOf<float>(a_info, {i, j}),
                                                               row[j]));
      }
    }
  }

  Fill2d(out_view.get(), [](int64_t, int64_t) { return 42.0f; });
  auto unchanged = [&] {
    for (int64_t i = 0; i < 3; ++i) {
      for (int64_t j = 0; j < 4; ++j) CHECK(*ElementOf<float>(out_info, {i, j}) == 42.0f);
    }
  };
  CHECK(swarm_elementwise(static_cast<swarm_binary_op>(14), a_view.get(), b_view.get(),
                          out_view.get()) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_elementwise: operation 14 is not one of 0..13");
  BufferPtr ints = MakeTensorBuffer(context.get(), SWARM_S32, {4});
  TensorPtr ints_view = ViewOf(ints.get());
  CHECK(swarm_elementwise(SWARM_OP_ADD, a_view.get(), ints_view.get(), out_view.get()) ==
        SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), StartsWith("swarm_elementwise: ") && Contains("f32"));
  BufferPtr five = MakeTensorBuffer(context.get(), SWARM_F32, {5});
  TensorPtr five_view = ViewOf(five.get());
  CHECK(swarm_elementwise(SWARM_OP_ADD, a_view.get(), five_view.get(), out_view.get()) ==
        SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), Contains("f32[3][4]") && Contains("f32[5]"));
  swarm_tensor frozen = nullptr;
  REQUIRE(swarm_tensor_read_only(out_view.get(), &frozen) == SWARM_OK);
  CHECK(swarm_elementwise(SWARM_OP_ADD, a_view.get(), b_view.get(), frozen) ==
        SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), Contains("read-only"));
  swarm_tensor_destroy(frozen);
  CHECK(swarm_elementwise(SWARM_OP_ADD, nullptr, b_view.get(), out_view.get()) ==
        SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_elementwise: a is null");
  CHECK(swarm_elementwise(SWARM_OP_ADD, a_view.get(), b_view.get(), nullptr) ==
        SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_elementwise: out is null");
  unchanged();
}

TEST_CASE("swarm_evaluate runs a text expression as the ops one by one, and names errors") {
  RowOperands operands;
  const TensorPtr& a_view = operands.a_view;
  const TensorPtr& b_view = operands.b_view;
  const TensorPtr& out_view = operands.out_view;
  const ContextPtr& context = operands.context;
  const float* row = operands.row;
  const char* names[] = {"a", "b"};
  const swarm_tensor tensors[] = {a_view.get(), b_view.get()};
  REQUIRE(swarm_evaluate(context.get(), "(a - b) * a + 2", names, tensors, 2, out_view.get()) ==
          SWARM_OK);
  const swarm_tensor_info a_info = Info(a_view.get());
  const swarm_tensor_info out_info = Info(out_view.get());
  double total = 0.0;
  for (int64_t i = 0; i < 3; ++i) {
    for (int64_t j = 0; j < 4; ++j) {
      const float x = *ElementOf<float>(a_info, {i, j});
      const float want = (x - row[j]) * x + 2.0f;  // one float rounding per operation
      CHECK(*ElementOf<float>(out_info, {i, j}) == want);
      total += want;
    }
  }
  double sum = 0.0;
  REQUIRE(swarm_evaluate_sum("(a - b) * a + 2", names, tensors, 2, &sum) == SWARM_OK);
  CHECK(sum == Approx(total).epsilon(1e-12));
  // Reductions, comparisons and where: the smallest and largest of where(a > b, a, b), the
  // elementwise maximum, and the count of a > b.
  float lowest = std::numeric_limits<float>::infinity(), highest = -lowest;
  double above = 0.0;
  for (int64_t i = 0; i < 3; ++i) {
    for (int64_t j = 0; j < 4; ++j) {
      const float x = *ElementOf<float>(a_info, {i, j});
      lowest = std::min(lowest, std::max(x, row[j]));
      highest = std::max(highest, std::max(x, row[j]));
      above += x > row[j] ? 1.0 : 0.0;
    }
  }
  double reduced = 0.0;
  REQUIRE(swarm_evaluate_reduce(SWARM_REDUCE_MIN, "where(a > b, a, b)", names, tensors, 2,
                                &reduced) == SWARM_OK);
  CHECK(reduced == lowest);
  REQUIRE(swarm_evaluate_reduce(SWARM_REDUCE_MAX, "where(a > b, a, b)", names, tensors, 2,
                                &reduced) == SWARM_OK);
  CHECK(reduced == highest);
  REQUIRE(swarm_evaluate_reduce(SWARM_REDUCE_MEAN, "a > b", names, tensors, 2, &reduced) ==
          SWARM_OK);
  CHECK(reduced == above / 12.0);
  reduced = 42.0;
  CHECK(swarm_evaluate_reduce(static_cast<swarm_reduce_op>(4), "a", names, tensors, 2, &reduced) ==
        SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_evaluate_reduce: operation 4 is not one of 0..3");
  CHECK(reduced == 42.0);
  Fill2d(out_view.get(), [](int64_t, int64_t) { return 42.0f; });
  CHECK(swarm_evaluate(context.get(), "a + c", names, tensors, 2, out_view.get()) ==
        SWARM_INVALID_ARGUMENT);
  CHECK(LastError() ==
        "swarm_evaluate: expression \"a + c\": unknown name 'c' (names given: a, b) at "
        "position 4");
  CHECK(swarm_evaluate(context.get(), nullptr, names, tensors, 2, out_view.get()) ==
        SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), Contains("expression"));
  CHECK(swarm_evaluate(nullptr, "a", names, tensors, 2, out_view.get()) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_evaluate: context is null");
  const swarm_tensor missing[] = {a_view.get(), nullptr};
  CHECK(swarm_evaluate(context.get(), "a", names, missing, 2, out_view.get()) ==
        SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), Contains("tensors[1]"));
  CHECK(swarm_evaluate_sum("a * b", names, tensors, 2, nullptr) == SWARM_INVALID_ARGUMENT);
  CHECK(*ElementOf<float>(out_info, {0, 0}) == 42.0f);  // nothing written by the failures
}

TEST_CASE("a prepared expression reruns on the tensors' current values and keeps them alive") {
  RowOperands operands;
  const float* row = operands.row;
  const char* names[] = {"a", "b"};
  const swarm_tensor tensors[] = {operands.a_view.get(), operands.b_view.get()};
  swarm_expression prepared = nullptr;
  REQUIRE(swarm_expression_prepare(operands.context.get(), "(a - b) * a", names, tensors, 2,
                                   operands.out_view.get(), &prepared) == SWARM_OK);
  const swarm_tensor_info a_info = Info(operands.a_view.get());
  const swarm_tensor_info out_info = Info(operands.out_view.get());
  // Only the prepared handle holds the views' memory and the context now (ASan would see a read
  // of freed memory otherwise).
  operands.a_view.reset();
  operands.b_view.reset();
  operands.out_view.reset();
  operands.a.reset();
  operands.b.reset();
  operands.out.reset();
  operands.context.reset();
  for (float shift : {0.0f, 1.5f, -3.0f}) {
    for (int64_t i = 0; i < 3; ++i) {
      for (int64_t j = 0; j < 4; ++j) *ElementOf<float>(a_info, {i, j}) += shift;
    }
    REQUIRE(swarm_expression_run(prepared) == SWARM_OK);
    for (int64_t i = 0; i < 3; ++i) {
      for (int64_t j = 0; j < 4; ++j) {
        const float x = *ElementOf<float>(a_info, {i, j});
        CHECK(*ElementOf<float>(out_info, {i, j}) == (x - row[j]) * x);
      }
    }
  }
  swarm_expression_destroy(prepared);
  swarm_expression_destroy(nullptr);
  CHECK(swarm_expression_run(nullptr) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_expression_run: prepared is null");
}

TEST_CASE("swarm_expression_prepare names its errors and returns no handle") {
  RowOperands operands;
  const char* names[] = {"a", "b"};
  const swarm_tensor tensors[] = {operands.a_view.get(), operands.b_view.get()};
  swarm_expression prepared = Sentinel<swarm_expression>();
  CHECK(swarm_expression_prepare(operands.context.get(), "a + c", names, tensors, 2,
                                 operands.out_view.get(), &prepared) == SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), Contains("unknown name 'c'"));
  CHECK(swarm_expression_prepare(operands.context.get(), "a + b", names, tensors, 2,
                                 operands.a_view.get(), &prepared) == SWARM_OK);
  swarm_expression_destroy(prepared);
  prepared = Sentinel<swarm_expression>();
  CHECK(swarm_expression_prepare(nullptr, "a", names, tensors, 2, operands.out_view.get(),
                                 &prepared) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_expression_prepare: context is null");
  CHECK(swarm_expression_prepare(operands.context.get(), "a", names, tensors, 2,
                                 operands.out_view.get(), nullptr) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_expression_prepare: prepared is null");
  CHECK(prepared == Sentinel<swarm_expression>());
}

// Two operands of one name would leave the text ambiguous (which `a`?): every call that parses
// an expression refuses them, naming the name, and writes nothing.
TEST_CASE("expressions refuse two operands of the same name") {
  RowOperands operands;
  const char* names[] = {"a", "b", "a"};
  const swarm_tensor tensors[] = {operands.a_view.get(), operands.b_view.get(),
                                  operands.out_view.get()};
  Fill2d(operands.out_view.get(), [](int64_t, int64_t) { return 42.0f; });
  const std::string message =
      "expression \"a + b\": the name 'a' is given twice (operands 0 and 2)";
  CHECK(swarm_evaluate(operands.context.get(), "a + b", names, tensors, 3,
                       operands.out_view.get()) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_evaluate: " + message);
  double total = 42.0;
  CHECK(swarm_evaluate_sum("a + b", names, tensors, 3, &total) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_evaluate_sum: " + message);
  CHECK(swarm_evaluate_reduce(SWARM_REDUCE_MAX, "a + b", names, tensors, 3, &total) ==
        SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_evaluate_reduce: " + message);
  CHECK(total == 42.0);
  swarm_expression prepared = Sentinel<swarm_expression>();
  CHECK(swarm_expression_prepare(operands.context.get(), "a + b", names, tensors, 3,
                                 operands.out_view.get(), &prepared) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_expression_prepare: " + message);
  CHECK(prepared == Sentinel<swarm_expression>());
  const swarm_tensor_info out_info = Info(operands.out_view.get());
  for (int64_t i = 0; i < 3; ++i) {
    for (int64_t j = 0; j < 4; ++j) CHECK(*ElementOf<float>(out_info, {i, j}) == 42.0f);
  }
}

TEST_CASE("reductions match a double-precision scalar loop") {
  ContextPtr context = MakeContext();
  BufferPtr buffer = MakeTensorBuffer(context.get(), SWARM_F32, {37, 5});
  TensorPtr view = ViewOf(buffer.get());
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> uniform(-10.0f, 10.0f);
  Fill2d(view.get(), [&](int64_t, int64_t) { return uniform(rng); });
  const swarm_tensor_info info = Info(view.get());
  const auto* values = static_cast<const float*>(info.data);
  double sum = 0.0;
  float low = values[0];
  float high = values[0];
  for (int i = 0; i < 37 * 5; ++i) {
    sum += values[i];
    low = std::min(low, values[i]);
    high = std::max(high, values[i]);
  }
  double result = 0.0;
  REQUIRE(swarm_tensor_reduce_all(SWARM_REDUCE_SUM, view.get(), &result) == SWARM_OK);
  CHECK(result == Approx(sum).epsilon(1e-12).margin(1e-12));
  REQUIRE(swarm_tensor_reduce_all(SWARM_REDUCE_MEAN, view.get(), &result) == SWARM_OK);
  CHECK(result == Approx(sum / (37 * 5)).epsilon(1e-12).margin(1e-12));
  REQUIRE(swarm_tensor_reduce_all(SWARM_REDUCE_MIN, view.get(), &result) == SWARM_OK);
  CHECK(result == low);
  REQUIRE(swarm_tensor_reduce_all(SWARM_REDUCE_MAX, view.get(), &result) == SWARM_OK);
  CHECK(result == high);

  // Along axis 0 (37 rows): each out[j] is the f32 rounding of the double sum of column j.
  BufferPtr columns = MakeTensorBuffer(context.get(), SWARM_F32, {5});
  TensorPtr columns_view = ViewOf(columns.get());
  REQUIRE(swarm_tensor_reduce(SWARM_REDUCE_SUM, view.get(), 0, columns_view.get()) == SWARM_OK);
  const auto* column_sums = static_cast<const float*>(Info(columns_view.get()).data);
  for (int j = 0; j < 5; ++j) {
    double expected = 0.0;
    for (int i = 0; i < 37; ++i) expected += values[i * 5 + j];
    CHECK(column_sums[j] == Approx(expected).epsilon(1e-6).margin(1e-5));
  }

  result = 123.0;
  CHECK(swarm_tensor_reduce(SWARM_REDUCE_MAX, view.get(), 2, columns_view.get()) ==
        SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), StartsWith("swarm_tensor_reduce: ") && Contains("axis"));
  CHECK(swarm_tensor_reduce(SWARM_REDUCE_MAX, view.get(), 1, columns_view.get()) ==
        SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), Contains("[37]") && Contains("[5]"));
  BufferPtr empty = MakeTensorBuffer(context.get(), SWARM_F32, {0});
  TensorPtr empty_view = ViewOf(empty.get());
  CHECK(swarm_tensor_reduce_all(SWARM_REDUCE_MIN, empty_view.get(), &result) ==
        SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), StartsWith("swarm_tensor_reduce_all: ") && Contains("empty"));
  // (An operation outside 0..3 cannot be formed in C++ without undefined behaviour: the python
  // tests pass one through ctypes as C callers can.)
  CHECK(swarm_tensor_reduce_all(SWARM_REDUCE_SUM, view.get(), nullptr) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_tensor_reduce_all: out is null");
  CHECK(swarm_tensor_reduce(SWARM_REDUCE_SUM, nullptr, 0, columns_view.get()) ==
        SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_tensor_reduce: tensor is null");
  CHECK(result == 123.0);
  double empty_sum = 1.0;
  REQUIRE(swarm_tensor_reduce_all(SWARM_REDUCE_SUM, empty_view.get(), &empty_sum) == SWARM_OK);
  CHECK(empty_sum == 0.0);
}

TEST_CASE("Euler integration through the C API matches the scalar formula bit for bit") {
  ContextPtr context = MakeContext();
  constexpr int64_t kCount = 37;  // not a multiple of any vector width
  swarm_buffer raw = nullptr;
  REQUIRE(swarm_buffer_create_vec4(context.get(), kCount, &raw) == SWARM_OK);
  BufferPtr positions(raw);
  REQUIRE(swarm_buffer_create_vec4(context.get(), kCount, &raw) == SWARM_OK);
  BufferPtr velocities(raw);
  TensorPtr p_view = ViewOf(positions.get());
  TensorPtr v_view = ViewOf(velocities.get());
  Fill2d(p_view.get(), [](int64_t i, int64_t lane) { return float(i) * (lane + 1) - 3.0f; });
  Fill2d(v_view.get(), [](int64_t i, int64_t lane) { return 0.25f * float(i) - float(lane); });
  const swarm_tensor_info p = Info(p_view.get());
  const swarm_tensor_info v = Info(v_view.get());
  std::vector<float> p0(kCount * 4), v0(kCount * 4);
  for (int64_t i = 0; i < kCount; ++i) {
    for (int64_t lane = 0; lane < 4; ++lane) {
      p0[i * 4 + lane] = *ElementOf<float>(p, {i, lane});
      v0[i * 4 + lane] = *ElementOf<float>(v, {i, lane});
    }
  }
  const swarm_euler_params params{{0.5f, -9.81f, 0.0f}, 0.25f, 0.01f};
  REQUIRE(swarm_integrate_euler(positions.get(), velocities.get(), &params) == SWARM_OK);
  // swarm/kernels/particles/integrate.h: v += (g - k v) dt; p += v dt on x, y, z; w untouched.
  for (int64_t i = 0; i < kCount; ++i) {
    for (int64_t lane = 0; lane < 4; ++lane) {
      float vel = v0[i * 4 + lane];
      float pos = p0[i * 4 + lane];
      if (lane < 3) {
        vel = vel + (params.gravity[lane] - params.drag_per_second * vel) * params.dt_seconds;
        pos = pos + vel * params.dt_seconds;
      }
      INFO("particle " << i << " lane " << lane);
      CHECK(*ElementOf<float>(v, {i, lane}) == vel);
      CHECK(*ElementOf<float>(p, {i, lane}) == pos);
    }
  }
}

TEST_CASE("Euler integration refuses bad buffers and parameters without writing") {
  ContextPtr context = MakeContext();
  swarm_buffer raw = nullptr;
  REQUIRE(swarm_buffer_create_vec4(context.get(), 5, &raw) == SWARM_OK);
  BufferPtr positions(raw);
  REQUIRE(swarm_buffer_create_vec4(context.get(), 5, &raw) == SWARM_OK);
  BufferPtr velocities(raw);
  REQUIRE(swarm_buffer_create_vec4(context.get(), 6, &raw) == SWARM_OK);
  BufferPtr six(raw);
  REQUIRE(swarm_buffer_create_f32_array(context.get(), 5, &raw) == SWARM_OK);
  BufferPtr array(raw);
  TensorPtr v_view = ViewOf(velocities.get());
  Fill2d(v_view.get(), [](int64_t, int64_t) { return 1.0f; });
  const swarm_euler_params params{{0.0f, -9.81f, 0.0f}, 0.0f, 0.1f};

  CHECK(swarm_integrate_euler(array.get(), velocities.get(), &params) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() ==
        "swarm_integrate_euler: positions must be a vec4 buffer, got an f32 array buffer");
  CHECK(swarm_integrate_euler(positions.get(), array.get(), &params) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() ==
        "swarm_integrate_euler: velocities must be a vec4 buffer, got an f32 array buffer");
  CHECK(swarm_integrate_euler(velocities.get(), velocities.get(), &params) ==
        SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_integrate_euler: positions and velocities are the same buffer");
  CHECK(swarm_integrate_euler(six.get(), velocities.get(), &params) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() ==
        "swarm_integrate_euler: IntegrateEuler: positions, velocities must have "
        "the same size, got 6, 5");
  const swarm_euler_params zero_dt{{0.0f, -9.81f, 0.0f}, 0.0f, 0.0f};
  CHECK(swarm_integrate_euler(positions.get(), velocities.get(), &zero_dt) ==
        SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), StartsWith("swarm_integrate_euler: ") && Contains("dt"));
  const swarm_euler_params negative_drag{{0.0f, -9.81f, 0.0f}, -1.0f, 0.1f};
  CHECK(swarm_integrate_euler(positions.get(), velocities.get(), &negative_drag) ==
        SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), Contains("drag"));
  CHECK(swarm_integrate_euler(positions.get(), velocities.get(), nullptr) ==
        SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_integrate_euler: params is null");
  CHECK(swarm_integrate_euler(nullptr, velocities.get(), &params) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_integrate_euler: positions is null");

  const swarm_tensor_info v = Info(v_view.get());
  for (int64_t i = 0; i < 5; ++i) {
    for (int64_t lane = 0; lane < 4; ++lane) CHECK(*ElementOf<float>(v, {i, lane}) == 1.0f);
  }
}

// cv::getGaussianKernel(ksize, sigma) for sigma > 0: exp(-(i - (ksize-1)/2)^2 / (2 sigma^2)),
// normalised to sum 1; border reflect-101 maps -1 to 1 and n to n - 2.
std::vector<double> GaussianReference(const std::vector<float>& image, int width, int height,
                                      int ksize, double sigma) {
  std::vector<double> taps(ksize);
  double total = 0.0;
  for (int i = 0; i < ksize; ++i) {
    const double x = i - (ksize - 1) / 2.0;
    taps[i] = std::exp(-x * x / (2.0 * sigma * sigma));
    total += taps[i];
  }
  for (double& tap : taps) tap /= total;
  auto reflect = [](int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - 2 - i : i); };
  const int radius = ksize / 2;
  std::vector<double> rows(image.size()), out(image.size());
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      double sum = 0.0;
      for (int k = -radius; k <= radius; ++k) {
        sum += taps[k + radius] * image[y * width + reflect(x + k, width)];
      }
      rows[y * width + x] = sum;
    }
  }
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      double sum = 0.0;
      for (int k = -radius; k <= radius; ++k) {
        sum += taps[k + radius] * rows[reflect(y + k, height) * width + x];
      }
      out[y * width + x] = sum;
    }
  }
  return out;
}

TEST_CASE("Gaussian blur of f32 images and batches matches a separable reference") {
  ContextPtr context = MakeContext(0, 2);
  constexpr int kWidth = 19, kHeight = 11;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  for (swarm_buffer_kind kind : {SWARM_BUFFER_IMAGE_F32, SWARM_BUFFER_IMAGE_BATCH_F32}) {
    const int frames = kind == SWARM_BUFFER_IMAGE_F32 ? 1 : 3;
    swarm_buffer raw_src = nullptr, raw_dst = nullptr;
    if (kind == SWARM_BUFFER_IMAGE_F32) {
      REQUIRE(swarm_buffer_create_image(context.get(), SWARM_F32, kWidth, kHeight, &raw_src) ==
              SWARM_OK);
      REQUIRE(swarm_buffer_create_image(context.get(), SWARM_F32, kWidth, kHeight, &raw_dst) ==
              SWARM_OK);
    } else {
      REQUIRE(swarm_buffer_create_image_batch(context.get(), SWARM_F32, frames, kWidth, kHeight,
                                              &raw_src) == SWARM_OK);
      REQUIRE(swarm_buffer_create_image_batch(context.get(), SWARM_F32, frames, kWidth, kHeight,
                                              &raw_dst) == SWARM_OK);
    }
    BufferPtr src(raw_src), dst(raw_dst);
    TensorPtr src_view = ViewOf(src.get()), dst_view = ViewOf(dst.get());
    const swarm_tensor_info s = Info(src_view.get()), d = Info(dst_view.get());
    std::vector<std::vector<float>> pixels(frames, std::vector<float>(kWidth * kHeight));
    auto at = [&](const swarm_tensor_info& info, int frame, int y, int x) {
      return frames == 1 ? ElementOf<float>(info, {y, x}) : ElementOf<float>(info, {frame, y, x});
    };
    for (int f = 0; f < frames; ++f) {
      for (int y = 0; y < kHeight; ++y) {
        for (int x = 0; x < kWidth; ++x) *at(s, f, y, x) = pixels[f][y * kWidth + x] = uniform(rng);
      }
    }
    REQUIRE(swarm_gaussian_blur(context.get(), src.get(), dst.get(), 5, 1.0) == SWARM_OK);
    for (int f = 0; f < frames; ++f) {
      const std::vector<double> expected = GaussianReference(pixels[f], kWidth, kHeight, 5, 1.0);
      for (int y = 0; y < kHeight; ++y) {
        for (int x = 0; x < kWidth; ++x) {
          INFO("frame " << f << " x " << x << " y " << y);
          CHECK(*at(d, f, y, x) == Approx(expected[y * kWidth + x]).margin(1e-5));
        }
      }
    }
  }
}

TEST_CASE("Gaussian blur of a constant u8 image is the same constant") {
  ContextPtr context = MakeContext();
  swarm_buffer raw_src = nullptr, raw_dst = nullptr;
  REQUIRE(swarm_buffer_create_image(context.get(), SWARM_U8, 70, 9, &raw_src) == SWARM_OK);
  REQUIRE(swarm_buffer_create_image(context.get(), SWARM_U8, 70, 9, &raw_dst) == SWARM_OK);
  BufferPtr src(raw_src), dst(raw_dst);
  TensorPtr src_view = ViewOf(src.get()), dst_view = ViewOf(dst.get());
  const swarm_tensor_info s = Info(src_view.get()), d = Info(dst_view.get());
  for (int64_t y = 0; y < 9; ++y) {
    for (int64_t x = 0; x < 70; ++x) *ElementOf<uint8_t>(s, {y, x}) = 200;
  }
  REQUIRE(swarm_gaussian_blur(context.get(), src.get(), dst.get(), 3, 0.8) == SWARM_OK);
  for (int64_t y = 0; y < 9; ++y) {
    for (int64_t x = 0; x < 70; ++x) CHECK(*ElementOf<uint8_t>(d, {y, x}) == 200);
  }
}

TEST_CASE("Gaussian blur refuses mismatched buffers and parameters without writing") {
  ContextPtr context = MakeContext();
  swarm_buffer raw = nullptr;
  REQUIRE(swarm_buffer_create_image(context.get(), SWARM_F32, 8, 6, &raw) == SWARM_OK);
  BufferPtr src(raw);
  REQUIRE(swarm_buffer_create_image(context.get(), SWARM_F32, 8, 6, &raw) == SWARM_OK);
  BufferPtr dst(raw);
  REQUIRE(swarm_buffer_create_image(context.get(), SWARM_F32, 8, 7, &raw) == SWARM_OK);
  BufferPtr taller(raw);
  REQUIRE(swarm_buffer_create_image(context.get(), SWARM_U8, 8, 6, &raw) == SWARM_OK);
  BufferPtr bytes(raw);
  REQUIRE(swarm_buffer_create_vec4(context.get(), 8, &raw) == SWARM_OK);
  BufferPtr vectors(raw);
  TensorPtr src_view = ViewOf(src.get()), dst_view = ViewOf(dst.get());
  Fill2d(src_view.get(), [](int64_t y, int64_t x) { return float(x + y); });
  Fill2d(dst_view.get(), [](int64_t, int64_t) { return 42.0f; });

  CHECK(swarm_gaussian_blur(context.get(), src.get(), bytes.get(), 3, 1.0) ==
        SWARM_INVALID_ARGUMENT);
  CHECK(LastError() ==
        "swarm_gaussian_blur: dst must be an f32 image buffer like src, got a u8 image buffer");
  CHECK(swarm_gaussian_blur(context.get(), vectors.get(), dst.get(), 3, 1.0) ==
        SWARM_INVALID_ARGUMENT);
  CHECK(LastError() ==
        "swarm_gaussian_blur: src must be an f32 or u8 image or image batch, got "
        "a vec4 buffer");
  CHECK(swarm_gaussian_blur(context.get(), src.get(), src.get(), 3, 1.0) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_gaussian_blur: src and dst are the same buffer");
  CHECK(swarm_gaussian_blur(context.get(), src.get(), taller.get(), 3, 1.0) ==
        SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), StartsWith("swarm_gaussian_blur: ") && Contains("8 x 7"));
  CHECK(swarm_gaussian_blur(context.get(), src.get(), dst.get(), 4, 1.0) == SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), StartsWith("swarm_gaussian_blur: ") && Contains("ksize"));
  CHECK(swarm_gaussian_blur(context.get(), src.get(), dst.get(), 3, -1.0) ==
        SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), StartsWith("swarm_gaussian_blur: ") && Contains("sigma"));
  CHECK(swarm_gaussian_blur(nullptr, src.get(), dst.get(), 3, 1.0) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_gaussian_blur: context is null");
  CHECK(swarm_gaussian_blur(context.get(), src.get(), nullptr, 3, 1.0) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_gaussian_blur: dst is null");

  const swarm_tensor_info d = Info(dst_view.get());
  for (int64_t y = 0; y < 6; ++y) {
    for (int64_t x = 0; x < 8; ++x) CHECK(*ElementOf<float>(d, {y, x}) == 42.0f);
  }
}

}  // namespace
}  // namespace swarm::test
