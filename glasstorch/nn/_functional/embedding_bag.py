"""torch.nn.functional.embedding_bag: sums, means or maxima of bags of embeddings.

Written in operators (gradients come from them): each index's bag is found from the
offsets (`bucketize`), its row is gathered (`index_select`), weighted, and the rows are
reduced per bag with `index_add` (sum, mean) or `scatter_reduce` (max). Entries equal to
`padding_idx` take no part; an empty bag is zeros.
"""
from __future__ import annotations

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


def _check(input, weight, offsets, mode, per_sample_weights) -> None:
    if mode not in _MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. "
                                  f"per_sample_weights is only supported for mode='sum' "
                                  f"(got mode='{mode}'). Please open a feature request on "
                                  f"GitHub.")
    if per_sample_weights is not None and per_sample_weights.shape != input.shape:
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) "
                         f"is not None, then it must have the same shape as the input "
                         f"({input.shape})")
    if input.dtype not in (torch.long, torch.int):
        raise RuntimeError(f"Expected tensor for argument #1 'indices' to have one of the "
                           f"following scalar types: Long, Int; but got {input.type()} "
                           f"instead (while checking arguments for embedding_bag)")
    if offsets.numel() and int(offsets[0]) != 0:
        # torch's message prints the element as a C++ 0-d tensor
        kind = "Long" if offsets.dtype == torch.long else "Int"
        raise RuntimeError(f"offsets[0] has to be 0, i.e., the first sequence in the "
                           f"mini-batch has to start from position 0. However, got "
                           f"{int(offsets[0])}\n[ torch.{kind}Tensor{{}} ]")
    rows = weight.size(0)
    for position, index in enumerate(input.tolist()):
        if not 0 <= index < rows:
            raise RuntimeError(f"Index {position} of input takes value {index} which is not "
                               f"in the valid range [0, {rows})")


def _frequency_scaling(input: torch.Tensor, looked_up: torch.Tensor, rows: int):
    """A gradient hook dividing each looked-up row's gradient by how often its index
    occurs in the whole input (`scale_grad_by_freq`)."""
    counts = torch.bincount(input, minlength=rows)[looked_up].unsqueeze(1)
    return lambda grad: grad / counts.to(grad.dtype)      # in the gradient's precision


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
            in the input.
        mode (str): ``'sum'``, ``'mean'`` or ``'max'``. Default: ``'mean'``.
        sparse (bool): accepted; gradients are dense.
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
    input, offsets, per_sample_weights = _bags(input, offsets, per_sample_weights)
    _check(input, weight, offsets, mode, per_sample_weights)
    if max_norm is not None:
        with torch.no_grad():
            torch.embedding_renorm_(weight, input, max_norm, norm_type)
    if padding_idx is not None and padding_idx < 0:
        padding_idx += weight.size(0)
    bags = offsets.numel() - 1 if include_last_offset else offsets.numel()
    starts = offsets[1:bags] if bags > 0 else offsets[:0]
    bag = torch.bucketize(torch.arange(input.numel(), device=input.device), starts, right=True)
    counted = torch.ones_like(input, dtype=torch.bool) if padding_idx is None \
        else input != padding_idx
    kept = counted
    if include_last_offset and offsets.numel():
        # entries past the last offset are summed nowhere, yet torch's mean counts them
        # in the last bag's size
        kept = counted & (torch.arange(input.numel(), device=input.device) < offsets[-1])
    sizes = bag[counted]
    bag, rows = bag[kept], weight.index_select(0, input[kept])
    if scale_grad_by_freq and rows.requires_grad:
        rows.register_hook(_frequency_scaling(input, input[kept], weight.size(0)))
    if per_sample_weights is not None:
        rows = rows * per_sample_weights[kept].unsqueeze(1)
    zeros = weight.new_zeros(max(bags, 0), weight.size(1))
    if mode == "max":
        return zeros.scatter_reduce(0, bag.unsqueeze(1).expand_as(rows), rows, "amax",
                                    include_self=False)
    total = zeros.index_add(0, bag, rows)
    if mode == "sum":
        return total
    counts = torch.zeros(max(bags, 0), dtype=weight.dtype, device=weight.device)
    counts = counts.index_add(0, sizes, torch.ones_like(sizes, dtype=weight.dtype))
    return total / counts.clamp_min(1).unsqueeze(1)
