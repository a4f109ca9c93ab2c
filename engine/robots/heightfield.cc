// Heightfields from numbers and files (swarm/robots/heightfield.h).
#include "swarm/robots/heightfield.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "swarm/kernels/collision/narrow_phase.h"
#include "swarm/tensor/npy.h"
#include "swarm/vision/png.h"

namespace swarm {
namespace {

bool EndsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         std::equal(suffix.rbegin(), suffix.rend(), text.rbegin(),
                    [](char a, char b) { return std::tolower(a) == b; });
}

Status CheckGridSize(const std::string& what, int64_t rows, int64_t columns) {
  if (rows < 2 || columns < 2 || rows * columns > static_cast<int64_t>(kMaxHeightfieldPoints)) {
    return InvalidArgument(what + ": a heightfield needs 2 to " +
                           std::to_string(kMaxHeightfieldPoints) +
                           " points in at least 2 rows and 2 columns, not " + std::to_string(rows) +
                           " x " + std::to_string(columns));
  }
  return Status();
}

Result<HeightfieldGrid> GridFromNpy(MemoryAccountant& accountant, const std::string& path) {
  Result<Tensor> tensor = LoadNpy(accountant, path, MemoryCategory::kScratch);
  if (!tensor.ok()) return tensor.status();
  const TensorView view = tensor->view();
  if (view.rank() != 2) {
    return InvalidArgument(path + ": a heightfield .npy holds a 2-D array (rows, columns), not " +
                           std::to_string(view.rank()) + "-D");
  }
  if (view.dtype() != DType::kF32 && view.dtype() != DType::kF64) {
    return InvalidArgument(path + ": a heightfield .npy holds float32 or float64 heights");
  }
  if (!view.IsContiguous()) {
    return InvalidArgument(path +
                           ": a heightfield .npy must be in C order (numpy: "
                           "np.ascontiguousarray)");
  }
  if (Status s = CheckGridSize(path, view.shape(0), view.shape(1)); !s.ok()) return s;
  HeightfieldGrid grid;
  grid.rows = static_cast<uint32_t>(view.shape(0));
  grid.columns = static_cast<uint32_t>(view.shape(1));
  const size_t count = size_t{grid.rows} * grid.columns;
  grid.values.resize(count);
  for (size_t i = 0; i < count; ++i) {
    const double value = view.dtype() == DType::kF32 ? static_cast<const float*>(view.data())[i]
                                                     : static_cast<const double*>(view.data())[i];
    if (!std::isfinite(value) || std::fabs(value) > 1e30) {
      return InvalidArgument(path + ": height " + std::to_string(i) + " is not a finite float");
    }
    grid.values[i] = static_cast<float>(value);
  }
  return grid;
}

Result<HeightfieldGrid> GridFromPng(MemoryAccountant& accountant, const std::string& path) {
  Result<PlanarImage> image = LoadPng(accountant, path, kMaxHeightfieldPoints);
  if (!image.ok()) return image.status();
  const size_t width = image->width(), height = image->height();
  if (Status s = CheckGridSize(path, static_cast<int64_t>(height), static_cast<int64_t>(width));
      !s.ok()) {
    return s;
  }
  const std::vector<ImageU8>& planes = image->planes;
  const size_t colours = planes.size() >= 3 ? 3 : 1;
  HeightfieldGrid grid;
  grid.rows = static_cast<uint32_t>(height);
  grid.columns = static_cast<uint32_t>(width);
  grid.values.resize(width * height);
  for (size_t y = 0; y < height; ++y) {
    for (size_t x = 0; x < width; ++x) {
      const uint8_t grey = planes[0].Get(x, y);
      for (size_t c = 1; c < colours; ++c) {
        if (planes[c].Get(x, y) != grey) {
          return InvalidArgument(path + ": a heightfield PNG is grey; pixel (" + std::to_string(x) +
                                 ", " + std::to_string(y) + ") has different colour channels");
        }
      }
      // The image's top row is the grid's last (+y), as MuJoCo reads it.
      grid.values[(height - 1 - y) * width + x] = grey;
    }
  }
  return grid;
}

}  // namespace

Result<HeightfieldGrid> ReadHeightfieldGrid(MemoryAccountant& accountant, const std::string& path) {
  if (EndsWith(path, ".npy")) return GridFromNpy(accountant, path);
  if (EndsWith(path, ".png")) return GridFromPng(accountant, path);
  return InvalidArgument(path + ": a heightfield file is a .npy array or a .png image");
}

Result<std::shared_ptr<const Heightfield>> NormalisedHeightfield(const HeightfieldGrid& grid,
                                                                 double elevation) {
  if (Status s = CheckGridSize("heightfield", grid.rows, grid.columns); !s.ok()) return s;
  if (grid.values.size() != size_t{grid.rows} * grid.columns) {
    return InvalidArgument("a heightfield of " + std::to_string(grid.rows) + " x " +
                           std::to_string(grid.columns) + " points has " +
                           std::to_string(grid.values.size()) + " values");
  }
  if (!(std::isfinite(elevation) && elevation > 0)) {
    return InvalidArgument("a heightfield's elevation must be finite and > 0");
  }
  const auto finite = [](float v) { return std::isfinite(v); };
  if (!std::all_of(grid.values.begin(), grid.values.end(), finite)) {
    return InvalidArgument("a heightfield's values must be finite");
  }
  const auto [low, high] = std::minmax_element(grid.values.begin(), grid.values.end());
  // In double, as MuJoCo's float arithmetic would round the range differently per point.
  const double minimum = *low, range = double{*high} - minimum;
  auto out = std::make_shared<Heightfield>();
  out->rows = grid.rows;
  out->columns = grid.columns;
  out->heights.resize(grid.values.size());
  for (size_t i = 0; i < grid.values.size(); ++i) {
    double normalised = grid.values[i] - minimum;
    if (range > 1e-14) normalised /= range;  // MuJoCo's mjEPS
    out->heights[i] = static_cast<float>(normalised * elevation);
  }
  return std::shared_ptr<const Heightfield>(std::move(out));
}

CollisionShape HeightfieldShape(std::string name, std::shared_ptr<const Heightfield> heights,
                                double radius_x, double radius_y, double base_z,
                                const std::array<double, 3>& position,
                                const std::array<double, 4>& quaternion) {
  CollisionShape shape;
  shape.name = std::move(name);
  shape.type = CollisionShapeType::kHeightfield;
  shape.link = -1;
  shape.position = position;
  shape.quaternion = quaternion;
  shape.size = {radius_x, radius_y, base_z};
  shape.heightfield = std::move(heights);
  return shape;
}

}  // namespace swarm
