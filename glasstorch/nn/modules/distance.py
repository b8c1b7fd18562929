"""Distance layers: CosineSimilarity and PairwiseDistance, over `F.cosine_similarity`
and `F.pairwise_distance`."""
from __future__ import annotations

import glasstorch as torch
from .. import functional as F
from .module import Module

__all__ = ["CosineSimilarity", "PairwiseDistance"]


class CosineSimilarity(Module):
    r"""The cosine similarity of `x1` and `x2` along `dim`:
    :math:`\frac{x_1 \cdot x_2}{\max(\lVert x_1 \rVert, \epsilon) \max(\lVert x_2 \rVert, \epsilon)}`.

    Args:
        dim: the dim the vectors lie along. Default: 1
        eps: the smallest norm. Default: 1e-8

    Shape:
        - Input1: :math:`(\ast_1, D, \ast_2)`, D at `dim`
        - Input2: broadcastable with Input1
        - Output: the broadcast shape without `dim`

    Example::

        >>> cos = nn.CosineSimilarity(dim=1)
        >>> cos(torch.randn(10, 128), torch.randn(10, 128)).shape
        torch.Size([10])
    """

    __constants__ = ["dim", "eps"]

    def __init__(self, dim: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1: torch.Tensor, x2: torch.Tensor) -> torch.Tensor:
        return F.cosine_similarity(x1, x2, self.dim, self.eps)


class PairwiseDistance(Module):
    r"""The p-norm distance between the vectors of `x1` and `x2` along the last dim:
    :math:`\lVert x_1 - x_2 + \epsilon \rVert_p`.

    Args:
        p: the norm's exponent. Default: 2
        eps: added to the difference, keeping the gradient finite. Default: 1e-6
        keepdim: keep the reduced dim. Default: ``False``

    Shape:
        - Input1: :math:`(N, D)` or :math:`(D)`
        - Input2: broadcastable with Input1
        - Output: :math:`(N)` or :math:`()` (with `keepdim`, the last dim of size 1)

    Example::

        >>> pdist = nn.PairwiseDistance(p=2)
        >>> pdist(torch.randn(100, 128), torch.randn(100, 128)).shape
        torch.Size([100])
    """

    __constants__ = ["norm", "eps", "keepdim"]

    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> None:
        super().__init__()
        self.norm = p
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1: torch.Tensor, x2: torch.Tensor) -> torch.Tensor:
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)
