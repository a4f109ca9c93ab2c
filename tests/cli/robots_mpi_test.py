"""swarm-robots sharded over MPI ranks (demos/robots/rank_group.h) against the same run as one
process: `mpirun -np 1, 2 and 3` write byte-identical .npy files and print the same summary
lines (success, errors, torques, energies, state hash) for two tasks in both control modes, with
a robot count that no rank count divides and recorded robots spread over several ranks; ranks
with other thread counts and SIMD targets change nothing. Failures on one rank (a URDF it cannot
read, a budget too small for its share, flags that differ from rank 0's, rank 0's files failing
mid-run) end every rank with status 2 and one message naming the rank, within a time limit, and
leave no output file behind. The C API's MPI example (demos/mpi_robots) prints the same state
hash and summary as swarm-robots for the same run.

    robots_mpi_test.py <swarm-robots> <mpiexec> <assets/robots> <shared urdf dir> <work dir>
        <swarm-mpi-robots>
"""

import os
import re
import subprocess
import sys
import time
from pathlib import Path

binary, mpiexec, assets, shared_urdf, work, c_api_example = sys.argv[1:7]
work = Path(work)
work.mkdir(parents=True, exist_ok=True)
ur5 = f"{assets}/ur5.urdf"
solo12 = f"{shared_urdf}/solo12.urdf"

# Oversubscribe: three ranks on a machine of two cores. As root, OpenMPI needs consent.
mpirun = [mpiexec, "--oversubscribe"]
if os.geteuid() == 0:
    mpirun.append("--allow-run-as-root")

TIME_LIMIT_S = 60
# The lines that must not depend on how the run is split (timings, memory and ranks may).
RESULT_LINE = re.compile(r"^(swarm-robots: task|reach success|stand success|final |state hash)")
failures = []


def run(command, expect_status=0, name=""):
    start = time.monotonic()
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=TIME_LIMIT_S)
    except subprocess.TimeoutExpired:
        failures.append(f"{name}: no exit within {TIME_LIMIT_S} s: {' '.join(command)}")
        return None, TIME_LIMIT_S
    elapsed = time.monotonic() - start
    if result.returncode != expect_status:
        failures.append(f"{name}: exit status {result.returncode}, expected {expect_status}: "
                        f"{' '.join(command)}\n--- stdout:\n{result.stdout}\n"
                        f"--- stderr:\n{result.stderr}")
        return None, elapsed
    return result, elapsed


def flags_with(flags, *overrides):
    """`flags` with each "--name value" pair of `overrides` replacing its own (the program
    refuses a flag given twice)."""
    flags = list(flags)
    for name, value in zip(overrides[::2], overrides[1::2]):
        if name in flags:
            flags[flags.index(name) + 1] = value
        else:
            flags += [name, value]
    return flags


def result_lines(stdout):
    return [line for line in stdout.splitlines() if RESULT_LINE.match(line)]


def check_same_run(name, flags, launches):
    """The plain run, then each launch (mpirun arguments before the program, or an MPMD line
    built by the launch itself), must give the same files and result lines."""
    reference_dir = work / name / "plain"
    reference_dir.mkdir(parents=True, exist_ok=True)
    plain, _ = run([binary, *flags, "--out", str(reference_dir / "run.npy")], name=f"{name} plain")
    if plain is None:
        return
    expected_lines = result_lines(plain.stdout)
    expected_files = {f: (reference_dir / f).read_bytes() for f in ("run.npy", "run_ee.npy")}
    if len(expected_lines) < 3 or "state hash" not in expected_lines[-1]:
        failures.append(f"{name}: the plain run printed too few result lines: {expected_lines}")
    for label, make_command in launches:
        out_dir = work / name / label
        out_dir.mkdir(parents=True, exist_ok=True)
        out = str(out_dir / "run.npy")
        result, _ = run(make_command(flags, out), name=f"{name} {label}")
        if result is None:
            continue
        if result_lines(result.stdout) != expected_lines:
            failures.append(f"{name} {label}: result lines differ:\n  "
                            + "\n  ".join(result_lines(result.stdout))
                            + "\nexpected\n  " + "\n  ".join(expected_lines))
        for file, expected in expected_files.items():
            if (out_dir / file).read_bytes() != expected:
                failures.append(f"{name} {label}: {file} differs from the plain run's")
        rank_lines = [l for l in result.stdout.splitlines() if re.match(r"  rank \d+ on ", l)]
        if label != "np1" and len(rank_lines) < 2:
            failures.append(f"{name} {label}: expected a memory line per rank, got {rank_lines}")
        for line in rank_lines:
            if "memory peak" not in line or "budget" not in line:
                failures.append(f"{name} {label}: rank line without memory: {line}")


def np_launch(ranks):
    return (f"np{ranks}",
            lambda flags, out: [*mpirun, "-np", str(ranks), binary, *flags, "--out", out])


def mixed_launch(flags, out):
    """Three ranks with different threads and SIMD targets (as on a mixed cluster)."""
    return [*mpirun, "-np", "1", binary, *flags_with(flags, "--threads", "2"), "--out", out, ":",
            "-np", "1", binary, *flags_with(flags, "--simd", "scalar"), "--out", out, ":",
            "-np", "1", binary, *flags_with(flags, "--simd", "sse4"), "--out", out]


launches = [np_launch(1), np_launch(2), np_launch(3), ("mixed", mixed_launch)]
# 101 robots: 34 + 34 + 33 on three ranks; 80 recorded robots span every rank.
common = ["--urdf", ur5, "--robots", "101", "--steps", "30", "--dt", "0.002", "--seed", "7",
          "--record-every", "7", "--record-robots", "80", "--no-progress", "--threads", "1",
          "--memory-limit", "64M"]
for task in ("reach", "random"):
    for control in ("kinematic", "torque"):
        check_same_run(f"{task}-{control}", [*common, "--task", task, "--control", control],
                       launches)
# Stand: floating base, ground contacts, Solo12 (the energies and contact forces gathered too).
check_same_run("stand-solo12",
               ["--urdf", solo12, "--robots", "7", "--steps", "20", "--task", "stand",
                "--control", "torque", "--floating-base", "--drop-height", "0.002",
                "--armature", "3.6e-4", "--kp", "20", "--kd", "0.3",
                "--posture", "0,0.8,-1.6,0,0.8,-1.6,0,-0.8,1.6,0,-0.8,1.6",
                "--record-every", "5", "--record-robots", "0", "--no-progress", "--threads", "1"],
               [np_launch(2), np_launch(3)])

# The progress bar: rank 0's alone (a log gets the same lines as from one process).
progress_flags = ["--urdf", ur5, "--robots", "30", "--steps", "50", "--threads", "1"]
plain, _ = run([binary, *progress_flags], name="progress plain")
sharded, _ = run([*mpirun, "-np", "3", binary, *progress_flags], name="progress np3")
if plain is not None and sharded is not None:
    plain_bars = plain.stderr.count("steps")
    sharded_bars = sharded.stderr.count("steps")
    if plain_bars < 2 or sharded_bars != plain_bars:
        failures.append(f"progress: {sharded_bars} progress lines from 3 ranks, {plain_bars} from "
                        f"one process\n{sharded.stderr}")


def check_failure(name, command, message_patterns, out_dir=None):
    result, elapsed = run(command, expect_status=2, name=name)
    if result is None:
        return
    ours = [l for l in result.stderr.splitlines() if l.startswith("swarm-robots:")]
    if len(ours) != 1:
        failures.append(f"{name}: expected one message, got {len(ours)}:\n{result.stderr}")
        return
    for pattern in message_patterns:
        if not re.search(pattern, ours[0]):
            failures.append(f"{name}: '{pattern}' not in: {ours[0]}")
    if out_dir is not None and list(Path(out_dir).iterdir()):
        failures.append(f"{name}: files left behind: {list(Path(out_dir).iterdir())}")
    print(f"{name}: exit 2 after {elapsed:.2f} s: {ours[0]}")


small = ["--urdf", ur5, "--robots", "30", "--steps", "20", "--no-progress", "--threads", "1"]
check_failure("rank 1 cannot read its URDF",
              [*mpirun, "-np", "1", binary, *small, ":",
               "-np", "2", binary, *flags_with(small, "--urdf", str(work / "missing.urdf"))],
              [r"^swarm-robots: rank 1 of 3: ", r"missing\.urdf", r"cannot open",
               r"\(and 1 more rank failed\)"])
# Rank 2's share of 300000 UR5s needs ~36 MiB; its budget is 8 MiB, rank 0's and 1's unbounded.
check_failure("rank 2 over its budget",
              [*mpirun, "-np", "2", binary, *flags_with(small, "--robots", "300000"), ":",
               "-np", "1", binary,
               *flags_with(small, "--robots", "300000", "--memory-limit", "8M")],
              [r"^swarm-robots: rank 2 of 3: ", r"--memory-limit=8\.00 MiB is too small for "
               r"100000 robots of 'ur5' \(this rank's share of 300000\)"])
check_failure("rank 1 with other flags",
              [*mpirun, "-np", "1", binary, *small, ":",
               "-np", "1", binary, *flags_with(small, "--seed", "2")],
              [r"^swarm-robots: rank 1 of 2: its flags or its model files' bytes differ from rank 0's"])
check_failure("fewer robots than ranks",
              [*mpirun, "-np", "3", binary, *flags_with(small, "--robots", "2")],
              [r"--robots 2 is fewer than the 3 MPI ranks"])
check_failure("fewer robots than ranks on rank 0 alone",
              [*mpirun, "-np", "1", binary, *flags_with(small, "--robots", "2"), ":",
               "-np", "2", binary, *small],
              [r"^swarm-robots: rank 0 of 3: --robots 2 is fewer than the 3 MPI ranks"])
check_failure("a bad flag on rank 1 alone",
              [*mpirun, "-np", "1", binary, *small, ":",
               "-np", "1", binary, *flags_with(small, "--threads", "0")],
              [r"^swarm-robots: rank 1 of 2: ", r"--threads"])
check_failure("the same bad flag on every rank",
              [*mpirun, "-np", "3", binary, *flags_with(small, "--task", "dance")],
              [r"^swarm-robots: --task: unknown task 'dance'.*\(on each of the 3 ranks\)$"])
check_failure("other commands refuse to shard",
              [*mpirun, "-np", "2", binary, "info", "--urdf", ur5], [r"only 'run' shards"])
# Rank 0's files fail mid-run (a 32 KiB file size limit on rank 0 alone): every rank stops.
full_dir = work / "full"
full_dir.mkdir(exist_ok=True)
for stale in full_dir.iterdir():
    stale.unlink()
recording = flags_with(small, "--robots", "300", "--steps", "100", "--record-every", "1",
                       "--record-robots", "0", "--out", str(full_dir / "run.npy"))
check_failure("rank 0's files fail mid-run",
              [*mpirun, "-np", "1", "bash", "-c",
               "trap '' XFSZ; ulimit -f 32; exec \"$0\" \"$@\"", binary, *recording, ":",
               "-np", "2", binary, *recording],
              [r"^swarm-robots: rank 0 of 3: ", r"File too large"], out_dir=full_dir)

# The C API example shards the run itself: the same summary and state hash as swarm-robots.
for task, control in (("reach", "kinematic"), ("random", "torque")):
    plain, _ = run([binary, "--urdf", ur5, "--robots", "101", "--steps", "30", "--task", task,
                    "--control", control, "--no-progress", "--threads", "1"],
                   name=f"C API example reference {task} {control}")
    if plain is None:
        continue
    expected = [l for l in plain.stdout.splitlines()
                if l.startswith(("final joint tracking", "state hash"))]
    successes = re.search(r"\((\d+) of 101 robots", plain.stdout)
    for ranks in (1, 2, 3):
        example, _ = run([*mpirun, "-np", str(ranks), c_api_example, ur5, "101", "30", task,
                          control], name=f"C API example {task} {control} np{ranks}")
        if example is None:
            continue
        got = [l for l in example.stdout.splitlines()
               if l.startswith(("final joint tracking", "state hash"))]
        if len(expected) != 2 or got != expected:
            failures.append(f"C API example {task} {control} np{ranks}: {got}, expected {expected}")
        if successes and f"success: {successes.group(1)} of 101 robots" not in example.stdout:
            failures.append(f"C API example {task} {control} np{ranks}: success count differs:\n"
                            f"{example.stdout}")

if failures:
    print("\n\n".join(failures), file=sys.stderr)
    sys.exit(1)
print("all MPI runs match the one-process runs; every failure ended all ranks with status 2")
