"""swarm from Python: buffers, tensor views and kernels through the C API (swarm_c.h) and ctypes.

    import numpy as np
    import swarm

    lib = swarm.load()   # the libswarm_c.so installed with the package (cmake --install)
    ctx = lib.context(budget_bytes=96 << 20, threads=2)
    positions, velocities = ctx.vec4(1000), ctx.vec4(1000)
    v = velocities.numpy()            # writable float32 (1000, 4), no copy
    v[:, 1] = 2.0                     # seen by swarm's kernels
    lib.integrate_euler(positions, velocities, gravity=(0, -9.81, 0), drag=0.0, dt=1 / 60)
    print(positions.tensor()[:3])     # Nx-style text
    frozen = np.from_dlpack(positions.tensor())   # read-only, also no copy

Robots: a batch of R robots of one URDF, its state as writable numpy views (no copy), stepped with
the caller's torques (a numpy policy) or swarm's controllers:

    model = lib.robot_model("panda.urdf")
    batch = ctx.robot_batch(model, robots=4096, torque=True)
    q, qd, tau = batch.q, batch.qd, batch.torque      # float32 (4096, 7) views of the state
    for _ in range(1000):
        tau[:] = policy(q, qd)                        # numpy writes into swarm's arrays
        batch.torque_step(0.002)                      # controller "none": the caller's torques

Arrays from Tensor.numpy() / np.asarray(tensor) (and a buffer's, robot batch's or particle
system's views) keep swarm's memory alive through their `base`, a private owner of the view's C
handle; DLPack capsules keep it alive through their deleter. close() (or leaving a with block)
releases only the object's own reference: a closed object refuses every use ("use of a closed
tensor: the tensor is closed"), arrays taken before stay valid, and the memory returns to the
context's budget when the last of them goes. A context may be closed while other threads' calls
run in it: each call holds its own reference. Integers, texts and fixed-length tuples are
checked before ctypes converts them (no wrapped sizes, no text cut at a NUL). Errors raise
SwarmError carrying the C API's status name and message.

swarm.load() finds the libswarm_c.so that `cmake --install` put with this package (a path relative
to the package, so a moved prefix still works), or else the one the dynamic loader finds; from a
build tree, give the path: swarm.load("build/release/engine/c_api/libswarm_c.so").

Modules: _library (finding and loading libswarm_c.so, the signature table, Library, load),
_structures (the ctypes mirrors of swarm_c.h's and DLPack's structures), _handles (SwarmError and
the handle base), tensors (dtypes, Buffer, Tensor, DLPack capsules), expressions (fused
expressions, PreparedExpression), context (Context), particles (ParticleSystem) and robots
(RobotModel, RobotBatch, RobotTask, TaskTotals). Everything public is importable from swarm.

Needs only ctypes and numpy 1.24 (Debian 12's; numpy before 1.23.5 frees DLPack tensors without
holding the GIL).
"""

from ._handles import SwarmError
from ._library import Library, LibraryNotFoundError, load
from ._structures import (MAX_RANK, TASK_TOTALS_WORDS, DLDataType, DLDevice, DLManagedTensor,
                          DLTensor)
from .context import Context
from .expressions import PreparedExpression
from .particles import ParticleSystem
from .robots import RobotBatch, RobotModel, RobotTask, TaskTotals
from .tensors import DTYPES, Buffer, Tensor, dtype_code

__all__ = ["load", "Library", "Context", "Buffer", "Tensor", "RobotModel", "RobotBatch",
           "PreparedExpression", "RobotTask", "SwarmError", "DTYPES", "LibraryNotFoundError"]
