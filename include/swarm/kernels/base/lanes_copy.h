// Copying lane arrays, optionally past the caches: pure data movement, bit-exact on every target.
#pragma once

#include "swarm/kernels/base/views.h"

namespace swarm {

// to = from, array by array (equal arrays and counts; the views share no float). With `streamed`
// and vector-aligned arrays (IsVectorAligned, strides of whole vectors) the whole vectors are
// written with non-temporal stores, which skip reading every destination line before writing it:
// for copies far larger than the caches that nothing reads soon (a robot step's saved start
// state); the last partial vector and unaligned views take ordinary stores. Padding past `count`
// is never written.
void CopyLanes(const ConstLanesView& from, const LanesView& to, bool streamed);

}  // namespace swarm
