#!/usr/bin/python3
"""numpy peers of swarm's transform benchmark (bench/transform_bench.cc), printed as JSON.

    /usr/bin/python3 bench/numpy_transform.py --max-count 1e7 > bench/results/transform_numpy.json

Times, on float32 and for N = 1e3 .. max-count, the ways a numpy user writes the benchmark's
workloads (the byte counts per element are the C++ benchmark's, so GB/s compare directly):

  transform_one_matrix   numpy_matmul   points @ M.T on AoS [N, 4] (out= preallocated)
                         numpy_soa      x*m00 + y*m01 + z*m02 + m03 ... on SoA rows [4, N]
  transform_per_element  numpy_einsum   einsum('nij,nj->ni', matrices, points) (out=)
                         numpy_matmul   matrices @ points[:, :, None] (batched matmul, out=)
                         numpy_soa      the same sums over 16 SoA matrix rows [16, N]
  rotate_per_element     numpy_cross    v + 2 (w (q x v) + q x (q x v)) with np.cross on AoS
                         numpy_soa      the same formula written out on SoA rows
  rotate_one_quat        numpy_matmul   points @ R.T with R the 4x4 rotation (w passed through)
                         numpy_soa      the formula on SoA rows with scalar q

Each (workload, implementation, N) is first checked against a float64 reference, then timed as
the best of --repeats repetitions of a loop that lasts at least --min-time seconds (interference
on a shared machine only ever slows a run down). Also records which BLAS numpy really loaded
(the shared objects mapped into this process, resolved through Debian's alternatives links),
and threadpoolctl's view of it when that module is installed.

Run it with Debian's /usr/bin/python3 (python3-numpy). scripts/bench.sh unsets OPENBLAS_CORETYPE
and OPENBLAS_L2_SIZE for this command only.
"""

import argparse
import io
import json
import os
import platform
import subprocess
import sys
import time
from contextlib import redirect_stdout

import numpy as np

from numpy_timing import result_row, time_call

BYTES_PER_ELEMENT = {
    "transform_one_matrix": 28.0,
    "transform_per_element": 96.0,
    "rotate_per_element": 48.0,
    "rotate_one_quat": 32.0,
}
COUNTS = [1_000, 10_000, 100_000, 1_000_000, 10_000_000]


def unit_quaternions(rng, n):
    """[n, 4] float32 unit quaternions (x, y, z, w)."""
    q = rng.uniform(-1.0, 1.0, size=(n, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    return q.astype(np.float32)


def rotation_matrices(q):
    """[n, 3, 3] float64 rotation matrices (row-major: out = R v) of [n, 4] quaternions."""
    x, y, z, w = (q[:, i].astype(np.float64) for i in range(4))
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
        np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
        np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1),
    ], -2)


class Data:
    """The inputs of every workload at one N, in the layouts the implementations take."""

    def __init__(self, n, rng):
        self.n = n
        points = rng.uniform(-1.0, 1.0, size=(n, 4)).astype(np.float32)
        points[:, 3] = 1.0
        self.points = points                              # AoS [N, 4]
        self.points_soa = np.ascontiguousarray(points.T)  # SoA [4, N]
        one = np.eye(4)
        one[:3, :3] = rotation_matrices(np.array([[0.3, -0.4, 0.2, 0.8]]) /
                                        np.linalg.norm([0.3, -0.4, 0.2, 0.8]))[0] * 1.5
        one[:3, 3] = (0.25, -2.0, 3.5)
        self.matrix = one.astype(np.float32)              # [4, 4], out = M p
        self.matrix_t = self.matrix.T                     # what `points @ M.T` multiplies by
        matrices = np.zeros((n, 4, 4), np.float32)
        matrices[:, :3, :3] = rotation_matrices(unit_quaternions(rng, n))
        matrices[:, :3, 3] = rng.uniform(-1.0, 1.0, size=(n, 3))
        matrices[:, 3, 3] = 1.0
        self.matrices = matrices                          # AoS [N, 4, 4]
        self.matrices_soa = np.ascontiguousarray(matrices.reshape(n, 16).T)  # [16, N], row r*4+c
        self.quaternions = unit_quaternions(rng, n)       # AoS [N, 4]
        self.quaternions_soa = np.ascontiguousarray(self.quaternions.T)
        q = np.array([0.2, -0.3, 0.25, 0.9])
        self.quaternion = (q / np.linalg.norm(q)).astype(np.float32)
        rotation = np.eye(4)
        rotation[:3, :3] = rotation_matrices(self.quaternion[None, :])[0]
        self.rotation_t = rotation.astype(np.float32).T
        self.out = np.empty((n, 4), np.float32)
        self.out_soa = np.empty((4, n), np.float32)


# --- implementations: each returns its output as AoS [N, 4] (a view where it works in SoA) ----

def one_matrix_matmul(d):
    np.matmul(d.points, d.matrix_t, out=d.out)
    return d.out


def one_matrix_soa(d):
    x, y, z = d.points_soa[0], d.points_soa[1], d.points_soa[2]
    m = d.matrix
    o = d.out_soa
    o[0] = x * m[0, 0] + y * m[0, 1] + z * m[0, 2] + m[0, 3]
    o[1] = x * m[1, 0] + y * m[1, 1] + z * m[1, 2] + m[1, 3]
    o[2] = x * m[2, 0] + y * m[2, 1] + z * m[2, 2] + m[2, 3]
    o[3] = 1.0
    return o.T


def per_element_einsum(d):
    np.einsum("nij,nj->ni", d.matrices, d.points, out=d.out)
    return d.out


def per_element_matmul(d):
    np.matmul(d.matrices, d.points[:, :, None], out=d.out[:, :, None])
    return d.out


def per_element_soa(d):
    x, y, z, w = d.points_soa
    m = d.matrices_soa
    o = d.out_soa
    for r in range(4):
        o[r] = m[4 * r] * x + m[4 * r + 1] * y + m[4 * r + 2] * z + m[4 * r + 3] * w
    return o.T


def rotate_per_element_cross(d):
    q = d.quaternions
    v = d.points[:, :3]
    uv = np.cross(q[:, :3], v)
    uuv = np.cross(q[:, :3], uv)
    d.out[:, :3] = v + 2.0 * (uv * q[:, 3:4] + uuv)
    d.out[:, 3] = d.points[:, 3]
    return d.out


def rotate_soa(qx, qy, qz, qw, d):
    x, y, z, w = d.points_soa
    uvx = qy * z - qz * y
    uvy = qz * x - qx * z
    uvz = qx * y - qy * x
    o = d.out_soa
    o[0] = x + 2.0 * (uvx * qw + (qy * uvz - qz * uvy))
    o[1] = y + 2.0 * (uvy * qw + (qz * uvx - qx * uvz))
    o[2] = z + 2.0 * (uvz * qw + (qx * uvy - qy * uvx))
    o[3] = w
    return o.T


def rotate_per_element_soa(d):
    return rotate_soa(*d.quaternions_soa, d)


def rotate_one_matmul(d):
    np.matmul(d.points, d.rotation_t, out=d.out)
    return d.out


def rotate_one_soa(d):
    qx, qy, qz, qw = (np.float32(c) for c in d.quaternion)
    return rotate_soa(qx, qy, qz, qw, d)


IMPLEMENTATIONS = [
    ("transform_one_matrix", "numpy_matmul", "points @ M.T (AoS [N,4], out=)", one_matrix_matmul),
    ("transform_one_matrix", "numpy_soa", "x*m00 + y*m01 + ... (SoA [4,N])", one_matrix_soa),
    ("transform_per_element", "numpy_einsum", "einsum('nij,nj->ni') (out=)", per_element_einsum),
    ("transform_per_element", "numpy_matmul", "matrices @ points[:,:,None] (out=)",
     per_element_matmul),
    ("transform_per_element", "numpy_soa", "sums over 16 SoA rows", per_element_soa),
    ("rotate_per_element", "numpy_cross", "np.cross formula on AoS", rotate_per_element_cross),
    ("rotate_per_element", "numpy_soa", "cross formula on SoA rows", rotate_per_element_soa),
    ("rotate_one_quat", "numpy_matmul", "points @ R.T (4x4 rotation, out=)", rotate_one_matmul),
    ("rotate_one_quat", "numpy_soa", "cross formula on SoA rows, scalar q", rotate_one_soa),
]


def expected(workload, d):
    """The float64 reference of a workload, AoS [N, 4]."""
    p = d.points.astype(np.float64)
    if workload == "transform_one_matrix":
        return p @ d.matrix.astype(np.float64).T
    if workload == "transform_per_element":
        return np.einsum("nij,nj->ni", d.matrices.astype(np.float64), p)
    q = d.quaternions if workload == "rotate_per_element" else d.quaternion[None, :]
    out = p.copy()
    out[:, :3] = np.einsum("nij,nj->ni", rotation_matrices(q), p[:, :3]) if len(q) > 1 else \
        p[:, :3] @ rotation_matrices(q)[0].T
    return out


def check(workload, name, function, d):
    got = np.array(function(d), dtype=np.float64)
    want = expected(workload, d)
    error = np.max(np.abs(got - want) / (1.0 + np.abs(want)))
    if not error <= 1e-5:
        sys.exit(f"numpy_transform.py: {workload} {name} is wrong: max relative error {error:.3g}")


def blas_info():
    """Which BLAS this numpy really uses: the mapped libraries, threadpoolctl, show_config."""
    libraries = set()
    with open("/proc/self/maps") as maps:
        for line in maps:
            path = line.split()[-1] if len(line.split()) >= 6 else ""
            name = os.path.basename(path)
            if any(key in name for key in ("blas", "lapack", "mkl", "blis")):
                libraries.add(os.path.realpath(path))
    loaded = []
    for path in sorted(libraries):
        package = None
        try:
            owner = subprocess.run(["dpkg-query", "-S", path], capture_output=True, text=True,
                                   timeout=10)
            if owner.returncode == 0:
                package = owner.stdout.split(":")[0]
        except (OSError, subprocess.SubprocessError):
            pass
        loaded.append({"path": path, "debian_package": package})
    try:
        import threadpoolctl  # noqa: PLC0415  (optional)
        pools = threadpoolctl.threadpool_info()
    except ImportError:
        pools = None
    config = io.StringIO()
    with redirect_stdout(config):
        np.show_config()
    summary = []
    section = None
    for line in config.getvalue().splitlines():
        if line and not line.startswith(" "):
            section = line.rstrip(":")
        elif section in ("blas_opt_info", "lapack_opt_info") and "libraries" in line:
            summary.append(f"{section}: {line.strip()}")
    return {"loaded_libraries": loaded, "threadpoolctl": pools,
            "show_config": "; ".join(summary) or None}


def parse_count(text):
    value = float(text.replace("_", ""))
    if value != int(value) or value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive count, got '{text}'")
    return int(value)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--max-count", type=parse_count, default=COUNTS[-1],
                        help="largest N (N = 1e3, 1e4, ... up to it; default 1e7)")
    parser.add_argument("--min-time", type=float, default=0.05,
                        help="minimum seconds per timed loop (default 0.05)")
    parser.add_argument("--repeats", type=int, default=3,
                        help="timed loops per measurement, best kept (default 3)")
    args = parser.parse_args()

    rng = np.random.default_rng(2024)
    results = []
    started = time.perf_counter()
    for n in [n for n in COUNTS if n <= args.max_count]:
        d = Data(n, rng)
        for workload, name, description, function in IMPLEMENTATIONS:
            check(workload, name, function, d)
            seconds, spread = time_call(function, d, args.min_time, args.repeats)
            results.append(result_row(workload, name, description, n, seconds, spread,
                                      BYTES_PER_ELEMENT[workload]))
        del d
    document = {
        "numpy": np.__version__,
        "python": platform.python_version(),
        "executable": sys.executable,
        "blas": blas_info(),
        "environment": {key: os.environ.get(key) for key in ("OPENBLAS_CORETYPE",
                                                             "OPENBLAS_L2_SIZE",
                                                             "OPENBLAS_NUM_THREADS",
                                                             "OMP_NUM_THREADS")},
        "bytes_per_element": BYTES_PER_ELEMENT,
        "min_time_seconds": args.min_time,
        "repeats": args.repeats,
        "seconds": time.perf_counter() - started,
        "results": results,
    }
    json.dump(document, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
