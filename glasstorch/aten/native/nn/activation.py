"""Piecewise-linear activations and their backward operators: threshold, hardtanh (relu6),
leaky_relu, hardshrink, softshrink and prelu (`_prelu_kernel`).

Each activation is a `pointwise` declaration whose derivative formula calls its fused
backward operator (``hardtanh_backward(grad, self, min_val, max_val)``), as
derivatives.yaml does; the backward operators are pointwise too (one NumPy pass each)
and have their own formulas, so double backward works. torch binds most of them in
``torch._C._nn`` only (``python_module="nn"``: torch.nn.functional finds them), the
backward operators nowhere but ``torch.ops.aten``. `relu` itself lives in `clamp.py`.
The smooth activations are in `activation_smooth.py`, the gated ones (glu,
log_sigmoid) in `activation_gated.py`.
"""
from __future__ import annotations

import math

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name
from ....c10.tensor_impl import TensorBase
from ... import functions as at
from ...derivatives import derivative_helper
from ...meta.pointwise import Promotion, elementwise_meta
from ...parallel import SPLIT_SIZE
from ...pointwise import pointwise, zero_where
from ...registry import TensorMeta, composite, op
from ...schema import SchemaKind
from ..creation.copy import cpp_type_name
from ..shape.shape import reshape
from ..pointwise.blocks import constant, in_blocks, select
from ..pointwise.unary import BOOL, COMPLEX, INTEGRAL, exact_dtype_out, refuse
from ..pointwise.zeroing import zero_where_in_bands

NOT_FLOATING = BOOL | INTEGRAL | COMPLEX
NN = {"python_module": "nn", "method": False, "numbers": (), "check_out": exact_dtype_out}
BACKWARD = {"out": True, "out_overload": "grad_input", "out_names": ("grad_input",),
            "method": False, "function": False, "numbers": (), "check_out": exact_dtype_out}


def _zero_where(mask: np.ndarray, values: np.ndarray, out: np.ndarray) -> None:
    """``out = mask ? 0 : values``: the shape of most backward operators here."""
    zero_where(mask, values, out)


# ----------------------------------------------------------------------------------
# threshold
# ----------------------------------------------------------------------------------
def _check_fits(dtype: np.dtype, values: tuple) -> None:
    """torch's conversion of Scalars to the kernel's dtype: a value beyond its range
    (a finite one beyond a float's) is refused."""
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
    elif dtype.kind == "f" or dtype.kind == "V":
        info = np.finfo(np.float32 if dtype.kind == "V" else dtype)   # bfloat16: float32's
    else:
        return
    for value in values:
        if math.isfinite(value) and not info.min <= value <= info.max:
            name = cpp_type_name(dtypes.from_numpy_dtype(dtype))
            raise RuntimeError(f"value cannot be converted to type {name} without overflow")


@pointwise("threshold(Tensor self, Scalar threshold, Scalar value) -> Tensor", inplace=True,
           out=True, method=False, numbers=(),
           grad={"self": "threshold_backward(grad, self, threshold)"})
def threshold(self, threshold, value, *, out, result=None):
    """Replace each element not above `threshold` by `value`: ``x if x > threshold else
    value`` (NaN stays NaN).

    Example::

        >>> torch.threshold(torch.tensor([-1., 0.5, 2.]), 1.0, 0.0)
        tensor([0., 0., 2.])
    """
    refuse(self, "threshold_cpu", BOOL | COMPLEX)
    _check_fits(self.dtype if result is None else result, (threshold, value))
    np.copyto(out, self)
    out[self <= threshold] = value


@pointwise("threshold_backward(Tensor grad_output, Tensor self, Scalar threshold) -> Tensor",
           leading="self", **BACKWARD,
           grad={"grad_output": "threshold_backward(grad, self, threshold)",
                 "self": "zeros_like(grad)"})
def threshold_backward(grad_output, self, threshold, *, out):
    """The gradient of `threshold` (and of `relu`): `grad_output` where `self` is above
    `threshold`, else 0."""
    refuse(self, "threshold_cpu", BOOL | COMPLEX)
    if out.size < SPLIT_SIZE:               # one call, no bands: a small gradient's frames
        zero_where(self <= threshold, grad_output, out)
    else:
        zero_where_in_bands(lambda values: values <= threshold, self, grad_output, out)


# ----------------------------------------------------------------------------------
# hardtanh and relu6
# ----------------------------------------------------------------------------------
def _check_hardtanh(self, min_val=-1, max_val=1) -> None:
    if not isinstance(self, TensorBase):
        return
    if self._dtype is dtypes.bool:
        raise RuntimeError("Bool inputs not supported for hardtanh")
    if self._dtype is dtypes.uint8 and (int(min_val) < 0 or int(max_val) < 0):
        raise RuntimeError("cannot do hardtanh on an unsigned type with negative limits")
    if self._dtype.is_complex:
        raise NotImplementedError("clamp is not supported for complex types")


@pointwise("hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor",
           inplace=True, out=True, check=_check_hardtanh, **NN,
           grad={"self": "hardtanh_backward(grad, self, min_val, max_val)"})
def hardtanh(self, min_val, max_val, *, out):
    """Clamp each element to ``[min_val, max_val]`` (integer inputs to the bounds'
    integer parts, as torch's legacy rule keeps the dtype).

    Example::

        >>> torch.nn.functional.hardtanh(torch.tensor([-2., 0.5, 3.]))
        tensor([-1.0000,  0.5000,  1.0000])
    """
    if out.dtype.kind in "iu":
        min_val, max_val = int(min_val), int(max_val)
    # clip is min(max(x, min_val), max_val), also when min_val > max_val, in one pass
    np.clip(self, out.dtype.type(min_val), out.dtype.type(max_val), out=out)


@pointwise("hardtanh_backward(Tensor grad_output, Tensor self, Scalar min_val, Scalar max_val) "
           "-> Tensor", **BACKWARD,
           grad={"grad_output": "hardtanh_backward(grad, self, min_val, max_val)",
                 "self": "zeros_like(grad)"})
def hardtanh_backward(grad_output, self, min_val, max_val, *, out):
    """The gradient of `hardtanh`: `grad_output` strictly inside the bounds, else 0 (NaN
    is not inside)."""
    _zero_where(~((self > min_val) & (self < max_val)), grad_output, out)


@composite("relu6(Tensor self) -> Tensor", python_module="nn")
def relu6(self):
    """``min(max(input, 0), 6)``: `hardtanh` with bounds 0 and 6.

    Example::

        >>> torch.nn.functional.relu6(torch.tensor([-1., 3., 8.]))
        tensor([0., 3., 6.])
    """
    return hardtanh.call(self, 0, 6)


@composite("relu6_(Tensor(a!) self) -> Tensor(a!)", python_module="nn")
def relu6_(self):
    """In-place `relu6`."""
    return hardtanh.declaration.overloads[SchemaKind.inplace].call(self, 0, 6)


# ----------------------------------------------------------------------------------
# leaky_relu
# ----------------------------------------------------------------------------------
@pointwise("leaky_relu(Tensor self, Scalar negative_slope=0.01) -> Tensor", inplace=True,
           out=True, **NN,
           grad={"self": "leaky_relu_backward(grad, self, negative_slope, False)"})
def leaky_relu(self, negative_slope, *, out):
    """``x`` for positive elements, ``negative_slope * x`` for the others.

    Example::

        >>> torch.nn.functional.leaky_relu(torch.tensor([-10., 2.]), 0.1)
        tensor([-1.,  2.])
    """
    refuse(self, "leaky_relu_cpu", NOT_FLOATING)
    slope = constant(negative_slope, self.dtype)
    in_blocks(lambda x, out: _leaky_relu_block(x, slope, out), (self,), out)


def _leaky_relu_block(x: np.ndarray, slope: np.ndarray, out: np.ndarray) -> None:
    """`x` where positive, else ``x * slope`` (`out` may be `x`; `slope` a 0-d array of
    x's dtype). A slope in (0, 1] scales every element towards 0 without passing it, so
    the larger of `x` and its scaled self is the answer (both the same NaN for a NaN)."""
    scaled = np.multiply(x, slope, out=np.empty(x.shape, x.dtype))
    if 0 < slope <= 1:
        np.maximum(x, scaled, out=out)
    else:
        select(x > 0, x, scaled, out)


@pointwise("leaky_relu_backward(Tensor grad_output, Tensor self, Scalar negative_slope, "
           "bool self_is_result) -> Tensor", leading="self", **BACKWARD,
           grad={"grad_output": "leaky_relu_backward(grad, self, negative_slope, False)",
                 "self": "zeros_like(grad)"})
def leaky_relu_backward(grad_output, self, negative_slope, self_is_result, *, out):
    """The gradient of `leaky_relu`: `grad_output` where `self` is positive, scaled by
    `negative_slope` elsewhere (`self` may be the result: the sign is the same)."""
    if self_is_result and negative_slope < 0:
        raise RuntimeError("In-place leakyReLu backward calculation is triggered with a "
                           "negative slope which is not supported. This is caused by calling "
                           "in-place forward function with a negative slope, please call "
                           "out-of-place version instead. File an issue at "
                           "https://github.com/pytorch/pytorch if you do require supporting "
                           "in-place leakRelu backward calculation with negative slope")
    slope = constant(negative_slope, out.dtype)
    in_blocks(lambda grad, x, out: _leaky_relu_block_backward(grad, x, slope, out),
              (grad_output, self), out)


def _leaky_relu_block_backward(grad: np.ndarray, x: np.ndarray, slope: np.ndarray,
                               out: np.ndarray) -> None:
    scaled = np.multiply(grad, slope, out=np.empty(out.shape, out.dtype))
    select(x > 0, grad, scaled, out)


# ----------------------------------------------------------------------------------
# hardshrink and softshrink
# ----------------------------------------------------------------------------------
@pointwise("hardshrink(Tensor self, Scalar lambd=0.5) -> Tensor", out=True, numbers=(),
           method=True, check_out=exact_dtype_out,
           grad={"self": "hardshrink_backward(grad, self, lambd)"})
def hardshrink(self, lambd, *, out):
    """Zero the elements within ``[-lambd, lambd]``, keep the others.

    Example::

        >>> torch.hardshrink(torch.tensor([-1., 0.2, 0.7]))
        tensor([-1.0000,  0.0000,  0.7000])
    """
    refuse(self, "hardshrink_cpu", NOT_FLOATING)
    _zero_where((self >= -lambd) & (self <= lambd), self, out)


@pointwise("hardshrink_backward(Tensor grad_out, Tensor self, Scalar lambd) -> Tensor",
           **BACKWARD,
           grad={"grad_out": "hardshrink_backward(grad, self, lambd)",
                 "self": "zeros_like(grad)"})
def hardshrink_backward(grad_out, self, lambd, *, out):
    """The gradient of `hardshrink` (and `softshrink`): 0 within ``[-lambd, lambd]``."""
    _zero_where((self >= -lambd) & (self <= lambd), grad_out, out)


def _check_lambd(self, lambd=0.5) -> None:
    """softshrink refuses a negative `lambd` (or one beyond the dtype's range)."""
    if not isinstance(self, TensorBase) or not self._dtype.is_floating_point:
        return
    largest = float(np.finfo(self._dtype._np).max) if self._dtype is not dtypes.bfloat16 \
        else 3.3895313892515355e38
    if not 0 <= lambd <= largest:
        raise RuntimeError(f"lambda must be in range [0, {largest:g}] for input dtype "
                           f"{scalar_type_name(self._dtype)}, but found {lambd:g}")


@pointwise("softshrink(Tensor self, Scalar lambd=0.5) -> Tensor", out=True, check=_check_lambd,
           **NN, grad={"self": "softshrink_backward(grad, self, lambd)"})
def softshrink(self, lambd, *, out):
    """Move each element `lambd` towards 0, and zero those within ``[-lambd, lambd]``.

    Example::

        >>> torch.nn.functional.softshrink(torch.tensor([-1., 0.2, 0.7]))
        tensor([-0.5000,  0.0000,  0.2000])
    """
    refuse(self, "softshrink_check", NOT_FLOATING)
    inside = (self >= -lambd) & (self <= lambd)     # before `out` (maybe self) is written
    np.subtract(self, np.copysign(lambd, self), out=out)
    out[inside] = 0


@pointwise("softshrink_backward(Tensor grad_output, Tensor self, Scalar lambd) -> Tensor",
           **BACKWARD,
           grad={"grad_output": "softshrink_backward(grad, self, lambd)",
                 "self": "zeros_like(grad)"})
def softshrink_backward(grad_output, self, lambd, *, out):
    """The gradient of `softshrink`: 0 within ``[-lambd, lambd]``, `grad_output` outside."""
    _zero_where((self >= -lambd) & (self <= lambd), grad_output, out)


# ----------------------------------------------------------------------------------
# prelu
# ----------------------------------------------------------------------------------
@pointwise("_prelu_kernel(Tensor self, Tensor weight) -> Tensor", method=False, numbers=(),
           grad={"self, weight": "_prelu_kernel_backward(grad, self, weight)"})
def _prelu_kernel(self, weight, *, out):
    """`prelu` with a weight already shaped to broadcast against `input`.

    Example::

        >>> torch._prelu_kernel(torch.tensor([-2., 2.]), torch.tensor([0.5]))
        tensor([-1.,  2.])
    """
    refuse(self, "prelu_cpu", NOT_FLOATING)
    positive = self > 0
    np.multiply(self, weight, out=out)
    np.copyto(out, self, where=positive)


def _prelu_backward_meta(grad_output, self, weight):
    """Both gradients in the broadcast shape, laid out after self (TensorIterator's
    first input in torch's kernel)."""
    described = elementwise_meta([self, weight, grad_output], Promotion.DEFAULT)
    return described, TensorMeta(described.shape, described.dtype, described.stride)


@derivative_helper
def prelu_kernel_double_backward(grad_grad_input, grad_grad_weight, grad_output, self, weight):
    """The derivatives of _prelu_kernel_backward's two results (``g`` or ``w g`` for the
    input, 0 or ``x g`` for the weight) in grad_output, self and weight."""
    positive = self > 0
    zero = at.zeros((), dtype=grad_output.dtype)
    return (at.where(positive, grad_grad_input,
                     weight * grad_grad_input + self * grad_grad_weight),
            at.where(positive, zero, grad_grad_weight * grad_output),
            at.where(positive, zero, grad_grad_input * grad_output))


@op("_prelu_kernel_backward(Tensor grad_output, Tensor self, Tensor weight) -> (Tensor, Tensor)",
    meta=_prelu_backward_meta, function=False,
    grad={"grad_output, self, weight": "prelu_kernel_double_backward(grads[0], grads[1], "
                                       "grad_output, self, weight)"})
def _prelu_kernel_backward(grad_output, self, weight, *, out):
    """The gradients of `_prelu_kernel` for input and weight, in the broadcast shape
    (autograd sums the weight's down to its shape): ``grad`` or ``weight * grad`` for the
    input, 0 or ``input * grad`` for the weight."""
    grad_input, grad_weight = out
    positive = np.broadcast_to(self > 0, grad_input.shape)
    np.multiply(grad_output, weight, out=grad_input)
    np.copyto(grad_input, grad_output, where=positive)
    np.multiply(grad_output, self, out=grad_weight)
    grad_weight[positive] = 0


def _check_prelu(self, weight) -> None:
    if self._dtype is not weight._dtype:
        raise RuntimeError(f"prelu: Type promoting not supported. Got "
                           f"{scalar_type_name(self._dtype)} and "
                           f"{scalar_type_name(weight._dtype)}")
    if weight.numel() != 1:
        if self.dim() == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = self._size[1] if self.dim() > 1 else 1
        if channels != weight.numel():
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found "
                               f"parameter numbers = {weight.numel()} and channel size = "
                               f"{channels}.")
    if weight.dim() > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: "
                           f"ndim = {weight.dim()}")


@composite("prelu(Tensor self, Tensor weight) -> Tensor", method=True)
def prelu(self, weight):
    """The parametric relu: ``x`` for positive elements, ``weight * x`` for the others,
    with one weight for every channel (dim 1) or one for all.

    Args:
        input (Tensor): the values, channels in dim 1.
        weight (Tensor): a single slope, or one per channel (1-dim).

    Example::

        >>> torch.prelu(torch.tensor([[-2., 2.], [-4., 4.]]), torch.tensor([0.5, 0.25]))
        tensor([[-1.,  2.],
                [-1.,  4.]])
    """
    _check_prelu(self, weight)
    if self.dim() != weight.dim():
        shape = [1] * self.dim()
        if self.dim() > 1:
            shape[1] = weight.numel()
        weight = reshape.call(weight, shape)
    return _prelu_kernel.call(self, weight)
