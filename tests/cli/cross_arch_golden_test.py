"""The demo programs' outputs equal the golden values computed on x86-64 (tests/golden/).

Runs swarm-particles headless (state hash after 1,000 steps, SHA-256 of the PNG), swarm-robots fk
over every shipped robot and a recorded swarm-robots run (SHA-256 of the .npy files, the state
hash), and swarm-vision (SHA-256 of the output PNG), on the SIMD target the programs pick. ctest
runs it in the native build and in the aarch64 build under qemu (the programs then start through
the emulator wrapper), so x86 and aarch64 must write the same bytes. Inputs are written here by
numpy and a minimal PNG encoder, so both builds read the very same files.

usage: cross_arch_golden_test.py GOLDEN WORK SWARM_PARTICLES SWARM_ROBOTS SWARM_VISION ASSETS
       [--print]   (--print writes the computed "key value" lines instead of checking them)
"""

import hashlib
import json
import os
import re
import struct
import subprocess
import sys
import zlib

import numpy as np


def read_golden(path):
    values = {}
    with open(path) as f:
        for line in f:
            fields = line.split()
            if fields and not fields[0].startswith("#"):
                values[fields[0]] = fields[1]
    return values


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def run(command):
    result = subprocess.run(command, capture_output=True, text=True, timeout=900)
    if result.returncode != 0:
        sys.exit(f"FAILED: {' '.join(command)} exited {result.returncode}:\n{result.stderr}")
    return result.stdout


def state_hash(output):
    match = re.search(r"^state hash ([0-9a-f]{16}) after", output, re.M)
    if not match:
        sys.exit(f"FAILED: no state hash in:\n{output}")
    return match.group(1)


def write_png(path, pixels):
    """8-bit RGB PNG of an [h, w, 3] uint8 array: signature, IHDR, one IDAT, IEND."""
    height, width, _ = pixels.shape

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data +
                struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    raw = b"".join(b"\x00" + pixels[y].tobytes() for y in range(height))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
        f.write(chunk(b"IEND", b""))


def particles(work, binary):
    results = {}
    common = ["--headless", "--particles", "4096", "--width", "160", "--height", "90", "--seed",
              "7"]
    for scene, frames in (("fountain", 1000), ("galaxy", 300)):
        png = os.path.join(work, f"particles-{scene}.png")
        output = run([binary, *common, "--scene", scene, "--frames", str(frames), "--out", png])
        results[f"cli.particles.{scene}.{frames}_steps.state_hash"] = state_hash(output)
        results[f"cli.particles.{scene}.{frames}_steps.png_sha256"] = sha256(png)
    return results


def robots(work, binary, assets):
    results = {}
    for urdf in sorted(f for f in os.listdir(assets) if f.endswith(".urdf")):
        name = urdf[:-len(".urdf")]
        path = os.path.join(assets, urdf)
        q_count = len(json.loads(run([binary, "info", "--urdf", path, "--json"]))["joints"])
        # 257 robots (a partial last vector on every target), joint values over several turns.
        r, j = np.meshgrid(np.arange(257), np.arange(q_count), indexing="ij")
        q = (((r * 37 + j * 11) % 101).astype(np.float32) / np.float32(101) - np.float32(0.5))
        q = q * np.float32(6.0)
        q_file = os.path.join(work, f"q-{name}.npy")
        np.save(q_file, q.astype(np.float32))
        poses = os.path.join(work, f"fk-{name}.npy")
        run([binary, "fk", "--urdf", path, "--q", q_file, "--out", poses])
        results[f"cli.robots.fk.{name}.257_robots.sha256"] = sha256(poses)
        # Rigid-body dynamics of the same rows: M, h and qdd for rates and torques made alike.
        qd = (((r * 13 + j * 7) % 89).astype(np.float32) / np.float32(89) - np.float32(0.5))
        qd_file = os.path.join(work, f"qd-{name}.npy")
        np.save(qd_file, qd * np.float32(4.0))
        outputs = [os.path.join(work, f"{kind}-{name}.npy") for kind in ("mass", "bias", "qdd")]
        run([binary, "dynamics", "--urdf", path, "--q", q_file, "--qd", qd_file, "--tau", qd_file,
             "--mass", outputs[0], "--bias", outputs[1], "--qdd", outputs[2]])
        digest = hashlib.sha256(b"".join(open(o, "rb").read() for o in outputs)).hexdigest()
        results[f"cli.robots.dynamics.{name}.257_robots.sha256"] = digest
    for task in ("reach", "track"):
        out = os.path.join(work, f"run-{task}.npy")
        output = run([binary, "run", "--urdf", os.path.join(assets, "ur5.urdf"), "--task", task,
                      "--robots", "333", "--steps", "200", "--dt", "0.002", "--seed", "5",
                      "--record-every", "10", "--record-robots", "40", "--no-progress", "--out",
                      out])
        key = f"cli.robots.run.ur5.{task}.333_robots.200_steps"
        results[f"{key}.state_hash"] = state_hash(output)
        results[f"{key}.npy_sha256"] = sha256(out)
    # Torque control: PD + gravity on the UR5, computed torque on the Panda, a floating quadruped.
    for name, extra in (("ur5", ["--task", "reach"]),
                        ("panda_arm", ["--task", "track", "--controller", "computed-torque"]),
                        ("quadruped", ["--task", "random", "--floating-base", "--integrator",
                                       "rk4"])):
        output = run([binary, "run", "--urdf", os.path.join(assets, f"{name}.urdf"), *extra,
                      "--control", "torque", "--robots", "100", "--steps", "100", "--seed", "5",
                      "--no-progress"])
        results[f"cli.robots.run_torque.{name}.100_robots.100_steps.state_hash"] = \
            state_hash(output)
    # Stand: the quadruped dropped 1 cm onto the ground (contacts, friction, the stand task).
    output = run([binary, "run", "--urdf", os.path.join(assets, "quadruped.urdf"), "--task",
                  "stand", "--floating-base", "--control", "torque", "--drop-height", "0.01",
                  "--robots", "100", "--steps", "100", "--seed", "5", "--no-progress"])
    if " 0 of 400 touching" in output:
        raise AssertionError("the stand run never touched the ground:\n" + output)
    results["cli.robots.run_stand.quadruped.100_robots.100_steps.state_hash"] = state_hash(output)
    return results


def vision(work, binary):
    y, x = np.mgrid[0:117, 0:203]
    rgb = np.stack([(x * 3 + y * 5) % 256, (x * y) % 251, (x ^ y) * 7 % 256], axis=-1)
    source = os.path.join(work, "vision-in.png")
    write_png(source, rgb.astype(np.uint8))
    results = {}
    for name, stages in (("gray_gaussian_sobel", ["--gray", "--gaussian", "5:1.0", "--sobel-mag"]),
                         ("u8_box_threshold", ["--u8", "--box", "3", "--threshold", "100"]),
                         ("gray_pyr_down", ["--gray", "--pyr-down", "--gaussian", "7:2.5"])):
        out = os.path.join(work, f"vision-{name}.png")
        run([binary, source, *stages, "-o", out])
        results[f"cli.vision.{name}.png_sha256"] = sha256(out)
    return results


def main():
    golden_file, work, particles_binary, robots_binary, vision_binary, assets = sys.argv[1:7]
    print_only = "--print" in sys.argv[7:]
    os.makedirs(work, exist_ok=True)
    computed = {}
    computed.update(particles(work, particles_binary))
    computed.update(robots(work, robots_binary, assets))
    computed.update(vision(work, vision_binary))
    if print_only:
        for key, value in computed.items():
            print(key, value)
        return
    golden = read_golden(golden_file)
    failed = False
    for key, value in computed.items():
        expected = golden.get(key)
        if expected == value:
            print(f"ok {key} {value}")
        else:
            print(f"FAILED {key}: computed {value}, golden {expected} ({golden_file})")
            failed = True
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
