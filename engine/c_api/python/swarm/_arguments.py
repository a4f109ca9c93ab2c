"""Checks of the values Python hands to C: ctypes converts an int to size_t, int64_t or int by
keeping its low bits (2**64 + 4 robots would become 4) and a str to char* up to its first NUL (an
expression "a\\0 + b" would become "a"), so every call site passes its integers, texts and
fixed-length tuples through these first. Errors name the parameter and the value."""

import ctypes
import math
import operator

from ._handles import SwarmError

_RANGES = {
    "size_t": (0, (1 << (8 * ctypes.sizeof(ctypes.c_size_t))) - 1),
    "int64": (-(1 << 63), (1 << 63) - 1),
    "uint64": (0, (1 << 64) - 1),
    "int": (-(1 << (8 * ctypes.sizeof(ctypes.c_int) - 1)),
            (1 << (8 * ctypes.sizeof(ctypes.c_int) - 1)) - 1),
}


def _invalid(message):
    return SwarmError("invalid argument", message)


def integer(name, value, c_type="size_t"):
    """`value` as a Python int within the range of the C type ("size_t", "int64", "uint64",
    "int")."""
    number = operator.index(value)
    low, high = _RANGES[c_type]
    if not low <= number <= high:
        raise _invalid(f"{name} must be an integer in [{low}, {high}] (C {c_type}), got {number}")
    return number


def integers(name, values, c_type="size_t"):
    """A list of ints, each checked like integer(); the error names the element."""
    return [integer(f"{name}[{index}]", value, c_type) for index, value in enumerate(values)]


def text(name, value):
    """`value` (str or bytes) as bytes for a char* parameter, which must not contain a NUL: C
    would read only the part before it."""
    data = value.encode() if isinstance(value, str) else bytes(value)
    position = data.find(b"\0")
    if position >= 0:
        raise _invalid(f"{name} must not contain a NUL character (C would ignore what follows "
                       f"it), got {value!r} with one at position {position}")
    return data


def vector(name, values, length):
    """A tuple of exactly `length` finite floats (gravity, a box corner, ...)."""
    try:
        items = list(values)
    except TypeError:
        raise _invalid(f"{name} must be {length} finite numbers, got {values!r}") from None
    if len(items) != length:
        raise _invalid(f"{name} must be {length} finite numbers, got {len(items)}: {values!r}")
    try:
        floats = [float(item) for item in items]
    except (TypeError, ValueError):
        raise _invalid(f"{name} must be {length} finite numbers, got {values!r}") from None
    if not all(math.isfinite(item) for item in floats):
        raise _invalid(f"{name} must be {length} finite numbers, got {values!r}")
    return tuple(floats)
