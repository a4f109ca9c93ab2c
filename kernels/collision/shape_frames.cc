// Dispatch of ShapeFramesFromPoses (kernels/collision/shape_frames-inl.h): compiled once per SIMD
// target.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/collision/shape_frames-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/collision/shape_frames-inl.h"

#if HWY_ONCE
#include "kernels/collision/narrow_phase_entries.h"

namespace swarm {
HWY_EXPORT(ShapeFramesImpl);

namespace narrow_phase {
void ShapeFrames(const ConstLanesView& link_poses, size_t first_array, const float position[3],
                 const float rotation[9], const LanesView& frames) {
  HWY_DYNAMIC_DISPATCH(ShapeFramesImpl)(link_poses, first_array, position, rotation, frames);
}
}  // namespace narrow_phase
}  // namespace swarm
#endif  // HWY_ONCE
