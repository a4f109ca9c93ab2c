"""Use after close: every Python object that exposes swarm memory (tensors, buffers, robot batch
and particle system views, DLPack capsules) keeps that memory alive for as long as a view of it
exists, and refuses new use once closed, so a view taken before close never points at memory
swarm has handed to another buffer. Each case checks the message and that an unrelated buffer
allocated afterwards is unchanged."""

import unittest

import numpy as np

from swarm_test_support import PENDULUM, library, main
import swarm

CLOSED = "use of a closed {0}: the {0} is closed"


class ClosedHandles(unittest.TestCase):
    def setUp(self):
        self.lib = library()
        self.ctx = self.lib.context(threads=2)

    def unrelated(self):
        """A buffer allocated after a close, filled with 7: what a stale pointer would hit."""
        other = self.ctx.vec4(1 << 16).numpy()
        other[:] = 7
        return other

    def assert_closed(self, kind, call):
        with self.assertRaises(swarm.SwarmError) as raised:
            call()
        self.assertEqual(str(raised.exception), CLOSED.format(kind))
        self.assertEqual(raised.exception.status, "invalid argument")

    def test_a_closed_tensor_gives_no_array_and_its_old_arrays_stay_its_own(self):
        # The case: a closed tensor's saved pointer was handed to numpy, then pointed at
        # the next buffer allocated, and np.asarray(t)[:] = 1 overwrote it.
        with self.ctx.vec4(1 << 16) as buffer, buffer.tensor() as tensor:
            before = tensor.numpy()
            before[:] = 3
        other = self.unrelated()
        self.assert_closed("tensor", lambda: np.asarray(tensor))
        self.assert_closed("tensor", tensor.numpy)
        self.assert_closed("tensor", lambda: tensor[0])
        self.assert_closed("tensor", tensor.sum)
        self.assert_closed("tensor", tensor.__dlpack__)
        self.assert_closed("tensor", lambda: np.from_dlpack(tensor))
        self.assertEqual(repr(tensor), "<swarm.Tensor closed>")
        # The array taken before close still owns its memory: writing it leaves `other` alone.
        before[:] = 1
        self.assertTrue(np.all(other == 7))
        self.assertTrue(np.all(before == 1))

    def test_memory_returns_when_the_last_view_goes(self):
        start = self.ctx.bytes_in_use
        buffer = self.ctx.f32_array(1 << 16)
        tensor = buffer.tensor()
        array = tensor.numpy()
        capsule = tensor.__dlpack__()
        held = self.ctx.bytes_in_use
        self.assertGreaterEqual(held - start, 4 << 16)
        buffer.close()
        tensor.close()
        self.assertEqual(self.ctx.bytes_in_use, held)  # the array and the capsule hold it
        del array
        self.assertEqual(self.ctx.bytes_in_use, held)  # the capsule still does
        del capsule
        self.assertEqual(self.ctx.bytes_in_use, start)

    def test_a_closed_buffer_refuses_every_method(self):
        buffer = self.ctx.vec4(100)
        array = buffer.numpy()
        buffer.close()
        buffer.close()  # closing twice is allowed
        other = self.unrelated()
        self.assert_closed("buffer", buffer.tensor)
        self.assert_closed("buffer", buffer.numpy)
        self.assert_closed("buffer", lambda: buffer.kind)
        array[:] = 5
        self.assertTrue(np.all(other == 7))

    def test_a_dlpack_capsule_keeps_its_memory_after_every_close(self):
        with self.ctx.vec4(1 << 16) as buffer, buffer.tensor() as tensor:
            tensor.numpy()[:] = 2
            imported = np.from_dlpack(tensor)
        other = self.unrelated()
        self.assertTrue(np.all(imported == 2))
        self.assertTrue(np.all(other == 7))

    def test_robot_batch_views_outlive_the_batch_and_the_closed_batch_refuses(self):
        model = self.lib.robot_model(text=PENDULUM)
        start = self.ctx.bytes_in_use
        batch = self.ctx.robot_batch(model, robots=1000)
        q = batch.q
        batch.close()
        other = self.unrelated()
        for call in (lambda: batch.q, lambda: batch.tensor("qd"), batch.forward_kinematics,
                     lambda: batch.control_step(0.01), batch.state_hash, lambda: batch.task()):
            self.assert_closed("robot batch", call)
        q[:] = 0.5  # the batch's memory, still held by the view
        self.assertTrue(np.all(other == 7))
        del other
        self.assertGreater(self.ctx.bytes_in_use, start)
        del q  # the last view: the batch's memory goes back
        self.assertEqual(self.ctx.bytes_in_use, start)
        model.close()
        self.assert_closed("robot model", lambda: self.ctx.robot_batch(model, robots=1))

    def test_particle_views_outlive_the_system_and_the_closed_system_refuses(self):
        start = self.ctx.bytes_in_use
        system = self.ctx.particle_system(500, "granular")
        positions = system.positions
        system.close()
        other = self.unrelated()
        self.assert_closed("particle system", lambda: system.positions)
        self.assert_closed("particle system", system.step)
        self.assert_closed("particle system", lambda: system.stats)
        positions[:] = 1
        self.assertTrue(np.all(other == 7))
        del other
        self.assertGreater(self.ctx.bytes_in_use, start)
        del positions  # the last view: the system's memory goes back
        self.assertEqual(self.ctx.bytes_in_use, start)

    def test_a_closed_context_refuses_calls_and_its_objects_keep_working(self):
        buffer = self.ctx.vec4(10)
        prepared = self.ctx.prepare("a + 1", out=np.zeros(4, np.float32),
                                    a=np.arange(4, dtype=np.float32))
        self.ctx.close()
        self.assert_closed("context", lambda: self.ctx.vec4(10))
        self.assert_closed("context", lambda: self.ctx.bytes_in_use)
        self.assert_closed("context", self.ctx.memory_report)
        self.assert_closed("context", lambda: self.ctx.evaluate("a", a=np.ones(3, np.float32)))
        self.assert_closed("context", lambda: buffer.tensor().copy(self.ctx))
        buffer.numpy()[:] = 4  # the buffer holds the context's memory
        self.assertTrue(np.all(prepared() == np.arange(4) + 1))  # and so does the expression
        prepared.close()
        self.assert_closed("prepared expression", prepared)

    def test_tensors_derived_from_a_closed_tensor_are_refused_but_earlier_ones_live(self):
        buffer = self.ctx.tensor((8, 8))
        tensor = buffer.tensor()
        row = tensor[2]
        tensor.close()
        buffer.close()
        self.assert_closed("tensor", lambda: tensor.reshape(64))
        self.assert_closed("tensor", lambda: tensor.T)
        self.assert_closed("tensor", lambda: tensor.copy_into(row))
        row.numpy()[:] = 9
        self.assertEqual(row.sum(), 72.0)


if __name__ == "__main__":
    main()
