"""Summing reductions: sum, nansum, mean, nanmean, prod.

Note [Reduction dtypes]
    A reduction has a *result* dtype and an *accumulation* dtype, as torch's reduce
    kernels do. The result dtype is `dtype=` when given (the input is converted to
    it first, so ``sum(x_float, dtype=torch.int64)`` truncates each element), else
    out='s dtype when out= is given, else the input's, except that sum and prod
    promote bool and integers to int64. Accumulation happens in float32 for
    float16 / bfloat16 results (rounded once at the end) and in the result dtype
    otherwise; integers wrap around as in C.

Float sums add in torch's order (Note [Cascade sum order], `cascade.py`) where that
costs little; the others are NumPy's reductions, shared over the thread pool in slabs
of a kept dim when large (`split_reduce`: each result is still one NumPy reduction).

The shared meta rule (which dims, what shape) is `meta/reduction.py`; the
extrema (max, amax, argmax, all...) are in `extrema.py`, the moments (std, var,
norm, logsumexp, dist) in `moments.py`.
"""
from __future__ import annotations


import math

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name, type_meta_name
from ....c10.promotion import can_cast
from ....c10.tensor_impl import wrap_array
from ...derivatives import derivative_helper, sum_to
from ...meta.reduction import reduction_count, reduction_dims, reduction_meta
from ...parallel import SPLIT_SIZE, get_num_threads, parallel_for
from ...registry import composite, fast_path, op
from .cascade import POOL_SIZE, new_sum, ordered_sum, zero_nan

# float16 / bfloat16 accumulate in float32 (torch's opmath type)
_ACCUMULATE = {np.dtype(dtypes.float16._np): np.dtype(np.float32),
               np.dtype(dtypes.bfloat16._np): np.dtype(np.float32)}


# ----------------------------------------------------------------------------------
# Helpers shared by the reduction families
# ----------------------------------------------------------------------------------
def accumulation(result: np.dtype) -> np.dtype:
    """The dtype a reduction into `result` accumulates in (Note [Reduction dtypes])."""
    return _ACCUMULATE.get(result, result)


def as_input(x: np.ndarray, result: np.dtype) -> np.ndarray:
    """`x` read in the result dtype: converted first where that loses information
    (floats to ints, float32 to float16), left to the reduction's own cast otherwise."""
    if x.dtype == result or np.can_cast(x.dtype, result, "safe"):
        return x
    if x.dtype.kind == "c" and result.kind != "c":
        x = x.real                        # torch keeps the real part (with a warning)
    return x.astype(result)


def write(out: np.ndarray, value) -> None:
    """Round `value` into `out` (of the result dtype, or of out='s wider one)."""
    if np.iscomplexobj(value) and out.dtype.kind != "c":
        value = np.real(value)
    np.copyto(out, value, casting="unsafe")


def axes(x: np.ndarray, dim) -> tuple:
    """The NumPy axes of a reduction over `dim` (a 0-dim array has none)."""
    return reduction_dims(dim, x.ndim)


def fold(ufunc, x: np.ndarray, dim, keepdim: bool, out: np.ndarray,
         skip_nan: bool = False) -> None:
    """``out = ufunc.reduce(x)`` over `dim`, accumulating as Note [Reduction dtypes] says;
    float sums add in torch's order (Note [Cascade sum order]). `skip_nan`: NaN
    elements count as the sum's zero (nansum)."""
    if x.dtype != out.dtype:
        x = as_input(x, out.dtype)
    if ufunc is np.add and ordered_sum(x, dim, out, skip_nan):
        return
    acc = accumulation(out.dtype)
    if skip_nan and x.dtype.kind in "fV":
        x = zero_nan(x)
    if out.dtype == acc:
        split_reduce(ufunc, x, axes(x, dim), keepdim, out)
    else:
        write(out, ufunc.reduce(x, axis=axes(x, dim), dtype=acc, keepdims=keepdim))


def over_slabs(kernel, x: np.ndarray, reduced: tuple, keepdim: bool, *outs,
               at_least: int = SPLIT_SIZE) -> None:
    """``kernel(x, *outs)`` for a reduction of `x` over the dims `reduced` into `outs`
    (its results, None for one not wanted), shared over the pool's threads in slabs of
    the outermost kept dim when `x` has `at_least` elements. Each result element is
    computed whole by one thread, so the bits are those of the single call."""
    kept = [d for d in range(x.ndim) if d not in reduced and x.shape[d] > 1]
    if x.size < at_least or not kept or get_num_threads() == 1:
        kernel(x, *outs)
        return
    dim = kept[0]
    at = dim if keepdim else dim - sum(1 for d in reduced if d < dim)

    def slab(start: int, stop: int) -> None:
        part = slice(start, stop)
        kernel(x[(slice(None),) * dim + (part,)],
               *(o if o is None else o[(slice(None),) * at + (part,)] for o in outs))
    parallel_for(0, x.shape[dim], 1, slab)


def split_reduce(ufunc, x: np.ndarray, reduced: tuple, keepdim: bool, out: np.ndarray) -> None:
    """``ufunc.reduce(x, reduced, out=out)`` over slabs (`over_slabs`), a large
    contiguous sum to one value over stretches (`sum_over_stretches`), past `POOL_SIZE`
    elements (a pass this cheap pays a thread's wake-up no sooner); a reduction that
    casts stays whole (NumPy's buffered casting groups elements by its buffer)."""
    def reduce(values, result):
        ufunc.reduce(values, axis=reduced, out=result, keepdims=keepdim)
    if x.dtype != out.dtype:
        reduce(x, out)
    elif ufunc is np.add and out.size == 1 and x.size >= POOL_SIZE and \
            x.flags.c_contiguous and get_num_threads() > 1:
        sum_over_stretches(x.reshape(-1), out)
    else:
        over_slabs(reduce, x, reduced, keepdim, out, at_least=POOL_SIZE)


def sum_over_stretches(flat: np.ndarray, out: np.ndarray) -> None:
    """The sum of a large 1-D `flat` into the one element of `out`, shared as torch
    shares a sum to one value: a stretch per thread summed on its own (NumPy's pairwise
    way, outside torch's order: Note [Cascade sum order]), then the stretches' sums
    added in order. The bits depend on the thread count, as torch's do."""
    threads = get_num_threads()
    chunk = -(-flat.size // threads)
    sums = np.empty(threads, flat.dtype)

    def stretch(start: int, stop: int) -> None:
        for i in range(start, stop):
            np.add.reduce(flat[i * chunk:(i + 1) * chunk], out=sums[i:i + 1], keepdims=True)
    parallel_for(0, threads, 1, stretch)
    write(out, np.add.accumulate(sums)[-1])


def check_out_matches(dtype, out) -> None:
    """An explicit `dtype=` and an out= of another dtype: torch refuses the pair."""
    if out is not None and dtype is not None and out._dtype is not dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {type_meta_name(dtype)}, but "
                           f"got {type_meta_name(out._dtype)} instead")


def given_dtype(dtype, out):
    """`dtype=` as the caller gave it: the registry fills a missing one from out='s
    (right for sum and prod, which take their dtype from out=); mean and nansum
    compute in the input's dtype and only write out=, so they read None back."""
    return None if out is not None and dtype is out._dtype else dtype


def _integral_to_long(self, dtype):
    """sum and prod: `dtype` if given, else int64 for bool and integers, else self's."""
    if dtype is not None:
        return dtype
    if self._dtype.is_floating_point or self._dtype.is_complex:
        return self._dtype
    return dtypes.int64


# ----------------------------------------------------------------------------------
# Derivatives: a reduction's gradient first gets its reduced dims back, then broadcasts
# ----------------------------------------------------------------------------------
def reduced_dims(dim, ndim: int) -> list:
    """The dims a reduction over `dim` reduced, ascending (None or empty: every dim)."""
    return sorted(reduction_dims(dim, ndim))


def restore_reduced_dims(grad, dim, sizes, keepdim: bool):
    """`grad` with size-1 dims where the reduction dropped them (keepdim=False)."""
    if keepdim or not sizes:
        return grad
    for d in reduced_dims(dim, len(sizes)):
        grad = grad.unsqueeze(d)
    return grad


def reduced_count(sizes: tuple, dim) -> int:
    """How many elements each result of a reduction over `dim` folded."""
    return reduction_count(sizes, reduction_dims(dim, len(sizes)))


# ----------------------------------------------------------------------------------
# sum, nansum
# ----------------------------------------------------------------------------------
def _sum_meta(self, dim=None, keepdim=False, dtype=None, out=None):
    check_out_matches(dtype, out)
    return reduction_meta(self, dim, keepdim, _integral_to_long(self, dtype))


def _sum_all_meta(self, dtype=None, out=None):
    return _sum_meta(self, None, False, dtype, out)


_SUM_DOC = """The sum of the elements of `input`, over every dim or over `dim`.

    Args:
        input (Tensor): the values.
        dim (int or tuple of ints, optional): the dims to reduce (all when omitted).
        keepdim (bool): keep the reduced dims, with size 1.
        dtype (torch.dtype, optional): convert the input to this dtype first; bool and
            integer inputs otherwise sum to int64.

    Example::

        >>> torch.sum(torch.tensor([[1, 2], [3, 4]]), dim=0)
        tensor([4, 6])
        >>> torch.tensor([True, True, False]).sum()
        tensor(2)
    """


_SUMS_IN_ITSELF = frozenset({dtypes.float32, dtypes.float64, dtypes.complex64,
                             dtypes.complex128})
_ORDERED_DTYPES = frozenset({dtypes.float32, dtypes.float64})


@fast_path("a float tensor summed whole in its own dtype")
def _sum_all_fast(self, dtype):
    """The common call (a loss: ``x.sum()`` of a float tensor, no dtype=), without the
    meta rule and allocation: a dtype that is its own result and accumulation dtype
    sums straight into a new 0-dim array. None for any other call."""
    if dtype is not None or self._dtype not in _SUMS_IN_ITSELF:
        return None
    values = self._np
    if self._dtype in _ORDERED_DTYPES:
        result, _, done = new_sum(values, None, False)
    else:
        result, done = np.empty((), values.dtype), False
    if not done:
        fold(np.add, values, None, False, result)
    return wrap_array(result, self._dtype)


@fast_path("a float32 / float64 tensor summed over dims in its own dtype")
def _sum_dim_fast(self, dim, keepdim, dtype):
    """``x.sum(dims)`` of a float32 / float64 tensor without dtype= (a bias's gradient),
    without the meta rule. None for any other call."""
    summed = _summed(self, dim, keepdim, dtype)
    return None if summed is None else wrap_array(summed[0], self._dtype)


def _summed(self, dim, keepdim: bool, dtype):
    """``(sums, elements each sums)`` of a float32 / float64 tensor over `dim` into a
    new array, the same kernel as the general path's; None for another dtype, a
    dtype=, a dim out of range or repeated (the general path words the refusal)."""
    if dtype is not None or self._dtype not in _ORDERED_DTYPES:
        return None
    values = self._np
    planned = new_sum(values, dim, keepdim)
    if planned is None:
        return None
    result, count, done = planned
    if not done:
        fold(np.add, values, dim, keepdim, result)
    return result, count


@derivative_helper
def sum_backward(grad, sizes, dim, keepdim: bool):
    """Every summed element receives the gradient of its sum."""
    return restore_reduced_dims(grad, dim, tuple(sizes), keepdim).expand(tuple(sizes))


@derivative_helper
def nansum_backward(grad, self, dim, keepdim: bool):
    """sum's gradient, except for the NaN elements, which took no part."""
    return sum_backward(grad, self.shape, dim, keepdim) * self.isnan().logical_not()


# torch's Python `sum(input, *, dtype)` takes no out= (only the dim overload does):
# sum.out is reachable through torch.ops.aten only (bind_out=False); prod.out too
@op("sum(Tensor self, *, ScalarType? dtype=None) -> Tensor", meta=_sum_all_meta,
    method=True, out=True, bind_out=False, grad={"self": "grad.expand(self_sym_sizes)"},
    fast=_sum_all_fast)
def sum_all(self, dtype, *, out):
    fold(np.add, self, None, False, out)


@op("sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, "
    "ScalarType? dtype=None) -> Tensor", meta=_sum_meta, method=True, out=True,
    out_overload="IntList_out",
    grad={"self": "sum_backward(grad, self_sym_sizes, dim, keepdim)"}, fast=_sum_dim_fast)
def sum_dim(self, dim, keepdim, dtype, *, out):
    fold(np.add, self, dim, keepdim, out)


sum_all.declaration.doc = sum_dim.declaration.doc = _SUM_DOC


def _nansum_meta(self, dim=None, keepdim=False, dtype=None, out=None):
    if self._dtype.is_complex:
        raise RuntimeError("nansum on CPU does not support complex inputs")
    if out is not None and dtype is not None and out._dtype is not dtype:
        raise RuntimeError(f"nansum: provided dtype must match dtype of result. Got "
                           f"{scalar_type_name(out._dtype)} and {scalar_type_name(dtype)}.")
    if self._dtype.is_floating_point and given_dtype(dtype, out) is None and \
            out is not None and not out._dtype.is_floating_point and self.numel():
        # floating inputs go to torch's floating-only nansum loop, in out='s dtype
        raise NotImplementedError(f"\"nansum_cpu\" not implemented for "
                                  f"'{scalar_type_name(out._dtype)}'")
    return reduction_meta(self, dim, keepdim, _integral_to_long(self, dtype))


@op("nansum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) "
    "-> Tensor", meta=_nansum_meta, method=True, out=True,
    grad={"self": "nansum_backward(grad, self, dim, keepdim)"})
def nansum(self, dim, keepdim, dtype, *, out):
    """The sum of the elements of `input` that are not NaN (NaN counts as zero).

    Args:
        input (Tensor): the values.
        dim (int or tuple of ints, optional): the dims to reduce (all when omitted).
        keepdim (bool): keep the reduced dims, with size 1.
        dtype (torch.dtype, optional): convert the input to this dtype first.

    Example::

        >>> torch.nansum(torch.tensor([1., float('nan'), 2.]))
        tensor(3.)
    """
    fold(np.add, self, dim, keepdim, out, skip_nan=True)


# ----------------------------------------------------------------------------------
# mean, nanmean
# ----------------------------------------------------------------------------------
def _mean_meta(self, dim=None, keepdim=False, dtype=None, out=None, name="mean",
               refusal="result type Float can't be cast to the desired output type",
               whole=False):
    """mean's dtype: `dtype=`, else the input's (floating or complex); an out= of another
    dtype receives the mean, unless it is integral (torch's division into it fails)."""
    dtype = given_dtype(dtype, out)
    chosen = self._dtype if dtype is None else dtype
    if not (chosen.is_floating_point or chosen.is_complex):
        which = "Input" if dtype is None else "Optional"
        raise RuntimeError(f"{name}(): could not infer output dtype. {which} dtype must be "
                           f"either a floating point or complex dtype. Got: "
                           f"{scalar_type_name(chosen)}")
    if out is not None:
        inexact = out._dtype.is_floating_point or out._dtype.is_complex
        # the whole-tensor mean checks the cast, the dim one only its division's
        if not inexact or (whole and not can_cast(chosen, out._dtype)):
            raise RuntimeError(f"{refusal} {scalar_type_name(out._dtype)}")
        check_out_matches(dtype, out)
        chosen = out._dtype
    return reduction_meta(self, dim, keepdim, chosen)


def _mean_all_meta(self, dtype=None, out=None):
    return _mean_meta(self, None, False, dtype, out, refusal="mean.dtype_out(): input types "
                      "can't be cast to the desired output type", whole=True)


def _divide(out: np.ndarray, total: np.ndarray, count) -> None:
    """``out = total / count``, in the accumulation dtype, rounded once."""
    write(out, np.divide(total, count, dtype=total.dtype))


def _mean_kernel(self, dim, keepdim, out):
    acc = accumulation(out.dtype)
    total = np.empty(out.shape, acc)
    fold(np.add, self, dim, keepdim, total)
    _divide(out, total, reduction_count(self.shape, axes(self, dim)))


@derivative_helper
def mean_backward(grad, sizes, dim, numel: int, keepdim: bool):
    """sum's gradient divided by the count of elements each mean averaged."""
    return sum_backward(grad, sizes, dim, keepdim) / max(reduced_count(tuple(sizes), dim), 1)


@derivative_helper
def nanmean_backward(grad, self, dim, keepdim: bool):
    """nansum's gradient divided by the count of non-NaN elements."""
    present = self.isnan().logical_not()
    count = present.sum(reduced_dims(dim, self.dim()), keepdim=True)
    return nansum_backward(grad, self, dim, keepdim) / count


_MEAN_DOC = """The mean of the elements of `input`, over every dim or over `dim`.

    Args:
        input (Tensor): the values (floating point or complex).
        dim (int or tuple of ints, optional): the dims to reduce (all when omitted).
        keepdim (bool): keep the reduced dims, with size 1.
        dtype (torch.dtype, optional): convert the input to this dtype first.

    The mean of no elements is NaN.

    Example::

        >>> torch.tensor([[1., 2.], [3., 5.]]).mean(dim=1)
        tensor([1.5000, 4.0000])
    """


@fast_path("a float tensor averaged whole in its own dtype")
def _mean_all_fast(self, dtype):
    """``x.mean()`` of a float tensor without dtype= (a loss's reduction), without the
    meta rule and allocation: the same kernel, into a new 0-dim array. None for any
    other call."""
    total = _sum_all_fast(self, dtype)
    if total is not None:                          # _mean_kernel's division, in place
        np.divide(total._arr, math.prod(self._size), out=total._arr)
    return total


@op("mean(Tensor self, *, ScalarType? dtype=None) -> Tensor", meta=_mean_all_meta,
    method=True, out=True, out_overload="dtype_out",
    grad={"self": "grad.expand(self_sym_sizes) / self_sym_numel"}, fast=_mean_all_fast)
def mean_all(self, dtype, *, out):
    _mean_kernel(self, None, False, out)


@fast_path("a float32 / float64 tensor averaged over dims in its own dtype")
def _mean_dim_fast(self, dim, keepdim, dtype):
    """``x.mean(dims)`` as `_sum_dim_fast` sums, then `_mean_kernel`'s division in
    place. None for any other call."""
    summed = _summed(self, dim, keepdim, dtype)
    if summed is None:
        return None
    np.divide(summed[0], summed[1], out=summed[0])
    return wrap_array(summed[0], self._dtype)


@op("mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) "
    "-> Tensor", meta=_mean_meta, method=True, out=True, out_overload="out",
    grad={"self": "mean_backward(grad, self_sym_sizes, dim, self_sym_numel, keepdim)"},
    fast=_mean_dim_fast)
def mean_dim(self, dim, keepdim, dtype, *, out):
    _mean_kernel(self, dim, keepdim, out)


mean_all.declaration.doc = mean_dim.declaration.doc = _MEAN_DOC


def _nanmean_meta(self, dim=None, keepdim=False, dtype=None, out=None):
    if not (self._dtype.is_floating_point or self._dtype.is_complex):
        raise RuntimeError(f"nanmean(): expected input to have floating point or complex "
                           f"dtype but got {scalar_type_name(self._dtype)}")
    _nansum_meta(self, dim, keepdim, dtype, out)
    if given_dtype(dtype, out) is not None and given_dtype(dtype, out).is_complex:
        raise NotImplementedError(f"\"nansum_cpu\" not implemented for "
                                  f"'{scalar_type_name(dtype)}'")
    return _mean_meta(self, dim, keepdim, dtype, out, name="nanmean")


@op("nanmean(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) "
    "-> Tensor", meta=_nanmean_meta, method=True, out=True,
    grad={"self": "nanmean_backward(grad, self, dim, keepdim)"})
def nanmean(self, dim, keepdim, dtype, *, out):
    """The mean of the elements of `input` that are not NaN.

    Args:
        input (Tensor): the values (floating point).
        dim (int or tuple of ints, optional): the dims to reduce (all when omitted).
        keepdim (bool): keep the reduced dims, with size 1.
        dtype (torch.dtype, optional): convert the input to this dtype first.

    Example::

        >>> torch.nanmean(torch.tensor([1., float('nan'), 2.]))
        tensor(1.5000)
    """
    missing = np.isnan(self)
    acc = accumulation(out.dtype)
    total = np.empty(out.shape, acc)
    fold(np.add, self, dim, keepdim, total, skip_nan=True)
    counted = np.add.reduce(~missing, axis=axes(self, dim), dtype=np.int64, keepdims=keepdim)
    _divide(out, total, counted)


# ----------------------------------------------------------------------------------
# prod
# ----------------------------------------------------------------------------------
def _prod_meta(self, dim=None, keepdim=False, dtype=None, out=None):
    check_out_matches(dtype, out)
    return reduction_meta(self, dim, keepdim, _integral_to_long(self, dtype))


def _prod_all_meta(self, dtype=None, out=None):
    return _prod_meta(self, None, False, dtype, out)


@derivative_helper
def prod_backward(grad, self, result, dim, keepdim: bool):
    """The product of the other elements: result / self where self is not zero; where
    a slice holds one zero, the zero gets the product of the rest and the others 0."""
    if self.dim() == 0:
        return grad
    dims = reduced_dims(dim, self.dim())
    grad = restore_reduced_dims(grad, dim, tuple(self.shape), keepdim)
    result = restore_reduced_dims(result, dim, tuple(self.shape), keepdim)
    zero = self == 0
    zeros = zero.sum(dims, keepdim=True)
    nonzero = self.where(~zero, 1)
    others = nonzero.reshape(-1).prod() if dim is None else nonzero.prod(dims[0], keepdim=True)
    plain = grad * (result / nonzero).conj()
    single = (grad * others.conj()).where(zero, 0)
    return plain.where(zeros == 0, single.where(zeros == 1, 0))


_PROD_DOC = """The product of the elements of `input`, over every dim or over `dim`.

    Args:
        input (Tensor): the values.
        dim (int, optional): the dim to reduce (all when omitted).
        keepdim (bool): keep the reduced dim, with size 1.
        dtype (torch.dtype, optional): convert the input to this dtype first; bool and
            integer inputs otherwise multiply in int64.

    Example::

        >>> torch.prod(torch.tensor([[1, 2], [3, 4]]), 1)
        tensor([ 2, 12])
    """


@op("prod(Tensor self, *, ScalarType? dtype=None) -> Tensor", meta=_prod_all_meta,
    method=True, out=True, bind_out=False,
    grad={"self": "prod_backward(grad, self.to(grad.dtype), result, None, False)"})
def prod_all(self, dtype, *, out):
    fold(np.multiply, self, None, False, out)


@op("prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None) "
    "-> Tensor", meta=_prod_meta, method=True, out=True, out_overload="int_out",
    grad={"self": "prod_backward(grad, self.to(grad.dtype), result, dim, keepdim)"})
def prod_dim(self, dim, keepdim, dtype, *, out):
    fold(np.multiply, self, dim, keepdim, out)


prod_all.declaration.doc = prod_dim.declaration.doc = _PROD_DOC


def _expandable(shape: tuple, target: tuple) -> bool:
    """Whether `shape` broadcasts to `target` (torch's ``is_expandable_to``)."""
    if len(shape) > len(target):
        return False
    return all(s == t or s == 1 for s, t in zip(reversed(shape), reversed(target)))


@composite("sum_to_size(Tensor self, SymInt[] size) -> Tensor", method=True, function=False)
def sum_to_size(self, size):
    """Sum this tensor down to `size`, a shape that broadcasts to this tensor's:
    broadcasting's adjoint (the tensor itself when it already has that size).

    Args:
        size (torch.Size or int...): the shape to sum to.

    Example::

        >>> torch.ones(2, 3).sum_to_size(1, 3)
        tensor([[2., 2., 2.]])
    """
    if not _expandable(tuple(size), self._size):
        raise RuntimeError(f"size {{{list(size)}}} is not expandable to size "
                           f"{{{list(self._size)}}}.")
    if not size:                # torch sums everything into a new tensor, even a 0-d one
        return self.sum()
    return sum_to(self, size)
