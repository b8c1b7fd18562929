"""Normalization layers over the trailing dims: LayerNorm and RMSNorm.

Both keep an optional elementwise scale (`weight`, initialised to ones; LayerNorm also a
shift, `bias`, initialised to zeros) of shape `normalized_shape`, and call
`F.layer_norm` / `F.rms_norm`.
"""
from __future__ import annotations

import numbers

import glasstorch as torch
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["LayerNorm", "RMSNorm"]


def _as_shape(normalized_shape) -> tuple:
    """An int means one trailing dim of that size."""
    if isinstance(normalized_shape, numbers.Integral):
        return (normalized_shape,)
    return tuple(normalized_shape)


class LayerNorm(Module):
    r"""Layer normalization: each slice over the last ``len(normalized_shape)`` dims is
    shifted to zero mean and scaled to unit variance (biased, plus `eps`), then
    multiplied by `weight` and shifted by `bias`:
    :math:`y = \frac{x - \mathrm{E}[x]}{\sqrt{\mathrm{Var}[x] + \epsilon}} \gamma + \beta`.

    Args:
        normalized_shape (int or list or torch.Size): the trailing dims to normalize over.
        eps: added to the variance for stability. Default: 1e-5
        elementwise_affine: learn `weight` (and `bias`). Default: ``True``
        bias: learn the shift too (only with `elementwise_affine`). Default: ``True``
        device: the device of the parameters
        dtype: the dtype of the parameters

    Shape:
        - Input: :math:`(N, *)`
        - Output: :math:`(N, *)`, the input's shape

    Example::

        >>> m = nn.LayerNorm(10)
        >>> m(torch.randn(20, 5, 10)).shape
        torch.Size([20, 5, 10])
    """

    def __init__(self, normalized_shape, eps: float = 1e-5, elementwise_affine: bool = True,
                 bias: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        self.normalized_shape = _as_shape(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(torch.empty(self.normalized_shape, device=device,
                                                dtype=dtype))
            if bias:
                self.bias = Parameter(torch.empty(self.normalized_shape, device=device,
                                                  dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Scale of ones, shift of zeros: the identity affine map."""
        if self.elementwise_affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, elementwise_affine="
                f"{self.elementwise_affine}, bias={self.bias is not None}")


class RMSNorm(Module):
    r"""Root-mean-square normalization: each slice over the last
    ``len(normalized_shape)`` dims is divided by its root mean square (no centering),
    then multiplied by `weight`:
    :math:`y = \frac{x}{\sqrt{\mathrm{mean}(x^2) + \epsilon}} \gamma`.

    Args:
        normalized_shape (int or list or torch.Size): the trailing dims to normalize over.
        eps: added to the mean square; ``None`` uses the machine epsilon of the
            computation dtype. Default: ``None``
        elementwise_affine: learn `weight`. Default: ``True``
        device: the device of the parameters
        dtype: the dtype of the parameters

    Shape:
        - Input: :math:`(N, *)`
        - Output: :math:`(N, *)`, the input's shape

    Example::

        >>> m = nn.RMSNorm([2, 3])
        >>> m(torch.randn(2, 2, 3)).shape
        torch.Size([2, 2, 3])
    """

    def __init__(self, normalized_shape, eps: float | None = None,
                 elementwise_affine: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        self.normalized_shape = _as_shape(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(torch.empty(self.normalized_shape, device=device,
                                                dtype=dtype))
        else:
            self.register_parameter("weight", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """A scale of ones."""
        if self.elementwise_affine:
            init.ones_(self.weight)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}")
