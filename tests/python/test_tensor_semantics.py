"""swarm's slicing, transposition and reshape against numpy's own result on the same memory.

Each random case makes a swarm tensor, takes numpy's view of the same memory, applies the same
operation to both (basic indexing with integers, slices of any step including negative ones and
omitted or out-of-range bounds, and Ellipsis; a random permutation; a random reshape) and
compares shape, values, the address of the first element and the strides. Strides are compared
on axes of extent > 1 of non-empty results only: elsewhere they never address an element, and
numpy and swarm may legitimately pick different values there. A reshape must succeed exactly
when numpy can do it without a copy (assigning to ndarray.shape, which never copies)."""

import unittest

import numpy as np

from swarm_test_support import library, main
import swarm

CASES = 600


def random_shape(rng, rank):
    return tuple(int(extent) for extent in rng.choice([0, 1, 2, 3, 4, 5, 6], size=rank,
                                                      p=[.04, .16, .2, .2, .2, .1, .1]))


def random_bound(rng, extent):
    return None if rng.random() < 0.3 else int(rng.integers(-extent - 2, extent + 3))


def random_index(rng, extent):
    if rng.random() < 0.2 and extent > 0:
        return int(rng.integers(-extent, extent))
    step = None if rng.random() < 0.3 else int(rng.choice([-3, -2, -1, 1, 2, 3]))
    return slice(random_bound(rng, extent), random_bound(rng, extent), step)


def random_key(rng, shape):
    """Indices for some leading axes, or leading and trailing axes around an Ellipsis."""
    rank = len(shape)
    if rng.random() < 0.15:
        before = int(rng.integers(0, rank + 1))
        after = int(rng.integers(0, rank - before + 1))
        return (tuple(random_index(rng, extent) for extent in shape[:before]) + (Ellipsis,) +
                tuple(random_index(rng, extent) for extent in shape[rank - after:]))
    count = int(rng.integers(0, rank + 1))
    return tuple(random_index(rng, extent) for extent in shape[:count])


def random_reshape(rng, size, rank):
    """A shape with `size` elements (or not, one time in ten), possibly with one -1."""
    if size == 0:
        shape = list(random_shape(rng, max(rank, 1)))
        shape[int(rng.integers(0, len(shape)))] = 0
        return tuple(shape)
    factors = []
    remaining = size
    for _ in range(int(rng.integers(0, 4))):
        divisors = [d for d in range(1, remaining + 1) if remaining % d == 0]
        factor = int(rng.choice(divisors))
        factors.append(factor)
        remaining //= factor
    factors.append(remaining)
    rng.shuffle(factors)
    if rng.random() < 0.1:
        factors[0] += 1  # wrong element count: both must refuse
    elif rng.random() < 0.3:
        factors[int(rng.integers(0, len(factors)))] = -1
    return tuple(factors)


class TensorSemantics(unittest.TestCase):
    def setUp(self):
        self.lib = library()
        self.ctx = self.lib.context()
        self.rng = np.random.default_rng(11)

    def assert_same_view(self, tensor, expected, what):
        actual = np.asarray(tensor)
        self.assertEqual(actual.shape, expected.shape, what)
        self.assertEqual(actual.dtype, expected.dtype, what)
        np.testing.assert_array_equal(actual, expected, err_msg=what)
        if expected.size > 0:
            self.assertEqual(actual.__array_interface__["data"][0],
                             expected.__array_interface__["data"][0], what)
            for axis, extent in enumerate(expected.shape):
                if extent > 1:
                    self.assertEqual(actual.strides[axis], expected.strides[axis],
                                     f"{what}: stride of axis {axis}")

    def base(self, case):
        """A swarm tensor and numpy's view of the same memory; some are SoA or transposed."""
        if case % 7 == 0:
            buffer = self.ctx.vec4(int(self.rng.integers(1, 40)))
        else:
            rank = int(self.rng.integers(1, 6))
            dtype = swarm.DTYPES[int(self.rng.integers(0, len(swarm.DTYPES)))][0]
            buffer = self.ctx.tensor(random_shape(self.rng, rank), dtype)
        tensor = buffer.tensor()
        array = np.asarray(tensor)
        array[...] = np.arange(array.size).reshape(array.shape).astype(array.dtype)
        if case % 5 == 0:
            tensor, array = tensor.T, array.T
        return tensor, array

    def test_random_slices_permutations_and_reshapes(self):
        reshapes_done = reshapes_refused = 0
        for case in range(CASES):
            tensor, array = self.base(case)
            key = random_key(self.rng, array.shape)
            what = f"case {case}: {array.dtype}{list(array.shape)} strides {array.strides}[{key}]"
            # A trailing Ellipsis makes numpy return a rank-0 view where it would otherwise
            # return a scalar (every axis indexed by an integer); swarm always returns a view.
            sliced = tensor[key]
            expected = array[key if Ellipsis in key else key + (Ellipsis,)]
            self.assert_same_view(sliced, expected, what)

            permutation = tuple(int(axis) for axis in self.rng.permutation(expected.ndim))
            self.assert_same_view(sliced.transpose(permutation), expected.transpose(permutation),
                                  f"{what}.transpose{permutation}")

            new_shape = random_reshape(self.rng, expected.size, expected.ndim)
            reshaped_what = f"{what}.reshape{new_shape}"
            no_copy = expected.view()
            try:
                no_copy.shape = new_shape
            except (AttributeError, ValueError):
                no_copy = None
            if no_copy is None:
                with self.assertRaises(swarm.SwarmError, msg=reshaped_what):
                    sliced.reshape(new_shape)
                reshapes_refused += 1
            else:
                self.assert_same_view(sliced.reshape(new_shape), no_copy, reshaped_what)
                reshapes_done += 1
        # Both outcomes were exercised many times.
        self.assertGreater(reshapes_done, CASES // 4)
        self.assertGreater(reshapes_refused, CASES // 20)

    def test_index_errors_match_numpy(self):
        tensor = self.ctx.tensor((3, 4), "f32").tensor()
        for key in [(3,), (0, -5), (0, 0, 0), (slice(None, None, 0),), (Ellipsis, Ellipsis)]:
            with self.subTest(key=key):
                with self.assertRaises((IndexError, ValueError)):
                    np.zeros((3, 4))[key]
                with self.assertRaises((IndexError, ValueError)):
                    tensor[key]

    def test_permutation_errors(self):
        tensor = self.ctx.tensor((3, 4, 5), "f32").tensor()
        with self.assertRaises(swarm.SwarmError) as caught:
            tensor.transpose(0, 0, 1)
        self.assertIn("not a permutation", str(caught.exception))
        with self.assertRaises(swarm.SwarmError):
            tensor.transpose(0, 1)


if __name__ == "__main__":
    main()
