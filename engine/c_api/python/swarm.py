"""swarm from Python: buffers, tensor views and kernels through the C API (swarm_c.h) and ctypes.

    import numpy as np
    import swarm

    lib = swarm.load("build/release/engine/c_api/libswarm_c.so")
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

Arrays from Tensor.numpy() / np.asarray(tensor) keep the tensor (and so the swarm buffer) alive
through their `base`; DLPack capsules keep the buffer alive through their deleter. Errors raise
SwarmError carrying the C API's status name and message.

Needs only ctypes and numpy 1.24 (Debian 12's; numpy before 1.23.5 frees DLPack tensors without
holding the GIL).
"""

import ctypes
import operator

import numpy as np

def _clamp_int64(value):
    """Slice bounds beyond int64 clamp like any bound past the axis (ctypes would wrap them)."""
    return max(-(1 << 63) + 1, min(value, (1 << 63) - 1))


__all__ = ["load", "Library", "Context", "Buffer", "Tensor", "RobotModel", "RobotBatch",
           "PreparedExpression", "RobotTask", "SwarmError", "DTYPES"]

# swarm_dtype order (swarm_c.h) with the numpy dtype of each.
DTYPES = [
    ("f32", np.dtype("<f4")),
    ("f64", np.dtype("<f8")),
    ("s8", np.dtype("i1")),
    ("s16", np.dtype("<i2")),
    ("s32", np.dtype("<i4")),
    ("s64", np.dtype("<i8")),
    ("u8", np.dtype("u1")),
    ("u16", np.dtype("<u2")),
    ("u32", np.dtype("<u4")),
    ("u64", np.dtype("<u8")),
    ("c64", np.dtype("<c8")),
    ("c128", np.dtype("<c16")),
    ("f16", np.dtype("<f2")),
    ("bf16", np.dtype("<u2")),  # numpy has no bfloat16: its arrays show the bits
    ("bool", np.dtype("?")),
]
_DTYPE_CODES = {name: code for code, (name, _) in enumerate(DTYPES)}
_DTYPE_CODES.update({dtype: code for code, (name, dtype) in enumerate(DTYPES) if name != "bf16"})

_BUFFER_KINDS = ["vec4", "f32_array", "u8_array", "image_f32", "image_u8", "image_batch_f32",
                 "image_batch_u8", "tensor"]
_BINARY_OPS = {"add": 0, "sub": 1, "mul": 2, "div": 3, "min": 4, "max": 5, "less": 6,
               "less_equal": 7, "greater": 8, "greater_equal": 9, "equal": 10, "not_equal": 11,
               "and": 12, "or": 13}
_REDUCE_OPS = {"sum": 0, "mean": 1, "min": 2, "max": 3}
MAX_RANK = 8
_TORQUE_CONTROLLERS = {"none": 0, "pd-gravity": 1, "computed-torque": 2}
_ROBOT_TASKS = {"reach": 0, "track": 1, "random": 2, "stand": 3}
_INTEGRATORS = {"euler": 0, "rk4": 1}
# swarm_robot_array values of the RobotBatch properties.
_ROBOT_ARRAYS = {"q": 0, "qd": 1, "q_target": 2, "qd_target": 3, "qdd_target": 4, "torque": 5,
                 "qdd": 6, "base_velocity": 7, "link_poses": 8, "target_pose": 9,
                 "contact_forces": 10}


class SwarmError(Exception):
    """A failed C API call: `status` is "invalid argument", "over budget", ..."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


def dtype_code(dtype):
    """The swarm_dtype of a swarm name ("f32") or anything np.dtype accepts."""
    if isinstance(dtype, str) and dtype in _DTYPE_CODES:
        return _DTYPE_CODES[dtype]
    numpy_dtype = np.dtype(dtype)
    if numpy_dtype.byteorder == ">":
        numpy_dtype = numpy_dtype.newbyteorder("<")
    if numpy_dtype not in _DTYPE_CODES:
        raise TypeError(f"swarm has no dtype for {numpy_dtype}")
    return _DTYPE_CODES[numpy_dtype]


# --- C structures (swarm_c.h, dlpack/dlpack.h 0.6) -------------------------------------------

class _RobotTaskDesc(ctypes.Structure):
    _fields_ = [("task", ctypes.c_int), ("seed", ctypes.c_uint64), ("first_robot", ctypes.c_uint64),
                ("torque_control", ctypes.c_bool), ("controller", ctypes.c_int)]


TASK_TOTALS_WORDS = 26  # SWARM_TASK_TOTALS_WORDS


class _TaskTotals(ctypes.Structure):
    _fields_ = [("words", ctypes.c_uint64 * TASK_TOTALS_WORDS)]


class _TaskSummary(ctypes.Structure):
    _fields_ = [("robots", ctypes.c_uint64), ("successes", ctypes.c_uint64),
                ("success_rate", ctypes.c_double),
                ("mean_position_m", ctypes.c_double), ("max_position_m", ctypes.c_double),
                ("mean_orientation_rad", ctypes.c_double), ("max_orientation_rad", ctypes.c_double),
                ("mean_joint_error", ctypes.c_double), ("max_joint_error", ctypes.c_double)]


class _ContextDesc(ctypes.Structure):
    _fields_ = [("budget_bytes", ctypes.c_size_t), ("threads", ctypes.c_size_t)]


class _TensorInfo(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("dtype", ctypes.c_int), ("rank", ctypes.c_size_t),
                ("shape", ctypes.c_int64 * MAX_RANK), ("strides", ctypes.c_int64 * MAX_RANK),
                ("read_only", ctypes.c_bool)]


class _Slice(ctypes.Structure):
    _fields_ = [("start", ctypes.c_int64), ("stop", ctypes.c_int64), ("step", ctypes.c_int64),
                ("has_start", ctypes.c_bool), ("has_stop", ctypes.c_bool)]


class _FormatDesc(ctypes.Structure):
    _fields_ = [("limit", ctypes.c_size_t), ("edge_items", ctypes.c_size_t)]


class _EulerParams(ctypes.Structure):
    _fields_ = [("gravity", ctypes.c_float * 3), ("drag_per_second", ctypes.c_float),
                ("dt_seconds", ctypes.c_float)]


class _ParticleSystemDesc(ctypes.Structure):
    _fields_ = [("interaction", ctypes.c_int), ("box_min", ctypes.c_float * 3),
                ("box_max", ctypes.c_float * 3), ("seed", ctypes.c_uint64)]


class _InteractionStats(ctypes.Structure):
    _fields_ = [("neighbor_seconds", ctypes.c_double), ("interaction_seconds", ctypes.c_double),
                ("average_neighbors", ctypes.c_double), ("steps", ctypes.c_uint64),
                ("state_hash", ctypes.c_uint64)]


_INTERACTIONS = {"granular": 1, "fluid": 2, "flock": 3}
_PARTICLE_ARRAYS = {"positions": 0, "velocities": 1, "ids": 2}


class _UrdfDesc(ctypes.Structure):
    _fields_ = [("floating_base", ctypes.c_bool), ("max_bytes", ctypes.c_size_t)]


class _RobotModelInfo(ctypes.Structure):
    _fields_ = [("links", ctypes.c_size_t), ("dof", ctypes.c_size_t),
                ("q_count", ctypes.c_size_t), ("velocity_count", ctypes.c_size_t),
                ("default_end_effector", ctypes.c_size_t), ("floating_base", ctypes.c_bool)]


class _GroundDesc(ctypes.Structure):
    _fields_ = [("height", ctypes.c_float), ("stiffness", ctypes.c_float),
                ("damping", ctypes.c_float), ("friction", ctypes.c_float),
                ("slip_velocity", ctypes.c_float)]


class _RobotBatchDesc(ctypes.Structure):
    _fields_ = [("robots", ctypes.c_size_t), ("torque", ctypes.c_bool), ("dof", ctypes.c_size_t),
                ("kp", ctypes.POINTER(ctypes.c_float)), ("kd", ctypes.POINTER(ctypes.c_float)),
                ("armature", ctypes.POINTER(ctypes.c_float)),
                ("gravity", ctypes.POINTER(ctypes.c_float)), ("integrator", ctypes.c_int),
                ("end_effector", ctypes.c_char_p), ("contacts", ctypes.c_bool),
                ("contact_links", ctypes.POINTER(ctypes.c_char_p)),
                ("contact_link_count", ctypes.c_size_t), ("contact_radius", ctypes.c_float),
                ("ground", ctypes.POINTER(_GroundDesc))]


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    pass


DLManagedTensor._fields_ = [
    ("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p),
    ("deleter", ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor)))]

# --- DLPack capsules --------------------------------------------------------------------------
# The capsule protocol (DLPack's python_spec): a producer's capsule is named "dltensor"; a
# consumer that takes the tensor renames it "used_dltensor" and calls the deleter itself later.
# The capsule's destructor must therefore call the deleter only if the name is still "dltensor".
# It receives the capsule as a raw pointer (c_void_p): turning an object that is being
# deallocated into a Python reference would resurrect it.

_CAPSULE_NAME = b"dltensor"
_USED_CAPSULE_NAME = b"used_dltensor"
_pythonapi = ctypes.pythonapi
_pythonapi.PyCapsule_New.restype = ctypes.py_object
_pythonapi.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_pythonapi.PyCapsule_IsValid.restype = ctypes.c_int
_pythonapi.PyCapsule_IsValid.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
_pythonapi.PyCapsule_GetPointer.restype = ctypes.c_void_p
_pythonapi.PyCapsule_GetPointer.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
_pythonapi.PyCapsule_SetName.restype = ctypes.c_int
_pythonapi.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
# PyCapsule_GetPointer on a live capsule object (raises if the name does not match).
_capsule_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.py_object, ctypes.c_char_p)(
    ("PyCapsule_GetPointer", _pythonapi))
_CapsuleDestructor = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


def _delete_unconsumed(capsule, is_valid=_pythonapi.PyCapsule_IsValid,
                       get_pointer=_pythonapi.PyCapsule_GetPointer, name=_CAPSULE_NAME,
                       managed_type=ctypes.POINTER(DLManagedTensor), cast=ctypes.cast):
    # Defaults bind everything used here, so this still works while the interpreter shuts down
    # and module globals are being cleared.
    if not is_valid(capsule, name):
        return
    managed = cast(get_pointer(capsule, name), managed_type)
    deleter = managed.contents.deleter
    if deleter:
        deleter(managed)


# Kept alive for as long as the module: every capsule made here points at it.
_CAPSULE_DESTRUCTOR = _CapsuleDestructor(_delete_unconsumed)


def _managed_capsule(managed_address):
    destructor = ctypes.cast(_CAPSULE_DESTRUCTOR, ctypes.c_void_p)
    return _pythonapi.PyCapsule_New(managed_address, _CAPSULE_NAME, destructor)


# --- The library ------------------------------------------------------------------------------

_P = ctypes.c_void_p
_SIGNATURES = {
    "swarm_last_error": (ctypes.c_char_p, []),
    "swarm_status_name": (ctypes.c_char_p, [ctypes.c_int]),
    "swarm_dtype_size": (ctypes.c_size_t, [ctypes.c_int]),
    "swarm_dtype_name": (ctypes.c_char_p, [ctypes.c_int]),
    "swarm_context_create": (ctypes.c_int, [ctypes.POINTER(_ContextDesc), ctypes.POINTER(_P)]),
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
        ctypes.c_int, [_P, ctypes.c_size_t, ctypes.POINTER(_ParticleSystemDesc), ctypes.POINTER(_P)]),
    "swarm_particle_system_destroy": (None, [_P]),
    "swarm_particle_system_step": (ctypes.c_int, [_P, ctypes.c_float]),
    "swarm_particle_system_tensor": (ctypes.c_int, [_P, ctypes.c_int, ctypes.POINTER(_P)]),
    "swarm_particle_system_stats": (ctypes.c_int, [_P, ctypes.POINTER(_InteractionStats)]),
    "swarm_robot_model_load_urdf": (
        ctypes.c_int, [ctypes.c_char_p, ctypes.POINTER(_UrdfDesc), ctypes.POINTER(_P)]),
    "swarm_robot_model_parse_urdf": (
        ctypes.c_int,
        [ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(_UrdfDesc), ctypes.POINTER(_P)]),
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


def _shape_array(shape):
    shape = [operator.index(extent) for extent in shape]
    return (ctypes.c_int64 * max(len(shape), 1))(*shape), len(shape)


class Library:
    """The loaded C library; makes contexts and runs the operations that take several tensors."""

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
        desc = _ContextDesc(budget_bytes, threads)
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

    def _operands(self, operands):
        """(names, handles, keep-alive tensors) of named numpy arrays or Tensors, viewed in
        place."""
        names, handles, tensors = [], [], []
        for name, value in operands.items():
            tensor = value if isinstance(value, Tensor) else self.from_dlpack(
                np.asarray(value), read_only=True)
            names.append(name.encode())
            handles.append(tensor._handle)
            tensors.append(tensor)
        return ((ctypes.c_char_p * len(names))(*names), (_P * len(handles))(*handles), tensors)

    def evaluate(self, expression, out=None, context=None, **operands):
        """out = the expression over the named operands (numpy arrays of any real dtype, viewed
        in place, or Tensors), e.g. evaluate("(a - b) * c + 2", a=a, b=b, c=c): one pass, no
        temporaries, numpy broadcasting, computed as float32, on the threads of `context` (a
        Context; None: a one-thread context of this call). out: a writable numpy array or Tensor
        of the broadcast shape and any real dtype, or None for a new float32 array. Returns out."""
        if context is None:
            context = self.context()
        out = self._output(out, operands)
        target = out if isinstance(out, Tensor) else self.from_dlpack(out)
        names, handles, keep = self._operands(operands)
        self._call("swarm_evaluate", context._handle, expression.encode(), names, handles,
                   len(keep), target._handle)
        return out

    def prepare(self, expression, out=None, context=None, **operands):
        """evaluate(), checked once: returns a PreparedExpression whose call evaluates the
        expression again on the operands' current values (same arrays, same out) with a single
        library call, for loops that repeat it."""
        if context is None:
            context = self.context()
        out = self._output(out, operands)
        target = out if isinstance(out, Tensor) else self.from_dlpack(out)
        names, handles, keep = self._operands(operands)
        handle = self._new_handle("swarm_expression_prepare", context._handle,
                                  expression.encode(), names, handles, len(keep), target._handle)
        return PreparedExpression(self, handle, out, [context, target] + keep)

    def _output(self, out, operands):
        """out, or a new float32 array of the operands' broadcast shape."""
        if out is None:
            shapes = [np.shape(value) if not isinstance(value, Tensor) else value.numpy().shape
                      for value in operands.values()]
            try:
                shape = np.broadcast_shapes(*shapes)
            except ValueError:
                raise SwarmError("invalid argument",
                                 f"evaluate: cannot broadcast the operands' shapes "
                                 f"{', '.join(f'{n} {list(s)}' for n, s in zip(operands, shapes))}"
                                 ) from None
            out = np.empty(shape, dtype=np.float32)
        return out

    def evaluate_sum(self, expression, **operands):
        """The sum (double) of the expression's elements, fused: nothing is stored."""
        return self.evaluate_reduce("sum", expression, **operands)

    def evaluate_reduce(self, op, expression, **operands):
        """A reduction of the expression's elements, fused (op: "sum", "mean", "min", "max")."""
        names, handles, keep = self._operands(operands)
        total = ctypes.c_double()
        self._call("swarm_evaluate_reduce", _REDUCE_OPS[op], expression.encode(), names, handles,
                   len(keep), ctypes.byref(total))
        return total.value

    def reduce(self, op, tensor, axis, out):
        """Reduces `tensor` along `axis` into `out` (op: "sum", "mean", "min", "max")."""
        self._call("swarm_tensor_reduce", _REDUCE_OPS[op], tensor._handle, axis, out._handle)
        return out

    def integrate_euler(self, positions, velocities, gravity=(0.0, -9.81, 0.0), drag=0.0,
                        dt=1.0 / 60.0):
        """v += (g - drag v) dt; p += v dt on two vec4 buffers (lanes x, y, z)."""
        params = _EulerParams((ctypes.c_float * 3)(*gravity), drag, dt)
        self._call("swarm_integrate_euler", positions._handle, velocities._handle,
                   ctypes.byref(params))


    def robot_model(self, path=None, text=None, floating_base=False, max_bytes=0):
        """A robot model from a URDF file (`path`) or URDF text (`text`); floating_base frees
        the root link (7 leading q values x y z qw qx qy qz)."""
        if (path is None) == (text is None):
            raise ValueError("give exactly one of path and text")
        desc = _UrdfDesc(floating_base, max_bytes)
        if path is not None:
            handle = self._new_handle("swarm_robot_model_load_urdf", str(path).encode(),
                                      ctypes.byref(desc))
        else:
            data = text.encode() if isinstance(text, str) else bytes(text)
            handle = self._new_handle("swarm_robot_model_parse_urdf", data, len(data),
                                      ctypes.byref(desc))
        return RobotModel(self, handle)


def load(path):
    """Loads libswarm_c.so from `path`."""
    return Library(path)


class _Handle:
    _destroy = None

    def __init__(self, lib, handle):
        self._lib = lib
        self._handle = handle

    def close(self):
        if self._handle is not None and self._handle.value:
            getattr(self._lib._dll, self._destroy)(self._handle)
        self._handle = None

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown: the library may be gone
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class PreparedExpression(_Handle):
    """Library.prepare's result: calling it evaluates the expression into its out again."""

    _destroy = "swarm_expression_destroy"

    def __init__(self, lib, handle, out, keep):
        super().__init__(lib, handle)
        self.out = out
        self._keep = keep  # the context and the operands' tensors, for as long as this lives
        self._run = lib._dll.swarm_expression_run

    def __call__(self):
        status = self._run(self._handle)
        if status != 0:
            self._lib._raise(status)
        return self.out


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


def _text(lib, name, *args):
    length = ctypes.c_size_t()
    lib._call(name, *args, None, 0, ctypes.byref(length))
    text = ctypes.create_string_buffer(length.value + 1)
    lib._call(name, *args, text, len(text), ctypes.byref(length))
    return text.value.decode()


class ParticleSystem(_Handle):
    """An interacting particle system (Context.particle_system). Storage is kept in the neighbour
    grid's cell order, so a slot's particle changes from step to step: ids[slot] is the index
    the particle had at creation. positions and velocities are writable [N, 4] float32 views
    (x, y, z, w); ids is a read-only uint32 [N] view."""

    _destroy = "swarm_particle_system_destroy"

    def _view(self, name):
        handle = self._lib._new_handle("swarm_particle_system_tensor", self._handle,
                                       _PARTICLE_ARRAYS[name])
        return Tensor(self._lib, handle).numpy()

    @property
    def positions(self):
        return self._view("positions")

    @property
    def velocities(self):
        return self._view("velocities")

    @property
    def ids(self):
        return self._view("ids")

    def step(self, dt=1.0 / 60.0):
        self._lib._call("swarm_particle_system_step", self._handle, dt)

    @property
    def stats(self):
        """neighbor_seconds, interaction_seconds, average_neighbors, steps, state_hash."""
        out = _InteractionStats()
        self._lib._call("swarm_particle_system_stats", self._handle, ctypes.byref(out))
        return {name: getattr(out, name) for name, _ in _InteractionStats._fields_}


class Buffer(_Handle):
    """A reference on a swarm buffer; its memory lives while any tensor or capsule of it does."""

    _destroy = "swarm_buffer_release"

    @property
    def kind(self):
        value = ctypes.c_int()
        self._lib._call("swarm_buffer_kind_get", self._handle, ctypes.byref(value))
        return _BUFFER_KINDS[value.value]

    def tensor(self):
        """A writable view of the whole buffer."""
        return Tensor(self._lib, self._lib._new_handle("swarm_buffer_tensor", self._handle))

    def numpy(self):
        """A writable numpy array over the whole buffer (no copy)."""
        return self.tensor().numpy()


class Tensor(_Handle):
    """A tensor view: dtype, shape, strides in elements; numpy sees it through
    __array_interface__ (writable unless read_only) and __dlpack__ (read-only in numpy)."""

    _destroy = "swarm_tensor_destroy"

    def __init__(self, lib, handle):
        super().__init__(lib, handle)
        info = _TensorInfo()
        lib._call("swarm_tensor_info_get", handle, ctypes.byref(info))
        self.dtype = DTYPES[info.dtype][1]
        self.shape = tuple(info.shape[:info.rank])
        self.strides = tuple(info.strides[:info.rank])  # in elements
        self.read_only = bool(info.read_only)
        self.data = info.data or 0

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a rank-0 tensor")
        return self.shape[0]

    @property
    def __array_interface__(self):
        itemsize = self.dtype.itemsize
        return {
            "version": 3,
            "shape": self.shape,
            "typestr": self.dtype.str,
            "data": (self.data, self.read_only),
            "strides": tuple(stride * itemsize for stride in self.strides),
        }

    def numpy(self):
        """A numpy array over the same memory; it keeps this tensor alive as its base."""
        return np.asarray(self)

    def _derived(self, name, *args):
        return Tensor(self._lib, self._lib._new_handle(name, self._handle, *args))

    def __getitem__(self, key):
        """Basic indexing with numpy's rules: integers, slices (any step) and one Ellipsis."""
        if not isinstance(key, tuple):
            key = (key,)
        if sum(item is Ellipsis for item in key) > 1:
            raise IndexError("an index can only have a single ellipsis ('...')")
        if Ellipsis in key:
            at = key.index(Ellipsis)
            fill = self.ndim - (len(key) - 1)
            key = key[:at] + (slice(None),) * max(fill, 0) + key[at + 1:]
        if len(key) > self.ndim:
            raise IndexError(f"too many indices for a tensor of rank {self.ndim}")
        slices = (_Slice * max(len(key), 1))()
        dropped = []
        for axis, item in enumerate(key):
            if isinstance(item, slice):
                if item.step is not None and operator.index(item.step) == 0:
                    raise ValueError("slice step cannot be zero")
                slices[axis] = _Slice(
                    0 if item.start is None else _clamp_int64(operator.index(item.start)),
                    0 if item.stop is None else _clamp_int64(operator.index(item.stop)),
                    0 if item.step is None else _clamp_int64(operator.index(item.step)),
                    item.start is not None, item.stop is not None)
            else:
                index = operator.index(item)
                extent = self.shape[axis]
                if not -extent <= index < extent:
                    raise IndexError(f"index {index} is out of bounds for axis {axis} with size "
                                     f"{extent}")
                index %= extent
                slices[axis] = _Slice(index, index + 1, 1, True, True)
                dropped.append(axis)
        result = self._derived("swarm_tensor_slice", slices, len(key))
        if dropped:
            shape = [extent for axis, extent in enumerate(result.shape) if axis not in dropped]
            result = result.reshape(shape)
        return result

    def transpose(self, *axes):
        if not axes:
            return self._derived("swarm_tensor_transpose")
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        array = (ctypes.c_size_t * max(len(axes), 1))(*[operator.index(a) for a in axes])
        return self._derived("swarm_tensor_permute", array, len(axes))

    @property
    def T(self):  # noqa: N802 - numpy's name
        return self.transpose()

    def reshape(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        array, rank = _shape_array(shape)
        return self._derived("swarm_tensor_reshape", array, rank)

    def as_read_only(self):
        return self._derived("swarm_tensor_read_only")

    def copy(self, context):
        """A new contiguous tensor buffer in `context` with these elements."""
        return Buffer(self._lib, self._lib._new_handle("swarm_tensor_copy", context._handle,
                                                       self._handle))

    def astype(self, context, dtype):
        """A new tensor buffer in `context` with these elements cast to `dtype`."""
        return Buffer(self._lib, self._lib._new_handle("swarm_tensor_cast", context._handle,
                                                       self._handle, dtype_code(dtype)))

    def copy_into(self, dst):
        self._lib._call("swarm_tensor_copy_into", self._handle, dst._handle)

    def format(self, limit=0, edge_items=0):
        """Nx-style text; 0 means swarm's default (limit 1000 elements, 3 edge items)."""
        desc = _FormatDesc(limit, edge_items)
        return _text(self._lib, "swarm_tensor_format", self._handle, ctypes.byref(desc))

    def __str__(self):
        return self.format()

    def __repr__(self):
        return f"<swarm.Tensor {self.format(limit=1).splitlines()[0]}>"

    def save_npy(self, path):
        self._lib._call("swarm_tensor_save_npy", self._handle, str(path).encode())

    def __dlpack__(self, stream=None):
        if stream is not None:
            raise BufferError("swarm tensors live in CPU memory: stream must be None")
        managed = _P()
        self._lib._call("swarm_tensor_to_dlpack", self._handle, ctypes.byref(managed))
        try:
            return _managed_capsule(managed.value)
        except BaseException:
            self._lib._dll.swarm_dlpack_delete(managed)
            raise

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU, device 0

    def _reduce_all(self, op):
        value = ctypes.c_double()
        self._lib._call("swarm_tensor_reduce_all", _REDUCE_OPS[op], self._handle,
                        ctypes.byref(value))
        return value.value

    def sum(self):
        return self._reduce_all("sum")

    def mean(self):
        return self._reduce_all("mean")

    def min(self):
        return self._reduce_all("min")

    def max(self):
        return self._reduce_all("max")


class RobotModel(_Handle):
    """A robot read from URDF: counts and names (links, q values, velocities)."""

    _destroy = "swarm_robot_model_destroy"

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

    def _names(self, kind, count):
        return [_text(self._lib, "swarm_robot_model_name", self._handle, kind, index)
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

    def __init__(self, lib, handle, batch):
        super().__init__(lib, handle)
        self.batch = batch

    def step(self, step, dt):
        self._lib._call("swarm_robot_task_step", self._handle, step, dt)

    def totals(self):
        totals = TaskTotals(self._lib)
        self._lib._call("swarm_robot_task_totals", self._handle, ctypes.byref(totals._totals))
        return totals


class RobotBatch(_Handle):
    """R robots of one model stepped in lockstep. Each state property is a numpy view of
    swarm's arrays (float32, robot r in row r; link_poses is (R, links, 7) px py pz qx qy qz
    qw): writes are seen by the next step, steps update the arrays in place. qdd, link_poses
    and contact_forces are read-only. Views keep the batch's memory alive."""

    _destroy = "swarm_robot_batch_destroy"

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

    def _view(self, name):
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
        "pd-gravity"; "computed-torque"), forward dynamics with contacts, integration, FK."""
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
        desc = _RobotTaskDesc(_ROBOT_TASKS[task], seed, first_robot, torque,
                              _TORQUE_CONTROLLERS[controller])
        handle = self._lib._new_handle("swarm_robot_task_create", self._handle, ctypes.byref(desc))
        return RobotTask(self._lib, handle, self)

    def state_digest(self, first_robot=0):
        """A digest of the state that batches of consecutive robot ranges add up to (mod 2^64),
        robot 0 of this batch being robot `first_robot` of the run; the "state hash" swarm-robots
        run prints."""
        value = ctypes.c_uint64()
        self._lib._call("swarm_robot_batch_state_digest", self._handle, first_robot,
                        ctypes.byref(value))
        return value.value
