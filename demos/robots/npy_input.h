// Rows of per-robot values read from .npy files (--q, --qd, --tau): the checks every command makes
// before it uses them, and the copy into a batch's lane arrays.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "swarm/core/status.h"
#include "swarm/kernels/base/views.h"
#include "swarm/tensor/tensor.h"

namespace swarm {

// What a [R, columns] array of robot rows must be.
struct RowsSpec {
  std::string flag;                       // "--q"
  std::string what;                       // "joint values"
  std::string count;                      // the column count's name in messages: "q_count"
  std::vector<std::string> column_names;  // in the order of 'swarm-robots info'
  int64_t rows = 0;  // required row count (another input's), or 0 for any R >= 1
};

// Checks dtype (float32 or float64), shape [R, columns] (any memory order), R >= 1 (or
// spec.rows) and that every value is finite and within float32 range. Errors name the flag, the
// path, and for a bad value its row, column and column name.
Status CheckRows(const TensorView& rows, const std::string& path, const RowsSpec& spec);

// Column c of `rows` into lane array c of `lanes` (float64 rounded to float32).
void CopyRowsToLanes(const TensorView& rows, const LanesView& lanes);

}  // namespace swarm
