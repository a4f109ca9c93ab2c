// Heightfields (swarm/robots/heightfield.h) from .npy files, PNGs and MJCF assets, and their bad
// input: every reader error names the file or element and what was wrong; MuJoCo's normalisation
// computed by hand; a heightfield world shape collides a URDF robot's sphere exactly as the
// double-precision reference says.
#include "swarm/robots/heightfield.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "swarm/kernels/collision/narrow_phase_reference.h"
#include "swarm/robots/mjcf_robot.h"
#include "swarm/robots/robot_collisions.h"
#include "swarm/robots/robot_model.h"
#include "swarm/tensor/npy.h"
#include "swarm/tensor/tensor.h"
#include "swarm/vision/png.h"

namespace swarm {
namespace {

std::string Folder() {
  const std::string folder =
      (std::filesystem::temp_directory_path() / "swarm_heightfield_test").string();
  std::filesystem::create_directories(folder);
  return folder;
}

std::string WriteNpy(const std::string& name, DType dtype, std::initializer_list<int64_t> shape,
                     const std::vector<double>& values) {
  MemoryAccountant memory;
  Result<Tensor> tensor = Tensor::Create(memory, dtype, shape);
  REQUIRE(tensor.ok());
  for (size_t i = 0; i < values.size(); ++i) {
    if (dtype == DType::kF64) static_cast<double*>(tensor->view().data())[i] = values[i];
    if (dtype == DType::kF32) static_cast<float*>(tensor->view().data())[i] = float(values[i]);
    if (dtype == DType::kS32) static_cast<int32_t*>(tensor->view().data())[i] = int(values[i]);
  }
  const std::string path = Folder() + "/" + name;
  REQUIRE(SaveNpy(tensor->view(), path).ok());
  return path;
}

// A PNG of `channels` planes, pixel (x, y) of plane k = pixel(x, y, k).
template <class Pixel>
std::string WritePng(const std::string& name, size_t width, size_t height, size_t channels,
                     Pixel pixel) {
  MemoryAccountant memory;
  const std::string path = Folder() + "/" + name;
  REQUIRE(SavePngRows(memory, path, width, height, channels, [&](size_t y, auto row) {
            for (size_t x = 0; x < width; ++x) {
              for (size_t k = 0; k < channels; ++k) row[x * channels + k] = pixel(x, y, k);
            }
          }).ok());
  return path;
}

// The error of reading `path`, checked to name it and to say `what`.
void CheckGridError(const std::string& path, const std::string& what) {
  MemoryAccountant memory;
  Result<HeightfieldGrid> grid = ReadHeightfieldGrid(memory, path);
  REQUIRE_FALSE(grid.ok());
  INFO(grid.status().message());
  CHECK(grid.status().message().find(path) != std::string::npos);
  CHECK(grid.status().message().find(what) != std::string::npos);
}

std::string Scene(const std::string& asset, const std::string& geom = "hfield=\"t\"") {
  return "<mujoco><asset>" + asset + "</asset><worldbody><geom type=\"hfield\" " + geom +
         "/><body pos=\"0 0 1\"><freejoint/><geom size=\"0.1\"/></body></worldbody></mujoco>";
}

void CheckMjcfError(const std::string& xml, const std::string& what) {
  Result<MjcfRobot> robot = LoadMjcfString(xml, Folder() + "/scene.xml");
  REQUIRE_FALSE(robot.ok());
  INFO(robot.status().message());
  CHECK(robot.status().message().find("scene.xml:1") != std::string::npos);
  CHECK(robot.status().message().find(what) != std::string::npos);
}

}  // namespace

TEST_CASE("heightfields: grids from .npy and PNG, rows from -y", "[robots][heightfield]") {
  MemoryAccountant memory;
  SECTION(".npy: float64 and float32 as written, row 0 first") {
    for (DType dtype : {DType::kF64, DType::kF32}) {
      const std::string path = WriteNpy("grid.npy", dtype, {2, 3}, {0.5, -1.25, 2, 3, 4.75, 5});
      Result<HeightfieldGrid> grid = ReadHeightfieldGrid(memory, path);
      REQUIRE(grid.ok());
      CHECK(grid->rows == 2);
      CHECK(grid->columns == 3);
      CHECK(grid->values == std::vector<float>{0.5f, -1.25f, 2, 3, 4.75f, 5});
    }
  }
  SECTION("PNG: grey levels, the image's bottom row first (MuJoCo's order)") {
    const std::string path = WritePng("grid.png", 3, 2, 1, [](size_t x, size_t y, size_t) {
      return static_cast<uint8_t>(10 * x + 100 * y);
    });
    Result<HeightfieldGrid> grid = ReadHeightfieldGrid(memory, path);
    REQUIRE(grid.ok());
    CHECK(grid->rows == 2);
    CHECK(grid->columns == 3);
    CHECK(grid->values == std::vector<float>{100, 110, 120, 0, 10, 20});
    // A colour image whose channels agree is grey too.
    const std::string rgb = WritePng("rgb.png", 3, 2, 3, [](size_t x, size_t y, size_t) {
      return static_cast<uint8_t>(10 * x + 100 * y);
    });
    Result<HeightfieldGrid> same = ReadHeightfieldGrid(memory, rgb);
    REQUIRE(same.ok());
    CHECK(same->values == grid->values);
  }
  CHECK(memory.Stats(MemoryCategory::kScratch).bytes_in_use == 0);
}

TEST_CASE("heightfields: bad files are errors naming the file", "[robots][heightfield]") {
  CheckGridError(WriteNpy("line.npy", DType::kF32, {4}, {0, 1, 2, 3}), "2-D");
  CheckGridError(WriteNpy("ints.npy", DType::kS32, {2, 2}, {0, 1, 2, 3}), "float32 or float64");
  CheckGridError(WriteNpy("row.npy", DType::kF32, {1, 4}, {0, 1, 2, 3}), "1 x 4");
  CheckGridError(
      WriteNpy("nan.npy", DType::kF64, {2, 2}, {0, std::numeric_limits<double>::quiet_NaN(), 2, 3}),
      "height 1");
  CheckGridError(
      WritePng("colour.png", 2, 2, 3, [](size_t x, size_t, size_t k) { return uint8_t(x + k); }),
      "grey");
  CheckGridError(Folder() + "/missing.npy", "missing.npy");
  CheckGridError(Folder() + "/grid.txt", "a .npy array or a .png image");
  std::ofstream(Folder() + "/truncated.png") << "\x89PNG\r\n";
  CheckGridError(Folder() + "/truncated.png", "truncated.png");
}

TEST_CASE("heightfields: MuJoCo's normalisation times the elevation", "[robots][heightfield]") {
  HeightfieldGrid grid{2, 2, {3, 5, 7, 11}};
  Result<std::shared_ptr<const Heightfield>> heights = NormalisedHeightfield(grid, 0.4);
  REQUIRE(heights.ok());
  const std::vector<double> expected{0, 0.4 * 2 / 8, 0.4 * 4 / 8, 0.4};
  for (size_t i = 0; i < 4; ++i) CHECK((*heights)->heights[i] == Approx(expected[i]).margin(1e-7));
  // A flat grid has no range to divide by: all zero, as MuJoCo leaves it.
  Result<std::shared_ptr<const Heightfield>> flat =
      NormalisedHeightfield(HeightfieldGrid{2, 2, {4, 4, 4, 4}}, 2.0);
  REQUIRE(flat.ok());
  CHECK((*flat)->heights == std::vector<float>(4, 0.0f));
  CHECK_FALSE(NormalisedHeightfield(grid, 0.0).ok());
  CHECK_FALSE(NormalisedHeightfield(HeightfieldGrid{2, 2, {1, 2, 3}}, 1.0).ok());
  CHECK_FALSE(NormalisedHeightfield(HeightfieldGrid{1, 2, {1, 2}}, 1.0).ok());
}

TEST_CASE("heightfields: MJCF hfield assets and their errors", "[robots][heightfield]") {
  const std::string good =
      "<hfield name=\"t\" nrow=\"2\" ncol=\"3\" size=\"1 2 0.5 0.1\" "
      "elevation=\"0 1 2 3 4 5\"/>";
  Result<MjcfRobot> robot = LoadMjcfString(Scene(good), Folder() + "/scene.xml");
  REQUIRE(robot.ok());
  const CollisionShape& shape = robot->collision_shapes.front();
  REQUIRE(shape.type == CollisionShapeType::kHeightfield);
  CHECK(shape.size == std::array<double, 3>{1, 2, 0.1});
  CHECK(shape.heightfield->heights == std::vector<float>{0, 0.1f, 0.2f, 0.3f, 0.4f, 0.5f});
  // Without numbers or a file: flat (MuJoCo's zeros).
  Result<MjcfRobot> flat = LoadMjcfString(
      Scene("<hfield name=\"t\" nrow=\"2\" ncol=\"2\" size=\"1 1 1 1\"/>"), Folder() + "/x.xml");
  REQUIRE(flat.ok());
  CHECK(flat->collision_shapes.front().heightfield->heights == std::vector<float>(4, 0.0f));

  CheckMjcfError(Scene("<hfield name=\"t\" nrow=\"2\" ncol=\"3\" size=\"1 2 0 0.1\"/>"),
                 "size of four values > 0");
  CheckMjcfError(Scene("<hfield name=\"t\" nrow=\"1\" ncol=\"3\" size=\"1 2 1 1\"/>"),
                 "nrow and ncol");
  CheckMjcfError(Scene("<hfield name=\"t\" nrow=\"2\" ncol=\"3\" size=\"1 2 1 1\" "
                       "elevation=\"1 2 3\"/>"),
                 "elevation has 3 values");
  CheckMjcfError(
      Scene("<hfield name=\"t\" file=\"t.png\" nrow=\"2\" ncol=\"2\" size=\"1 1 1 1\"/>"),
      "gives a file and nrow");
  CheckMjcfError(Scene(good, "hfield=\"other\""), "hfield names hfield 'other'");
  CheckMjcfError(Scene(good, ""), "of type hfield names no hfield");
  CheckMjcfError(Scene("<hfield name=\"t\" file=\"absent.png\" size=\"1 1 1 1\"/>"), "absent.png");
  CheckMjcfError(
      "<mujoco><worldbody><hfield name=\"t\" nrow=\"2\" ncol=\"2\" size=\"1 1 1 1\"/>"
      "</worldbody></mujoco>",
      "cannot appear inside <worldbody>");
}

TEST_CASE("heightfields: a URDF robot's sphere against a heightfield world shape",
          "[robots][heightfield]") {
  // One free link carrying a 10 cm sphere over a bumpy 2 m x 2 m heightfield.
  const std::string urdf =
      "<robot name=\"ball\"><link name=\"base\"><inertial><mass value=\"1\"/><inertia ixx=\"1\" "
      "iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial><collision><geometry>"
      "<sphere radius=\"0.1\"/></geometry></collision></link></robot>";
  UrdfOptions options;
  options.floating_base = true;
  options.collisions = UrdfCollisions::kPrimitives;
  Result<RobotModel> model = LoadUrdfString(urdf, options);
  REQUIRE(model.ok());
  HeightfieldGrid grid{5, 5, {}};
  for (int i = 0; i < 25; ++i) grid.values.push_back(float((i * 7) % 5));
  Result<std::shared_ptr<const Heightfield>> heights = NormalisedHeightfield(grid, 0.2);
  REQUIRE(heights.ok());
  const CollisionShape terrain = HeightfieldShape("terrain", *heights, 1, 1, 0.1, {0.1, 0, -0.05});
  Result<CollisionModel> collisions = UrdfCollisionModel(*model, {terrain});
  REQUIRE(collisions.ok());
  REQUIRE(collisions->pairs.size() == 1);
  Result<CollisionPlan> plan = CollisionPlan::Make(*model, *collisions);
  REQUIRE(plan.ok());
  REQUIRE(plan->slot_count() == 1);
  // The link at a few places, its pose written as a lane of link poses.
  for (const auto& [x, y, z] :
       {std::tuple{0.3, -0.2, 0.12}, std::tuple{-0.5, 0.4, 0.2}, std::tuple{0.0, 0.0, 0.02}}) {
    alignas(64) float poses[7 * 16] = {};
    alignas(64) float frames[2 * kShapeFrameArrays * 16] = {};
    alignas(64) float contacts[kContactArrays * 16] = {};
    poses[0] = float(x), poses[16] = float(y), poses[32] = float(z), poses[6 * 16] = 1.0f;
    plan->Detect(ConstLanesView{poses, 1, 16, 7}, LanesView{frames, 1, 16, 2 * kShapeFrameArrays},
                 LanesView{contacts, 1, 16, kContactArrays});
    ShapeGeometry field = ShapeOf(ShapeType::kHeightfield, 1, 1, 0.1f);
    field.heights = (*heights)->heights.data();
    field.rows = field.columns = 5;
    const double frame[12] = {0.1, 0, -0.05, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    const double centre[3] = {x, y, z};
    INFO("sphere at " << x << " " << y << " " << z);
    // The pair is (heightfield, sphere): its normal points from the terrain to the sphere.
    CHECK(contacts[0] == Approx(ReferenceShapeDistance(field, frame, centre) - 0.1).margin(2e-6));
  }
}

}  // namespace swarm
