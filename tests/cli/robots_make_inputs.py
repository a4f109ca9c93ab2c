"""Writes the q files the swarm-robots fk refusal tests read (UR5: q_count 6) and the terrain
the --terrain tests stand on, with numpy.

usage: robots_make_inputs.py <dir>"""

import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
good = np.zeros((5, 6), np.float32)
np.save(os.path.join(out, "q_good.npy"), good)
np.save(os.path.join(out, "q_wrong_columns.npy"), np.zeros((5, 4), np.float32))
np.save(os.path.join(out, "q_1d.npy"), np.zeros(6, np.float32))
np.save(os.path.join(out, "q_int32.npy"), np.zeros((5, 6), np.int32))
np.save(os.path.join(out, "q_empty.npy"), np.zeros((0, 6), np.float32))
nan = good.copy()
nan[2, 3] = np.nan
np.save(os.path.join(out, "q_nan.npy"), nan)
huge = good.astype(np.float64)
huge[4, 1] = 1e300
np.save(os.path.join(out, "q_huge64.npy"), huge)
with open(os.path.join(out, "q_corrupt.npy"), "w") as f:
    f.write("not an npy file")
# A terrain for --terrain: gentle hills (81 x 81 heights, rows from -y).
y, x = np.mgrid[0:81, 0:81] * 0.1
np.save(os.path.join(out, "hills.npy"), (np.sin(0.9 * x) * np.cos(0.7 * y)).astype(np.float32))
np.save(os.path.join(out, "hills_1d.npy"), np.zeros(81, np.float32))
