"""Moments of a distribution: var, std, var_mean, std_mean; and logsumexp.

Note [Variance with a correction]
    ``var = sum(|x - mean|^2) / max(0, N - correction)`` over the reduced elements,
    where `correction` is Bessel's (1 by default, `unbiased=False` means 0, any real
    number is allowed). A correction reaching N gives inf (or NaN for no spread, or
    no elements), and torch warns that the degrees of freedom are <= 0, counting N
    as input numel / output numel. Complex inputs have a real variance (of the
    modulus) and a complex mean. The mean is taken first, then the squared
    deviations are summed (two passes: as accurate as torch's Welford updates).

Each of the four operators has torch's three overloads: ``(self, unbiased)``,
``.dim(self, dim, unbiased, keepdim)`` and ``.correction(self, dim, *, correction,
keepdim)``; all of them reduce to the same kernel.
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from ....c10.dtype import from_numpy_dtype, scalar_type_name
from ....c10.promotion import get_default_dtype
from ...derivatives import derivative_helper
from ...backends import register_meta
from ...meta.reduction import reduced_shape, reduction_count, reduction_dims
from ...registry import TensorMeta, op
from .sum import (accumulation, axes, mean_backward, over_slabs, reduced_count,
                  reduced_dims, restore_reduced_dims, write)
from ..pointwise.unary import refuse


# ----------------------------------------------------------------------------------
# var / std / var_mean / std_mean
# ----------------------------------------------------------------------------------
def _moment_meta(name: str, with_mean: bool, warns: bool = True):
    """The meta rule of one operator, taking the `.correction` overload's arguments.
    `warns`: torch's CPU kernel warns of the degrees of freedom (its Meta key does not)."""
    checked = "std and var" if name in ("std", "var") else name

    def meta(self, dim=None, correction=None, keepdim=False, out=None):
        if not (self._dtype.is_floating_point or self._dtype.is_complex):
            raise RuntimeError(f"{checked} only support floating point and complex dtypes")
        real = self._dtype.to_real()
        written = out[0] if with_mean and out is not None else out
        if written is not None and not (written._dtype.is_floating_point or
                                        written._dtype.is_complex):
            raise RuntimeError(f"result type {scalar_type_name(real)} can't be cast to the "
                               f"desired output type {scalar_type_name(written._dtype)}")
        shape = reduced_shape(self._size, reduction_dims(dim, len(self._size)), keepdim)
        if self._dtype.is_complex and warns:
            # torch reduces the real and imaginary parts apart (warning for each), into
            # a temporary, before it resizes out=
            for _ in range(2):
                _warn_degrees(name, self.numel(), correction, math.prod(shape))
        if with_mean:
            return TensorMeta(shape, real), TensorMeta(shape, self._dtype)
        return TensorMeta(shape, real)
    meta.__name__ = f"_{name}_meta"
    return meta


def _refuse_out(x: np.ndarray, dim, spread: np.ndarray) -> None:
    """The refusals of torch's kernels for an out= of another dtype: a whole float16 /
    bfloat16 reduction into a wider one, a partial real one into complex."""
    if x.dtype.kind == "c":
        return
    whole = len(reduction_dims(dim, x.ndim)) == x.ndim
    if whole and x.size and x.dtype.itemsize == 2 and (spread.dtype.itemsize > 2 or
                                                       spread.dtype.kind == "c"):
        name = scalar_type_name(from_numpy_dtype(x.dtype))
        raise RuntimeError(f"std_var_all: Unsupported dtype {name}")
    if not whole and x.size and spread.dtype.kind == "c":
        refuse(spread, "std_cpu", frozenset({spread.dtype}))


def _warn_degrees(name: str, size: int, correction, result_size: int):
    """torch's warning when the degrees of freedom are not positive (N counted as input
    numel over output numel, so an empty result warns too)."""
    count = size // max(result_size, 1)
    if count - (1 if correction is None else correction) <= 0:
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly "
                      f"less than the reduction factor (input numel divided by output "
                      f"numel).", UserWarning, stacklevel=5)


def _moments(name: str, x: np.ndarray, dim, correction, keepdim: bool, spread: np.ndarray,
             root: bool, mean_out: np.ndarray | None = None) -> None:
    """Write the variance (its root when `root`) into `spread`, and the mean into
    `mean_out` when given. See Note [Variance with a correction]."""
    _refuse_out(x, dim, spread)
    if x.dtype.kind != "c":                        # complex inputs warned in the meta rule
        _warn_degrees(name, x.size, correction, spread.size)
    axis = axes(x, dim)
    wide = accumulation(x.dtype)
    if wide != x.dtype:
        x = x.astype(wide)
    count = reduction_count(x.shape, axis)
    divisor = max(0, count - (1 if correction is None else correction))

    def slab(x, spread, mean_out):
        mean = np.add.reduce(x, axis=axis, keepdims=True) / count   # NaN for no elements
        deviation = np.asarray(x - mean)
        if deviation.dtype.kind == "c":
            squares = deviation.real * deviation.real + deviation.imag * deviation.imag
        else:
            squares = np.multiply(deviation, deviation, out=deviation)
        variance = np.add.reduce(squares, axis=axis, keepdims=keepdim) / divisor
        write(spread, np.sqrt(variance) if root else variance)
        if mean_out is not None:
            write(mean_out, mean.reshape(mean_out.shape))
    over_slabs(slab, x, axis, keepdim, spread, mean_out)


def _correction(unbiased: bool) -> int:
    return 1 if unbiased else 0


_MOMENT_DOCS = {
    "var": ("The variance of the elements of `input`", "var", "tensor([1.0000, 4.3333])"),
    "std": ("The standard deviation of the elements of `input`", "std",
            "tensor([1.0000, 2.0817])"),
    "var_mean": ("The variance and the mean of the elements of `input`", "var_mean",
                 "(tensor([1.0000, 4.3333]), tensor([2.0000, 5.6667]))"),
    "std_mean": ("The standard deviation and the mean of the elements of `input`",
                 "std_mean", "(tensor([1.0000, 2.0817]), tensor([2.0000, 5.6667]))"),
}


def _moment_doc(name: str) -> str:
    what, call, printed = _MOMENT_DOCS[name]
    return f"""{what}, over every dim or over `dim`.

    Args:
        input (Tensor): the values (floating point or complex).
        dim (int or tuple of ints, optional): the dims to reduce (all when omitted).
        unbiased (bool): divide by N - 1 (True) or N; superseded by `correction`.
        correction (Number, optional): divide by N - correction (default 1).
        keepdim (bool): keep the reduced dims, with size 1.

    Example::

        >>> torch.{call}(torch.tensor([[1., 2., 3.], [4., 5., 8.]]), dim=1)
        {printed}
    """


@derivative_helper
def var_backward(grad, self, dim, correction, keepdim: bool):
    """d var / d x = 2 (x - mean) / (N - correction)."""
    correction = 1 if correction is None else correction
    sizes = tuple(self.shape)
    grad = restore_reduced_dims(grad, dim, sizes, keepdim)
    mean = self.mean(reduced_dims(dim, len(sizes)), keepdim=True) if sizes else self
    # torch counts the listed dims only: an empty list counts 1 (it reduced everything)
    listed = math.prod(sizes) if dim is None else reduced_count(sizes, dim) if dim else 1
    freedom = max(0, listed - correction)
    return (2.0 / freedom if freedom else math.inf) * grad * (self - mean)


@derivative_helper
def std_backward(grad, self, result, dim, correction, keepdim: bool):
    """std = sqrt(var): var's gradient scaled by 1 / (2 std) (0 where std is 0)."""
    halved = (grad / (result * 2)).masked_fill(result == 0, 0)
    return var_backward(halved, self, dim, correction, keepdim)


@derivative_helper
def moment_mean_backward(grads, self, spread, dim, correction, keepdim: bool, root: bool):
    """var_mean / std_mean: the spread's gradient plus the mean's."""
    if root:
        first = std_backward(grads[0], self, spread, dim, correction, keepdim)
    else:
        first = var_backward(grads[0], self, dim, correction, keepdim)
    return first + mean_backward(grads[1], self.shape, dim, self.numel(), keepdim)


def _moment_grad(root: bool, with_mean: bool, dim: str, correction: str, keepdim: str):
    """The formula of one overload, in the words its arguments give."""
    if with_mean:
        return {"self": f"moment_mean_backward(grads, self, result0, {dim}, {correction}, "
                        f"{keepdim}, {root})"}
    if root:
        return {"self": f"std_backward(grad, self, result, {dim}, {correction}, {keepdim})"}
    return {"self": f"var_backward(grad, self, {dim}, {correction}, {keepdim})"}


def _declare_moment(name: str, root: bool, with_mean: bool):
    """The `.dim`, `.correction` and plain overloads, in torch's order of Python overloads."""
    dim_meta, meta, plain_meta = _overload_rules(_moment_meta(name, with_mean))
    returns = "(Tensor, Tensor)" if with_mean else "Tensor"

    def kernel(self, dim, correction, keepdim, *, out):
        spread, mean = (out if with_mean else (out, None))
        _moments(name, self, dim, correction, keepdim, spread, root, mean)

    def dim_kernel(self, dim, unbiased, keepdim, *, out):
        kernel(self, dim, _correction(unbiased), keepdim, out=out)

    def plain_kernel(self, unbiased, *, out):
        kernel(self, None, _correction(unbiased), False, out=out)
    declared = [
        op(f"{name}.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) "
           f"-> {returns}", meta=dim_meta, method=not with_mean, out=not with_mean,
           grad=_moment_grad(root, with_mean, "dim", "1 if unbiased else 0", "keepdim"))(
               dim_kernel),
        op(f"{name}.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, "
           f"bool keepdim=False) -> {returns}", meta=meta, method=not with_mean, out=True,
           out_overload="correction_out", bind_out=not with_mean,
           grad=_moment_grad(root, with_mean, "dim", "correction", "keepdim"))(kernel),
        op(f"{name}(Tensor self, bool unbiased=True) -> {returns}", meta=plain_meta,
           method=not with_mean,              # var_mean, std_mean: functions only
           grad=_moment_grad(root, with_mean, "None", "1 if unbiased else 0", "False"))(
               plain_kernel),
    ]
    silent = _overload_rules(_moment_meta(name, with_mean, warns=False))
    for overload, rule in zip(declared, silent):
        overload.declaration.doc = _moment_doc(name)
        register_meta(overload, rule)
    return declared


def _overload_rules(meta) -> tuple:
    """The meta rules of the `.dim`, `.correction` and plain overloads from `meta`, the
    `.correction` one."""
    def dim_meta(self, dim, unbiased=True, keepdim=False, out=None):
        return meta(self, dim, _correction(unbiased), keepdim, out)

    def plain_meta(self, unbiased=True):
        return meta(self, None, _correction(unbiased), False)
    return dim_meta, meta, plain_meta


var_dim, var_correction, var = _declare_moment("var", False, False)
std_dim, std_correction, std = _declare_moment("std", True, False)
var_mean_dim, var_mean_correction, var_mean = _declare_moment("var_mean", False, True)
std_mean_dim, std_mean_correction, std_mean = _declare_moment("std_mean", True, True)


# ----------------------------------------------------------------------------------
# logsumexp
# ----------------------------------------------------------------------------------
def _logsumexp_meta(self, dim, keepdim=False, out=None):
    if out is not None and not (out._dtype.is_floating_point or out._dtype.is_complex):
        raise RuntimeError(f"logsumexp(): Expected floating point type for result tensor, "
                           f"but got: {scalar_type_name(out._dtype)}")
    dtype = self._dtype
    if not (dtype.is_floating_point or dtype.is_complex):
        dtype = get_default_dtype()
    if out is not None:
        dtype = out._dtype           # torch's composite sums straight into out=
    shape = reduced_shape(self._size, reduction_dims(dim, len(self._size)), keepdim)
    return TensorMeta(shape, dtype)


@derivative_helper
def logsumexp_backward(grad, self, result, dim, keepdim: bool):
    """d logsumexp / d x = softmax(x) = exp(x - logsumexp)."""
    sizes = tuple(self.shape)
    grad = restore_reduced_dims(grad, dim, sizes, keepdim)
    return grad * (self - restore_reduced_dims(result, dim, sizes, keepdim)).exp()


@op("logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor", meta=_logsumexp_meta,
    method=True, out=True,
    grad={"self": "logsumexp_backward(grad, self, result, dim, keepdim)"})
def logsumexp(self, dim, keepdim, *, out):
    """``log(sum(exp(input)))`` over `dim`, without overflow: the largest element is
    taken out before exponentiating.

    Args:
        input (Tensor): the values (integers are read as the default float dtype).
        dim (int or tuple of ints): the dims to reduce.
        keepdim (bool): keep the reduced dims, with size 1.

    Example::

        >>> torch.logsumexp(torch.tensor([100., 100.]), 0)
        tensor(100.6931)
    """
    if self.dtype.kind in "biu":
        self = self.astype(get_default_dtype()._np)
    axis = axes(self, dim)
    real = self.real if self.dtype.kind == "c" else self
    shift = np.maximum.reduce(real, axis=axis, keepdims=True, initial=-np.inf)
    shift = np.where(np.isfinite(shift), shift, 0)    # all -inf (or an inf): nothing to take out
    # torch's composite rounds the shifted values and their exponentials to the input's
    # dtype (float16 / bfloat16 too), then sums them into the result
    terms = np.exp((self - shift).astype(self.dtype)).astype(self.dtype)
    acc = accumulation(self.dtype if self.dtype.kind == "c" else out.dtype)
    total = np.add.reduce(terms, axis=axis, keepdims=keepdim, dtype=acc)
    if total.dtype.kind == "c" and out.dtype.kind != "c":
        total = total.real                  # the sum lands in a real out= before the log
    write(out, np.log(total) + (shift if keepdim else shift.reshape(total.shape)))
