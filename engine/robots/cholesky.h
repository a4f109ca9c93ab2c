// Cholesky factorisation of a symmetric matrix in double precision, for model set-up (internal to
// engine/robots): the constraint model's inverse inertias and the dynamics model's check that a
// mass matrix is positive definite.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

namespace swarm {

// Factors the n x n row-major matrix `a` = L L^T in place (L in the lower triangle; the upper is
// left as it was). Returns n, or the first column whose pivot is not > min_pivot (then `a` is
// partly factored).
inline size_t CholeskyFactor(std::vector<double>& a, size_t n, double min_pivot = 0.0) {
  for (size_t j = 0; j < n; ++j) {
    double diagonal = a[j * n + j];
    for (size_t k = 0; k < j; ++k) diagonal -= a[j * n + k] * a[j * n + k];
    if (!(diagonal > min_pivot)) return j;
    const double l = std::sqrt(diagonal);
    a[j * n + j] = l;
    for (size_t i = j + 1; i < n; ++i) {
      double value = a[i * n + j];
      for (size_t k = 0; k < j; ++k) value -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = value / l;
    }
  }
  return n;
}

}  // namespace swarm
