"""Random slicing, permutation and reshape cases with numpy's answers, for tensor_test.cc.

Usage: tensor_numpy_cases.py SEED COUNT. Each case is one line of space-separated fields:
  S rank shape... slices(start stop step, 'N' = omitted)... : rank shape... values...
  P rank shape... axes... : rank shape... values...
  R rank shape... slices... newrank newshape... : ok rank shape... values...   or  : copy
where the source is np.arange(size).reshape(shape) and values are the result's elements in C
order. R cases reshape a sliced view without copying (numpy's in-place shape assignment), which
fails exactly when swarm's Reshaped must fail.
"""
import random
import sys

import numpy as np


def bound(value):
    return "N" if value is None else str(value)


def random_slices(rng, shape):
    slices = []
    for extent in shape:
        start = rng.choice([None, rng.randint(-extent - 2, extent + 2)])
        stop = rng.choice([None, rng.randint(-extent - 2, extent + 2)])
        step = rng.choice([None, 1, 2, 3, -1, -2, -3])
        slices.append(slice(start, stop, step))
    return slices


def slice_fields(slices):
    return [f"{bound(s.start)} {bound(s.stop)} {bound(s.step)}" for s in slices]


def result_fields(array):
    return [str(array.ndim)] + [str(e) for e in array.shape] + [str(v) for v in array.ravel()]


def main():
    rng = random.Random(int(sys.argv[1]))
    for _ in range(int(sys.argv[2])):
        rank = rng.randint(0, 4)
        shape = [rng.randint(0, 5) if rng.random() < 0.1 else rng.randint(1, 5) for _ in range(rank)]
        base = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
        head = [str(rank)] + [str(e) for e in shape]
        kind = rng.choice("SPR")
        if kind == "S" or rank == 0:
            slices = random_slices(rng, shape)
            print(" ".join(["S"] + head + slice_fields(slices) + [":"] +
                           result_fields(base[tuple(slices)])))
        elif kind == "P":
            axes = list(range(rank))
            rng.shuffle(axes)
            print(" ".join(["P"] + head + [str(a) for a in axes] + [":"] +
                           result_fields(base.transpose(axes))))
        else:
            slices = random_slices(rng, shape)
            transpose = rng.random() < 0.5
            view = base[tuple(slices)]
            if transpose:
                view = view.T
            # Reshape targets: the element count split into random factors, or flattened.
            count = view.size
            new_shape = []
            remaining = count
            for _ in range(rng.randint(0, 3)):
                factors = [f for f in range(1, remaining + 1) if remaining % f == 0] or [1]
                factor = rng.choice(factors)
                new_shape.append(factor)
                remaining //= max(factor, 1)
            new_shape.append(remaining)
            if count == 0:
                new_shape = [0]
            fields = ["R"] + head + slice_fields(slices) + ["T" if transpose else "-",
                                                            str(len(new_shape))]
            fields += [str(e) for e in new_shape] + [":"]
            attempt = view.view()
            try:
                attempt.shape = new_shape
                fields += ["ok"] + result_fields(attempt)
            except AttributeError:
                fields += ["copy"]
            print(" ".join(fields))


main()
