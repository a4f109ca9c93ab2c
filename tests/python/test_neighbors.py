"""ctx.neighbors(points, radius) against a brute-force float64 reference in numpy.

Rows must equal the reference exactly, except pairs whose float64 distance lies within a relative
2^-20 of the radius (swarm decides with a float32 distance test; none occur in these sets in
practice). Rows are ascending and exclude the point itself."""

import unittest

import numpy as np

from swarm_test_support import library, main
import swarm


def reference_rows(points, radius):
    wide = points.astype(np.float64)
    distance = np.sqrt(((wide[:, None, :] - wide[None, :, :]) ** 2).sum(axis=2))
    np.fill_diagonal(distance, np.inf)
    return distance <= radius, np.abs(distance - radius) <= radius * 2.0**-20


class Neighbors(unittest.TestCase):
    def setUp(self):
        self.lib = library()
        self.rng = np.random.default_rng(5)

    def check(self, ctx, points, radius):
        offsets, indices = ctx.neighbors(points, radius)
        self.assertEqual(offsets.dtype, np.int64)
        self.assertEqual(indices.dtype, np.int32)
        self.assertEqual(offsets.shape, (len(points) + 1,))
        self.assertEqual(offsets[0], 0)
        self.assertEqual(indices.shape, (offsets[-1],))
        within, borderline = reference_rows(points, radius)
        for i in range(len(points)):
            row = indices[offsets[i]:offsets[i + 1]]
            self.assertTrue(np.all(np.diff(row) > 0), f"row {i} is not strictly ascending")
            got = np.zeros(len(points), bool)
            got[row] = True
            differ = np.nonzero(got != within[i])[0]
            self.assertTrue(np.all(borderline[i, differ]), f"row {i} differs at {differ}")
        return offsets, indices

    def test_uniform_clustered_and_lattice_sets_on_one_and_three_threads(self):
        uniform = self.rng.random((1500, 3), dtype=np.float32)
        clustered = (self.rng.standard_normal((1200, 3)) * 0.05).astype(np.float32)
        clustered[::3] += np.float32(40.0)  # a second cluster far away: a hashed grid
        lattice = (np.stack(np.meshgrid(*[np.arange(-5, 6)] * 3), axis=-1).reshape(-1, 3) *
                   0.25).astype(np.float32)
        self.rng.shuffle(lattice)
        for threads in (1, 3):
            ctx = self.lib.context(threads=threads)
            first = self.check(ctx, uniform, 0.12)
            self.check(ctx, clustered, 0.02)
            self.check(ctx, lattice, 0.25)  # axis neighbours exactly one radius away
            # The same rows for the same input on every call and thread count.
            again = ctx.neighbors(uniform, 0.12)
            np.testing.assert_array_equal(first[0], again[0])
            np.testing.assert_array_equal(first[1], again[1])

    def test_a_vec4_buffer_and_strided_views(self):
        ctx = self.lib.context()
        points = self.rng.random((700, 3), dtype=np.float32)
        buffer = ctx.vec4(len(points))
        buffer.numpy()[:, :3] = points
        via_buffer = ctx.neighbors(buffer.tensor(), 0.15)
        via_array = ctx.neighbors(points, 0.15)
        np.testing.assert_array_equal(via_buffer[0], via_array[0])
        np.testing.assert_array_equal(via_buffer[1], via_array[1])
        wide = np.zeros((700, 7), np.float32)
        wide[:, 2:5] = points
        strided = ctx.neighbors(wide[:, 2:5], 0.15)  # not contiguous: copied by neighbors()
        np.testing.assert_array_equal(strided[1], via_array[1])

    def test_tiny_sets(self):
        ctx = self.lib.context()
        offsets, indices = ctx.neighbors(np.zeros((0, 3), np.float32), 1.0)
        self.assertEqual(list(offsets), [0])
        self.assertEqual(len(indices), 0)
        offsets, indices = ctx.neighbors(np.zeros((3, 3), np.float32), 1.0)
        self.assertEqual(list(offsets), [0, 2, 4, 6])
        self.assertEqual(list(indices), [1, 2, 0, 2, 0, 1])

    def test_bad_input_is_an_error_naming_the_problem(self):
        ctx = self.lib.context()
        points = self.rng.random((50, 3), dtype=np.float32)
        for radius in (0.0, -1.0, float("nan"), float("inf")):
            with self.assertRaisesRegex(swarm.SwarmError, "radius must be finite and > 0"):
                ctx.neighbors(points, radius)
        bad = points.copy()
        bad[17, 1] = np.nan
        bad[30, 0] = np.inf
        with self.assertRaisesRegex(swarm.SwarmError, r"point 17 is not finite \(.*nan"):
            ctx.neighbors(bad, 0.1)
        with self.assertRaisesRegex(swarm.SwarmError, r"float32 array \[N, 3\], got float64"):
            ctx.neighbors(points.astype(np.float64), 0.1)
        with self.assertRaisesRegex(swarm.SwarmError, r"\[N, 3\], got float32 \[50, 2\]"):
            ctx.neighbors(points[:, :2], 0.1)
        far = points.copy()
        far[0] = [-3e38, 0, 0]
        far[1] = [3e38, 0, 0]
        with self.assertRaisesRegex(swarm.SwarmError, "more than 2\\^30 cells"):
            ctx.neighbors(far, 1.0)
        small = self.lib.context(budget_bytes=64 << 10)
        with self.assertRaisesRegex(swarm.SwarmError, "budget"):
            small.neighbors(self.rng.random((5000, 3), dtype=np.float32), 0.1)
        self.assertEqual(small.bytes_in_use, 0)  # nothing left behind by the failed call

    def test_radii_whose_square_overflows_or_underflows_float32_are_refused(self):
        # They listed points as their own neighbours (radius 1e20) or gave indices past the end
        # (1e30); tiny radii listed points many radii apart (their square underflows to 0).
        ctx = self.lib.context()
        for count in (2, 3):
            for radius in (1e20, 1e30, 2.0**62 * 1.01):
                with self.assertRaisesRegex(swarm.SwarmError, "is too large: at most .* \\(2\\^62\\)"):
                    ctx.neighbors(self.rng.random((count, 3), dtype=np.float32), radius)
            for radius in (1e-20, 1e-30, 1e-40):
                with self.assertRaisesRegex(swarm.SwarmError,
                                            "is too small: at least .* \\(2\\^-60\\)"):
                    ctx.neighbors(self.rng.random((count, 3), dtype=np.float32) * 1e-20, radius)
        # Radii and points over the whole accepted range give the reference rows.
        for exponent in (-59, -30, -5, 0, 5, 30, 61):
            radius = 2.0**exponent
            points = ((self.rng.random((60, 3)) - 0.5) * 4 * radius).astype(np.float32)
            points[10] = points[3]  # a duplicate
            self.check(ctx, points, radius)

    def test_coincident_points_over_the_budget_are_refused_early(self):
        # A million coincident points have 1e12 pairs: counting them all took over 30 s before
        # the budget refused the lists; counting now stops at what the budget can hold.
        small = self.lib.context(budget_bytes=256 << 20, threads=2)
        points = np.ones((1_000_000, 3), np.float32)
        with self.assertRaisesRegex(swarm.SwarmError,
                                    "neighbour lists need more than [0-9]+ entries, more than the "
                                    "memory budget has left for them"):
            small.neighbors(points, 0.5)
        self.assertEqual(small.bytes_in_use, 0)


if __name__ == "__main__":
    main()
