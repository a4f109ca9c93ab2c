"""Values the Python/C boundary used to change silently: integers ctypes would wrap (2**64 + 4
robots were 4), texts C would cut at a NUL ("a\\0 + b" was "a"), two operands of one name, and
fixed-length tuples of the wrong length (gravity (0, -9.81) had gz = 0). Each is refused with a
message naming the parameter and the value, and nothing is allocated or written."""

import unittest

import numpy as np

from swarm_test_support import PENDULUM, library, main
import swarm

SIZE_MAX = (1 << 64) - 1


class BoundaryValues(unittest.TestCase):
    def setUp(self):
        self.lib = library()
        self.ctx = self.lib.context()

    def assert_invalid(self, message, call):
        start = self.ctx.bytes_in_use
        with self.assertRaises(swarm.SwarmError) as raised:
            call()
        self.assertEqual(raised.exception.status, "invalid argument")
        self.assertEqual(str(raised.exception), message)
        self.assertEqual(self.ctx.bytes_in_use, start)  # nothing allocated

    def test_integers_out_of_their_c_range(self):
        self.assert_invalid(f"count must be an integer in [0, {SIZE_MAX}] (C size_t), got "
                            f"{2**64 + 3}", lambda: self.ctx.vec4(2**64 + 3))
        self.assert_invalid(f"count must be an integer in [0, {SIZE_MAX}] (C size_t), got -1",
                            lambda: self.ctx.f32_array(-1))
        self.assert_invalid(f"height must be an integer in [0, {SIZE_MAX}] (C size_t), got "
                            f"{2**64}", lambda: self.ctx.image(4, 2**64))
        self.assert_invalid(f"shape[1] must be an integer in [{-2**63}, {2**63 - 1}] (C int64), "
                            f"got {2**63}", lambda: self.ctx.tensor((2, 2**63)))
        self.assert_invalid(f"threads must be an integer in [0, {SIZE_MAX}] (C size_t), got "
                            f"{2**64 + 1}", lambda: self.lib.context(threads=2**64 + 1))
        self.assert_invalid(f"ksize must be an integer in [0, {SIZE_MAX}] (C size_t), got -5",
                            lambda: self.ctx.gaussian_blur(self.ctx.image(8, 8),
                                                           self.ctx.image(8, 8), ksize=-5))
        model = self.lib.robot_model(text=PENDULUM)
        self.assert_invalid(f"robots must be an integer in [0, {SIZE_MAX}] (C size_t), got "
                            f"{2**64 + 4}", lambda: self.ctx.robot_batch(model, 2**64 + 4))
        self.assert_invalid(f"seed must be an integer in [0, {2**64 - 1}] (C uint64), got -1",
                            lambda: self.ctx.particle_system(10, "flock", seed=-1))
        tensor = self.ctx.tensor((3, 4)).tensor()
        self.assert_invalid(f"axes[0] must be an integer in [0, {SIZE_MAX}] (C size_t), got -1",
                            lambda: tensor.transpose(-1, 0))

    def test_an_unrelated_buffer_is_unchanged_by_refused_sizes(self):
        other = self.ctx.vec4(4).numpy()
        other[:] = 7
        for call in (lambda: self.ctx.vec4(2**64 + 3), lambda: self.ctx.u8_array(-3)):
            with self.assertRaises(swarm.SwarmError):
                call()
        self.assertTrue(np.all(other == 7))

    def test_texts_with_a_nul(self):
        a = np.ones(4, np.float32)
        out = np.full(4, 42, np.float32)
        self.assert_invalid("expression must not contain a NUL character (C would ignore what "
                            "follows it), got 'a\\x00 + b' with one at position 1",
                            lambda: self.ctx.evaluate("a\0 + b", out=out, a=a))
        self.assert_invalid("operand name 'a\\x00b' must not contain a NUL character (C would "
                            "ignore what follows it), got 'a\\x00b' with one at position 1",
                            lambda: self.ctx.evaluate("a", out=out, **{"a\0b": a}))
        self.assert_invalid("expression must not contain a NUL character (C would ignore what "
                            "follows it), got 'a\\x00' with one at position 1",
                            lambda: self.lib.evaluate_sum("a\0", a=a))
        self.assert_invalid("path must not contain a NUL character (C would ignore what follows "
                            "it), got 'x.npy\\x00.txt' with one at position 5",
                            lambda: self.ctx.load_npy("x.npy\0.txt"))
        self.assertTrue(np.all(out == 42))

    def test_two_operands_of_one_name(self):
        # Keyword arguments cannot repeat a name, but C callers (and Library's own calls) can:
        # the C API refuses, naming the name.
        a = self.lib.from_dlpack(np.ones(4, np.float32), read_only=True)
        out = np.full(4, 42, np.float32)
        target = self.lib.from_dlpack(out)
        names, handles, keep = self.lib._operands({"a": a, "b": a})
        names[1] = b"a"
        with self.assertRaises(swarm.SwarmError) as raised:
            self.ctx._call("swarm_evaluate", b"a + 1", names, handles, 2, target._handle)
        self.assertEqual(str(raised.exception), "swarm_evaluate: expression \"a + 1\": the name "
                         "'a' is given twice (operands 0 and 1)")
        self.assertTrue(np.all(out == 42))

    def test_fixed_length_tuples(self):
        model = self.lib.robot_model(text=PENDULUM)
        self.assert_invalid("gravity must be 3 finite numbers, got 2: (0, -9.81)",
                            lambda: self.ctx.robot_batch(model, 4, gravity=(0, -9.81)))
        self.assert_invalid("gravity must be 3 finite numbers, got 4: (0, 0, -9.81, 1)",
                            lambda: self.ctx.robot_batch(model, 4, gravity=(0, 0, -9.81, 1)))
        self.assert_invalid("gravity must be 3 finite numbers, got (0, nan, 1)",
                            lambda: self.ctx.robot_batch(model, 4, gravity=(0, float("nan"), 1)))
        positions, velocities = self.ctx.vec4(8), self.ctx.vec4(8)
        p = positions.numpy()
        p[:] = 3
        self.assert_invalid("gravity must be 3 finite numbers, got 2: (0, -9.81)",
                            lambda: self.lib.integrate_euler(positions, velocities,
                                                             gravity=(0, -9.81)))
        self.assertTrue(np.all(p == 3))
        self.assert_invalid("box minimum must be 3 finite numbers, got 2: (0, 0)",
                            lambda: self.ctx.particle_system(10, "flock",
                                                             box=((0, 0), (1, 1, 1))))
        self.assert_invalid("particle_system: box must be ((min x, y, z), (max x, y, z)), got "
                            "(0, 0, 0)", lambda: self.ctx.particle_system(10, "flock",
                                                                          box=(0, 0, 0)))
        self.assert_invalid("box maximum must be 3 finite numbers, got (1, inf, 1)",
                            lambda: self.ctx.particle_system(10, "flock",
                                                             box=((0, 0, 0),
                                                                  (1, float("inf"), 1))))


if __name__ == "__main__":
    main()
