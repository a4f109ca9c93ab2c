"""Writes the fuzzer's seed corpus: small .npy files numpy writes for every dtype swarm reads, in
C and Fortran order, format versions 1.0, 2.0 and 3.0, shapes of rank 0 to 3 (an empty one too).

Usage: /usr/bin/python3 tests/fuzz/make_seeds.py OUTPUT_DIR
"""
import io
import os
import sys

import numpy as np

DESCRS = ['<f4', '<f8', '|i1', '<i2', '<i4', '<i8', '|u1', '<u2', '<u4', '<u8', '<c8', '<c16']
SHAPES = [(), (3,), (2, 3), (2, 0, 2), (2, 2, 3)]


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for descr in DESCRS:
        for shape in SHAPES:
            for order in 'CF':
                for version in ((1, 0), (2, 0), (3, 0)):
                    a = np.arange(int(np.prod(shape)), dtype=descr).reshape(shape)
                    if order == 'F':
                        a = np.asfortranarray(a)
                    buffer = io.BytesIO()
                    np.lib.format.write_array(buffer, a, version=version)
                    name = 'seed-%s-%s-%s-%d.npy' % (descr[1:], 'x'.join(map(str, shape)) or
                                                     'scalar', order, version[0])
                    with open(os.path.join(out, name), 'wb') as f:
                        f.write(buffer.getvalue())


if __name__ == '__main__':
    main()
