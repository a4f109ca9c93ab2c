// Per-target code of the counter-based generator (swarm/kernels/base/random.h): the vector hash
// that the emitters (kernels/particles/emit-inl.h) share, and FillUniform.
//
// Based on: Salmon et al., "Parallel random numbers: as easy as 1, 2, 3" (SC 2011) for the
// counter-based idea, and C. Wellons' integer hash "lowbias32" (2018) as the mixing function.
// Only integer xor/shift/multiply and one exact int->float conversion are used, so every target
// produces the same bits.

#if defined(SWARM_KERNELS_RANDOM_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_RANDOM_INL_H_
#undef SWARM_KERNELS_RANDOM_INL_H_
#else
#define SWARM_KERNELS_RANDOM_INL_H_
#endif

#include <cstdint>

#include "hwy/highway.h"
#include "kernels/base/loop-inl.h"
#include "swarm/kernels/base/lowbias32.h"
#include "swarm/kernels/base/random.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class DU>
HWY_INLINE hn::Vec<DU> LowBias32(DU du, hn::Vec<DU> x) {
  x = hn::Xor(x, hn::ShiftRight<16>(x));
  x = hn::Mul(x, hn::Set(du, kLowBiasMul1));
  x = hn::Xor(x, hn::ShiftRight<15>(x));
  x = hn::Mul(x, hn::Set(du, kLowBiasMul2));
  x = hn::Xor(x, hn::ShiftRight<16>(x));
  return x;
}

// The two 32-bit keys a stream mixes into every counter.
struct RandomKeys {
  uint32_t first;
  uint32_t second;
};

inline RandomKeys KeysFor(RandomStream random) {
  const uint32_t seed_low = static_cast<uint32_t>(random.seed);
  const uint32_t seed_high = static_cast<uint32_t>(random.seed >> 32);
  // Qualified: the vector overload in this namespace hides the scalar one.
  const uint32_t first = ::swarm::LowBias32(seed_low ^ ::swarm::LowBias32(seed_high ^ 0x9e3779b9u));
  const uint32_t second = ::swarm::LowBias32(first ^ random.stream ^ 0x85ebca6bu);
  return {first, second};
}

// Uniform floats in [0, 1) for the given counters.
template <class DF>
HWY_INLINE hn::Vec<DF> UniformFromCounters(DF df, RandomKeys keys,
                                           hn::Vec<hn::RebindToUnsigned<DF>> counters) {
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  auto bits = LowBias32(du, hn::Xor(counters, hn::Set(du, keys.first)));
  bits = LowBias32(du, hn::Add(bits, hn::Set(du, keys.second)));
  const auto top24 = hn::BitCast(di, hn::ShiftRight<8>(bits));
  return hn::Mul(hn::ConvertTo(df, top24), hn::Set(df, 1.0f / 16777216.0f));
}

// Counters base + i for the lanes of the vector at element i.
template <class DF>
HWY_INLINE hn::Vec<hn::RebindToUnsigned<DF>> CountersAt(DF /*tag*/, uint32_t base) {
  const hn::RebindToUnsigned<DF> du;
  return hn::Iota(du, base);
}

inline void FillUniformImpl(const FloatView& out, RandomStream random, uint32_t first_index,
                            float lo, float hi) {
  const hn::ScalableTag<float> d;
  const RandomKeys keys = KeysFor(random);
  const auto offset = hn::Set(d, lo);
  const auto range = hn::Set(d, hi - lo);
  ForEachVector(d, out.count, [&](size_t i, auto store) HWY_ATTR {
    const auto counters = CountersAt(d, first_index + static_cast<uint32_t>(i));
    const auto u = UniformFromCounters(d, keys, counters);
    store(hn::Add(offset, hn::Mul(u, range)), d, out.data + i);
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_RANDOM_INL_H_
