#!/usr/bin/python3
"""Chart and table for swarm's transform benchmark (bench/transform_bench.cc) and its numpy peers.

    /usr/bin/python3 scripts/plot_transform.py bench/results/transform.json \\
        bench/results/transform_numpy.json docs/bench-transform.png

Reads Google Benchmark's JSON (every implementation of every workload at every N, 1 thread and,
from N = 1e5, 2 threads, in interleaved rounds) and bench/numpy_transform.py's JSON, reduces the
rounds (scripts/bench_report.py), saves the chart and prints, per workload: ns per element,
GB/s, % of the copy roofline, the speed-ups over each peer and numpy, then the issue's targets
with their status. Throughput counts the bytes each workload must move per element (28, 96, 48
and 32 B: bench/transform_bench.cc), so GB/s = bytes / (ns per element) for every
implementation, numpy included.
"""

import argparse
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

from bench_report import (add_stat_argument, describe_rounds, fmt, label_n, load,  # noqa: E402
                          noise_line, ns, percent, ratio, reduce_runs, report_target)

WORKLOADS = [
    ("transform_one_matrix", 28.0, "one glm::mat4 x N points (TransformVectors, kPoints)"),
    ("transform_per_element", 96.0,
     "N matrices x N points (TransformVectorsPerElement, kHomogeneous)"),
    ("rotate_per_element", 48.0, "rotate N vectors by N quaternions (RotateVectorsPerElement)"),
    ("rotate_one_quat", 32.0, "rotate N vectors by one quaternion (RotateVectors)"),
]
PEERS = [("glm_aos_o2", "glm AoS -O2"), ("soa_native_o3", "SoA -O3 -march=native")]
# The benchmark times two copy loops over the same bytes (one loop per output lane; all lanes in
# one loop); the roofline is the faster of the two at each (N, threads).
ROOFLINE_VARIANTS = ("roofline", "roofline_fused")
ROOFLINE = "roofline_best"


def add_roofline(reduced):
    """Adds (workload/roofline_best, n, threads) = the faster copy; returns {key: variant}."""
    winners = {}
    for workload, _, _ in WORKLOADS:
        keys = {(n, t) for (name, n, t) in reduced
                if name in (f"{workload}/{v}" for v in ROOFLINE_VARIANTS)}
        for n, threads in keys:
            candidates = [(reduced[(f"{workload}/{v}", n, threads)], v) for v in ROOFLINE_VARIANTS
                          if (f"{workload}/{v}", n, threads) in reduced]
            value, variant = min(candidates, key=lambda c: c[0][0])
            reduced[(f"{workload}/{ROOFLINE}", n, threads)] = value
            winners[(workload, n, threads)] = variant
    return winners


def load_numpy(path):
    """(document, {(workload, n): (best ns, best impl)}, {(workload, impl, n): ns})."""
    if path is None:
        return None, {}, {}
    with open(path) as handle:
        document = json.load(handle)
    every = {}
    best = {}
    for result in document["results"]:
        key = (result["workload"], result["n"])
        every[(result["workload"], result["impl"], result["n"])] = result["ns_per_element"]
        if key not in best or result["ns_per_element"] < best[key][0]:
            best[key] = (result["ns_per_element"], result["impl"])
    return document, best, every


def blas_summary(document):
    if document is None:
        return "numpy not run"
    blas = document["blas"]
    libraries = ", ".join(f"{lib['path']} ({lib['debian_package'] or '?'})"
                          for lib in blas["loaded_libraries"] if "blas" in lib["path"])
    text = f"numpy {document['numpy']}, BLAS {libraries or '?'}"
    if blas.get("threadpoolctl"):
        text += "; threadpoolctl: " + ", ".join(
            f"{p.get('internal_api')} {p.get('version')} {p.get('num_threads')} threads"
            for p in blas["threadpoolctl"])
    else:
        text += "; threadpoolctl not installed"
    return text


def swarm_name(workload):
    return f"{workload}/swarm"


def counts_of(reduced):
    return sorted({n for (name, n, _) in reduced})


def best_peer(reduced, numpy_best, workload, n):
    """(ns, label) of the fastest peer at N (1 thread; numpy included)."""
    candidates = [(ns(reduced, f"{workload}/{impl}", n), impl) for impl, _ in PEERS]
    if (workload, n) in numpy_best:
        candidates.append(numpy_best[(workload, n)])
    candidates = [c for c in candidates if c[0] is not None]
    return min(candidates) if candidates else (None, None)


def print_tables(context, reduced, numpy_best, numpy_every, numpy_document, stat, rounds_seen,
                 winners):
    counts = counts_of(reduced)
    print(f"swarm transform benchmark: SIMD {context.get('swarm_simd_target', '?')}, "
          f"{context.get('num_cpus', '?')} CPUs, {stat} of the {rounds_seen}; swarm kernels "
          f"built: {context.get('swarm_kernels_built', '?')}")
    print(f"  {blas_summary(numpy_document)}")
    columns = [("N", 5), ("swarm1", 7), ("swarm2", 7), ("glmO2", 7), ("native", 7),
               ("numpy", 7), ("roof1", 7), ("roof2", 7), ("GB/s1", 6), ("GB/s2", 6),
               ("%roof1", 6), ("%roof2", 6), ("x glm", 6), ("x nat", 6), ("x np", 6),
               ("2t/1t", 5)]
    for workload, bytes_per_element, title in WORKLOADS:
        swarm = swarm_name(workload)
        print()
        print(f"{workload}: {title}; ns per element, {bytes_per_element:.0f} B per element "
              "for GB/s")
        print(" ".join(name.rjust(width) for name, width in columns))
        for n in counts:
            s1, s2 = ns(reduced, swarm, n, 1), ns(reduced, swarm, n, 2)
            glm = ns(reduced, f"{workload}/glm_aos_o2", n)
            native = ns(reduced, f"{workload}/soa_native_o3", n)
            numpy = numpy_best.get((workload, n), (None, None))[0]
            r1 = ns(reduced, f"{workload}/{ROOFLINE}", n, 1)
            r2 = ns(reduced, f"{workload}/{ROOFLINE}", n, 2)
            gbs = [None if t is None else bytes_per_element / t for t in (s1, s2)]
            cells = [label_n(n).rjust(5)]
            cells += [fmt(v, ".3f", 7) for v in (s1, s2, glm, native)]
            cells += [fmt(numpy, ".2f", 7), fmt(r1, ".3f", 7), fmt(r2, ".3f", 7)]
            cells += [fmt(v, ".1f", 6) for v in gbs]
            cells += [fmt(percent(r1, s1), ".0f", 6), fmt(percent(r2, s2), ".0f", 6)]
            cells += [fmt(ratio(glm, s1), ".2f", 6), fmt(ratio(native, s1), ".2f", 6),
                      fmt(ratio(numpy, s1), ".1f", 6), fmt(ratio(s1, s2), ".2f", 5)]
            print(" ".join(cells))
    print()
    print("  swarm1/2 = swarm on 1 thread / 2 threads (RunFused, ThreadPool(2), "
          "TileSchedule{4096, 0}); roof1/2 = the copy pass over the same bytes on 1/2 threads;")
    print("  %roof = roofline time / swarm time (same threads); x glm, x nat, x np = peer time / "
          "swarm 1-thread time (numpy: its fastest variant); 2t/1t = 1-thread / 2-thread time.")
    fused = sorted(f"{w} {label_n(n)}/{t}t" for (w, n, t), v in winners.items()
                   if v == "roofline_fused")
    print(f"  roofline = the faster of two copy loops (one loop per output lane, or all lanes in "
          f"one loop); the fused loop won {len(fused)} of {len(winners)}" +
          (": " + ", ".join(fused) if fused else ""))

    if numpy_every:
        print()
        impls = sorted({impl for (_, impl, _) in numpy_every})
        print("numpy variants, ns per element:")
        descriptions = {}
        for result in numpy_document["results"]:
            descriptions.setdefault(result["workload"], {})[result["impl"]] = result["description"]
        for workload, variants in descriptions.items():
            print(f"  {workload}: " + "; ".join(f"{impl} = {text}"
                                               for impl, text in variants.items()))
        print("workload".ljust(22) + "     N " + " ".join(impl.rjust(13) for impl in impls))
        for workload, _, _ in WORKLOADS:
            for n in sorted({n for (w, _, n) in numpy_every if w == workload}):
                cells = [fmt(numpy_every.get((workload, impl, n)), ".2f", 13) for impl in impls]
                print(workload.ljust(22) + label_n(n).rjust(6) + " " + " ".join(cells))
        print(f"  numpy timing: best of {numpy_document['repeats']} loops of >= "
              f"{numpy_document['min_time_seconds']} s; run took {numpy_document['seconds']:.0f} s")

    print()
    print(noise_line(reduced))


def print_targets(reduced, numpy_best):
    """The issue's targets, one line each; returns (met, missed)."""
    counts = counts_of(reduced)
    outcomes = []
    print("targets (one run)")
    for workload, _, _ in WORKLOADS:
        swarm = swarm_name(workload)
        peers = [best_peer(reduced, numpy_best, workload, n) for n in counts]
        values = [ratio(peer_ns, ns(reduced, swarm, n)) for (peer_ns, _), n in zip(peers, counts)]
        worst_peer = {label for (_, label), v in zip(peers, values) if v is not None and v < 1.0}
        note = f" (slower than {', '.join(sorted(worst_peer))})" if worst_peer else ""
        outcomes.append(report_target(
            f"{workload}: at least as fast as the best peer at every N (1 thread){note}", counts,
            values, lambda v: v >= 1.0, "{:.2f}x"))
    large = [n for n in counts if n >= 1_000_000]
    for workload, _, _ in WORKLOADS:
        for threads in (1, 2):
            values = [ratio(ns(reduced, f"{workload}/{ROOFLINE}", n, threads),
                            ns(reduced, swarm_name(workload), n, threads)) for n in large]
            outcomes.append(report_target(
                f"{workload}: >= 90% of the copy roofline at N >= 1e6, {threads} thread(s)",
                large, values, lambda v: v >= 0.90, "{:.0%}"))
    for workload, factor in (("transform_one_matrix", 3.0), ("transform_per_element", 2.0)):
        values = [ratio(ns(reduced, f"{workload}/glm_aos_o2", 10_000),
                        ns(reduced, swarm_name(workload), 10_000))]
        outcomes.append(report_target(f"{workload}: >= {factor:.0f}x glm -O2 in cache (N = 1e4)",
                                      [10_000], values, lambda v, f=factor: v >= f, "{:.2f}x"))
    for workload in ("rotate_per_element", "rotate_one_quat"):
        values = [ratio(ns(reduced, f"{workload}/glm_aos_o2", 1_000),
                        ns(reduced, swarm_name(workload), 1_000))]
        outcomes.append(report_target(f"{workload}: >= 4x glm -O2 at N = 1e3", [1_000], values,
                                      lambda v: v >= 4.0, "{:.2f}x"))
    for workload, _, _ in WORKLOADS:
        values = [ratio(numpy_best.get((workload, n), (None,))[0], ns(reduced, swarm_name(workload), n))
                  for n in counts]
        outcomes.append(report_target(f"{workload}: >= 10x numpy (fastest variant) at every N",
                                      counts, values, lambda v: v >= 10.0, "{:.1f}x"))
    met = sum(1 for o in outcomes if o is True)
    missed = sum(1 for o in outcomes if o is False)
    unknown = sum(1 for o in outcomes if o is None)
    print(f"  {met} met, {missed} missed" + (f", {unknown} without data" if unknown else ""))
    return met, missed


def plot(context, reduced, numpy_best, numpy_document, stat, rounds_seen, output):
    counts = counts_of(reduced)
    figure, axes = plt.subplots(2, 2, figsize=(15, 10.5), sharex=True)
    lines = [
        ("swarm", 1, "swarm, 1 thread", dict(color="C0", marker="o", lw=2.4)),
        ("swarm", 2, "swarm, 2 threads (RunFused tiles)", dict(color="C0", marker="o", ls="--")),
        ("soa_native_o3", 1, "SoA loop -O3 -march=native", dict(color="C2", marker="s")),
        ("glm_aos_o2", 1, "glm AoS loop -O2", dict(color="C3", marker="^")),
        (ROOFLINE, 1, "roofline: best copy of the same bytes, 1 thread",
         dict(color="k", lw=1.6)),
        (ROOFLINE, 2, "roofline, 2 threads", dict(color="k", lw=1.2, ls="--")),
    ]
    for axis, (workload, bytes_per_element, title) in zip(axes.flat, WORKLOADS):
        for impl, threads, label, style in lines:
            name = f"{workload}/{impl}"
            xs = [n for n in counts if (name, n, threads) in reduced]
            if xs:
                axis.plot(xs, [bytes_per_element / reduced[(name, n, threads)][0] for n in xs],
                          label=label, **style)
        xs = [n for n in counts if (workload, n) in numpy_best]
        if xs:
            axis.plot(xs, [bytes_per_element / numpy_best[(workload, n)][0] for n in xs],
                      label="numpy (fastest variant)", color="C1", marker="v")
        axis.set_xscale("log")
        axis.set_yscale("log")
        axis.set_title(f"{title}\n{bytes_per_element:.0f} B per element", fontsize=10)
        axis.set_ylabel("GB/s (higher is better)")
        axis.grid(True, which="both", alpha=0.3)
    for axis in axes[1]:
        axis.set_xlabel("elements N")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="lower center", ncol=4, fontsize=9)
    figure.suptitle("swarm transform kernels vs peers and the memory roofline "
                    f"(SIMD {context.get('swarm_simd_target', '?')}, "
                    f"{context.get('num_cpus', '?')} CPUs, {stat} of the {rounds_seen})\n"
                    f"{blas_summary(numpy_document)}", fontsize=10)
    figure.tight_layout(rect=(0, 0.05, 1, 0.96))
    figure.savefig(output, dpi=100)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("input", help="Google Benchmark JSON from swarm-bench-transform")
    parser.add_argument("numpy", nargs="?", help="JSON from bench/numpy_transform.py (optional)")
    parser.add_argument("output", help="PNG to write")
    add_stat_argument(parser)
    args = parser.parse_args()
    context, runs = load(args.input)
    if not runs:
        print(f"plot_transform.py: no transform results in {args.input}", file=sys.stderr)
        return 2
    numpy_document, numpy_best, numpy_every = load_numpy(args.numpy)
    reduced = reduce_runs(runs, args.stat)
    winners = add_roofline(reduced)
    rounds_seen = describe_rounds(runs, f"{WORKLOADS[0][0]}/roofline")
    plot(context, reduced, numpy_best, numpy_document, args.stat, rounds_seen, args.output)
    print_tables(context, reduced, numpy_best, numpy_every, numpy_document, args.stat,
                 rounds_seen, winners)
    print()
    print_targets(reduced, numpy_best)
    print()
    print(f"chart: {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
