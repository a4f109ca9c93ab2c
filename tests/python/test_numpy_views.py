"""numpy <-> swarm without copies: writable views through __array__, read-only views
through np.from_dlpack, numpy arrays imported into swarm through DLPack, and the lifetimes that
keep every one of them valid after the Python objects that made them are gone.

Tolerances: Euler integration is compared bit for bit (0 ulp) with the same float32 operations in
numpy, since swarm's kernel is that exact sequence of IEEE operations; the Gaussian blur is
compared with a float64 separable reference within 1e-5 absolute on values in [0, 1]."""

import gc
import unittest
import weakref

import numpy as np

from swarm_test_support import library, main
import swarm


def gaussian_reference(image, ksize, sigma):
    """cv::GaussianBlur with reflect-101 borders (numpy's mode="reflect"), in float64."""
    x = np.arange(ksize) - (ksize - 1) / 2.0
    taps = np.exp(-x * x / (2.0 * sigma * sigma))
    taps /= taps.sum()
    radius = ksize // 2
    padded = np.pad(image.astype(np.float64), radius, mode="reflect")
    height, width = image.shape
    rows = sum(taps[k] * padded[:, k:k + width] for k in range(ksize))
    return sum(taps[k] * rows[k:k + height, :] for k in range(ksize))


class WritableViews(unittest.TestCase):
    def setUp(self):
        self.lib = library()
        self.ctx = self.lib.context(threads=2)

    def test_vec4_view_layout(self):
        buffer = self.ctx.vec4(10)
        array = buffer.numpy()
        self.assertEqual(array.shape, (10, 4))
        self.assertEqual(array.dtype, np.float32)
        self.assertEqual(array.strides, (4, 16 * 4))  # lanes 16 floats apart (padded count)
        self.assertTrue(array.flags.writeable)
        # The base is the private owner of the view's C handle, not the Tensor a user may close.
        self.assertEqual(type(array.base).__name__, "_TensorMemory")

    def test_numpy_writes_drive_euler_and_swarm_writes_reach_numpy(self):
        rng = np.random.default_rng(1)
        count = 1003
        positions, velocities = self.ctx.vec4(count), self.ctx.vec4(count)
        p, v = positions.numpy(), velocities.numpy()
        p[:] = rng.uniform(-5, 5, size=(count, 4)).astype(np.float32)
        v[:] = rng.uniform(-2, 2, size=(count, 4)).astype(np.float32)
        p0, v0 = p.copy(), v.copy()
        gravity = np.array([0.5, -9.81, 0.0], np.float32)
        drag, dt = np.float32(0.25), np.float32(0.01)
        for _ in range(3):
            self.lib.integrate_euler(positions, velocities, gravity=tuple(gravity), drag=drag,
                                     dt=dt)
        expected_p, expected_v = p0.copy(), v0.copy()
        for _ in range(3):
            expected_v[:, :3] = expected_v[:, :3] + (gravity - drag * expected_v[:, :3]) * dt
            expected_p[:, :3] = expected_p[:, :3] + expected_v[:, :3] * dt
        # The arrays made before the kernel ran see its results: same memory.
        np.testing.assert_array_equal(v, expected_v)
        np.testing.assert_array_equal(p, expected_p)
        np.testing.assert_array_equal(p[:, 3], p0[:, 3])  # w untouched

    def test_gaussian_blur_of_numpy_written_images(self):
        rng = np.random.default_rng(2)
        src, dst = self.ctx.image(37, 23), self.ctx.image(37, 23)
        pixels = rng.uniform(0, 1, size=(23, 37)).astype(np.float32)
        src.numpy()[:] = pixels
        out = dst.numpy()
        self.ctx.gaussian_blur(src, dst, ksize=5, sigma=1.0)
        np.testing.assert_allclose(out, gaussian_reference(pixels, 5, 1.0), rtol=0, atol=1e-5)

        batch_src, batch_dst = self.ctx.image_batch(3, 16, 9), self.ctx.image_batch(3, 16, 9)
        frames = rng.uniform(0, 1, size=(3, 9, 16)).astype(np.float32)
        batch_src.numpy()[:] = frames
        self.ctx.gaussian_blur(batch_src, batch_dst, ksize=3, sigma=0.8)
        for frame in range(3):
            np.testing.assert_allclose(batch_dst.numpy()[frame],
                                       gaussian_reference(frames[frame], 3, 0.8), rtol=0,
                                       atol=1e-5)

    def test_an_array_keeps_its_buffer_alive(self):
        buffer = self.ctx.f32_array(1000)
        array = buffer.numpy()
        array[:] = np.arange(1000, dtype=np.float32)
        in_use = self.ctx.bytes_in_use
        self.assertGreaterEqual(in_use, 4000)
        del buffer
        gc.collect()
        self.assertEqual(self.ctx.bytes_in_use, in_use)
        array *= 2  # still valid, writable memory
        self.assertEqual(float(array.sum()), 999.0 * 1000.0)
        del array
        gc.collect()
        self.assertEqual(self.ctx.bytes_in_use, 0)

    def test_read_only_views_give_read_only_arrays(self):
        buffer = self.ctx.tensor((3, 4), "s32")
        frozen = buffer.tensor().as_read_only().numpy()
        self.assertFalse(frozen.flags.writeable)
        with self.assertRaises(ValueError):
            frozen[0, 0] = 1

    def test_from_numpy_copies(self):
        array = np.arange(24, dtype=np.int16).reshape(2, 3, 4)[:, ::-1, ::2]
        buffer = self.ctx.from_numpy(array)
        copy = buffer.numpy()
        np.testing.assert_array_equal(copy, array)
        self.assertEqual(copy.dtype, np.int16)
        self.assertFalse(np.shares_memory(copy, array))
        big_endian = np.arange(5, dtype=">f8")
        np.testing.assert_array_equal(self.ctx.from_numpy(big_endian).numpy(), big_endian)
        mask = np.array([True, False, True])
        np.testing.assert_array_equal(self.ctx.from_numpy(mask).numpy(), mask)
        with self.assertRaises(TypeError):
            self.ctx.from_numpy(np.zeros(3, dtype=np.longdouble))


class DlpackExport(unittest.TestCase):
    def setUp(self):
        self.lib = library()
        self.ctx = self.lib.context()

    def test_from_dlpack_is_read_only_and_shares_memory(self):
        buffer = self.ctx.vec4(20)
        writable = buffer.numpy()
        writable[:] = np.arange(80, dtype=np.float32).reshape(20, 4)
        tensor = buffer.tensor()
        self.assertEqual(tensor.__dlpack_device__(), (1, 0))
        imported = np.from_dlpack(tensor)
        self.assertFalse(imported.flags.writeable)
        np.testing.assert_array_equal(imported, writable)
        self.assertEqual(imported.strides, writable.strides)
        writable[3, 2] = -7.0
        self.assertEqual(imported[3, 2], -7.0)

    def test_the_buffer_survives_every_python_object_but_the_array(self):
        ctx = self.lib.context()
        buffer = ctx.tensor((64, 3), "f64")
        buffer.numpy()[:] = np.linspace(0, 1, 192).reshape(64, 3)
        snapshot = buffer.numpy().copy()
        imported = np.from_dlpack(buffer.tensor()[::-2])
        in_use = ctx.bytes_in_use
        del buffer, ctx
        gc.collect()
        np.testing.assert_array_equal(imported, snapshot[::-2])
        # Measured through a context that stays: the memory goes when the array goes.
        buffer = self.ctx.tensor((1000,), "u8")
        imported = np.from_dlpack(buffer.tensor())
        del buffer
        gc.collect()
        self.assertGreaterEqual(self.ctx.bytes_in_use, 1000)
        del imported
        gc.collect()
        self.assertEqual(self.ctx.bytes_in_use, 0)
        self.assertGreater(in_use, 0)

    def test_an_unconsumed_capsule_releases_the_buffer(self):
        buffer = self.ctx.f32_array(256)
        capsule = buffer.tensor().__dlpack__()
        del buffer
        gc.collect()
        self.assertGreater(self.ctx.bytes_in_use, 0)
        del capsule
        gc.collect()
        self.assertEqual(self.ctx.bytes_in_use, 0)

    def test_stream_must_be_none(self):
        tensor = self.ctx.f32_array(4).tensor()
        with self.assertRaises(BufferError):
            tensor.__dlpack__(stream=1)

    def test_every_dtype_numpy_imports(self):
        for name, dtype in swarm.DTYPES:
            if name in ("bf16", "bool"):
                continue  # numpy 1.24's DLPack import has neither bfloat16 nor bool
            buffer = self.ctx.tensor((5, 2), name)
            buffer.numpy()[:] = np.arange(10).reshape(5, 2).astype(dtype)
            imported = np.from_dlpack(buffer.tensor().T)
            self.assertEqual(imported.dtype, dtype, name)
            np.testing.assert_array_equal(imported, np.arange(10).reshape(5, 2).T.astype(dtype))


class DlpackImport(unittest.TestCase):
    def setUp(self):
        self.lib = library()

    def test_swarm_writes_into_a_numpy_array_it_keeps_alive(self):
        array = np.zeros((4, 6), np.float32)
        alive = weakref.ref(array)
        tensor = self.lib.from_dlpack(array)
        self.assertEqual(tensor.shape, (4, 6))
        self.assertFalse(tensor.read_only)
        source = np.arange(24, dtype=np.float32).reshape(4, 6)
        self.lib.from_dlpack(source).copy_into(tensor)
        np.testing.assert_array_equal(array, source)
        del array
        gc.collect()
        self.assertIsNotNone(alive())  # held by the DLPack tensor swarm owns
        np.testing.assert_array_equal(np.asarray(tensor), source)
        del tensor
        gc.collect()
        self.assertIsNone(alive())  # deleter ran

    def test_read_only_import(self):
        tensor = self.lib.from_dlpack(np.ones(3), read_only=True)
        self.assertTrue(tensor.read_only)
        self.assertFalse(np.asarray(tensor).flags.writeable)


if __name__ == "__main__":
    main()
