"""swarm-robots fk against independent forward kinematics: for every shipped robot (and the
quadruped with a floating base), q rows made by numpy (float32 and float64, C and Fortran order)
give float32 [R, links, 7] poses (px py pz qw qx qy qz) that match a double-precision FK computed
here from the URDF text (robots_support.Urdf) to 1e-5 m and 1e-5 rad; the root link is the
identity (or the floating base pose); quaternions have unit norm; and the UR5's tool0 matches
Universal Robots' published DH parameters.

usage: robots_fk_test.py <swarm-robots> <assets/robots dir> <work dir>"""

import os
import sys

import numpy as np

from robots_support import Urdf, check_pose, info_json, quaternion_wxyz_to_matrix, run

binary, assets, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
rng = np.random.default_rng(2024)


def random_q(urdf, names, rows, floating_base):
    """Rows of q in the order `names` (info's q order): joints within their limits (+-pi where
    unlimited), a floating base at a random position and orientation (unnormalised on purpose:
    swarm normalises)."""
    by_name = {j["name"]: j for j in urdf.joints}
    q = np.zeros((rows, len(names)))
    for column, name in enumerate(names):
        if name.startswith("base_"):
            continue
        joint = by_name[name]
        lower, upper = joint["lower"], joint["upper"]
        if joint["type"] == "continuous" or lower >= upper:
            lower, upper = -np.pi, np.pi
        q[:, column] = rng.uniform(lower, upper, rows)
    if floating_base:
        q[:, 0:3] = rng.uniform(-2, 2, (rows, 3))
        q[:, 3:7] = rng.normal(size=(rows, 4)) * 1.7
    q[0, :] = 0.0  # the zero configuration (a zero base quaternion means the identity)
    if floating_base:
        q[0, 3] = 1.0
    return q


def fk_file(name, q, extra=()):
    q_path = os.path.join(work, f"{name}_q.npy")
    out_path = os.path.join(work, f"{name}_poses.npy")
    np.save(q_path, q)
    run([binary, "fk", "--q", q_path, "--out", out_path, "--threads", "2", *extra])
    return np.load(out_path)


def check_robot(file_name, floating_base=False):
    urdf_path = os.path.join(assets, file_name)
    urdf = Urdf(urdf_path)
    info = info_json(binary, urdf_path, floating_base)
    names, links = info["joints"], info["links"]
    extra = ["--urdf", urdf_path] + (["--floating-base"] if floating_base else [])
    tag = os.path.splitext(file_name)[0] + ("_floating" if floating_base else "")
    q64 = random_q(urdf, names, 40, floating_base)
    q32 = q64.astype(np.float32)
    poses = fk_file(tag + "_f32", q32, extra)
    assert poses.dtype == np.float32, poses.dtype
    assert poses.shape == (40, len(links), 7), f"{tag}: shape {poses.shape}"
    # float64 input holding the same values, and Fortran order: the same bytes.
    same64 = fk_file(tag + "_f64", q32.astype(np.float64), extra)
    fortran = fk_file(tag + "_fortran", np.asfortranarray(q32), extra)
    assert same64.tobytes() == poses.tobytes(), f"{tag}: float64 input differs from float32"
    assert fortran.tobytes() == poses.tobytes(), f"{tag}: Fortran-order input differs"
    norms = np.linalg.norm(poses[:, :, 3:], axis=2)
    assert np.all(np.abs(norms - 1) < 1e-6), f"{tag}: quaternion norms {norms.min()}..{norms.max()}"
    for row in range(q32.shape[0]):
        values = dict(zip(names, q32[row].astype(np.float64)))
        base = None
        if floating_base:
            base = np.eye(4)
            base[:3, :3] = quaternion_wxyz_to_matrix(q32[row, 3:7])
            base[:3, 3] = q32[row, 0:3]
        world = urdf.forward_kinematics(values, base)
        for index, link in enumerate(links):
            check_pose(poses[row, index], world[link], f"{tag} row {row} link {link}")
    if not floating_base:
        identity = np.array([0, 0, 0, 1, 0, 0, 0], np.float32)
        assert np.array_equal(poses[:, 0, :], np.tile(identity, (40, 1))), \
            f"{tag}: root link is not the identity: {poses[:3, 0, :]}"
    print(f"ok: {tag}: {len(links)} links x 40 configurations match the URDF FK")


def dh_transform(d, a, alpha, theta):
    ct, st, ca, sa = np.cos(theta), np.sin(theta), np.cos(alpha), np.sin(alpha)
    return np.array([[ct, -st * ca, st * sa, a * ct],
                     [st, ct * ca, -ct * sa, a * st],
                     [0, sa, ca, d],
                     [0, 0, 0, 1]])


def check_ur5_dh():
    """tool0 against the standard DH parameters Universal Robots publishes for the UR5."""
    d = [0.089159, 0, 0, 0.10915, 0.09465, 0.0823]
    a = [0, -0.425, -0.39225, 0, 0, 0]
    alpha = [np.pi / 2, 0, 0, np.pi / 2, -np.pi / 2, 0]
    urdf_path = os.path.join(assets, "ur5.urdf")
    info = info_json(binary, urdf_path)
    assert len(info["joints"]) == 6, info["joints"]
    tool = info["links"].index("tool0")
    q = rng.uniform(-np.pi, np.pi, (25, 6)).astype(np.float32)
    q[0] = 0
    poses = fk_file("ur5_dh", q, ["--urdf", urdf_path])
    for row in range(q.shape[0]):
        transform = np.eye(4)
        for i in range(6):
            transform = transform @ dh_transform(d[i], a[i], alpha[i], float(q[row, i]))
        check_pose(poses[row, tool], transform, f"UR5 DH row {row}")
    # The published zero pose: (a2 + a3, -(d4 + d6), d1 - d5).
    assert np.allclose(poses[0, tool, :3], [-0.81725, -0.19145, -0.005491], atol=1e-6), \
        poses[0, tool, :3]
    print("ok: UR5 tool0 matches the DH parameters at q = 0 and 24 random configurations")


for robot in ["ur5.urdf", "panda_arm.urdf", "quadruped.urdf"]:
    check_robot(robot)
check_robot("quadruped.urdf", floating_base=True)
check_ur5_dh()
