"""swarm-robots dynamics against rigid-body physics computed here in double precision straight
from the URDF text (robots_support.Urdf: its forward kinematics and each link's <inertial>), for
every real-world URDF of the shared set with a fixed base, the quadruped (also under a tilted
--gravity) and the Panda (mimic finger) with a floating base, and a synthetic arm written to the
work dir with what those files lack (rotated inertia frames, a tilted prismatic joint, a mimic
with multiplier and offset, a massive link on a fixed joint), fixed and floating. Ten seeded rows
per model, row 0 the zero pose:

1. kinetic energy: 0.5 qd^T M qd = sum over links of 0.5 m |v_c|^2 + 0.5 w^T (R I R^T) w, the
   centre-of-mass velocity v_c and angular velocity w by central differences of the FK along the
   motion, to 2e-5 of the energy; and every entry of M = sum J_v^T m J_v + J_w^T (R I R^T) J_w
   (link Jacobians by the same differences along each unit velocity) to 2e-5 sqrt(M_ii M_jj);
2. gravity: h(q, 0) = dV/dq, V(q) = -sum m g . c_world(q), by central differences, to 2e-5 of
   sum |m g| |J_v,j| (the moments a recursive algorithm carries even where they cancel);
3. power balance, which checks C against M: qd . tau = qd^T M qdd + 0.5 qd^T Mdot qd + qd^T g,
   Mdot by a five-point stencil of the command's own M along the motion, to 1e-6 of
   |qd| (|M||qdd| + |tau| + |h| + |Mdot||qd|); the same without M qdd, qd^T (h - g) =
   0.5 qd^T Mdot qd, to 1e-5 of |qd| (|h| + |g| + |Mdot||qd|); M symmetric (1e-6) positive
   definite; qdd = solve(M, tau - h) to 1e-4 of max |qdd| and M qdd = tau - h to 1e-5 of
   |M||qdd| + |tau| + |h|;
4. the whole bias h(q, qd) against the principle of virtual power (Kane's equations): with qd
   held constant, h_j = sum over links of m (a_c - g) . J_v,j + (I_w alpha + w x I_w w) . J_w,j,
   the accelerations a_c and alpha by second differences of the FK, to 2e-5 of
   sum |m (a_c - g)| |J_v,j| + |I_w alpha + w x I_w w| |J_w,j|;
5. the same bytes on every SIMD target the CPU supports, on 1, 2 and 3 threads, for a row alone
   and for float32 input holding the same values;
6. bad input (wrong qd shape, NaN, --qdd without --tau, --tau without --qdd, a moving link
   without <inertial>, a two-number --gravity, link masses and inertias of 1e-40
   whose accelerations overflow)
   exits with status 2, names the problem and leaves the output files untouched.

A floating base: q starts with x y z qw qx qy qz (quaternions here are deliberately not unit:
swarm normalises), qd with the base link's origin velocity v and angular velocity w, both in the
base frame, so that the base moves as p + t R v, R expm(t [w]x) to first order in t. The
generalised forces of the base are dual to those velocities (force and moment in the base frame).

The float32 outputs carry about 6e-8 relative error and swarm's float arithmetic some more (the
measured worst errors, printed at the end, are 1e-7 to 3e-6); the finite differences of the
double-precision FK are accurate to about 1e-9.

usage: robots_dynamics_test.py <swarm-robots> <shared urdf dir> <work dir>"""

import os
import re
import sys

import numpy as np

from robots_support import Urdf, info_json, quaternion_wxyz_to_matrix, run

binary, urdf_dir, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
rng = np.random.default_rng(20250423)
ROWS = 10
STEP = 1e-5  # central first differences of the double-precision FK: error ~1e-10 relative
ACCELERATION_STEP = 1e-4  # second differences: rounding 1e-16 / 1e-8 = 1e-8 m/s^2
# The five-point stencil on float32 M: rounding 6e-8 |M| grows by 18 / (12 * 0.02) to 5e-6 |M|;
# truncation (0.02)^4 / 30 ~ 5e-9 of the fifth derivative.
MDOT_STEP = 0.02
DEFAULT_GRAVITY = np.array([0.0, 0.0, -9.81])
# The SIMD targets this CPU supports, as the run command reports them.
SIMD_TARGETS = next(
    line.split(": ", 1)[1].split(", ") for line in
    run([binary, "--urdf", os.path.join(urdf_dir, "ur5_robot.urdf"), "--robots", "1", "--steps",
         "1", "--no-progress"]).stdout.splitlines()
    if line.startswith("SIMD targets this CPU supports: "))

# Measured worst error of each check over every robot, printed at the end.
worst = {}


def record(check, error):
    worst[check] = max(worst.get(check, 0.0), float(error))


def fail_unless(ok, message):
    if not ok:
        raise AssertionError(message)


def skew(v):
    return np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])


def vee_of_skew_part(a):
    """The vector of the skew-symmetric part of a 3x3 matrix: [vee(a)]x = (a - a^T) / 2."""
    return 0.5 * np.array([a[2, 1] - a[1, 2], a[0, 2] - a[2, 0], a[1, 0] - a[0, 1]])


def rotation_exp(w):
    """expm([w]x) by Rodrigues with half-angle forms that keep full precision at tiny angles
    (1 - cos t would lose half the digits at t = 1e-4, ruining second differences)."""
    theta = np.linalg.norm(w)
    k = skew(w)
    half_sinc = np.sinc(theta / (2 * np.pi))  # sin(theta / 2) / (theta / 2)
    return np.eye(3) + np.sinc(theta / np.pi) * k + 0.5 * half_sinc * half_sinc * (k @ k)


def twist_exp(v, w):
    """The SE(3) exponential of the body twist (v, w): the displacement after unit time at that
    constant body-frame velocity. Position V v, V = I + (1 - cos)/t^2 K + (t - sin)/t^3 K^2."""
    theta = np.linalg.norm(w)
    k = skew(w)
    half_sinc = np.sinc(theta / (2 * np.pi))
    cubic = 1 / 6 - theta ** 2 / 120 + theta ** 4 / 5040 if theta < 1e-2 else \
        (theta - np.sin(theta)) / theta ** 3
    displacement = np.eye(4)
    displacement[:3, :3] = rotation_exp(w)
    displacement[:3, 3] = (np.eye(3) + 0.5 * half_sinc * half_sinc * k + cubic * (k @ k)) @ v
    return displacement


def quaternion_multiply(a, b):
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return np.array([aw * bw - ax * bx - ay * by - az * bz,
                     aw * bx + ax * bw + ay * bz - az * by,
                     aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw])


class Robot:
    """One URDF with swarm's q and velocity orders, and the reference physics of it."""

    def __init__(self, path, floating_base, gravity):
        self.path = path
        self.urdf = Urdf(self.path)
        self.floating_base = floating_base
        self.gravity = np.asarray(gravity, float)
        self.names = info_json(binary, self.path, floating_base)["joints"]
        self.joint_names = self.names[7:] if floating_base else self.names
        self.velocity_names = (["base_vx", "base_vy", "base_vz", "base_wx", "base_wy",
                                "base_wz"] if floating_base else []) + self.joint_names
        self.n = len(self.velocity_names)
        self.tag = os.path.splitext(os.path.basename(path))[0] + \
            ("_floating" if floating_base else "") + \
            ("" if np.array_equal(self.gravity, DEFAULT_GRAVITY) else "_gravity")
        self.flags = ["--urdf", self.path] + \
            (["--floating-base"] if floating_base else []) + \
            ["--gravity", ",".join(repr(float(g)) for g in self.gravity)]
        self.bodies = {link: inertial for link, inertial in self.urdf.inertials.items()
                       if inertial["mass"] > 0}

    def random_rows(self):
        """q within the joint limits (+-pi where unlimited), a base anywhere with a non-unit
        quaternion; qd of about 1 rad/s (and 0.5 m/s for the base); row 0 the zero pose."""
        by_name = {j["name"]: j for j in self.urdf.joints}
        offset = 7 if self.floating_base else 0
        q = np.zeros((ROWS, offset + len(self.joint_names)))
        for column, name in enumerate(self.joint_names):
            lower, upper = by_name[name]["lower"], by_name[name]["upper"]
            if by_name[name]["type"] == "continuous" or lower >= upper:
                lower, upper = -np.pi, np.pi
            q[1:, offset + column] = rng.uniform(lower, upper, ROWS - 1)
        qd = rng.normal(size=(ROWS, self.n))
        if self.floating_base:
            q[1:, 0:3] = rng.uniform(-1, 1, (ROWS - 1, 3))
            q[1:, 3:7] = rng.normal(size=(ROWS - 1, 4)) * rng.uniform(0.5, 2, (ROWS - 1, 1))
            q[0, 3] = 1.0
            qd[:, 0:3] *= 0.5
        return q, qd

    def split(self, q_row):
        """(independent joint values, base 4x4 or None) of one q row."""
        offset = 7 if self.floating_base else 0
        values = dict(zip(self.joint_names, q_row[offset:]))
        if not self.floating_base:
            return values, None
        base = np.eye(4)
        base[:3, :3] = quaternion_wxyz_to_matrix(q_row[3:7])
        base[:3, 3] = q_row[0:3]
        return values, base

    def along(self, q_row, velocity, t, constant_twist=False):
        """World transforms of the links after time t at generalised velocity `velocity`: joints
        q + t qd; the base p + t R v, R expm(t [w]x) (the same motion to first order), or with
        constant_twist its exact motion at a constant body velocity, base expm(t [v w])."""
        values, base = self.split(q_row)
        joint_velocity = velocity[6:] if self.floating_base else velocity
        values = {name: value + t * rate for (name, value), rate in
                  zip(values.items(), joint_velocity)}
        if base is not None:
            v, w = velocity[0:3], velocity[3:6]
            if constant_twist:
                base = base @ twist_exp(t * v, t * w)
            else:
                moved = np.eye(4)
                moved[:3, :3] = base[:3, :3] @ rotation_exp(t * w)
                moved[:3, 3] = base[:3, 3] + t * base[:3, :3] @ v
                base = moved
        return self.urdf.forward_kinematics(values, base)

    def q_along(self, q_row, velocity, t):
        """The q row of along(q_row, velocity, t), for the command."""
        moved = np.array(q_row, float)
        if self.floating_base:
            rotation = quaternion_wxyz_to_matrix(q_row[3:7])
            moved[0:3] += t * rotation @ velocity[0:3]
            w = t * velocity[3:6]
            half = np.linalg.norm(w) / 2
            turn = np.concatenate([[np.cos(half)], 0.5 * np.sinc(half / np.pi) * w])
            moved[3:7] = quaternion_multiply(q_row[3:7], turn)
            moved[7:] += t * velocity[6:]
        else:
            moved += t * velocity
        return moved

    def centre_and_inertia(self, world, link):
        """World centre of mass and world inertia tensor R I R^T of a link."""
        inertial = self.bodies[link]
        transform = world[link]
        rotation = transform[:3, :3] @ inertial["rotation"]
        return (transform[:3, :3] @ inertial["xyz"] + transform[:3, 3],
                rotation @ inertial["inertia"] @ rotation.T)

    def velocities(self, q_row, velocity):
        """Each massive link's (v_c, w) in the world frame, by central differences."""
        before = self.along(q_row, velocity, -STEP)
        now = self.along(q_row, velocity, 0.0)
        after = self.along(q_row, velocity, STEP)
        result = {}
        for link in self.bodies:
            centre_before, _ = self.centre_and_inertia(before, link)
            centre_after, _ = self.centre_and_inertia(after, link)
            rotation_rate = (after[link][:3, :3] - before[link][:3, :3]) / (2 * STEP)
            result[link] = ((centre_after - centre_before) / (2 * STEP),
                            vee_of_skew_part(rotation_rate @ now[link][:3, :3].T))
        return result

    def kinetic_energy(self, q_row, qd_row):
        world = self.along(q_row, qd_row, 0.0)
        energy = 0.0
        for link, (v, w) in self.velocities(q_row, qd_row).items():
            _, inertia = self.centre_and_inertia(world, link)
            energy += 0.5 * self.bodies[link]["mass"] * v @ v + 0.5 * w @ inertia @ w
        return energy

    def jacobians(self, q_row):
        """link -> (J_v, J_w), each [3, n]: the velocities along each unit generalised velocity."""
        columns = [self.velocities(q_row, np.eye(self.n)[j]) for j in range(self.n)]
        return {link: (np.stack([c[link][0] for c in columns], 1),
                       np.stack([c[link][1] for c in columns], 1)) for link in self.bodies}

    def mass_matrix(self, q_row, jacobians):
        world = self.along(q_row, np.zeros(self.n), 0.0)
        mass = np.zeros((self.n, self.n))
        for link, (jv, jw) in jacobians.items():
            _, inertia = self.centre_and_inertia(world, link)
            mass += self.bodies[link]["mass"] * jv.T @ jv + jw.T @ inertia @ jw
        return mass

    def potential(self, world):
        return -sum(self.bodies[link]["mass"] * self.gravity @ self.centre_and_inertia(world,
                                                                                       link)[0]
                    for link in self.bodies)

    def gravity_forces(self, q_row):
        """dV along each unit generalised velocity (for the base: along body-frame motions),
        and the scale of its rounding: sum over links of |m g| |dc| (the moments a recursive
        algorithm carries, even where their projections cancel)."""
        forces, scales = np.zeros(self.n), np.zeros(self.n)
        for j in range(self.n):
            direction = np.eye(self.n)[j]
            forces[j] = (self.potential(self.along(q_row, direction, STEP)) -
                         self.potential(self.along(q_row, direction, -STEP))) / (2 * STEP)
            for link, (v, _) in self.velocities(q_row, direction).items():
                scales[j] += self.bodies[link]["mass"] * np.linalg.norm(self.gravity) * \
                    np.linalg.norm(v)
        return forces, scales

    def bias_forces(self, q_row, qd_row, jacobians):
        """h by virtual power: the generalised forces that hold qd constant (qdd = 0) against
        gravity, from each link's acceleration along that motion (a constant body twist for the
        base); and per component the scale of its rounding, sum over links of
        |force| |J_v,j| + |moment| |J_w,j|."""
        s = ACCELERATION_STEP
        before = self.along(q_row, qd_row, -s, constant_twist=True)
        now = self.along(q_row, qd_row, 0.0, constant_twist=True)
        after = self.along(q_row, qd_row, s, constant_twist=True)
        forces, scales = np.zeros(self.n), np.zeros(self.n)
        for link, (jv, jw) in jacobians.items():
            mass = self.bodies[link]["mass"]
            centres = [self.centre_and_inertia(world, link)[0] for world in (before, now, after)]
            rotations = [world[link][:3, :3] for world in (before, now, after)]
            _, inertia = self.centre_and_inertia(now, link)
            acceleration = (centres[2] - 2 * centres[1] + centres[0]) / (s * s)
            w = vee_of_skew_part((rotations[2] - rotations[0]) / (2 * s) @ rotations[1].T)
            # [alpha]x = skew part of Rdd R^T (Rd Rd^T = -[w]x^2 is symmetric).
            alpha = vee_of_skew_part((rotations[2] - 2 * rotations[1] + rotations[0]) / (s * s)
                                     @ rotations[1].T)
            force = mass * (acceleration - self.gravity)
            moment = inertia @ alpha + np.cross(w, inertia @ w)
            forces += force @ jv + moment @ jw
            scales += np.linalg.norm(force) * np.linalg.norm(jv, axis=0) + \
                np.linalg.norm(moment) * np.linalg.norm(jw, axis=0)
        return forces, scales


def dynamics(robot, tag, q, qd, tau=None, outputs=("mass", "bias"), threads=2, simd="auto"):
    """Runs the command; returns {output: float32 array}."""
    paths = {"q": os.path.join(work, f"{tag}_q.npy"), "qd": os.path.join(work, f"{tag}_qd.npy")}
    np.save(paths["q"], q)
    np.save(paths["qd"], qd)
    command = [binary, "dynamics", *robot.flags, "--threads", str(threads), "--simd", simd,
               "--q", paths["q"], "--qd", paths["qd"]]
    if tau is not None:
        paths["tau"] = os.path.join(work, f"{tag}_tau.npy")
        np.save(paths["tau"], tau)
        command += ["--tau", paths["tau"]]
    for output in outputs:
        path = os.path.join(work, f"{tag}_{output}.npy")
        command += [f"--{output}", path]
    run(command)
    result = {}
    for output in outputs:
        result[output] = np.load(os.path.join(work, f"{tag}_{output}.npy"))
        assert result[output].dtype == np.float32, f"{tag}: --{output} is {result[output].dtype}"
        shape = (q.shape[0], robot.n, robot.n) if output == "mass" else (q.shape[0], robot.n)
        assert result[output].shape == shape, f"{tag}: --{output} shape {result[output].shape}"
    return result


def check_robot(path, floating_base=False, gravity=DEFAULT_GRAVITY):
    robot = Robot(path, floating_base, gravity)
    tag = robot.tag
    q, qd = robot.random_rows()
    zero = np.zeros_like(qd)

    # Gravity first: its h sizes the random torques of the power balance.
    g = dynamics(robot, tag + "_gravity", q, zero, outputs=("bias",))["bias"].astype(float)
    tau = rng.normal(size=qd.shape) * (np.abs(g).max(1, keepdims=True) + 1.0)
    out = dynamics(robot, tag, q, qd, tau, outputs=("mass", "bias", "qdd"))
    mass, bias, qdd = (out[k].astype(float) for k in ("mass", "bias", "qdd"))

    # The same bytes on every SIMD target, on 1 and 3 threads, and for a row alone.
    every = ("mass", "bias", "qdd")
    for simd, threads in [(target, 2) for target in SIMD_TARGETS] + [("auto", 1), ("auto", 3)]:
        other = dynamics(robot, f"{tag}_{simd}_{threads}", q, qd, tau, every, threads, simd)
        for output in every:
            fail_unless(other[output].tobytes() == out[output].tobytes(),
                        f"{tag}: --{output} on --simd {simd} --threads {threads} differs from "
                        f"--simd auto --threads 2")
    alone = dynamics(robot, tag + "_row3", q[3:4], qd[3:4], tau[3:4], every)
    for output in every:
        fail_unless(alone[output].tobytes() == out[output][3:4].tobytes(),
                    f"{tag}: --{output} of row 3 alone differs from row 3 among {ROWS}")

    # The same values as float32 input give the same bytes.
    out32 = dynamics(robot, tag + "_f32", q.astype(np.float32), qd.astype(np.float32),
                     tau.astype(np.float32), outputs=every)
    same = dynamics(robot, tag + "_f32as64", q.astype(np.float32).astype(float),
                    qd.astype(np.float32).astype(float), tau.astype(np.float32).astype(float),
                    outputs=every)
    for output in every:
        fail_unless(out32[output].tobytes() == same[output].tobytes(),
                    f"{tag}: float32 input gives another --{output} than the same values as "
                    f"float64")

    # Mdot along each row's motion, from the command's M at q(t), t = +-MDOT_STEP, +-2 MDOT_STEP.
    offsets = [-2, -1, 1, 2]
    moved = np.concatenate([np.stack([robot.q_along(q[r], qd[r], k * MDOT_STEP)
                                      for r in range(ROWS)]) for k in offsets])
    moved_mass = dynamics(robot, tag + "_mdot", moved, np.tile(qd, (4, 1)),
                          outputs=("mass",))["mass"].astype(float).reshape(4, ROWS, robot.n,
                                                                            robot.n)
    mass_rate = (moved_mass[0] - 8 * moved_mass[1] + 8 * moved_mass[2] - moved_mass[3]) / \
        (12 * MDOT_STEP)

    for r in range(ROWS):
        where = f"{tag} row {r} (q = {np.array2string(q[r], precision=4)}, " \
                f"qd = {np.array2string(qd[r], precision=4)})"
        m = mass[r]
        jacobians = robot.jacobians(q[r])

        # 1. Kinetic energy, and M entry by entry (scaled by sqrt(M_ii M_jj) >= |M_ij|).
        energy = robot.kinetic_energy(q[r], qd[r])
        quadratic = 0.5 * qd[r] @ m @ qd[r]
        error = abs(quadratic - energy) / energy
        record("kinetic energy (relative)", error)
        fail_unless(error <= 2e-5, f"{where}: 0.5 qd^T M qd = {quadratic:.9g} but the links' "
                                   f"kinetic energy is {energy:.9g} (relative {error:.3g})")
        reference = robot.mass_matrix(q[r], jacobians)
        diagonal = np.sqrt(np.outer(np.diag(reference), np.diag(reference)))
        entries = np.abs(m - reference) / diagonal
        record("M entries (/ sqrt(M_ii M_jj))", entries.max())
        i, j = np.unravel_index(np.argmax(entries), entries.shape)
        fail_unless(entries.max() <= 2e-5, f"{where}: M[{i}, {j}] = {m[i, j]:.9g}, the "
                                           f"links' Jacobians give {reference[i, j]:.9g}")

        # 2. Gravity: h(q, 0) = dV/dq.
        forces, scales = robot.gravity_forces(q[r])
        error = np.abs(g[r] - forces) / (scales + 1e-6)
        record("gravity h(q, 0) (/ sum |m g| |J_v,j|)", error.max())
        k = int(np.argmax(error))
        fail_unless(error.max() <= 2e-5, f"{where}: g[{k}] ({robot.velocity_names[k]}) = "
                                         f"{g[r, k]:.9g}, dV/dq = {forces[k]:.9g}\n"
                                         f"g    = {g[r]}\ndV/dq = {forces}")

        # 3. M symmetric positive definite; qdd solves M qdd = tau - h; dE/dt = power.
        asymmetry = np.abs(m - m.T) / diagonal
        record("M asymmetry", asymmetry.max())
        fail_unless(asymmetry.max() <= 1e-6, f"{where}: M is not symmetric:\n{m}")
        eigenvalues = np.linalg.eigvalsh(m)
        fail_unless(eigenvalues.min() > 0, f"{where}: M has eigenvalues {eigenvalues}")
        record("M condition number", eigenvalues.max() / eigenvalues.min())
        solved = np.linalg.solve(m, tau[r] - bias[r])
        # The float32 rounding of qdd alone moves M qdd by 6e-8 |M| |qdd|: compare in force.
        residual = np.abs(m @ qdd[r] - (tau[r] - bias[r]))
        force_scale = np.abs(m) @ np.abs(qdd[r]) + np.abs(tau[r]) + np.abs(bias[r])
        record("qdd: |M qdd - (tau - h)| (/ |M||qdd| + |tau| + |h|)",
               (residual / force_scale).max())
        record("qdd vs solve(M, tau - h) (/ |solve|)",
               np.abs(qdd[r] - solved).max() / np.abs(solved).max())
        fail_unless((residual / force_scale).max() <= 1e-5 and
                    np.abs(qdd[r] - solved).max() <= 1e-4 * np.abs(solved).max(),
                    f"{where}: qdd = {qdd[r]}\nbut solve(M, tau - h) = {solved}")
        terms = np.array([qd[r] @ tau[r], qd[r] @ m @ qdd[r],
                          0.5 * qd[r] @ mass_rate[r] @ qd[r], qd[r] @ g[r]])
        power_error = terms[0] - terms[1:].sum()
        power_scale = np.abs(qd[r]) @ (force_scale + np.abs(mass_rate[r]) @ np.abs(qd[r]))
        record("power balance (/ |qd| (|M||qdd| + |tau| + |h| + |Mdot||qd|))",
               abs(power_error) / power_scale)
        fail_unless(abs(power_error) <= 1e-6 * power_scale,
                    f"{where}: power balance off by {power_error:.6g} (scale {power_scale:.3g})"
                    f": qd.tau = {terms[0]:.9g}, qd^T M qdd = {terms[1]:.9g}, "
                    f"0.5 qd^T Mdot qd = {terms[2]:.9g}, qd.g = {terms[3]:.9g}")
        # The same balance without the noise of M qdd: qd^T C qd = 0.5 qd^T Mdot qd.
        coriolis_power = qd[r] @ (bias[r] - g[r])
        coriolis_scale = np.abs(qd[r]) @ (np.abs(bias[r]) + np.abs(g[r]) +
                                          np.abs(mass_rate[r]) @ np.abs(qd[r]))
        record("qd^T C qd = 0.5 qd^T Mdot qd (/ |qd| (|h| + |g| + |Mdot||qd|))",
               abs(coriolis_power - terms[2]) / coriolis_scale)
        fail_unless(abs(coriolis_power - terms[2]) <= 1e-5 * coriolis_scale,
                    f"{where}: qd^T (h - g) = {coriolis_power:.9g} but 0.5 qd^T Mdot qd = "
                    f"{terms[2]:.9g}")

        # 4. The whole bias by virtual power.
        forces, scales = robot.bias_forces(q[r], qd[r], jacobians)
        error = np.abs(bias[r] - forces) / (scales + 1e-6)
        record("bias h(q, qd) by virtual power (/ sum |F| |J_v,j| + |N| |J_w,j|)",
               error.max())
        k = int(np.argmax(error))
        fail_unless(error.max() <= 2e-5, f"{where}: h[{k}] ({robot.velocity_names[k]}) = "
                                         f"{bias[r, k]:.9g}, virtual power "
                                         f"gives {forces[k]:.9g}\nh         = {bias[r]}\n"
                                         f"reference = {forces}")
    print(f"ok: {tag}: {ROWS} rows, n = {robot.n}: kinetic energy and M, gravity, power balance,"
          f" SPD M, qdd and the full bias match the URDF physics; the same bytes on "
          f"{', '.join(SIMD_TARGETS)}, 1-3 threads, alone and from float32 input")


# What the real-world files lack: inertia frames rotated from the link frame (<inertial> rpy),
# full inertia tensors, rotated joint origins, a non-unit axis, a tilted prismatic joint, a mimic
# with multiplier and offset, a continuous joint, and a massive link fixed to a moving one.
ROTATED_INERTIALS_URDF = """<?xml version="1.0"?>
<robot name="rotated_inertials">
  <link name="base">
    <inertial><origin xyz="0.01 -0.02 0.03" rpy="0.4 -0.3 1.1"/><mass value="2.5"/>
      <inertia ixx="0.03" ixy="0.004" ixz="-0.002" iyy="0.04" iyz="0.003" izz="0.05"/></inertial>
  </link>
  <link name="upper">
    <inertial><origin xyz="0.05 0.1 -0.02" rpy="0.3 -0.2 0.5"/><mass value="1.2"/>
      <inertia ixx="0.02" ixy="0.002" ixz="0.001" iyy="0.03" iyz="-0.002" izz="0.04"/></inertial>
  </link>
  <link name="upper_weight">
    <inertial><origin xyz="0 0 0.05" rpy="1.2 0.1 -0.7"/><mass value="0.4"/>
      <inertia ixx="0.001" ixy="0" ixz="0.0002" iyy="0.002" iyz="0" izz="0.0025"/></inertial>
  </link>
  <link name="slider">
    <inertial><origin xyz="0.02 0 0.01" rpy="-0.6 0.9 0.2"/><mass value="0.8"/>
      <inertia ixx="0.004" ixy="-0.0005" ixz="0.0003" iyy="0.005" iyz="0.0004" izz="0.006"/>
    </inertial>
  </link>
  <link name="follower">
    <inertial><origin xyz="-0.03 0.04 0.02" rpy="0.2 0.4 -1.3"/><mass value="0.6"/>
      <inertia ixx="0.003" ixy="0.0004" ixz="0" iyy="0.0035" iyz="-0.0003" izz="0.004"/>
    </inertial>
  </link>
  <link name="spinner">
    <inertial><origin xyz="0.01 0.01 0.06" rpy="0.7 -1.1 0.3"/><mass value="0.3"/>
      <inertia ixx="0.0008" ixy="0.0001" ixz="-0.0001" iyy="0.001" iyz="0.0001" izz="0.0012"/>
    </inertial>
  </link>
  <joint name="shoulder" type="revolute">
    <parent link="base"/><child link="upper"/>
    <origin xyz="0.1 0.05 0.2" rpy="0.3 0.5 -0.4"/><axis xyz="0 1 1"/>
    <limit lower="-2" upper="2" effort="1" velocity="1"/>
  </joint>
  <joint name="weight_mount" type="fixed">
    <parent link="upper"/><child link="upper_weight"/><origin xyz="0.2 -0.1 0.3" rpy="0.2 0 0.9"/>
  </joint>
  <joint name="slide" type="prismatic">
    <parent link="upper"/><child link="slider"/>
    <origin xyz="0 0.3 0.1" rpy="-0.5 0.2 0.1"/><axis xyz="1 0 0.5"/>
    <limit lower="-0.2" upper="0.3" effort="1" velocity="1"/>
  </joint>
  <joint name="follow" type="revolute">
    <parent link="slider"/><child link="follower"/>
    <origin xyz="0.15 0 0.05" rpy="0 -0.7 0.3"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/>
    <mimic joint="shoulder" multiplier="-1.5" offset="0.2"/>
  </joint>
  <joint name="spin" type="continuous">
    <parent link="follower"/><child link="spinner"/>
    <origin xyz="0 0.12 0" rpy="1.0 0 0.4"/><axis xyz="1 0 0"/>
  </joint>
</robot>
"""


NO_INERTIAL_URDF = """<?xml version="1.0"?>
<robot name="no_inertial">
  <link name="base"/>
  <link name="arm"/>
  <link name="hand">
    <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01"/></inertial>
  </link>
  <joint name="shoulder" type="revolute">
    <parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
  </joint>
  <joint name="elbow" type="revolute">
    <parent link="arm"/><child link="hand"/><origin xyz="0.3 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
  </joint>
</robot>
"""


def check_bad_input():
    urdf = os.path.join(urdf_dir, "ur5_robot.urdf")
    bad = os.path.join(work, "bad")
    os.makedirs(bad, exist_ok=True)
    paths = {name: os.path.join(bad, name + ".npy") for name in
             ("q", "qd", "qd5", "qd_nan", "tau", "q2")}
    np.save(paths["q"], np.zeros((3, 6)))
    np.save(paths["qd"], np.zeros((3, 6)))
    np.save(paths["qd5"], np.zeros((3, 5)))
    nan = np.zeros((3, 6))
    nan[1, 3] = np.nan
    np.save(paths["qd_nan"], nan)
    np.save(paths["tau"], np.zeros((3, 6)))
    np.save(paths["q2"], np.zeros((3, 2)))
    no_inertial = os.path.join(bad, "no_inertial.urdf")
    with open(no_inertial, "w") as f:
        f.write(NO_INERTIAL_URDF)
    # Links whose masses and principal inertias are float32 zeros in effect (1e-40 is below
    # float32's smallest normal number): forward dynamics divides by them.
    weightless = os.path.join(bad, "weightless.urdf")
    with open(urdf) as f:
        text = re.sub(r'<mass value="[^"]*"', '<mass value="1e-40"', f.read())
    text = re.sub(r'(i[xyz][xyz])="[^"]*"',
                  lambda m: m.group(1) + ('="1e-40"' if m.group(1)[1] == m.group(1)[2] else '="0"'),
                  text)
    with open(weightless, "w") as f:
        f.write(text)
    qdd_out = os.path.join(bad, "qdd_out.npy")
    if os.path.exists(qdd_out):  # from an earlier run of this test
        os.remove(qdd_out)
    out = os.path.join(bad, "out.npy")
    sentinel = b"not written by a failed run"
    cases = [
        ("qd with 5 columns for 6 velocities", ["--urdf", urdf, "--q", paths["q"],
                                                "--qd", paths["qd5"]],
         ["--qd", "qd5.npy", "[3, 6]", "[3, 5]"]),
        ("NaN in qd", ["--urdf", urdf, "--q", paths["q"], "--qd", paths["qd_nan"]],
         ["qd_nan.npy", "qd[1, 3]", "wrist_1_joint", "nan", "finite"]),
        ("--qdd without --tau", ["--urdf", urdf, "--q", paths["q"], "--qd", paths["qd"],
                                 "--qdd", out],
         ["--qdd", "--tau"]),
        ("--tau without --qdd", ["--urdf", urdf, "--q", paths["q"], "--qd", paths["qd"],
                                 "--tau", paths["tau"]],
         ["--tau", "--qdd"]),
        ("a moving link without <inertial>", ["--urdf", no_inertial, "--q", paths["q2"],
                                              "--qd", paths["q2"]],
         ["'arm'", "mass", "<inertial>"]),
        ("--gravity 1,2", ["--urdf", urdf, "--q", paths["q"], "--qd", paths["qd"],
                           "--gravity", "1,2"],
         ["--gravity", "three", "1,2"]),
        # A non-finite result is an error, and no output is written (not even --mass, which is
        # finite): every output is checked before the first is saved.
        ("accelerations that overflow (link masses and inertias of 1e-40)",
         ["--urdf", weightless, "--q", paths["q"], "--qd", paths["qd"], "--tau", paths["tau"],
          "--qdd", qdd_out],
         ["--qdd: robot 0, column ", "overflowed from finite inputs", "nothing was written"]),
    ]
    for what, flags, expected in cases:
        with open(out, "wb") as f:
            f.write(sentinel)
        command = [binary, "dynamics", "--mass", out, *flags]
        result = run(command, expect_status=2)
        for text in expected:
            fail_unless(text in result.stderr, f"{what}: stderr does not name {text!r}:\n"
                                               f"{result.stderr}")
        with open(out, "rb") as f:
            fail_unless(f.read() == sentinel, f"{what}: the failed run wrote {out}")
        fail_unless(not os.path.exists(qdd_out), f"{what}: the failed run wrote {qdd_out}")
        print(f"ok: bad input: {what}: status 2, {result.stderr.strip()!r}")


check_bad_input()
for file_name in ["ur5_robot.urdf", "panda.urdf", "xarm7.urdf", "z1.urdf", "so100.urdf",
                  "solo12.urdf", "double_pendulum.urdf", "double_pendulum_continuous.urdf"]:
    check_robot(os.path.join(urdf_dir, file_name))
check_robot(os.path.join(urdf_dir, "solo12.urdf"), floating_base=True)
check_robot(os.path.join(urdf_dir, "solo12.urdf"), floating_base=True, gravity=(1.5, -2.0, -9.0))
check_robot(os.path.join(urdf_dir, "panda.urdf"), floating_base=True)
synthetic = os.path.join(work, "rotated_inertials.urdf")
with open(synthetic, "w") as f:
    f.write(ROTATED_INERTIALS_URDF)
check_robot(synthetic)
check_robot(synthetic, floating_base=True, gravity=(0.7, 0.3, -9.5))
for check, error in worst.items():
    print(f"worst {check}: {error:.3g}")
