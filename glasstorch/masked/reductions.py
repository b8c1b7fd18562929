"""The masked reductions: sum, prod, amax, amin, argmax, argmin, mean, median, norm, var,
std and logsumexp (Note [Masked by identity] in `masking.py`).

Keyword args shared by all of them:
    keepdim (bool): keep the reduced dims, with size 1.
    dtype (torch.dtype, optional): the result's dtype (the input's, by default; int64
        for the sums and products of integers).
    mask (Tensor, optional): True for the elements taking part, broadcastable to the
        input; None takes them all.
"""
from __future__ import annotations

import glasstorch as torch

from .masking import accepts_masked_tensor, canonical_dims, input_mask, masked_input, sum_dtype


@accepts_masked_tensor
def sum(input: torch.Tensor, dim=None, *, keepdim: bool = False, dtype=None,
        mask: torch.Tensor | None = None) -> torch.Tensor:
    """The sum of the selected elements over `dim` (every dim when None); 0 where none is
    selected.

    Example::

        >>> x = torch.tensor([[1., 2.], [3., 4.]])
        >>> torch.masked.sum(x, 1, mask=torch.tensor([[True, False], [False, False]]))
        tensor([1., 0.])
    """
    dtype = sum_dtype(input, dtype)
    dims = canonical_dims(dim, input.ndim)
    return torch.sum(masked_input("sum", input, mask), dims, bool(keepdim), dtype=dtype)


@accepts_masked_tensor
def prod(input: torch.Tensor, dim=None, *, keepdim: bool = False, dtype=None,
         mask: torch.Tensor | None = None) -> torch.Tensor:
    """The product of the selected elements over `dim`; 1 where none is selected.

    Example::

        >>> x = torch.tensor([[1., 2.], [3., 4.]])
        >>> torch.masked.prod(x, 0, mask=torch.tensor([[True, False], [True, False]]))
        tensor([3., 1.])
    """
    result = masked_input("prod", input, mask).to(dtype=sum_dtype(input, dtype))
    for d in reversed(canonical_dims(dim, input.ndim)):    # one dim at a time, as torch
        result = result.prod(dim=d, keepdim=bool(keepdim))
    return result


def _extremum(op, name: str, input, dim, keepdim, dtype, mask):
    dims = canonical_dims(dim, input.ndim)
    result = op(masked_input(name, input, mask), dims, bool(keepdim))
    return result.to(dtype=input.dtype if dtype is None else dtype)


@accepts_masked_tensor
def amax(input: torch.Tensor, dim=None, *, keepdim: bool = False, dtype=None,
         mask: torch.Tensor | None = None) -> torch.Tensor:
    """The largest selected element over `dim`; the dtype's lowest value (-inf for
    floats) where none is selected.

    Example::

        >>> x = torch.tensor([[1., 5.], [3., 4.]])
        >>> torch.masked.amax(x, 1, mask=torch.tensor([[True, False], [True, True]]))
        tensor([1., 4.])
    """
    return _extremum(torch.amax, "amax", input, dim, keepdim, dtype, mask)


@accepts_masked_tensor
def amin(input: torch.Tensor, dim=None, *, keepdim: bool = False, dtype=None,
         mask: torch.Tensor | None = None) -> torch.Tensor:
    """The smallest selected element over `dim`; the dtype's highest value (inf for
    floats) where none is selected.

    Example::

        >>> x = torch.tensor([[1., 5.], [3., 4.]])
        >>> torch.masked.amin(x, 1, mask=torch.tensor([[False, True], [True, True]]))
        tensor([5., 3.])
    """
    return _extremum(torch.amin, "amin", input, dim, keepdim, dtype, mask)


def _arg_extremum(op, name: str, input, dim, keepdim, dtype, mask):
    result = op(masked_input(name, input, mask), dim, bool(keepdim))
    return result.to(dtype=input.dtype if dtype is None else dtype)     # torch's dtype rule


@accepts_masked_tensor
def argmax(input: torch.Tensor, dim: int | None = None, *, keepdim: bool = False,
           dtype=None, mask: torch.Tensor | None = None) -> torch.Tensor:
    """The index of the largest selected element along `dim` (of the flattened input when
    None), in the input's dtype unless `dtype` says otherwise.

    Example::

        >>> x = torch.tensor([[1., 5.], [3., 4.]])
        >>> torch.masked.argmax(x, 1, mask=torch.tensor([[True, False], [True, True]]))
        tensor([0., 1.])
    """
    return _arg_extremum(torch.argmax, "argmax", input, dim, keepdim, dtype, mask)


@accepts_masked_tensor
def argmin(input: torch.Tensor, dim: int | None = None, *, keepdim: bool = False,
           dtype=None, mask: torch.Tensor | None = None) -> torch.Tensor:
    """The index of the smallest selected element along `dim` (see `argmax`).

    Example::

        >>> x = torch.tensor([[1., 5.], [3., 4.]])
        >>> torch.masked.argmin(x, 1, mask=torch.tensor([[False, True], [True, True]]))
        tensor([1., 0.])
    """
    return _arg_extremum(torch.argmin, "argmin", input, dim, keepdim, dtype, mask)


def _count(input, dim, keepdim: bool, mask):
    """How many elements each reduction selects (int64)."""
    if mask is None:
        return sum(torch.ones(input.shape, dtype=torch.int64), dim, keepdim=keepdim)
    return input_mask(input, mask).sum(dim=dim, keepdim=keepdim)


@accepts_masked_tensor
def mean(input: torch.Tensor, dim=None, *, keepdim: bool = False, dtype=None,
         mask: torch.Tensor | None = None) -> torch.Tensor:
    """The mean of the selected elements over `dim`; NaN where none is selected.

    Raises:
        ValueError: for an integer or bool result dtype.

    Example::

        >>> x = torch.tensor([[1., 2.], [3., 4.]])
        >>> torch.masked.mean(x, 1, mask=torch.tensor([[True, True], [False, True]]))
        tensor([1.5000, 4.0000])
    """
    source = "Input" if dtype is None else "Optional"
    dtype = input.dtype if dtype is None else dtype
    if not (dtype.is_floating_point or dtype.is_complex):
        raise ValueError(f"mean(): Could not infer output dtype. {source} dtype must be "
                         f"either a floating point or complex dtype. Got: {dtype}")
    total = sum(input, dim, keepdim=keepdim, dtype=dtype, mask=mask)
    return total / _count(input, dim, bool(keepdim), mask)


@accepts_masked_tensor
def median(input: torch.Tensor, dim: int = -1, *, keepdim: bool = False, dtype=None,
           mask: torch.Tensor | None = None) -> torch.Tensor:
    """The median of the selected elements along `dim` (the lower of the two middle ones
    for an even count); NaN where none is selected.

    Raises:
        ValueError: a row with no selected element, for an integer input.

    Example::

        >>> x = torch.tensor([[1., 9., 3.], [4., 5., 6.]])
        >>> torch.masked.median(x, 1, mask=torch.tensor([[True, False, True], [True] * 3]))
        tensor([1., 5.])
    """
    dtype = input.dtype if dtype is None else dtype
    single = canonical_dims(dim, input.ndim)[0]
    floating = input.dtype.is_floating_point
    values = input if floating else input.to(dtype=torch.float)
    values = masked_input("median", values, mask)
    result = torch.nanmedian(values, single, bool(keepdim)).values
    if floating:
        return result
    if torch.isnan(result).any():
        raise ValueError("masked median expects no fully masked out rows if dtype is not "
                         "floating point")
    return result.to(dtype=dtype)


@accepts_masked_tensor
def norm(input: torch.Tensor, ord: float | None = 2.0, dim=None, *, keepdim: bool = False,
         dtype=None, mask: torch.Tensor | None = None) -> torch.Tensor:
    """The vector `ord`-norm of the selected elements over `dim` (as
    `torch.linalg.vector_norm`); 0 where none is selected (inf for ``ord=-inf``).

    Example::

        >>> x = torch.tensor([[3., 4.], [6., 8.]])
        >>> torch.masked.norm(x, 2.0, 1, mask=torch.tensor([[True, True], [False, True]]))
        tensor([5., 8.])
    """
    dtype = input.dtype if dtype is None else dtype
    values = masked_input("norm", input, mask, ord)
    return torch.linalg.vector_norm(values, ord, canonical_dims(dim, input.ndim),
                                    bool(keepdim), dtype=dtype)


def _std_var(input, dim, unbiased, correction, keepdim, dtype, mask, take_sqrt: bool):
    """The masked variance (its square root when `take_sqrt`): the selected elements'
    squared deviations from their mean, summed, over ``count - correction`` (at least 0)."""
    if unbiased is not None and correction is not None:
        raise AssertionError("Only one of unbiased and correction may be given")
    correction = float(correction) if correction is not None \
        else 1.0 if unbiased is None else float(bool(unbiased))
    if dtype is None:
        dtype = input.dtype if input.dtype.is_floating_point or input.dtype.is_complex \
            else torch.float32
    compute = dtype if dtype.is_floating_point or dtype.is_complex else torch.float32
    count = _count(input, dim, True, mask)
    deviation = input - sum(input, dim, keepdim=True, dtype=dtype, mask=mask) / count
    total = sum(deviation * deviation.conj(), dim, keepdim=keepdim, dtype=compute,
                mask=mask)
    if not keepdim:
        count = count.reshape(total.shape)
    if correction != 0:
        real = torch.empty((), dtype=compute).real.dtype if compute.is_complex else compute
        count = torch.clamp_min(count.to(real) - correction, 0)
    result = (total / count).to(dtype=dtype)
    return result.sqrt() if take_sqrt else result


@accepts_masked_tensor
def var(input: torch.Tensor, dim=None, unbiased: bool | None = None, *, correction=None,
        keepdim: bool = False, dtype=None, mask: torch.Tensor | None = None) -> torch.Tensor:
    """The variance of the selected elements over `dim`, with Bessel's `correction` (1
    unless `unbiased` is False or `correction` says otherwise).

    Example::

        >>> x = torch.tensor([[1., 2., 3.], [4., 4., 10.]])
        >>> torch.masked.var(x, 1, mask=torch.tensor([[True] * 3, [True, True, False]]))
        tensor([1., 0.])
    """
    return _std_var(input, dim, unbiased, correction, keepdim, dtype, mask, False)


@accepts_masked_tensor
def std(input: torch.Tensor, dim=None, unbiased: bool | None = None, *, correction=None,
        keepdim: bool = False, dtype=None, mask: torch.Tensor | None = None) -> torch.Tensor:
    """The standard deviation of the selected elements over `dim` (the square root of
    `var`).

    Example::

        >>> x = torch.tensor([[1., 2., 3.], [4., 4., 10.]])
        >>> torch.masked.std(x, 1, mask=torch.tensor([[True] * 3, [True, True, False]]))
        tensor([1., 0.])
    """
    return _std_var(input, dim, unbiased, correction, keepdim, dtype, mask, True)


@accepts_masked_tensor
def logsumexp(input: torch.Tensor, dim=None, *, keepdim: bool = False, dtype=None,
              mask: torch.Tensor | None = None) -> torch.Tensor:
    """``log(sum(exp(x)))`` over the selected elements along `dim`; -inf where none is
    selected.

    Example::

        >>> x = torch.tensor([[0., 0.], [1., 5.]])
        >>> torch.masked.logsumexp(x, 1, mask=torch.tensor([[True, True], [True, False]]))
        tensor([0.6931, 1.0000])
    """
    dims = canonical_dims(dim, input.ndim)
    values = masked_input("logsumexp", input, mask)
    result = torch.logsumexp(values, dims, keepdim=bool(keepdim))
    return result.to(dtype=input.dtype if dtype is None else dtype)
