// Scalar mirrors of kernels/base/deterministic_math-inl.h: the same correctly rounded float
// operations in the same order, one value at a time, so a scalar reference that needs sin, cos,
// acos or sinc (slerp, the rigid-body exponential map) reproduces the kernels' bits. Tests check
// every mirror against every SIMD target bitwise over dense samples
// (tests/kernels/base/deterministic_math_test.cc) and against double-precision std:: functions.
// Compiled with -ffp-contract=off in swarm_kernels.
#pragma once

namespace swarm::reference {

// Accuracy, range and special values as documented in kernels/base/deterministic_math-inl.h.
float Sin(float x);
float Cos(float x);
void SinCos(float x, float& sin_out, float& cos_out);
float Sinc(float x);  // sin(x) / x, Sinc(0) = 1
float Acos(float x);  // x clamped to [-1, 1]; NaN stays NaN

}  // namespace swarm::reference
