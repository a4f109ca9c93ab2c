"""Robot batches from Python: the loop of a reinforcement-learning user (a numpy policy writes
torques into swarm's arrays, swarm steps, numpy reads the observations) on a double pendulum
whose equations of motion are written here in closed form (Lagrange, relative joint angles) and
integrated in float64 with the same semi-implicit Euler; zero-copy views; forward kinematics
against the closed form; memory accounting; errors; joint limits and ground contacts as soft
constraints (their parameters, forces and errors).

Tolerances: after 400 steps of 1 ms the float32 batch and the float64 reference agree to 1e-4 rad
in q and 1e-3 rad/s in qd (the policy damps the motion, so rounding differences do not grow);
link positions to 1e-6 m."""

import unittest

import numpy as np

from swarm_test_support import library, main
import swarm

# Two rods hanging from y-axis hinges: link 1 (m1, centre l1 below its hinge, hinge 2 L1 below
# hinge 1) and link 2 (m2, centre l2 below hinge 2); Iyy about each centre.
M1, M2, L1, C1, C2, I1, I2 = 1.5, 0.8, 0.6, 0.3, 0.25, 0.02, 0.01
G = 9.81
DOUBLE_PENDULUM = f"""<robot name="double_pendulum">
  <link name="base"/>
  <link name="upper"><inertial><origin xyz="0 0 -{C1}"/><mass value="{M1}"/>
    <inertia ixx="0.02" iyy="{I1}" izz="0.02" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="lower"><inertial><origin xyz="0 0 -{C2}"/><mass value="{M2}"/>
    <inertia ixx="0.01" iyy="{I2}" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="tip"/>
  <joint name="shoulder" type="continuous"><parent link="base"/><child link="upper"/>
    <axis xyz="0 1 0"/></joint>
  <joint name="elbow" type="continuous"><parent link="upper"/><child link="lower"/>
    <origin xyz="0 0 -{L1}"/><axis xyz="0 1 0"/></joint>
  <joint name="tip_joint" type="fixed"><parent link="lower"/><child link="tip"/>
    <origin xyz="0 0 -0.5"/></joint>
</robot>"""


def mass_and_bias(q, qd):
    """M(q) [R, 2, 2] and h(q, qd) = C qd + g [R, 2] of the double pendulum, float64."""
    q1, q2 = q[:, 0], q[:, 1]
    qd1, qd2 = qd[:, 0], qd[:, 1]
    coupling = M2 * L1 * C2 * np.cos(q2)
    mass = np.empty((len(q), 2, 2))
    mass[:, 0, 0] = I1 + I2 + M1 * C1 ** 2 + M2 * (L1 ** 2 + C2 ** 2) + 2 * coupling
    mass[:, 0, 1] = mass[:, 1, 0] = I2 + M2 * C2 ** 2 + coupling
    mass[:, 1, 1] = I2 + M2 * C2 ** 2
    swing = M2 * L1 * C2 * np.sin(q2)
    gravity = np.stack([(M1 * C1 + M2 * L1) * G * np.sin(q1) + M2 * C2 * G * np.sin(q1 + q2),
                        M2 * C2 * G * np.sin(q1 + q2)], 1)
    coriolis = np.stack([-swing * (2 * qd1 * qd2 + qd2 ** 2), swing * qd1 ** 2], 1)
    return mass, coriolis + gravity


def policy(q, qd):
    """A damping feedback toward 0.3, -0.2 (any numpy function of the observations would do)."""
    return (8.0 * (np.array([0.3, -0.2]) - q) - 1.5 * qd).astype(np.float32)


class RobotBatches(unittest.TestCase):
    def setUp(self):
        self.lib = library()
        self.ctx = self.lib.context(threads=2)
        self.model = self.lib.robot_model(text=DOUBLE_PENDULUM)

    def test_model_names(self):
        self.assertEqual(self.model.name, "double_pendulum")
        self.assertEqual(self.model.links, ["base", "upper", "lower", "tip"])
        self.assertEqual(self.model.q_names, ["shoulder", "elbow"])
        self.assertEqual(self.model.dof, 2)
        self.assertEqual(self.model.default_end_effector, "tip")
        self.assertFalse(self.model.floating_base)

    def test_numpy_policy_loop_follows_the_equations_of_motion(self):
        robots = 53  # a partial last vector on every target
        batch = self.ctx.robot_batch(self.model, robots, torque=True)
        rng = np.random.default_rng(4)
        batch.q[:] = rng.uniform(-1.0, 1.0, (robots, 2)).astype(np.float32)
        batch.qd[:] = rng.uniform(-0.5, 0.5, (robots, 2)).astype(np.float32)
        q = batch.q.astype(np.float64)
        qd = batch.qd.astype(np.float64)
        dt = 0.001
        for _ in range(400):
            batch.torque[:] = policy(batch.q, batch.qd)
            mass, bias = mass_and_bias(q, qd)
            qdd = np.linalg.solve(mass, (batch.torque - bias)[:, :, None])[:, :, 0]
            qd = qd + qdd * dt
            q = q + qd * dt
            batch.torque_step(dt)
        np.testing.assert_allclose(batch.q, q, atol=1e-4, rtol=0)
        np.testing.assert_allclose(batch.qd, qd, atol=1e-3, rtol=0)
        # qdd holds the accelerations at the last step's start: M^-1 (tau - h) there.
        self.assertEqual(batch.qdd.shape, (robots, 2))
        self.assertFalse(batch.qdd.flags.writeable)

    def test_views_are_zero_copy_and_kinematics_match_the_closed_form(self):
        batch = self.ctx.robot_batch(self.model, 9)
        q = batch.q
        self.assertEqual(q.shape, (9, 2))
        self.assertEqual(q.dtype, np.float32)
        self.assertEqual(q.__array_interface__["data"][0], batch.tensor("q").data)
        self.assertEqual(q.strides[0], 4)  # robots are adjacent: SoA lanes per joint
        angles = np.linspace(-2.0, 2.0, 18).reshape(9, 2).astype(np.float32)
        q[:] = angles
        batch.forward_kinematics()
        poses = batch.link_poses
        self.assertEqual(poses.shape, (9, 4, 7))
        with self.assertRaises(ValueError):
            poses[0, 0, 0] = 1.0  # derived state is read-only
        a = angles.astype(np.float64)
        upper, total = a[:, 0], a[:, 0] + a[:, 1]
        # R_y(t) (0, 0, -l) = (-l sin t, 0, -l cos t).
        tip_x = -L1 * np.sin(upper) - 0.5 * np.sin(total)
        tip_z = -L1 * np.cos(upper) - 0.5 * np.cos(total)
        np.testing.assert_allclose(poses[:, 3, 0], tip_x, atol=1e-6, rtol=0)
        np.testing.assert_allclose(poses[:, 3, 1], 0.0, atol=1e-6, rtol=0)
        np.testing.assert_allclose(poses[:, 3, 2], tip_z, atol=1e-6, rtol=0)
        # The lower link's quaternion (qx qy qz qw) turns by q1 + q2 about y.
        np.testing.assert_allclose(poses[:, 2, 4], np.sin(total / 2), atol=1e-6, rtol=0)
        np.testing.assert_allclose(poses[:, 2, 6], np.cos(total / 2), atol=1e-6, rtol=0)
        # Views outlive the batch handle and keep its memory accounted until they go.
        batch.close()
        np.testing.assert_allclose(poses[:, 3, 0], tip_x, atol=1e-6, rtol=0)
        self.assertGreater(self.ctx.bytes_in_use, 0)
        del batch, q, poses
        self.assertEqual(self.ctx.bytes_in_use, 0)

    def test_pd_gravity_holds_a_target(self):
        batch = self.ctx.robot_batch(self.model, 16, torque=True, kp=[60.0, 30.0], kd=6.0,
                                     armature=0.01)
        batch.q_target[:] = [0.5, -0.4]
        for _ in range(3000):
            batch.torque_step(0.001, controller="pd-gravity")
        # PD + exact gravity compensation has its equilibrium at the target.
        np.testing.assert_allclose(batch.q, np.tile([0.5, -0.4], (16, 1)), atol=1e-4, rtol=0)
        _, bias = mass_and_bias(batch.q.astype(np.float64), np.zeros((16, 2)))
        np.testing.assert_allclose(batch.torque, bias, rtol=0, atol=1e-3)

    def test_state_digests_of_robot_ranges_add_up(self):
        q = np.random.default_rng(4).uniform(-1.0, 1.0, (10, 2)).astype(np.float32)

        def digest(first, count):
            batch = self.ctx.robot_batch(self.model, count)
            batch.q[:] = q[first:first + count]
            batch.forward_kinematics()
            return batch.state_digest(first)

        whole = digest(0, 10)
        self.assertEqual((digest(0, 3) + digest(3, 7)) % (1 << 64), whole)
        self.assertNotEqual(digest(0, 3), digest(3, 3))

    def test_tasks_on_robot_ranges_do_what_one_batch_does(self):
        def run(first, count):
            batch = self.ctx.robot_batch(self.model, count)
            task = batch.task("random", seed=3, first_robot=first)
            for step in range(20):
                task.step(step, 0.01)
            return batch.q.copy(), batch.state_digest(first), task.totals(), batch.q_target.copy()

        whole, whole_digest, whole_totals, whole_target = run(0, 9)
        head, head_digest, head_totals, _ = run(0, 4)
        tail, tail_digest, tail_totals, _ = run(4, 5)
        np.testing.assert_array_equal(np.concatenate([head, tail]), whole)
        self.assertEqual((head_digest + tail_digest) % (1 << 64), whole_digest)
        # Totals travel as words (as through mpi4py) and merge, tail first, into the whole
        # batch's; the summary's joint error is max_j |q - q_target| from the numpy views.
        received = swarm.TaskTotals(self.lib, tail_totals.words).merge(
            swarm.TaskTotals(self.lib, head_totals.words))
        np.testing.assert_array_equal(received.words, whole_totals.words)
        summary = received.summary()
        # Per robot in float32, as swarm measures it; the mean of those in float64 (the exact
        # sum rounds once: within 1e-15).
        errors = np.abs(whole - whole_target).max(axis=1).astype(np.float64)
        self.assertEqual(summary["robots"], 9)
        self.assertAlmostEqual(summary["mean_joint_error"], errors.mean(), delta=1e-15)
        self.assertEqual(summary["max_joint_error"], errors.max())
        self.assertGreater(summary["mean_joint_error"], 0.0)
        self.assertEqual(swarm.TaskTotals(self.lib).summary()["robots"], 0)
        with self.assertRaises(ValueError):
            swarm.TaskTotals(self.lib, np.zeros(5, np.uint64))
        with self.assertRaises(ValueError):
            self.ctx.robot_batch(self.model, 2).task("fly")
        with self.assertRaises(swarm.SwarmError) as caught:
            self.ctx.robot_batch(self.model, 2).task("reach", torque=True)
        self.assertIn("torque mode", str(caught.exception))

    def test_errors(self):
        with self.assertRaises(swarm.SwarmError) as caught:
            self.lib.robot_model(path="/no/such/robot.urdf")
        self.assertEqual(caught.exception.status, "invalid argument")
        self.assertIn("/no/such/robot.urdf", str(caught.exception))
        with self.assertRaises(ValueError):
            self.ctx.robot_batch(self.model, 4, kp=[1.0, 2.0, 3.0])
        with self.assertRaises(swarm.SwarmError) as caught:
            self.ctx.robot_batch(self.model, 4, torque=True, contacts=True,
                                 contact_links=["hand"])
        self.assertIn("hand", str(caught.exception))
        batch = self.ctx.robot_batch(self.model, 4, torque=True)
        before = batch.state_hash()
        batch.torque[2, 1] = np.nan
        with self.assertRaises(swarm.SwarmError) as caught:
            batch.torque_step(0.001)
        self.assertIn("torque of robot 2, column 1 is nan", str(caught.exception))
        batch.torque[2, 1] = 0.0
        self.assertEqual(batch.state_hash(), before)
        with self.assertRaises(ValueError):
            batch.torque_step(0.001, controller="lqr")
        with self.assertRaises(KeyError):
            batch.tensor("jerk")
        small = self.lib.context(budget_bytes=4096)
        with self.assertRaises(swarm.SwarmError) as caught:
            small.robot_batch(self.model, 100000, torque=True)
        self.assertEqual(caught.exception.status, "over budget")

    def test_steps_that_would_overflow_are_errors_that_change_nothing(self):
        # dt = 1e30 can only overflow: refused up front. A state of 3e38 rad/s makes the
        # Coriolis terms overflow: the step names the value and every array is as before.
        batch = self.ctx.robot_batch(self.model, 6, torque=True)
        batch.q[:] = np.array([0.3, -0.2], np.float32)
        batch.forward_kinematics()
        for dt in (1e30, 2.0):
            before = batch.state_hash()
            with self.assertRaisesRegex(swarm.SwarmError, "dt must be finite, > 0 and at most 1 s"):
                batch.torque_step(dt)
            self.assertEqual(batch.state_hash(), before)
        batch.qd[4] = [3e38, 3e38]
        q, qd = batch.q.copy(), batch.qd.copy()
        before = batch.state_hash()
        with self.assertRaisesRegex(swarm.SwarmError,
                                    "the step overflowed from finite inputs: .* of robot 4, column "
                                    ".*every robot is back at its state before the step"):
            batch.torque_step(0.001)
        np.testing.assert_array_equal(batch.q, q)
        np.testing.assert_array_equal(batch.qd, qd)
        self.assertEqual(batch.state_hash(), before)
        self.assertTrue(np.isfinite(batch.link_poses).all())
        batch.qd[4] = 0.0
        batch.torque_step(0.001)  # and steps on once the state is sane
        self.assertTrue(np.isfinite(batch.q).all())


# A free 2 kg block whose one contact is its centre of mass (the leaf of a model without joints):
# the contact row's reference inverse inertia is w0 = 1 / m, and contact forces exert no torque.
BLOCK_MASS = 2.0
BLOCK = f"""<robot name="block"><link name="block"><inertial><mass value="{BLOCK_MASS}"/>
  <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link></robot>"""
# A rod of 1 kg, its centre 0.5 m below a y-axis hinge limited to [-1, 1] rad.
LIMITED = """<robot name="limited">
  <link name="base"/>
  <link name="rod"><inertial><origin xyz="0 0 -0.5"/><mass value="1"/>
    <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="hinge" type="revolute"><parent link="base"/><child link="rod"/>
    <axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="100" velocity="10"/></joint>
</robot>"""
# MuJoCo's defaults of a soft constraint (swarm_c.h swarm_soft_constraint_desc).
DEFAULT_SOFT = {"time_constant": 0.02, "damping_ratio": 1.0, "impedance_min": 0.9,
                "impedance_max": 0.95, "width": 0.001, "midpoint": 0.5, "power": 2}


def resting_depth(soft, w0, load, dt):
    """The depth at which a soft constraint at rest carries `load`: k d^2 depth / ((1 - d) w0)
    = load, k = 1 / (dmax tc zeta)^2 (tc at least 2 dt), d MuJoCo's impedance; by bisection."""
    tc = max(soft["time_constant"], 2 * dt)
    k = 1.0 / (soft["impedance_max"] * tc * soft["damping_ratio"]) ** 2

    def carried(depth):
        x, mid, p = min(depth / soft["width"], 1.0), soft["midpoint"], soft["power"]
        y = x ** p / mid ** (p - 1) if x <= mid else 1 - (1 - x) ** p / (1 - mid) ** (p - 1)
        d = soft["impedance_min"] + y * (soft["impedance_max"] - soft["impedance_min"])
        return k * d * d * depth / ((1 - d) * w0)

    low, high = 0.0, 1.0
    for _ in range(200):
        mid = 0.5 * (low + high)
        low, high = (mid, high) if carried(mid) < load else (low, mid)
    return 0.5 * (low + high)


class SoftConstraints(unittest.TestCase):
    """Joint limits and ground contacts as soft constraints: their parameters reach the batch
    (resting depths follow the soft constraint's law with the parameters given), the constraint
    forces are zero-copy read-only views, and parameters out of range are errors naming the
    field."""

    def setUp(self):
        self.lib = library()
        self.ctx = self.lib.context()
        self.block = self.lib.robot_model(text=BLOCK, floating_base=True)
        self.limited = self.lib.robot_model(text=LIMITED)

    def test_a_resting_block_sinks_to_its_soft_constraints_depth(self):
        dt = 0.002
        load = BLOCK_MASS * G
        # None: the defaults; a dict of some parameters (the others keep their defaults).
        custom = {"time_constant": 0.01, "damping_ratio": 0.7, "impedance_min": 0.8,
                  "impedance_max": 0.9, "width": 0.002}
        for ground, law in ((None, DEFAULT_SOFT), ({"height": 0.1, **custom},
                                                   {**DEFAULT_SOFT, **custom})):
            with self.subTest(ground=ground):
                batch = self.ctx.robot_batch(self.block, 3, torque=True, contacts=True,
                                             ground=ground)
                height = (ground or {}).get("height", 0.0)
                batch.q[:, 2] = height + np.array([0.0, 0.01, 0.02], np.float32)
                for _ in range(2000):
                    batch.torque_step(dt)
                depth = resting_depth(law, 1.0 / BLOCK_MASS, load, dt)
                # 1% of the depth allows the tail of the damped settling.
                np.testing.assert_allclose(batch.q[:, 2], height - depth, atol=0.01 * depth,
                                           rtol=0)
                np.testing.assert_allclose(batch.contact_forces, load, rtol=1e-3)
                self.assertEqual(batch.contact_forces.shape, (3, 1))
                self.assertEqual(batch.contact_friction_forces.shape, (3, 1, 2))
                self.assertEqual(batch.contact_sliding.shape, (3, 1))
                # No sideways load: every contact sticks, friction carries nothing.
                np.testing.assert_array_equal(batch.contact_friction_forces, 0.0)
                np.testing.assert_array_equal(batch.contact_sliding, 0.0)

    def test_a_sliding_block_shows_its_coulomb_friction(self):
        dt = 0.001
        load = BLOCK_MASS * G
        batch = self.ctx.robot_batch(self.block, 2, torque=True, contacts=True,
                                     ground={"friction": 0.5})
        batch.q[:, 2] = -resting_depth(DEFAULT_SOFT, 1.0 / BLOCK_MASS, load, dt)
        for _ in range(200):  # the normal force settles first
            batch.torque_step(dt)
        batch.base_velocity[1, :2] = [0.6, 0.8]  # robot 1 slides at 1 m/s
        friction = batch.contact_friction_forces
        sliding = batch.contact_sliding
        for _ in range(20):
            batch.torque_step(dt)
        # The views taken before the steps show the last step: no copies.
        self.assertEqual(sliding.tolist(), [[0.0], [1.0]])
        np.testing.assert_array_equal(friction[0], 0.0)
        normal = float(batch.contact_forces[1, 0])
        np.testing.assert_allclose(friction[1, 0], [-0.3 * normal, -0.4 * normal], rtol=1e-3)
        for view in (friction, sliding, batch.contact_forces, batch.limit_forces):
            self.assertFalse(view.flags.writeable)
            with self.assertRaises(ValueError):
                view[...] = 1.0
        self.assertEqual(friction.__array_interface__["data"][0],
                         batch.tensor("contact_friction_forces").data)
        self.assertEqual(batch.limit_forces.shape, (2, 0))  # no joints

    def test_a_joint_pushed_into_its_limit_is_held_by_the_limit_force(self):
        batch = self.ctx.robot_batch(self.limited, 3, torque=True,
                                     limits={"time_constant": 0.05, "damping_ratio": 2.0},
                                     limit_tolerance=0.005, max_joint_speed=20.0,
                                     max_step_turn=0.5)
        torques = np.array([0.0, 30.0, -10.0], np.float32)  # free, into upper, into lower
        batch.q[:, 0] = [0.0, 0.9, -0.9]
        for _ in range(2000):
            batch.torque[:, 0] = torques
            batch.torque_step(0.002)
        self.assertEqual(batch.limit_forces.shape, (3, 1))
        self.assertEqual(batch.limit_forces[0, 0], 0.0)
        q = batch.q[1:, 0].astype(np.float64)
        past = np.abs(q) - 1.0
        self.assertTrue(np.all(past > 0.0), past)
        self.assertTrue(np.all(past < 0.005), past)  # within limit_tolerance
        # At rest the limit carries the torque and gravity: |tau - m g c sin q|.
        np.testing.assert_allclose(batch.limit_forces[1:, 0],
                                   np.abs(torques[1:] - 1.0 * G * 0.5 * np.sin(q)), rtol=1e-3)
        kinematic = self.ctx.robot_batch(self.limited, 2)
        self.assertEqual(kinematic.limit_forces.shape, (2, 0))
        self.assertEqual(kinematic.contact_friction_forces.shape, (2, 0, 2))

    def test_parameters_out_of_range_are_errors_naming_the_field(self):
        def refused(message, **arguments):
            start = self.ctx.bytes_in_use
            with self.assertRaises(swarm.SwarmError) as caught:
                self.ctx.robot_batch(self.limited, 2, torque=True, **arguments)
            self.assertEqual(caught.exception.status, "invalid argument")
            self.assertIn(message, str(caught.exception))
            self.assertEqual(self.ctx.bytes_in_use, start)

        refused("config.torque.limits.damping_ratio is -1, expected a finite value > 0",
                limits={"damping_ratio": -1.0})
        refused("config.torque.limits.impedance_max is 1.5, expected a value in (0, 1)",
                limits={"impedance_max": 1.5})
        refused("config.torque.limits.power is 17, expected an integer from 1 to 16",
                limits={"power": 17})
        refused("config.torque.limits.time_constant is nan", limits={"time_constant": np.nan})
        refused("config.torque.limit_tolerance must be finite and > 0, got -0.5",
                limit_tolerance=-0.5)
        refused("config.torque.max_joint_speed and max_base_angular_speed must be > 0",
                max_base_angular_speed=-1.0)
        refused("config.torque.max_step_turn must be finite and > 0, got inf",
                max_step_turn=float("inf"))
        block = dict(contacts=True)
        with self.assertRaises(swarm.SwarmError) as caught:
            self.ctx.robot_batch(self.block, 2, torque=True, ground={"width": -1.0}, **block)
        self.assertIn("config.torque.contacts.ground.soft.width is -1", str(caught.exception))
        with self.assertRaises(swarm.SwarmError) as caught:
            self.ctx.robot_batch(self.block, 2, torque=True, ground={"friction": -1.0}, **block)
        self.assertIn("config.torque.contacts.ground.friction must be finite and >= 0",
                      str(caught.exception))
        # Checked in Python: unknown names, a power that is not an int, torque-only parameters
        # of a kinematic batch.
        with self.assertRaisesRegex(ValueError, "unknown ground parameters: stiffness"):
            self.ctx.robot_batch(self.block, 2, torque=True, ground={"stiffness": 2e4}, **block)
        with self.assertRaisesRegex(ValueError, "unknown limits parameters: spring"):
            self.ctx.robot_batch(self.limited, 2, torque=True, limits={"spring": 1e4})
        with self.assertRaises(TypeError):
            self.ctx.robot_batch(self.limited, 2, torque=True, limits={"power": 2.5})
        with self.assertRaises(swarm.SwarmError) as caught:
            self.ctx.robot_batch(self.limited, 2, limit_tolerance=0.01)
        self.assertIn("need desc->torque", str(caught.exception))
        # In range, with max_joint_speed infinite (no cap) and a frictionless ground.
        self.ctx.robot_batch(self.limited, 2, torque=True, max_joint_speed=float("inf"))
        self.ctx.robot_batch(self.block, 2, torque=True, ground={"friction": 0.0}, **block)


if __name__ == "__main__":
    main()
