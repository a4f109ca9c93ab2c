#include "swarm/kernels/base/targets.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/base/targets.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
inline int64_t TargetOfThisCode() { return HWY_TARGET; }
}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace swarm {

HWY_EXPORT(TargetOfThisCode);

int64_t ActiveKernelTarget() { return HWY_DYNAMIC_DISPATCH(TargetOfThisCode)(); }

int64_t CompiledKernelTargets() { return HWY_TARGETS; }

}  // namespace swarm
#endif  // HWY_ONCE
