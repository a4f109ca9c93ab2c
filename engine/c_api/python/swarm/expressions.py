"""Fused expressions (swarm_evaluate and friends): Library's evaluate, prepare, evaluate_sum and
evaluate_reduce (the _ExpressionCalls it inherits) and PreparedExpression, prepare's result."""

import ctypes

import numpy as np

from . import _arguments
from ._handles import _Handle, SwarmError
from ._structures import _P
from .tensors import _REDUCE_OPS, Tensor


class _ExpressionCalls:
    """Library's expression methods (Library inherits them; they use its _call and from_dlpack)."""

    def _operands(self, operands):
        """(names, handles, keep-alive tensors) of named numpy arrays or Tensors, viewed in
        place."""
        names, handles, tensors = [], [], []
        for name, value in operands.items():
            tensor = value if isinstance(value, Tensor) else self.from_dlpack(
                np.asarray(value), read_only=True)
            names.append(_arguments.text(f"operand name {name!r}", name))
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
        text = _arguments.text("expression", expression)
        names, handles, keep = self._operands(operands)
        context._call("swarm_evaluate", text, names, handles, len(keep), target._handle)
        return out

    def prepare(self, expression, out=None, context=None, **operands):
        """evaluate(), checked once: returns a PreparedExpression whose call evaluates the
        expression again on the operands' current values (same arrays, same out) with a single
        library call, for loops that repeat it."""
        if context is None:
            context = self.context()
        out = self._output(out, operands)
        target = out if isinstance(out, Tensor) else self.from_dlpack(out)
        text = _arguments.text("expression", expression)
        names, handles, keep = self._operands(operands)
        handle = context._new_handle("swarm_expression_prepare", text, names, handles, len(keep),
                                     target._handle)
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
        text = _arguments.text("expression", expression)
        names, handles, keep = self._operands(operands)
        total = ctypes.c_double()
        self._call("swarm_evaluate_reduce", _REDUCE_OPS[op], text, names, handles, len(keep),
                   ctypes.byref(total))
        return total.value


class PreparedExpression(_Handle):
    """Library.prepare's result: calling it evaluates the expression into its out again."""

    _destroy = "swarm_expression_destroy"
    _kind = "prepared expression"

    def __init__(self, lib, handle, out, keep):
        super().__init__(lib, handle)
        self.out = out
        self._keep = keep  # the context and the operands' tensors, for as long as this lives
        self._run = lib._dll.swarm_expression_run

    def __call__(self):
        status = self._run(self._handle)  # raises once closed
        if status != 0:
            self._lib._raise(status)
        return self.out

