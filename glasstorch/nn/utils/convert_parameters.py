"""A model's parameters as one flat vector and back, for optimisers and analyses that
want a single vector (second-order methods, parameter averaging).

torch also checks that all parameters sit on one accelerator; glasstorch's devices (cpu
and meta) are the ones torch's check lets through, so there is nothing to check here.
"""
from __future__ import annotations

from typing import Iterable

import glasstorch as torch


def parameters_to_vector(parameters: Iterable) -> "torch.Tensor":
    """The parameters flattened and concatenated into one 1-D tensor (a copy).

    Args:
        parameters: an iterable of tensors, e.g. ``model.parameters()``

    Returns:
        a 1-D tensor of all their values, in order

    Example::

        >>> vec = torch.nn.utils.parameters_to_vector(model.parameters())
    """
    return torch.cat([parameter.view(-1) for parameter in parameters])


def vector_to_parameters(vec, parameters: Iterable) -> None:
    """Give each parameter, in order, the next slice of `vec` as its data (a view of
    `vec`, shaped as the parameter: the inverse of `parameters_to_vector`).

    Args:
        vec: a 1-D tensor holding at least as many values as the parameters
        parameters: an iterable of tensors, e.g. ``model.parameters()``

    Example::

        >>> torch.nn.utils.vector_to_parameters(vec * 0.5, model.parameters())
    """
    if not isinstance(vec, torch.Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {_typename(vec)}")
    start = 0
    for parameter in parameters:
        count = parameter.numel()
        parameter.data = vec[start:start + count].view_as(parameter).data
        start += count


def _typename(obj) -> str:
    """A non-tensor's type as torch.typename names it: builtins bare, others qualified."""
    kind = type(obj)
    if kind.__module__ in ("", "builtins"):
        return kind.__qualname__
    return f"{kind.__module__}.{kind.__qualname__}"
