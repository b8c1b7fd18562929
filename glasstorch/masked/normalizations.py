"""The masked scans and normalizations: cumsum, cumprod, softmax, log_softmax, softmin,
normalize, and the binary logaddexp (Note [Masked by identity] in `masking.py`).

Masked-out elements count as the identity of the operation (0 in a cumulative sum,
-inf in a softmax, ...); their own results are what the operation makes of it (the
running sum so far, a softmax weight of 0).
"""
from __future__ import annotations

import glasstorch as torch

from .masking import accepts_masked_tensor, canonical_dims, masked_input
from .reductions import norm


@accepts_masked_tensor
def cumsum(input: torch.Tensor, dim: int, *, dtype=None,
           mask: torch.Tensor | None = None) -> torch.Tensor:
    """The running sum of the selected elements along `dim`.

    Args:
        input (Tensor): the input.
        dim (int): the dim to scan.

    Keyword args:
        dtype (torch.dtype, optional): the result's dtype (the input's by default).
        mask (Tensor, optional): True for the elements taking part (broadcastable).

    Example::

        >>> torch.masked.cumsum(torch.tensor([1., 2., 3.]), 0,
        ...                     mask=torch.tensor([True, False, True]))
        tensor([1., 1., 4.])
    """
    dtype = input.dtype if dtype is None else dtype
    single = canonical_dims(dim, input.ndim)[0]
    return torch.cumsum(masked_input("cumsum", input, mask), single, dtype=dtype).to(dtype=dtype)


@accepts_masked_tensor
def cumprod(input: torch.Tensor, dim: int, *, dtype=None,
            mask: torch.Tensor | None = None) -> torch.Tensor:
    """The running product of the selected elements along `dim` (see `cumsum`).

    Example::

        >>> torch.masked.cumprod(torch.tensor([2., 3., 4.]), 0,
        ...                      mask=torch.tensor([True, False, True]))
        tensor([2., 2., 8.])
    """
    dtype = input.dtype if dtype is None else dtype
    single = canonical_dims(dim, input.ndim)[0]
    return torch.cumprod(masked_input("cumprod", input, mask), single,
                         dtype=dtype).to(dtype=dtype)


def _softmax_of(function, identity_of: str, input, dim, dtype, mask):
    dtype = input.dtype if dtype is None else dtype
    single = canonical_dims(dim, input.ndim)[0]
    return function(masked_input(identity_of, input, mask), single, dtype=dtype)


@accepts_masked_tensor
def softmax(input: torch.Tensor, dim: int, *, dtype=None,
            mask: torch.Tensor | None = None) -> torch.Tensor:
    """The softmax along `dim` over the selected elements: masked-out ones get weight 0
    (a row with none selected gives NaN).

    Args:
        input (Tensor): the input.
        dim (int): the dim along which the weights sum to 1.

    Keyword args:
        dtype (torch.dtype, optional): the dtype to compute and return in.
        mask (Tensor, optional): True for the elements taking part (broadcastable).

    Example::

        >>> torch.masked.softmax(torch.tensor([1., 2., 3.]), 0,
        ...                      mask=torch.tensor([True, False, True]))
        tensor([0.1192, 0.0000, 0.8808])
    """
    return _softmax_of(torch.nn.functional.softmax, "amax", input, dim, dtype, mask)


@accepts_masked_tensor
def log_softmax(input: torch.Tensor, dim: int, *, dtype=None,
                mask: torch.Tensor | None = None) -> torch.Tensor:
    """The logarithm of `softmax` (-inf for masked-out elements).

    Example::

        >>> torch.masked.log_softmax(torch.tensor([1., 2., 3.]), 0,
        ...                          mask=torch.tensor([True, False, True]))
        tensor([-2.1269,    -inf, -0.1269])
    """
    return _softmax_of(torch.nn.functional.log_softmax, "amax", input, dim, dtype, mask)


@accepts_masked_tensor
def softmin(input: torch.Tensor, dim: int, *, dtype=None,
            mask: torch.Tensor | None = None) -> torch.Tensor:
    """The softmax of ``-input`` along `dim` over the selected elements (see `softmax`).

    Example::

        >>> torch.masked.softmin(torch.tensor([1., 2., 3.]), 0,
        ...                      mask=torch.tensor([True, False, True]))
        tensor([0.8808, 0.0000, 0.1192])
    """
    return _softmax_of(torch.nn.functional.softmin, "amin", input, dim, dtype, mask)


@accepts_masked_tensor
def normalize(input: torch.Tensor, ord: float, dim: int, *, eps: float = 1e-12, dtype=None,
              mask: torch.Tensor | None = None) -> torch.Tensor:
    """The selected elements divided by their `ord`-norm along `dim` (at least `eps`);
    masked-out elements give 0.

    Args:
        input (Tensor): the input.
        ord (float): the order of the norm.
        dim (int): the dim along which the norm is taken.

    Keyword args:
        eps (float): the smallest divisor.
        dtype (torch.dtype, optional): the dtype of the norm.
        mask (Tensor, optional): True for the elements taking part (broadcastable).

    Example::

        >>> torch.masked.normalize(torch.tensor([3., 5., 4.]), 2.0, 0,
        ...                        mask=torch.tensor([True, False, True]))
        tensor([0.6000, 0.0000, 0.8000])
    """
    dtype = input.dtype if dtype is None else dtype
    single = canonical_dims(dim, input.ndim)[0]
    denominator = norm(input, ord, single, keepdim=True, dtype=dtype, mask=mask)
    denominator = torch.maximum(denominator, denominator.new_full([], eps))
    return torch.divide(masked_input("sum", input, mask), denominator)


def logaddexp(input: torch.Tensor, other: torch.Tensor, *, dtype=None,
              input_mask: torch.Tensor | None = None,
              other_mask: torch.Tensor | None = None) -> torch.Tensor:
    """``log(exp(input) + exp(other))``, each operand's masked-out elements counting as
    -inf (so the other operand's element is the result).

    Args:
        input (Tensor): the first operand.
        other (Tensor): the second operand.

    Keyword args:
        dtype (torch.dtype, optional): the result's dtype (the input's by default).
        input_mask (Tensor, optional): True for the elements of `input` taking part.
        other_mask (Tensor, optional): True for the elements of `other` taking part.

    Example::

        >>> torch.masked.logaddexp(torch.tensor([0., 1.]), torch.tensor([0., 2.]),
        ...                        input_mask=torch.tensor([True, False]))
        tensor([0.6931, 2.0000])
    """
    dtype = input.dtype if dtype is None else dtype
    return torch.logaddexp(masked_input("logaddexp", input, input_mask),
                           masked_input("logaddexp", other, other_mask)).to(dtype=dtype)
