"""The ctypes mirrors of swarm_c.h's structures and of DLPack 0.6's (dlpack/dlpack.h), with the
constants their layouts depend on. tests/python/test_c_api_layout.py checks every structure's size
and field offsets against the C headers."""

import ctypes

_P = ctypes.c_void_p  # every opaque handle (swarm_context, swarm_tensor, ...)
MAX_RANK = 8  # SWARM_MAX_RANK

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



class _UrdfDesc(ctypes.Structure):
    _fields_ = [("floating_base", ctypes.c_bool), ("max_bytes", ctypes.c_size_t),
                ("collisions", ctypes.c_int)]


class _RobotModelInfo(ctypes.Structure):
    _fields_ = [("links", ctypes.c_size_t), ("dof", ctypes.c_size_t),
                ("q_count", ctypes.c_size_t), ("velocity_count", ctypes.c_size_t),
                ("default_end_effector", ctypes.c_size_t), ("floating_base", ctypes.c_bool),
                ("actuators", ctypes.c_size_t), ("keyframes", ctypes.c_size_t)]


class _MjcfDesc(ctypes.Structure):
    _fields_ = [("max_bytes", ctypes.c_size_t)]


class _SoftConstraintDesc(ctypes.Structure):
    _fields_ = [("time_constant", ctypes.c_float), ("damping_ratio", ctypes.c_float),
                ("impedance_min", ctypes.c_float), ("impedance_max", ctypes.c_float),
                ("width", ctypes.c_float), ("midpoint", ctypes.c_float), ("power", ctypes.c_int),
                ("max_push_speed", ctypes.c_float)]


class _GroundDesc(ctypes.Structure):
    _fields_ = [("height", ctypes.c_float), ("friction", ctypes.c_float),
                ("soft", _SoftConstraintDesc)]


class _RobotBatchDesc(ctypes.Structure):
    _fields_ = [("robots", ctypes.c_size_t), ("torque", ctypes.c_bool), ("dof", ctypes.c_size_t),
                ("kp", ctypes.POINTER(ctypes.c_float)), ("kd", ctypes.POINTER(ctypes.c_float)),
                ("armature", ctypes.POINTER(ctypes.c_float)),
                ("gravity", ctypes.POINTER(ctypes.c_float)), ("integrator", ctypes.c_int),
                ("end_effector", ctypes.c_char_p), ("contacts", ctypes.c_bool),
                ("contact_links", ctypes.POINTER(ctypes.c_char_p)),
                ("contact_link_count", ctypes.c_size_t), ("contact_radius", ctypes.c_float),
                ("ground", ctypes.POINTER(_GroundDesc)),
                ("limits", ctypes.POINTER(_SoftConstraintDesc)),
                ("limit_tolerance", ctypes.c_float), ("max_joint_speed", ctypes.c_float),
                ("max_base_angular_speed", ctypes.c_float), ("max_step_turn", ctypes.c_float),
                ("collisions", ctypes.c_bool), ("world_contacts", ctypes.c_bool)]


class _ContactSlotInfo(ctypes.Structure):
    _fields_ = [("pair", ctypes.c_size_t), ("shape1", ctypes.c_char_p),
                ("shape2", ctypes.c_char_p), ("link1", ctypes.c_int), ("link2", ctypes.c_int),
                ("margin", ctypes.c_float)]


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
