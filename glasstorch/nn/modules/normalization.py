"""Normalization layers: LayerNorm and RMSNorm over the trailing dims, GroupNorm over
groups of channels, LocalResponseNorm and CrossMapLRN2d across neighbouring channels.

LayerNorm and RMSNorm keep an optional elementwise scale (`weight`, initialised to
ones; LayerNorm also a shift, `bias`, initialised to zeros) of shape
`normalized_shape`, and call `F.layer_norm` / `F.rms_norm`; GroupNorm keeps them per
channel and calls `F.group_norm`.
"""
from __future__ import annotations

import numbers

import glasstorch as torch
from .. import _functions
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["LayerNorm", "RMSNorm", "GroupNorm", "LocalResponseNorm", "CrossMapLRN2d"]


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


class GroupNorm(Module):
    r"""Group normalization: the channels are split into `num_groups` groups and each
    group of each sample is normalized over its channels and other dims (mean and
    biased variance), then scaled by `weight` and shifted by `bias` per channel.

    Args:
        num_groups: the number of groups (dividing `num_channels`)
        num_channels: C, the number of channels
        eps: added to the variance. Default: 1e-5
        affine: learn `weight` (ones) and `bias` (zeros). Default: ``True``
        device, dtype: those of the parameters
        bias: learn `bias` (with `affine`). Default: ``True``

    Shape:
        - Input: :math:`(N, C, *)`
        - Output: the input's shape

    Example::

        >>> m = nn.GroupNorm(2, 4)
        >>> m(torch.randn(3, 4, 5)).shape
        torch.Size([3, 4, 5])
    """

    __constants__ = ["num_groups", "num_channels", "eps", "affine"]

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5,
                 affine: bool = True, device=None, dtype=None, *, bias: bool = True) -> None:
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups "
                             f"({num_groups})")
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        for name, wanted in (("weight", affine), ("bias", affine and bias)):
            self.register_parameter(name, Parameter(torch.empty(num_channels, device=device,
                                                                dtype=dtype))
                                    if wanted else None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Scale of ones, shift of zeros."""
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, "
                f"affine={self.affine}, bias={self.bias is not None}")


class LocalResponseNorm(Module):
    r"""Local response normalization across channels (`F.local_response_norm`):
    :math:`b_c = a_c / (k + \frac{\alpha}{n} \sum_{c'} a_{c'}^2)^{\beta}` over a window
    of `size` neighbouring channels.

    Args:
        size: the number of channels in the window
        alpha: the multiplier. Default: 1e-4
        beta: the exponent. Default: 0.75
        k: the additive constant. Default: 1

    Shape:
        - Input: :math:`(N, C, *)`
        - Output: the input's shape

    Example::

        >>> m = nn.LocalResponseNorm(2)
        >>> m(torch.randn(3, 4, 5)).shape
        torch.Size([3, 4, 5])
    """

    __constants__ = ["size", "alpha", "beta", "k"]

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75,
                 k: float = 1.0) -> None:
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


class CrossMapLRN2d(LocalResponseNorm):
    r"""Local response normalization of 4-D inputs across channels, with the window of
    torch's legacy (Lua Torch) kernel: :math:`b_c = a_c (k + \frac{\alpha}{n}
    \sum_{c' \in W(c)} a_{c'}^2)^{-\beta}`.

    Args:
        size: the number of channels in the window
        alpha: the multiplier. Default: 1e-4
        beta: the exponent. Default: 0.75
        k: the additive constant. Default: 1

    Shape:
        - Input: :math:`(N, C, H, W)`
        - Output: the input's shape

    Example::

        >>> m = nn.CrossMapLRN2d(3)
        >>> m(torch.randn(2, 4, 3, 3)).shape
        torch.Size([2, 4, 3, 3])
    """

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1) -> None:
        super().__init__(size, alpha, beta, k)

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        if input.dim() != 4:
            raise ValueError(f"CrossMapLRN2d: Expected input to be 4D, got {input.dim()}D "
                             f"instead.")
        return _functions.CrossMapLRN2d.apply(input, self.size, self.alpha, self.beta, self.k)
