// Test support for the matrix transform kernels (kernels/transform.*): padded SoA matrices built
// by hand (like PaddedVec4 in particle_fixture.h, independent of swarm/core/buffer.h), seeded
// random matrices and vectors, bitwise comparisons, and the error bound used against GLM in double.
#pragma once

#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <glm/mat4x4.hpp>
#include <glm/vec4.hpp>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tests/kernels/geometry/padded_mat4.h"
#include "tests/kernels/particles/particle_fixture.h"

namespace swarm::test {

// Entries of magnitude in [1/16, 2] with random signs, never zero, so every product term
// contributes and a dropped or reordered term changes the result. The bottom row is random too
// (a projective matrix).
inline glm::mat4 RandomMatrix(std::mt19937& rng) {
  std::uniform_real_distribution<float> entry(0.0625f, 2.0f);
  std::bernoulli_distribution negative(0.5);
  glm::mat4 m;
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) m[c][r] = negative(rng) ? -entry(rng) : entry(rng);
  }
  return m;
}

// Vectors with x, y, z in [-10, 10] and w in [0.5, 2] (w is read only in kHomogeneous mode).
inline PaddedVec4 RandomVectors(size_t count, uint32_t seed, float padding = 0.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> xyz(-10.0f, 10.0f);
  std::uniform_real_distribution<float> w(0.5f, 2.0f);
  PaddedVec4 out(count, padding);
  for (size_t i = 0; i < count; ++i) out.Set(i, {xyz(rng), xyz(rng), xyz(rng), w(rng)});
  return out;
}

inline PaddedMat4 RandomMatrices(size_t count, uint32_t seed, float padding = 0.0f) {
  std::mt19937 rng(seed);
  PaddedMat4 out(count, padding);
  for (size_t i = 0; i < count; ++i) out.Set(i, RandomMatrix(rng));
  return out;
}

// Empty if the first `want.size()` vectors of `got` have exactly the bits of `want`, else the
// first difference and the number of differing floats.
inline std::string BitwiseReport(const PaddedVec4& got, const std::vector<glm::vec4>& want) {
  size_t mismatches = 0;
  std::ostringstream first;
  first.precision(9);
  for (size_t i = 0; i < want.size(); ++i) {
    for (int lane = 0; lane < 4; ++lane) {
      const float g = got.Lane(static_cast<size_t>(lane))[i];
      if (!SameBits(g, want[i][lane]) && mismatches++ == 0) {
        first << "element " << i << " lane " << lane << ": got " << g << ", want " << want[i][lane];
      }
    }
  }
  if (mismatches == 0) return {};
  return first.str() + " (" + std::to_string(mismatches) + " bit mismatches)";
}

// Comparison with exact (double) arithmetic. A sum of products of floats evaluated in float with
// k roundings on the longest path (3 for glm's pairwise mat4 * vec4, 4 for its left-to-right
// mat4 * mat4) has error at most about k u sum|terms| (Higham, Accuracy and Stability, 3.1), u =
// 2^-24. The test allows kDoubleRelative sum|terms| + kDoubleAbsolute: 8 u, twice the worst case,
// so the check is robust yet still catches a lost term or a wrong entry.
inline constexpr double kUnitRoundoff = 0x1p-24;
inline constexpr double kDoubleRelative = 8 * kUnitRoundoff;
inline constexpr double kDoubleAbsolute = 1e-7;

// A value computed in double together with the scale its float evaluation's error is bounded by.
struct Exact {
  double value = 0.0;
  double scale = 0.0;  // sum |terms|
};

inline Exact Dot4(const glm::dmat4& m, int row, const glm::dvec4& v) {
  Exact out;
  for (int k = 0; k < 4; ++k) {
    out.value += m[k][row] * v[k];
    out.scale += std::abs(m[k][row] * v[k]);
  }
  return out;
}

inline bool CloseToExact(float got, const Exact& want) {
  return std::abs(static_cast<double>(got) - want.value) <=
         kDoubleAbsolute + kDoubleRelative * want.scale;
}

// q = a / w where a and w carry errors bounded as above, plus the rounding of the quotient:
// |dq| <= (da + |q| dw) / |w| + u |q|. Returns nothing if w is within its own error bound of zero
// (the float sign of w is then not determined and no bound holds).
inline std::optional<Exact> Quotient(const Exact& a, const Exact& w) {
  const double w_error = kDoubleAbsolute + kDoubleRelative * w.scale;
  if (std::abs(w.value) <= 2 * w_error) return std::nullopt;
  const double q = a.value / w.value;
  const double a_error = kDoubleAbsolute + kDoubleRelative * a.scale;
  const double error =
      (a_error + std::abs(q) * w_error) / std::abs(w.value) + 2 * kUnitRoundoff * std::abs(q);
  // Expressed as a scale so CloseToExact applies: relative * scale = error - absolute.
  return Exact{q, std::max(0.0, error - kDoubleAbsolute) / kDoubleRelative};
}

}  // namespace swarm::test
