"""What every object holding a C handle shares: SwarmError, the _Handle base (destroy on close,
del or leaving a with block) and _text, the size-query pattern of the calls that return text."""

import ctypes


class SwarmError(Exception):
    """A failed C API call: `status` is "invalid argument", "over budget", ..."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


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


def _text(lib, name, *args):
    length = ctypes.c_size_t()
    lib._call(name, *args, None, 0, ctypes.byref(length))
    text = ctypes.create_string_buffer(length.value + 1)
    lib._call(name, *args, text, len(text), ctypes.byref(length))
    return text.value.decode()
