// Nx-style printing of tensor views, so a person can eyeball a buffer of a million vectors:
//
//   f32[1000000][4]
//   [
//     [0.0, 1.5, -2.0, 1.0],
//     [0.5, 1.5, -2.0, 1.0],
//     ...,
//     [9.5, 0.25, 3.0, 1.0]
//   ]
//
// Past `limit` elements in all, each axis shows its first and last `edge_items` entries around a
// "..." line, so the cost depends on what is printed, not on the tensor's size.
#pragma once

#include <cstddef>
#include <string>

#include "swarm/tensor/tensor.h"

namespace swarm {

struct TensorFormatOptions {
  size_t limit = 1000;    // tensors with at most this many elements print whole
  size_t edge_items = 3;  // entries kept at each end of an axis when eliding
};

std::string FormatTensor(const TensorView& view, const TensorFormatOptions& options = {});

}  // namespace swarm
