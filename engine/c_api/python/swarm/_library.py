"""Finding and loading libswarm_c.so: the ctypes signature of every function of swarm_c.h,
Library (the loaded library: contexts, DLPack import, operations on several tensors) and load().
Module _arguments checks what each call passes (C ranges, NULs, tuple lengths) first."""

import ctypes
import ctypes.util
import os

import numpy as np

from . import _arguments
from ._handles import SwarmError
from ._structures import (_P, DLManagedTensor, _ContextDesc, _EulerParams, _FormatDesc, _MjcfDesc,
                          _ContactSlotInfo, _InteractionStats, _ParticleSystemDesc, _RobotBatchDesc,
                          _RobotModelInfo, _RobotTaskDesc, _Slice, _TaskSummary, _TaskTotals,
                          _TensorInfo, _UrdfDesc)
from .context import Context
from .expressions import _ExpressionCalls
from .robots import _URDF_COLLISIONS, RobotModel
from .tensors import (_BINARY_OPS, _CAPSULE_NAME, _REDUCE_OPS, _USED_CAPSULE_NAME, Tensor,
                      _capsule_pointer, _pythonapi)

_SIGNATURES = {
    "swarm_last_error": (ctypes.c_char_p, []),
    "swarm_status_name": (ctypes.c_char_p, [ctypes.c_int]),
    "swarm_dtype_size": (ctypes.c_size_t, [ctypes.c_int]),
    "swarm_dtype_name": (ctypes.c_char_p, [ctypes.c_int]),
    "swarm_context_create": (ctypes.c_int, [ctypes.POINTER(_ContextDesc), ctypes.POINTER(_P)]),
    "swarm_context_retain": (ctypes.c_int, [_P]),
    "swarm_context_destroy": (None, [_P]),
    "swarm_context_bytes_in_use": (ctypes.c_int, [_P, ctypes.POINTER(ctypes.c_size_t)]),
    "swarm_context_memory_report": (
        ctypes.c_int, [_P, ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)]),
    "swarm_simd_target_name": (ctypes.c_char_p, []),
    "swarm_buffer_create_vec4": (ctypes.c_int, [_P, ctypes.c_size_t, ctypes.POINTER(_P)]),
    "swarm_buffer_create_f32_array": (ctypes.c_int, [_P, ctypes.c_size_t, ctypes.POINTER(_P)]),
    "swarm_buffer_create_u8_array": (ctypes.c_int, [_P, ctypes.c_size_t, ctypes.POINTER(_P)]),
    "swarm_buffer_create_image": (
        ctypes.c_int, [_P, ctypes.c_int, ctypes.c_size_t, ctypes.c_size_t, ctypes.POINTER(_P)]),
    "swarm_buffer_create_image_batch": (
        ctypes.c_int,
        [_P, ctypes.c_int, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_size_t, ctypes.POINTER(_P)]),
    "swarm_buffer_create_tensor": (
        ctypes.c_int,
        [_P, ctypes.c_int, ctypes.POINTER(ctypes.c_int64), ctypes.c_size_t, ctypes.POINTER(_P)]),
    "swarm_buffer_retain": (ctypes.c_int, [_P]),
    "swarm_buffer_release": (None, [_P]),
    "swarm_buffer_kind_get": (ctypes.c_int, [_P, ctypes.POINTER(ctypes.c_int)]),
    "swarm_buffer_tensor": (ctypes.c_int, [_P, ctypes.POINTER(_P)]),
    "swarm_tensor_destroy": (None, [_P]),
    "swarm_tensor_info_get": (ctypes.c_int, [_P, ctypes.POINTER(_TensorInfo)]),
    "swarm_tensor_slice": (
        ctypes.c_int, [_P, ctypes.POINTER(_Slice), ctypes.c_size_t, ctypes.POINTER(_P)]),
    "swarm_tensor_permute": (
        ctypes.c_int, [_P, ctypes.POINTER(ctypes.c_size_t), ctypes.c_size_t, ctypes.POINTER(_P)]),
    "swarm_tensor_transpose": (ctypes.c_int, [_P, ctypes.POINTER(_P)]),
    "swarm_tensor_reshape": (
        ctypes.c_int, [_P, ctypes.POINTER(ctypes.c_int64), ctypes.c_size_t, ctypes.POINTER(_P)]),
    "swarm_tensor_read_only": (ctypes.c_int, [_P, ctypes.POINTER(_P)]),
    "swarm_tensor_copy_into": (ctypes.c_int, [_P, _P]),
    "swarm_tensor_copy": (ctypes.c_int, [_P, _P, ctypes.POINTER(_P)]),
    "swarm_tensor_cast": (ctypes.c_int, [_P, _P, ctypes.c_int, ctypes.POINTER(_P)]),
    "swarm_tensor_format": (
        ctypes.c_int, [_P, ctypes.POINTER(_FormatDesc), ctypes.c_char_p, ctypes.c_size_t,
                       ctypes.POINTER(ctypes.c_size_t)]),
    "swarm_tensor_save_npy": (ctypes.c_int, [_P, ctypes.c_char_p]),
    "swarm_load_npy": (ctypes.c_int, [_P, ctypes.c_char_p, ctypes.POINTER(_P)]),
    "swarm_tensor_to_dlpack": (ctypes.c_int, [_P, ctypes.POINTER(_P)]),
    "swarm_tensor_from_dlpack": (ctypes.c_int, [_P, ctypes.c_bool, ctypes.POINTER(_P)]),
    "swarm_dlpack_delete": (None, [_P]),
    "swarm_elementwise": (ctypes.c_int, [ctypes.c_int, _P, _P, _P]),
    "swarm_evaluate": (
        ctypes.c_int, [_P, ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(_P),
                       ctypes.c_size_t, _P]),
    "swarm_evaluate_sum": (
        ctypes.c_int, [ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(_P),
                       ctypes.c_size_t, ctypes.POINTER(ctypes.c_double)]),
    "swarm_evaluate_reduce": (
        ctypes.c_int, [ctypes.c_int, ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p),
                       ctypes.POINTER(_P), ctypes.c_size_t, ctypes.POINTER(ctypes.c_double)]),
    "swarm_expression_prepare": (
        ctypes.c_int, [_P, ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(_P),
                       ctypes.c_size_t, _P, ctypes.POINTER(_P)]),
    "swarm_expression_run": (ctypes.c_int, [_P]),
    "swarm_expression_destroy": (None, [_P]),
    "swarm_tensor_reduce_all": (
        ctypes.c_int, [ctypes.c_int, _P, ctypes.POINTER(ctypes.c_double)]),
    "swarm_tensor_reduce": (ctypes.c_int, [ctypes.c_int, _P, ctypes.c_size_t, _P]),
    "swarm_integrate_euler": (ctypes.c_int, [_P, _P, ctypes.POINTER(_EulerParams)]),
    "swarm_gaussian_blur": (
        ctypes.c_int, [_P, _P, _P, ctypes.c_size_t, ctypes.c_double]),
    "swarm_neighbors": (
        ctypes.c_int, [_P, _P, ctypes.c_float, ctypes.POINTER(_P), ctypes.POINTER(_P)]),
    "swarm_particle_system_create": (
        ctypes.c_int,
        [_P, ctypes.c_size_t, ctypes.POINTER(_ParticleSystemDesc), ctypes.POINTER(_P)]),
    "swarm_particle_system_destroy": (None, [_P]),
    "swarm_particle_system_step": (ctypes.c_int, [_P, ctypes.c_float]),
    "swarm_particle_system_tensor": (ctypes.c_int, [_P, ctypes.c_int, ctypes.POINTER(_P)]),
    "swarm_particle_system_stats": (ctypes.c_int, [_P, ctypes.POINTER(_InteractionStats)]),
    "swarm_robot_model_load_urdf": (
        ctypes.c_int, [ctypes.c_char_p, ctypes.POINTER(_UrdfDesc), ctypes.POINTER(_P)]),
    "swarm_robot_model_parse_urdf": (
        ctypes.c_int,
        [ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(_UrdfDesc), ctypes.POINTER(_P)]),
    "swarm_robot_model_load_mjcf": (
        ctypes.c_int, [ctypes.c_char_p, ctypes.POINTER(_MjcfDesc), ctypes.POINTER(_P)]),
    "swarm_robot_model_keyframe": (
        ctypes.c_int, [_P, ctypes.c_size_t, ctypes.POINTER(ctypes.c_float),
                       ctypes.POINTER(ctypes.c_float), ctypes.POINTER(ctypes.c_float)]),
    "swarm_robot_model_destroy": (None, [_P]),
    "swarm_robot_model_info_get": (ctypes.c_int, [_P, ctypes.POINTER(_RobotModelInfo)]),
    "swarm_robot_model_name": (
        ctypes.c_int, [_P, ctypes.c_int, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t,
                       ctypes.POINTER(ctypes.c_size_t)]),
    "swarm_robot_batch_create": (
        ctypes.c_int, [_P, _P, ctypes.POINTER(_RobotBatchDesc), ctypes.POINTER(_P)]),
    "swarm_robot_batch_destroy": (None, [_P]),
    "swarm_robot_batch_size": (ctypes.c_int, [_P, ctypes.POINTER(ctypes.c_size_t)]),
    "swarm_robot_batch_tensor": (ctypes.c_int, [_P, ctypes.c_int, ctypes.POINTER(_P)]),
    "swarm_robot_batch_forward_kinematics": (ctypes.c_int, [_P]),
    "swarm_robot_batch_detect_contacts": (ctypes.c_int, [_P]),
    "swarm_robot_batch_contact_slots": (ctypes.c_int, [_P, ctypes.POINTER(ctypes.c_size_t)]),
    "swarm_robot_batch_contact_slot": (
        ctypes.c_int, [_P, ctypes.c_size_t, ctypes.POINTER(_ContactSlotInfo)]),
    "swarm_robot_batch_control_step": (ctypes.c_int, [_P, ctypes.c_float]),
    "swarm_robot_batch_ik_step": (ctypes.c_int, [_P]),
    "swarm_robot_batch_torque_step": (ctypes.c_int, [_P, ctypes.c_float, ctypes.c_int]),
    "swarm_robot_batch_state_hash": (ctypes.c_int, [_P, ctypes.POINTER(ctypes.c_uint64)]),
    "swarm_robot_batch_state_digest": (
        ctypes.c_int, [_P, ctypes.c_uint64, ctypes.POINTER(ctypes.c_uint64)]),
    "swarm_robot_task_create": (
        ctypes.c_int, [_P, ctypes.POINTER(_RobotTaskDesc), ctypes.POINTER(_P)]),
    "swarm_robot_task_step": (ctypes.c_int, [_P, ctypes.c_uint64, ctypes.c_float]),
    "swarm_robot_task_destroy": (None, [_P]),
    "swarm_robot_task_totals": (ctypes.c_int, [_P, ctypes.POINTER(_TaskTotals)]),
    "swarm_task_totals_merge": (
        ctypes.c_int, [ctypes.POINTER(_TaskTotals), ctypes.POINTER(_TaskTotals)]),
    "swarm_task_totals_summary": (
        ctypes.c_int, [ctypes.POINTER(_TaskTotals), ctypes.POINTER(_TaskSummary)]),
}


class Library(_ExpressionCalls):
    """The loaded C library; makes contexts and runs the operations that take several tensors
    (the fused expressions' among them: evaluate, prepare, ... of _ExpressionCalls)."""

    def __init__(self, path):
        self._dll = ctypes.CDLL(str(path))
        for name, (restype, argtypes) in _SIGNATURES.items():
            function = getattr(self._dll, name)
            function.restype = restype
            function.argtypes = argtypes
        self.path = str(path)

    def _call(self, name, *args):
        status = getattr(self._dll, name)(*args)
        if status != 0:
            self._raise(status)

    def _raise(self, status):
        status_name = self._dll.swarm_status_name(status)
        raise SwarmError(status_name.decode() if status_name else str(status),
                         self._dll.swarm_last_error().decode())

    def _new_handle(self, name, *args):
        handle = _P()
        self._call(name, *args, ctypes.byref(handle))
        return handle

    def context(self, budget_bytes=0, threads=1):
        """A memory accountant (budget_bytes 0: none) and a pool of `threads` threads."""
        desc = _ContextDesc(_arguments.integer("budget_bytes", budget_bytes),
                            _arguments.integer("threads", threads))
        return Context(self, self._new_handle("swarm_context_create", ctypes.byref(desc)))

    def simd_target(self):
        return self._dll.swarm_simd_target_name().decode()

    def from_dlpack(self, obj, read_only=False):
        """A swarm Tensor viewing `obj` (anything with __dlpack__, e.g. a numpy array) without
        copying; the tensor keeps the exporter's memory alive."""
        as_bool = isinstance(obj, np.ndarray) and obj.dtype == np.bool_
        # numpy (before 1.25) exports no bool arrays: export the same bytes as uint8 and mark the
        # DLTensor bool (DLPack 0.8's kDLBool, 6) before swarm imports it.
        capsule = obj.view(np.uint8).__dlpack__() if as_bool else obj.__dlpack__()
        address = _capsule_pointer(capsule, _CAPSULE_NAME)
        if as_bool:
            ctypes.cast(address, ctypes.POINTER(DLManagedTensor)).contents.dl_tensor.dtype.code = 6
        handle = self._new_handle("swarm_tensor_from_dlpack", address, read_only)
        # swarm owns the managed tensor now: the capsule must not call its deleter.
        _pythonapi.PyCapsule_SetName(capsule, _USED_CAPSULE_NAME)
        return Tensor(self, handle)

    def elementwise(self, op, a, b, out):
        """out = a op b (op: "add", "sub", "mul", "div", "min", "max"; f32, numpy broadcasting)."""
        self._call("swarm_elementwise", _BINARY_OPS[op], a._handle, b._handle, out._handle)
        return out

    def reduce(self, op, tensor, axis, out):
        """Reduces `tensor` along `axis` into `out` (op: "sum", "mean", "min", "max")."""
        self._call("swarm_tensor_reduce", _REDUCE_OPS[op], tensor._handle,
                   _arguments.integer("axis", axis), out._handle)
        return out

    def integrate_euler(self, positions, velocities, gravity=(0.0, -9.81, 0.0), drag=0.0,
                        dt=1.0 / 60.0):
        """v += (g - drag v) dt; p += v dt on two vec4 buffers (lanes x, y, z)."""
        params = _EulerParams((ctypes.c_float * 3)(*_arguments.vector("gravity", gravity, 3)),
                              drag, dt)
        self._call("swarm_integrate_euler", positions._handle, velocities._handle,
                   ctypes.byref(params))

    def robot_model(self, path=None, text=None, floating_base=False, max_bytes=0, mjcf=None,
                    collisions="ignore"):
        """A robot model from a URDF file (`path`) or URDF text (`text`), where floating_base
        frees the root link (7 leading q values x y z qw qx qy qz) and `collisions` says what
        becomes of the links' <collision> elements ("ignore"; "primitives": boxes, spheres and
        cylinders collide, a mesh is an error; "skip-meshes": the same without the meshes); or
        from an MJCF (MuJoCo XML) file (`mjcf`, e.g. a MuJoCo Menagerie model), whose free joint
        says whether its base floats and whose actuators, keyframes, armature, gravity and
        collision shapes come with it."""
        if sum(x is not None for x in (path, text, mjcf)) != 1:
            raise ValueError("give exactly one of path, text and mjcf")
        if collisions not in _URDF_COLLISIONS:
            raise ValueError(f"collisions must be one of {', '.join(_URDF_COLLISIONS)}, got "
                             f"{collisions!r}")
        if mjcf is not None:
            if floating_base or collisions != "ignore":
                raise ValueError("floating_base and collisions are for URDF: an MJCF file says "
                                 "itself whether its base floats (a free joint) and what collides")
            desc = _MjcfDesc(_arguments.integer("max_bytes", max_bytes))
            handle = self._new_handle("swarm_robot_model_load_mjcf",
                                      _arguments.text("mjcf", str(mjcf)), ctypes.byref(desc))
            return RobotModel(self, handle)
        desc = _UrdfDesc(floating_base, _arguments.integer("max_bytes", max_bytes),
                         _URDF_COLLISIONS[collisions])
        if path is not None:
            handle = self._new_handle("swarm_robot_model_load_urdf",
                                      _arguments.text("path", str(path)), ctypes.byref(desc))
        else:
            data = text.encode() if isinstance(text, str) else bytes(text)
            handle = self._new_handle("swarm_robot_model_parse_urdf", data, len(data),
                                      ctypes.byref(desc))
        return RobotModel(self, handle)


class LibraryNotFoundError(SwarmError, OSError):
    """load() without a path found no libswarm_c.so; the message names every place it looked."""


_LIBRARY_FILE = "libswarm_c.so"


def _installed_library():
    """The libswarm_c.so `cmake --install` put beside this package, or None for a package that
    was not installed so (the source tree's). _install_paths.py is written at install time
    (engine/c_api/CMakeLists.txt): the library's path relative to this folder, or absolute."""
    try:
        from ._install_paths import LIBRARY
    except ImportError:
        return None
    return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), LIBRARY))


def load(path=None):
    """Loads libswarm_c.so from `path`; without one, the library installed with this package
    (`cmake --install`), or else the one the dynamic loader finds (its search path, then
    ctypes.util.find_library). Raises LibraryNotFoundError naming where it looked."""
    if path is not None:
        return Library(path)
    looked = []
    installed = _installed_library()
    if installed is None:
        looked.append(f"beside the package: none recorded ({__package__} was not installed by "
                      "cmake --install)")
    elif os.path.isfile(installed):
        return Library(installed)
    else:
        looked.append(f"beside the package: {installed} does not exist")
    try:
        return Library(_LIBRARY_FILE)
    except OSError as error:
        looked.append(f"the dynamic loader's search path: {error}")
    found = ctypes.util.find_library("swarm_c")
    if found is None:
        looked.append('ctypes.util.find_library("swarm_c"): nothing')
    else:
        try:
            return Library(found)
        except OSError as error:
            looked.append(f'ctypes.util.find_library("swarm_c") gave {found}: {error}')
    raise LibraryNotFoundError(
        "not found", f"{_LIBRARY_FILE} not found; looked {'; '.join(looked)}. Pass its path: "
        f"swarm.load(\"path/to/{_LIBRARY_FILE}\")")
