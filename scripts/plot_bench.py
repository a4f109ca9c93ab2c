#!/usr/bin/python3
"""Chart and table for swarm's integration benchmark (bench/integrate_bench.cc).

    /usr/bin/python3 scripts/plot_bench.py bench/results/integrate.json docs/bench-integrate.png

Reads Google Benchmark's JSON, where every (implementation, N, threads) ran in several
interleaved rounds, reduces the rounds to one number (--stat: the best round by default, since
interference on a shared machine only ever slows a run down; or the median), saves the chart
and prints the table: ns/particle, % of the in-place roofline and the speed-ups over the peers,
then the targets of the issue with their status.

Throughput is counted at 64 B per particle (p and v, 16 B each, read and written) for every
Euler implementation and both rooflines, so GB/s = 64 / (ns/particle). The 6-lane roofline only
moves 48 B per particle: it is what Euler, which never touches w, can at best do. STREAM triad is
counted as STREAM does (12 B per element, write-allocate not counted).
"""

import argparse
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

from bench_report import (add_stat_argument, describe_rounds, fmt, label_n, load,  # noqa: E402
                          noise_line, ns, ratio, reduce_runs, report_target)

PARTICLE_BYTES = 64.0

# (key, threads, legend, style)
EULER_LINES = [
    ("swarm_euler", 1, "swarm IntegrateEuler, 1 thread", dict(color="C0", marker="o", lw=2.4)),
    ("swarm_euler", 2, "swarm, 2 threads (RunFused tiles)", dict(color="C0", marker="o", ls="--")),
    ("soa_native_o3", 1, "SoA loop -O3 -march=native", dict(color="C2", marker="s")),
    ("glm_aos_o2", 1, "glm::vec4 AoS loop -O2", dict(color="C3", marker="^")),
    ("soa_scalar_o2", 1, "scalar SoA loop -O2", dict(color="C1", marker="v")),
]
ROOF_LINES = [
    ("roofline_inplace", 1, "roofline: in-place pass, 8 lanes, 1 thread", dict(color="k", lw=1.6)),
    ("roofline_inplace", 2, "roofline: in-place pass, 8 lanes, 2 threads",
     dict(color="k", lw=1.2, ls="--")),
    ("roofline_xyz", 1, "in-place pass over x,y,z only (48 B: what Euler moves), 1 thread",
     dict(color="C7", lw=1.6, ls=":")),
    ("stream_triad", 1, "STREAM triad, 1 thread (GB/s as STREAM counts)",
     dict(color="0.55", lw=1.2, ls="-.")),
]


def counts_of(reduced):
    return sorted({n for (impl, n, _) in reduced if impl == "swarm_euler"})


def print_tables(context, reduced, stat, rounds_seen):
    counts = counts_of(reduced)
    print(f"swarm integration benchmark: SIMD {context.get('swarm_simd_target', '?')}, "
          f"{context.get('num_cpus', '?')} CPUs, {stat} of the {rounds_seen}; "
          "ns per particle (64 B/particle for GB/s)")
    columns = [("N", 6), ("swarm1", 7), ("swarm2", 7), ("glmO2", 7), ("soaO2", 7),
               ("native", 7), ("roof1", 7), ("roof2", 7), ("%roof1", 7), ("%roof2", 7),
               ("%xyz1", 7), ("%xyz2", 7), ("x glm", 6), ("x nat", 6), ("x O2", 6)]
    print(" ".join(name.rjust(width) for name, width in columns))
    for n in counts:
        s1, s2 = ns(reduced, "swarm_euler", n, 1), ns(reduced, "swarm_euler", n, 2)
        glm, scalar = ns(reduced, "glm_aos_o2", n), ns(reduced, "soa_scalar_o2", n)
        native = ns(reduced, "soa_native_o3", n)
        r1, r2 = ns(reduced, "roofline_inplace", n, 1), ns(reduced, "roofline_inplace", n, 2)
        x1, x2 = ns(reduced, "roofline_xyz", n, 1), ns(reduced, "roofline_xyz", n, 2)
        percent = lambda a, b: None if ratio(a, b) is None else 100.0 * ratio(a, b)  # noqa: E731
        cells = [label_n(n).rjust(6)] + [fmt(v, ".3f", 7) for v in (s1, s2, glm, scalar, native,
                                                                    r1, r2)]
        cells += [fmt(percent(r1, s1), ".0f", 7), fmt(percent(r2, s2), ".0f", 7),
                  fmt(percent(x1, s1), ".0f", 7), fmt(percent(x2, s2), ".0f", 7)]
        cells += [fmt(ratio(glm, s1), ".2f", 6), fmt(ratio(native, s1), ".2f", 6),
                  fmt(ratio(scalar, s1), ".2f", 6)]
        print(" ".join(cells))
    print("  swarm1/2 = swarm on 1/2 threads; roof = in-place roofline (8 lanes, 64 B); "
          "%roof = roofline time / swarm time (same threads);")
    print("  %xyz = the same for the 6-lane (48 B) pass Euler really needs; "
          "x glm / x nat / x O2 = peer time / swarm 1-thread time.")

    callsite = [n for n in counts if ("swarm_euler_callsite_views", n, 1) in reduced]
    for n in callsite:
        built = ns(reduced, "swarm_euler_callsite_views", n)
        prebuilt = ns(reduced, "swarm_euler", n)
        print(f"  swarm with views built at each call (positions.view()), N={label_n(n)}: "
              f"{built:.3f} ns/particle, {(built - prebuilt) * n:+.1f} ns per call vs views "
              f"made once; native loop {ns(reduced, 'soa_native_o3', n) * n:.1f} ns per call")

    print()
    print("GB/s at 64 B/particle (triad: STREAM counting, 12 B/element)")
    gb_columns = [("swarm_euler", 1), ("swarm_euler", 2), ("roofline_inplace", 1),
                  ("roofline_inplace", 2), ("stream_triad", 1), ("stream_triad", 2)]
    print("     N " + " ".join(f"{impl[:9]}/{t}".rjust(12) for impl, t in gb_columns))
    for n in counts:
        cells = []
        for impl, threads in gb_columns:
            value = reduced.get((impl, n, threads))
            cells.append(fmt(value[1] if value else None, ".1f", 12))
        print(label_n(n).rjust(6) + " " + " ".join(cells))

    pipeline = sorted({(n, t) for (impl, n, t) in reduced if impl == "pipeline_fused"})
    if pipeline:
        print()
        print("3-stage pipeline (ApplyAttractor, IntegrateEuler, CollideBox), ns/particle")
        for n, threads in pipeline:
            fused = ns(reduced, "pipeline_fused", n, threads)
            separate = ns(reduced, "pipeline_separate", n, threads)
            print(f"  N={label_n(n)} threads={threads}: fused {fused:.3f}, separate "
                  f"{separate:.3f}, separate/fused = {separate / fused:.2f}x")

    print()
    print(noise_line(reduced))

    print()
    print("targets")
    large = [n for n in counts if n >= 10_000_000]
    for threads in (1, 2):
        values = [ratio(ns(reduced, "roofline_inplace", n, threads),
                        ns(reduced, "swarm_euler", n, threads)) for n in large]
        report_target(f">= 95% of the in-place roofline at N >= 1e7, {threads} thread(s)",
                      large, values, lambda v: v >= 0.95, "{:.1%}")
    values = [ratio(ns(reduced, "soa_native_o3", n), ns(reduced, "swarm_euler", n)) for n in counts]
    report_target("no slower than the -O3 -march=native SoA loop at every N (1 thread)", counts,
                  values, lambda v: v >= 1.0, "{:.2f}x")
    million = [n for n in counts if n >= 1_000_000]
    values = [ratio(ns(reduced, "glm_aos_o2", n), ns(reduced, "swarm_euler", n)) for n in million]
    report_target(">= 1.4x the glm -O2 loop at N >= 1e6", million, values, lambda v: v >= 1.4,
                  "{:.2f}x")
    values = [ratio(ns(reduced, "soa_scalar_o2", 16), ns(reduced, "swarm_euler", 16))]
    report_target("no slower than the scalar loop at N = 16", [16], values, lambda v: v >= 1.0,
                  "{:.2f}x")


def plot(context, reduced, stat, rounds_seen, output):
    counts = counts_of(reduced)
    figure, (left, right) = plt.subplots(1, 2, figsize=(15, 7.4),
                                         gridspec_kw={"width_ratios": [3, 2]})
    for impl, threads, label, style in EULER_LINES + ROOF_LINES:
        xs = [n for n in counts if (impl, n, threads) in reduced]
        if not xs:
            continue
        if impl == "stream_triad":
            ys = [reduced[(impl, n, threads)][1] for n in xs]
        else:
            ys = [PARTICLE_BYTES / reduced[(impl, n, threads)][0] for n in xs]
        left.plot(xs, ys, label=label, **style)
    left.set_xscale("log")
    left.set_yscale("log")
    left.set_xlabel("particles N")
    left.set_ylabel("GB/s at 64 B/particle (p and v, 16 B each, read + written)")
    left.set_title("Euler step throughput (higher is better)")
    left.grid(True, which="both", alpha=0.3)
    left.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.11), ncol=3)

    comparisons = [
        ("glm_aos_o2", 1, "vs glm::vec4 AoS -O2", "C3", "^"),
        ("soa_native_o3", 1, "vs SoA -O3 -march=native", "C2", "s"),
        ("soa_scalar_o2", 1, "vs scalar SoA -O2", "C1", "v"),
        ("roofline_inplace", 1, "fraction of 8-lane roofline (1 thread)", "k", None),
        ("roofline_inplace", 2, "fraction of 8-lane roofline (2 threads)", "0.45", None),
    ]
    for impl, threads, label, color, marker in comparisons:
        xs, ys = [], []
        for n in counts:
            value = ratio(ns(reduced, impl, n, threads), ns(reduced, "swarm_euler", n, threads))
            if value is not None:
                xs.append(n)
                ys.append(value)
        style = dict(color=color, marker=marker or "o", ls="-" if marker else "--")
        right.plot(xs, ys, label=label, **style)
    right.axhline(1.0, color="0.3", lw=0.8)
    right.axhline(1.4, color="C3", lw=0.8, ls=":")
    right.axhline(0.95, color="k", lw=0.8, ls=":")
    right.set_xscale("log")
    right.set_yscale("log")
    right.set_xlabel("particles N")
    right.set_ylabel("peer time / swarm time  (> 1: swarm faster)")
    right.set_title("swarm speed-up (dotted: targets 1.4x glm, 95% roofline)")
    right.grid(True, which="both", alpha=0.3)
    right.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.11), ncol=2)

    pipeline = [(t, ratio(ns(reduced, "pipeline_separate", n, t), ns(reduced, "pipeline_fused", n, t)))
                for (impl, n, t) in sorted(reduced) if impl == "pipeline_fused"]
    pipeline_text = "; ".join(f"{t} thread(s): separate passes take {r:.2f}x the fused time"
                              for t, r in pipeline if r is not None)
    figure.suptitle("swarm IntegrateEuler vs peers and the memory roofline "
                    f"(SIMD {context.get('swarm_simd_target', '?')}, "
                    f"{context.get('num_cpus', '?')} CPUs, {stat} of the {rounds_seen})")
    if pipeline_text:
        figure.text(0.5, 0.012, "3-stage pipeline at N=1e7 (attractor, Euler, box): " + pipeline_text,
                    ha="center", fontsize=9)
    figure.tight_layout(rect=(0, 0.03, 1, 0.96))
    figure.savefig(output, dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("input", help="Google Benchmark JSON from swarm-bench-integrate")
    parser.add_argument("output", help="PNG to write")
    add_stat_argument(parser)
    args = parser.parse_args()
    context, runs = load(args.input)
    if not any(impl == "swarm_euler" for impl, _, _ in runs):
        print(f"plot_bench.py: no swarm_euler results in {args.input}", file=sys.stderr)
        return 2
    reduced = reduce_runs(runs, args.stat)
    rounds_seen = describe_rounds(runs, "swarm_euler")
    plot(context, reduced, args.stat, rounds_seen, args.output)
    print_tables(context, reduced, args.stat, rounds_seen)
    print()
    print(f"chart: {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
