// Per-target code of the tree factorisation of the joint-space mass matrix and its solves
// (LTDL, Featherstone tables 6.3 and 6.4; swarm/kernels/robots/dynamics/robot_dynamics.h:
// FactorMassMatrix, SolveMassMatrix). Dispatched from tree_factor.cc; CRBA (crba-inl.h: the
// matrix and its factor in one pass, forward dynamics with couplings) and ABA's floating base
// (aba-inl.h: its 6 x 6 system) factor in their slots with the same functions.

#if defined(SWARM_KERNELS_ROBOTS_DYNAMICS_TREE_FACTOR_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_ROBOTS_DYNAMICS_TREE_FACTOR_INL_H_
#undef SWARM_KERNELS_ROBOTS_DYNAMICS_TREE_FACTOR_INL_H_
#else
#define SWARM_KERNELS_ROBOTS_DYNAMICS_TREE_FACTOR_INL_H_
#endif

#include <cstddef>
#include <cstdint>

#include "hwy/highway.h"
#include "kernels/robots/dynamics/robot_dynamics_layout.h"
#include "kernels/robots/dynamics/spatial_algebra-inl.h"
#include "swarm/kernels/robots/dynamics/robot_dynamics.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace dl = dynamics_layout;

// Dense and tree-sparse LTDL in slots. parent[k] < k is the
// nearest index row k depends on, -1 for none; nullptr means the chain k - 1 (dense LDL^T).

inline int32_t ParentIndex(const int32_t* parent, size_t k) {
  return parent == nullptr ? static_cast<int32_t>(k) - 1 : parent[k];
}

// In place on the lower triangle of the n x n matrix at slot m: D on the diagonal, L below.
template <class D>
HWY_INLINE void FactorInSlots(D d, const Slots& s, size_t m, size_t n, const int32_t* parent) {
  const auto at = [&](size_t row, size_t column) HWY_ATTR { return m + row * n + column; };
  for (size_t k = n; k-- > 0;) {
    // One division per pivot: a vector division costs as much as a dozen products.
    const hn::Vec<D> inverse_pivot = hn::Div(hn::Set(d, 1.0f), Get(d, s, at(k, k)));
    for (int32_t i = ParentIndex(parent, k); i >= 0; i = ParentIndex(parent, size_t(i))) {
      const size_t ui = static_cast<size_t>(i);
      const hn::Vec<D> a = hn::Mul(Get(d, s, at(k, ui)), inverse_pivot);
      for (int32_t j = i; j >= 0; j = ParentIndex(parent, size_t(j))) {
        const size_t uj = static_cast<size_t>(j);
        Put(d, s, at(ui, uj), hn::Sub(Get(d, s, at(ui, uj)), hn::Mul(a, Get(d, s, at(k, uj)))));
      }
      Put(d, s, at(k, ui), a);
    }
  }
}

// x (n slots) = M^-1 x in place, from FactorInSlots's factor at slot m.
template <class D>
HWY_INLINE void SolveInSlots(D d, const Slots& s, size_t m, size_t n, const int32_t* parent,
                             size_t x) {
  const auto at = [&](size_t row, size_t column) HWY_ATTR { return m + row * n + column; };
  for (size_t k = n; k-- > 0;) {  // L^T y = b
    const hn::Vec<D> xk = Get(d, s, x + k);
    for (int32_t j = ParentIndex(parent, k); j >= 0; j = ParentIndex(parent, size_t(j))) {
      const size_t uj = static_cast<size_t>(j);
      Put(d, s, x + uj, hn::Sub(Get(d, s, x + uj), hn::Mul(Get(d, s, at(k, uj)), xk)));
    }
  }
  for (size_t k = 0; k < n; ++k) Put(d, s, x + k, hn::Div(Get(d, s, x + k), Get(d, s, at(k, k))));
  for (size_t k = 0; k < n; ++k) {  // L x = z
    hn::Vec<D> xk = Get(d, s, x + k);
    for (int32_t j = ParentIndex(parent, k); j >= 0; j = ParentIndex(parent, size_t(j))) {
      const size_t uj = static_cast<size_t>(j);
      xk = hn::Sub(xk, hn::Mul(Get(d, s, at(k, uj)), Get(d, s, x + uj)));
    }
    Put(d, s, x + k, xk);
  }
}

inline void FactorMassMatrixImpl(const DynamicsTree& tree, const ConstLanesView& mass_matrix,
                                 const LanesView& factor, float* scratch) {
  const hn::ScalableTag<float> d;
  const InLanes in{mass_matrix.data, mass_matrix.stride};
  const OutLanes out{factor.data, factor.stride};
  const size_t n = tree.velocity_count();
  const size_t matrix = dl::ScratchRegions(tree.body_count, n).matrix;
  const Slots shared = PrepareScratch(tree, scratch);
  ForEachVector(d, factor.count, [&](size_t i, auto store) HWY_ATTR {
    const Slots local = shared;
    const Slots& s = VectorSlots(local, shared);
    PrefetchInputs(d, mass_matrix, i), PrefetchOutputs(d, factor, i);
    for (size_t row = 0; row < n; ++row) {
      for (size_t col = 0; col < n; ++col) {
        Put(d, s, matrix + row * n + col,
            col <= row ? hn::LoadU(d, in.Array(row * n + col) + i) : hn::Zero(d));
      }
    }
    FactorInSlots(d, s, matrix, n, tree.velocity_parent);
    StoreSlots(d, s, matrix, n * n, out, i, store);
  });
}

inline void SolveMassMatrixImpl(const DynamicsTree& tree, const ConstLanesView& factor,
                                const ConstLanesView& b, const LanesView& x, float* scratch) {
  const hn::ScalableTag<float> d;
  const InLanes f_in{factor.data, factor.stride}, b_in{b.data, b.stride};
  const OutLanes out{x.data, x.stride};
  const size_t n = tree.velocity_count();
  const dl::Regions regions = dl::ScratchRegions(tree.body_count, n);
  const Slots shared = PrepareScratch(tree, scratch);
  ForEachVector(d, x.count, [&](size_t i, auto store) HWY_ATTR {
    const Slots local = shared;
    const Slots& s = VectorSlots(local, shared);
    PrefetchInputs(d, factor, i), PrefetchInputs(d, b, i), PrefetchOutputs(d, x, i);
    for (size_t k = 0; k < n * n; ++k) {
      Put(d, s, regions.matrix + k, hn::LoadU(d, f_in.Array(k) + i));
    }
    for (size_t k = 0; k < n; ++k) Put(d, s, regions.vector1 + k, hn::LoadU(d, b_in.Array(k) + i));
    SolveInSlots(d, s, regions.matrix, n, tree.velocity_parent, regions.vector1);
    StoreSlots(d, s, regions.vector1, n, out, i, store);
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_ROBOTS_DYNAMICS_TREE_FACTOR_INL_H_
