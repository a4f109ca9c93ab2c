"""swarm's elementwise ops, reductions, copies and casts against numpy on random shapes.

Tolerances: elementwise add/sub/mul/div/min/max are compared exactly (each is one correctly
rounded IEEE float32 operation in both libraries; NaN compares equal to NaN). Whole-tensor sums
and means are float64 accumulations in a different order than numpy's, so they agree within
4 n 2^-53 sum(|x|), the worst-case bound of two double summations of n terms; per-axis sums are
rounded to float32, so within 2^-23 sum(|x|) along the axis plus that bound. Min and max are exact.
Casts of in-range values are exact (truncation toward zero, integer wrap-around like astype)."""

import ctypes
import unittest

import numpy as np

from swarm_test_support import library, main
import swarm

OPS = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "div": np.divide,
    "min": np.minimum,
    "max": np.maximum,
}
CASES = 200


class Ops(unittest.TestCase):
    def setUp(self):
        self.lib = library()
        self.ctx = self.lib.context()
        self.rng = np.random.default_rng(13)

    def random_values(self, shape):
        values = self.rng.standard_normal(shape).astype(np.float32) * 10
        flat = values.reshape(-1)
        if flat.size:
            specials = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0], np.float32)
            picks = self.rng.random(flat.size) < 0.05
            flat[picks] = self.rng.choice(specials, size=int(picks.sum()))
        return values

    def operand(self, shape):
        """A swarm view with `shape` and random values, sometimes strided or reversed."""
        layout = self.rng.integers(0, 3)
        if layout == 0 or not shape:
            buffer = self.ctx.tensor(shape, "f32")
            tensor = buffer.tensor()
        elif layout == 1:  # every second element of a larger tensor, reversed on axis 0
            bigger = (shape[0] * 2,) + tuple(shape[1:])
            buffer = self.ctx.tensor(bigger, "f32")
            tensor = buffer.tensor()[::-2]
        else:  # a transposed buffer
            buffer = self.ctx.tensor(tuple(reversed(shape)), "f32")
            tensor = buffer.tensor().T
        array = np.asarray(tensor)
        array[...] = self.random_values(shape)
        return tensor, array

    def random_broadcast_shapes(self):
        """Two shapes that broadcast: trailing parts of one shape, some extents set to 1."""
        rank = int(self.rng.integers(0, 5))
        out = tuple(int(e) for e in self.rng.integers(1, 8, size=rank))

        def input_shape():
            kept = int(self.rng.integers(0, rank + 1))
            shape = list(out[rank - kept:])
            for axis in range(len(shape)):
                if self.rng.random() < 0.3:
                    shape[axis] = 1
            return tuple(shape)

        return input_shape(), input_shape()

    def test_elementwise_with_broadcasting(self):
        for case in range(CASES):
            a_shape, b_shape = self.random_broadcast_shapes()
            out_shape = np.broadcast_shapes(a_shape, b_shape)  # swarm's out has exactly this
            a, a_values = self.operand(a_shape)
            b, b_values = self.operand(b_shape)
            for name, reference in OPS.items():
                out_buffer = self.ctx.tensor(out_shape, "f32")
                out = out_buffer.tensor()
                with np.errstate(all="ignore"):
                    expected = reference(a_values, b_values)
                self.lib.elementwise(name, a, b, out)
                np.testing.assert_array_equal(
                    np.asarray(out), expected,
                    err_msg=f"case {case}: {name} {a_shape} {b_shape} -> {out_shape}")

    def test_whole_tensor_reductions(self):
        for case in range(CASES):
            shape = tuple(int(e) for e in self.rng.integers(1, 9, size=self.rng.integers(1, 5)))
            tensor, values = self.operand(shape)
            values[~np.isfinite(values)] = 1.5  # finite sums; NaN handling is checked below
            wide = values.astype(np.float64)
            bound = 4 * values.size * 2.0**-53 * np.abs(wide).sum()
            what = f"case {case}: shape {shape}"
            self.assertLessEqual(abs(tensor.sum() - wide.sum()), bound, what)
            self.assertLessEqual(abs(tensor.mean() - wide.mean()), bound / values.size, what)
            self.assertEqual(tensor.min(), values.min(), what)
            self.assertEqual(tensor.max(), values.max(), what)

        tensor, values = self.operand((5, 7))
        values[2, 3] = np.nan
        self.assertTrue(np.isnan(tensor.min()))
        self.assertTrue(np.isnan(tensor.max()))
        self.assertTrue(np.isnan(tensor.sum()))

    def test_reductions_along_an_axis(self):
        for case in range(CASES // 2):
            rank = int(self.rng.integers(1, 5))
            shape = tuple(int(e) for e in self.rng.integers(1, 9, size=rank))
            axis = int(self.rng.integers(0, rank))
            tensor, values = self.operand(shape)
            values[~np.isfinite(values)] = -2.5
            wide = values.astype(np.float64)
            out_shape = shape[:axis] + shape[axis + 1:]
            magnitude = np.abs(wide).sum(axis=axis)
            bound = (2.0**-23 + 4 * shape[axis] * 2.0**-53) * magnitude
            what = f"case {case}: shape {shape} axis {axis}"
            for op, reference in [("sum", wide.sum(axis=axis)), ("mean", wide.mean(axis=axis))]:
                out = self.ctx.tensor(out_shape, "f32").tensor()
                self.lib.reduce(op, tensor, axis, out)
                scale = 1.0 if op == "sum" else 1.0 / shape[axis]
                self.assertTrue(np.all(np.abs(np.asarray(out) - reference) <= bound * scale),
                                f"{what} {op}")
            for op, reference in [("min", values.min(axis=axis)), ("max", values.max(axis=axis))]:
                out = self.ctx.tensor(out_shape, "f32").tensor()
                self.lib.reduce(op, tensor, axis, out)
                np.testing.assert_array_equal(np.asarray(out), reference, err_msg=f"{what} {op}")

    def test_soa_lane_sums(self):
        positions = self.ctx.vec4(1001)
        values = positions.numpy()
        values[:] = self.rng.uniform(-1, 1, size=(1001, 4)).astype(np.float32)
        lanes = self.ctx.tensor((4,), "f32").tensor()
        self.lib.reduce("sum", positions.tensor(), 0, lanes)
        expected = values.astype(np.float64).sum(axis=0)
        bound = (2.0**-23 + 4 * 1001 * 2.0**-53) * np.abs(values.astype(np.float64)).sum(axis=0)
        self.assertTrue(np.all(np.abs(np.asarray(lanes) - expected) <= bound))

    def test_copies_and_casts_match_astype(self):
        source = self.ctx.tensor((6, 5), "f32")
        values = source.numpy()
        values[:] = self.rng.uniform(-100, 100, size=(6, 5)).astype(np.float32)
        view = source.tensor()[::-1, 1::2].T
        expected_view = values[::-1, 1::2].T
        copy = view.copy(self.ctx).numpy()
        np.testing.assert_array_equal(copy, expected_view)
        self.assertTrue(copy.flags.c_contiguous)
        for dtype in ["s32", "s16", "f64", "c64"]:
            with self.subTest(dtype=dtype):
                cast = view.astype(self.ctx, dtype).numpy()
                np.testing.assert_array_equal(cast, expected_view.astype(cast.dtype))
        # u8 from non-negative values only: numpy leaves out-of-range float -> uint undefined.
        positive = self.ctx.from_numpy(np.abs(expected_view)).tensor()
        np.testing.assert_array_equal(positive.astype(self.ctx, "u8").numpy(),
                                      np.abs(expected_view).astype(np.uint8))
        wide = self.ctx.from_numpy(np.arange(-300, 300, 7, dtype=np.int64))
        np.testing.assert_array_equal(wide.tensor().astype(self.ctx, "s8").numpy(),
                                      np.arange(-300, 300, 7, dtype=np.int64).astype(np.int8))

    def test_operations_and_dtypes_outside_the_enums_are_refused(self):
        """C callers may pass any int for an enum; ctypes does exactly that."""
        tensor = self.ctx.tensor((3,), "f32").tensor()
        value = ctypes.c_double(123.0)
        for op in [4, -1, 1 << 30]:
            with self.assertRaises(swarm.SwarmError) as caught:
                self.lib._call("swarm_tensor_reduce_all", op, tensor._handle, ctypes.byref(value))
            self.assertEqual(str(caught.exception),
                             f"swarm_tensor_reduce_all: operation {op} is not one of 0..3")
        self.assertEqual(value.value, 123.0)
        for op in [14, -7]:
            with self.assertRaises(swarm.SwarmError) as caught:
                self.lib._call("swarm_elementwise", op, tensor._handle, tensor._handle,
                               tensor._handle)
            self.assertIn(f"operation {op} is not one of 0..13", str(caught.exception))
        for dtype in [-3, 15, 99]:
            with self.assertRaises(swarm.SwarmError) as caught:
                self.lib._call("swarm_tensor_cast", self.ctx._handle, tensor._handle, dtype,
                               ctypes.byref(ctypes.c_void_p()))
            self.assertIn(f"dtype {dtype} is not a swarm_dtype (0..14)", str(caught.exception))
        self.assertIsNone(self.lib._dll.swarm_status_name(-2))
        self.assertEqual(self.lib._dll.swarm_dtype_size(-1), 0)

    def test_format_header_and_elision(self):
        tensor = self.ctx.tensor((2, 3), "s16").tensor()
        np.asarray(tensor)[:] = [[1, 2, 3], [4, 5, 6]]
        self.assertEqual(str(tensor).splitlines()[0], "s16[2][3]")
        self.assertIn("[4, 5, 6]", str(tensor))
        big = self.ctx.tensor((1000, 1000), "f32").tensor()
        text = big.format(limit=100, edge_items=2)
        self.assertIn("...", text)
        self.assertLess(len(text), 400)


if __name__ == "__main__":
    main()
