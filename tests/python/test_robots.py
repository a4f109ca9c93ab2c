"""Robot batches from Python: the loop of a reinforcement-learning user (a numpy policy writes
torques into swarm's arrays, swarm steps, numpy reads the observations) on a double pendulum
whose equations of motion are written here in closed form (Lagrange, relative joint angles) and
integrated in float64 with the same semi-implicit Euler; zero-copy views; forward kinematics
against the closed form; memory accounting; errors.

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


if __name__ == "__main__":
    main()
