"""Buffers and tensor views: the dtypes (swarm_dtype with numpy's), Buffer, Tensor (numpy views
through __array__, slicing, reshapes, copies, .npy, reductions) and the DLPack capsules
Tensor.__dlpack__ makes and Library.from_dlpack consumes.

How views keep memory alive: a Tensor's swarm_tensor handle belongs to a private _TensorMemory,
which is also the `base` of every numpy array made from the tensor. Tensor.close() drops only the
Tensor's reference to it; the handle (and with it the buffer, robot batch or particle system the
view points into, whose state the C handle holds) is destroyed when the last of the Tensor and its
arrays is gone. So an array taken before close never points at memory swarm has reused, and a
closed Tensor refuses to make new ones. DLPack capsules hold their own C reference (the exported
tensor's deleter)."""

import ctypes
import operator

import numpy as np

from . import _arguments
from ._handles import _Handle, _text, closed_error
from ._structures import _P, DLManagedTensor, _FormatDesc, _Slice, _TensorInfo


def _clamp_int64(value):
    """Slice bounds beyond int64 clamp like any bound past the axis (ctypes would wrap them)."""
    return max(-(1 << 63) + 1, min(value, (1 << 63) - 1))


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



def _shape_array(shape):
    shape = _arguments.integers("shape", shape, "int64")
    return (ctypes.c_int64 * max(len(shape), 1))(*shape), len(shape)



class Buffer(_Handle):
    """A reference on a swarm buffer; its memory lives while any tensor, numpy array or capsule of
    it does: close() releases this reference, and the memory returns to the context's budget when
    the last view goes."""

    _destroy = "swarm_buffer_release"
    _kind = "buffer"

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


class _TensorMemory:
    """Owns a swarm_tensor handle for a Tensor and every numpy array made from it (their `base`):
    the handle is destroyed when the last of them is gone."""

    def __init__(self, lib, handle, interface):
        self._lib = lib
        self.handle = handle
        self._interface = interface

    @property
    def __array_interface__(self):
        return self._interface

    def __del__(self):
        try:
            self._lib._dll.swarm_tensor_destroy(self.handle)
        except Exception:  # noqa: BLE001 - interpreter shutdown: the library may be gone
            pass


class Tensor(_Handle):
    """A tensor view: dtype, shape, strides in elements; numpy sees it through __array__
    (writable unless read_only) and __dlpack__ (read-only in numpy). Arrays made from it keep its
    memory alive after close(); a closed tensor raises on every use."""

    _kind = "tensor"

    def __init__(self, lib, handle):
        info = _TensorInfo()
        try:
            lib._call("swarm_tensor_info_get", handle, ctypes.byref(info))
        except BaseException:
            lib._dll.swarm_tensor_destroy(handle)
            raise
        self.dtype = DTYPES[info.dtype][1]
        self.shape = tuple(info.shape[:info.rank])
        self.strides = tuple(info.strides[:info.rank])  # in elements
        self.read_only = bool(info.read_only)
        self.data = info.data or 0
        itemsize = self.dtype.itemsize
        self._memory = _TensorMemory(lib, handle, {
            "version": 3,
            "shape": self.shape,
            "typestr": self.dtype.str,
            "data": (self.data, self.read_only),
            "strides": tuple(stride * itemsize for stride in self.strides),
        })
        super().__init__(lib, handle)

    def close(self):
        """Drops this tensor's reference to the view; arrays made from it keep the memory (and
        the context's budget counts it) until the last of them goes."""
        self._raw = None
        self._memory = None

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

    def __array__(self, dtype=None, copy=None):
        memory = self._memory
        if memory is None:
            raise closed_error(self._kind)
        array = np.asarray(memory)
        if dtype is not None and np.dtype(dtype) != array.dtype:
            return array.astype(dtype)
        return array.copy() if copy else array

    def numpy(self):
        """A numpy array over the same memory (no copy); its base keeps the memory alive."""
        return self.__array__()

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
        array = (ctypes.c_size_t * max(len(axes), 1))(*_arguments.integers("axes", axes))
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
        return Buffer(self._lib, context._new_handle("swarm_tensor_copy", self._handle))

    def astype(self, context, dtype):
        """A new tensor buffer in `context` with these elements cast to `dtype`."""
        return Buffer(self._lib, context._new_handle("swarm_tensor_cast", self._handle,
                                                     dtype_code(dtype)))

    def copy_into(self, dst):
        self._lib._call("swarm_tensor_copy_into", self._handle, dst._handle)

    def format(self, limit=0, edge_items=0):
        """Nx-style text; 0 means swarm's default (limit 1000 elements, 3 edge items)."""
        desc = _FormatDesc(_arguments.integer("limit", limit),
                           _arguments.integer("edge_items", edge_items))
        return _text(self._lib, "swarm_tensor_format", self._handle, ctypes.byref(desc))

    def __str__(self):
        return self.format()

    def __repr__(self):
        if self.closed:
            return "<swarm.Tensor closed>"
        return f"<swarm.Tensor {self.format(limit=1).splitlines()[0]}>"

    def save_npy(self, path):
        self._lib._call("swarm_tensor_save_npy", self._handle, _arguments.text("path", str(path)))

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

