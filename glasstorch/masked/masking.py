"""What every masked operation shares: the canonical mask, the canonical dims, and the
identity that stands in for masked-out elements.

Note [Masked by identity]
    A masked reduction over strided tensors is the plain reduction of the input with
    every masked-out element replaced by the reduction's identity: the value that
    changes no result (0 for a sum, 1 for a product, -inf for a maximum, +inf for a
    minimum, NaN for nanmedian). A fully masked-out row therefore gives the identity
    itself (``amax`` gives -inf, ``sum`` 0), or what the operation makes of it
    (``softmax`` NaN), as torch's do. Operations with no identity (mean, var, std)
    divide masked sums by the count of selected elements.
"""
from __future__ import annotations

import functools

import glasstorch as torch

from .maskedtensor.core import is_masked_tensor


def canonical_dims(dim, ndim: int) -> tuple:
    """`dim` (None, ``()``, an int or a sequence) as a sorted tuple of non-negative dims;
    None and ``()`` mean every dim.

    Raises:
        RuntimeError: a dim given twice.
        IndexError: a dim out of range.
    """
    if dim is None or dim == ():
        return tuple(range(ndim))
    ndim = max(ndim, 1)
    found: list = []
    for d in (dim,) if isinstance(dim, int) else dim:
        if d in found:
            raise RuntimeError(f"dim={d} appears multiple times in the list of dims")
        if d >= ndim or d < -ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of "
                             f"[{-ndim}, {ndim - 1}], but got {d})")
        found.append(d % ndim)
    return tuple(sorted(found))


def input_mask(input: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """`mask` as a bool tensor of `input`'s shape (broadcast, converted).

    Raises:
        IndexError: a mask of more dims than the input.
    """
    if mask.shape != input.shape:
        if mask.ndim > input.ndim:
            raise IndexError("_input_mask expected broadcastable mask (got mask "
                             "dimensionality higher than of the input)")
        mask = torch.broadcast_to(mask.clone(), input.shape)
    return mask.to(dtype=torch.bool)


def identity(op_name: str, input: torch.Tensor, ord=2) -> torch.Tensor:
    """The 0-dim tensor (of `input`'s dtype) that `op_name` ignores (Note [Masked by
    identity]); `ord` is the norm's order."""
    dtype = input.dtype
    if op_name in ("sum", "cumsum") or op_name == "norm" and ord != float("-inf"):
        value = 0
    elif op_name in ("prod", "cumprod"):
        value = 1
    elif op_name in ("amax", "argmax", "logaddexp", "logsumexp"):
        value = -torch.inf if dtype.is_floating_point or dtype.is_complex \
            else torch.iinfo(dtype).min
    elif op_name in ("amin", "argmin", "norm"):
        value = torch.inf if dtype.is_floating_point else torch.iinfo(dtype).max
    elif op_name == "median":
        return torch.tensor(torch.nan, dtype=dtype if dtype.is_floating_point else torch.float)
    else:
        raise NotImplementedError(f"identity of {op_name} on {dtype} input")
    return torch.tensor(value, dtype=dtype)


def masked_input(op_name: str, input: torch.Tensor, mask, ord=2) -> torch.Tensor:
    """`input` with its masked-out elements replaced by `op_name`'s identity (itself
    when there is no mask)."""
    if mask is None:
        return input
    return torch.where(input_mask(input, mask), input, identity(op_name, input, ord))


def sum_dtype(input: torch.Tensor, dtype):
    """The result dtype of a masked sum or product: int64 for bool and integers narrower
    than it, as torch.sum's, unless `dtype` is given."""
    if dtype is not None:
        return dtype
    if input.dtype in (torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32):
        return torch.int64
    return input.dtype


def accepts_masked_tensor(function):
    """Let the masked operation `function` take a MaskedTensor, as torch's do: its data is
    the input and its own mask the mask (the `mask` given is not read), and the result is
    a strided tensor."""
    @functools.wraps(function)
    def on_masked_tensor(input, *args, **kwargs):
        if is_masked_tensor(input):
            kwargs["mask"] = input.get_mask()
            input = input.get_data()
        return function(input, *args, **kwargs)
    return on_masked_tensor
