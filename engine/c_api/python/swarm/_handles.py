"""What every object holding a C handle shares: SwarmError, the _Handle base (destroy on close,
del or leaving a with block; a clear error instead of a NULL handle once closed) and _text, the
size-query pattern of the calls that return text."""

import ctypes


class SwarmError(Exception):
    """A failed C API call: `status` is "invalid argument", "over budget", ..."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


def closed_error(kind):
    """The error of any use of a closed object: "use of a closed tensor: the tensor is closed"."""
    return SwarmError("invalid argument", f"use of a closed {kind}: the {kind} is closed")


class _Handle:
    """A C handle owned by one Python object. After close() the handle is gone and every use of
    `_handle` raises closed_error (C would only see NULL and report a null argument)."""

    _destroy = None
    _kind = "handle"  # what messages call it: "tensor", "robot batch", ...

    def __init__(self, lib, handle):
        self._lib = lib
        self._raw = handle

    @property
    def closed(self):
        return self._raw is None

    @property
    def _handle(self):
        raw = self._raw
        if raw is None:
            raise closed_error(self._kind)
        return raw

    def close(self):
        raw, self._raw = self._raw, None
        if raw is not None and raw.value:
            getattr(self._lib._dll, self._destroy)(raw)

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown: the library may be gone
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _text(lib, name, *args):
    length = ctypes.c_size_t()
    lib._call(name, *args, None, 0, ctypes.byref(length))
    text = ctypes.create_string_buffer(length.value + 1)
    lib._call(name, *args, text, len(text), ctypes.byref(length))
    return text.value.decode()
