#!/usr/bin/python3
"""(a - b) * c + d from Python: swarm's fused expressions against numpy and numexpr.

    /usr/bin/python3 bench/numpy_expressions.py build/release/engine/c_api/libswarm_c.so \\
        [--max-count 1e8] [--min-time 0.2] [--repeats 3] [--threads 1]

Times, on float32 arrays, one evaluation of (a - b) * c + d into a preallocated out:

  numpy     np.subtract(a, b, out=t); np.multiply(t, c, out=t); np.add(t, d, out=out)
            (the best a numpy user can do: three passes, one temporary, no allocation)
  numpy_expr  out = (a - b) * c + d  (what a numpy user writes: allocates temporaries)
  numexpr   numexpr.evaluate("(a - b) * c + d", out=out)  (fused, tiled, its own threads set to
            --threads)
  swarm     ctx.evaluate("(a - b) * c + d", out=out, a=a, b=b, c=c, d=d)  (libswarm_c through
            ctypes: fused, tiled; a context of --threads threads; each call parses the text and
            imports the five arrays through DLPack)
  prepared  step = ctx.prepare(...) once, then step(): one library call per evaluation

and prints ns per element, GB/s at 20 B per element (four arrays read, one written) and the
ratios of swarm and prepared over numpy and numexpr (above 1: swarm is faster). Every implementation's
result is first checked against numpy's. Run with Debian's /usr/bin/python3 (python3-numpy,
python3-numexpr).
"""

import argparse
import os
import sys

import numpy as np
import numexpr

from numpy_timing import time_call

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "engine",
                                "c_api", "python"))
import swarm  # noqa: E402

COUNTS = [1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000]
EXPRESSION = "(a - b) * c + d"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library", help="path of libswarm_c.so")
    parser.add_argument("--max-count", type=float, default=1e7)
    parser.add_argument("--min-time", type=float, default=0.2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    lib = swarm.load(args.library)
    ctx = lib.context(threads=args.threads)
    numexpr.set_num_threads(args.threads)
    rng = np.random.default_rng(1)
    print(f"{EXPRESSION}, float32, {args.threads} thread(s); ns per element, best of "
          f"{args.repeats}")
    header = ("N", "numpy", "numpy_expr", "numexpr", "swarm", "prepared", "swarm GB/s",
              "vs numpy", "vs numexpr", "prep/numexpr")
    print("%11s %9s %11s %9s %9s %9s %11s %9s %11s %13s" % header)
    for n in COUNTS:
        if n > args.max_count:
            break
        a, b, c, d = (rng.uniform(-1, 1, n).astype(np.float32) for _ in range(4))
        out = np.empty(n, np.float32)
        temporary = np.empty(n, np.float32)
        want = (a - b) * c + d

        def with_numpy(_):
            np.subtract(a, b, out=temporary)
            np.multiply(temporary, c, out=temporary)
            np.add(temporary, d, out=out)

        def with_numpy_expression(_):
            return (a - b) * c + d

        def with_numexpr(_):
            numexpr.evaluate(EXPRESSION, out=out, local_dict={"a": a, "b": b, "c": c, "d": d})

        def with_swarm(_):
            ctx.evaluate(EXPRESSION, out=out, a=a, b=b, c=c, d=d)

        with_prepared = ctx.prepare(EXPRESSION, out=out, a=a, b=b, c=c, d=d)

        seconds = {}
        for name, function in (("numpy", with_numpy), ("numpy_expr", with_numpy_expression),
                               ("numexpr", with_numexpr), ("swarm", with_swarm),
                               ("prepared", lambda _: with_prepared())):
            out[:] = np.nan
            result = function(None)
            got = out if result is None or result is out else result
            if not np.allclose(got, want, rtol=1e-6, atol=1e-6):
                sys.exit(f"numpy_expressions.py: {name} is wrong at N = {n}")
            seconds[name], _ = time_call(function, None, args.min_time, args.repeats)
        per = {name: s / n * 1e9 for name, s in seconds.items()}
        print("%11d %9.3f %11.3f %9.3f %9.3f %9.3f %11.2f %9.2f %11.2f %13.2f" % (
            n, per["numpy"], per["numpy_expr"], per["numexpr"], per["swarm"], per["prepared"],
            20.0 * n / seconds["swarm"] / 1e9, seconds["numpy"] / seconds["swarm"],
            seconds["numexpr"] / seconds["swarm"], seconds["numexpr"] / seconds["prepared"]))


if __name__ == "__main__":
    main()
