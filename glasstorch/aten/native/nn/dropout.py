"""Dropout: native_dropout (the fused kernel and its backward) and the composites
dropout, feature_dropout, alpha_dropout and feature_alpha_dropout with their in-place
twins.

On CPU torch's `dropout` does not call `native_dropout` (that fused kernel serves CUDA
and the other accelerators): it is a composite of ordinary operators, so its random
numbers and its autograd node are theirs. A noise tensor shaped like the input (or
``(N, C, 1, ...)`` for the feature variants) is filled by ``bernoulli_(1 - p)``, scaled,
and multiplied into the input: the result's node is `MulBackward0` (`AddBackward0` for
the alpha variants), and ``torch.manual_seed(s)`` gives torch's masks bit for bit,
because `bernoulli_` draws torch's numbers (`sampling.py`). Those composites are here
as torch writes them, operator by operator.
"""
from __future__ import annotations

import math

import numpy as np

from ....c10 import dtype as dtypes
from ...backends import register_meta
from ...dispatcher import ops
from ...meta.pointwise import Promotion, elementwise_meta
from ...registry import TensorMeta, composite, op
from ..creation.copy import strides_like
from ..random.fill import number
from ..random.sampling import fill_bernoulli_scalar

_aten = ops.aten
# SELU's negative saturation value: alpha dropout sets dropped units to it (scaled)
_SELU_ALPHA = 1.7580993408473766


# ----------------------------------------------------------------------------------
# native_dropout and its backward: one kernel each
# ----------------------------------------------------------------------------------
def _native_dropout_meta(input, p, train):
    """torch's bernoulli_ kernel checks p, then `_native_dropout_result` (its meta
    kernel, the Meta registration, takes any p: its bernoulli_ on meta checks nothing)."""
    if (train is None or train) and not 0 <= 1 - p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={number(1 - p)}")
    return _native_dropout_result(input, p, train)


def _native_dropout_result(input, p, train):
    """Output like `input`; mask of bool laid out as `input` (an empty input's mask has
    its dtype: torch returns ``empty_like(input)`` for it)."""
    if train is None or train:
        if not (input._dtype.is_floating_point or input._dtype.is_complex):
            raise RuntimeError(f"result type Float can't be cast to the desired output "
                               f"type {dtypes.scalar_type_name(input._dtype)}")
    stride = strides_like(input, None)
    mask_dtype = input._dtype if input.numel() == 0 else dtypes.bool
    return (TensorMeta(input._size, input._dtype, stride),
            TensorMeta(input._size, mask_dtype, stride))


@op("native_dropout(Tensor input, float p, bool? train) -> (Tensor, Tensor)",
    meta=_native_dropout_meta,
    # torch's formula: scale 1 unless train is True (train=None drops in the forward
    # but back-propagates unscaled, a quirk of derivatives.yaml kept here)
    grad={"input": "native_dropout_backward(grad, result1, "
                   "(0.0 if p == 1 else 1.0 / (1.0 - p)) if train else 1.0)"})
def native_dropout(input, p, train, *, out):
    """Zero each element with probability `p` and scale the rest by ``1 / (1 - p)``;
    return the result and the mask of kept elements. With ``train=False`` the result
    is a copy of `input` and the mask all True.

    Example::

        >>> torch.manual_seed(0)
        >>> torch.native_dropout(torch.ones(4), 0.5, True)
        (tensor([0., 0., 2., 0.]), tensor([False, False,  True, False]))
    """
    output, mask = out
    if input.size == 0:
        return
    if train is not None and not train:
        mask[...] = True
        np.copyto(output, input)
        return
    fill_bernoulli_scalar(mask, 1.0 - p, None)
    kept = np.where(mask, input, input.dtype.type(0))
    scale = output.dtype.type(0.0 if p == 1 else 1.0 / (1.0 - p))  # rounded to the dtype
    if output.dtype.itemsize < 4:             # float16 / bfloat16: computed in float32
        np.multiply(kept, scale, out=output, dtype=np.float32, casting="unsafe")
    else:
        np.multiply(kept, scale, out=output)


register_meta(native_dropout, _native_dropout_result)


def _native_dropout_backward_meta(grad_output, mask, scale):
    return elementwise_meta([grad_output, mask], Promotion.INT_TO_FLOAT)


@op("native_dropout_backward(Tensor grad_output, Tensor mask, float scale) -> Tensor",
    meta=_native_dropout_backward_meta, function=False,
    grad={"grad_output": "native_dropout_backward(grad, mask, scale)"})
def native_dropout_backward(grad_output, mask, scale, *, out):
    """``grad_output * mask * scale``: native_dropout's gradient (torch.ops.aten only)."""
    masked = np.multiply(grad_output, mask)
    if masked.dtype.kind in "biu":
        masked = masked.astype(out.dtype)
    compute = np.float32 if out.dtype.itemsize < 4 and out.dtype.kind == "f" else None
    np.multiply(masked, (compute or out.dtype.type)(scale), out=out, casting="unsafe")


# ----------------------------------------------------------------------------------
# The composites torch's CPU path runs
# ----------------------------------------------------------------------------------
def _check_probability(p: float) -> None:
    if not 0 <= p <= 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got "
                           f"{number(p)}")


def _feature_noise(input):
    """An uninitialised ``(N, C, 1, ..., 1)`` tensor: one draw per channel."""
    if input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    size = input._size[:2] + (1,) * (input.dim() - 2)
    return _aten.empty.memory_format.call(size, input._dtype, None, input._device, None,
                                          None)


def _multiply(input, noise, inplace: bool):
    if inplace:
        return _aten.mul_.Tensor.call(input, noise)
    return _aten.mul.Tensor.call(input, noise)


def _dropout(input, p: float, train: bool, *, feature: bool, alpha: bool, inplace: bool):
    """torch's `_dropout_impl`: the input itself when nothing drops, else the input times
    Bernoulli(1 - p) noise (plus alpha dropout's shift)."""
    _check_probability(p)
    if p == 0 or not train or input.numel() == 0:
        return input
    if p == 1:
        zero = _aten.zeros.default.call((), input._dtype, None, input._device, None)
        return _multiply(input, zero, inplace)
    if feature:
        noise = _feature_noise(input)
    else:
        noise = _aten.empty_like.default.call(input, None, None, None, None, None)
    _aten.bernoulli_.float.call(noise, 1 - p, None)
    if not alpha:
        _aten.div_.Tensor.call(noise, 1 - p)
        return _multiply(input, noise, inplace)
    # kept units: a * x; dropped ones: the scaled saturation value, so that the mean
    # and variance of a standardized input are kept
    a = 1.0 / math.sqrt((_SELU_ALPHA * _SELU_ALPHA * p + 1) * (1 - p))
    shift = _aten.add.Tensor.call(noise, -1, 1)
    _aten.mul_.Tensor.call(shift, _SELU_ALPHA * a)
    _aten.add_.Tensor.call(shift, _SELU_ALPHA * a * p, 1)
    _aten.mul_.Tensor.call(noise, a)
    return _aten.add_.Tensor.call(_multiply(input, noise, inplace), shift, 1)


_DOC = """{what}

    Args:
        input (Tensor): the input{shape}.
        p (float): the probability of {unit} being {fate}, in [0, 1].
        train (bool): apply it; when False (or ``p == 0``) the result is `input` itself.

    Example::

        >>> torch.manual_seed(0)
        >>> {example}
        {result}
    """


def _declare(name: str, feature: bool, alpha: bool, doc: str) -> None:
    """The functional composite `name` and its in-place twin `name_`."""
    def functional(input, p, train):
        return _dropout(input, p, train, feature=feature, alpha=alpha, inplace=False)

    def in_place(self, p, train):
        return _dropout(self, p, train, feature=feature, alpha=alpha, inplace=True)
    functional.__name__, in_place.__name__ = name, name + "_"
    functional.__doc__ = in_place.__doc__ = doc
    composite(f"{name}(Tensor input, float p, bool train) -> Tensor")(functional)
    composite(f"{name}_(Tensor(a!) self, float p, bool train) -> Tensor(a!)")(in_place)


_declare("dropout", False, False, _DOC.format(
    what="Zero each element with probability `p` and scale the others by ``1 / (1 - p)``.",
    shape="", unit="an element", fate="zeroed",
    example="torch.dropout(torch.ones(4), 0.5, True)", result="tensor([0., 0., 2., 0.])"))
_declare("feature_dropout", True, False, _DOC.format(
    what="Zero whole channels (``input[n, c]``) with probability `p`; scale the others.",
    shape=", ``(N, C, *)``", unit="a channel", fate="zeroed",
    example="torch.feature_dropout(torch.ones(2, 2, 1), 0.5, True)",
    result="tensor([[[0.],\n                 [0.]],\n\n                [[2.],\n"
           "                 [0.]]])"))
_declare("alpha_dropout", False, True, _DOC.format(
    what="Dropout for SELU networks: dropped elements take SELU's scaled negative "
         "saturation\n    value and the result is shifted and scaled to keep a standardized "
         "input's mean and variance.",
    shape="", unit="an element", fate="dropped",
    example="torch.alpha_dropout(torch.zeros(4), 0.5, True)",
    result="tensor([-0.7792, -0.7792,  0.7792, -0.7792])"))
_declare("feature_alpha_dropout", True, True, _DOC.format(
    what="Alpha dropout of whole channels (``input[n, c]``).",
    shape=", ``(N, C, *)``", unit="a channel", fate="dropped",
    example="torch.feature_alpha_dropout(torch.zeros(2, 2), 0.5, True)",
    result="tensor([[-0.7792, -0.7792],\n                [ 0.7792, -0.7792]])"))
