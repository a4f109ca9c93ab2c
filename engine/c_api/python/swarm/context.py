"""Context: a memory accountant and a thread pool (swarm_context), and what is made in one:
buffers, fused expressions on its threads, blur, neighbour lists, particle systems and robot
batches."""

import ctypes
import operator

import numpy as np

from ._handles import _Handle, _text, SwarmError
from ._structures import _P, _GroundDesc, _ParticleSystemDesc, _RobotBatchDesc
from .particles import _INTERACTIONS, ParticleSystem
from .robots import _INTEGRATORS, RobotBatch
from .tensors import Buffer, Tensor, _shape_array, dtype_code


class Context(_Handle):
    _destroy = "swarm_context_destroy"

    def _buffer(self, name, *args):
        return Buffer(self._lib, self._lib._new_handle(name, self._handle, *args))

    def vec4(self, count):
        return self._buffer("swarm_buffer_create_vec4", count)

    def f32_array(self, count):
        return self._buffer("swarm_buffer_create_f32_array", count)

    def u8_array(self, count):
        return self._buffer("swarm_buffer_create_u8_array", count)

    def image(self, width, height, dtype="f32"):
        return self._buffer("swarm_buffer_create_image", dtype_code(dtype), width, height)

    def image_batch(self, count, width, height, dtype="f32"):
        return self._buffer("swarm_buffer_create_image_batch", dtype_code(dtype), count, width,
                            height)

    def tensor(self, shape, dtype="f32"):
        """A zero C-order tensor buffer."""
        array, rank = _shape_array(shape)
        return self._buffer("swarm_buffer_create_tensor", dtype_code(dtype), array, rank)

    def load_npy(self, path):
        return self._buffer("swarm_load_npy", str(path).encode())

    def from_numpy(self, array):
        """A new tensor buffer holding a copy of `array`."""
        array = np.asarray(array)
        buffer = self.tensor(array.shape, array.dtype)
        np.copyto(buffer.numpy(), array, casting="no" if array.dtype.isnative else "equiv")
        return buffer

    def evaluate(self, expression, out=None, **operands):
        """Library.evaluate: a fused expression over named float32 arrays, e.g.
        ctx.evaluate("(a - b) * c + 2", a=a, b=b, c=c, out=out)."""
        return self._lib.evaluate(expression, out, self, **operands)

    def evaluate_sum(self, expression, **operands):
        """Library.evaluate_sum: the fused sum of an expression's elements."""
        return self._lib.evaluate_sum(expression, **operands)

    def evaluate_reduce(self, op, expression, **operands):
        """Library.evaluate_reduce: a fused sum, mean, min or max of an expression."""
        return self._lib.evaluate_reduce(op, expression, **operands)

    def prepare(self, expression, out=None, **operands):
        """Library.prepare on this context's threads: an expression checked once, e.g.
        step = ctx.prepare("p + v * 0.01", out=p, p=p, v=v); then step() every frame."""
        return self._lib.prepare(expression, out, self, **operands)

    def gaussian_blur(self, src, dst, ksize=5, sigma=1.0):
        """cv::GaussianBlur of an image (or image batch) buffer into another, border reflect-101."""
        self._lib._call("swarm_gaussian_blur", self._handle, src._handle, dst._handle, ksize,
                        sigma)

    def neighbors(self, points, radius):
        """Every point's neighbours within `radius`: `points` is float32 [N, 3] (a numpy array,
        copied into swarm, or a swarm Tensor). Returns (offsets, indices), numpy views of two
        new swarm buffers: offsets int64 [N + 1], indices int32; row i, indices[offsets[i]:
        offsets[i + 1]], lists every j != i with |p_i - p_j| <= radius, ascending."""
        if isinstance(points, Tensor):
            tensor = points
        else:
            array = np.asarray(points)
            if array.dtype != np.float32 or array.ndim != 2 or array.shape[1] != 3:
                raise SwarmError("invalid argument",
                                 "neighbors: points must be a float32 array [N, 3], got "
                                 f"{array.dtype} {list(array.shape)}")
            tensor = self._lib.from_dlpack(np.ascontiguousarray(array), read_only=True)
        offsets = _P()
        indices = _P()
        self._lib._call("swarm_neighbors", self._handle, tensor._handle, radius,
                        ctypes.byref(offsets), ctypes.byref(indices))
        return Buffer(self._lib, offsets).numpy(), Buffer(self._lib, indices).numpy()

    def particle_system(self, count, interaction, box=None, seed=0):
        """An interacting particle system: interaction "granular" (a block of grains collapsing),
        "fluid" (a dam break) or "flock", `count` particles in `box` ((min xyz), (max xyz);
        None: the demo's 20 m box). Its positions, velocities and ids are zero-copy numpy
        views, valid across steps."""
        if interaction not in _INTERACTIONS:
            raise SwarmError("invalid argument",
                             f"particle_system: interaction must be one of "
                             f"{', '.join(_INTERACTIONS)}, got {interaction!r}")
        low, high = box if box is not None else ((0.0,) * 3, (0.0,) * 3)
        desc = _ParticleSystemDesc(_INTERACTIONS[interaction], (ctypes.c_float * 3)(*low),
                                   (ctypes.c_float * 3)(*high), seed)
        handle = self._lib._new_handle("swarm_particle_system_create", self._handle, count,
                                       ctypes.byref(desc))
        return ParticleSystem(self._lib, handle)

    def robot_batch(self, model, robots, torque=False, kp=None, kd=None, armature=None,
                    gravity=None, integrator="euler", end_effector=None, contacts=False,
                    contact_links=(), contact_radius=0.0, ground=None):
        """A batch of `robots` robots of `model` in this context (its budget applies).

        torque: rigid-body dynamics (torque_step) instead of the kinematic control_step.
        kp, kd, armature: per joint (model.dof values) or one number for every joint; None: the
        defaults (kp 400, kd 40, no armature). gravity: (gx, gy, gz), None: (0, 0, -9.81).
        integrator: "euler" or "rk4". contacts: compliant spheres of contact_radius at the links
        named in contact_links (empty: every leaf link) against the ground, a dict with height,
        stiffness, damping, friction and slip_velocity (None: 0, 2e4, 40, 0.8, 0.1)."""
        keep = []  # ctypes arrays the desc points into, alive until the call returns

        def per_joint(name, values):
            if values is None:
                return None
            values = np.asarray(values, dtype=np.float64).reshape(-1)
            if values.size == 1:
                values = np.repeat(values, model.dof)
            if values.size != model.dof:
                raise ValueError(f"{name}: expected {model.dof} values (one per joint) or one, "
                                 f"got {values.size}")
            array = (ctypes.c_float * max(model.dof, 1))(*values.tolist())
            keep.append(array)
            return ctypes.cast(array, ctypes.POINTER(ctypes.c_float))

        desc = _RobotBatchDesc()
        desc.robots = operator.index(robots)
        desc.torque = torque
        desc.dof = model.dof
        desc.kp, desc.kd = per_joint("kp", kp), per_joint("kd", kd)
        desc.armature = per_joint("armature", armature)
        if gravity is not None:
            array = (ctypes.c_float * 3)(*[float(g) for g in gravity])
            keep.append(array)
            desc.gravity = ctypes.cast(array, ctypes.POINTER(ctypes.c_float))
        if integrator not in _INTEGRATORS:
            raise ValueError(f"integrator must be one of {', '.join(_INTEGRATORS)}, got "
                             f"{integrator!r}")
        desc.integrator = _INTEGRATORS[integrator]
        desc.end_effector = None if end_effector is None else end_effector.encode()
        desc.contacts = contacts
        names = [name.encode() for name in contact_links]
        if names:
            array = (ctypes.c_char_p * len(names))(*names)
            keep.append(array)
            desc.contact_links = ctypes.cast(array, ctypes.POINTER(ctypes.c_char_p))
        desc.contact_link_count = len(names)
        desc.contact_radius = contact_radius
        if ground is not None:
            values = {"height": 0.0, "stiffness": 2e4, "damping": 40.0, "friction": 0.8,
                      "slip_velocity": 0.1}
            unknown = set(ground) - set(values)
            if unknown:
                raise ValueError(f"unknown ground parameters: {', '.join(sorted(unknown))}")
            values.update(ground)
            ground_desc = _GroundDesc(**values)
            keep.append(ground_desc)
            desc.ground = ctypes.pointer(ground_desc)
        handle = self._lib._new_handle("swarm_robot_batch_create", self._handle, model._handle,
                                       ctypes.byref(desc))
        return RobotBatch(self._lib, handle, model)

    @property
    def bytes_in_use(self):
        value = ctypes.c_size_t()
        self._lib._call("swarm_context_bytes_in_use", self._handle, ctypes.byref(value))
        return value.value

    def memory_report(self):
        return _text(self._lib, "swarm_context_memory_report", self._handle)

