"""torch.nn.functional's normalizations: layer_norm, rms_norm and normalize.

layer_norm and rms_norm hand over to the operators of `aten/native/nn/normalization.py`
(`torch.layer_norm`, `torch.rms_norm`); normalize is torch's Python composition of a
norm, a clamp and a division.
"""
from __future__ import annotations

import glasstorch as torch

__all__ = ["layer_norm", "rms_norm", "normalize"]


def layer_norm(input: torch.Tensor, normalized_shape: list, weight: torch.Tensor | None = None,
               bias: torch.Tensor | None = None, eps: float = 1e-5) -> torch.Tensor:
    """Layer normalization over the trailing dims `normalized_shape`: each slice over
    them gets zero mean and unit variance, then ``* weight + bias``.

    Args:
        input (Tensor): ``(*, *normalized_shape)``.
        normalized_shape (list of ints): the trailing dims to normalize over.
        weight (Tensor, optional): scale, of shape `normalized_shape`.
        bias (Tensor, optional): shift, of shape `normalized_shape`.
        eps (float): added to the variance for stability. Default: 1e-5.

    Returns:
        Tensor: of `input`'s shape.

    Example::

        >>> F.layer_norm(torch.tensor([[0., 2.]]), (2,))
        tensor([[-1.0000,  1.0000]])
    """
    return torch.layer_norm(input, normalized_shape, weight, bias, eps, False)


def rms_norm(input: torch.Tensor, normalized_shape: list, weight: torch.Tensor | None = None,
             eps: float | None = None) -> torch.Tensor:
    """Root-mean-square normalization over the trailing dims `normalized_shape`:
    ``x / sqrt(mean(x²) + eps) * weight``.

    Args:
        input (Tensor): ``(*, *normalized_shape)``.
        normalized_shape (list of ints): the trailing dims to normalize over.
        weight (Tensor, optional): scale, of shape `normalized_shape`.
        eps (float, optional): added to the mean square; the machine epsilon of the
            computation dtype when None.

    Returns:
        Tensor: of `input`'s shape and dtype.

    Example::

        >>> F.rms_norm(torch.tensor([[3., 4.]]), (2,), eps=0.0)
        tensor([[0.8485, 1.1314]])
    """
    return torch.rms_norm(input, normalized_shape, weight, eps)


def normalize(input: torch.Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12,
              out: torch.Tensor | None = None) -> torch.Tensor:
    """Divide each vector along `dim` by its `p`-norm (at least `eps`):
    ``v / max(‖v‖_p, eps)``.

    Args:
        input (Tensor): any shape.
        p (float): the norm's exponent. Default: 2.
        dim (int or tuple of ints): the dims the vectors lie along. Default: 1.
        eps (float): the smallest divisor. Default: 1e-12.
        out (Tensor, optional): written with the result (not differentiable then).

    Returns:
        Tensor: of `input`'s shape.

    Example::

        >>> F.normalize(torch.tensor([[3., 4.]]))
        tensor([[0.6000, 0.8000]])
    """
    if out is None:
        denominator = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
        return input / denominator
    denominator = input.norm(p, dim, keepdim=True).clamp_min_(eps).expand_as(input)
    return torch.div(input, denominator, out=out)
