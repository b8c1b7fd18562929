"""Gradient clipping: scale gradients down to a maximal total norm, or clamp each value.

The total norm is the norm of the vector of per-tensor norms (equal to the norm of all
gradients concatenated), computed with `linalg.vector_norm` in the gradients' dtype, as
torch computes it; the scale ``max_norm / (total_norm + 1e-6)`` is clamped to 1 so that
clipping never enlarges a gradient. Everything runs under ``no_grad``.

``foreach=`` is accepted as torch accepts it. torch's foreach kernels give the same
values as its per-tensor loop on the CPU, so glasstorch always loops; ``foreach=True``
still refuses devices without foreach kernels (meta), with torch's error.
"""
from __future__ import annotations

import types
import warnings
from typing import Iterable, Union

import glasstorch as torch
from ...autograd.grad_mode import no_grad

TensorOrTensors = Union["torch.Tensor", Iterable["torch.Tensor"]]


def _as_list(tensors: TensorOrTensors) -> list:
    return [tensors] if isinstance(tensors, torch.Tensor) else list(tensors)


def _by_device_and_dtype(tensors: list) -> dict:
    """The tensors grouped by (device, dtype), groups in order of first appearance.
    (torch's grouping is a hash map: its order of mixed-dtype groups differs, which
    changes the summation order of the norms only.)"""
    groups: dict = {}
    for tensor in tensors:
        groups.setdefault((tensor.device, tensor.dtype), []).append(tensor)
    return groups


def _check_foreach(foreach: bool | None, device) -> None:
    if foreach and device.type != "cpu":
        raise RuntimeError(f"foreach=True was passed, but can't use the foreach API on "
                           f"{device.type} tensors")


@no_grad()
def get_total_norm(tensors: TensorOrTensors, norm_type: float = 2.0,
                   error_if_nonfinite: bool = False, foreach: bool | None = None):
    """The norm of `tensors` taken together, as if they were concatenated into one vector.

    Args:
        tensors: a tensor or an iterable of tensors (typically gradients)
        norm_type: the order of the norm; ``float('inf')`` for the largest magnitude
        error_if_nonfinite: raise a RuntimeError if the norm is nan or infinite
        foreach: accepted for torch's signature (see the module's docstring)

    Returns:
        a 0-dim tensor on the first tensor's device (``tensor(0.)`` for no tensors)

    Example::

        >>> torch.nn.utils.get_total_norm([torch.tensor([3.0]), torch.tensor([4.0])])
        tensor(5.)
    """
    tensors = _as_list(tensors)
    norm_type = float(norm_type)
    if not tensors:
        return torch.tensor(0.0)
    first_device = tensors[0].device
    norms = []
    for (device, _), group in _by_device_and_dtype(tensors).items():
        _check_foreach(foreach, device)
        norms.extend(torch.linalg.vector_norm(tensor, norm_type) for tensor in group)
    total_norm = torch.linalg.vector_norm(
        torch.stack([norm.to(first_device) for norm in norms]), norm_type)
    if error_if_nonfinite and torch.logical_or(total_norm.isnan(), total_norm.isinf()):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is "
            "non-finite, so it cannot be clipped. To disable this error and scale the "
            "gradients by the non-finite norm anyway, set `error_if_nonfinite=False`")
    return total_norm


@no_grad()
def clip_grads_with_norm_(parameters: TensorOrTensors, max_norm: float, total_norm,
                          foreach: bool | None = None) -> None:
    r"""Scale the parameters' gradients in place by
    :math:`\min(\text{max\_norm} / (\text{total\_norm} + 10^{-6}), 1)`, given their total
    norm (from `get_total_norm`).

    Args:
        parameters: a tensor or an iterable of tensors whose ``.grad`` to scale
        max_norm: the largest total norm to allow
        total_norm: the gradients' total norm, a tensor
        foreach: accepted for torch's signature (see the module's docstring)

    Example::

        >>> grads = [p.grad for p in model.parameters() if p.grad is not None]
        >>> norm = torch.nn.utils.get_total_norm(grads)
        >>> torch.nn.utils.clip_grads_with_norm_(model.parameters(), 1.0, norm)
    """
    grads = [p.grad for p in _as_list(parameters) if p.grad is not None]
    max_norm = float(max_norm)
    if not grads:
        return
    scale = torch.clamp(max_norm / (total_norm + 1e-6), max=1.0)
    for (device, _), group in _by_device_and_dtype(grads).items():
        _check_foreach(foreach, device)
        scale_here = scale.to(device)
        for grad in group:
            grad.mul_(scale_here)


@no_grad()
def clip_grad_norm_(parameters: TensorOrTensors, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False, foreach: bool | None = None):
    """Scale the parameters' gradients in place so that their total norm is at most
    `max_norm`: `get_total_norm` of the gradients, then `clip_grads_with_norm_`.

    Args:
        parameters: a tensor or an iterable of tensors whose ``.grad`` to clip
        max_norm: the largest total norm to allow
        norm_type: the order of the norm; ``float('inf')`` for the largest magnitude
        error_if_nonfinite: raise a RuntimeError if the total norm is nan or infinite
        foreach: accepted for torch's signature (see the module's docstring)

    Returns:
        the gradients' total norm before clipping, a 0-dim tensor

    Example::

        >>> loss.backward()
        >>> torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        >>> optimizer.step()
    """
    was_generator = isinstance(parameters, types.GeneratorType)
    parameters = _as_list(parameters)
    if was_generator and not parameters:
        warnings.warn("`parameters` is an empty generator, no gradient clipping will occur.",
                      stacklevel=3)
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


def clip_grad_norm(parameters: TensorOrTensors, max_norm: float, norm_type: float = 2.0,
                   error_if_nonfinite: bool = False, foreach: bool | None = None):
    """Deprecated: `clip_grad_norm_` under its old name."""
    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
                  "`torch.nn.utils.clip_grad_norm_`.", FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


@no_grad()
def clip_grad_value_(parameters: TensorOrTensors, clip_value: float,
                     foreach: bool | None = None) -> None:
    """Clamp every gradient value of the parameters into ``[-clip_value, clip_value]``,
    in place.

    Args:
        parameters: a tensor or an iterable of tensors whose ``.grad`` to clip
        clip_value: the largest magnitude to allow
        foreach: accepted for torch's signature (see the module's docstring)

    Example::

        >>> torch.nn.utils.clip_grad_value_(model.parameters(), clip_value=0.5)
    """
    clip_value = float(clip_value)
    grads = [p.grad for p in _as_list(parameters) if p.grad is not None]
    for (device, _), group in _by_device_and_dtype(grads).items():
        _check_foreach(foreach, device)
        for grad in group:
            grad.clamp_(min=-clip_value, max=clip_value)
