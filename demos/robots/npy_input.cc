#include "demos/robots/npy_input.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace swarm {
namespace {

// Element (row, column) of a rank-2 view of T (any strides: numpy may write Fortran order).
template <typename T>
T ElementAt(const TensorView& view, int64_t row, int64_t column) {
  const int64_t index[] = {row, column};
  T value;
  std::memcpy(&value, view.ElementAddress(index), sizeof(T));
  return value;
}

double ValueAt(const TensorView& view, int64_t row, int64_t column) {
  return view.dtype() == DType::kF32 ? ElementAt<float>(view, row, column)
                                     : ElementAt<double>(view, row, column);
}

std::string FormatValue(double value) {
  char text[40];
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

}  // namespace

Status CheckRows(const TensorView& rows, const std::string& path, const RowsSpec& spec) {
  const size_t columns = spec.column_names.size();
  const std::string r = spec.rows > 0 ? std::to_string(spec.rows) : "R";
  const std::string expected_shape =
      "[" + r + ", " + std::to_string(columns) + "] (" +
      (spec.rows > 0 ? r + " robots as in --q" : std::string("R robots")) + ", " + spec.count +
      " " + std::to_string(columns) + " in the order of 'swarm-robots info')";
  const std::string source = spec.flag + " '" + path + "'";
  const std::string name = spec.flag.substr(2);
  if (rows.dtype() != DType::kF32 && rows.dtype() != DType::kF64) {
    return InvalidArgument(source + ": expected float32 or float64 " + spec.what + ", got " +
                           DTypeName(rows.dtype()) + " (convert with " + name +
                           ".astype(np.float32))");
  }
  if (rows.rank() != 2 || rows.shape(1) != static_cast<int64_t>(columns) ||
      (spec.rows > 0 && rows.shape(0) != spec.rows)) {
    return InvalidArgument(source + ": expected shape " + expected_shape + ", got " +
                           ShapeString(rows.shape()));
  }
  if (rows.shape(0) == 0) {
    return InvalidArgument(source + ": expected at least one robot (shape " + expected_shape +
                           "), got " + ShapeString(rows.shape()));
  }
  for (int64_t row = 0; row < rows.shape(0); ++row) {
    for (int64_t c = 0; c < rows.shape(1); ++c) {
      const double value = ValueAt(rows, row, c);
      const bool fits_float = std::fabs(value) <= std::numeric_limits<float>::max();
      if (!std::isfinite(value) || !fits_float) {
        return InvalidArgument(source + ": " + name + "[" + std::to_string(row) + ", " +
                               std::to_string(c) + "] (" + spec.column_names[c] + ") is " +
                               FormatValue(value) + "; every value must be finite" +
                               (std::isfinite(value) ? " and within float32 range" : ""));
      }
    }
  }
  return {};
}

void CopyRowsToLanes(const TensorView& rows, const LanesView& lanes) {
  for (size_t c = 0; c < lanes.arrays; ++c) {
    float* column = lanes.Array(c);
    for (size_t r = 0; r < lanes.count; ++r) {
      column[r] =
          static_cast<float>(ValueAt(rows, static_cast<int64_t>(r), static_cast<int64_t>(c)));
    }
  }
}

}  // namespace swarm
