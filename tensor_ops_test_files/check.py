import numpy as np
a = np.fromfile("tensor_ops_test_files/values.f32", dtype="<f4").reshape(40, 50, 60)
print("sum", float(a.sum(dtype=np.float64)).hex())
print("transposed_sum", float(a.T[::-1].sum(dtype=np.float64)).hex())
print("mean", float(a.mean(dtype=np.float64)).hex())
print("magnitude", float(np.abs(a).sum(dtype=np.float64)).hex())
print("min", float(a.min()).hex())
print("max", float(a.max()).hex())
for i, s in enumerate(a.sum(axis=1, dtype=np.float64).astype(np.float32).ravel()):
    print("axis1", float(s).hex())
