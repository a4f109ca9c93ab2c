"""The files of swarm's three programs, one class of mistake or accident at a time, each case for
every program that has such a file:
  1. an output that is the same file as an input or another output (same path, hard link,
     symbolic link, "dir/../" spelling, run's _ee.npy companion): refused, naming both flags;
  2. outputs that name special or protected files: /dev/null and a FIFO are written through and
     stay what they were, /dev/full reports "No space left on device", a socket is refused, a
     0444 file is refused as read-only, a 0600 file keeps its mode;
  3. inputs that are FIFOs without a writer: refused after a bounded wait instead of hanging (a
     pipe on /dev/stdin whose writer is slow is still read);
  4. a file-size limit with SIGXFSZ at its default (a message, not a silent death), and SIGINT
     during a run (the temporary files removed, the process ended by the signal);
  5. run's two recording files: when the second cannot be written, both old files stay;
  6. stdout that cannot be written (/dev/full): status 2 and a message;
  7. an output basename of 250 bytes: written (its temporary name fits NAME_MAX);
  8. a URDF joint named like a floating-base coordinate: refused with a floating base.
Every refusal must exit with status 2, name the file or flags on stderr, and leave every input
and old output byte for byte as it was, and leave no temporary file behind.

usage: file_classes_test.py <swarm-robots> <swarm-vision> <swarm-particles> <assets/robots dir>
                            <work dir>"""

import os
import re
import resource
import shutil
import signal
import socket
import stat
import subprocess
import sys
import threading
import time

import numpy as np

robots, vision, particles, assets, work = sys.argv[1:6]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
ur5_source = os.path.join(assets, "ur5.urdf")
failures = []


def path(name):
    return os.path.join(work, name)


def write(name, data):
    with open(path(name), "wb") as file:
        file.write(data)
    return path(name)


def read(file_path):
    with open(file_path, "rb") as file:
        return file.read()


def leftovers():
    return sorted(name for name in os.listdir(work) if ".tmp-" in name)


def run(args, preexec=None, stdout=subprocess.PIPE, timeout=60):
    return subprocess.run(args, stdout=stdout, stderr=subprocess.PIPE, text=True,
                          preexec_fn=preexec, timeout=timeout)


def check(name, args, status, patterns=(), kept=(), preexec=None, stdout=subprocess.PIPE,
          max_seconds=None):
    """Runs args; checks the status, stderr patterns, files kept byte for byte, no leftovers."""
    before = {file_path: read(file_path) for file_path in kept}
    start = time.monotonic()
    result = run(args, preexec, stdout)
    seconds = time.monotonic() - start
    problems = []
    if result.returncode != status:
        problems.append(f"exit {result.returncode}, expected {status}")
    for pattern in patterns:
        if not re.search(pattern, result.stderr):
            problems.append(f"no /{pattern}/ in stderr")
    for file_path, data in before.items():
        if read(file_path) != data:
            problems.append(f"{file_path} changed")
    if leftovers():
        problems.append(f"left {leftovers()}")
        for leftover in leftovers():
            os.remove(path(leftover))
    if max_seconds is not None and seconds > max_seconds:
        problems.append(f"took {seconds:.1f} s, more than {max_seconds} s")
    if problems:
        failures.append(name)
        print(f"FAIL {name}: {'; '.join(problems)}\n  {' '.join(args)}\n  stderr: {result.stderr}")
    else:
        print(f"ok   {name}: exit {result.returncode}, {seconds:.2f} s")
    return result


# Inputs: a URDF, q and qd for the UR5, a PNG made by swarm-particles, a font stand-in.
urdf = write("r.urdf", read(ur5_source))
q = path("q.npy")
np.save(q, np.zeros((3, 6), np.float32))
qd = path("qd.npy")
np.save(qd, np.zeros((3, 6), np.float32))
png = path("in.png")
small_frame = ["--headless", "--particles", "1000", "--frames", "1", "--width", "16", "--height",
               "16"]
subprocess.run([particles, *small_frame, "--out", png], check=True, stdout=subprocess.DEVNULL)
font = write("font.ttf", b"not really a font")
fk = [robots, "fk", "--urdf", urdf, "--q", q]
dynamics = [robots, "dynamics", "--urdf", urdf, "--q", q, "--qd", qd]
short_run = [robots, "run", "--urdf", urdf, "--robots", "8", "--steps", "4", "--no-progress"]
gray = [vision, png, "--gray"]
frame = [particles, *small_frame]
inputs = [urdf, q, qd, png, font]

# 1. An output on an input or on another output.
os.link(q, path("q_hard.npy"))
os.symlink("q.npy", path("q_link.npy"))
os.symlink("in.png", path("in_link.png"))
os.makedirs(path("sub"))
same_file_cases = [
    ("run --out on --urdf", short_run + ["--out", urdf], [r"--out '.*r\.urdf'", r"--urdf"]),
    ("run's companion on --urdf", [robots, "run", "--urdf", write("o_ee.npy", read(urdf)),
                                   "--robots", "8", "--steps", "4", "--out", path("o.npy")],
     [r"--out's end-effector file '.*o_ee\.npy'", r"--urdf '.*o_ee\.npy'"]),
    ("fk --out on --q", fk + ["--out", q], [r"--out '.*q\.npy' is the same file as --q"]),
    ("fk --out on a hard link of --q", fk + ["--out", path("q_hard.npy")], [r"--out", r"--q"]),
    ("fk --out on a symbolic link to --q", fk + ["--out", path("q_link.npy")],
     [r"--out", r"--q"]),
    ("fk --out on --urdf spelled through ..", fk + ["--out", path("sub/../r.urdf")],
     [r"--out", r"--urdf"]),
    ("dynamics --mass on --q", dynamics + ["--mass", q], [r"--mass '.*q\.npy'", r"--q '"]),
    ("dynamics --bias on --qd", dynamics + ["--bias", qd], [r"--bias", r"--qd"]),
    ("dynamics --mass and --bias on one new file",
     dynamics + ["--mass", path("x.npy"), "--bias", path("sub/../x.npy")],
     [r"--mass '.*x\.npy' and --bias '.*x\.npy' are the same file"]),
    ("vision -o on its input", gray + ["-o", png], [r"--output '.*in\.png'", r"input PNG"]),
    ("vision -o on a link to its input", gray + ["-o", path("in_link.png")],
     [r"--output", r"input PNG"]),
    ("particles --out on --font", frame + ["--font", font, "--out", font],
     [r"--out '.*font\.ttf' is the same file as --font"]),
]
for name, args, patterns in same_file_cases:
    check(f"1: {name}", args, 2, patterns, kept=inputs)
if os.path.exists(path("x.npy")):
    failures.append("1: x.npy written")

# 2. Special and protected outputs.
special_writers = [
    ("fk --out", fk + ["--out"]),
    ("vision -o", gray + ["-o"]),
    ("particles --out", frame + ["--out"]),
]
listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
listener.bind(path("socket"))
for name, args in special_writers:
    check(f"2: {name} /dev/null", args + [os.devnull], 0, kept=inputs)
    if not stat.S_ISCHR(os.stat(os.devnull).st_mode):
        failures.append("2: /dev/null replaced")
    check(f"2: {name} /dev/full", args + ["/dev/full"], 2, [r"No space left on device"],
          kept=inputs)
    check(f"2: {name} a socket", args + [path("socket")], 2, [r"is a socket"], kept=inputs)
    if not stat.S_ISSOCK(os.stat(path("socket")).st_mode):
        failures.append(f"2: {name} replaced the socket")
    read_only = write("read_only.out", b"old output")
    os.chmod(read_only, 0o444)
    check(f"2: {name} a 0444 file", args + [read_only], 2, [r"read_only\.out' is read-only"],
          kept=inputs + [read_only])
    os.chmod(read_only, 0o644)
    private = write("private.out", b"old output")
    os.chmod(private, 0o600)
    check(f"2: {name} a 0600 file", args + [private], 0, kept=inputs)
    if stat.S_IMODE(os.stat(private).st_mode) != 0o600 or read(private) == b"old output":
        failures.append(f"2: {name} 0600")
        print(f"FAIL 2: {name}: mode {oct(os.stat(private).st_mode)} after writing a 0600 file")
    fifo = path("out.fifo")
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(read(fifo)))
    reader.start()
    check(f"2: {name} a FIFO with a reader", args + [fifo], 0, kept=inputs)
    reader.join(timeout=30)
    if not received or len(received[0]) < 100 or not stat.S_ISFIFO(os.stat(fifo).st_mode):
        failures.append(f"2: {name} FIFO")
        print(f"FAIL 2: {name}: the FIFO's reader got {len(received[0]) if received else None}")
    check(f"2: {name} a FIFO without a reader", args + [fifo], 2, [r"FIFO with no reader"],
          kept=inputs, max_seconds=10)
    os.remove(fifo)
listener.close()

# 3. FIFO inputs without a writer, all at once (each waits about 2 s).
os.mkfifo(path("in.fifo"))
fifo_cases = [
    ("--urdf", [robots, "info", "--urdf", path("in.fifo")], r"URDF file '.*in\.fifo'"),
    ("--q", [robots, "fk", "--urdf", urdf, "--q", path("in.fifo"), "--out", path("p.npy")],
     r"\.npy file '.*in\.fifo'"),
    ("vision input", [vision, path("in.fifo"), "--gray", "-o", path("p.png")],
     r"PNG file '.*in\.fifo'"),
]
threads = [threading.Thread(target=check, args=(f"3: a FIFO without a writer as {name}", args, 2,
                                                [pattern, r"is a FIFO with no writer"], inputs),
                            kwargs={"max_seconds": 15}) for name, args, pattern in fifo_cases]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
# A pipe whose writer is slow to send (a generator on /dev/stdin) is still read: only a FIFO
# that nobody has open for writing is refused.
slow = subprocess.run(f"(sleep 0.5; cat '{urdf}') | '{robots}' info --urdf /dev/stdin", shell=True,
                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=30)
if slow.returncode != 0 or "robot 'ur5'" not in slow.stdout:
    failures.append("3: a slow pipe on /dev/stdin")
    print(f"FAIL 3: a slow pipe on /dev/stdin: exit {slow.returncode}, stderr {slow.stderr}")
else:
    print("ok   3: a slow pipe on /dev/stdin is read")


# 4. A file-size limit with SIGXFSZ at its default, and SIGINT mid-run.
def file_size_limit(limit):
    def preexec():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))
        signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
    return preexec


old_q = write("old.npy", b"old q recording")
old_ee = write("old_ee.npy", b"old ee recording")
limited_writers = [
    ("run --out", [robots, "run", "--urdf", urdf, "--robots", "64", "--steps", "100",
                   "--no-progress", "--out", old_q]),
    ("fk --out", fk + ["--out", old_q]),
    ("vision -o", [vision, png, "--box", "3", "-o", old_q]),
    ("particles --out", frame + ["--out", old_q]),
]
for name, args in limited_writers:
    check(f"4: {name} past a file-size limit", args, 2, [r"File too large", r"old\.npy"],
          kept=inputs + [old_q, old_ee], preexec=file_size_limit(200))

long_run = [robots, "run", "--urdf", urdf, "--robots", "20000", "--steps", "1000000",
            "--record-every", "1", "--record-robots", "100", "--max-output", "100G",
            "--no-progress", "--out", old_q]
process = subprocess.Popen(long_run, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
deadline = time.monotonic() + 30
while len(leftovers()) < 2 and time.monotonic() < deadline:
    time.sleep(0.05)
time.sleep(0.3)
process.send_signal(signal.SIGINT)
code = process.wait(timeout=30)
if code != -signal.SIGINT or leftovers() or read(old_q) != b"old q recording" or \
        read(old_ee) != b"old ee recording":
    failures.append("4: SIGINT")
    print(f"FAIL 4: SIGINT mid-run: exit {code}, leftovers {leftovers()}")
else:
    print("ok   4: SIGINT mid-run: ended by SIGINT, no temporary files, old recording kept")

# 5. run's companion cannot be written: the q file fits under the limit, the _ee file does not
# (7 floats per robot and frame against 6), so neither old file may change.
frames, robots_recorded = 11, 64
q_bytes = 128 + frames * robots_recorded * 6 * 4
ee_bytes = 128 + frames * robots_recorded * 7 * 4
check("5: run's _ee.npy fails after run.npy was written", [
    robots, "run", "--urdf", urdf, "--robots", "64", "--steps", "100", "--record-every", "10",
    "--no-progress", "--out", old_q], 2, [r"old_ee\.npy", r"File too large"],
    kept=inputs + [old_q, old_ee], preexec=file_size_limit((q_bytes + ee_bytes) // 2))

# 6. stdout that cannot be written.
with open("/dev/full", "w") as full:
    for name, args in [("run", short_run), ("fk", fk + ["--out", path("p.npy")]),
                       ("info", [robots, "info", "--urdf", urdf, "--json"]),
                       ("vision", gray + ["-o", path("p.png")]),
                       ("particles", frame)]:
        check(f"6: {name} > /dev/full", args, 2,
              [r"cannot write the report to standard output: No space left on device"],
              kept=inputs, stdout=full)

# 7. A 250-byte output basename.
long_name = "n" * 246
for name, args, suffix in [("fk --out", fk + ["--out"], ".npy"),
                           ("vision -o", gray + ["-o"], ".png"),
                           ("particles --out", frame + ["--out"], ".png")]:
    target = path(long_name + suffix)
    check(f"7: {name} with a 250-byte basename", args + [target], 0, kept=inputs)
    if not os.path.exists(target):
        failures.append(f"7: {name}")
    else:
        os.remove(target)

# 8. A joint named like a floating-base coordinate.
text = read(urdf).decode()
joint = re.search(r'<joint name="([^"]+)" type="revolute"', text).group(1)
clash = write("clash.urdf", re.sub(r'"%s"' % re.escape(joint), '"base_x"', text).encode())
check("8: info --floating-base with a joint named base_x",
      [robots, "info", "--urdf", clash, "--floating-base", "--json"], 2,
      [r"joint 'base_x' has the name of a floating-base coordinate"], kept=[clash])
check("8: the same URDF without a floating base", [robots, "info", "--urdf", clash, "--json"], 0)

if failures:
    print(f"{len(failures)} case(s) failed: {failures}")
    sys.exit(1)
print("all cases passed")
