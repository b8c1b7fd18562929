"""The randomized leaky ReLU: `rrelu`, `rrelu_`, and the operators they call,
`rrelu_with_noise` (with its in-place twin) and `rrelu_with_noise_backward`.

In training every element that is not positive is multiplied by its own slope, drawn
uniformly from ``[lower, upper)``; the slopes (1 for the other elements) are written to
the `noise` tensor the caller hands in, and backward multiplies the gradient by them.
Out of training the slope is the middle of the range: a leaky_relu.

`noise` is written but not returned (schema ``Tensor(b!) noise``): torch bumps no
version for it, and refuses it requiring grad.

The draws are torch's CPU kernel's: one 64-bit word per element that is not positive,
in the input's row-major order, made a double ``m * 2**-53 * (upper - lower) + lower``
(``m`` its low 53 bits) with the bounds first rounded to the computation type (float
for float32 and bfloat16), so seeded programs see torch's slopes.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name
from ....c10.generator import generator_or_default
from ....c10.layout import contiguous_format
from ...dispatcher import ops as _ops
from ...meta.shape import check_no_internal_overlap
from ...backends import register_meta
from ...registry import TensorMeta, composite, op
from ...schema import SchemaKind
from .activation import leaky_relu, leaky_relu_backward
from ..pointwise.binary import mul
from ..random.bits import fill_in_memory_order

_aten = _ops.aten
_TRAINED = (dtypes.float32, dtypes.float64, dtypes.bfloat16)   # torch's training kernel's
_LOW_53 = np.uint64((1 << 53) - 1)
_SCHEMA_TAIL = ("Scalar lower=0.125, Scalar upper=0.3333333333333333, bool training=False, "
                "Generator? generator=None")


def _not_implemented(kernel: str, dtype) -> NotImplementedError:
    return NotImplementedError(f"\"{kernel}\" not implemented for '{scalar_type_name(dtype)}'")


def _rrelu_with_noise_meta(self, noise, lower=0.125, upper=1 / 3, training=False,
                           generator=None, out=None):
    if out is not None:                        # in place: no element written twice
        check_no_internal_overlap(out)
    if noise._size != self._size:
        raise RuntimeError(f"noise tensor shape must match self tensor shape. Got self.shape = "
                           f"{list(self._size)} noise.shape = {list(noise._size)}")
    if not training:
        if not self._dtype.is_floating_point:
            raise _not_implemented("leaky_relu_cpu", self._dtype)
    elif self._dtype not in _TRAINED:
        raise _not_implemented("rrelu_with_noise_out_cpu", self._dtype)
    elif noise._dtype is not self._dtype:
        raise RuntimeError(f"expected scalar type {scalar_type_name(self._dtype)} but found "
                           f"{scalar_type_name(noise._dtype)}")
    return TensorMeta(self._size, self._dtype)


@op(f"rrelu_with_noise(Tensor self, Tensor(b!) noise, {_SCHEMA_TAIL}) -> Tensor",
    meta=_rrelu_with_noise_meta, inplace=True, python_module="nn",
    grad={"self": "rrelu_with_noise_backward(grad, self, noise, lower, upper, training, False)",
          "noise": "refuses_requires_grad"})
def rrelu_with_noise(self, noise, lower, upper, training, generator, *, out):
    """`rrelu` with the slopes written to `noise` (which must have `input`'s shape).

    Example::

        >>> torch.manual_seed(0)
        >>> noise = torch.empty(3)
        >>> torch._C._nn.rrelu_with_noise(torch.tensor([-1., 2., -3.]), noise, training=True)
        tensor([-0.3271,  2.0000, -0.8174])
        >>> noise
        tensor([0.3271, 1.0000, 0.2725])
    """
    if not training:
        _leaky(self, (float(lower) + float(upper)) / 2, out)
        return
    compute = np.float64 if self.dtype == np.float64 else np.float32
    values = np.ascontiguousarray(self).reshape(-1)       # row-major: the draws' order
    negative = values <= 0                                # NaN is not: it keeps slope 1
    slopes = np.ones(values.shape, compute)
    slopes[negative] = _draw_slopes(generator, int(np.count_nonzero(negative)),
                                    compute(lower), compute(upper)).astype(compute)
    result = values.astype(compute) * slopes
    out[...] = result.reshape(out.shape)
    fill_in_memory_order(noise, slopes)       # as torch: a transposed noise gets them so


@register_meta(rrelu_with_noise)
def _rrelu_with_noise_meta_key(self, noise, lower=0.125, upper=1 / 3, training=False,
                               generator=None):
    """torch's meta kernel checks nothing."""
    return TensorMeta(self._size, self._dtype)


def _draw_slopes(generator, count: int, low, high) -> np.ndarray:
    """`count` uniform doubles in ``[low, high)``, as ATen's uniform_real_distribution
    draws them (one 64-bit word each; multiply and add, not fused)."""
    words = generator_or_default(generator).random64(count)
    np.bitwise_and(words, _LOW_53, out=words)
    unit = words.astype(np.float64) * 2.0 ** -53
    return unit * (float(high) - float(low)) + float(low)


def _leaky(self: np.ndarray, slope: float, out: np.ndarray) -> None:
    """leaky_relu's kernel, computed in float32 for float16 and bfloat16 as its is."""
    compute = np.float32 if self.dtype.itemsize == 2 else self.dtype
    result = out if out.dtype == compute else np.empty(out.shape, compute)
    leaky_relu.declaration.kernel(self.astype(compute, copy=False), slope, out=result)
    if result is not out:
        np.copyto(out, result, casting="unsafe")


@composite("rrelu_with_noise_backward(Tensor grad_output, Tensor self, Tensor noise, "
           "Scalar lower, Scalar upper, bool training, bool self_is_result) -> Tensor",
           function=False,
           grad={"grad_output": "rrelu_with_noise_backward(grad, self, noise, lower, upper, "
                                "training, False)",
                 "self": "zeros_like(grad)", "noise": "refuses_requires_grad"})
def rrelu_with_noise_backward(grad_output, self, noise, lower, upper, training,
                              self_is_result):
    """The gradient of `rrelu_with_noise`: `grad_output` times the drawn slopes in
    training, leaky_relu's gradient with the middle slope otherwise."""
    if training:
        return mul.call(noise, grad_output)
    slope = (float(lower) + float(upper)) / 2
    return leaky_relu_backward.call(grad_output, self, slope, self_is_result)


def _check_bounds(lower, upper) -> None:
    if float(lower) > float(upper):
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")


def _fresh_noise(self):
    return _aten.empty_like.default.call(self, None, None, None, None, contiguous_format)


@composite(f"rrelu(Tensor self, {_SCHEMA_TAIL}) -> Tensor")
def rrelu(self, lower=0.125, upper=1 / 3, training=False, generator=None):
    """The randomized leaky ReLU: ``x`` above 0, ``a * x`` below, where in training each
    element's slope `a` is drawn uniformly from ``[lower, upper)``, and out of training
    is ``(lower + upper) / 2``.

    Args:
        input (Tensor): the input.
        lower (float): the smallest slope (default 1/8).
        upper (float): the largest slope (default 1/3).
        training (bool): draw the slopes (default False: the middle one).
        generator (Generator, optional): the source of the draws.

    Example::

        >>> torch.rrelu(torch.tensor([-3., 2.]))
        tensor([-0.6875,  2.0000])
    """
    _check_bounds(lower, upper)
    return rrelu_with_noise.call(self, _fresh_noise(self), lower, upper, training, generator)


@composite(f"rrelu_(Tensor(a!) self, {_SCHEMA_TAIL}) -> Tensor(a!)")
def rrelu_(self, lower=0.125, upper=1 / 3, training=False, generator=None):
    """In-place `rrelu`."""
    _check_bounds(lower, upper)
    return rrelu_with_noise_.call(self, _fresh_noise(self), lower, upper, training, generator)


rrelu_with_noise_ = rrelu_with_noise.declaration.overloads[SchemaKind.inplace]
