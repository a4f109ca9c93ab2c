"""Timing shared by swarm's numpy peer benchmarks (numpy_transform.py, numpy_tensor.py)."""

import time


def time_call(function, d, min_time, repeats):
    """Seconds per call: best of `repeats` loops of at least min_time seconds each, and the
    spread (slowest / best) of those loops."""
    loops = 1
    while True:
        start = time.perf_counter()
        for _ in range(loops):
            function(d)
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            break
        loops = max(loops * 2, int(loops * min_time / max(elapsed, 1e-9) * 1.2))
    times = [elapsed / loops]
    for _ in range(repeats - 1):
        start = time.perf_counter()
        for _ in range(loops):
            function(d)
        times.append((time.perf_counter() - start) / loops)
    return min(times), max(times) / min(times)


def result_row(workload, name, description, n, seconds, spread, bytes_per_element):
    """One JSON row of a peer benchmark: ns per element and bytes per second at size n."""
    return {
        "workload": workload, "impl": name, "description": description, "n": n,
        "ns_per_element": seconds / n * 1e9,
        "bytes_per_second": bytes_per_element * n / seconds,
        "spread": spread,
    }
