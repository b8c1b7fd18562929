"""Smooth activations and their backward operators: elu (selu, celu), sigmoid's and
tanh's backward, silu, mish, softplus, hardsigmoid and hardswish (gelu has
`activation_gelu.py`).

As in `activation.py`: pointwise declarations (float16 / bfloat16 computed in float32),
each derivative calling a fused backward operator that torch binds only in
``torch.ops.aten``; second derivatives are the helpers beside those operators.
The kernels follow torch's CPU formulas (``expm1`` for elu, softplus reverting to ``x``
above `threshold`).
"""
from __future__ import annotations

import numpy as np

from ....c10.dispatch_key import AUTOGRAD, local_keys
from ....c10.dtype import type_meta_name
from ...derivatives import derivative_helper
from ...dispatcher import ops
from ...pointwise import pointwise, zero_where
from ...registry import composite
from ...schema import SchemaKind
from .activation import BACKWARD, NN, NOT_FLOATING
from ..pointwise.blocks import constant, in_blocks, logistic, select
from ..pointwise.unary import COMPLEX, exact_dtype_out, refuse
from ..pointwise.vector_loops import scalar_tail_positions

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946
_ONE_SIXTH_FLOAT = float(np.float32(1.0 / 6.0))     # torch's backward scales by a float's 1/6
_DEKKER_SPLIT = 2.0 ** 27 + 1                       # splits a double into 26-bit halves


def typed_out(target, described, inplace: bool) -> None:
    """The out= check of torch's composite activations (celu, hardswish_backward): the
    exact dtype, worded with c10's type names."""
    if target._dtype is not described.dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {type_meta_name(described.dtype)}"
                           f", but got {type_meta_name(target._dtype)} instead")


def _celu_out(target, described, inplace: bool) -> None:
    """celu's out= (torch's composite over elu) is resized row-major."""
    typed_out(target, described, inplace)
    if not inplace:
        described.stride = None


def scratch(like: np.ndarray) -> np.ndarray:
    """A temporary of `like`'s shape and dtype (ufuncs return scalars for 0-dim inputs,
    which cannot be written in place)."""
    return np.empty(like.shape, like.dtype)


def scaled(values: np.ndarray, factor) -> np.ndarray:
    """``values * factor`` in a new array, or `values` itself for a factor of 1: the
    product's bits (but for a signalling NaN, which stays signalling) without its pass."""
    if factor == 1:
        return values
    return np.multiply(values, constant(factor, values.dtype), out=scratch(values))


def scale_in_place(values: np.ndarray, factor) -> None:
    """``values *= factor``, no pass for a factor of 1."""
    if factor != 1:
        np.multiply(values, constant(factor, values.dtype), out=values)


# ----------------------------------------------------------------------------------
# elu, selu, celu
# ----------------------------------------------------------------------------------
@pointwise("elu(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor",
           inplace=True, out=True, **NN,
           grad={"self": "elu_backward(grad, alpha, scale, input_scale, False, self)"})
def elu(self, alpha, scale, input_scale, *, out):
    """``scale * x`` for positive elements, ``scale * alpha * (exp(input_scale * x) - 1)``
    for the others.

    Example::

        >>> torch.nn.functional.elu(torch.tensor([-1., 2.]))
        tensor([-0.6321,  2.0000])
    """
    refuse(self, "elu_cpu", NOT_FLOATING)
    in_blocks(lambda x, out: _elu_block(x, alpha, scale, input_scale, out), (self,), out)


def _elu_block(x: np.ndarray, alpha, scale, input_scale, out: np.ndarray) -> None:
    curve = np.expm1(scaled(x, input_scale), out=scratch(x))   # `out` may be x (elu_)
    scale_in_place(curve, alpha * scale)
    select(x <= 0, curve, scaled(x, scale), out)


@derivative_helper
def elu_double_backward(grad, grad_output, alpha, scale, input_scale, is_result: bool,
                        self_or_result):
    """d/dx of elu_backward: only the negative part curves."""
    negative = (self_or_result < 0).to(grad.dtype)
    if is_result:
        return grad * grad_output * input_scale * negative
    inner = ops.aten.elu_backward(grad * grad_output * input_scale, alpha, scale,
                                  input_scale, False, self_or_result)
    return inner * negative


@pointwise("elu_backward(Tensor grad_output, Scalar alpha, Scalar scale, Scalar input_scale, "
           "bool is_result, Tensor self_or_result) -> Tensor", **BACKWARD,
           grad={"grad_output": "elu_backward(grad, alpha, scale, input_scale, is_result, "
                                "self_or_result)",
                 "self_or_result": "elu_double_backward(grad, grad_output, alpha, scale, "
                                   "input_scale, is_result, self_or_result)"})
def elu_backward(grad_output, alpha, scale, input_scale, is_result, self_or_result, *, out):
    """The gradient of `elu`, from its input or (after an in-place elu_) its result."""
    if is_result and alpha < 0:
        raise RuntimeError("In-place elu backward calculation is triggered with a negative "
                           "slope which is not supported. This is caused by calling in-place "
                           "forward function with a negative slope, please call out-of-place "
                           "version instead.")
    in_blocks(lambda grad, x, out: _elu_backward_block(grad, x, alpha, scale, input_scale,
                                                       is_result, out),
              (grad_output, self_or_result), out)


def _elu_backward_block(grad: np.ndarray, x: np.ndarray, alpha, scale, input_scale,
                        is_result: bool, out: np.ndarray) -> None:
    curve = np.empty(out.shape, out.dtype)
    if is_result:                     # result = scale * alpha * (e - 1): e from the result
        np.add(x, constant(alpha * scale, out.dtype), out=curve)
    else:
        np.exp(scaled(x, input_scale), out=curve)
        scale_in_place(curve, alpha * scale)
    scale_in_place(curve, input_scale)
    np.multiply(curve, grad, out=curve)
    select(x <= 0, curve, scaled(grad, scale), out)             # NaN: the positive side


@composite("selu(Tensor self) -> Tensor")
def selu(self):
    """The scaled elu with SELU's self-normalizing constants (alpha ≈ 1.6733, scale ≈
    1.0507).

    Example::

        >>> torch.selu(torch.tensor([-1., 1.]))
        tensor([-1.1113,  1.0507])
    """
    return elu.call(self, SELU_ALPHA, SELU_SCALE, 1)


@composite("selu_(Tensor(a!) self) -> Tensor(a!)")
def selu_(self):
    """In-place `selu`."""
    return elu.declaration.overloads[SchemaKind.inplace].call(self, SELU_ALPHA, SELU_SCALE, 1)


@derivative_helper
def celu_backward(grad, self, alpha):
    """celu's derivative: elu_backward with input scale ``1 / alpha``, alpha read as a
    float32 first (torch's formula uses ``alpha.toFloat()``)."""
    input_scale = 1.0 / float(np.float32(alpha))
    return ops.aten.elu_backward(grad, alpha, 1, input_scale, False, self)


@pointwise("celu(Tensor self, Scalar alpha=1.) -> Tensor", inplace=True, out=True,
           method=False, numbers=(), check_out=_celu_out,
           grad={"self": "celu_backward(grad, self, alpha)"})
def celu(self, alpha, *, out):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``: elu with input scale
    ``1 / alpha``, continuously differentiable for every alpha.

    Example::

        >>> torch.celu(torch.tensor([-1., 1.]), alpha=2.0)
        tensor([-0.7869,  1.0000])
    """
    if alpha == 0:                  # checked by torch's CPU kernel: meta calls pass
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    elu.declaration.kernel(self, alpha, 1, 1.0 / float(alpha), out=out)


# ----------------------------------------------------------------------------------
# sigmoid's backward (sigmoid itself is in pointwise/special.py)
# ----------------------------------------------------------------------------------
@pointwise("sigmoid_backward(Tensor grad_output, Tensor output) -> Tensor", **BACKWARD,
           grad={"grad_output": "sigmoid_backward(grad, output.conj())",
                 "output": "grad.conj() * grad_output * (1 - 2 * output.conj())",
                 "result": "sigmoid_backward(grad_output_t, output) "
                           "+ output_t.conj() * grad_output * (1 - 2 * output.conj())"})
def sigmoid_backward(grad_output, output, *, out):
    """The gradient of `sigmoid` from its result y: ``(grad_output * (1 - y)) * y``,
    multiplied in torch's kernel's order (``grad * conj(y (1 - y))`` for complex)."""
    if out.dtype.kind == "c":
        np.multiply(grad_output, np.conj(output * (1 - output)), out=out)
        return
    in_blocks(_sigmoid_backward_block, (grad_output, output), out)


def _sigmoid_backward_block(grad: np.ndarray, y: np.ndarray, *, out: np.ndarray) -> None:
    complement = np.subtract(constant(1, out.dtype), y, out=np.empty(out.shape, out.dtype))
    np.multiply(grad, complement, out=complement)
    np.multiply(complement, y, out=out)


# ----------------------------------------------------------------------------------
# tanh's backward (tanh itself is in pointwise/trigonometric.py)
# ----------------------------------------------------------------------------------
@pointwise("tanh_backward(Tensor grad_output, Tensor output) -> Tensor", **BACKWARD,
           grad={"grad_output": "tanh_backward(grad, output.conj())",
                 "output": "grad.conj() * (-2 * output.conj() * grad_output).conj()",
                 "result": "tanh_backward(grad_output_t, output) "
                           "+ output_t.conj() * (-2 * output.conj() * grad_output).conj()"})
def tanh_backward(grad_output, output, *, out):
    """The gradient of `tanh` from its result y: ``grad_output * (1 - y * y)`` with
    ``1 - y * y`` rounded once, as torch's kernels fuse it into one multiply-add
    (float16 and bfloat16 computed in float32, rounded at the end); ``grad * conj(1 -
    y * y)`` for complex."""
    if out.dtype.kind == "c":
        np.multiply(grad_output, np.conj(1 - output * output), out=out)
        return
    in_blocks(_tanh_backward_block, (grad_output, output), out)


def _tanh_backward_block(grad: np.ndarray, y: np.ndarray, *, out: np.ndarray) -> None:
    if out.dtype == np.float32:
        slope = _one_minus_square_float32(y)
    else:
        slope = _one_minus_square_float64(y)
    np.multiply(grad, slope, out=out)


def _one_minus_square_float32(y: np.ndarray) -> np.ndarray:
    """``1 - y * y`` rounded once to float32, in a new array: through float64, where
    ``y * y`` is exact (24 + 24 bits) and so is ``1 - y * y`` for |y| >= 1/8. Below
    that, float64 rounds it, and rounding again to float32 would go wrong only on a
    float32 tie, which no float32 y reaches (every |y| in [2**-13, 1/8) checked; below
    2**-13 both round to 1): the test holds that range whole."""
    wide = np.empty(y.shape, np.float64)
    np.copyto(wide, y)
    np.multiply(wide, wide, out=wide)
    np.subtract(constant(1, wide.dtype), wide, out=wide)
    slope = scratch(y)
    np.copyto(slope, wide, casting="unsafe")
    return slope


def _one_minus_square_float64(y: np.ndarray) -> np.ndarray:
    """``1 - y * y`` rounded once, in a new float64 array: the square as an exact sum
    ``p + e`` (Dekker's product of y's halves), ``1 - p`` as an exact sum ``s + t``
    (Fast2Sum while p < 2, as for tanh's results; else Knuth's two-sum), then
    ``s + (t - e)``. Where y is beyond the halves' range (the square overflows, or y
    is not finite) ``1 - p`` is the answer."""
    square = np.multiply(y, y, out=scratch(y))
    high = np.multiply(y, constant(_DEKKER_SPLIT, y.dtype), out=scratch(y))
    np.subtract(high, np.subtract(high, y, out=scratch(y)), out=high)
    low = np.subtract(y, high, out=scratch(y))
    error = np.multiply(high, high, out=scratch(y))              # e = y y - p, exactly
    np.subtract(error, square, out=error)
    np.add(error, np.multiply(np.add(high, high, out=high), low, out=high), out=error)
    np.add(error, np.multiply(low, low, out=low), out=error)
    one = constant(1, y.dtype)
    rounded = np.subtract(one, square, out=scratch(y))          # s = 1 - p, rounded
    if square.size and square.max() < 2:                        # Fast2Sum: -t = p + (s - 1)
        lost = np.add(square, np.subtract(rounded, one, out=low), out=low)
        np.add(lost, error, out=lost)
        return np.subtract(rounded, lost, out=lost)
    shift = np.subtract(rounded, one, out=low)                   # t = (1 - p) - s
    lost = np.subtract(one, np.subtract(rounded, shift, out=high), out=high)
    np.add(lost, np.subtract(np.negative(square, out=square), shift, out=shift), out=lost)
    np.subtract(lost, error, out=lost)
    exact = np.add(rounded, lost, out=lost)
    unsplit = ~np.isfinite(exact)
    if unsplit.any():
        exact[unsplit] = rounded[unsplit]
    return exact


# ----------------------------------------------------------------------------------
# silu and mish
# ----------------------------------------------------------------------------------
def _grad_mode() -> bool:
    """Whether backward itself is being recorded (create_graph): grad mode is on, which
    c10's thread-local keys say (`no_grad` excludes the Autograd key)."""
    return not local_keys.excluded & AUTOGRAD


@derivative_helper
def silu_input_backward(grad, self):
    """silu's derivative: the fused silu_backward, or, when the backward itself is
    recorded (create_graph), the same math in differentiable operators, as torch's
    formula switches on grad mode (silu_backward has no derivative of its own)."""
    if not _grad_mode():
        return ops.aten.silu_backward(grad, self)
    s = self.sigmoid()
    return grad * s * (1 + self * (1 - s))


@pointwise("silu(Tensor self) -> Tensor", inplace=True, out=True, **NN,
           grad={"self": "silu_input_backward(grad, self)"})
def silu(self, *, out):
    """The sigmoid-weighted linear unit (swish) ``x * sigmoid(x)``.

    Example::

        >>> torch.nn.functional.silu(torch.tensor([-1., 0., 1.]))
        tensor([-0.2689,  0.0000,  0.7311])
    """
    refuse(self, "silu_cpu", NOT_FLOATING - COMPLEX)
    if self.dtype.kind == "c":                   # torch's complex silu: x / (1 + exp(-x))
        np.divide(self, 1 + np.exp(-self), out=out)
        return
    in_blocks(_silu_block, (self,), out)


def _silu_block(x: np.ndarray, *, out: np.ndarray) -> None:
    """``x / (1 + exp(-x))``: one division, as torch's kernel (not x times the sigmoid,
    which rounds twice)."""
    denominator = np.negative(x, out=scratch(x))
    np.exp(denominator, out=denominator)
    np.add(denominator, constant(1, x.dtype), out=denominator)
    np.divide(x, denominator, out=out)


@pointwise("silu_backward(Tensor grad_output, Tensor self) -> Tensor", **BACKWARD)
def silu_backward(grad_output, self, *, out):
    """The gradient of `silu`: ``grad_output * s * (1 + x * (1 - s))``, s = sigmoid(x)."""
    in_blocks(_silu_backward_block, (grad_output, self), out)


def _silu_backward_block(grad_output: np.ndarray, x: np.ndarray, *, out: np.ndarray) -> None:
    """``(grad * s) * (1 + x * (1 - s))``, multiplied in torch's kernel's order."""
    one = constant(1, x.dtype)
    sigmoid = logistic(x)
    slope = np.subtract(one, sigmoid, out=scratch(x))
    np.multiply(slope, x, out=slope)
    np.add(slope, one, out=slope)
    np.multiply(sigmoid, grad_output, out=sigmoid)
    np.multiply(sigmoid, slope, out=out)


def _tanh_softplus(x: np.ndarray) -> np.ndarray:
    """tanh(softplus(x)) = tanh(log1p(exp(x))), as torch's mish kernels compute it."""
    value = np.exp(x, out=scratch(x))
    np.log1p(value, out=value)
    return np.tanh(value, out=value)


@derivative_helper
def mish_input_backward(grad, self):
    """mish's derivative ``t + x s (1 - t^2)`` (t = tanh(softplus(x)), s = sigmoid(x)):
    fused, or in differentiable operators under create_graph, as `silu_input_backward`."""
    if not _grad_mode():
        return ops.aten.mish_backward(grad, self)
    t = ops.aten.softplus(self).tanh()
    return grad * (t + self * self.sigmoid() * (1 - t * t))


@pointwise("mish(Tensor self) -> Tensor", inplace=True, out=True, **NN,
           grad={"self": "mish_input_backward(grad, self)"})
def mish(self, *, out):
    """``x * tanh(softplus(x))``, a smooth self-gated activation.

    Example::

        >>> torch.nn.functional.mish(torch.tensor([-1., 0., 1.]))
        tensor([-0.3034,  0.0000,  0.8651])
    """
    refuse(self, "mish_cpu", NOT_FLOATING)
    np.multiply(_tanh_softplus(self), self, out=out)


@pointwise("mish_backward(Tensor grad_output, Tensor self) -> Tensor", method=False,
           function=False, numbers=(), check_out=exact_dtype_out)
def mish_backward(grad_output, self, *, out):
    """The gradient of `mish`: ``grad_output * (t + x * s * (1 - t^2))`` with
    t = tanh(softplus(x)) and s = sigmoid(x)."""
    in_blocks(_mish_backward_block, (grad_output, self), out)


def _mish_backward_block(grad: np.ndarray, x: np.ndarray, *, out: np.ndarray) -> None:
    tanh_softplus = _tanh_softplus(x)
    np.multiply(tanh_softplus, tanh_softplus, out=out)
    np.subtract(constant(1, out.dtype), out, out=out)
    np.multiply(out, logistic(x), out=out)
    np.multiply(out, x, out=out)
    np.add(out, tanh_softplus, out=out)
    np.multiply(out, grad, out=out)


# ----------------------------------------------------------------------------------
# softplus
# ----------------------------------------------------------------------------------
@pointwise("softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor", out=True,
           **NN, grad={"self": "softplus_backward(grad, self, beta, threshold)"})
def softplus(self, beta, threshold, *, out):
    """``log(1 + exp(beta * x)) / beta``, a smooth relu; ``x`` itself where
    ``beta * x > threshold`` (the two agree there to float precision).

    Example::

        >>> torch.nn.functional.softplus(torch.tensor([-1., 0., 30.]))
        tensor([ 0.3133,  0.6931, 30.0000])
    """
    refuse(self, "softplus_cpu", NOT_FLOATING)
    in_blocks(lambda x, out: _softplus_block(x, beta, threshold, out), (self,), out)


def _softplus_block(x: np.ndarray, beta, threshold, out: np.ndarray) -> None:
    product = scaled(x, beta)
    linear = product > constant(threshold, x.dtype)
    curve = np.exp(product, out=scratch(x))
    np.log1p(curve, out=curve)
    if beta != 1:                                     # x / 1 is x
        np.divide(curve, constant(beta, x.dtype), out=curve)
    select(linear, x, curve, out)


@derivative_helper
def softplus_double_backward(grad, self, beta, threshold):
    """softplus''(x) = beta s (1 - s) with s = sigmoid(beta x), 0 where it is linear
    (`grad` already holds grad * grad_output)."""
    s = (self * beta).sigmoid()
    return grad * s * (1 - s) * beta * (self * beta < threshold).to(grad.dtype)


@pointwise("softplus_backward(Tensor grad_output, Tensor self, Scalar beta, Scalar threshold) "
           "-> Tensor", **BACKWARD,
           grad={"grad_output": "softplus_backward(grad, self, beta, threshold)",
                 "self": "softplus_double_backward(grad * grad_output, self, beta, threshold)"})
def softplus_backward(grad_output, self, beta, threshold, *, out):
    """The gradient of `softplus`: ``grad_output * z / (z + 1)`` with z = exp(beta x),
    and `grad_output` itself where softplus is linear."""
    in_blocks(lambda grad, x, out: _softplus_backward_block(grad, x, beta, threshold, out),
              (grad_output, self), out)


def _softplus_backward_block(grad: np.ndarray, x: np.ndarray, beta, threshold,
                             out: np.ndarray) -> None:
    product = scaled(x, beta)
    linear = product > constant(threshold, x.dtype)
    z = np.exp(product, out=np.empty(out.shape, out.dtype))
    slope = np.add(z, constant(1, out.dtype), out=np.empty(out.shape, out.dtype))
    np.divide(z, slope, out=slope)
    np.multiply(slope, grad, out=slope)
    select(linear, grad, slope, out)


# ----------------------------------------------------------------------------------
# hardsigmoid and hardswish
# ----------------------------------------------------------------------------------
def _relu6_of_shifted(self: np.ndarray, out: np.ndarray) -> None:
    """out = min(max(x + 3, 0), 6) (NumPy's clip is that, in one pass)."""
    dtype = out.dtype
    np.add(self, constant(3, dtype), out=out)
    np.clip(out, constant(0, dtype), constant(6, dtype), out=out)


@pointwise("hardsigmoid(Tensor self) -> Tensor", inplace=True, out=True, **NN,
           grad={"self": "hardsigmoid_backward(grad, self)"})
def hardsigmoid(self, *, out):
    """A piecewise-linear sigmoid: ``min(max(x + 3, 0), 6) / 6``.

    Example::

        >>> torch.nn.functional.hardsigmoid(torch.tensor([-4., 0., 1.5]))
        tensor([0.0000, 0.5000, 0.7500])
    """
    refuse(self, "hardsigmoid_cpu", NOT_FLOATING)
    in_blocks(_hardsigmoid_block, (self,), out)


def _hardsigmoid_block(x: np.ndarray, *, out: np.ndarray) -> None:
    _relu6_of_shifted(x, out)
    np.divide(out, constant(6, out.dtype), out=out)


@pointwise("hardsigmoid_backward(Tensor grad_output, Tensor self) -> Tensor", **BACKWARD,
           grad={"grad_output": "hardsigmoid_backward(grad, self)",
                 "self": "zeros_like(grad)"})
def hardsigmoid_backward(grad_output, self, *, out):
    """The gradient of `hardsigmoid`: ``grad_output / 6`` on (-3, 3), else 0. (torch
    leaves its own derivative unimplemented; here it gives forward AD.)"""
    in_blocks(_hardsigmoid_backward_block, (grad_output, self), out)


def _hardsigmoid_backward_block(grad: np.ndarray, x: np.ndarray, *, out: np.ndarray) -> None:
    outside = ~((x > -3) & (x < 3))
    zero_where(outside, np.multiply(grad, _ONE_SIXTH_FLOAT, out=out), out)


@pointwise("hardswish(Tensor self) -> Tensor", inplace=True, out=True, **NN,
           grad={"self": "hardswish_backward(grad, self)"})
def hardswish(self, *, out):
    """``x * hardsigmoid(x)``: ``x * min(max(x + 3, 0), 6) / 6``.

    Example::

        >>> torch.nn.functional.hardswish(torch.tensor([-4., 1., 4.]))
        tensor([-0.0000,  0.6667,  4.0000])
    """
    refuse(self, "hardswish_cpu", NOT_FLOATING)
    in_blocks(_hardswish_block, (self,), out)


def _hardswish_block(x: np.ndarray, *, out: np.ndarray) -> None:
    gate = scratch(out)                        # a temporary: `out` may be x
    _relu6_of_shifted(x, gate)
    np.multiply(gate, x, out=gate)
    np.divide(gate, constant(6, out.dtype), out=out)


@pointwise("hardswish_backward(Tensor grad_output, Tensor self) -> Tensor", out=True,
           method=False, function=False, numbers=(), check_out=typed_out,
           grad={"grad_output": "hardswish_backward(grad, self)",
                 "self": "where((self > -3.0).logical_and(self < 3.0), grad * grad_output / 3.0, "
                         "zeros_like(grad))"})
def hardswish_backward(grad_output, self, *, out, result=None):
    """The gradient of `hardswish`: 0 up to -3, ``grad_output * (x / 3 + 0.5)`` below 3,
    `grad_output` from 3. At NaN, NaN as torch's vectorized loop gives, but
    `grad_output` where its scalar loop computes: the tails of its chunks, every
    element of operands not laid out alike (Note [Scalar tails of torch's vectorized
    loops])."""
    in_blocks(_hardswish_backward_block, (grad_output, self), out)
    if out.size == 0:
        return
    if not _vectorized(grad_output, self, out):       # the scalar loop throughout
        np.copyto(out, grad_output, where=np.isnan(self))
        return
    positions = scalar_tail_positions(out.size, (out.dtype if result is None else result).itemsize)
    flat = out.reshape(-1)
    one_number = not any(grad_output.strides)
    grad = grad_output.flat[0] if one_number else grad_output.reshape(-1)[positions]
    flat[positions] = np.where(np.isnan(self.reshape(-1)[positions]), grad, flat[positions])


def _vectorized(grad: np.ndarray, x: np.ndarray, out: np.ndarray) -> bool:
    """Whether torch's loop runs vectors along the whole of these operands: row-major
    alike, or the gradient one number (broadcast)."""
    return (x.shape == out.shape and x.flags.c_contiguous and out.flags.c_contiguous
            and (not any(grad.strides) or grad.shape == out.shape and grad.flags.c_contiguous))


def _hardswish_backward_block(grad: np.ndarray, x: np.ndarray, *, out: np.ndarray) -> None:
    ramp = np.divide(x, constant(3, out.dtype), out=np.empty(out.shape, out.dtype))
    np.add(ramp, constant(0.5, out.dtype), out=ramp)
    np.multiply(ramp, grad, out=ramp)
    select(x >= 3, grad, ramp, out)             # NaN: the ramp's NaN
    zero_where(x <= -3, out, out)
