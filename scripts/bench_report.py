"""Helpers shared by swarm's benchmark reports (scripts/plot_bench.py, scripts/plot_transform.py).

The benchmark programs (bench/bench_common.h) name every run "<name>/N:<n>/threads:<t>/round:<r>"
and report a per-element time counter (ns_per_particle or ns_per_element) and bytes_per_second;
every (name, N, threads) ran in several interleaved rounds. These helpers load that JSON, reduce
the rounds to one number (the best round by default, since interference on a shared machine only
ever slows a run down; or the median) and format tables and target lines.
"""

import json
import re
import statistics

NAME = re.compile(
    r"^(?P<name>[a-z0-9_/]+?)/N:(?P<n>\d+)/threads:(?P<threads>\d+)/round:(?P<round>\d+)")
NS_COUNTERS = ("ns_per_particle", "ns_per_element")


def add_stat_argument(parser):
    parser.add_argument("--stat", choices=("best", "median"), default="best",
                        help="how rounds reduce to one number (default: best)")


def load(path):
    """(context, {(name, n, threads): [run, ...]}) with each run's ns and bytes_per_second."""
    with open(path) as handle:
        document = json.load(handle)
    runs = {}
    for entry in document["benchmarks"]:
        if entry.get("run_type", "iteration") != "iteration" or entry.get("error_occurred"):
            continue
        match = NAME.match(entry["name"])
        counter = next((c for c in NS_COUNTERS if c in entry), None)
        if not match or counter is None:
            continue
        key = (match["name"], int(match["n"]), int(match["threads"]))
        runs.setdefault(key, []).append(
            {"ns": entry[counter], "bytes_per_second": entry["bytes_per_second"]})
    return document.get("context", {}), runs


def reduce_runs(runs, stat):
    """{key: (ns per element, GB/s as counted by the benchmark, spread = slowest / fastest)}."""
    reduced = {}
    for key, values in runs.items():
        ns = [v["ns"] for v in values]
        if stat == "best":
            best = min(values, key=lambda v: v["ns"])
            chosen_ns, chosen_gbs = best["ns"], best["bytes_per_second"] / 1e9
        else:
            chosen_ns = statistics.median(ns)
            chosen_gbs = statistics.median(v["bytes_per_second"] for v in values) / 1e9
        reduced[key] = (chosen_ns, chosen_gbs, max(ns) / min(ns))
    return reduced


def ns(reduced, name, n, threads=1):
    value = reduced.get((name, n, threads))
    return value[0] if value else None


def ratio(numerator, denominator):
    if numerator is None or denominator is None:
        return None
    return numerator / denominator


def percent(numerator, denominator):
    value = ratio(numerator, denominator)
    return None if value is None else 100.0 * value


def fmt(value, spec, width):
    return f"{value:{spec}}".rjust(width) if value is not None else "-".rjust(width)


def label_n(n):
    exponent = len(str(n)) - 1
    return f"1e{exponent}" if n == 10 ** exponent else str(n)


def report_target(title, counts, values, passes, spec):
    """Prints '[met|MISS|n/a] title: N: value, ...'; returns True, False or None (no data)."""
    known = [(n, v) for n, v in zip(counts, values) if v is not None]
    if not known:
        print(f"  [ n/a] {title}")
        return None
    met = all(passes(v) for _, v in known)
    detail = ", ".join(f"{label_n(n)}: {spec.format(v)}" for n, v in known)
    print(f"  [{'met' if met else 'MISS':>4}] {title}: {detail}")
    return met


def describe_rounds(runs, reference):
    """'3 at N=16..1e5, 8 at 1e6..1e7' from the 1-thread runs of benchmark `reference`."""
    per_count = sorted((n, len(values)) for (name, n, t), values in runs.items()
                       if name == reference and t == 1)
    groups = []
    for n, rounds in per_count:
        if groups and groups[-1][2] == rounds:
            groups[-1][1] = n
        else:
            groups.append([n, n, rounds])
    parts = [f"{rounds} at N={label_n(first)}" + (f"..{label_n(last)}" if last != first else "")
             for first, last, rounds in groups]
    return "rounds (" + ", ".join(parts) + ")"


def noise_line(reduced):
    """The median and worst slowest/fastest-round spread over all benchmarks."""
    spreads = [(value[2], key) for key, value in reduced.items()]
    worst = max(spreads)
    return (f"noise: slowest/fastest round, median over all benchmarks "
            f"{statistics.median(s for s, _ in spreads):.2f}, worst {worst[0]:.2f} "
            f"({worst[1][0]} N={label_n(worst[1][1])} threads={worst[1][2]})")
