"""Layer normalization and RMS normalization.

Note [Layer norm over rows]
    `native_layer_norm` normalizes over the trailing dims named by `normalized_shape`:
    the input is read as an (M, N) matrix of M rows of N = prod(normalized_shape)
    elements, and each row becomes ``(x - mean) * rstd * weight + bias`` with
    ``rstd = 1 / sqrt(var + eps)`` (the biased variance). `mean` and `rstd` are results
    too, shaped as the input with the normalized dims kept as size 1, because backward
    reads them. The kernels work on blocks of rows that stay in the cache (each step
    of NumPy otherwise streams the whole tensor through memory), spread over the thread
    pool as torch's `parallel_for` over rows. float32 is computed in float32, float64
    in float64, float16/bfloat16 in float32 (opmath) rounded once.

    Its backward is one fused kernel (`native_layer_norm_backward`): with
    ``x̂ = (x - mean) * rstd`` and ``g = grad * weight``, the input's gradient is
    ``rstd * (g - mean(g) - x̂ * mean(g * x̂))`` per row, the weight's ``sum(grad * x̂)``
    and the bias's ``sum(grad)`` over the rows; `output_mask` says which to compute.

`layer_norm` and `rms_norm` are composites (torch's CompositeImplicitAutograd):
layer_norm calls native_layer_norm (one node, NativeLayerNormBackward0); rms_norm is
written in pointwise ops and a mean, as torch's CPU autograd path records it.
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name, type_meta_name
from ....c10.promotion import promote_types
from ....c10.tensor_impl import TensorBase
from ....c10.type_info import finfo
from ... import functions as at
from ...derivatives import derivative_helper
from ...backends import register_meta
from ...parallel import GRAIN_SIZE, parallel_for
from ...registry import TensorMeta, composite, op
from ..pointwise.binary_scalar import add_scalar_
from ..pointwise.unary import refuse
from . import normalization_reduced
from .row_moments import row_moments

_REDUCED = (dtypes.float16, dtypes.bfloat16)
_BLOCK = 65536                     # elements per block of rows: cache-sized, few calls
_NOT_FLOATING = frozenset(np.dtype(t) for t in (np.bool_, np.uint8, np.int8, np.int16,
                                                np.int32, np.int64, np.complex64,
                                                np.complex128))


# ----------------------------------------------------------------------------------
# Argument checks (shared by layer_norm and rms_norm)
# ----------------------------------------------------------------------------------
def _shape_text(shape) -> str:
    return "[" + ", ".join(str(s) for s in shape) + "]"


def check_normalized_shape(input: TensorBase, normalized_shape, weight, bias,
                           star: str = "*, ", python_words: bool = False) -> None:
    """torch's shape checks: a non-empty normalized_shape, parameters of that shape, an
    input ending in it. `star` is how the message writes the leading dims (rms_norm's
    message reads ``[*3]``); `python_words`: as torch's meta function (Python) words
    them, sizes as ``torch.Size([...])`` and no star."""
    if python_words:
        star = ""
    sizes = _python_size if python_words else _shape_text
    shape = tuple(normalized_shape)
    if not shape:
        raise RuntimeError(f"Expected normalized_shape to be at least 1-dimensional, i.e., "
                           f"containing at least one element, but got normalized_shape = "
                           f"{_shape_text(shape)}")
    for name, param in (("weight", weight), ("bias", bias)):
        if param is not None and param._size != shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but "
                               f"got {name} of shape {sizes(param._size)} and "
                               f"normalized_shape = {_shape_text(shape)}")
    size = input._size
    if len(size) < len(shape) or size[len(size) - len(shape):] != shape:
        expected = "[" + star + ", ".join(str(s) for s in shape) + "]"
        raise RuntimeError(f"Given normalized_shape={_shape_text(shape)}, expected input with "
                           f"shape {expected}, but got input of size"
                           f"{' ' + _python_size(size) if python_words else _shape_text(size)}")


def _python_size(shape) -> str:
    return f"torch.Size({_shape_text(shape)})"


def _mixed(input: TensorBase, weight, bias) -> bool:
    """float16/bfloat16 input with float32 parameters: statistics in float32."""
    params = [p for p in (weight, bias) if p is not None]
    return bool(params) and params[0]._dtype is not input._dtype


def _check_parameter_dtypes(input: TensorBase, weight, bias) -> bool:
    """torch's CPU rule: parameters share the input's dtype, or (mixed) are all float32
    with a float16/bfloat16 input. Returns whether the call is mixed."""
    params = [p for p in (weight, bias) if p is not None]
    mixed = _mixed(input, weight, bias)
    if mixed:
        if any(p._dtype is not dtypes.float32 for p in params):
            raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")
        if input._dtype not in _REDUCED:
            raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
        return True
    for p in params:
        if p._dtype is not input._dtype:
            raise RuntimeError(f"expected scalar type {scalar_type_name(input._dtype)} but "
                               f"found {scalar_type_name(p._dtype)}")
    return False


def _rows(shape: tuple, normalized_ndim: int) -> tuple:
    """(M, N): the number of rows and the row length of Note [Layer norm over rows]."""
    split = len(shape) - normalized_ndim
    return math.prod(shape[:split]), math.prod(shape[split:])


def _compute_dtype(array: np.ndarray) -> np.dtype:
    return np.dtype(np.float64) if array.dtype == np.float64 else np.dtype(np.float32)


def _over_row_blocks(rows: int, length: int, body, elements: int = _BLOCK) -> None:
    """``body(start, stop)`` over blocks of rows (about `elements` each), the blocks
    spread over the thread pool."""
    per_block = max(1, elements // max(length, 1))

    def run(begin: int, end: int) -> None:
        for start in range(begin, end, per_block):
            body(start, min(start + per_block, end))
    parallel_for(0, rows, max(1, GRAIN_SIZE // max(length, 1)), run)


# ----------------------------------------------------------------------------------
# native_layer_norm
# ----------------------------------------------------------------------------------
def _layer_norm_meta(input, normalized_shape, weight, bias, eps):
    check_normalized_shape(input, normalized_shape, weight, bias)
    mixed = _check_parameter_dtypes(input, weight, bias)
    return _layer_norm_results(input, normalized_shape, mixed)


def _layer_norm_meta_key(input, normalized_shape, weight, bias, eps):
    """torch's meta function (a Python decomposition): its own words for the shape
    checks, and dtypes left to the kernels."""
    check_normalized_shape(input, normalized_shape, weight, bias, python_words=True)
    return _layer_norm_results(input, normalized_shape, _mixed(input, weight, bias))


def _layer_norm_results(input, normalized_shape, mixed: bool) -> tuple:
    """The output, and the mean and rstd: float32 for `mixed` parameter dtypes."""
    split = len(input._size) - len(normalized_shape)
    stats = input._size[:split] + (1,) * len(normalized_shape)
    stat_dtype = dtypes.float32 if mixed else input._dtype
    return (TensorMeta(input._size, input._dtype), TensorMeta(stats, stat_dtype),
            TensorMeta(stats, stat_dtype))


@op("native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, "
    "float eps) -> (Tensor, Tensor, Tensor)", meta=_layer_norm_meta,
    grad={"input, weight, bias": "native_layer_norm_backward(grad, input, normalized_shape, "
                                 "result1, result2, weight, bias, grad_input_mask)",
          "output_differentiability": (True, False, False)})
def native_layer_norm(input, normalized_shape, weight, bias, eps, *, out):
    """Layer normalization with its statistics: ``(output, mean, rstd)``.

    See Note [Layer norm over rows]; `torch.layer_norm` returns the output alone.

    Args:
        input (Tensor): ``(*, *normalized_shape)``.
        normalized_shape (list of ints): the trailing dims to normalize over.
        weight (Tensor, optional): scale, of shape `normalized_shape`.
        bias (Tensor, optional): shift, of shape `normalized_shape`.
        eps (float): added to the variance.

    Example::

        >>> torch.native_layer_norm(torch.tensor([[1., 3.]]), [2], None, None, 0.0)
        (tensor([[-1.,  1.]]), tensor([[2.]]), tensor([[1.]]))
    """
    refuse(input, "LayerNormKernelImpl", _NOT_FLOATING)
    result, mean, rstd = out
    rows, length = _rows(input.shape, len(normalized_shape))
    if length == 0:                  # nothing to normalize: torch's 0 mean, NaN rstd
        mean.fill(0)
        rstd.fill(np.nan)
        return
    compute = _compute_dtype(input)
    reduced = input.dtype.itemsize == 2
    x = input.reshape(rows, length)
    y, mean_rows, rstd_rows = result.reshape(rows, length), mean.reshape(rows), rstd.reshape(rows)
    w = None if weight is None else weight.reshape(length).astype(compute, copy=False)
    b = None if bias is None else bias.reshape(length).astype(compute, copy=False)

    def block(start: int, stop: int) -> None:
        if reduced:
            # float16 / bfloat16: the statistics in torch's order and rounding
            mu, var = row_moments(x[start:stop])
            inverse = np.float32(1) / np.sqrt(var + np.float32(eps))
            y[start:stop] = normalization_reduced.scale_shift(
                x[start:stop].astype(compute), inverse, mu, w, b)
            mean_rows[start:stop] = mu
            rstd_rows[start:stop] = inverse
            return
        rows_in = x[start:stop].astype(compute, copy=False)
        mu = np.add.reduce(rows_in, axis=1, keepdims=True) / compute.type(length)
        # computed in the result's rows (no copy)
        centered = np.subtract(rows_in, mu, out=y[start:stop])
        var = np.einsum("ij,ij->i", centered, centered) / compute.type(length)
        inverse = 1 / np.sqrt(var + compute.type(eps))
        normalized = np.multiply(centered, inverse[:, None], out=centered)
        if w is not None:
            normalized *= w
        if b is not None:
            normalized += b
        mean_rows[start:stop] = mu[:, 0]
        rstd_rows[start:stop] = inverse
    # the ordered statistics take many small steps: larger blocks pay fewer of them
    _over_row_blocks(rows, length, block, _BLOCK * 16 if reduced else _BLOCK)


register_meta(native_layer_norm, _layer_norm_meta_key)


# ----------------------------------------------------------------------------------
# native_layer_norm_backward
# ----------------------------------------------------------------------------------
def _layer_norm_backward_meta(grad_out, input, normalized_shape, mean, rstd, weight, bias,
                              output_mask):
    wanted = [bool(m) for m in output_mask]
    return (TensorMeta(input._size, input._dtype) if wanted[0] else None,
            TensorMeta(weight._size, weight._dtype) if wanted[1] else None,
            TensorMeta(bias._size, bias._dtype) if wanted[2] else None)


# Note [Layer norm double backward]
#     Per row of N elements, with ``x̂ = (x - mean) * r`` (r = rstd), ``g = grad_out * w``
#     and first-order gradients ``gI = r (g - mean(g) - x̂ mean(g x̂))``,
#     ``gW = Σrows grad_out x̂``, ``gB = Σrows grad_out``, the cotangents (a, bW, bB) of
#     (gI, gW, gB) give:
#
#     * grad_out: ``w r (a - mean(a) - x̂ mean(a x̂)) + bW x̂ + bB`` (the projection in gI
#       is symmetric, so it is its own adjoint);
#     * weight: ``Σrows grad_out r (a - mean(a) - x̂ mean(a x̂))``;
#     * input: through x̂, whose Jacobian is ``r (δ - 1/N - x̂ x̂ᵀ / N)`` once the
#       dependence of mean and r on x is counted, plus the explicit r in gI
#       (``dr/dx = -r² x̂ / N``): with ``v = -(r / N)(a Σ(g x̂) + g Σ(a x̂)) + bW grad_out``,
#       ``r (v - mean(v) - x̂ mean(v x̂)) - r x̂ Σ(a gI) / N``.
def _project(values, normalized, rstd):
    """``r (v - mean(v) - x̂ mean(v x̂))`` per row: the adjoint-free part of gI."""
    return rstd * (values - values.mean(1, keepdim=True)
                   - normalized * (values * normalized).mean(1, keepdim=True))


@derivative_helper
def layer_norm_double_backward(input, weight, grad_input_grad, grad_weight_grad,
                               grad_bias_grad, grad_out, mean, rstd, normalized_shape, mask):
    """The gradients of grad_out, input and weight of `native_layer_norm_backward`'s
    results (see Note [Layer norm double backward]); None where `mask` says no."""
    length = math.prod(normalized_shape)
    rows = input.numel() // length if length else 0
    shape = input.shape
    x, grad = input.reshape(rows, length), grad_out.reshape(rows, length)
    normalized = (x - mean.reshape(rows, 1)) * rstd.reshape(rows, 1)
    r = rstd.reshape(rows, 1)
    w = None if weight is None else weight.reshape(length)
    a = None if grad_input_grad is None else grad_input_grad.reshape(rows, length)
    b_weight = None if grad_weight_grad is None else grad_weight_grad.reshape(length)
    projected = None if a is None else _project(a, normalized, r)
    found_grad = found_input = found_weight = None
    if mask[0]:
        found_grad = at.zeros_like(grad)
        if projected is not None:
            found_grad = found_grad + (projected if w is None else projected * w)
        if b_weight is not None:
            found_grad = found_grad + b_weight * normalized
        if grad_bias_grad is not None:
            found_grad = found_grad + grad_bias_grad.reshape(length)
        found_grad = found_grad.reshape(shape)
    if mask[1]:
        found_input = _input_part(grad if w is None else grad * w, grad, normalized, r, a,
                                  b_weight, length).reshape(shape)
    if mask[2] and weight is not None:
        found_weight = at.zeros_like(weight) if projected is None else \
            (grad * projected).sum(0).reshape(weight.shape)
    return found_grad, found_input, found_weight


def _input_part(scaled, grad, normalized, r, a, b_weight, length):
    """The input's gradient: `v` through x̂'s Jacobian, plus the explicit r of gI."""
    v = at.zeros_like(normalized)
    if b_weight is not None:
        v = v + b_weight * grad
    if a is None:
        return _project(v, normalized, r)
    scaled_dot = (scaled * normalized).sum(1, keepdim=True)
    a_dot = (a * normalized).sum(1, keepdim=True)
    v = v - (r / length) * (a * scaled_dot + scaled * a_dot)
    first_order = _project(scaled, normalized, r)
    return _project(v, normalized, r) - r * normalized * (a * first_order).sum(1, keepdim=True) \
        / length


@op("native_layer_norm_backward(Tensor grad_out, Tensor input, SymInt[] normalized_shape, "
    "Tensor mean, Tensor rstd, Tensor? weight, Tensor? bias, bool[3] output_mask) -> "
    "(Tensor, Tensor, Tensor)", meta=_layer_norm_backward_meta, function=False,
    grad={"grad_out, input, weight": "layer_norm_double_backward(input, weight, grads[0], "
                                     "grads[1], grads[2], grad_out, mean, rstd, "
                                     "normalized_shape, grad_input_mask)",
          "mean": "not_implemented('native_layer_norm_backward mean')",
          "rstd": "not_implemented('native_layer_norm_backward rstd')", "bias": "None"})
def native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd, weight, bias,
                               output_mask, *, out):
    """The gradients of `native_layer_norm`'s input, weight and bias, in one pass (see
    Note [Layer norm over rows]); those `output_mask` leaves out are None."""
    grad_input, grad_weight, grad_bias = out
    rows, length = _rows(input.shape, len(normalized_shape))
    compute = _compute_dtype(input)
    partial_weight, partial_bias = [], []       # per block, summed at the end (in order)
    if length and rows and input.dtype.itemsize == 2:
        _reduced_parameter_gradients(grad_out, input, mean, rstd, grad_weight, grad_bias)
        grad_weight = grad_bias = None
    if length and rows:
        x, g = input.reshape(rows, length), grad_out.reshape(rows, length)
        mu = mean.reshape(rows, 1).astype(compute, copy=False)
        inverse = rstd.reshape(rows, 1).astype(compute, copy=False)
        w = None if weight is None else weight.reshape(length).astype(compute, copy=False)
        gi = None if grad_input is None else grad_input.reshape(rows, length)

        def block(start: int, stop: int) -> None:
            grads = g[start:stop].astype(compute, copy=False)
            normalized = (x[start:stop] - mu[start:stop]) * inverse[start:stop]
            if grad_weight is not None:
                partial_weight.append((start, np.einsum("ij,ij->j", grads, normalized)))
            if grad_bias is not None:
                partial_bias.append((start, np.add.reduce(grads, axis=0)))
            if gi is not None:
                _input_grad_rows(grads, normalized, w, inverse[start:stop], gi[start:stop])
        _over_row_blocks(rows, length, block)
    elif grad_input is not None:
        grad_input.fill(0)
    for target, parts in ((grad_weight, partial_weight), (grad_bias, partial_bias)):
        if target is not None:
            total = sum((p for _, p in sorted(parts, key=lambda item: item[0])),
                        np.zeros(length, compute))
            target[...] = total.reshape(target.shape)


def _reduced_parameter_gradients(grad_out, input, mean, rstd, grad_weight, grad_bias):
    """float16 / bfloat16 weight and bias gradients, summed in the input's dtype as
    torch sums them (Note [Reduced-precision layer norm]); None targets are skipped."""
    if grad_weight is None and grad_bias is None:
        return
    rows = mean.size
    sums = normalization_reduced.parameter_gradients(
        grad_out.reshape(rows, -1), input.reshape(rows, -1), mean.reshape(rows),
        rstd.reshape(rows), grad_weight is not None, grad_bias is not None)
    for target, total in zip((grad_weight, grad_bias), sums):
        if target is not None:
            target[...] = total.reshape(target.shape)


def _input_grad_rows(grads: np.ndarray, normalized: np.ndarray, weight, rstd: np.ndarray,
                     out: np.ndarray) -> None:
    """``rstd * (g - mean(g) - x̂ * mean(g * x̂))`` per row with ``g = grads * weight``,
    computed in `out` where it holds the compute dtype (`normalized` is overwritten)."""
    length = grads.shape[1]
    target = out if out.dtype == grads.dtype else np.empty_like(grads)
    if weight is not None:
        scaled = np.multiply(grads, weight, out=target)
    else:
        scaled = target
        np.copyto(scaled, grads)
    mean_grad = np.add.reduce(scaled, axis=1, keepdims=True) / grads.dtype.type(length)
    projection = np.einsum("ij,ij->i", scaled, normalized) / grads.dtype.type(length)
    scaled -= mean_grad
    normalized *= projection[:, None]
    scaled -= normalized
    scaled *= rstd
    if target is not out:
        out[...] = scaled


# ----------------------------------------------------------------------------------
# layer_norm, rms_norm
# ----------------------------------------------------------------------------------
@composite("layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, "
           "Tensor? bias=None, float eps=1e-05, bool cudnn_enable=True) -> Tensor")
def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True):
    """Normalize over the trailing dims `normalized_shape`: zero mean and unit variance
    per row, then ``* weight + bias`` (Note [Layer norm over rows]).

    Args:
        input (Tensor): ``(*, *normalized_shape)``.
        normalized_shape (list of ints): the trailing dims to normalize over.
        weight (Tensor, optional): scale, of shape `normalized_shape`.
        bias (Tensor, optional): shift, of shape `normalized_shape`.
        eps (float): added to the variance (default 1e-5).
        cudnn_enable (bool): ignored on CPU.

    Example::

        >>> torch.layer_norm(torch.tensor([[1., 2., 3.]]), [3], eps=0.0)
        tensor([[-1.2247,  0.0000,  1.2247]])
    """
    return native_layer_norm.call(input, normalized_shape, weight, bias, eps)[0]


def _rms_norm_weight_warning(input, weight) -> None:
    """torch's fused kernel wants one dtype; it warns and takes the composite path."""
    if weight is not None and weight._dtype is not input._dtype:
        warnings.warn(f"Mismatch dtype between input and weight: input dtype = "
                      f"{type_meta_name(input._dtype)}, weight dtype = "
                      f"{type_meta_name(weight._dtype)}, Cannot dispatch to fused "
                      f"implementation.", UserWarning, stacklevel=4)


@composite("rms_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, "
           "float? eps=None) -> Tensor")
def rms_norm(input, normalized_shape, weight=None, eps=None):
    """Root-mean-square normalization over the trailing dims `normalized_shape`:
    ``x / sqrt(mean(x²) + eps) * weight``, with no centering.

    float16/bfloat16 inputs are computed in float32 and the result rounded back; `eps`
    defaults to the machine epsilon of that computation dtype.

    Args:
        input (Tensor): ``(*, *normalized_shape)``.
        normalized_shape (list of ints): the trailing dims to normalize over.
        weight (Tensor, optional): scale, of shape `normalized_shape`.
        eps (float, optional): added to the mean square.

    Example::

        >>> torch.rms_norm(torch.tensor([[3., 4.]]), [2], eps=0.0)
        tensor([[0.8485, 1.1314]])
    """
    check_normalized_shape(input, normalized_shape, weight, None, star="*")
    if not (input._dtype.is_floating_point or input._dtype.is_complex):
        raise NotImplementedError(f"\"rms_norm\" not implemented for "
                                  f"'{scalar_type_name(input._dtype)}'")
    _rms_norm_weight_warning(input, weight)
    compute = dtypes.float32 if input._dtype in _REDUCED else input._dtype
    upcast = input.to(compute)
    if eps is None:
        eps = finfo(compute).eps
    dims = list(range(-len(normalized_shape), 0))
    # eps added in place by the Scalar overload, as torch's C++ (AddBackward1)
    mean_square = add_scalar_.call(upcast.pow(2).mean(dims, keepdim=True), eps, 1)
    result = upcast * mean_square.rsqrt()
    if weight is not None:
        result = result * weight.to(promote_types(result.dtype, weight.dtype))
    return result.contiguous().type_as(input)
