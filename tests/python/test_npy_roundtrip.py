"""Round trips swarm -> .npy -> numpy -> .npy -> swarm, byte-exact for every dtype (random bytes,
so floats include NaN payloads, infinities and subnormals), and the files themselves: a file
swarm writes is byte for byte the file np.save writes for the same array. Also views that are not
contiguous (negative steps, transposed, SoA lanes) and Fortran-order files. And the files a path
may name besides a regular file: a FIFO without a writer, /dev/null, /dev/full, a read-only or
private (0600) file."""

import os
import stat
import tempfile
import time
import unittest

import numpy as np

from swarm_test_support import library, main
import swarm

SHAPES = [(3, 5, 2), (7,), (), (0, 3), (1, 2, 1, 2, 1, 2, 1, 2)]


def read_bytes(path):
    with open(path, "rb") as file:
        return file.read()


class NpyRoundTrip(unittest.TestCase):
    def setUp(self):
        self.lib = library()
        self.ctx = self.lib.context()
        self.directory = tempfile.TemporaryDirectory()
        self.rng = np.random.default_rng(5)

    def tearDown(self):
        self.directory.cleanup()

    def path(self, name):
        return os.path.join(self.directory.name, name)

    def test_every_dtype_round_trips_byte_exact(self):
        for name, dtype in swarm.DTYPES:
            if name == "bf16":  # numpy has no bfloat16
                with self.assertRaisesRegex(swarm.SwarmError, "numpy has no bf16 dtype"):
                    self.ctx.tensor((2,), name).tensor().save_npy(self.path("bf16.npy"))
                continue
            for shape in SHAPES:
                with self.subTest(dtype=name, shape=shape):
                    buffer = self.ctx.tensor(shape, name)
                    view = buffer.numpy()
                    original = self.rng.integers(0, 256, size=view.nbytes, dtype=np.uint8)
                    view.reshape(-1).view(np.uint8)[:] = original
                    swarm_file = self.path(f"swarm_{name}.npy")
                    buffer.tensor().save_npy(swarm_file)

                    loaded = np.load(swarm_file)
                    self.assertEqual(loaded.dtype, dtype)
                    self.assertEqual(loaded.shape, shape)
                    self.assertEqual(loaded.tobytes(), original.tobytes())

                    numpy_file = self.path(f"numpy_{name}.npy")
                    np.save(numpy_file, loaded)
                    self.assertEqual(read_bytes(swarm_file), read_bytes(numpy_file))

                    back = self.ctx.load_npy(numpy_file)
                    self.assertEqual(back.kind, "tensor")
                    back_view = back.numpy()
                    self.assertEqual(back_view.dtype, dtype)
                    self.assertEqual(back_view.shape, shape)
                    self.assertEqual(back_view.tobytes(), original.tobytes())

    def test_strided_views_are_written_in_c_order(self):
        buffer = self.ctx.tensor((6, 5, 4), "s32")
        values = buffer.numpy()
        values[:] = np.arange(120, dtype=np.int32).reshape(6, 5, 4)
        cases = [
            lambda a: a[::-1, 1:, ::2],
            lambda a: a.T,
            lambda a: a[::-2, ::-3].transpose(2, 0, 1),
            lambda a: a[2, :, 1],
        ]
        for index, view_of in enumerate(cases):
            with self.subTest(case=index):
                path = self.path(f"strided_{index}.npy")
                view_of(buffer.tensor()).save_npy(path)
                expected = view_of(values)
                loaded = np.load(path)
                np.testing.assert_array_equal(loaded, expected)
                np.save(self.path("expected.npy"), np.ascontiguousarray(expected))
                self.assertEqual(read_bytes(path), read_bytes(self.path("expected.npy")))

    def test_soa_vec4_buffers_save_their_logical_vectors(self):
        positions = self.ctx.vec4(19)
        values = positions.numpy()
        values[:] = self.rng.standard_normal((19, 4)).astype(np.float32)
        path = self.path("positions.npy")
        positions.tensor().save_npy(path)
        np.testing.assert_array_equal(np.load(path), values)

    def test_fortran_order_files_load_with_fortran_strides(self):
        for name, dtype in swarm.DTYPES:
            with self.subTest(dtype=name):
                values = (np.arange(24).reshape(2, 3, 4) * 3 - 7).astype(dtype)
                path = self.path("fortran.npy")
                np.save(path, np.asfortranarray(values))
                loaded = self.ctx.load_npy(path).numpy()
                np.testing.assert_array_equal(loaded, values)
                self.assertTrue(loaded.flags.f_contiguous)
                # Saved back, the same values come out in C order.
                again = self.path("again.npy")
                self.ctx.load_npy(path).tensor().save_npy(again)
                np.save(self.path("c_order.npy"), values)
                self.assertEqual(read_bytes(again), read_bytes(self.path("c_order.npy")))

    def test_bad_files_raise_with_the_reason(self):
        path = self.path("bad.npy")
        with open(path, "wb") as file:
            file.write(b"\x93NUMPY\x01\x00\x10\x00{'descr': 'x'")
        with self.assertRaises(swarm.SwarmError) as caught:
            self.ctx.load_npy(path)
        self.assertEqual(caught.exception.status, "invalid argument")
        self.assertIn(path, str(caught.exception))
        np.save(path, np.zeros(3, dtype=">f4"))
        with self.assertRaises(swarm.SwarmError) as caught:
            self.ctx.load_npy(path)
        self.assertIn(">f4", str(caught.exception))

    def test_a_fifo_without_a_writer_is_refused_in_bounded_time(self):
        # open(2) of a FIFO nobody writes would wait forever; load_npy waits about 2 s.
        path = self.path("fifo.npy")
        os.mkfifo(path)
        start = time.monotonic()
        with self.assertRaises(swarm.SwarmError) as caught:
            self.ctx.load_npy(path)
        self.assertLess(time.monotonic() - start, 10)
        self.assertIn("is a FIFO with no writer", str(caught.exception))
        self.assertTrue(stat.S_ISFIFO(os.stat(path).st_mode))

    def test_save_npy_never_replaces_special_or_read_only_files(self):
        tensor = self.ctx.tensor((4,), "f32").tensor()
        tensor.save_npy(os.devnull)
        self.assertTrue(stat.S_ISCHR(os.stat(os.devnull).st_mode))
        with self.assertRaises(swarm.SwarmError) as caught:
            tensor.save_npy("/dev/full")
        self.assertIn("No space left on device", str(caught.exception))
        read_only = self.path("read_only.npy")
        with open(read_only, "wb") as file:
            file.write(b"keep")
        os.chmod(read_only, 0o444)
        with self.assertRaises(swarm.SwarmError) as caught:
            tensor.save_npy(read_only)
        self.assertIn("is read-only (mode 0444)", str(caught.exception))
        self.assertEqual(read_bytes(read_only), b"keep")
        private = self.path("private.npy")
        with open(private, "wb") as file:
            file.write(b"old")
        os.chmod(private, 0o600)
        tensor.save_npy(private)
        self.assertEqual(stat.S_IMODE(os.stat(private).st_mode), 0o600)


if __name__ == "__main__":
    main()
