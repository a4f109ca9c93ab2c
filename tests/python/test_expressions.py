"""ctx.evaluate(expression, **operands) and ctx.evaluate_sum against numpy.

The same float32 operations in the same order give the same float32 bits in numpy (each numpy
ufunc rounds its result to float32 once, as swarm does), so elementwise results must equal numpy's
bit for bit, NaN and inf included (every NaN compared as NaN; swarm's NaNs are the quiet NaN
0x7fc00000). Sums differ in order of accumulation: swarm's is within 1e-12 relative of a float64
sum of numpy's float32 results (float64 accumulation of at most 1e5 elements)."""

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
            self.ctx.evaluate("a * 2", a=a.astype(np.float64), out=np.zeros(4, np.float32))
        self.assertIn("view 0 of the expression", str(caught.exception))


if __name__ == "__main__":
    main()
