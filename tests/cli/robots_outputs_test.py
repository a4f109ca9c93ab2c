"""swarm-robots run: the .npy outputs numpy loads, with the documented layout:
  run.npy     float32 [frames, M, q_count]   q at steps 0, K, 2K, ... of the first M robots
  run_ee.npy  float32 [frames, M, 7]         end-effector pose px py pz qw qx qy qz
checked against `swarm-robots fk` on the recorded q (bitwise: the same kernels) and against the
independent URDF forward kinematics of robots_support (1e-5); the bare form and `run` give the
same bytes; limits hold on every recorded frame; the progress bar (stderr, not a terminal: plain
lines) and the summary say what the issue asks.

usage: robots_outputs_test.py <swarm-robots> <assets/robots dir> <work dir>"""

import os
import re
import sys

import numpy as np

from robots_support import Urdf, check_pose, info_json, run

binary, assets, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
ur5 = os.path.join(assets, "ur5.urdf")


def run_robots(name, *flags, command=()):
    out = os.path.join(work, f"{name}.npy")
    result = run([binary, *command, "--urdf", ur5, "--out", out, *flags])
    return result, np.load(out), np.load(os.path.join(work, f"{name}_ee.npy"))


def end_effector(stdout):
    match = re.search(r"end effector '([^']+)'", stdout)
    assert match, stdout
    return match.group(1)


# A reach run: 40 robots, 60 steps, every 20th step of the first 24 robots -> 4 frames.
common = ["--robots", "40", "--steps", "60", "--dt", "0.002", "--task", "reach", "--seed", "3",
          "--threads", "2", "--record-every", "20", "--record-robots", "24"]
result, q, ee = run_robots("reach", *common)
assert q.dtype == np.float32 and ee.dtype == np.float32, (q.dtype, ee.dtype)
assert q.shape == (4, 24, 6), q.shape
assert ee.shape == (4, 24, 7), ee.shape
for pattern in [r"task reach, 40 robots of 'ur5'", r"SIMD [a-z0-9]+ \(", r"2 thread\(s\)",
                r"[0-9.]+ [kMG]? ?robot-steps/s", r"reach success: [0-9.]+% \([0-9]+ of 40",
                r"final end-effector error: position mean", r"state hash [0-9a-f]{16} after 60",
                r"memory per robot: [0-9]+ B", r"swarm memory", r"robots ", r"process RSS",
                r"wrote .*reach\.npy: float32 \[4, 24, 6\] \(q at steps 0, 20, \.\.\., 60\)",
                r"wrote .*reach_ee\.npy: float32 \[4, 24, 7\]"]:
    assert re.search(pattern, result.stdout), f"no /{pattern}/ in stdout:\n{result.stdout}"
# stderr is a pipe here: plain progress lines ending at 100%, with rate and ETA.
lines = [line for line in result.stderr.splitlines() if "steps" in line]
assert lines and "100%" in lines[-1] and "60/60 steps" in lines[-1], result.stderr
assert all("robot-steps/s" in line and "ETA" in line for line in lines), result.stderr
assert "\r" not in result.stderr, "carriage returns outside a terminal"

# The explicit `run` command: the same bytes.
_, q_run, ee_run = run_robots("reach_run", *common, command=("run",))
assert q_run.tobytes() == q.tobytes() and ee_run.tobytes() == ee.tobytes()

# Joint limits (+-2 pi on the UR5) hold; the robots moved.
urdf = Urdf(ur5)
names = info_json(binary, ur5)["joints"]
limits = {j["name"]: (j["lower"], j["upper"]) for j in urdf.joints}
for column, name in enumerate(names):
    lower, upper = limits[name]
    assert np.all(q[..., column] >= np.float32(lower)), name
    assert np.all(q[..., column] <= np.float32(upper)), name
assert not np.array_equal(q[0], q[-1]), "nothing moved"

# Recorded end-effector poses: fk of the recorded q (bitwise) and the URDF FK (1e-5).
links = info_json(binary, ur5)["links"]
ee_index = links.index(end_effector(result.stdout))
q_flat = os.path.join(work, "recorded_q.npy")
np.save(q_flat, q.reshape(-1, 6))
poses_path = os.path.join(work, "recorded_poses.npy")
run([binary, "fk", "--urdf", ur5, "--q", q_flat, "--out", poses_path])
poses = np.load(poses_path)
assert np.array_equal(poses[:, ee_index, :], ee.reshape(-1, 7)), "run_ee.npy differs from fk"
for frame in range(q.shape[0]):
    for robot in range(q.shape[1]):
        world = urdf.forward_kinematics(dict(zip(names, q[frame, robot].astype(np.float64))))
        check_pose(ee[frame, robot], world[links[ee_index]], f"frame {frame} robot {robot}")
norms = np.linalg.norm(ee[..., 3:], axis=-1)
assert np.all(np.abs(norms - 1) < 1e-6), norms
print("ok: reach run: shapes, summary, progress, limits, poses")

# --record-robots 0 records all robots; track and random tasks; record-every 1 keeps every step.
for task in ["track", "random"]:
    _, q_task, ee_task = run_robots(task, "--robots", "20", "--steps", "9", "--task", task,
                                    "--record-every", "1", "--record-robots", "0",
                                    "--no-progress", "--resample-every", "4")
    assert q_task.shape == (10, 20, 6) and ee_task.shape == (10, 20, 7), (q_task.shape, task)
    for column, name in enumerate(names):
        lower, upper = limits[name]
        assert np.all(q_task[..., column] >= np.float32(lower))
        assert np.all(q_task[..., column] <= np.float32(upper))
    print(f"ok: {task} run")

# A floating-base quadruped: 7 base values first (the identity: no task moves the base).
quadruped = os.path.join(assets, "quadruped.urdf")
out = os.path.join(work, "quadruped.npy")
result = run([binary, "--urdf", quadruped, "--floating-base", "--robots", "17", "--steps", "10",
              "--task", "random", "--record-every", "5", "--out", out, "--no-progress"])
q_quad = np.load(out)
dof = len(info_json(binary, quadruped)["joints"])
assert q_quad.shape == (3, 17, 7 + dof), q_quad.shape
assert np.array_equal(q_quad[..., :7], np.tile(np.float32([0, 0, 0, 1, 0, 0, 0]), (3, 17, 1)))
assert np.load(os.path.join(work, "quadruped_ee.npy")).shape == (3, 17, 7)
assert "floating base" in result.stdout, result.stdout
print("ok: floating-base quadruped run")
