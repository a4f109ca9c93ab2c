"""swarm-robots with MJCF models (--mjcf): the MuJoCo Menagerie robots of ../shared/mjcf, checked
against their XML text read here with xml.etree (includes followed), independently of swarm's
loader:
  info  --json lists the joints in document order, less free joints and the joint that a joint
        equality makes follow another (the Panda's second finger); the base floats iff the file
        has a free joint;
  fk    at random joint values, every body's origin sits at its <body pos> in its parent's
        frame (the hinges of these robots turn about the body origin; the Panda's sliding
        fingers are held at 0), and a floating base's pose is q's first seven values;
  dynamics  M is symmetric positive definite, and a floating base's translational block is the
        total mass (the sum of the <inertial> masses) times the identity.
MuJoCo 2.2.2 compares the values themselves (tests/engine/robots/mjcf_robot_mujoco_test.cc).

usage: robots_mjcf_test.py <swarm-robots> <../shared/mjcf dir> <work dir>"""

import json
import os
import sys
import xml.etree.ElementTree as ET

import numpy as np

from robots_support import quaternion_wxyz_to_matrix, run

binary, mjcf_dir, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
rng = np.random.default_rng(7)

ROBOTS = [("anybotics_anymal_c", "scene_mjx.xml"), ("unitree_go2", "scene_mjx.xml"),
          ("unitree_g1", "scene_mjx.xml"), ("franka_emika_panda", "mjx_scene.xml")]


def read_model(path):
    """The <mujoco> root with every <include> replaced by its file's children."""
    root = ET.parse(path).getroot()
    folder = os.path.dirname(path)

    def splice(element):
        for index, child in reversed(list(enumerate(element))):
            if child.tag == "include":
                element.remove(child)
                included = ET.parse(os.path.join(folder, child.get("file"))).getroot()
                for offset, grandchild in enumerate(included):
                    element.insert(index + offset, grandchild)
            else:
                splice(child)
    splice(root)
    return root


def bodies(root):
    """(name, parent name, pos, has free joint, joint names) of every body, depth first."""
    out = []

    def walk(element, parent):
        for body in element.findall("body"):
            pos = np.array([float(v) for v in body.get("pos", "0 0 0").split()])
            joints = [j.get("name") for j in body.findall("joint")]
            free = body.find("freejoint") is not None
            out.append((body.get("name"), parent, pos, free, joints))
            walk(body, body.get("name"))
    walk(root.find("worldbody"), "world")
    return out


def followers(root):
    equality = root.find("equality")
    return {e.get("joint2") for e in equality.findall("joint")} if equality is not None else set()


def random_q(names, rows, floating):
    q = rng.uniform(-1.0, 1.0, (rows, len(names)))
    if floating:
        q[:, 0:3] = rng.uniform(-1, 1, (rows, 3))
        quaternion = rng.normal(size=(rows, 4))
        q[:, 3:7] = quaternion / np.linalg.norm(quaternion, axis=1, keepdims=True)
    return q


for folder, file_name in ROBOTS:
    path = os.path.join(mjcf_dir, folder, file_name)
    root = read_model(path)
    tree = bodies(root)
    floating = any(free for _, _, _, free, _ in tree)
    info = json.loads(run([binary, "info", "--mjcf", path, "--json"]).stdout)
    skipped = followers(root)
    expected = [name for _, _, _, _, joints in tree for name in joints if name not in skipped]
    names = info["joints"][7:] if floating else info["joints"]
    assert info["floating_base"] == floating, (file_name, info["floating_base"])
    assert names == expected, (folder, names, expected)

    # fk: each body at its pos in its parent's frame.
    q = random_q(info["joints"], 8, floating)
    for column, name in enumerate(info["joints"]):
        if name.startswith("finger_joint"):
            q[:, column] = 0.0
    q_path = os.path.join(work, f"{folder}_q.npy")
    out_path = os.path.join(work, f"{folder}_poses.npy")
    np.save(q_path, q)
    run([binary, "fk", "--mjcf", path, "--q", q_path, "--out", out_path])
    poses = np.load(out_path)
    link = {name: i for i, name in enumerate(info["links"])}
    for name, parent, pos, free, _ in tree:
        if free:
            np.testing.assert_allclose(poses[:, link[name], :], q[:, 0:7], atol=1e-6)
            continue
        p, c = poses[:, link[parent], :], poses[:, link[name], :]
        for r in range(len(q)):
            local = quaternion_wxyz_to_matrix(p[r, 3:7]).T @ (c[r, 0:3] - p[r, 0:3])
            np.testing.assert_allclose(local, pos, atol=2e-6, err_msg=f"{folder} {name}")

    # dynamics: M symmetric positive definite; the base's translational block m I.
    qd_path = os.path.join(work, f"{folder}_qd.npy")
    mass_path = os.path.join(work, f"{folder}_mass.npy")
    n = len(info["joints"]) - (1 if floating else 0)
    np.save(qd_path, rng.normal(size=(len(q), n)))
    run([binary, "dynamics", "--mjcf", path, "--q", q_path, "--qd", qd_path, "--mass", mass_path])
    mass = np.load(mass_path).astype(np.float64)
    assert mass.shape == (len(q), n, n), mass.shape
    for m in mass:
        np.testing.assert_allclose(m, m.T, atol=1e-5 * np.abs(m).max())
        assert np.linalg.eigvalsh(m).min() > 0.0, folder
    if floating:
        total = sum(float(i.get("mass")) for i in root.iter("inertial"))
        for m in mass:
            np.testing.assert_allclose(m[0:3, 0:3], total * np.eye(3), rtol=1e-5, atol=1e-5)
    print(f"ok: {folder}/{file_name}: {len(expected)} joints, {len(tree)} bodies")
