// Per-target code of the matrix transform kernels (see swarm/kernels/geometry/transform.h for the
// maths and the operation order). Every row is spelled with separate Mul/Add in glm's order;
// compiled with -ffp-contract=off this is the same rounding sequence on every target and in the
// scalar references (kernels/geometry/transform_reference.cc).
//
// Shape of the loops: the one-matrix kernels broadcast the 16 (or 12) matrix entries once per call
// (MatrixEntries), so the loop body is only the lane loads, 3 Mul + 3 Add per row and the stores;
// the mode and the divide are template parameters, so no branch runs per element. Each body loads
// all its inputs before its first store, which is what makes in == out safe.
//
// Vectors live only in named locals, function parameters and VectorScratch, never in arrays or
// structs: SVE vectors are sizeless, and C++ allows them neither as array elements nor as struct
// members (GCC: "array elements cannot have SVE type"). The broadcast entries are kept in
// VectorScratch: on x86 the compiler then keeps them in registers and spill slots as it did an
// array of vectors (the same loop instructions on AVX3, AVX2 and SSE4); on SVE each use is an L1
// load. Re-broadcasting from a local copy of the matrix instead lets GCC rematerialize the
// broadcasts inside the loop once registers run out (SSE4 CameraProject: a movss + shufps per
// entry, 106 instructions per iteration instead of 82). A matrix product's entries of `a` are
// named locals, which stay in registers on SVE too.

#if defined(SWARM_KERNELS_TRANSFORM_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_TRANSFORM_INL_H_
#undef SWARM_KERNELS_TRANSFORM_INL_H_
#else
#define SWARM_KERNELS_TRANSFORM_INL_H_
#endif

#include <cstddef>
#include <cstdint>

#include "hwy/highway.h"
#include "kernels/base/loop-inl.h"
#include "kernels/base/vector_scratch-inl.h"
#include "swarm/kernels/geometry/transform.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Row r of m * (x, y, z, w) for the three modes; m0..m3 are m[0][r] .. m[3][r].
// glm: (m0 x + m1 y) + (m2 z + m3 w). With w = 1 the last product is m3 itself (exact), so
// kPoints drops that Mul and stays bitwise equal to glm's m * vec4(p, 1).
template <class V>
HWY_INLINE V HomogeneousRow(V m0, V m1, V m2, V m3, V x, V y, V z, V w) {
  return hn::Add(hn::Add(hn::Mul(m0, x), hn::Mul(m1, y)), hn::Add(hn::Mul(m2, z), hn::Mul(m3, w)));
}
template <class V>
HWY_INLINE V PointRow(V m0, V m1, V m2, V m3, V x, V y, V z) {
  return hn::Add(hn::Add(hn::Mul(m0, x), hn::Mul(m1, y)), hn::Add(hn::Mul(m2, z), m3));
}
// glm's mat3 * vec3 order, ((m0 x + m1 y) + m2 z): the translation column is not read.
template <class V>
HWY_INLINE V DirectionRow(V m0, V m1, V m2, V x, V y, V z) {
  return hn::Add(hn::Add(hn::Mul(m0, x), hn::Mul(m1, y)), hn::Mul(m2, z));
}

// The 16 entries of one matrix, each broadcast to a whole vector once per call.
template <class D>
class MatrixEntries {
 public:
  MatrixEntries(D d, const glm::mat4& matrix) {
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 4; ++r) vectors_.Set(d, Slot(c, r), hn::Set(d, matrix[c][r]));
    }
  }
  // Column c, row r.
  HWY_INLINE hn::Vec<D> Get(D d, int c, int r) const { return vectors_.Get(d, Slot(c, r)); }

 private:
  static size_t Slot(int c, int r) { return static_cast<size_t>(4 * c + r); }
  VectorScratch<D, 16> vectors_;
};

// Row r of m * (x, y, z, w) in kMode's order, where `m(column, row)` yields the matrix entry as a
// vector (broadcast or loaded per element). w is read only by kHomogeneous.
template <TransformMode kMode, class V, class Entry>
HWY_INLINE V Row(const Entry& m, int r, V x, V y, V z, V w) {
  if constexpr (kMode == TransformMode::kHomogeneous) {
    return HomogeneousRow(m(0, r), m(1, r), m(2, r), m(3, r), x, y, z, w);
  } else if constexpr (kMode == TransformMode::kPoints) {
    return PointRow(m(0, r), m(1, r), m(2, r), m(3, r), x, y, z);
  } else {
    return DirectionRow(m(0, r), m(1, r), m(2, r), x, y, z);
  }
}

// kHomogeneous and a divide need row 3, the transformed w (the divide divides by it); otherwise
// rows 0-2 suffice and lane w of the output is a constant.
template <TransformMode kMode, bool kDivide>
inline constexpr bool kComputesRowW = kMode == TransformMode::kHomogeneous || kDivide;

// Row 3 where kComputesRowW; otherwise a placeholder that StoreRows never reads, so that row 3 of
// the matrix is not read either.
template <TransformMode kMode, bool kDivide, class V, class Entry>
HWY_INLINE V RowW(const Entry& m, V x, V y, V z, V w) {
  if constexpr (kComputesRowW<kMode, kDivide>) {
    return Row<kMode>(m, 3, x, y, z, w);
  } else {
    return x;
  }
}

// Stores rows 0-2 and w (and divides by row_w if kDivide) to the four output lanes at element i.
template <TransformMode kMode, bool kDivide, class D, class V, class Store>
HWY_INLINE void StoreRows(D d, V row0, V row1, V row2, V row_w, const Store& store, float* out_x,
                          float* out_y, float* out_z, float* out_w) {
  if constexpr (kDivide) {
    store(hn::Div(row0, row_w), d, out_x);
    store(hn::Div(row1, row_w), d, out_y);
    store(hn::Div(row2, row_w), d, out_z);
    store(hn::Set(d, 1.0f), d, out_w);
  } else {
    store(row0, d, out_x);
    store(row1, d, out_y);
    store(row2, d, out_z);
    if constexpr (kMode == TransformMode::kHomogeneous) {
      store(row_w, d, out_w);
    } else {
      store(hn::Set(d, kMode == TransformMode::kPoints ? 1.0f : 0.0f), d, out_w);
    }
  }
}

// Vector i of the input lanes through the matrix whose entry(c, r) is column c, row r (the same
// for every lane, or each lane's own matrix), stored to the output lanes.
template <TransformMode kMode, bool kDivide, class D, class Entry, class Store>
HWY_INLINE void TransformVector(D d, const Entry& entry, const InOutLanes& lanes, size_t i,
                                const Store& store) {
  using V = hn::Vec<D>;
  const V x = hn::LoadU(d, lanes.in[0] + i);
  const V y = hn::LoadU(d, lanes.in[1] + i);
  const V z = hn::LoadU(d, lanes.in[2] + i);
  V w = x;  // unused unless kHomogeneous
  if constexpr (kMode == TransformMode::kHomogeneous) w = hn::LoadU(d, lanes.in[3] + i);
  const V row0 = Row<kMode>(entry, 0, x, y, z, w);
  const V row1 = Row<kMode>(entry, 1, x, y, z, w);
  const V row2 = Row<kMode>(entry, 2, x, y, z, w);
  const V row_w = RowW<kMode, kDivide>(entry, x, y, z, w);
  StoreRows<kMode, kDivide>(d, row0, row1, row2, row_w, store, lanes.out[0] + i, lanes.out[1] + i,
                            lanes.out[2] + i, lanes.out[3] + i);
}

template <TransformMode kMode, bool kDivide>
HWY_INLINE void TransformBroadcast(const glm::mat4& matrix, const ConstVec4View& in,
                                   const Vec4View& out) {
  const hn::ScalableTag<float> d;
  const MatrixEntries<decltype(d)> entries(d, matrix);
  const auto entry = [&](int c, int r) HWY_ATTR { return entries.Get(d, c, r); };
  const InOutLanes lanes(in, out);
  ForEachVector(d, in.count, [&](size_t i, auto store) HWY_ATTR {
    TransformVector<kMode, kDivide>(d, entry, lanes, i, store);
  });
}

inline void TransformVectorsImpl(const glm::mat4& matrix, const ConstVec4View& in,
                                 const Vec4View& out, const TransformParams& params) {
  switch (params.mode) {
    case TransformMode::kPoints:
      if (params.perspective_divide) {
        return TransformBroadcast<TransformMode::kPoints, true>(matrix, in, out);
      }
      return TransformBroadcast<TransformMode::kPoints, false>(matrix, in, out);
    case TransformMode::kDirections:
      return TransformBroadcast<TransformMode::kDirections, false>(matrix, in, out);
    case TransformMode::kHomogeneous:
      if (params.perspective_divide) {
        return TransformBroadcast<TransformMode::kHomogeneous, true>(matrix, in, out);
      }
      return TransformBroadcast<TransformMode::kHomogeneous, false>(matrix, in, out);
  }
}

template <TransformMode kMode>
HWY_INLINE void TransformPerElement(const ConstMat4View& matrices, const ConstVec4View& in,
                                    const Vec4View& out) {
  const hn::ScalableTag<float> d;
  const float* matrix_data = matrices.data;
  const size_t matrix_stride = matrices.lane_stride;
  const InOutLanes lanes(in, out);
  ForEachVector(d, in.count, [&](size_t i, auto store) HWY_ATTR {
    const float* element = matrix_data + i;
    const auto entry = [&](int c, int r) HWY_ATTR {
      return hn::LoadU(d, element + static_cast<size_t>(4 * c + r) * matrix_stride);
    };
    TransformVector<kMode, false>(d, entry, lanes, i, store);
  });
}

inline void TransformVectorsPerElementImpl(const ConstMat4View& matrices, const ConstVec4View& in,
                                           const Vec4View& out, TransformMode mode) {
  switch (mode) {
    case TransformMode::kPoints:
      return TransformPerElement<TransformMode::kPoints>(matrices, in, out);
    case TransformMode::kDirections:
      return TransformPerElement<TransformMode::kDirections>(matrices, in, out);
    case TransformMode::kHomogeneous:
      return TransformPerElement<TransformMode::kHomogeneous>(matrices, in, out);
  }
}

// Entry (c, r) of a * b, where a0..a3 are row r of a's four columns and b0..b3 column c of b,
// summed left to right as glm's mat4 * mat4 does.
template <class V>
HWY_INLINE V ProductEntry(V a0, V a1, V a2, V a3, V b0, V b1, V b2, V b3) {
  V sum = hn::Add(hn::Mul(a0, b0), hn::Mul(a1, b1));
  sum = hn::Add(sum, hn::Mul(a2, b2));
  return hn::Add(sum, hn::Mul(a3, b3));
}

// Column c of a * b is a * (column c of b). a's 16 entries are loaded once per vector of elements
// into named locals (a_cr: column c, row r) and reused for all four columns.
inline void MultiplyMatricesImpl(const ConstMat4View& a, const ConstMat4View& b,
                                 const Mat4View& out) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const float* HWY_RESTRICT a_data = a.data;
  const float* HWY_RESTRICT b_data = b.data;
  float* HWY_RESTRICT out_data = out.data;
  const size_t a_stride = a.lane_stride;
  const size_t b_stride = b.lane_stride;
  const size_t out_stride = out.lane_stride;
  ForEachVector(d, a.count, [&](size_t i, auto store) HWY_ATTR {
    const auto lhs = [&](size_t column, size_t row) HWY_ATTR {
      return hn::LoadU(d, a_data + (4 * column + row) * a_stride + i);
    };
    const V a00 = lhs(0, 0), a01 = lhs(0, 1), a02 = lhs(0, 2), a03 = lhs(0, 3);
    const V a10 = lhs(1, 0), a11 = lhs(1, 1), a12 = lhs(1, 2), a13 = lhs(1, 3);
    const V a20 = lhs(2, 0), a21 = lhs(2, 1), a22 = lhs(2, 2), a23 = lhs(2, 3);
    const V a30 = lhs(3, 0), a31 = lhs(3, 1), a32 = lhs(3, 2), a33 = lhs(3, 3);
    for (size_t c = 0; c < 4; ++c) {
      const V b0 = hn::LoadU(d, b_data + (4 * c + 0) * b_stride + i);
      const V b1 = hn::LoadU(d, b_data + (4 * c + 1) * b_stride + i);
      const V b2 = hn::LoadU(d, b_data + (4 * c + 2) * b_stride + i);
      const V b3 = hn::LoadU(d, b_data + (4 * c + 3) * b_stride + i);
      const auto out_entry = [&](size_t row) { return out_data + (4 * c + row) * out_stride + i; };
      store(ProductEntry(a00, a10, a20, a30, b0, b1, b2, b3), d, out_entry(0));
      store(ProductEntry(a01, a11, a21, a31, b0, b1, b2, b3), d, out_entry(1));
      store(ProductEntry(a02, a12, a22, a32, b0, b1, b2, b3), d, out_entry(2));
      store(ProductEntry(a03, a13, a23, a33, b0, b1, b2, b3), d, out_entry(3));
    }
  });
}

// clip = VP (x, y, z, 1) in glm's order; the screen mapping and the frustum test as documented
// in transform.h. |clip.x| <= clip.w is -w <= x <= w for w > 0, and false for NaN.
inline void CameraProjectImpl(const CameraParams& camera, const ConstVec4View& points,
                              const Vec4View& screen, const ByteView& visible) {
  const hn::ScalableTag<float> d;
  const hn::RebindToSigned<decltype(d)> di;
  const hn::Rebind<uint8_t, decltype(d)> d8;
  using V = hn::Vec<decltype(d)>;
  const MatrixEntries<decltype(d)> m(d, camera.view_projection);
  const V zero = hn::Zero(d);
  const V one = hn::Set(d, 1.0f);
  const V half = hn::Set(d, 0.5f);
  const V width = hn::Set(d, camera.width_pixels);
  const V height = hn::Set(d, camera.height_pixels);
  const auto flag_one = hn::Set(di, 1);
  const InOutLanes lanes(points, screen);
  uint8_t* flags = visible.data;
  ForEachVector(d, points.count, [&](size_t i, auto store) HWY_ATTR {
    const V x = hn::LoadU(d, lanes.in[0] + i);
    const V y = hn::LoadU(d, lanes.in[1] + i);
    const V z = hn::LoadU(d, lanes.in[2] + i);
    const V clip_x =
        PointRow(m.Get(d, 0, 0), m.Get(d, 1, 0), m.Get(d, 2, 0), m.Get(d, 3, 0), x, y, z);
    const V clip_y =
        PointRow(m.Get(d, 0, 1), m.Get(d, 1, 1), m.Get(d, 2, 1), m.Get(d, 3, 1), x, y, z);
    const V clip_z =
        PointRow(m.Get(d, 0, 2), m.Get(d, 1, 2), m.Get(d, 2, 2), m.Get(d, 3, 2), x, y, z);
    const V clip_w =
        PointRow(m.Get(d, 0, 3), m.Get(d, 1, 3), m.Get(d, 2, 3), m.Get(d, 3, 3), x, y, z);
    const V ndc_x = hn::Div(clip_x, clip_w);
    const V ndc_y = hn::Div(clip_y, clip_w);
    const V ndc_z = hn::Div(clip_z, clip_w);
    const auto inside =
        hn::And(hn::And(hn::Gt(clip_w, zero), hn::Le(hn::Abs(clip_x), clip_w)),
                hn::And(hn::Le(hn::Abs(clip_y), clip_w), hn::Le(hn::Abs(clip_z), clip_w)));
    store(hn::Mul(hn::Mul(hn::Add(ndc_x, one), half), width), d, lanes.out[0] + i);
    store(hn::Mul(hn::Mul(hn::Sub(one, ndc_y), half), height), d, lanes.out[1] + i);
    store(ndc_z, d, lanes.out[2] + i);
    store(clip_w, d, lanes.out[3] + i);
    const auto flag = hn::IfThenElseZero(hn::RebindMask(di, inside), flag_one);
    store(hn::DemoteTo(d8, flag), d8, flags + i);
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_TRANSFORM_INL_H_
