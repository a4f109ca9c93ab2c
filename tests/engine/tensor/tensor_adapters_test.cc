// Tensor views of buffers, matrices, images and batches see exactly the elements the owning types'
// own accessors see, with the documented strides, and const owners give read-only views.
#include "swarm/tensor/tensor_adapters.h"

#include <catch2/catch.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec4.hpp>

#include "swarm/core/buffer.h"
#include "swarm/vision/image.h"

namespace swarm {
namespace {

TEST_CASE("A Vec4Buffer is an f32[N][4] view over its lane arrays") {
  MemoryAccountant memory;
  for (size_t count : {size_t{0}, size_t{1}, size_t{17}, size_t{100}}) {
    Vec4Buffer buffer = Vec4Buffer::Create(memory, count).value();
    for (size_t i = 0; i < count; ++i) {
      const auto f = static_cast<float>(i);
      buffer.Set(i, glm::vec4(f, f + 0.5f, -f, 2.0f * f));
    }
    const TensorView view = TensorOf(buffer);
    REQUIRE(view.TypeString() == "f32[" + std::to_string(count) + "][4]");
    CHECK(view.stride(0) == 1);
    CHECK(view.stride(1) == static_cast<int64_t>(buffer.capacity()));
    CHECK_FALSE(view.read_only());
    for (int64_t i = 0; i < view.shape(0); ++i) {
      for (int64_t lane = 0; lane < 4; ++lane) {
        CHECK(view.At<float>({i, lane}).value() == buffer.Get(static_cast<size_t>(i))[lane]);
      }
    }
    const Vec4Buffer& constant = buffer;
    CHECK(TensorOf(constant).read_only());
  }
}

TEST_CASE("Writing through a Vec4Buffer view is seen by Get") {
  MemoryAccountant memory;
  Vec4Buffer buffer = Vec4Buffer::Create(memory, 5).value();
  const TensorView ys = TensorOf(buffer).Sliced({{}, {1, 2}}).value();
  REQUIRE(ys.Set<float>({3, 0}, 42.0f).ok());
  CHECK(buffer.Get(3) == glm::vec4(0.0f, 42.0f, 0.0f, 0.0f));
}

TEST_CASE("A Mat4Buffer is f32[N][4][4] indexed [matrix][row][column]") {
  MemoryAccountant memory;
  Mat4Buffer buffer = Mat4Buffer::Create(memory, 3).value();
  for (size_t i = 0; i < 3; ++i) {
    glm::mat4 m;
    for (int column = 0; column < 4; ++column) {
      for (int row = 0; row < 4; ++row) {
        m[column][row] = static_cast<float>(100 * i + 10 * column + row);
      }
    }
    buffer.Set(i, m);
  }
  const TensorView view = TensorOf(buffer);
  REQUIRE(view.TypeString() == "f32[3][4][4]");
  for (int64_t i = 0; i < 3; ++i) {
    const glm::mat4 m = buffer.Get(static_cast<size_t>(i));
    for (int64_t row = 0; row < 4; ++row) {
      for (int64_t column = 0; column < 4; ++column) {
        CHECK(view.At<float>({i, row, column}).value() == m[column][row]);
      }
    }
  }
}

TEST_CASE("Images, batches and arrays keep their padding out of the view") {
  MemoryAccountant memory;
  ImageU8 image = ImageU8::Create(memory, 5, 3).value();
  ImageBatchF32 batch = ImageBatchF32::Create(memory, 2, 7, 4).value();
  FloatArray array = FloatArray::Create(memory, 9).value();
  for (size_t y = 0; y < 3; ++y) {
    for (size_t x = 0; x < 5; ++x) image.Set(x, y, static_cast<uint8_t>(10 * y + x));
  }
  for (size_t b = 0; b < 2; ++b) {
    for (size_t y = 0; y < 4; ++y) {
      for (size_t x = 0; x < 7; ++x) batch.Set(b, x, y, static_cast<float>(100 * b + 10 * y + x));
    }
  }
  for (size_t i = 0; i < 9; ++i) array[i] = static_cast<float>(i) * 0.25f;

  const TensorView image_view = TensorOf(image);
  REQUIRE(image_view.TypeString() == "u8[3][5]");
  CHECK(image_view.stride(0) == static_cast<int64_t>(image.view().row_stride));
  for (int64_t y = 0; y < 3; ++y) {
    for (int64_t x = 0; x < 5; ++x) {
      CHECK(image_view.At<uint8_t>({y, x}).value() == image.Get(x, y));
    }
  }
  const TensorView batch_view = TensorOf(batch);
  REQUIRE(batch_view.TypeString() == "f32[2][4][7]");
  for (int64_t b = 0; b < 2; ++b) {
    for (int64_t y = 0; y < 4; ++y) {
      for (int64_t x = 0; x < 7; ++x) {
        CHECK(batch_view.At<float>({b, y, x}).value() == batch.Get(b, x, y));
      }
    }
  }
  const TensorView array_view = TensorOf(array);
  REQUIRE(array_view.TypeString() == "f32[9]");
  CHECK(array_view.IsContiguous());
  for (int64_t i = 0; i < 9; ++i) CHECK(array_view.At<float>({i}).value() == array[i]);
}

TEST_CASE("Lane-major robot state is f32[R][J] with one lane per joint") {
  float lanes[3 * 16] = {};
  for (int joint = 0; joint < 3; ++joint) {
    for (int robot = 0; robot < 10; ++robot) lanes[16 * joint + robot] = joint * 100.0f + robot;
  }
  const TensorView view = LaneMajorTensor(lanes, 10, 3, 16);
  REQUIRE(view.TypeString() == "f32[10][3]");
  CHECK(view.At<float>({7, 2}).value() == 207.0f);
  const float* constant = lanes;
  CHECK(LaneMajorTensor(constant, 10, 3, 16).read_only());
}

}  // namespace
}  // namespace swarm
