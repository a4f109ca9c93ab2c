"""Context: a memory accountant and a thread pool (swarm_context), and what is made in one:
buffers, fused expressions on its threads, blur, neighbour lists, particle systems and robot
batches.

Closing a context from one thread while another thread's call runs in it is safe: each call
takes its own reference on the C handle (swarm_context_retain) for its duration, under a lock
close() also takes, so close() releases only the user's reference and the context's threads and
memory go with the last call. Calls after close() raise "use of a closed context"."""

import contextlib
import ctypes
import threading

import numpy as np

from . import _arguments
from ._handles import _Handle, _text, SwarmError
from ._structures import (_P, _GroundDesc, _ParticleSystemDesc, _RobotBatchDesc,
                          _SoftConstraintDesc)
from .particles import _INTERACTIONS, ParticleSystem
from .robots import _INTEGRATORS, RobotBatch
from .tensors import Buffer, Tensor, _shape_array, dtype_code


# The parameters of a soft constraint (swarm_c.h swarm_soft_constraint_desc), in its field order.
_SOFT_CONSTRAINT_FIELDS = tuple(name for name, _ in _SoftConstraintDesc._fields_)


def _soft_constraint(what, values):
    """A _SoftConstraintDesc of the dict `values` (any of _SOFT_CONSTRAINT_FIELDS; absent or 0:
    the default); an unknown key is a ValueError naming it."""
    unknown = set(values) - set(_SOFT_CONSTRAINT_FIELDS)
    if unknown:
        raise ValueError(f"unknown {what} parameters: {', '.join(sorted(unknown))} (expected "
                         f"{', '.join(_SOFT_CONSTRAINT_FIELDS)})")
    desc = _SoftConstraintDesc()
    for name, value in values.items():
        if name == "power":
            value = _arguments.integer(f"{what} power", value, "int")
        setattr(desc, name, value)
    return desc


class Context(_Handle):
    """A memory accountant and a thread pool. Objects made in it keep its memory and threads
    alive after close(); they are returned when the last of them goes."""

    _destroy = "swarm_context_destroy"
    _kind = "context"

    def __init__(self, lib, handle):
        super().__init__(lib, handle)
        self._lock = threading.Lock()

    def close(self):
        """Releases the user's reference; calls running in other threads keep theirs."""
        lock = getattr(self, "_lock", None)
        if lock is None:
            return super().close()
        with lock:
            return super().close()

    @contextlib.contextmanager
    def _reference(self):
        """The raw handle with a reference of this call's own, released when the call returns."""
        with self._lock:
            raw = self._handle
            self._lib._call("swarm_context_retain", raw)
        try:
            yield raw
        finally:
            self._lib._dll.swarm_context_destroy(raw)

    def _call(self, name, *args):
        """lib._call(name, context, *args), holding a reference on the context meanwhile."""
        with self._reference() as raw:
            self._lib._call(name, raw, *args)

    def _new_handle(self, name, *args):
        """lib._new_handle(name, context, *args), holding a reference on the context meanwhile."""
        with self._reference() as raw:
            return self._lib._new_handle(name, raw, *args)

    def _buffer(self, name, *args):
        return Buffer(self._lib, self._new_handle(name, *args))

    def vec4(self, count):
        return self._buffer("swarm_buffer_create_vec4", _arguments.integer("count", count))

    def f32_array(self, count):
        return self._buffer("swarm_buffer_create_f32_array", _arguments.integer("count", count))

    def u8_array(self, count):
        return self._buffer("swarm_buffer_create_u8_array", _arguments.integer("count", count))

    def image(self, width, height, dtype="f32"):
        return self._buffer("swarm_buffer_create_image", dtype_code(dtype),
                            _arguments.integer("width", width),
                            _arguments.integer("height", height))

    def image_batch(self, count, width, height, dtype="f32"):
        return self._buffer("swarm_buffer_create_image_batch", dtype_code(dtype),
                            _arguments.integer("count", count), _arguments.integer("width", width),
                            _arguments.integer("height", height))

    def tensor(self, shape, dtype="f32"):
        """A zero C-order tensor buffer."""
        array, rank = _shape_array(shape)
        return self._buffer("swarm_buffer_create_tensor", dtype_code(dtype), array, rank)

    def load_npy(self, path):
        return self._buffer("swarm_load_npy", _arguments.text("path", str(path)))

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
        self._call("swarm_gaussian_blur", src._handle, dst._handle,
                   _arguments.integer("ksize", ksize), sigma)

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
        self._call("swarm_neighbors", tensor._handle, radius, ctypes.byref(offsets),
                   ctypes.byref(indices))
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
        if box is None:
            low, high = (0.0,) * 3, (0.0,) * 3
        else:
            corners = list(box) if isinstance(box, (tuple, list)) else None
            if corners is None or len(corners) != 2:
                raise SwarmError("invalid argument",
                                 f"particle_system: box must be ((min x, y, z), (max x, y, z)), "
                                 f"got {box!r}")
            low = _arguments.vector("box minimum", corners[0], 3)
            high = _arguments.vector("box maximum", corners[1], 3)
        desc = _ParticleSystemDesc(_INTERACTIONS[interaction], (ctypes.c_float * 3)(*low),
                                   (ctypes.c_float * 3)(*high),
                                   _arguments.integer("seed", seed, "uint64"))
        handle = self._new_handle("swarm_particle_system_create",
                                  _arguments.integer("count", count), ctypes.byref(desc))
        return ParticleSystem(self._lib, handle)

    def robot_batch(self, model, robots, torque=False, kp=None, kd=None, armature=None,
                    gravity=None, integrator="euler", end_effector=None, contacts=False,
                    contact_links=(), contact_radius=0.0, ground=None, limits=None,
                    limit_tolerance=None, max_joint_speed=None, max_base_angular_speed=None,
                    max_step_turn=None, collisions=False, world_contacts=False):
        """A batch of `robots` robots of `model` in this context (its budget applies).

        torque: rigid-body dynamics (torque_step) instead of the kinematic control_step.
        kp, kd, armature: per joint (model.dof values) or one number for every joint; None: the
        defaults (kp 400, kd 40, no armature). gravity: (gx, gy, gz), None: (0, 0, -9.81).
        integrator: "euler" or "rk4". end_effector: the link IK steers (None: the model's
        default).

        Joint limits and ground contacts are soft constraints with MuJoCo's parameters and force
        law (swarm_c.h swarm_soft_constraint_desc): a dict of any of time_constant and
        damping_ratio (solref), impedance_min, impedance_max, width, midpoint and power (solimp,
        power an int) and max_push_speed; a parameter absent or 0 keeps its default (0.02 s, 1,
        0.9, 0.95, 0.001, 0.5, 2, 3 m/s or rad/s), so a flat impedance is impedance_min ==
        impedance_max. At rest a constraint of impedance d carries a load f at the depth r where
        k d^2 r / ((1 - d) w0) = f, k = 1 / (impedance_max time_constant damping_ratio)^2, w0
        the row's inverse inertia at q = 0.

        Torque mode only (None: the default):
        limits: every joint limit's soft constraint, a dict as above.
        limit_tolerance: a joint pushed into a limit by its whole effort limit settles at most
        this far past it, rad or m (0.01); the limit is made stiffer where it would not.
        max_joint_speed, max_base_angular_speed: speed caps of every step, rad/s or m/s (100
        each; float("inf"): none). max_step_turn: the furthest a joint or a floating base turns
        in one Euler step, rad (0.25), which caps the speeds at max_step_turn / dt too.
        contacts: spheres of contact_radius at the links named in contact_links (empty: every
        leaf link) against the ground: a dict with height (0 m), friction (0.8; 0 is
        frictionless) and the soft constraint's parameters above, for the normal and the
        sticking friction rows. A contact sticks (springing back to where it stuck) or slides
        with Coulomb friction, |f_t| <= friction f_n.

        collisions: an MJCF model's collision shapes and contact pairs, by its file's rules:
        detect_contacts() fills shape_contacts (contact_slots() says what each slot is).
        world_contacts (torque mode, with collisions): the pairs of a link's shape with a world
        shape (an MJCF scene's floor, a table) act in every step, one contact per slot after the
        ground contacts, with each pair's friction, solref, solimp and margin; their geometry at
        the step's start is contact_geometry.

        Parameters out of range raise SwarmError naming the field (e.g.
        "config.torque.limits.damping_ratio is -1, expected a finite value > 0")."""
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
        desc.robots = _arguments.integer("robots", robots)
        desc.torque = torque
        desc.dof = model.dof
        desc.kp, desc.kd = per_joint("kp", kp), per_joint("kd", kd)
        desc.armature = per_joint("armature", armature)
        if gravity is not None:
            array = (ctypes.c_float * 3)(*_arguments.vector("gravity", gravity, 3))
            keep.append(array)
            desc.gravity = ctypes.cast(array, ctypes.POINTER(ctypes.c_float))
        if integrator not in _INTEGRATORS:
            raise ValueError(f"integrator must be one of {', '.join(_INTEGRATORS)}, got "
                             f"{integrator!r}")
        desc.integrator = _INTEGRATORS[integrator]
        desc.end_effector = (None if end_effector is None
                             else _arguments.text("end_effector", end_effector))
        desc.contacts = contacts
        desc.collisions = collisions
        desc.world_contacts = world_contacts
        names = [_arguments.text(f"contact_links[{index}]", name)
                 for index, name in enumerate(contact_links)]
        if names:
            array = (ctypes.c_char_p * len(names))(*names)
            keep.append(array)
            desc.contact_links = ctypes.cast(array, ctypes.POINTER(ctypes.c_char_p))
        desc.contact_link_count = len(names)
        desc.contact_radius = contact_radius
        if ground is not None:
            values = {"height": 0.0, "friction": 0.8}  # used as given: friction 0 is frictionless
            unknown = set(ground) - set(values) - set(_SOFT_CONSTRAINT_FIELDS)
            if unknown:
                raise ValueError(f"unknown ground parameters: {', '.join(sorted(unknown))} "
                                 f"(expected height, friction, "
                                 f"{', '.join(_SOFT_CONSTRAINT_FIELDS)})")
            values.update((name, value) for name, value in ground.items() if name in values)
            soft = _soft_constraint("ground", {name: value for name, value in ground.items()
                                               if name in _SOFT_CONSTRAINT_FIELDS})
            ground_desc = _GroundDesc(values["height"], values["friction"], soft)
            keep.append(ground_desc)
            desc.ground = ctypes.pointer(ground_desc)
        if limits is not None:
            limits_desc = _soft_constraint("limits", limits)
            keep.append(limits_desc)
            desc.limits = ctypes.pointer(limits_desc)
        for name, value in (("limit_tolerance", limit_tolerance),
                            ("max_joint_speed", max_joint_speed),
                            ("max_base_angular_speed", max_base_angular_speed),
                            ("max_step_turn", max_step_turn)):
            if value is not None:
                setattr(desc, name, value)
        handle = self._new_handle("swarm_robot_batch_create", model._handle, ctypes.byref(desc))
        return RobotBatch(self._lib, handle, model)

    @property
    def bytes_in_use(self):
        value = ctypes.c_size_t()
        self._call("swarm_context_bytes_in_use", ctypes.byref(value))
        return value.value

    def memory_report(self):
        with self._reference() as raw:
            return _text(self._lib, "swarm_context_memory_report", raw)

