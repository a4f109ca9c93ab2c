// The exact sum of floats, rounded once at the end. Floating-point addition is not associative,
// so a sum in double depends on the order of its terms and on how they are split: a batch's mean
// error summed by one process and by four (each summing its robots, then the four partial sums)
// would differ in the last bits. ExactSum keeps the sum as a fixed-point integer wide enough for
// every float (each float is an integer multiple of 2^-149 below 2^128) and 2^64 of them, so
// adding is exact, the order and any split into merged accumulators give the same bits, and only
// Value() rounds, once, to the nearest double (ties to even).
//
//   ExactSum total;
//   for (float error : errors) total.Add(error);
//   other_process_total.Merge(total);        // or through Words() / FromWords()
//   double mean = total.Value() / count;
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace swarm {

class ExactSum {
 public:
  // Two's complement, limb 0 least significant, bit 0 worth 2^-149 (the smallest float): floats
  // reach bit 277 and 2^64 of them bit 341, below the sign bit 383.
  static constexpr size_t kLimbs = 6;
  // Limbs, then the special values seen (bits: 1 NaN, 2 +inf, 4 -inf).
  static constexpr size_t kWords = kLimbs + 1;

  void Add(float value);
  void Merge(const ExactSum& other);
  // The sum rounded to the nearest double: NaN if a NaN, or both infinities, were added; an
  // infinity if one was; +0.0 for a sum that is exactly zero (an empty sum too).
  double Value() const;

  // The state as words, and back, for moving sums between processes.
  std::array<uint64_t, kWords> Words() const;
  static ExactSum FromWords(std::span<const uint64_t, kWords> words);

 private:
  std::array<uint64_t, kLimbs> limbs_{};
  uint64_t specials_ = 0;
};

}  // namespace swarm
