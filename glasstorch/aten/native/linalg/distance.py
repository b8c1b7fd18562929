"""Distances and norms between rows: cdist (and its kernels _cdist_forward and
_euclidean_dist), renorm, cross / linalg_cross.

Note [cdist's two roads]
    torch computes p=2 distances in one of two ways, and glasstorch follows it road for
    road, since they round differently. The direct road sums ``|x1_i - x2_j|^p`` over
    the columns for every pair. The matmul road (`_euclidean_dist`) expands
    ``|a - b|^2 = |a|^2 - 2 a.b + |b|^2`` into one matrix product of the rows
    augmented with their squared norms and ones, then clamps at zero and takes the
    square root: one BLAS call instead of a pass per pair, but it loses the digits that
    cancel (the distance of a row to itself may come out as 1e-3 rather than 0).
    `compute_mode` picks the road: None (torch.cdist's 'use_mm_for_euclid_dist_if_necessary')
    takes matmul when p is 2 and either input has more than 25 rows; 1 always takes it
    for p=2, 2 never does.
"""
from __future__ import annotations

import math

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import from_numpy_dtype, scalar_type_name, type_meta_name
from ... import functions as at
from ...derivatives import derivative_helper
from ...backends import register_meta
from ...meta.shape import broadcast_shapes, check_no_internal_overlap, wrap_dim
from ...parallel import parallel_for
from ...registry import TensorMeta, composite, op
from ..reduction.norms import norm_backward
from ..reduction.sum import accumulation
from ..shape.shape import _warn_once, reshape
from ..shape.triangular import exact_out_dtype
from ..shape.view import expand, view_

_PAIR_BLOCK = 1 << 20       # elements of one block of pairwise differences
# The direct road's kernel has no loops for these (the matmul road takes them).
_NO_DIRECT_KERNEL = {np.dtype(dtypes.float16._np): "Half",
                     np.dtype(dtypes.bfloat16._np): "BFloat16"}


def _dtype_shown(t, python_words: bool) -> str:
    """A dtype as torch's messages print it: ``Long``, or (`python_words`) ``torch.int64``
    from its Python meta functions, the Meta registrations."""
    return str(t._dtype) if python_words else scalar_type_name(t._dtype)


# ----------------------------------------------------------------------------------
# cdist
# ----------------------------------------------------------------------------------
def _check_cdist_shapes(x1, x2) -> None:
    for name, t in (("X1", x1), ("X2", x2)):
        if t.dim() < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: {t.dim()}D")
    if x1._size[-1] != x2._size[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: "
                           f"{x1._size[-1]} X2: {x2._size[-1]}")


def _check_cdist_values(x1, x2, p: float, compute_mode, python_words: bool = False) -> None:
    for name, t in (("X1", x1), ("X2", x2)):
        if not t._dtype.is_floating_point:
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: "
                               f"{_dtype_shown(t, python_words)}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    mode = 0 if compute_mode is None else compute_mode
    if not 0 <= mode <= 2:
        modes = "None, 0, 1, 2" if python_words else "0, 1, 2"
        raise RuntimeError(f"possible modes: {modes}, but was: {mode}")


def uses_matmul(x1, x2, p: float, compute_mode) -> bool:
    """Whether torch takes the matmul road (Note [cdist's two roads])."""
    mode = 0 if compute_mode is None else compute_mode
    rows = max(x1._size[-2], x2._size[-2])
    return p == 2 and (mode == 1 or (mode == 0 and rows > 25))


def _cdist_meta(x1, x2, p, compute_mode, out=None, python_words: bool = False):
    """`python_words`: the words of torch's meta function (the Meta registration); its
    `cdist` composite words them as the CPU kernel, on every backend."""
    _check_cdist_shapes(x1, x2)
    _check_cdist_values(x1, x2, p, compute_mode, python_words)
    exact_out_dtype(x1._dtype, out)
    batch = broadcast_shapes(x1._size[:-2], x2._size[:-2])
    return TensorMeta(batch + (x1._size[-2], x2._size[-2]), x1._dtype)


def _check_direct_dtypes(x1: np.ndarray, x2: np.ndarray) -> None:
    """The direct road's kernel takes float32 and float64 operands of one dtype."""
    if x1.dtype in _NO_DIRECT_KERNEL:
        raise NotImplementedError(f"\"cdist\" not implemented for '{_NO_DIRECT_KERNEL[x1.dtype]}'")
    if x1.dtype != x2.dtype:
        raise RuntimeError(f"expected scalar type {scalar_type_name(from_numpy_dtype(x1.dtype))} "
                           f"but found {scalar_type_name(from_numpy_dtype(x2.dtype))}")


@derivative_helper
def cdist_backward(grad, x1, x2, p: float, result):
    """The gradient of the distances between the rows of `x1` and `x2` for `x1`.

    With ``d = x1_i - x2_j`` and ``D_ij = |d|_p``, ``dD_ij / dx1_i`` is 0 for p=0,
    ``sign(d)`` for p=1, ``d / D`` for p=2, ``sign(d)`` on the largest components for
    p=inf and ``sign(d) |d|^(p-1) / D^(p-1)`` otherwise; zero where ``D == 0`` (and, for
    p < 1, where a component of d is 0, whose power would be infinite).
    """
    diff = x1.unsqueeze(-2) - x2.unsqueeze(-3)                  # (..., r1, r2, m)
    dist = result.unsqueeze(-1)
    upstream = grad.unsqueeze(-1)
    if p == 0:
        return at.zeros_like(x1)
    if p == 1:
        slope = diff.sign()
    elif p == 2:
        slope = (diff / dist).masked_fill(dist == 0, 0)
    elif math.isinf(p):
        slope = diff.sign() * (diff.abs() == dist)
    else:
        slope = diff.sign() * diff.abs().pow(p - 1) / dist.pow(p - 1)
        vanishing = (dist == 0) | ((diff == 0) & (p < 1))
        slope = slope.masked_fill(vanishing, 0)
    return (slope * upstream).sum(-2)


@op("_cdist_forward(Tensor x1, Tensor x2, float p, int? compute_mode) -> Tensor",
    meta=_cdist_meta, out=True, function=False,        # torch.ops.aten only, as in torch
    grad={"x1": "cdist_backward(grad.contiguous(), x1, x2, p, result)",
          "x2": "cdist_backward(grad.mT.contiguous(), x2, x1, p, result.mT.contiguous())"})
def cdist_forward(x1, x2, p, compute_mode, *, out):
    """The p-norm distance between every row of `x1` and every row of `x2` (the kernel
    behind `torch.cdist`, by either road of Note [cdist's two roads])."""
    if out.size == 0:
        return
    if x1.shape[-1] == 0:
        out.fill(0)
        return
    batch = out.shape[:-2]
    left = np.broadcast_to(x1, batch + x1.shape[-2:])
    right = np.broadcast_to(x2, batch + x2.shape[-2:])
    if p == 2 and (compute_mode == 1 or (compute_mode in (None, 0) and
                                         max(x1.shape[-2], x2.shape[-2]) > 25)):
        euclidean_distances(left, right, out)
        return
    _check_direct_dtypes(x1, x2)
    pairwise_distances(left, right, p, out)


@register_meta(cdist_forward)
def _cdist_meta_key(x1, x2, p, compute_mode, out=None):
    return _cdist_meta(x1, x2, p, compute_mode, out, python_words=True)


def pairwise_distances(x1: np.ndarray, x2: np.ndarray, p: float, out: np.ndarray) -> None:
    """The direct road: ``out[..., i, j] = |x1[..., i, :] - x2[..., j, :]|_p``, computed
    in blocks of rows of `x1` (so the differences never take more than a few MB), the
    blocks shared over the thread pool."""
    batch = out.size // (out.shape[-2] * out.shape[-1])
    step = max(1, _PAIR_BLOCK // max(1, x2.shape[-2] * x2.shape[-1] * batch))

    def rows(start: int, stop: int) -> None:
        for first in range(start, stop, step):
            last = min(first + step, stop)
            diff = np.abs(x1[..., first:last, None, :] - x2[..., None, :, :])
            out[..., first:last, :] = _p_norm(diff, p)
    parallel_for(0, x1.shape[-2], step, rows)


def _p_norm(diff: np.ndarray, p: float) -> np.ndarray:
    """The p-norm over the last axis of the absolute differences `diff`."""
    if p == 0:
        return np.count_nonzero(diff, axis=-1).astype(diff.dtype)
    if p == 1:
        return diff.sum(axis=-1)
    if p == 2:
        return np.sqrt(np.einsum("...k,...k->...", diff, diff))
    if np.isinf(p):
        return diff.max(axis=-1)
    return np.power(np.power(diff, diff.dtype.type(p)).sum(axis=-1), diff.dtype.type(1 / p))


def euclidean_distances(x1: np.ndarray, x2: np.ndarray, out: np.ndarray) -> None:
    """The matmul road of Note [cdist's two roads], as torch's `_euclidean_dist` builds it:
    ``[-2 x1, |x1|^2, 1] @ [x2, 1, |x2|^2]^T``, clamped at 0, square-rooted."""
    compute = accumulation(out.dtype)          # float16 / bfloat16 multiply in float32
    a, b = x1.astype(compute, copy=False), x2.astype(compute, copy=False)
    a_norm = np.einsum("...k,...k->...", a, a)[..., None]
    b_norm = np.einsum("...k,...k->...", b, b)[..., None]
    ones_a, ones_b = np.ones_like(a_norm), np.ones_like(b_norm)
    left = np.concatenate([a * compute.type(-2), a_norm, ones_a], axis=-1)
    right = np.concatenate([b, ones_b, b_norm], axis=-1)
    product = np.matmul(left, np.swapaxes(right, -1, -2))
    np.maximum(product, 0, out=product)
    np.sqrt(product, out=product)
    np.copyto(out, product, casting="unsafe")


def _euclidean_meta(x1, x2, out=None):
    # The dtype check is matmul's, in the kernel: torch's meta function (the Meta
    # registration, `_euclidean_result`) has none.
    if x1._dtype is not x2._dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: "
                           f"{type_meta_name(x1._dtype)} != {type_meta_name(x2._dtype)}")
    return _euclidean_result(x1, x2, out)


def _euclidean_result(x1, x2, out=None):
    exact_out_dtype(x1._dtype, out)
    batch = broadcast_shapes(x1._size[:-2], x2._size[:-2])
    return TensorMeta(batch + (x1._size[-2], x2._size[-2]), x1._dtype)


@derivative_helper
def euclidean_dist_backward(grad, x1, x2, result):
    """Both gradients of ``D_ij = |x1_i - x2_j|``: ``sum_j (x1_i - x2_j) g_ij / D_ij``
    for x1 and its mirror for x2, written as matrix products (zero where D is 0)."""
    ratio = (grad / result).masked_fill(result == 0, 0)
    grad_x1 = x1 * ratio.sum(-1, keepdim=True) - ratio.matmul(x2)
    grad_x2 = x2 * ratio.sum(-2).unsqueeze(-1) - ratio.mT.matmul(x1)
    return grad_x1, grad_x2


@op("_euclidean_dist(Tensor x1, Tensor x2) -> Tensor", meta=_euclidean_meta, out=True,
    bind_out=False,
    grad={"x1": "euclidean_dist_backward(grad, x1, x2, result)[0]",
          "x2": "euclidean_dist_backward(grad, x1, x2, result)[1]"})
def euclidean_dist(x1, x2, *, out):
    """Euclidean distances between the rows of two (batches of) matrices, by the matmul
    road of Note [cdist's two roads]."""
    batch = out.shape[:-2]
    euclidean_distances(np.broadcast_to(x1, batch + x1.shape[-2:]),
                        np.broadcast_to(x2, batch + x2.shape[-2:]), out)


register_meta(euclidean_dist, _euclidean_result)


@composite("cdist(Tensor x1, Tensor x2, float p=2., int? compute_mode=None) -> Tensor",
           function=False)
def cdist(x1, x2, p=2.0, compute_mode=None):
    """`torch.cdist` with compute_mode as an int (None, 1 or 2); see `cdist_function`."""
    _check_cdist_shapes(x1, x2)
    if x1.numel() == 0 or x2.numel() == 0 or not uses_matmul(x1, x2, p, compute_mode):
        return cdist_forward.call(x1, x2, p, compute_mode)
    # The matmul road as a composite, so that autograd sees _euclidean_dist (as torch).
    _check_cdist_values(x1, x2, p, compute_mode)
    batch = broadcast_shapes(x1._size[:-2], x2._size[:-2])
    count = 1
    for size in batch:
        count *= size
    rows1, rows2, cols = x1._size[-2], x2._size[-2], x1._size[-1]
    if count == 1:
        return view_.call(euclidean_dist.call(x1, x2), batch + (rows1, rows2))
    left = reshape.call(expand.call(x1, batch + (rows1, cols), False), (count, rows1, cols))
    right = reshape.call(expand.call(x2, batch + (rows2, cols), False), (count, rows2, cols))
    return view_.call(euclidean_dist.call(left, right), batch + (rows1, rows2))


_COMPUTE_MODES = {"use_mm_for_euclid_dist_if_necessary": None, "use_mm_for_euclid_dist": 1,
                  "donot_use_mm_for_euclid_dist": 2}


def cdist_function(x1, x2, p: float = 2.0,
                   compute_mode: str = "use_mm_for_euclid_dist_if_necessary"):
    """The p-norm distance between each pair of rows of `x1` and `x2`.

    Args:
        x1 (Tensor): ``B x P x M`` (any batch dims ``B``, broadcast against `x2`'s).
        x2 (Tensor): ``B x R x M``.
        p (float): the norm, in ``[0, inf]``. Default: 2.
        compute_mode (str): for p=2, ``'use_mm_for_euclid_dist_if_necessary'`` (matrix
            products when P or R exceeds 25), ``'use_mm_for_euclid_dist'`` (always) or
            ``'donot_use_mm_for_euclid_dist'`` (never). Matrix products are faster but
            less accurate for close rows (see Note [cdist's two roads]).

    Returns:
        Tensor: ``B x P x R``.

    Example::

        >>> a = torch.tensor([[0., 0.], [3., 4.]])
        >>> torch.cdist(a, a)
        tensor([[0., 5.],
                [5., 0.]])
    """
    if compute_mode not in _COMPUTE_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    return cdist.call(x1, x2, float(p), _COMPUTE_MODES[compute_mode])


# ----------------------------------------------------------------------------------
# renorm
# ----------------------------------------------------------------------------------
def _cpp_double(value) -> str:
    """A double as C++'s ostream prints it (six significant digits, no trailing zeros)."""
    return f"{float(value):g}"


def _renorm_meta(self, p, dim, maxnorm, out=None, python_words: bool = False):
    """`python_words`: as torch's meta function (the Meta registration) words it."""
    if isinstance(p, complex):
        raise RuntimeError("renorm: p must be real-valued")
    if p <= 0:
        hyphen = " " if python_words else "-"
        raise RuntimeError(f"renorm: non-positive{hyphen}norm not supported")
    if isinstance(maxnorm, complex):
        raise RuntimeError("renorm: maxnorm must be real-valued")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {_cpp_double(maxnorm)}")
    ndim = self.dim()
    if ndim <= 1:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {ndim} dimensions")
    exact_out_dtype(self._dtype, out)
    if out is not None:
        check_no_internal_overlap(out)
    wrap_dim(dim, ndim)
    if not (self._dtype.is_floating_point or self._dtype.is_complex):
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor "
                           f"as input. Got {_dtype_shown(self, python_words)}")
    return TensorMeta(self._size, self._dtype)


@derivative_helper
def renorm_backward(grad, self, p, dim: int, maxnorm):
    """The gradient of ``y = x * maxnorm / (|x|_p + 1e-7)`` on the slices over the limit
    (``y = x`` elsewhere): the scale times `grad`, minus the scale's own change through
    the norm, ``maxnorm / (n + 1e-7)^2 * sum(conj(x) grad) * dn/dx``."""
    dim = dim % self.dim()
    dims = [d for d in range(self.dim()) if d != dim]
    p = float(p)
    magnitude = self.abs()
    if math.isinf(p):
        norm = magnitude.amax(dims, keepdim=True)
    else:
        norm = magnitude.pow(p).sum(dims, keepdim=True).pow(1 / p)
    along = (self.conj() * grad)
    along = (along.real if along.is_complex() else along).sum(dims, keepdim=True)
    norm_change = norm_backward(along, self, p, norm, dims, True)
    inverse = (norm + 1e-7).reciprocal()
    factor = inverse * maxnorm
    return at.where(norm > maxnorm, factor * grad - factor * inverse * norm_change, grad)


@op("renorm(Tensor self, Scalar p, int dim, Scalar maxnorm) -> Tensor", meta=_renorm_meta,
    inplace=True, out=True, method=True,
    grad={"self": "renorm_backward(grad, self, p, dim, maxnorm)"})
def renorm(self, p, dim, maxnorm, *, out):
    """Rescale each slice of `input` along `dim` whose p-norm exceeds `maxnorm` to a
    norm of (just under) `maxnorm`; the other slices are left as they are.

    The norm of slice ``i`` is taken over every dim but `dim`; a slice over the limit is
    multiplied by ``maxnorm / (norm + 1e-7)``.

    Args:
        input (Tensor): at least 2-D, floating point or complex.
        p (float): the norm's power (positive; ``inf`` for the largest magnitude).
        dim (int): the dim whose slices are rescaled one by one.
        maxnorm (float): the largest norm a slice may keep.

    Keyword args:
        out (Tensor, optional): the output tensor.

    Example::

        >>> torch.renorm(torch.tensor([[3., 4.], [0.3, 0.4]]), 2, 0, 1)
        tensor([[0.6000, 0.8000],
                [0.3000, 0.4000]])
    """
    dim = dim % self.ndim
    axes = tuple(d for d in range(self.ndim) if d != dim)
    real = np.abs(np.zeros((), out.dtype)).dtype          # norms are real
    norm = _vector_norm(self, float(p), axes).astype(real)
    limit = real.type(maxnorm)
    factor = np.where(norm > limit, limit / (norm + real.type(1e-7)), real.type(1))
    np.multiply(self, factor.astype(real, copy=False), out=out)


@register_meta(renorm)
def _renorm_meta_key(self, p, dim, maxnorm, out=None):
    return _renorm_meta(self, p, dim, maxnorm, out, python_words=True)


def _vector_norm(x: np.ndarray, p: float, axes: tuple) -> np.ndarray:
    """The p-norm over `axes` (kept), accumulated in float64 (complex128 magnitudes)."""
    magnitude = np.abs(x.astype(np.complex128 if x.dtype.kind == "c" else np.float64))
    if np.isinf(p):
        return magnitude.max(axis=axes, keepdims=True, initial=0.0)
    if p == 2:
        return np.sqrt(np.square(magnitude).sum(axis=axes, keepdims=True))
    return np.power(np.power(magnitude, p).sum(axis=axes, keepdims=True), 1 / p)


# ----------------------------------------------------------------------------------
# cross, linalg_cross
# ----------------------------------------------------------------------------------
def _linalg_cross_meta(self, other, dim=-1, out=None):
    described = _cross_result(self, other, dim, out)
    if self._dtype is dtypes.bool:              # the kernel's checks; torch's meta has none
        raise NotImplementedError("\"cross\" not implemented for 'Bool'")
    if other._dtype is not self._dtype:
        raise RuntimeError(f"expected scalar type {scalar_type_name(self._dtype)} but found "
                           f"{scalar_type_name(other._dtype)}")
    return described


def _cross_result(self, other, dim=-1, out=None):
    if self.dim() != other.dim():
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    if not self._size:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    d = wrap_dim(dim, self.dim())
    if self._size[d] != 3 or other._size[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                           f"{self._size[d]} and {other._size[d]}")
    size = broadcast_shapes(self._size, other._size)
    exact_out_dtype(self._dtype, out)
    if out is not None:
        check_no_internal_overlap(out)
    return TensorMeta(size, self._dtype)


def cross_product(self: np.ndarray, other: np.ndarray, dim: int, out: np.ndarray) -> None:
    """``out = self x other`` along `dim` (of length 3), the other dims broadcast."""
    def component(a: np.ndarray, i: int) -> np.ndarray:
        return a[(slice(None),) * dim + (i, Ellipsis)]        # a view, 0-d included
    for i in range(3):                 # component i = a[j] b[k] - a[k] b[j], (i, j, k) cyclic
        j, k = (i + 1) % 3, (i + 2) % 3
        np.subtract(component(self, j) * component(other, k),
                    component(self, k) * component(other, j), out=component(out, i))


@op("linalg_cross(Tensor self, Tensor other, *, int dim=-1) -> Tensor",
    meta=_linalg_cross_meta, out=True, python_module="linalg",
    grad={"self": "cross(other.conj(), grad, dim)", "other": "cross(grad, self.conj(), dim)"})
def linalg_cross(self, other, dim, *, out):
    """The cross product of 3-vectors along `dim` (batch dims broadcast).

    Example::

        >>> torch.linalg.cross(torch.tensor([1., 0., 0.]), torch.tensor([0., 1., 0.]))
        tensor([0., 0., 1.])
    """
    cross_product(self, other, dim % out.ndim, out)


register_meta(linalg_cross, _cross_result)


def default_cross_dim(sizes: tuple) -> int:
    """torch.cross without `dim`: the first dim of size 3 of `input` (deprecated)."""
    for d, size in enumerate(sizes):
        if size == 3:
            return d
    raise RuntimeError("no dimension of size 3 in input")


def _cross_meta(self, other, dim=None, out=None):
    return _linalg_cross_meta(self, other, _cross_dim(self, dim), out)


def _cross_meta_key(self, other, dim=None, out=None):
    return _cross_result(self, other, _cross_dim(self, dim), out)


def _cross_dim(self, dim) -> int:
    if dim is None:
        _warn_once("Using torch.cross without specifying the dim arg is deprecated.\nPlease "
                   "either pass the dim explicitly or simply use torch.linalg.cross.\nThe "
                   "default value of dim will change to agree with that of linalg.cross in a "
                   "future release.")
        dim = default_cross_dim(self._size)
    return dim


@derivative_helper
def cross_dim(sizes, dim):
    """The dim `cross` worked along: the given one, or the first of size 3."""
    return default_cross_dim(sizes) if dim is None else dim


@op("cross(Tensor self, Tensor other, int? dim=None) -> Tensor", meta=_cross_meta, out=True,
    method=True,
    grad={"self": "cross(other.conj(), grad, cross_dim(self_sym_sizes, dim))",
          "other": "cross(grad, self.conj(), cross_dim(self_sym_sizes, dim))"})
def cross(self, other, dim, *, out):
    """The cross product of 3-vectors along `dim` of `input` and `other`.

    Without `dim` (deprecated), the first dim of size 3 is used; `torch.linalg.cross`
    takes the last dim instead.

    Args:
        input (Tensor): the first operand.
        other (Tensor): the second, of the same number of dims (sizes broadcast).
        dim (int, optional): the dim of length 3.

    Keyword args:
        out (Tensor, optional): the output tensor.

    Example::

        >>> torch.cross(torch.tensor([[1., 0., 0.]]), torch.tensor([[0., 1., 0.]]), dim=1)
        tensor([[0., 0., 1.]])
    """
    dim = default_cross_dim(self.shape) if dim is None else dim
    cross_product(self, other, dim % out.ndim, out)


register_meta(cross, _cross_meta_key)
