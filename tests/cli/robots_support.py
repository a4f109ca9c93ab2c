"""Shared helpers of swarm-robots' command-line tests: running the program and an independent
forward kinematics straight from the URDF text (xml.etree + numpy, double precision):
link = parent o origin(xyz, R = Rz(yaw) Ry(pitch) Rx(roll)) o motion(value about/along axis),
and each link's <inertial> for the dynamics checks."""

import json
import subprocess
import xml.etree.ElementTree as ET

import numpy as np


def run(command, expect_status=0):
    """Runs a command; fails with both outputs unless it exits with expect_status."""
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != expect_status:
        raise AssertionError(
            f"{' '.join(command)}\nexit status {result.returncode}, expected {expect_status}\n"
            f"--- stdout:\n{result.stdout}\n--- stderr:\n{result.stderr}")
    return result


def info_json(binary, urdf, floating_base=False):
    command = [binary, "info", "--urdf", urdf, "--json"]
    if floating_base:
        command.append("--floating-base")
    return json.loads(run(command).stdout)


def _floats(text, default):
    return np.array([float(v) for v in text.split()]) if text else np.array(default, float)


def rpy_matrix(roll, pitch, yaw):
    cr, sr, cp, sp, cy, sy = (np.cos(roll), np.sin(roll), np.cos(pitch), np.sin(pitch),
                              np.cos(yaw), np.sin(yaw))
    rx = np.array([[1, 0, 0], [0, cr, -sr], [0, sr, cr]])
    ry = np.array([[cp, 0, sp], [0, 1, 0], [-sp, 0, cp]])
    rz = np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
    return rz @ ry @ rx


def axis_angle_matrix(axis, angle):
    x, y, z = axis
    k = np.array([[0, -z, y], [z, 0, -x], [-y, x, 0]])
    return np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * (k @ k)


def _inertial(element):
    """A link's <inertial>: mass (kg), centre of mass and inertia-frame rotation in the link frame,
    and the 3x3 inertia tensor (kg m^2) about the centre of mass in that frame. Missing parts
    are zero (the identity for the rotation), as in the URDF spec."""
    origin = element.find("origin")
    mass = element.find("mass")
    inertia = element.find("inertia")
    ixx, ixy, ixz, iyy, iyz, izz = (float(inertia.get(k, 0)) if inertia is not None else 0.0
                                    for k in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz"))
    return {
        "mass": float(mass.get("value", 0)) if mass is not None else 0.0,
        "xyz": _floats(origin.get("xyz") if origin is not None else None, [0, 0, 0]),
        "rotation": rpy_matrix(*_floats(origin.get("rpy") if origin is not None else None,
                                        [0, 0, 0])),
        "inertia": np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]]),
    }


class Urdf:
    """The kinematic tree of a URDF file: the <joint> and <link> children of <robot> (joints
    inside <transmission> are not children of <robot> and so are ignored, as the spec says), and
    `inertials`: link name -> its parsed <inertial> (see _inertial), for links that have one."""

    def __init__(self, path):
        root = ET.parse(path).getroot()
        self.links = [link.get("name") for link in root.findall("link")]
        self.joints = []
        for joint in root.findall("joint"):
            origin = joint.find("origin")
            axis = joint.find("axis")
            mimic = joint.find("mimic")
            limit = joint.find("limit")
            axis_vector = _floats(axis.get("xyz") if axis is not None else None, [1, 0, 0])
            self.joints.append({
                "name": joint.get("name"),
                "type": joint.get("type"),
                "parent": joint.find("parent").get("link"),
                "child": joint.find("child").get("link"),
                "xyz": _floats(origin.get("xyz") if origin is not None else None, [0, 0, 0]),
                "rpy": _floats(origin.get("rpy") if origin is not None else None, [0, 0, 0]),
                "axis": axis_vector / np.linalg.norm(axis_vector),
                "mimic": None if mimic is None else (
                    mimic.get("joint"), float(mimic.get("multiplier", 1)),
                    float(mimic.get("offset", 0))),
                "lower": float(limit.get("lower", 0)) if limit is not None else 0.0,
                "upper": float(limit.get("upper", 0)) if limit is not None else 0.0,
            })
        self.inertials = {}
        for link in root.findall("link"):
            inertial = link.find("inertial")
            if inertial is not None:
                self.inertials[link.get("name")] = _inertial(inertial)
        children = {j["child"] for j in self.joints}
        roots = [link for link in self.links if link not in children]
        assert len(roots) == 1, f"expected one root link, got {roots}"
        self.root = roots[0]

    def independent_joints(self):
        return [j for j in self.joints if j["type"] != "fixed" and j["mimic"] is None]

    def chain_order(self):
        """Links and movable joints from the root, depth first (unique for a chain)."""
        links, joints = [self.root], []
        stack = [self.root]
        while stack:
            parent = stack.pop()
            for joint in self.joints:
                if joint["parent"] == parent:
                    links.append(joint["child"])
                    if joint["type"] != "fixed" and joint["mimic"] is None:
                        joints.append(joint["name"])
                    stack.append(joint["child"])
        return links, joints

    def forward_kinematics(self, values, base=None):
        """World 4x4 transform of every link; values maps independent joint names to q."""
        world = {self.root: np.eye(4) if base is None else base}
        by_name = {j["name"]: j for j in self.joints}
        pending = list(self.joints)
        while pending:
            rest = []
            for joint in pending:
                if joint["parent"] not in world:
                    rest.append(joint)
                    continue
                origin = np.eye(4)
                origin[:3, :3] = rpy_matrix(*joint["rpy"])
                origin[:3, 3] = joint["xyz"]
                motion = np.eye(4)
                if joint["type"] != "fixed":
                    if joint["mimic"] is not None:
                        master, multiplier, offset = joint["mimic"]
                        while by_name[master]["mimic"] is not None:  # mimic of a mimic
                            master, m2, o2 = by_name[master]["mimic"]
                            multiplier, offset = multiplier * m2, multiplier * o2 + offset
                        value = multiplier * values[master] + offset
                    else:
                        value = values[joint["name"]]
                    if joint["type"] == "prismatic":
                        motion[:3, 3] = joint["axis"] * value
                    else:
                        motion[:3, :3] = axis_angle_matrix(joint["axis"], value)
                world[joint["child"]] = world[joint["parent"]] @ origin @ motion
            assert len(rest) < len(pending), "the URDF tree has a cycle or a missing parent"
            pending = rest
        return world


def quaternion_wxyz_to_matrix(q):
    w, x, y, z = np.asarray(q, float) / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def rotation_angle(a, b):
    """Angle of the rotation a^T b (radians), from ||a - b||_F = 2 sqrt(2) sin(angle / 2): well
    conditioned for small angles, unlike arccos of the trace."""
    chord = np.linalg.norm(a - b) / (2 * np.sqrt(2))
    return float(2 * np.arcsin(min(1.0, chord)))


def check_pose(pose_wxyz, transform, what, position_tolerance=1e-5, angle_tolerance=1e-5):
    """A swarm pose (px py pz qw qx qy qz) against a 4x4 transform."""
    position_error = np.linalg.norm(np.asarray(pose_wxyz[:3], float) - transform[:3, 3])
    angle = rotation_angle(quaternion_wxyz_to_matrix(pose_wxyz[3:]), transform[:3, :3])
    assert position_error <= position_tolerance, \
        f"{what}: position off by {position_error:.3g} m: {pose_wxyz[:3]} vs {transform[:3, 3]}"
    assert angle <= angle_tolerance, f"{what}: rotation off by {angle:.3g} rad"
