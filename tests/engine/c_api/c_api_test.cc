// Tests for the C API's core (engine/c_api/c_api_core.cc, engine/c_api/c_api_tensor.cc) through
// libswarm_c.so: errors and their messages, contexts, every buffer kind's layout, reference
// counting and lifetimes (run under ASan, a dangling view or a double free fails the test), tensor
// views against hand-computed strides and values, copies, casts and printing. Every error case
// also checks that the caller's out-parameter and data are unchanged.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "swarm/c_api/swarm_c.h"
#include "tests/engine/c_api/c_api_test_support.h"
#include "tests/support/padding.h"

namespace swarm::test {
namespace {

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

TEST_CASE("status and dtype names") {
  CHECK(std::string(swarm_status_name(SWARM_OK)) == "ok");
  CHECK(std::string(swarm_status_name(SWARM_OVER_BUDGET)) == "over budget");
  CHECK(swarm_status_name(static_cast<swarm_status>(7)) == nullptr);
  const char* names[] = {"f32", "f64", "s8",  "s16",  "s32", "s64",  "u8",  "u16",
                         "u32", "u64", "c64", "c128", "f16", "bf16", "bool"};
  const size_t sizes[] = {4, 8, 1, 2, 4, 8, 1, 2, 4, 8, 8, 16, 2, 2, 1};
  for (int code = 0; code < 15; ++code) {
    INFO("dtype " << code);
    CHECK(std::string(swarm_dtype_name(static_cast<swarm_dtype>(code))) == names[code]);
    CHECK(swarm_dtype_size(static_cast<swarm_dtype>(code)) == sizes[code]);
  }
  CHECK(swarm_dtype_name(static_cast<swarm_dtype>(15)) == nullptr);
  CHECK(swarm_dtype_size(static_cast<swarm_dtype>(15)) == 0);
}

TEST_CASE("the last error is per thread and kept across successful calls") {
  std::string other_thread_error = "not run";
  std::thread([&] { other_thread_error = swarm_last_error(); }).join();
  CHECK(other_thread_error.empty());

  swarm_context context = Sentinel<swarm_context>();
  REQUIRE(swarm_context_create(nullptr, nullptr) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_context_create: out is null");
  std::thread([] {
    swarm_buffer_retain(nullptr);
    CHECK(LastError() == "swarm_buffer_retain: buffer is null");
  }).join();
  CHECK(LastError() == "swarm_context_create: out is null");
  REQUIRE(swarm_context_create(nullptr, &context) == SWARM_OK);
  CHECK(LastError() == "swarm_context_create: out is null");
  swarm_context_destroy(context);
}

TEST_CASE("context creation, memory queries and their errors") {
  swarm_context context = Sentinel<swarm_context>();
  swarm_context_desc too_many{0, 5000};
  CHECK(swarm_context_create(&too_many, &context) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_context_create: threads must be at most 1024, got 5000");
  CHECK(context == Sentinel<swarm_context>());
  swarm_context_destroy(nullptr);  // ignored

  ContextPtr owned = MakeContext(0, 2);
  size_t bytes = 7;
  REQUIRE(swarm_context_bytes_in_use(owned.get(), &bytes) == SWARM_OK);
  CHECK(bytes == 0);
  CHECK(swarm_context_bytes_in_use(nullptr, &bytes) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_context_bytes_in_use: context is null");
  CHECK(swarm_context_bytes_in_use(owned.get(), nullptr) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_context_bytes_in_use: bytes is null");

  // The size-query pattern: length first, then a buffer of length + 1.
  size_t length = 0;
  REQUIRE(swarm_context_memory_report(owned.get(), nullptr, 0, &length) == SWARM_OK);
  REQUIRE(length > 0);
  std::string text(length + 1, '#');
  REQUIRE(swarm_context_memory_report(owned.get(), text.data(), text.size(), nullptr) == SWARM_OK);
  CHECK(text[length] == '\0');
  CHECK_THAT(text, Contains("particles") && Contains("budget"));
  std::string small(length, '#');
  CHECK(swarm_context_memory_report(owned.get(), small.data(), small.size(), &length) ==
        SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_context_memory_report: text capacity " + std::to_string(length) +
                           " cannot hold " + std::to_string(length) +
                           " characters and the terminating NUL");
  CHECK(small == std::string(length, '#'));
  CHECK(swarm_context_memory_report(owned.get(), nullptr, 0, nullptr) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_context_memory_report: text and length is null");
  CHECK(swarm_context_memory_report(nullptr, nullptr, 0, &length) == SWARM_INVALID_ARGUMENT);

  const std::string target = swarm_simd_target_name();
  const std::vector<std::string> names = {"avx512", "avx2",    "sse4",     "ssse3", "neon",
                                          "sve",    "sve_256", "sve2_128", "sve2",  "scalar"};
  CHECK(std::find(names.begin(), names.end(), target) != names.end());
}

struct Layout {
  swarm_buffer_kind kind;
  swarm_dtype dtype;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
};

TEST_CASE("every buffer kind is a zeroed writable view with swarm's padded layout") {
  ContextPtr context = MakeContext();
  auto check = [&](swarm_buffer raw, const Layout& expected) {
    REQUIRE(raw != nullptr);
    BufferPtr buffer(raw);
    swarm_buffer_kind kind{};
    REQUIRE(swarm_buffer_kind_get(buffer.get(), &kind) == SWARM_OK);
    CHECK(kind == expected.kind);
    TensorPtr view = ViewOf(buffer.get());
    const swarm_tensor_info info = Info(view.get());
    CHECK(info.dtype == expected.dtype);
    CHECK(Shape(info) == expected.shape);
    CHECK(Strides(info) == expected.strides);
    CHECK_FALSE(info.read_only);
    CHECK(reinterpret_cast<uintptr_t>(info.data) % 64 == 0);
    for (size_t axis = info.rank; axis < SWARM_MAX_RANK; ++axis) CHECK(info.shape[axis] == 0);
    // Zeroed: the padded footprint (last element's offset + 1) reads as zero bytes.
    int64_t last = 0;
    for (size_t axis = 0; axis < info.rank; ++axis) {
      last += (info.shape[axis] - 1) * info.strides[axis];
    }
    const auto* bytes = static_cast<const unsigned char*>(info.data);
    const size_t footprint = (last + 1) * swarm_dtype_size(info.dtype);
    size_t nonzero = 0;
    for (size_t i = 0; i < footprint; ++i) nonzero += bytes[i] != 0;
    CHECK(nonzero == 0);
  };
  // Lane and row strides: whole padding vectors (tests/support/padding.h).
  const auto kPadFloats10 = static_cast<int64_t>(test::PaddedFloats(10));
  const auto kPadFloats17 = static_cast<int64_t>(test::PaddedFloats(17));
  const auto kRowFloats5 = static_cast<int64_t>(test::PaddedFloats(5));
  const auto kRowBytes70 = static_cast<int64_t>(test::PaddedBytes(70));
  const auto kRowBytes1 = static_cast<int64_t>(test::PaddedBytes(1));
  swarm_buffer raw = nullptr;
  REQUIRE(swarm_buffer_create_vec4(context.get(), 10, &raw) == SWARM_OK);
  check(raw, {SWARM_BUFFER_VEC4, SWARM_F32, {10, 4}, {1, kPadFloats10}});
  REQUIRE(swarm_buffer_create_vec4(context.get(), 17, &raw) == SWARM_OK);
  check(raw, {SWARM_BUFFER_VEC4, SWARM_F32, {17, 4}, {1, kPadFloats17}});
  REQUIRE(swarm_buffer_create_f32_array(context.get(), 33, &raw) == SWARM_OK);
  check(raw, {SWARM_BUFFER_F32_ARRAY, SWARM_F32, {33}, {1}});
  REQUIRE(swarm_buffer_create_u8_array(context.get(), 65, &raw) == SWARM_OK);
  check(raw, {SWARM_BUFFER_U8_ARRAY, SWARM_U8, {65}, {1}});
  REQUIRE(swarm_buffer_create_image(context.get(), SWARM_F32, 5, 3, &raw) == SWARM_OK);
  check(raw, {SWARM_BUFFER_IMAGE_F32, SWARM_F32, {3, 5}, {kRowFloats5, 1}});
  REQUIRE(swarm_buffer_create_image(context.get(), SWARM_U8, 70, 2, &raw) == SWARM_OK);
  check(raw, {SWARM_BUFFER_IMAGE_U8, SWARM_U8, {2, 70}, {kRowBytes70, 1}});
  REQUIRE(swarm_buffer_create_image_batch(context.get(), SWARM_F32, 2, 5, 3, &raw) == SWARM_OK);
  check(raw,
        {SWARM_BUFFER_IMAGE_BATCH_F32, SWARM_F32, {2, 3, 5}, {3 * kRowFloats5, kRowFloats5, 1}});
  REQUIRE(swarm_buffer_create_image_batch(context.get(), SWARM_U8, 3, 1, 1, &raw) == SWARM_OK);
  check(raw, {SWARM_BUFFER_IMAGE_BATCH_U8, SWARM_U8, {3, 1, 1}, {kRowBytes1, kRowBytes1, 1}});
  const int64_t shape[] = {2, 3, 4};
  REQUIRE(swarm_buffer_create_tensor(context.get(), SWARM_C128, shape, 3, &raw) == SWARM_OK);
  check(raw, {SWARM_BUFFER_TENSOR, SWARM_C128, {2, 3, 4}, {12, 4, 1}});
  REQUIRE(swarm_buffer_create_tensor(context.get(), SWARM_S16, nullptr, 0, &raw) == SWARM_OK);
  check(raw, {SWARM_BUFFER_TENSOR, SWARM_S16, {}, {}});

  size_t bytes = 1;
  REQUIRE(swarm_context_bytes_in_use(context.get(), &bytes) == SWARM_OK);
  CHECK(bytes == 0);
}

TEST_CASE("buffer creation errors leave out unchanged and allocate nothing") {
  ContextPtr context = MakeContext(/*budget_bytes=*/4096);
  swarm_buffer out = Sentinel<swarm_buffer>();
  auto expect = [&](swarm_status status, swarm_status expected, const std::string& message) {
    CHECK(status == expected);
    CHECK_THAT(LastError(), StartsWith(message));
    CHECK(out == Sentinel<swarm_buffer>());
    size_t bytes = 1;
    REQUIRE(swarm_context_bytes_in_use(context.get(), &bytes) == SWARM_OK);
    CHECK(bytes == 0);
  };
  expect(swarm_buffer_create_vec4(nullptr, 4, &out), SWARM_INVALID_ARGUMENT,
         "swarm_buffer_create_vec4: context is null");
  CHECK(swarm_buffer_create_f32_array(context.get(), 4, nullptr) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_buffer_create_f32_array: out is null");
  expect(swarm_buffer_create_vec4(context.get(), 1000, &out), SWARM_OVER_BUDGET,
         "swarm_buffer_create_vec4: ");
  CHECK_THAT(LastError(), Contains("budget"));
  expect(swarm_buffer_create_u8_array(context.get(), 5000, &out), SWARM_OVER_BUDGET,
         "swarm_buffer_create_u8_array: ");
  expect(swarm_buffer_create_image(context.get(), SWARM_F64, 4, 4, &out), SWARM_INVALID_ARGUMENT,
         "swarm_buffer_create_image: images are f32 or u8, got dtype 1");
  expect(swarm_buffer_create_image(context.get(), SWARM_F32, 0, 4, &out), SWARM_INVALID_ARGUMENT,
         "swarm_buffer_create_image: image of 0 x 4");
  expect(swarm_buffer_create_image_batch(context.get(), SWARM_U8, 0, 4, 4, &out),
         SWARM_INVALID_ARGUMENT, "swarm_buffer_create_image_batch: ");
  expect(swarm_buffer_create_image_batch(context.get(), SWARM_S8, 1, 4, 4, &out),
         SWARM_INVALID_ARGUMENT, "swarm_buffer_create_image_batch: images are f32 or u8");
  const int64_t negative[] = {2, -3};
  expect(swarm_buffer_create_tensor(context.get(), SWARM_F32, negative, 2, &out),
         SWARM_INVALID_ARGUMENT,
         "swarm_buffer_create_tensor: tensor shape [2, -3]: axis 1 has negative extent");
  const int64_t nine[] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  expect(swarm_buffer_create_tensor(context.get(), SWARM_F32, nine, 9, &out),
         SWARM_INVALID_ARGUMENT, "swarm_buffer_create_tensor: tensor rank 9 exceeds the maximum 8");
  expect(swarm_buffer_create_tensor(context.get(), static_cast<swarm_dtype>(15), negative, 1, &out),
         SWARM_INVALID_ARGUMENT,
         "swarm_buffer_create_tensor: dtype 15 is not a swarm_dtype (0..14)");
  expect(swarm_buffer_create_tensor(context.get(), SWARM_F32, nullptr, 2, &out),
         SWARM_INVALID_ARGUMENT, "swarm_buffer_create_tensor: shape is null");
  const int64_t big[] = {64, 64};
  expect(swarm_buffer_create_tensor(context.get(), SWARM_F64, big, 2, &out), SWARM_OVER_BUDGET,
         "swarm_buffer_create_tensor: ");
}

// ASan's allocator aborts on a request this large instead of returning null, so this case runs
// in builds without it only.
#ifndef __SANITIZE_ADDRESS__
TEST_CASE("an allocation the system refuses is SWARM_OUT_OF_MEMORY, not a crash") {
  ContextPtr context = MakeContext();
  swarm_buffer out = Sentinel<swarm_buffer>();
  const int64_t huge[] = {int64_t{1} << 62};
  CHECK(swarm_buffer_create_tensor(context.get(), SWARM_U8, huge, 1, &out) == SWARM_OUT_OF_MEMORY);
  CHECK_THAT(LastError(), StartsWith("swarm_buffer_create_tensor: the system refused"));
  CHECK(out == Sentinel<swarm_buffer>());
}
#endif

TEST_CASE("retain and release count references; null handles are reported") {
  ContextPtr context = MakeContext();
  swarm_buffer buffer = nullptr;
  REQUIRE(swarm_buffer_create_f32_array(context.get(), 100, &buffer) == SWARM_OK);
  size_t bytes = 0;
  REQUIRE(swarm_context_bytes_in_use(context.get(), &bytes) == SWARM_OK);
  const size_t allocated = bytes;
  CHECK(allocated >= 100 * sizeof(float));
  REQUIRE(swarm_buffer_retain(buffer) == SWARM_OK);
  swarm_buffer_release(buffer);
  REQUIRE(swarm_context_bytes_in_use(context.get(), &bytes) == SWARM_OK);
  CHECK(bytes == allocated);
  swarm_buffer_release(buffer);
  REQUIRE(swarm_context_bytes_in_use(context.get(), &bytes) == SWARM_OK);
  CHECK(bytes == 0);
  swarm_buffer_release(nullptr);

  CHECK(swarm_buffer_retain(nullptr) == SWARM_INVALID_ARGUMENT);
  swarm_buffer_kind kind = SWARM_BUFFER_TENSOR;
  CHECK(swarm_buffer_kind_get(nullptr, &kind) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_buffer_kind_get: buffer is null");
  CHECK(kind == SWARM_BUFFER_TENSOR);
  swarm_tensor tensor = Sentinel<swarm_tensor>();
  CHECK(swarm_buffer_tensor(nullptr, &tensor) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_buffer_tensor: buffer is null");
  CHECK(tensor == Sentinel<swarm_tensor>());
  swarm_tensor_info info{};
  info.rank = 99;
  CHECK(swarm_tensor_info_get(nullptr, &info) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_tensor_info_get: tensor is null");
  CHECK(info.rank == 99);
  swarm_tensor_destroy(nullptr);
}

TEST_CASE("a view keeps its buffer, and a buffer its context, alive in any release order") {
  swarm_context context = nullptr;
  REQUIRE(swarm_context_create(nullptr, &context) == SWARM_OK);
  swarm_buffer buffer = nullptr;
  REQUIRE(swarm_buffer_create_vec4(context, 8, &buffer) == SWARM_OK);
  swarm_tensor whole = nullptr;
  REQUIRE(swarm_buffer_tensor(buffer, &whole) == SWARM_OK);
  swarm_tensor column = nullptr;
  swarm_slice slices[2] = {};
  slices[1] = {1, 2, 1, true, true};
  REQUIRE(swarm_tensor_slice(whole, slices, 2, &column) == SWARM_OK);

  swarm_buffer_release(buffer);
  swarm_tensor_destroy(whole);
  swarm_context_destroy(context);
  // Only `column` remains: its memory, and the accountant it came from, must still be alive
  // (ASan reports a use after free otherwise).
  const swarm_tensor_info info = Info(column);
  REQUIRE(Shape(info) == std::vector<int64_t>{8, 1});
  for (int64_t i = 0; i < 8; ++i) *ElementOf<float>(info, {i, 0}) = static_cast<float>(i);
  float total = 0.0f;
  for (int64_t i = 0; i < 8; ++i) total += *ElementOf<float>(info, {i, 0});
  CHECK(total == 28.0f);
  swarm_tensor_destroy(column);  // frees the buffer, then the context (LSan checks for leaks)
}

// A 4 x 5 s32 tensor whose element [i][j] is 10 i + j.
BufferPtr Grid(swarm_context context) {
  BufferPtr buffer = MakeTensorBuffer(context, SWARM_S32, {4, 5});
  TensorPtr view = ViewOf(buffer.get());
  const swarm_tensor_info info = Info(view.get());
  for (int64_t i = 0; i < 4; ++i) {
    for (int64_t j = 0; j < 5; ++j) *ElementOf<int32_t>(info, {i, j}) = int32_t(10 * i + j);
  }
  return buffer;
}

TEST_CASE("slices follow Python's rules, including negative steps and omitted bounds") {
  ContextPtr context = MakeContext();
  BufferPtr grid = Grid(context.get());
  TensorPtr view = ViewOf(grid.get());
  // grid[::-2, 1:-1] -> rows 3, 1; columns 1, 2, 3.
  swarm_slice slices[2] = {};
  slices[0].step = -2;
  slices[1] = {1, -1, 0, true, true};
  swarm_tensor raw = nullptr;
  REQUIRE(swarm_tensor_slice(view.get(), slices, 2, &raw) == SWARM_OK);
  TensorPtr sliced(raw);
  const swarm_tensor_info info = Info(sliced.get());
  CHECK(Shape(info) == std::vector<int64_t>{2, 3});
  CHECK(Strides(info) == std::vector<int64_t>{-10, 1});
  const int32_t expected[2][3] = {{31, 32, 33}, {11, 12, 13}};
  for (int64_t i = 0; i < 2; ++i) {
    for (int64_t j = 0; j < 3; ++j) CHECK(*ElementOf<int32_t>(info, {i, j}) == expected[i][j]);
  }
  // Clamped, empty and zero-slice forms.
  swarm_slice clamp = {-100, 100, 3, true, true};
  REQUIRE(swarm_tensor_slice(view.get(), &clamp, 1, &raw) == SWARM_OK);
  CHECK(Shape(Info(raw)) == std::vector<int64_t>{2, 5});
  swarm_tensor_destroy(raw);
  swarm_slice empty = {3, 1, 1, true, true};
  REQUIRE(swarm_tensor_slice(view.get(), &empty, 1, &raw) == SWARM_OK);
  CHECK(Shape(Info(raw)) == std::vector<int64_t>{0, 5});
  swarm_tensor_destroy(raw);
  REQUIRE(swarm_tensor_slice(view.get(), nullptr, 0, &raw) == SWARM_OK);
  CHECK(Shape(Info(raw)) == std::vector<int64_t>{4, 5});
  swarm_tensor_destroy(raw);

  raw = Sentinel<swarm_tensor>();
  swarm_slice three[3] = {};
  CHECK(swarm_tensor_slice(view.get(), three, 3, &raw) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_tensor_slice: slice has 3 axes but the s32[4][5] view has 2");
  swarm_slice nine[9] = {};
  CHECK(swarm_tensor_slice(view.get(), nine, 9, &raw) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_tensor_slice: 9 slices exceed the maximum rank 8");
  CHECK(swarm_tensor_slice(view.get(), nullptr, 1, &raw) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_tensor_slice: slices is null");
  CHECK(swarm_tensor_slice(nullptr, three, 1, &raw) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_tensor_slice: tensor is null");
  CHECK(swarm_tensor_slice(view.get(), three, 1, nullptr) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_tensor_slice: out is null");
  CHECK(raw == Sentinel<swarm_tensor>());
}

TEST_CASE("permute, transpose, reshape and read-only views") {
  ContextPtr context = MakeContext();
  BufferPtr buffer = MakeTensorBuffer(context.get(), SWARM_F64, {2, 3, 4});
  TensorPtr view = ViewOf(buffer.get());
  swarm_tensor raw = nullptr;

  const size_t axes[] = {2, 0, 1};
  REQUIRE(swarm_tensor_permute(view.get(), axes, 3, &raw) == SWARM_OK);
  TensorPtr permuted(raw);
  CHECK(Shape(Info(permuted.get())) == std::vector<int64_t>{4, 2, 3});
  CHECK(Strides(Info(permuted.get())) == std::vector<int64_t>{1, 12, 4});
  REQUIRE(swarm_tensor_transpose(view.get(), &raw) == SWARM_OK);
  TensorPtr transposed(raw);
  CHECK(Shape(Info(transposed.get())) == std::vector<int64_t>{4, 3, 2});
  CHECK(Strides(Info(transposed.get())) == std::vector<int64_t>{1, 4, 12});
  CHECK(Info(transposed.get()).data == Info(view.get()).data);

  const int64_t shape[] = {6, -1};
  REQUIRE(swarm_tensor_reshape(view.get(), shape, 2, &raw) == SWARM_OK);
  TensorPtr reshaped(raw);
  CHECK(Shape(Info(reshaped.get())) == std::vector<int64_t>{6, 4});
  CHECK(Strides(Info(reshaped.get())) == std::vector<int64_t>{4, 1});

  REQUIRE(swarm_tensor_read_only(view.get(), &raw) == SWARM_OK);
  TensorPtr frozen(raw);
  CHECK(Info(frozen.get()).read_only);
  CHECK_FALSE(Info(view.get()).read_only);

  raw = Sentinel<swarm_tensor>();
  const size_t repeated[] = {0, 0, 1};
  CHECK(swarm_tensor_permute(view.get(), repeated, 3, &raw) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_tensor_permute: axes are not a permutation of 0..2: entry 1 is 0");
  CHECK(swarm_tensor_permute(view.get(), nullptr, 3, &raw) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_tensor_permute: axes is null");
  const int64_t flat[] = {24};
  CHECK(swarm_tensor_reshape(transposed.get(), flat, 1, &raw) == SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), StartsWith("swarm_tensor_reshape: "));
  const int64_t wrong[] = {5, 5};
  CHECK(swarm_tensor_reshape(view.get(), wrong, 2, &raw) == SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), Contains("24") && Contains("25"));
  CHECK(swarm_tensor_reshape(view.get(), nullptr, 2, &raw) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_tensor_reshape: shape is null");
  CHECK(swarm_tensor_transpose(nullptr, &raw) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_tensor_transpose: tensor is null");
  CHECK(swarm_tensor_read_only(view.get(), nullptr) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_tensor_read_only: out is null");
  CHECK(raw == Sentinel<swarm_tensor>());
}

TEST_CASE("copy, cast and copy_into gather any strides into new or given tensors") {
  ContextPtr context = MakeContext();
  BufferPtr grid = Grid(context.get());
  TensorPtr view = ViewOf(grid.get());
  swarm_tensor raw = nullptr;
  REQUIRE(swarm_tensor_transpose(view.get(), &raw) == SWARM_OK);
  TensorPtr transposed(raw);

  swarm_buffer copied = nullptr;
  REQUIRE(swarm_tensor_copy(context.get(), transposed.get(), &copied) == SWARM_OK);
  BufferPtr copy(copied);
  TensorPtr copy_view = ViewOf(copy.get());
  const swarm_tensor_info copy_info = Info(copy_view.get());
  CHECK(copy_info.dtype == SWARM_S32);
  CHECK(Shape(copy_info) == std::vector<int64_t>{5, 4});
  CHECK(Strides(copy_info) == std::vector<int64_t>{4, 1});
  const auto* elements = static_cast<const int32_t*>(copy_info.data);
  for (int64_t j = 0; j < 5; ++j) {
    for (int64_t i = 0; i < 4; ++i) CHECK(elements[j * 4 + i] == 10 * i + j);
  }

  // f64 -> s16 truncates toward zero and saturates (tensor_copy.h).
  BufferPtr reals = MakeTensorBuffer(context.get(), SWARM_F64, {4});
  TensorPtr reals_view = ViewOf(reals.get());
  auto* values = static_cast<double*>(Info(reals_view.get()).data);
  values[0] = 1.75;
  values[1] = -1.75;
  values[2] = 1e9;
  values[3] = -1e9;
  swarm_buffer cast_raw = nullptr;
  REQUIRE(swarm_tensor_cast(context.get(), reals_view.get(), SWARM_S16, &cast_raw) == SWARM_OK);
  BufferPtr cast(cast_raw);
  TensorPtr cast_view = ViewOf(cast.get());
  const auto* shorts = static_cast<const int16_t*>(Info(cast_view.get()).data);
  CHECK(shorts[0] == 1);
  CHECK(shorts[1] == -1);
  CHECK(shorts[2] == 32767);
  CHECK(shorts[3] == -32768);

  // copy_into: into a read-only or wrongly shaped view fails without writing.
  BufferPtr target = MakeTensorBuffer(context.get(), SWARM_F32, {5, 4});
  TensorPtr target_view = ViewOf(target.get());
  auto* floats = static_cast<float*>(Info(target_view.get()).data);
  REQUIRE(swarm_tensor_copy_into(transposed.get(), target_view.get()) == SWARM_OK);
  CHECK(floats[1 * 4 + 3] == 31.0f);
  floats[0] = -5.0f;
  REQUIRE(swarm_tensor_read_only(target_view.get(), &raw) == SWARM_OK);
  TensorPtr frozen(raw);
  CHECK(swarm_tensor_copy_into(transposed.get(), frozen.get()) == SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), StartsWith("swarm_tensor_copy_into: ") && Contains("read-only"));
  CHECK(swarm_tensor_copy_into(view.get(), target_view.get()) == SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), Contains("s32[4][5]") && Contains("f32[5][4]"));
  CHECK(floats[0] == -5.0f);
  CHECK(swarm_tensor_copy_into(nullptr, target_view.get()) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_tensor_copy_into: src is null");

  swarm_buffer out = Sentinel<swarm_buffer>();
  CHECK(swarm_tensor_cast(context.get(), view.get(), static_cast<swarm_dtype>(15), &out) ==
        SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_tensor_cast: dtype 15 is not a swarm_dtype (0..14)");
  CHECK(swarm_tensor_copy(nullptr, view.get(), &out) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_tensor_copy: context is null");
  ContextPtr tiny = MakeContext(/*budget_bytes=*/64);
  CHECK(swarm_tensor_copy(tiny.get(), view.get(), &out) == SWARM_OVER_BUDGET);
  CHECK_THAT(LastError(), StartsWith("swarm_tensor_copy: ") && Contains("budget"));
  CHECK(out == Sentinel<swarm_buffer>());
}

TEST_CASE("format prints an Nx-style header and values in the size-query pattern") {
  ContextPtr context = MakeContext();
  BufferPtr grid = Grid(context.get());
  TensorPtr view = ViewOf(grid.get());
  size_t length = 0;
  REQUIRE(swarm_tensor_format(view.get(), nullptr, nullptr, 0, &length) == SWARM_OK);
  std::string text(length + 1, '\0');
  REQUIRE(swarm_tensor_format(view.get(), nullptr, text.data(), text.size(), &length) == SWARM_OK);
  text.resize(length);
  CHECK_THAT(text, StartsWith("s32[4][5]\n") && Contains("[30, 31, 32, 33, 34]"));

  // A limit below the element count elides the middle: row 1 and column 2 disappear.
  swarm_format_desc desc{4, 1};
  REQUIRE(swarm_tensor_format(view.get(), &desc, nullptr, 0, &length) == SWARM_OK);
  std::string elided(length + 1, '\0');
  REQUIRE(swarm_tensor_format(view.get(), &desc, elided.data(), elided.size(), nullptr) ==
          SWARM_OK);
  CHECK_THAT(elided, Contains("..."));
  CHECK_THAT(elided, !Contains("12"));

  std::string small(3, 'x');
  CHECK(swarm_tensor_format(view.get(), nullptr, small.data(), small.size(), &length) ==
        SWARM_INVALID_ARGUMENT);
  CHECK_THAT(LastError(), StartsWith("swarm_tensor_format: text capacity 3 cannot hold"));
  CHECK(small == "xxx");
  CHECK(swarm_tensor_format(nullptr, nullptr, nullptr, 0, &length) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_tensor_format: tensor is null");
}

}  // namespace
}  // namespace swarm::test
