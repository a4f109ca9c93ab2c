// Plain scalar references of the tensor row kernels (swarm/kernels/tensor/row_kernels.h), written
// from the documented definitions without SIMD, lane states or stack copies, for tests and
// benchmarks.
#pragma once

#include <cstddef>

#include "swarm/kernels/tensor/row_kernels.h"

namespace swarm::reference {

// One element of UnaryRow.
float Unary(UnaryOp op, float a);
// One element of ElementwiseRow.
float Elementwise(ElementwiseOp op, float a, float b);
// out[i] = a[i * a_step] op b[i * b_step]; any steps.
void ElementwiseRow(ElementwiseOp op, const float* a, ptrdiff_t a_step, const float* b,
                    ptrdiff_t b_step, float* out, size_t count);

// The deterministic reductions of a sequence of `count` floats, values[0] first: accumulator
// k mod 32 gets element k, then the pairwise tree (sum as double; count 0 gives +0.0; a NaN
// sum is the quiet NaN).
double Sum(const float* values, size_t count);
// Min / max with -0 below +0; quiet NaN if any element is NaN. count >= 1.
float Min(const float* values, size_t count);
float Max(const float* values, size_t count);

}  // namespace swarm::reference
