// What the robot dynamics dispatch files (rnea.cc, crba.cc, tree_factor.cc, aba.cc) share:
// precondition checks (finite parameters, disjoint views, aligned scratch) and the one entry that
// crosses files, forward dynamics with couplings (dispatched in crba.cc, called by aba.cc's
// ForwardDynamics), so that each algorithm's per-target code compiles in its own unit. Internal.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "swarm/kernels/base/views.h"
#include "swarm/kernels/robots/dynamics/robot_dynamics.h"

namespace swarm::dynamics_dispatch {

inline bool AllFinite(const float* values, size_t count) {
  for (size_t k = 0; k < count; ++k) {
    if (!std::isfinite(values[k])) return false;
  }
  return true;
}

template <typename Float>
size_t Span(const BasicLanesView<Float>& view) {
  return view.arrays == 0 ? 0 : (view.arrays - 1) * view.stride + view.count;
}

// Whether two lane views share no float: an output never aliases an input.
template <typename A, typename B>
bool Disjoint(const BasicLanesView<A>& a, const BasicLanesView<B>& b) {
  const float* a_begin = a.data;
  const float* b_begin = b.data;
  return a.count == 0 || b.count == 0 || a_begin + Span(a) <= b_begin ||
         b_begin + Span(b) <= a_begin;
}

inline bool ScratchAligned(const float* scratch) {
  return scratch != nullptr && reinterpret_cast<uintptr_t>(scratch) % kAlignBytes == 0;
}

// Whether `trig` (or none) fits a call on `count` robots of `tree` (JointTrig) and shares no float
// with the call's views.
template <typename... Views>
bool ValidTrig(const DynamicsTree& tree, const JointTrig* trig, size_t count,
               const Views&... views) {
  if (trig == nullptr) return true;
  const LanesView& values = trig->values;
  return !HasCouplings(tree) && values.arrays == JointTrigArrays(tree) && values.count == count &&
         (values.arrays == 0 || values.data != nullptr) && (Disjoint(values, views) && ...);
}

// ForwardDynamics for a tree with couplings (HasCouplings), whose preconditions the caller checked:
// CRBA, RNEA at qdd = 0 and LTDL per vector of robots (crba-inl.h).
void CoupledForwardDynamics(const DynamicsTree& tree, const float gravity[3],
                            const ConstLanesView& q, const ConstLanesView& qd,
                            const ConstLanesView& tau, const LanesView& qdd, float* scratch,
                            const AddedInertia* added);

}  // namespace swarm::dynamics_dispatch
