"""torch.nn.functional.embedding_bag: sums, means or maxima of bags of embeddings.

torch's Python checks of the arguments, then the aten operator `embedding_bag` (its
bags, results and gradients: aten/native/nn/embedding_bag.py).
"""
from __future__ import annotations

import warnings

import glasstorch as torch

__all__ = ["embedding_bag"]

_MODES = ("sum", "mean", "max")


def _type_name(value) -> str:
    """A type as torch's message prints it (glasstorch's Tensor is torch.Tensor)."""
    return "<class 'torch.Tensor'>" if isinstance(value, torch.Tensor) else str(type(value))


def _bags(input: torch.Tensor, offsets, per_sample_weights):
    """The flat indices, the offsets, and the flat weights, with torch's checks of the
    two input layouts (2-D: one bag per row)."""
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError(f"if input is 2D, then offsets has to be None, as input is "
                             f"treated is a mini-batch of fixed length sequences. However, "
                             f"found offsets of type {_type_name(offsets)}")
        offsets = torch.arange(0, input.numel(), input.size(1), dtype=input.dtype,
                               device=input.device)
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension "
                         f"{input.dim()}")
    return input, offsets, per_sample_weights


def _mode_number(mode: str, scale_grad_by_freq: bool, sparse: bool) -> int:
    """The aten operator's mode: 0 sum, 1 mean, 2 max (max refuses frequency scaling and
    sparse gradients)."""
    if mode not in _MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max" and scale_grad_by_freq:
        raise ValueError("max mode does not support scaling the gradient by the frequency")
    if mode == "max" and sparse:
        raise ValueError("max mode does not support sparse weights")
    return _MODES.index(mode)


def embedding_bag(input: torch.Tensor, weight: torch.Tensor, offsets: torch.Tensor | None = None,
                  max_norm: float | None = None, norm_type: float = 2,
                  scale_grad_by_freq: bool = False, mode: str = "mean", sparse: bool = False,
                  per_sample_weights: torch.Tensor | None = None,
                  include_last_offset: bool = False,
                  padding_idx: int | None = None) -> torch.Tensor:
    """Reduce bags of embedding rows: bag ``b`` holds ``input[offsets[b]:offsets[b+1]]``
    (2-D input: one bag per row), and its result is the sum, mean or maximum of those
    rows of `weight`.

    Args:
        input (Tensor): indices, 1-D with `offsets` or 2-D (B, N).
        weight (Tensor): the table, ``(num_embeddings, embedding_dim)``.
        offsets (Tensor, optional): where each bag starts (1-D input only).
        max_norm (float, optional): rows with a larger norm are renormalized in place.
        norm_type (float): the norm for `max_norm`. Default: 2.
        scale_grad_by_freq (bool): divide each row's gradient by its index's frequency
            in the input (as torch's CPU kernel counts it).
        mode (str): ``'sum'``, ``'mean'`` or ``'max'``. Default: ``'mean'``.
        sparse (bool): sparse gradients (glasstorch has none: backward refuses).
        per_sample_weights (Tensor, optional): a weight per index (mode ``'sum'``).
        include_last_offset (bool): the last offset ends the last bag.
        padding_idx (int, optional): entries equal to it are left out of their bag.

    Returns:
        Tensor: ``(B, embedding_dim)``.

    Example::

        >>> weight = torch.tensor([[1., 2.], [3., 4.], [5., 6.]])
        >>> F.embedding_bag(torch.tensor([0, 1, 2]), weight, torch.tensor([0, 2]), mode="sum")
        tensor([[4., 6.],
                [5., 6.]])
    """
    if weight.dtype == torch.long and input.is_floating_point():
        warnings.warn("Argument order of nn.functional.embedding_bag was changed. Usage "
                      "`embedding_bag(weight, input, ...)` is deprecated, and should now be "
                      "`embedding_bag(input, weight, ...)`.", stacklevel=2)
        weight, input = input, weight
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) "
                         f"is not None, then it must have the same shape as the input "
                         f"({input.shape})")
    if weight.dim() != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension "
                         f"{weight.dim()}")
    if input.dim() == 2:
        include_last_offset = False           # one bag per row: no offset closes the last
    input, offsets, per_sample_weights = _bags(input, offsets, per_sample_weights)
    mode_number = _mode_number(mode, scale_grad_by_freq, sparse)
    if max_norm is not None:
        with torch.no_grad():
            torch.embedding_renorm_(weight, input, max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. "
                                  f"per_sample_weights is only supported for mode='sum' "
                                  f"(got mode='{mode}'). Please open a feature request on "
                                  f"GitHub.")
    return torch.embedding_bag(weight, input, offsets, scale_grad_by_freq, mode_number, sparse,
                               per_sample_weights, include_last_offset, padding_idx)[0]
