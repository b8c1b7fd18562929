"""Scans: cumsum, cumprod, cummax, cummin, logcumsumexp; and count_nonzero.

Note [Scan accumulation]
    torch's CPU scans walk each lane (the elements along `dim`, for one position of
    the other dims) in order, keeping the running value in ``at::acc_type<T, false>``:
    double for float32, float for float16 / bfloat16, complex<double> for complex64,
    int64 for integers. Every output element is that running value rounded to the
    result dtype. So a float32 cumsum is *not* NumPy's float32 `np.cumsum`: it is the
    float64 running sum, rounded element by element, and the kernels here compute
    exactly that (`running`). The input is first converted to the result dtype
    (``cumsum(x_float, dtype=torch.int64)`` truncates each element before summing).

Lanes are processed together: when the scanned dim is not the innermost one in
memory, one NumPy call per step along `dim` advances every lane at once (a loop over
a dim, not over elements), which is faster than NumPy's own `accumulate` there.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name, type_meta_name
from ....c10.type_info import finfo
from ...derivatives import derivative_helper
from ...backends import register_meta
from ...meta.reduction import reduction_dim, reduction_meta
from ...meta.shape import check_no_internal_overlap
from ...parallel import GRAIN_SIZE, parallel_for
from ...registry import TensorMeta, op
from .sum import as_input, axes, write
from ..pointwise.unary import BOOL, COMPLEX, refuse

# at::acc_type<T, /*is_cuda=*/false> where it differs from T (Note [Scan accumulation])
_ACCUMULATE = {np.dtype(np.float32): np.dtype(np.float64),
               np.dtype(np.complex64): np.dtype(np.complex128),
               np.dtype(dtypes.float16._np): np.dtype(np.float32),
               np.dtype(dtypes.bfloat16._np): np.dtype(np.float32)}
# With at least this many lanes, stepping all lanes together beats NumPy's accumulate
_LANES_FOR_STEPS = 64
# Elements per block of `_through_buffer`: its buffer stays in cache
_BLOCK_ELEMENTS = 1 << 15
_IDENTITY = {np.add: 0, np.multiply: 1, np.logaddexp: -np.inf}
_NOT_LOGCUMSUMEXP = frozenset(np.dtype(t) for t in (np.bool_, np.uint8, np.int8, np.int16,
                                                    np.int32, np.int64))


# ----------------------------------------------------------------------------------
# The running value along one dim
# ----------------------------------------------------------------------------------
def running(ufunc, x: np.ndarray, dim: int, out: np.ndarray) -> None:
    """``out[i] = ufunc(out[i - 1], x[i])`` along `dim`, from the operation's identity,
    in the accumulation dtype (Note [Scan accumulation]).

    Args:
        ufunc: `np.add`, `np.multiply` or `np.logaddexp`.
        x: the input, already in the result dtype (or one that converts exactly).
        dim: the scanned dim (wrapped; ignored for a 0-dim `x`).
        out: the result, of the result dtype.
    """
    acc = _ACCUMULATE.get(out.dtype, out.dtype)
    if x.ndim == 0 or x.size == 0:
        write(out, x)
        return
    lanes = x.size // x.shape[dim]
    if lanes >= _LANES_FOR_STEPS and not _innermost(x, dim):
        _step_all_lanes(ufunc, np.moveaxis(x, dim, 0), np.moveaxis(out, dim, 0), acc)
    elif acc == out.dtype:
        ufunc.accumulate(x, axis=dim, out=out)
        if ufunc is np.add and out.dtype.kind in "fc" and _leading_negative_zero(x, dim):
            np.add(out, 0, out=out)     # torch's sum starts at +0.0: -0.0 + 0.0 is +0.0
    else:
        _lanes_in_parallel(lambda x, out: _through_buffer(ufunc, x, out, acc),
                           np.moveaxis(x, dim, -1), np.moveaxis(out, dim, -1))


def _lanes_in_parallel(work, x: np.ndarray, out: np.ndarray) -> None:
    """``work(x, out)`` on slabs of the outermost lane axis (the scanned dim is last),
    over the thread pool as torch's scans split their lanes with `parallel_for`."""
    if x.ndim < 2:
        work(x, out)
        return
    grain = max(1, GRAIN_SIZE // max(x[0].size, 1))
    parallel_for(0, x.shape[0], grain, lambda start, stop: work(x[start:stop], out[start:stop]))


def _innermost(x: np.ndarray, dim: int) -> bool:
    """`dim` has the smallest stride of the dims that have more than one element."""
    strides = [abs(s) for n, s in zip(x.shape, x.strides) if n > 1]
    return not strides or abs(x.strides[dim]) <= min(strides)


def _leading_negative_zero(x: np.ndarray, dim: int) -> bool:
    first = np.take(x, 0, axis=dim)
    return bool(np.signbit(first.real).any() or (x.dtype.kind == "c" and
                                                 np.signbit(first.imag).any()))


def _step_all_lanes(ufunc, x: np.ndarray, out: np.ndarray, acc: np.dtype) -> None:
    """`running` with `dim` moved first: every lane advances by one element per step."""
    carry = np.full(x.shape[1:], _IDENTITY[ufunc], acc)
    for i in range(x.shape[0]):
        ufunc(carry, x[i], out=carry)
        write(out[i, ...], carry)


def _through_buffer(ufunc, x: np.ndarray, out: np.ndarray, acc: np.dtype) -> None:
    """`running` along the last axis through a buffer of the accumulation dtype that
    fits in cache: a few whole lanes at a time, or one long lane in pieces."""
    if x.ndim > 1 and x[0].size > _BLOCK_ELEMENTS:
        for i in range(x.shape[0]):
            _through_buffer(ufunc, x[i], out[i], acc)
        return
    rows = max(1, _BLOCK_ELEMENTS // x[0].size) if x.ndim > 1 else 1
    for start in range(0, x.shape[0] if x.ndim > 1 else 1, rows):
        part = (slice(start, start + rows),) if x.ndim > 1 else ()
        _pieces(ufunc, x[part], out[part], acc)


def _pieces(ufunc, x: np.ndarray, out: np.ndarray, acc: np.dtype) -> None:
    """Each piece along the last axis is copied into the buffer after the previous
    piece's last running value (the identity at first), accumulated, and rounded
    into `out`."""
    length = x.shape[-1]
    width = max(1, min(length, _BLOCK_ELEMENTS * x.shape[-1] // max(x.size, 1)))
    buffer = np.empty(x.shape[:-1] + (width + 1,), acc)
    buffer[..., 0] = _IDENTITY[ufunc]
    for start in range(0, length, width):
        count = min(width, length - start)
        block = buffer[..., :count + 1]
        block[..., 1:] = x[..., start:start + count]
        ufunc.accumulate(block, axis=-1, out=block)
        write(out[..., start:start + count], block[..., 1:])
        buffer[..., 0] = block[..., -1]


# ----------------------------------------------------------------------------------
# cumsum, cumprod
# ----------------------------------------------------------------------------------
def _cumulative_meta(self, dim, dtype=None, out=None):
    """cumsum / cumprod: `dtype`, else out='s dtype, else self's (int64 for integers
    and bool); an explicit `dtype` must be the written tensor's."""
    reduction_dim(dim, self.dim())
    if out is not None and dtype is not None and out._dtype is not dtype:
        if out is self:
            raise RuntimeError(f"Bad in-place call: input tensor dtype {type_meta_name(self._dtype)}"
                               f" and output tensor dtype {type_meta_name(dtype)} should match")
        raise RuntimeError(f"Expected out tensor to have dtype {type_meta_name(dtype)}, but "
                           f"got {type_meta_name(out._dtype)} instead")
    if dtype is None:
        if out is not None:
            dtype = out._dtype
        elif self._dtype.is_floating_point or self._dtype.is_complex:
            dtype = self._dtype
        else:
            dtype = dtypes.int64
    # torch's kernel refuses a bool result before its iterator sees the written tensor
    if out is not None and not (dtype is dtypes.bool and self.dim() and self.numel()):
        check_no_internal_overlap(out)
    return TensorMeta(self._size, dtype)


def reversed_cumsum(t, dim: int):
    """``t[i] + t[i + 1] + ... + t[-1]`` along `dim`: the adjoint of cumsum."""
    return t.flip(dim).cumsum(dim).flip(dim)


@derivative_helper
def cumsum_backward(grad, dim: int):
    """The gradient of cumsum: each input reaches every later output."""
    if grad.numel() <= 1 or grad.size(dim) == 1:
        return grad
    return reversed_cumsum(grad, dim)


@op("cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor",
    meta=_cumulative_meta, inplace=True, out=True, method=True,
    grad={"self": "cumsum_backward(grad.to(self_scalar_type), dim)"})
def cumsum(self, dim, dtype, *, out):
    """The running sums of `input` along `dim`: ``y[i] = x[0] + ... + x[i]``.

    Args:
        input (Tensor): the values.
        dim (int): the dim to sum along.

    Keyword args:
        dtype (torch.dtype, optional): convert the input to this dtype first. Without
            it, bool and integer inputs sum to int64.

    Example::

        >>> torch.cumsum(torch.tensor([1, 2, 3, 4]), dim=0)
        tensor([ 1,  3,  6, 10])
        >>> torch.tensor([[1., 2.], [3., 4.]]).cumsum(1)
        tensor([[1., 3.],
                [3., 7.]])
    """
    if self.ndim and self.size:            # torch fills 0-dim and empty results directly
        refuse(out, "cumsum_out_cpu", BOOL)
    running(np.add, as_input(self, out.dtype), _dim(self, dim), out)


@derivative_helper
def cumprod_backward(grad, self, dim: int, result):
    """The gradient of cumprod, zeros included.

    d result[j] / d self[k] is the product of self[:j + 1] without self[k], for j >= k.
    Before the first zero of a lane (at z) that is ``result[j] / self[k]``; at z it is
    the product of self[:z] times that of self[z + 1:j + 1]; after z it is 0 (the
    product keeps self[z]). Complex inputs take conjugates, as torch's convention.
    """
    if self.dim() == 0 or self.numel() <= 1:
        return grad
    zeros_seen = (self == 0).cumsum(dim)
    before = zeros_seen == 0
    first_zero = (zeros_seen == 1) & (self == 0)
    safe = self.where(before, 1)
    # products past the first zero are zero whatever follows (NaN or inf included)
    early = reversed_cumsum((grad * result.conj()).where(before, 0), dim) / safe.conj()
    prefix = safe.cumprod(dim)                      # at z: the product of self[:z]
    after = self.where(~(before | first_zero), 1).cumprod(dim)
    # ...and so are those past a second zero
    before_second = zeros_seen <= 1
    at_zero = prefix.conj() * reversed_cumsum((grad * after.conj()).where(before_second, 0), dim)
    return early.where(before, 0) + at_zero.where(first_zero, 0)


@op("cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor",
    meta=_cumulative_meta, inplace=True, out=True, method=True,
    grad={"self": "cumprod_backward(grad.to(self_scalar_type), self, dim, result)"})
def cumprod(self, dim, dtype, *, out):
    """The running products of `input` along `dim`: ``y[i] = x[0] * ... * x[i]``.

    Args:
        input (Tensor): the values.
        dim (int): the dim to multiply along.

    Keyword args:
        dtype (torch.dtype, optional): convert the input to this dtype first. Without
            it, bool and integer inputs multiply to int64.

    Example::

        >>> torch.cumprod(torch.tensor([1, 2, 3, 4]), dim=0)
        tensor([ 1,  2,  6, 24])
        >>> torch.tensor([2., 0.5, 0., 3.]).cumprod(0)
        tensor([2., 1., 0., 0.])
    """
    if self.ndim and self.size:            # torch fills 0-dim and empty results directly
        refuse(out, "cumprod_out_cpu", BOOL)
    running(np.multiply, as_input(self, out.dtype), _dim(self, dim), out)


def _dim(x: np.ndarray, dim: int) -> int:
    """The NumPy axis of a (checked) dim; a 0-dim array has none, 0 stands in."""
    return dim + x.ndim if dim < 0 else dim


# ----------------------------------------------------------------------------------
# logcumsumexp
# ----------------------------------------------------------------------------------
def _logcumsumexp_meta(self, dim, out=None):
    """The input's dtype and shape; out= must have exactly that dtype (checked
    before the dim, as torch's logcumsumexp_out does)."""
    if out is not None and out._dtype is not self._dtype:
        raise RuntimeError(f"expected scalar_type {scalar_type_name(self._dtype)} but found "
                           f"{scalar_type_name(out._dtype)}")
    reduction_dim(dim, self.dim())
    return TensorMeta(self._size, self._dtype)


@derivative_helper
def logcumsumexp_backward(grad, self, result, dim: int):
    """The gradient of logcumsumexp: ``exp(self[k]) * sum_{j >= k} grad[j] /
    exp(result[j])``, summed in log space (positive and negative parts of a real
    `grad` apart) so that nothing overflows."""
    if grad.dim() == 0 or grad.numel() == 0:
        return grad

    def reversed_logcumsumexp(t):
        return t.flip(dim).logcumsumexp(dim).flip(dim)

    if grad.is_complex():
        return (reversed_logcumsumexp(grad.conj().log() - result) + self).exp().conj()
    lowest = finfo(grad.dtype).min
    log_grad = grad.abs().log()
    positive = log_grad.where(grad > 0, lowest)
    negative = log_grad.where(grad < 0, lowest)
    return ((reversed_logcumsumexp(positive - result) + self).exp() -
            (reversed_logcumsumexp(negative - result) + self).exp())


@op("logcumsumexp(Tensor self, int dim) -> Tensor", meta=_logcumsumexp_meta, out=True,
    method=True, grad={"self": "logcumsumexp_backward(grad, self, result, dim)"})
def logcumsumexp(self, dim, *, out):
    """The running ``log(exp(x[0]) + ... + exp(x[i]))`` along `dim`, computed without
    overflow.

    Args:
        input (Tensor): the values (floating point or complex).
        dim (int): the dim to accumulate along.

    Example::

        >>> torch.logcumsumexp(torch.tensor([0., 0., 1000.]), dim=0)
        tensor([   0.0000,    0.6931, 1000.0000])
    """
    refuse(self, "logcumsumexp_out_cpu", _NOT_LOGCUMSUMEXP)
    dim = _dim(self, dim)
    if self.dtype.kind == "c" and self.ndim and self.size:
        _logcumsumexp_complex(self, dim, out)
    else:
        running(np.logaddexp, self, dim, out)


def _logcumsumexp_complex(x: np.ndarray, dim: int, out: np.ndarray) -> None:
    """Complex logcumsumexp, one step along `dim` at a time over every lane (NumPy's
    logaddexp has no complex loop)."""
    acc = _ACCUMULATE.get(out.dtype, out.dtype)
    x, out = np.moveaxis(x, dim, 0), np.moveaxis(out, dim, 0)
    carry = np.full(x.shape[1:], -np.inf, acc)
    for i in range(x.shape[0]):
        carry = _log_add_exp_complex(x[i].astype(acc), carry)
        write(out[i, ...], carry)


def _log_add_exp_complex(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``log(exp(x) + exp(y))`` as torch's complex scan step computes it.

    The operand with the larger real part factors out (``high + log1p(exp(low -
    high))``); a NaN anywhere gives NaN+NaNj; two equal infinite real parts give the
    lower operand when -inf, else the plain ``log(exp(low) + exp(high))``. Of two
    operands with equal real parts, `y` (the running value) counts as the lower one.
    """
    x_lower = x.real < y.real
    low, high = np.where(x_lower, x, y), np.where(x_lower, y, x)
    result = np.log1p(np.exp(low - high)) + high
    infinite = ~np.isfinite(low.real) & (low.real == high.real)
    if infinite.any():
        plain = np.log(np.exp(low) + np.exp(high))
        result = np.where(infinite, np.where(low.real < 0, low, plain), result)
    nan = np.isnan(x.real) | np.isnan(x.imag) | np.isnan(y.real) | np.isnan(y.imag)
    return np.where(nan, complex(np.nan, np.nan), result)


# ----------------------------------------------------------------------------------
# cummax, cummin
# ----------------------------------------------------------------------------------
def _cumulative_extreme_meta(name: str, scalar_dim_checked: bool = True):
    """values of self's dtype and int64 indices, self's shape. As torch, the dim is
    checked when there is something to scan, and for a 0-dim input by the CPU kernel
    only (in other words: not `scalar_dim_checked` for the Meta registration); out=
    tensors must have exactly those dtypes."""
    def meta(self, dim, out=None):
        return _describe_extremes(name, self, dim, out, scalar_dim_checked)
    meta.__name__ = f"_{name}_meta"
    return meta


def _describe_extremes(name: str, self, dim, out, scalar_dim_checked: bool = True):
    if out is not None:
        for written, wanted in zip(out, (self._dtype, dtypes.int64)):
            if written._dtype is not wanted:
                raise RuntimeError(f"expected scalar_type {scalar_type_name(wanted)} but "
                                   f"found {scalar_type_name(written._dtype)}")
    if self.dim() and self.numel():
        reduction_dim(dim, self.dim())
    elif not self.dim() and dim not in (0, -1) and scalar_dim_checked:
        raise IndexError(f"{name}(): Expected reduction dim -1 or 0 for scalar but got {dim}")
    return TensorMeta(self._size, self._dtype), TensorMeta(self._size, dtypes.int64)


def _cumulative_extreme(name: str, ufunc, x: np.ndarray, dim: int, out: tuple) -> None:
    """Running extreme and where it was last reached.

    torch replaces the running value when the new element is at least as extreme
    (``x >= best`` for cummax), so ties report the latest index; a NaN becomes the
    running value and only a later NaN replaces it. An element takes over exactly
    where it equals the running extreme (or is NaN), so the indices are the running
    maximum of those positions, and the values are read back at them (which keeps
    -0.0 and 0.0 apart as torch's copies do).
    """
    values, indices = out
    if x.ndim == 0:
        values[...] = x
        indices[...] = 0
        return
    if x.size == 0:
        return
    refuse(x, f"{name}_cpu", COMPLEX)
    dim = _dim(x, dim)
    if x.size // x.shape[dim] >= _LANES_FOR_STEPS and not _innermost(x, dim):
        _extreme_by_steps(ufunc, np.moveaxis(x, dim, 0), np.moveaxis(values, dim, 0),
                          np.moveaxis(indices, dim, 0))
        return
    takes_over = x == ufunc.accumulate(x, axis=dim)
    if x.dtype.kind not in "biu":
        takes_over |= np.isnan(x)
    shape = [1] * x.ndim
    shape[dim] = x.shape[dim]
    positions = np.arange(x.shape[dim]).reshape(shape)
    np.maximum.accumulate(np.where(takes_over, positions, 0), axis=dim, out=indices)
    np.copyto(values, np.take_along_axis(x, indices, axis=dim))


def _extreme_by_steps(ufunc, x: np.ndarray, values: np.ndarray, indices: np.ndarray) -> None:
    """`_cumulative_extreme` with `dim` moved first, all lanes stepping together by
    torch's rule: the new element takes over where it is NaN, or where it is at least
    as extreme as a running value that is not NaN."""
    best, where = x[0].copy(), np.zeros(x.shape[1:], np.int64)
    at_least = np.greater_equal if ufunc is np.maximum else np.less_equal
    floating = x.dtype.kind not in "biu"
    values[0, ...], indices[0, ...] = best, 0
    for i in range(1, x.shape[0]):
        takes_over = at_least(x[i], best)
        if floating:
            takes_over &= ~np.isnan(best)
            takes_over |= np.isnan(x[i])
        np.copyto(best, x[i], where=takes_over)
        np.copyto(where, i, where=takes_over)
        values[i, ...], indices[i, ...] = best, where


_CUMULATIVE_EXTREME_DOC = """The running {word} of `input` along `dim`, and the index where
    each was reached.

    Args:
        input (Tensor): the values (not complex).
        dim (int): the dim to scan.

    Returns:
        (Tensor, Tensor): ``(values, indices)``. Equal values report the latest
        index; once a NaN is seen it is the running value (the index of the latest NaN).

    Example::

        >>> torch.{name}(torch.tensor([{example}]), dim=0)
        torch.return_types.{name}(
        values=tensor([{values}]),
        indices=tensor([{indices}]))
    """


@derivative_helper
def cummaxmin_backward(grad, self, indices, dim: int):
    """The gradient of cummax / cummin: each output's gradient goes to the input it
    copied (`indices`), summed where several outputs copied one input."""
    if self.dim() == 0:
        return grad
    return self.new_zeros(self.shape).scatter_add(dim, indices, grad)


@op("cummax(Tensor self, int dim) -> (Tensor values, Tensor indices)",
    meta=_cumulative_extreme_meta("cummax"), out=True, method=True,
    grad={"self": "cummaxmin_backward(grad, self, indices, dim)"})
def cummax(self, dim, *, out):
    _cumulative_extreme("cummax", np.maximum, self, dim, out)


register_meta(cummax, _cumulative_extreme_meta("cummax", scalar_dim_checked=False))


@op("cummin(Tensor self, int dim) -> (Tensor values, Tensor indices)",
    meta=_cumulative_extreme_meta("cummin"), out=True, method=True,
    grad={"self": "cummaxmin_backward(grad, self, indices, dim)"})
def cummin(self, dim, *, out):
    _cumulative_extreme("cummin", np.minimum, self, dim, out)


register_meta(cummin, _cumulative_extreme_meta("cummin", scalar_dim_checked=False))


cummax.declaration.doc = _CUMULATIVE_EXTREME_DOC.format(
    word="maximum", name="cummax", example="1, 3, 2, 3", values="1, 3, 3, 3",
    indices="0, 1, 1, 3")
cummin.declaration.doc = _CUMULATIVE_EXTREME_DOC.format(
    word="minimum", name="cummin", example="3, 1, 2, 1", values="3, 1, 1, 1",
    indices="0, 1, 1, 3")


# ----------------------------------------------------------------------------------
# count_nonzero
# ----------------------------------------------------------------------------------
def _count_nonzero_meta(self, dim=None):
    return reduction_meta(self, dim, False, dtypes.int64)


_COUNT_NONZERO_DOC = """How many elements of `input` are not zero, over every dim or over `dim`.

    Args:
        input (Tensor): the values (NaN counts as nonzero, -0.0 as zero).
        dim (int or tuple of ints, optional): the dims to count over (all when omitted).

    Example::

        >>> x = torch.tensor([[0., 1., 2.], [0., 0., 3.]])
        >>> torch.count_nonzero(x)
        tensor(3)
        >>> torch.count_nonzero(x, dim=0)
        tensor([0, 1, 2])
    """


def _count_nonzero(self, dim, *, out):
    write(out, np.count_nonzero(self, axis=axes(self, dim)))


@op("count_nonzero(Tensor self, int? dim=None) -> Tensor", meta=_count_nonzero_meta,
    method=True)
def count_nonzero(self, dim, *, out):
    _count_nonzero(self, dim, out=out)


@op("count_nonzero.dim_IntList(Tensor self, int[] dim) -> Tensor",
    meta=_count_nonzero_meta, method=True)
def count_nonzero_dims(self, dim, *, out):
    _count_nonzero(self, dim, out=out)


count_nonzero.declaration.doc = count_nonzero_dims.declaration.doc = _COUNT_NONZERO_DOC

