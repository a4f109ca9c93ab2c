"""ctx.evaluate(expression, **operands) and ctx.evaluate_sum against numpy.

The same float32 operations in the same order give the same float32 bits in numpy (each numpy
ufunc rounds its result to float32 once, as swarm does), so elementwise results must equal numpy's
bit for bit, NaN and inf included (every NaN compared as NaN; swarm's NaNs are the quiet NaN
0x7fc00000). Sums differ in order of accumulation: swarm's is within 1e-12 relative of a float64
sum of numpy's float32 results (float64 accumulation of at most 1e5 elements). Conversions are
numpy's too: float16 rounds to nearest even in both, bool is "not zero", and integer outputs of
values in range truncate as astype does."""

import unittest

import numpy as np

from swarm_test_support import library, main
import swarm


class Expressions(unittest.TestCase):
    def setUp(self):
        self.lib = library()
        self.ctx = self.lib.context()
        self.rng = np.random.default_rng(9)

    def values(self, shape, specials=0.0):
        array = self.rng.uniform(-4, 4, size=shape).astype(np.float32)
        mask = self.rng.uniform(size=shape) < specials
        pool = np.array([0.0, -0.0, np.inf, -np.inf, np.nan], dtype=np.float32)
        array[mask] = pool[self.rng.integers(0, 5, size=int(mask.sum()))]
        return array

    def assert_same(self, got, want):
        self.assertEqual(got.shape, want.shape)
        self.assertEqual(got.dtype, np.float32)
        nan = np.isnan(want)
        self.assertTrue(np.array_equal(np.isnan(got), nan))
        self.assertTrue(np.array_equal(got[~nan].view(np.uint32), want[~nan].view(np.uint32)))

    def test_broadcast_expressions_equal_numpy(self):
        for trial in range(12):
            a = self.values((7, 33, 5), 0.05)
            b = self.values((33, 1), 0.05)
            c = self.values((5,), 0.05)
            if trial % 2:
                a = a.transpose(1, 0, 2).copy().transpose(1, 0, 2)  # strided memory
            two = np.float32(2)
            want = (a - b) * c + two
            self.assert_same(self.ctx.evaluate("(a - b) * c + 2", a=a, b=b, c=c), want)
            want = np.maximum(a, np.float32(0)) / (b - np.float32(0.5)) - -c
            self.assert_same(self.ctx.evaluate("maximum(a, 0) / (b - 0.5) - -c", a=a, b=b, c=c),
                             want)
            out = np.zeros((7, 33, 5), np.float32)
            self.assertIs(self.ctx.evaluate("min(a, c) * b", out=out, a=a, b=b, c=c), out)
            self.assert_same(out, np.minimum(a, c) * b)

    def test_in_place_and_sums(self):
        a = self.values((1000,))
        b = self.values((1000,))
        want = a * b + np.float32(1)
        self.ctx.evaluate("a * b + 1", out=a, a=a, b=b)  # out is a itself
        self.assert_same(a, want)
        x = self.values((300, 300))
        y = self.values((300,))
        d = (x - y).astype(np.float64)
        want_sum = float(((x - y) * (x - y)).astype(np.float64).sum())
        got = self.ctx.evaluate_sum("(x - y) * (x - y)", x=x, y=y)
        self.assertLessEqual(abs(got - want_sum), 1e-12 * float((d * d).sum()) + 1e-6)

    def test_errors_name_the_token_and_position(self):
        a = self.values((4,))
        with self.assertRaises(swarm.SwarmError) as caught:
            self.ctx.evaluate("a + q", a=a)
        self.assertIn("unknown name 'q' (names given: a) at position 4", str(caught.exception))
        with self.assertRaises(swarm.SwarmError) as caught:
            self.ctx.evaluate("(a * 2", a=a)
        self.assertIn("expected ')' but the expression ended at position 6", str(caught.exception))
        with self.assertRaises(swarm.SwarmError) as caught:
            self.ctx.evaluate("a * b", a=a, b=self.values((5,)))
        self.assertIn("cannot broadcast", str(caught.exception))
        with self.assertRaises(swarm.SwarmError) as caught:
            self.ctx.evaluate("a * 2", a=a.astype(np.complex64), out=np.zeros(4, np.float32))
        self.assertIn("view 0 of the expression (c64[4]) is complex", str(caught.exception))
        with self.assertRaises(swarm.SwarmError) as caught:
            self.ctx.evaluate("a < a < a", a=a)
        self.assertIn("comparisons do not chain", str(caught.exception))
        with self.assertRaises(swarm.SwarmError) as caught:
            self.ctx.evaluate_reduce("min", "a", a=np.zeros(0, np.float32))
        self.assertIn("the Min of no elements is undefined", str(caught.exception))

    def test_comparisons_logic_and_where_equal_numpy(self):
        a = self.values((40, 50), 0.1)
        b = self.values((50,), 0.1)
        c = self.values((40, 1), 0.1)
        c[::3] = 0
        one, two = np.float32(1), np.float32(2)
        mask = ((a > b) & (c != 0)) | (a <= -one)
        want = np.where(mask, a - b, (~(c != 0)).astype(np.float32) * two)
        got = self.ctx.evaluate("where((a > b) & (c != 0) | (a <= -1), a - b, ~c * 2)",
                                a=a, b=b, c=c)
        self.assert_same(got, want.astype(np.float32))
        self.assert_same(self.ctx.evaluate("a == b", a=a, b=b), (a == b).astype(np.float32))
        self.assert_same(self.ctx.evaluate("a != b", a=a, b=b), (a != b).astype(np.float32))
        self.assert_same(self.ctx.evaluate("a >= b", a=a, b=b), (a >= b).astype(np.float32))
        self.assert_same(self.ctx.evaluate("a < b", a=a, b=b), (a < b).astype(np.float32))
        # A bool mask array in, a bool array out (numpy's bool: 1 byte, not zero is true).
        flags = self.rng.uniform(size=(40, 50)) < 0.5
        out = np.zeros((40, 50), np.bool_)
        self.ctx.evaluate("flags & (a > 0)", out=out, flags=flags, a=a)
        np.testing.assert_array_equal(out, flags & (a > 0))
        self.assert_same(self.ctx.evaluate("where(flags, a, b)", flags=flags, a=a, b=b),
                         np.where(flags, a, b))

    def test_float16_and_integer_arrays_convert_as_numpy(self):
        a = self.values((3, 1000), 0.05) * np.float32(3000)
        half = a.astype(np.float16)  # includes values past float16's range: inf
        b = self.values((1000,))
        want = (half.astype(np.float32) * np.float32(1.5) - b)
        out = np.empty((3, 1000), np.float16)
        self.ctx.evaluate("h * 1.5 - b", out=out, h=half, b=b)
        self.assertTrue(np.array_equal(np.isnan(out), np.isnan(want.astype(np.float16))))
        self.assertTrue(np.array_equal(out[~np.isnan(out)].view(np.uint16),
                                       want.astype(np.float16)[~np.isnan(out)].view(np.uint16)))
        # float16(x) as a cast: the same rounding as astype.
        self.assert_same(self.ctx.evaluate("f16(a)", a=a), a.astype(np.float16).astype(np.float32))
        # Integer inputs load exactly; in-range values store truncated like astype.
        pixels = self.rng.integers(0, 256, size=(16, 16), dtype=np.uint8)
        scaled = np.empty((16, 16), np.uint8)
        self.ctx.evaluate("p * 0.5 + 10", out=scaled, p=pixels)
        np.testing.assert_array_equal(scaled, (pixels.astype(np.float32) * np.float32(0.5)
                                               + np.float32(10)).astype(np.uint8))
        counts = self.rng.integers(-1000, 1000, size=(64,), dtype=np.int32)
        self.assert_same(self.ctx.evaluate("n / 7", n=counts),
                         counts.astype(np.float32) / np.float32(7))
        doubles = self.rng.standard_normal(64)
        self.assert_same(self.ctx.evaluate("d * 2", d=doubles),
                         doubles.astype(np.float32) * np.float32(2))

    def test_prepared_expressions_rerun_on_current_values(self):
        a = self.values((64, 3), 0.05)
        b = self.values((3,), 0.05)
        out = np.empty((64, 3), np.float32)
        step = self.ctx.prepare("where(a > b, a - b, b) * 2", out=out, a=a, b=b)
        for _ in range(3):
            a[:] = self.values((64, 3), 0.05)   # new values, the same arrays
            b[:] = self.values((3,), 0.05)
            self.assertIs(step(), out)
            self.assert_same(out, np.where(a > b, a - b, b) * np.float32(2))
        # The prepared expression keeps its arrays alive.
        kept = self.values((8,))
        doubled = self.ctx.prepare("k * 2", k=kept)
        want = kept * np.float32(2)
        del kept
        self.assert_same(doubled(), want)
        with self.assertRaises(swarm.SwarmError) as caught:
            self.ctx.prepare("a + q", a=a)
        self.assertIn("unknown name 'q'", str(caught.exception))

    def test_reductions_of_expressions(self):
        x = self.values((200, 300))
        y = self.values((300,))
        d = (x - y).astype(np.float64)
        self.assertEqual(self.ctx.evaluate_reduce("min", "x - y", x=x, y=y), float((x - y).min()))
        self.assertEqual(self.ctx.evaluate_reduce("max", "x - y", x=x, y=y), float((x - y).max()))
        mean = self.ctx.evaluate_reduce("mean", "x - y", x=x, y=y)
        self.assertLessEqual(abs(mean - float(d.mean())), 1e-12 * float(np.abs(d).mean()))
        self.assertEqual(self.ctx.evaluate_sum("x > y", x=x, y=y), float((x > y).sum()))


if __name__ == "__main__":
    main()
