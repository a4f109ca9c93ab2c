#include "swarm/core/exact_sum.h"

#include <bit>
#include <cmath>
#include <limits>

namespace swarm {
namespace {

constexpr uint64_t kNaN = 1, kPlusInfinity = 2, kMinusInfinity = 4;

using Limbs = std::array<uint64_t, ExactSum::kLimbs>;

// a += b, modulo 2^(64 kLimbs).
void AddLimbs(Limbs& a, const Limbs& b) {
  uint64_t carry = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const uint64_t sum = a[i] + b[i];
    const uint64_t with_carry = sum + carry;
    carry = (sum < a[i]) + (with_carry < sum);
    a[i] = with_carry;
  }
}

Limbs Negated(const Limbs& a) {
  Limbs result;
  for (size_t i = 0; i < a.size(); ++i) result[i] = ~a[i];
  Limbs one{};
  one[0] = 1;
  AddLimbs(result, one);
  return result;
}

bool Bit(const Limbs& a, size_t bit) { return (a[bit / 64] >> (bit % 64)) & 1; }

// Bits [low, low + 64) of a (past the top: zero).
uint64_t Window(const Limbs& a, size_t low) {
  const size_t limb = low / 64, shift = low % 64;
  uint64_t window = a[limb] >> shift;
  if (shift != 0 && limb + 1 < a.size()) window |= a[limb + 1] << (64 - shift);
  return window;
}

}  // namespace

void ExactSum::Add(float value) {
  if (std::isnan(value)) {
    specials_ |= kNaN;
    return;
  }
  if (std::isinf(value)) {
    specials_ |= value > 0 ? kPlusInfinity : kMinusInfinity;
    return;
  }
  const auto bits = std::bit_cast<uint32_t>(value);
  const uint32_t exponent = (bits >> 23) & 0xff;
  const uint64_t mantissa = exponent == 0 ? (bits & 0x7fffff) : ((bits & 0x7fffff) | 0x800000);
  // value = mantissa * 2^(exponent - 150) (subnormals: 2^-149), so it sits at bit exponent - 1.
  const size_t position = exponent == 0 ? 0 : exponent - 1;
  Limbs term{};
  const size_t limb = position / 64, shift = position % 64;
  term[limb] = mantissa << shift;
  if (shift > 40) term[limb + 1] = mantissa >> (64 - shift);  // a 24-bit mantissa spills over
  AddLimbs(limbs_, std::signbit(value) ? Negated(term) : term);
}

void ExactSum::Merge(const ExactSum& other) {
  AddLimbs(limbs_, other.limbs_);
  specials_ |= other.specials_;
}

double ExactSum::Value() const {
  if ((specials_ & kNaN) ||
      (specials_ & (kPlusInfinity | kMinusInfinity)) == (kPlusInfinity | kMinusInfinity)) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  if (specials_ & kPlusInfinity) return std::numeric_limits<double>::infinity();
  if (specials_ & kMinusInfinity) return -std::numeric_limits<double>::infinity();
  const bool negative = limbs_.back() >> 63;
  const Limbs magnitude = negative ? Negated(limbs_) : limbs_;
  size_t top = 0;  // one past the highest set bit
  for (size_t i = magnitude.size(); i-- > 0;) {
    if (magnitude[i] != 0) {
      top = 64 * i + 64 - static_cast<size_t>(std::countl_zero(magnitude[i]));
      break;
    }
  }
  if (top == 0) return 0.0;
  double result;
  if (top <= 53) {
    result = std::ldexp(static_cast<double>(magnitude[0]), -149);  // exact
  } else {
    // The top 53 bits, rounded to nearest with ties to even on the bits below them.
    const size_t low = top - 53;
    uint64_t mantissa = Window(magnitude, low) & ((uint64_t{1} << 53) - 1);
    const bool half = Bit(magnitude, low - 1);
    bool below_half = false;
    for (size_t i = 0; i + 1 < low && !below_half; i += 64) {
      const uint64_t word = Window(magnitude, i);
      const size_t bits = std::min<size_t>(64, low - 1 - i);
      below_half = (bits == 64 ? word : word & ((uint64_t{1} << bits) - 1)) != 0;
    }
    if (half && (below_half || (mantissa & 1))) ++mantissa;  // 2^53 stays exact in a double
    result = std::ldexp(static_cast<double>(mantissa), static_cast<int>(low) - 149);
  }
  return negative ? -result : result;
}

std::array<uint64_t, ExactSum::kWords> ExactSum::Words() const {
  std::array<uint64_t, kWords> words;
  for (size_t i = 0; i < kLimbs; ++i) words[i] = limbs_[i];
  words[kLimbs] = specials_;
  return words;
}

ExactSum ExactSum::FromWords(std::span<const uint64_t, kWords> words) {
  ExactSum sum;
  for (size_t i = 0; i < kLimbs; ++i) sum.limbs_[i] = words[i];
  sum.specials_ = words[kLimbs] & (kNaN | kPlusInfinity | kMinusInfinity);
  return sum;
}

}  // namespace swarm
