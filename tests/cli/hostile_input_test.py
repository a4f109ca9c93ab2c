"""swarm's programs against hostile and unlucky input: each case must exit with status 2 (or 0
where the input is fine) and a message naming the file or flag, within a time limit and a peak
RSS limit (measured with wait4), and leave the caller's existing files exactly as they were.

    hostile_input_test.py <swarm-robots> <swarm-vision> <swarm-particles> <work dir> [--sanitized]

--sanitized: the binaries run under ASan (looser time and memory limits, same checks)."""

import json
import os
import resource
import signal
import subprocess
import sys
import time

import hostile_inputs as hostile

robots, vision, particles, work = sys.argv[1:5]
sanitized = "--sanitized" in sys.argv[5:]
os.makedirs(work, exist_ok=True)
# ASan keeps freed memory in quarantine and adds shadow memory: allow more, still far below the
# gigabytes the unfixed cases reached.
MAX_RSS_MB = 400 if sanitized else 120
MAX_SECONDS = 60 if sanitized else 15
failures = []
previous = b"the previous contents of this file"  # what a failed run must leave in place


def path(name):
    return os.path.join(work, name)


def write(name, data):
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(path(name), mode) as f:
        f.write(data)
    return path(name)


def run(command, preexec=None):
    """Runs command; returns (status, stdout + stderr, seconds, peak RSS in MB)."""
    start = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               preexec_fn=preexec, restore_signals=False)
    try:
        output, _ = process.communicate(timeout=MAX_SECONDS * 4)
    except subprocess.TimeoutExpired:
        process.kill()
        output, _ = process.communicate()
        return None, output.decode(errors="replace"), time.monotonic() - start, 0
    # communicate() has reaped the child; run_measured calls this in a fresh process whose only
    # child it is, so the children's high-water mark is this command's peak RSS.
    seconds = time.monotonic() - start
    rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return process.returncode, output.decode(errors="replace"), seconds, rss_mb


def run_measured(command, preexec=None):
    """run() in a forked helper, so ru_maxrss is this command's own peak."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        result = run(command, preexec)
        os.write(write_end, json.dumps(result).encode())
        os._exit(0)
    os.close(write_end)
    chunks = []
    while True:
        chunk = os.read(read_end, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read_end)
    os.waitpid(pid, 0)
    return tuple(json.loads(b"".join(chunks)))


def check(name, command, status, *expected, preexec=None, max_rss_mb=None, absent=()):
    code, output, seconds, rss = run_measured(command, preexec)
    problems = []
    if code != status:
        problems.append(f"exit status {code}, expected {status}")
    for text in expected:
        if text not in output:
            problems.append(f"output lacks {text!r}")
    for text in absent:
        if text in output:
            problems.append(f"output has {text!r}")
    if seconds > MAX_SECONDS:
        problems.append(f"took {seconds:.1f} s (limit {MAX_SECONDS} s)")
    limit = max_rss_mb or MAX_RSS_MB
    if rss > limit:
        problems.append(f"peak RSS {rss:.0f} MB (limit {limit} MB)")
    print(f"{'ok ' if not problems else 'FAIL'} {name}: exit {code}, {seconds:.2f} s, "
          f"{rss:.0f} MB peak RSS")
    if problems:
        failures.append(name)
        print("    " + "\n    ".join(problems))
        print("    command: " + " ".join(command))
        print("    output: " + output[-2000:].replace("\n", "\n            "))
    return output


def unchanged(name, file, contents):
    with open(file, "rb") as f:
        if f.read() != contents:
            failures.append(name)
            print(f"FAIL {name}: {file} changed")
        else:
            print(f"ok  {name}: {file} is unchanged")


def leftovers(prefix):
    directory, base = os.path.split(prefix)
    return [n for n in os.listdir(directory) if n.startswith(base + ".tmp-")]


# ---------------------------------------------------------------------------------------------
# URDF (1-6)

info = [robots, "info", "--urdf"]
check("1: 50,000 nested elements", info + [write("deep.urdf", hostile.urdf_deep())], 2,
      "deep.urdf: not a valid URDF", "nested 65 elements deep, more than the limit of 64")
check("2: 200,000 attributes on one element",
      info + [write("attributes.urdf", hostile.urdf_many_attributes())], 2,
      "attributes.urdf: not a valid URDF", "has 200001 attributes, more than the limit of 32")
big = write("big.urdf", hostile.urdf_padded(9 << 20))
check("2: a 9 MiB URDF", info + [big], 2, "URDF file '" + big + "'",
      "is larger than the limit of 8.00 MiB", "--max-urdf-bytes")
check("2: a 9 MiB URDF with --max-urdf-bytes 16M", info + [big, "--max-urdf-bytes", "16M"], 0,
      "robot 'r'")
check("2: a chain of 24,000 links", info + [write("chain.urdf", hostile.urdf_chain(24_000))], 0,
      "23999 l23999", max_rss_mb=MAX_RSS_MB * 2)
check("2: a chain of 24,000 links and a second root",
      info + [write("chain_roots.urdf", hostile.urdf_chain(24_000, extra_root=True))], 2,
      "chain_roots.urdf: not a valid URDF", "root", max_rss_mb=MAX_RSS_MB * 2)
check("3: a self-loop joint beside a misspelt <child>",
      info + [write("self_loop.urdf", hostile.urdf_self_loop_and_typo())], 2,
      "self_loop.urdf:1: joint 'self' connects link 'b' to itself")
check("4: axis 1e308 1e308 0", info + [write("axis.urdf", hostile.urdf_huge_axis())], 2,
      "joint 'hinge' has axis 1e+308, beyond float range")
check("4: origin xyz 1e308", info + [write("origin.urdf", hostile.urdf_huge_origin())], 2,
      "joint 'hinge' has origin xyz 1e+308, beyond +-1e+09")
check("4: origin xyz 1e39 (finite in double, not in float)",
      [robots, "run", "--robots", "16", "--steps", "2", "--no-progress", "--urdf",
       write("origin_float.urdf", hostile.urdf_origin_beyond_float())], 2,
      "joint 'hinge' has origin xyz 1e+39", absent=("nan",))
check("5: /dev/zero", info + ["/dev/zero"], 2, "URDF file '/dev/zero'",
      "the stream (more than 8388608 bytes) is larger than the limit of 8.00 MiB")
check("5: a directory", info + [work], 2, f"URDF file '{work}': is a directory")
check("6: a name that is not UTF-8",
      info + [write("latin1.urdf", hostile.urdf_invalid_utf8()), "--json"], 2,
      "latin1.urdf: not a valid URDF: line 1, column", "malformed XML (not well-formed")
odd = check("6: names JSON must escape", info + [write("odd.urdf", hostile.urdf_odd_names()),
                                                  "--json"], 0)
try:
    parsed = json.loads(odd)
    wanted = ["j" + name for _, name in hostile.ODD_NAMES]
    if parsed["joints"] != wanted or parsed["links"][1:] != ["l" + n for _, n in hostile.ODD_NAMES]:
        failures.append("6: JSON names")
        print(f"FAIL 6: JSON names: got {parsed['joints']}, expected {wanted}")
except (ValueError, KeyError) as error:
    failures.append("6: JSON parses")
    print(f"FAIL 6: info --json is not valid JSON ({error}): {odd!r}")

# MJCF (6b): the URDF gate's limits, and the model's files together under --max-mjcf-bytes.
mjcf_info = [robots, "info", "--mjcf"]
deep_mjcf = "<mujoco><worldbody>" + "<body>" * 50_000 + "</body>" * 50_000 + "</worldbody></mujoco>"
check("6b: an MJCF nesting 50,000 bodies", mjcf_info + [write("deep.xml", deep_mjcf.encode())], 2,
      "deep.xml", "nested 65 elements deep, more than the limit of 64")
check("6b: an MJCF with a DOCTYPE",
      mjcf_info + [write("doctype.xml", b'<!DOCTYPE m [<!ENTITY a "aaaa">]><mujoco/>')], 2,
      "doctype.xml", "DOCTYPE")
check("6b: /dev/zero as an MJCF", mjcf_info + ["/dev/zero"], 2, "/dev/zero",
      "--max-mjcf-bytes")
write("included.xml", b"<mujoco>" + b"<!--" + b"x" * (2 << 20) + b"--></mujoco>")
check("6b: an include past --max-mjcf-bytes",
      mjcf_info + [write("includer.xml", b'<mujoco><include file="included.xml"/></mujoco>'),
                   "--max-mjcf-bytes", "1M"], 2, "included.xml", "--max-mjcf-bytes")
check("6b: a number beyond double range in an MJCF",
      mjcf_info + [write("huge.xml", b'<mujoco><worldbody><body pos="1e999 0 0"><joint/>'
                   b'<geom size="0.1"/></body></worldbody></mujoco>')], 2,
      "huge.xml:1", "pos")

# ---------------------------------------------------------------------------------------------
# PNG (7, 8)

out_png = path("out.png")
kept_png = write("kept.png", previous)  # the output a failed run must leave as it was
for kind in (b"tEXt", b"zTXt", b"iTXt", b"sPLT"):
    name = kind.decode()
    check(f"7: a {name} chunk that claims 2 GB, --memory-limit 16M",
          [vision, write(f"claims_{name}.png", hostile.png_text_claims(kind)), "--gray",
           "--memory-limit", "16M", "-o", kept_png], 2, f"claims_{name}.png",
          "file is truncated", max_rss_mb=MAX_RSS_MB // 2)
    unchanged(f"7: {name}: -o", kept_png, previous)
check("7: zTXt chunks inflating to 7.5 MB each (skipped, the image loads)",
      [vision, write("ztxt_bomb.png", hostile.png_ztxt_bomb()), "--gray", "-o", out_png], 0,
      "output 16 x 16", max_rss_mb=MAX_RSS_MB // 2)
check("8: 68 bytes claiming 16384 x 16384 RGBA, no budget",
      [vision, write("claims_huge.png", hostile.png_claims_huge()), "--gray", "-o", kept_png], 2,
      "claims_huge.png", "corrupt image data")
unchanged("8: -o", kept_png, previous)
check("8: a directory as the input PNG", [vision, work, "--gray", "-o", out_png], 2,
      f"PNG file '{work}': is a directory")

# ---------------------------------------------------------------------------------------------
# Output files (9, 10)

good_png = write("good.png", hostile.png_image(203, 117))


def file_size_limit(ignore_signal):
    """A preexec that caps written file sizes at 4 KiB, with SIGXFSZ ignored or at its default
    action (death at the limit). The programs ignore SIGXFSZ themselves
    (demos/command_line/program_start.h), so either way write(2) fails with EFBIG and the output
    is refused like one on a full disk."""
    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, resource.RLIM_INFINITY))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN if ignore_signal else signal.SIG_DFL)
    return limit


for program, command in (
        ("swarm-vision -o", [vision, good_png, "--gray", "-o"]),
        ("swarm-particles --out", [particles, "--headless", "--particles", "20000", "--frames",
                                   "2", "--width", "320", "--height", "180", "--out"])):
    for ignored in (True, False):
        existing = write("existing.png", previous)
        how = "SIGXFSZ ignored" if ignored else "SIGXFSZ at its default"
        check(f"9: {program} on a full disk ({how}) keeps the existing file", command + [existing],
              2, "existing.png", "File too large", preexec=file_size_limit(ignored))
        unchanged(f"9: {program} full disk ({how})", existing, previous)
        if leftovers(existing):
            failures.append(f"9: {program} leftovers ({how})")
            print(f"FAIL 9: {program} left {leftovers(existing)} ({how})")
        for leftover in leftovers(existing):
            os.remove(os.path.join(work, leftover))

# Threads that cannot start (an address-space limit of 1 GiB: 256 threads' stacks of 8 MiB need
# 2 GiB of address space): every program ends with a message and status 2, not an uncaught
# exception's abort. Not under ASan, whose shadow memory needs far more address space than that.
def address_space_limit():
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, resource.RLIM_INFINITY))


if not sanitized:
    for program, command in (
            ("swarm-robots run", [robots, "run", "--urdf", os.path.join(
                os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets", "robots",
                "ur5.urdf"), "--robots", "64", "--steps", "2", "--no-progress"]),
            ("swarm-vision", [vision, good_png, "--gray", "-o", path("threads.png")]),
            ("swarm-particles", [particles, "--headless", "--particles", "1000", "--frames", "1",
                                 "--width", "64", "--height", "64", "--out",
                                 path("threads.png")])):
        check(f"11: {program} --threads 256 under a 1 GiB address-space limit",
              command + ["--threads", "256"], 2, "could not start a pool of 256 threads",
              "fewer --threads", preexec=address_space_limit)

# Two runs writing the same --out at once: the file that survives is one complete run.
ur5 = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets", "robots",
                   "ur5.urdf")
race = path("race.npy")
# Runs of about a second (ten under ASan), so the two racers surely overlap.
run_args = [robots, "run", "--urdf", ur5, "--robots", "64", "--steps", "100000", "--threads", "1",
            "--record-every", "20", "--no-progress"]
references = {}
for seed in ("1", "2"):
    check(f"10: reference run, seed {seed}", run_args + ["--seed", seed, "--out",
                                                         path(f"ref{seed}.npy")], 0)
    with open(path(f"ref{seed}.npy"), "rb") as f:
        references[seed] = f.read()
racers = [subprocess.Popen(run_args + ["--seed", seed, "--out", race], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE) for seed in ("1", "2")]
statuses = [racer.wait(timeout=MAX_SECONDS * 4) for racer in racers]
with open(race, "rb") as f:
    survivor = f.read()
if statuses != [0, 0] or survivor not in references.values() or leftovers(race):
    failures.append("10: concurrent runs")
    print(f"FAIL 10: concurrent --out: statuses {statuses}, survivor is a reference: "
          f"{survivor in references.values()}, leftovers {leftovers(race)}")
else:
    print("ok  10: two runs with one --out: both exit 0, the file is one complete run")

# ---------------------------------------------------------------------------------------------
# Budgets (11): the report's peak is what the run needs, and a budget below it fails up front.

budget_run = [particles, "--headless", "--particles", "100000", "--frames", "30", "--threads",
              "1", "--out", path("budget.png")]
report = check("11: unbudgeted run", budget_run, 0, "wrote")
peak_line = [line for line in report.splitlines() if line.strip().startswith("total")][-1]
value, unit = peak_line.split()[3:5]
peak = float(value) * {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}[unit]
check("11: a budget of the reported peak suffices", budget_run +
      ["--memory-limit", str(int(peak) + 16 * 1024)], 0, "wrote")
check("11: a budget just below the peak fails before the first frame", budget_run +
      ["--memory-limit", str(int(peak) - 64 * 1024)], 2, "--memory-limit=",
      "memory budget exceeded", absent=("frames,", "FPS"))
check("11: the save's reservation names its stage", [
    particles, "--headless", "--particles", "100000", "--frames", "2", "--threads", "1",
    "--memory-limit", "41M", "--out", path("budget.png")], 2,
    "reserving memory to save", absent=("frames,",))

# ---------------------------------------------------------------------------------------------
# Flags (12)

existing_npy = write("flags.npy", previous)
check("12: --out followed by a flag", [robots, "run", "--urdf", ur5, "--out", "--robots", "16"], 2,
      "--out needs a value, got the flag '--robots'")
if os.path.exists("--robots") or os.path.exists("--robots.npy"):
    failures.append("12: a file named --robots")
    print("FAIL 12: a file named --robots was written")
check("12: --gaussian followed by -o", [vision, good_png, "--gaussian", "-o", out_png], 2,
      "--gaussian needs a value, got the flag '-o'")
check("12: a repeated flag", [robots, "run", "--urdf", ur5, "--robots", "16", "--robots", "32",
                              "--out", existing_npy], 2, "--robots is given more than once")
unchanged("12: repeated flag", existing_npy, previous)
check("12: a directory as --urdf", [robots, "run", "--urdf", work], 2, "is a directory")
check("12: a directory as --q", [robots, "fk", "--urdf", ur5, "--q", work, "--out",
                                 path("poses.npy")], 2, f".npy file '{work}': is a directory")
check("12: a directory as -o", [vision, good_png, "--gray", "-o", work], 2, "is a directory")

if failures:
    print(f"{len(failures)} case(s) failed: {failures}")
    sys.exit(1)
print("all hostile-input cases passed")
