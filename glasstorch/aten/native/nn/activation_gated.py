"""Gated and log-space activations: glu (the first half gated by the sigmoid of the second)
and log_sigmoid, each with its fused backward operator.

`log_sigmoid` is, as in ATen, a composite over `log_sigmoid_forward`, which also returns
the buffer ``exp(-|x|)`` its backward reuses (torch's node is `LogSigmoidBackward0`).
"""
from __future__ import annotations

import numpy as np

from ....c10.dtype import scalar_type_name
from ....c10.tensor_impl import make_tensor
from ... import functions as at
from ...derivatives import derivative_helper
from ...meta.pointwise import Promotion, elementwise_meta
from ...meta.shape import wrap_dim
from ...registry import TensorMeta, composite, op
from ...schema import SchemaKind
from .activation import NOT_FLOATING
from ..pointwise.blocks import logistic
from ..pointwise.unary import refuse


# ----------------------------------------------------------------------------------
# log_sigmoid
# ----------------------------------------------------------------------------------
def _log_sigmoid_meta(self, out=None):
    """Row-major results of self's shape (torch's kernel works on a contiguous copy)."""
    for given in out or ():
        if given._dtype is not self._dtype:
            raise RuntimeError(f"expected scalar type {scalar_type_name(self._dtype)} but "
                               f"found {scalar_type_name(given._dtype)}")
    return TensorMeta(self._size, self._dtype), TensorMeta(self._size, self._dtype)


@op("log_sigmoid_forward(Tensor self) -> (Tensor output, Tensor buffer)",
    meta=_log_sigmoid_meta, out=True, out_overload="output", function=False,
    grad={"self": "log_sigmoid_backward(grad, self, buffer)",
          "output_differentiability": (True, False)})
def log_sigmoid_forward(self, *, out):
    """``log(sigmoid(x)) = min(x, 0) - log1p(exp(-|x|))`` (exact for large |x|), and the
    buffer ``exp(-|x|)`` its backward reuses."""
    refuse(self, "log_sigmoid_cpu", NOT_FLOATING)
    output, buffer = out
    x = self.astype(np.float32) if self.dtype.itemsize == 2 else self
    buffer_values = np.exp(-np.abs(x))
    np.copyto(output, np.minimum(x, 0) - np.log1p(buffer_values), casting="unsafe")
    np.copyto(buffer, buffer_values, casting="unsafe")


@derivative_helper
def log_sigmoid_double_backward(grad, self):
    """log_sigmoid''(x) = -s (1 - s), s = sigmoid(x) (`grad` holds grad * grad_output)."""
    s = self.sigmoid()
    return grad * (s - 1) * s


@op("log_sigmoid_backward(Tensor grad_output, Tensor self, Tensor buffer) -> Tensor",
    meta=lambda grad_output, self, buffer: elementwise_meta([grad_output, self, buffer],
                                                            Promotion.DEFAULT),
    out=True, out_overload="grad_input", out_names=("grad_input",), function=False,
    grad={"grad_output": "log_sigmoid_backward(grad, self, buffer)",
          "self": "log_sigmoid_double_backward(grad * grad_output, self)",
          "buffer": "refuses_requires_grad"})
def log_sigmoid_backward(grad_output, self, buffer, *, out):
    """The gradient of `log_sigmoid`: ``grad_output * sigmoid(-x)``, from the buffer
    z = exp(-|x|): ``1 - z / (1 + z)`` below 0, ``z / (1 + z)`` above."""
    wide = np.float32 if out.dtype.itemsize == 2 else out.dtype
    z = buffer.astype(wide)
    share = np.divide(z, 1 + z, out=np.empty(z.shape, wide))
    np.subtract(1, share, out=share, where=self < 0)
    np.multiply(share, grad_output, out=share)
    np.copyto(out, share, casting="unsafe")


@composite("log_sigmoid(Tensor self) -> Tensor", out=True, python_module="nn")
def log_sigmoid(self, out=None):
    """``log(1 / (1 + exp(-x)))``, computed without overflow.

    Example::

        >>> torch.nn.functional.logsigmoid(torch.tensor([-100., 0., 100.]))
        tensor([-100.0000,   -0.6931,   -0.0000])
    """
    if out is None:
        return log_sigmoid_forward.call(self)[0]
    buffer = self.new_empty((0,))
    overload = log_sigmoid_forward.declaration.overloads[SchemaKind.out]
    return overload.call(self, out, buffer)[0]


# ----------------------------------------------------------------------------------
# glu
# ----------------------------------------------------------------------------------
def _halved_dim(self, dim: int) -> int:
    if self.dim() == 0:
        raise RuntimeError("glu does not support 0-dimensional tensors")
    wrapped = wrap_dim(dim, self.dim())
    size = self._size[wrapped]
    if size % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {wrapped} is size "
                           f"{size}")
    return wrapped


def _glu_meta(self, dim=-1):
    """The halves' shape, laid out as TensorIterator lays out a result of the halves."""
    wrapped = _halved_dim(self, dim)
    size = list(self._size)
    size[wrapped] //= 2
    half = make_tensor(self._storage, tuple(size), self._stride, self._offset, self._dtype)
    return elementwise_meta([half], Promotion.DEFAULT)


def _halves(x: np.ndarray, axis: int) -> tuple:
    middle = x.shape[axis] // 2
    first = [slice(None)] * x.ndim
    second = list(first)
    first[axis] = slice(0, middle)
    second[axis] = slice(middle, None)
    return x[tuple(first)], x[tuple(second)]


def _wide(x: np.ndarray) -> np.ndarray:
    return x.astype(np.float32) if x.dtype.itemsize == 2 else x


def _gate(second: np.ndarray, rounded: bool = False) -> np.ndarray:
    """sigmoid of the second half, in float32 for float16 / bfloat16 inputs; `rounded`
    to their dtype first, as torch's backward kernel keeps it."""
    gate = logistic(_wide(second))
    if rounded and second.dtype.itemsize == 2:
        gate = gate.astype(second.dtype).astype(np.float32)
    return gate


@op("glu(Tensor self, int dim=-1) -> Tensor", meta=_glu_meta, out=True, python_module="nn",
    grad={"self": "glu_backward(grad, self, dim)"})
def glu(self, dim, *, out):
    """The gated linear unit: split `input` in two halves along `dim`, and gate the first
    by the sigmoid of the second, ``a * sigmoid(b)``.

    Example::

        >>> torch.nn.functional.glu(torch.tensor([1., 2., 0., 100.]))
        tensor([0.5000, 2.0000])
    """
    refuse(self, "glu_cpu", NOT_FLOATING)
    first, second = _halves(self, wrap_dim(dim, self.ndim))
    gate = _gate(second)
    np.multiply(gate, first, out=gate)
    # rounded to the input's dtype even for a wider out=, as TensorIterator computes
    np.copyto(out, gate.astype(self.dtype, copy=False), casting="unsafe")


def _glu_backward_meta(grad_output, self, dim):
    _halved_dim(self, dim)
    return TensorMeta(self._size, grad_output._dtype)


def _glu_parts(self, dim: int):
    first, second = self.chunk(2, dim)
    gate = second.sigmoid()
    return first, gate, gate * (1 - gate)


@derivative_helper
def glu_double_backward_grad_output(grad, self, dim: int):
    """glu_backward is linear in grad_output: apply it to `grad` (split like self)."""
    first, gate, slope = _glu_parts(self, dim)
    into_first, into_second = grad.chunk(2, dim)
    return into_first * gate + into_second * first * slope


@derivative_helper
def glu_double_backward(grad, grad_output, self, dim: int):
    """glu_backward's derivative in self: the first half through the gate's slope, the
    second through the gate's slope and curvature."""
    first, gate, slope = _glu_parts(self, dim)
    into_first, into_second = grad.chunk(2, dim)
    return at.cat([into_second * grad_output * slope,
                   grad_output * slope * (into_first + into_second * first * (1 - 2 * gate))],
                  dim)


@op("glu_backward(Tensor grad_output, Tensor self, int dim) -> Tensor", meta=_glu_backward_meta,
    out=True, out_overload="grad_input", out_names=("grad_input",), function=False,
    grad={"grad_output": "glu_double_backward_grad_output(grad, self, dim)",
          "self": "glu_double_backward(grad, grad_output, self, dim)"})
def glu_backward(grad_output, self, dim, *, out):
    """The gradient of `glu`: ``grad * sigmoid(b)`` for the first half, ``grad * a *
    sigmoid(b) * (1 - sigmoid(b))`` for the second."""
    refuse(self, "glu_backward_cpu", NOT_FLOATING)
    axis = wrap_dim(dim, self.ndim)
    first, second = _halves(self, axis)
    grad = _wide(grad_output)
    gate = _gate(second, rounded=True)
    into_first, into_second = _halves(out, axis)
    np.copyto(into_first, gate * grad, casting="unsafe")
    slope = gate * (1 - gate)
    np.multiply(slope, first, out=slope)
    np.copyto(into_second, np.multiply(slope, grad, out=slope), casting="unsafe")
