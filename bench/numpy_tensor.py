#!/usr/bin/python3
"""numpy peers of swarm's tensor benchmark (bench/tensor_bench.cc), and the suite's table.

    /usr/bin/python3 bench/numpy_tensor.py --max-count 1e8 > bench/results/tensor_numpy.json
    /usr/bin/python3 bench/numpy_tensor.py --table bench/results/tensor.json \\
        bench/results/tensor_numpy.json

Times, on float32 and at the C++ benchmark's sizes, what a numpy user writes for its workloads
(byte counts per element as in the C++ benchmark, so GB/s compare directly):

  sum       numpy_sum       a.sum()            (float32 pairwise sum), N = 1e3 .. max-count
  mean      numpy_mean      a.mean()
  add       numpy_add_out   np.add(a, b, out=c)                         N = 1e5, 1e7
            numpy_add       c = a + b          (allocates the result, as `a + b` does)
  add_row   numpy_add_row   soa += row on the [N, 4] view (strides 4 B and 4N B) of a [4, N]
                            array, the layout of swarm's SoA buffers

Each (workload, implementation, N) is first checked against a float64 reference, then timed as
the best of --repeats loops that last at least --min-time seconds each (interference on a shared
machine only ever slows a run down).

--table reads swarm's Google Benchmark JSON and this script's JSON and prints GB/s, the sum's
share of the read pass measured in the swarm binary, the swarm/numpy speed ratios and the
issue's targets (sum >= 90% of the read pass at 1e8, >= 2x numpy a.sum(); FormatTensor of 1e6
elements well under 1 ms). Run with Debian's /usr/bin/python3 (python3-numpy).
"""

import argparse
import json
import os
import platform
import sys
import time

import numpy as np

from numpy_timing import result_row, time_call

BYTES_PER_ELEMENT = {"sum": 4.0, "mean": 4.0, "add": 12.0, "add_row": 32.0}
REDUCE_COUNTS = [1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000]
ELEMENTWISE_COUNTS = [100_000, 10_000_000]


def numpy_sum(d):
    return d.a.sum()


def numpy_mean(d):
    return d.a.mean()


def numpy_add_out(d):
    np.add(d.a, d.b, out=d.c)
    return d.c


def numpy_add(d):
    return d.a + d.b


def numpy_add_row(d):
    d.soa += d.row
    d.soa -= d.row  # keeps values bounded across calls; the timing halves it (two passes)
    return d.soa


class Data:
    """Inputs at one N: a and b float32 [N], c [N], soa a [N, 4] view of a [4, N] array."""

    def __init__(self, n, rng, elementwise):
        self.n = n
        self.a = rng.uniform(-1.0, 1.0, size=n).astype(np.float32)
        if elementwise:
            self.b = rng.uniform(-1.0, 1.0, size=n).astype(np.float32)
            self.c = np.empty(n, np.float32)
            self.lanes = rng.uniform(-1.0, 1.0, size=(4, n)).astype(np.float32)
            self.soa = self.lanes.T
            self.row = np.array([0.5, -0.25, 1.0, 0.0], np.float32)


def check(workload, function, d):
    if workload in ("sum", "mean"):
        want = d.a.astype(np.float64).sum()
        if workload == "mean":
            want /= d.n
        got = float(function(d))
        scale = np.abs(d.a.astype(np.float64)).sum() / (d.n if workload == "mean" else 1)
        if not abs(got - want) <= 1e-4 * scale:
            sys.exit(f"numpy_tensor.py: {workload} is wrong: {got} vs {want}")
    elif workload == "add":
        got = function(d)
        if not np.array_equal(got, d.a + d.b):
            sys.exit("numpy_tensor.py: add is wrong")
    else:
        before = d.lanes.copy()
        d.soa += d.row
        if not np.array_equal(d.lanes, before + d.row[:, None]):
            sys.exit("numpy_tensor.py: add_row is wrong")
        d.soa -= d.row


IMPLEMENTATIONS = [
    ("sum", "numpy_sum", "a.sum()", numpy_sum, 1),
    ("mean", "numpy_mean", "a.mean()", numpy_mean, 1),
    ("add", "numpy_add_out", "np.add(a, b, out=c)", numpy_add_out, 1),
    ("add", "numpy_add", "a + b (allocating)", numpy_add, 1),
    ("add_row", "numpy_add_row", "soa += row on the [N, 4] view of [4, N]", numpy_add_row, 2),
]


def parse_count(text):
    value = float(text.replace("_", ""))
    if value != int(value) or value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive count, got '{text}'")
    return int(value)


def measure(args):
    rng = np.random.default_rng(2024)
    results = []
    started = time.perf_counter()
    counts = sorted(set(REDUCE_COUNTS) | set(ELEMENTWISE_COUNTS))
    for n in [n for n in counts if n <= args.max_count]:
        elementwise = n in ELEMENTWISE_COUNTS
        d = Data(n, rng, elementwise)
        for workload, name, description, function, passes in IMPLEMENTATIONS:
            wanted = n in REDUCE_COUNTS if workload in ("sum", "mean") else elementwise
            if not wanted:
                continue
            check(workload, function, d)
            seconds, spread = time_call(function, d, args.min_time, args.repeats)
            seconds /= passes
            results.append(result_row(workload, name, description, n, seconds, spread,
                                      BYTES_PER_ELEMENT[workload]))
        del d
    document = {
        "numpy": np.__version__,
        "python": platform.python_version(),
        "executable": sys.executable,
        "bytes_per_element": BYTES_PER_ELEMENT,
        "min_time_seconds": args.min_time,
        "repeats": args.repeats,
        "seconds": time.perf_counter() - started,
        "results": results,
    }
    json.dump(document, sys.stdout, indent=1)
    print()


# --- the table -----------------------------------------------------------------------------

def table(swarm_path, numpy_path):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
    import bench_report  # noqa: PLC0415  (scripts/bench_report.py)

    context, runs = bench_report.load(swarm_path)
    reduced = bench_report.reduce_runs(runs, "best")
    with open(numpy_path) as handle:
        numpy_document = json.load(handle)
    numpy = {(r["impl"], r["n"]): r for r in numpy_document["results"]}

    def swarm_gbs(name, n):
        value = reduced.get((name, n, 1))
        return value[1] if value else None

    def numpy_gbs(name, n):
        value = numpy.get((name, n))
        return value["bytes_per_second"] / 1e9 if value else None

    fmt, ratio, label = bench_report.fmt, bench_report.ratio, bench_report.label_n
    print(f"tensor suite: swarm {context.get('swarm_simd_target', '?')}, numpy "
          f"{numpy_document.get('numpy')}; best round of each; GB/s count the bytes a workload "
          "must move")
    print()
    print("reductions (4 B per element)")
    header = (f"{'N':>6} {'read pass':>10} {'sum':>8} {'mean':>8} {'sum/read':>9} "
              f"{'numpy sum':>10} {'numpy mean':>11} {'sum/numpy':>10} {'mean/numpy':>11}")
    print(header)
    sums, shares, over_numpy = [], [], []
    counts = sorted({n for (name, n, _) in reduced if name == "swarm_sum"})
    for n in counts:
        read, total = swarm_gbs("read_pass", n), swarm_gbs("swarm_sum", n)
        mean = swarm_gbs("swarm_mean", n)
        np_sum, np_mean = numpy_gbs("numpy_sum", n), numpy_gbs("numpy_mean", n)
        share = ratio(total, read)
        versus = ratio(total, np_sum)
        sums.append(n)
        shares.append(share)
        over_numpy.append(versus)
        print(f"{label(n):>6} {fmt(read, '.1f', 10)} {fmt(total, '.1f', 8)} {fmt(mean, '.1f', 8)} "
              f"{fmt(None if share is None else 100 * share, '.0f', 8)}% "
              f"{fmt(np_sum, '.1f', 10)} {fmt(np_mean, '.1f', 11)} {fmt(versus, '.2f', 9)}x "
              f"{fmt(ratio(mean, np_mean), '.2f', 10)}x")
    print()
    print("elementwise (add: 12 B per element; add_row: 32 B per particle)")
    print(f"{'N':>6} {'swarm add':>10} {'np.add out=':>12} {'a + b':>8} {'ratio':>7}   "
          f"{'swarm row':>10} {'numpy row':>10} {'ratio':>7}")
    for n in sorted({n for (name, n, _) in reduced if name == "swarm_add"}):
        add, add_out = swarm_gbs("swarm_add", n), numpy_gbs("numpy_add_out", n)
        add_alloc = numpy_gbs("numpy_add", n)
        row, np_row = swarm_gbs("swarm_add_row", n), numpy_gbs("numpy_add_row", n)
        print(f"{label(n):>6} {fmt(add, '.1f', 10)} {fmt(add_out, '.1f', 12)} "
              f"{fmt(add_alloc, '.1f', 8)} {fmt(ratio(add, add_out), '.2f', 6)}x   "
              f"{fmt(row, '.1f', 10)} {fmt(np_row, '.1f', 10)} "
              f"{fmt(ratio(row, np_row), '.2f', 6)}x")
    print()
    format_ns = bench_report.ns(reduced, "swarm_format", 1_000_000)
    print(f"FormatTensor of f32[250000][4] (1e6 elements): "
          f"{fmt(None if format_ns is None else format_ns / 1e3, '.1f', 0)} us per call")
    print()
    print("targets")
    large = max(sums) if sums else None
    bench_report.report_target("sum >= 90% of the read pass at 1e8", [large] if large else [],
                               [shares[-1] * 100 if large and shares[-1] else None],
                               lambda v: v >= 90.0, "{:.0f}%")
    bench_report.report_target("sum >= 2x numpy a.sum() (N >= 1e6)",
                               [n for n in sums if n >= 1_000_000],
                               [v for n, v in zip(sums, over_numpy) if n >= 1_000_000],
                               lambda v: v >= 2.0, "{:.2f}x")
    bench_report.report_target("FormatTensor of 1e6 elements well under 1 ms (< 100 us)",
                               [1_000_000], [None if format_ns is None else format_ns / 1e3],
                               lambda v: v < 100.0, "{:.1f} us")
    if large != 100_000_000:
        print("  (the 1e8 target needs --max-count=1e8)")
    print()
    print(bench_report.noise_line(reduced))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--max-count", type=parse_count, default=REDUCE_COUNTS[-1],
                        help="largest N (default 1e8)")
    parser.add_argument("--min-time", type=float, default=0.05,
                        help="minimum seconds per timed loop (default 0.05)")
    parser.add_argument("--repeats", type=int, default=3,
                        help="timed loops per measurement, best kept (default 3)")
    parser.add_argument("--table", nargs=2, metavar=("SWARM_JSON", "NUMPY_JSON"),
                        help="print the comparison table of two result files instead of timing")
    args = parser.parse_args()
    if args.table:
        table(*args.table)
    else:
        measure(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
