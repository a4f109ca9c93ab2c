"""Robots: RobotModel (URDF or MJCF), RobotBatch (R robots stepped in lockstep, their state as numpy
views), RobotTask (swarm-robots' tasks on a batch) and TaskTotals (a task's mergeable errors)."""

import ctypes

import numpy as np

from . import _arguments
from ._handles import _Handle, _text
from ._structures import (TASK_TOTALS_WORDS, _ContactSlotInfo, _RobotModelInfo, _RobotTaskDesc,
                          _TaskSummary, _TaskTotals)
from .tensors import Tensor

_TORQUE_CONTROLLERS = {"none": 0, "pd-gravity": 1, "computed-torque": 2, "actuators": 3}
_ROBOT_TASKS = {"reach": 0, "track": 1, "random": 2, "stand": 3}
_INTEGRATORS = {"euler": 0, "rk4": 1}
# What the URDF loader does with <collision> elements (swarm_urdf_collisions).
_URDF_COLLISIONS = {"ignore": 0, "primitives": 1, "skip-meshes": 2}
# swarm_robot_array values of the RobotBatch properties.
_ROBOT_ARRAYS = {"q": 0, "qd": 1, "q_target": 2, "qd_target": 3, "qdd_target": 4, "torque": 5,
                 "qdd": 6, "base_velocity": 7, "link_poses": 8, "target_pose": 9,
                 "contact_forces": 10, "limit_forces": 11, "contact_friction_forces": 12,
                 "contact_sliding": 13, "ctrl": 14, "shape_contacts": 15,
                 "contact_geometry": 16}


class RobotModel(_Handle):
    """A robot read from URDF or MJCF: counts and names (links, q values, velocities), and an MJCF
    model's actuators (names, the columns of RobotBatch.ctrl) and keyframes (keyframe(name))."""

    _destroy = "swarm_robot_model_destroy"
    _kind = "robot model"

    def __init__(self, lib, handle):
        super().__init__(lib, handle)
        info = _RobotModelInfo()
        lib._call("swarm_robot_model_info_get", handle, ctypes.byref(info))
        self.dof = info.dof
        self.q_count = info.q_count
        self.velocity_count = info.velocity_count
        self.floating_base = bool(info.floating_base)
        self.name = self._names(0, 1)[0]
        self.links = self._names(1, info.links)
        self.q_names = self._names(2, info.q_count)
        self.velocity_names = self._names(3, info.velocity_count)
        self.default_end_effector = self.links[info.default_end_effector]
        self.actuators = self._names(4, info.actuators)
        self.keyframes = self._names(5, info.keyframes)

    def keyframe(self, name):
        """An MJCF keyframe in swarm's order: {"q": q_count values, "velocities": velocity_count
        (a floating base's in its body frame), "ctrl": one per actuator}, float32 numpy arrays."""
        if name not in self.keyframes:
            raise KeyError(f"no keyframe {name!r}; the model has {self.keyframes}")
        q = np.zeros(self.q_count, np.float32)
        velocities = np.zeros(self.velocity_count, np.float32)
        ctrl = np.zeros(len(self.actuators), np.float32)
        pointer = ctypes.POINTER(ctypes.c_float)
        self._lib._call("swarm_robot_model_keyframe", self._handle, self.keyframes.index(name),
                        q.ctypes.data_as(pointer), velocities.ctypes.data_as(pointer),
                        ctrl.ctypes.data_as(pointer))
        return {"q": q, "velocities": velocities, "ctrl": ctrl}

    def _names(self, kind, count):
        return [_text(self._lib, "swarm_robot_model_name", self._handle, kind,
                      _arguments.integer("index", index))
                for index in range(count)]


class TaskTotals:
    """A task's errors as totals that merge (swarm_c.h swarm_task_totals): batches of a split run
    merged in any order summarize to the bits of one batch of all the robots. `words` is a
    uint64 numpy array of TASK_TOTALS_WORDS values to send between processes (mpi4py's
    comm.gather); TaskTotals(lib, words) takes it back. TaskTotals(lib) is the totals of no
    robots."""

    def __init__(self, lib, words=None):
        self._lib = lib
        self._totals = _TaskTotals()
        if words is not None:
            values = np.ascontiguousarray(words, dtype=np.uint64)
            if values.shape != (TASK_TOTALS_WORDS,):
                raise ValueError(f"task totals are {TASK_TOTALS_WORDS} uint64 words, got shape "
                                 f"{values.shape}")
            ctypes.memmove(self._totals.words, values.ctypes.data, values.nbytes)

    @property
    def words(self):
        return np.frombuffer(bytes(self._totals.words), dtype=np.uint64).copy()

    def merge(self, other):
        """self = self merged with other; returns self."""
        self._lib._call("swarm_task_totals_merge", ctypes.byref(self._totals),
                        ctypes.byref(other._totals))
        return self

    def summary(self):
        """A dict: robots, successes, success_rate, the means and maxima of the position,
        orientation and joint errors."""
        out = _TaskSummary()
        self._lib._call("swarm_task_totals_summary", ctypes.byref(self._totals), ctypes.byref(out))
        return {name: getattr(out, name) for name, _ in _TaskSummary._fields_}


class RobotTask(_Handle):
    """RobotBatch.task's result: step(step, dt) runs step `step` (0, 1, 2, ...) of the task;
    totals() measures the batch's errors against the task's goals as mergeable TaskTotals."""

    _destroy = "swarm_robot_task_destroy"
    _kind = "robot task"

    def __init__(self, lib, handle, batch):
        super().__init__(lib, handle)
        self.batch = batch

    def step(self, step, dt):
        self._lib._call("swarm_robot_task_step", self._handle,
                        _arguments.integer("step", step, "uint64"), dt)

    def totals(self):
        totals = TaskTotals(self._lib)
        self._lib._call("swarm_robot_task_totals", self._handle, ctypes.byref(totals._totals))
        return totals


class RobotBatch(_Handle):
    """R robots of one model stepped in lockstep. Each state property is a numpy view of
    swarm's arrays (float32, robot r in row r; link_poses is (R, links, 7) px py pz qx qy qz
    qw): writes are seen by the next step, steps update the arrays in place. qdd, link_poses
    and the constraint forces are read-only:
      limit_forces             (R, dof) each joint limit's force in the last step (torque mode;
                               (R, 0) in a kinematic batch), > 0 pushing the joint back into its
                               range (+force on the joint at its lower limit, -force at its
                               upper), 0 while the limit is inactive
      contact_forces           (R, contacts) each contact's normal force in the last step, N
                               (the ground contacts, then one per world contact slot)
      contact_friction_forces  (R, contacts, 2) its friction force along the contact's
                               tangents (x y in the world for a ground contact), N
      contact_sliding          (R, contacts) 1 while the contact slides, 0 while it sticks
      contact_geometry         (R, contacts, 7) distance, point x y z and the unit normal
                               pushing the robot, at the last step's start
      shape_contacts           (R, slots, 7) collisions=True: each contact slot's distance, point
                               and normal as of the last detect_contacts()

    Views keep the batch's memory alive: each holds a C tensor handle, which holds the batch's
    state, so close() ends this object's use (every method and property then raises "use of a
    closed robot batch") while arrays taken before stay valid; the memory returns to the
    context's budget when the last of them goes."""

    _destroy = "swarm_robot_batch_destroy"
    _kind = "robot batch"

    def __init__(self, lib, handle, model):
        super().__init__(lib, handle)
        self.model = model
        size = ctypes.c_size_t()
        lib._call("swarm_robot_batch_size", handle, ctypes.byref(size))
        self.size = size.value
        self._views = {}

    def tensor(self, name):
        """The swarm Tensor of one state array ("q", "qd", "torque", "link_poses", ...)."""
        if name not in _ROBOT_ARRAYS:
            raise KeyError(f"no robot state array {name!r}; there are {', '.join(_ROBOT_ARRAYS)}")
        return Tensor(self._lib, self._lib._new_handle("swarm_robot_batch_tensor", self._handle,
                                                       _ROBOT_ARRAYS[name]))

    def close(self):
        self._views = {}
        super().close()

    def _view(self, name):
        self._handle  # noqa: B018 - raises once closed, before a cached view is handed out
        if name not in self._views:
            self._views[name] = self.tensor(name).numpy()
        return self._views[name]

    q = property(lambda self: self._view("q"))
    qd = property(lambda self: self._view("qd"))
    q_target = property(lambda self: self._view("q_target"))
    qd_target = property(lambda self: self._view("qd_target"))
    qdd_target = property(lambda self: self._view("qdd_target"))
    torque = property(lambda self: self._view("torque"))
    qdd = property(lambda self: self._view("qdd"))
    base_velocity = property(lambda self: self._view("base_velocity"))
    link_poses = property(lambda self: self._view("link_poses"))
    target_pose = property(lambda self: self._view("target_pose"))
    contact_forces = property(lambda self: self._view("contact_forces"))
    contact_friction_forces = property(lambda self: self._view("contact_friction_forces"))
    contact_sliding = property(lambda self: self._view("contact_sliding"))
    limit_forces = property(lambda self: self._view("limit_forces"))
    ctrl = property(lambda self: self._view("ctrl"))
    shape_contacts = property(lambda self: self._view("shape_contacts"))
    contact_geometry = property(lambda self: self._view("contact_geometry"))

    def detect_contacts(self):
        """A batch made with collisions=True: every robot's contacts at its current link poses into
        shape_contacts, (R, slots, 7): distance (m, negative: penetrating; the float32 maximum:
        the slot holds no contact), point x y z halfway between the surfaces, unit normal x y z
        from the slot's first shape to its second (contact_slots())."""
        self._lib._call("swarm_robot_batch_detect_contacts", self._handle)

    def contact_slots(self):
        """What each contact slot belongs to: a list of dicts with the pair's index, its two
        shapes' names ("" when unnamed) and links (None: fixed in the world), and the margin
        within which MuJoCo's rule lets the contact act."""
        count = ctypes.c_size_t()
        self._lib._call("swarm_robot_batch_contact_slots", self._handle, ctypes.byref(count))
        slots = []
        links = self.model.links
        for slot in range(count.value):
            info = _ContactSlotInfo()
            self._lib._call("swarm_robot_batch_contact_slot", self._handle, slot,
                            ctypes.byref(info))
            slots.append({"pair": info.pair, "shape1": info.shape1.decode(),
                          "shape2": info.shape2.decode(),
                          "link1": links[info.link1] if info.link1 >= 0 else None,
                          "link2": links[info.link2] if info.link2 >= 0 else None,
                          "margin": info.margin})
        return slots

    def forward_kinematics(self):
        """link_poses = FK(q)."""
        self._lib._call("swarm_robot_batch_forward_kinematics", self._handle)

    def control_step(self, dt):
        """Kinematic batches: PD toward q_target, integration with limits, FK."""
        self._lib._call("swarm_robot_batch_control_step", self._handle, dt)

    def ik_step(self):
        """One damped-least-squares step writing q_target toward target_pose."""
        self._lib._call("swarm_robot_batch_ik_step", self._handle)

    def torque_step(self, dt, controller="none"):
        """Torque batches: the controller's torques ("none": the caller's, in .torque;
        "pd-gravity"; "computed-torque"; "actuators": an MJCF model's, from .ctrl), the joint
        limits' and contacts' soft constraints, forward dynamics, integration, FK."""
        if controller not in _TORQUE_CONTROLLERS:
            raise ValueError(f"controller must be one of {', '.join(_TORQUE_CONTROLLERS)}, got "
                             f"{controller!r}")
        self._lib._call("swarm_robot_batch_torque_step", self._handle, dt,
                        _TORQUE_CONTROLLERS[controller])

    def state_hash(self):
        """xxHash of the state, array by array."""
        value = ctypes.c_uint64()
        self._lib._call("swarm_robot_batch_state_hash", self._handle, ctypes.byref(value))
        return value.value

    def task(self, task="reach", seed=1, first_robot=0, torque=False, controller="pd-gravity"):
        """swarm-robots' task on this batch ("reach", "track", "random" or "stand"), started now:
        robot r draws its goals as robot first_robot + r of a larger run, so batches of
        consecutive robot ranges (one per process) do what one batch of them all does. torque:
        torque steps with `controller` (a batch created with torque=True). Returns a RobotTask
        whose step(step, dt) advances it."""
        if task not in _ROBOT_TASKS:
            raise ValueError(f"task must be one of {', '.join(_ROBOT_TASKS)}, got {task!r}")
        if controller not in _TORQUE_CONTROLLERS:
            raise ValueError(f"controller must be one of {', '.join(_TORQUE_CONTROLLERS)}, got "
                             f"{controller!r}")
        desc = _RobotTaskDesc(_ROBOT_TASKS[task], _arguments.integer("seed", seed, "uint64"),
                              _arguments.integer("first_robot", first_robot, "uint64"), torque,
                              _TORQUE_CONTROLLERS[controller])
        handle = self._lib._new_handle("swarm_robot_task_create", self._handle, ctypes.byref(desc))
        return RobotTask(self._lib, handle, self)

    def state_digest(self, first_robot=0):
        """A digest of the state that batches of consecutive robot ranges add up to (mod 2^64),
        robot 0 of this batch being robot `first_robot` of the run; the "state hash" swarm-robots
        run prints."""
        value = ctypes.c_uint64()
        self._lib._call("swarm_robot_batch_state_digest", self._handle,
                        _arguments.integer("first_robot", first_robot, "uint64"),
                        ctypes.byref(value))
        return value.value
