"""Embedding and EmbeddingBag: lookup tables of learnable rows, the second reducing
bags of rows (torch puts them in nn/modules/sparse.py, after their optional sparse
gradient)."""
from __future__ import annotations

import glasstorch as torch
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["Embedding", "EmbeddingBag"]


def _padding_row(padding_idx, num_embeddings: int):
    """`padding_idx` as a row number (negative ones count from the end), checked."""
    if padding_idx is None:
        return None
    if padding_idx > 0 and padding_idx >= num_embeddings:
        raise AssertionError("Padding_idx must be within num_embeddings")
    if padding_idx < 0:
        if padding_idx < -num_embeddings:
            raise AssertionError("Padding_idx must be within num_embeddings")
        padding_idx = num_embeddings + padding_idx
    return padding_idx


class Embedding(Module):
    r"""A table of `num_embeddings` learnable vectors of size `embedding_dim`, looked up
    by index: ``weight[input]``.

    Args:
        num_embeddings (int): the number of rows.
        embedding_dim (int): the size of each row.
        padding_idx (int, optional): a row that gets no gradient and starts at zero
            (negative counts from the end).
        max_norm (float, optional): rows looked up with a larger norm are first scaled
            down to it, in place.
        norm_type (float): the p of that norm. Default: 2.
        scale_grad_by_freq (bool): divide each row's gradient by its index's count in
            the batch. Default: ``False``
        sparse (bool): ask for a sparse gradient (glasstorch's backward refuses it).

    Attributes:
        weight (Tensor): ``(num_embeddings, embedding_dim)``, initialised from
            :math:`\mathcal{N}(0, 1)`.

    Shape:
        - Input: :math:`(*)`, an IntTensor or LongTensor of row numbers
        - Output: :math:`(*, H)`, with :math:`H = \text{embedding\_dim}`

    Example::

        >>> m = nn.Embedding(10, 3)
        >>> m(torch.tensor([[1, 2, 4, 5], [4, 3, 2, 9]])).shape
        torch.Size([2, 4, 3])
    """

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: int | None = None,
                 max_norm: float | None = None, norm_type: float = 2.0,
                 scale_grad_by_freq: bool = False, sparse: bool = False, _weight=None,
                 _freeze: bool = False, device=None, dtype=None) -> None:
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.padding_idx = _padding_row(padding_idx, num_embeddings)
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        if _weight is None:
            self.weight = Parameter(torch.empty((num_embeddings, embedding_dim), device=device,
                                                dtype=dtype), requires_grad=not _freeze)
            self.reset_parameters()
        else:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise AssertionError("Shape of weight does not match num_embeddings and "
                                     "embedding_dim")
            self.weight = Parameter(_weight, requires_grad=not _freeze)
        self.sparse = sparse

    def reset_parameters(self) -> None:
        """Standard normal rows (drawn from the global generator), the padding row zero."""
        init.normal_(self.weight)
        self._fill_padding_idx_with_zero()

    def _fill_padding_idx_with_zero(self) -> None:
        if self.padding_idx is not None:
            with torch.no_grad():
                self.weight[self.padding_idx].fill_(0)

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        return F.embedding(input, self.weight, self.padding_idx, self.max_norm,
                           self.norm_type, self.scale_grad_by_freq, self.sparse)

    def extra_repr(self) -> str:
        text = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            text += f", padding_idx={self.padding_idx}"
        if self.max_norm is not None:
            text += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            text += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq is not False:
            text += f", scale_grad_by_freq={self.scale_grad_by_freq}"
        if self.sparse is not False:
            text += ", sparse=True"
        return text

    @classmethod
    def from_pretrained(cls, embeddings, freeze: bool = True, padding_idx: int | None = None,
                        max_norm: float | None = None, norm_type: float = 2.0,
                        scale_grad_by_freq: bool = False, sparse: bool = False) -> "Embedding":
        """An Embedding whose table is `embeddings` (2-D), frozen unless `freeze=False`.

        Example::

            >>> m = nn.Embedding.from_pretrained(torch.tensor([[1., 2.], [3., 4.]]))
            >>> m(torch.tensor([1]))
            tensor([[3., 4.]])
        """
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        return cls(num_embeddings=rows, embedding_dim=cols, _weight=embeddings, _freeze=freeze,
                   padding_idx=padding_idx, max_norm=max_norm, norm_type=norm_type,
                   scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


class EmbeddingBag(Module):
    r"""A table of `num_embeddings` learnable vectors whose bags of lookups are reduced
    (summed, averaged or maximized) without building the intermediate rows
    (`F.embedding_bag`).

    Args:
        num_embeddings: the number of rows
        embedding_dim: the size of each row
        max_norm: rows looked up with a larger norm are renormalized in place
        norm_type: the norm for `max_norm`. Default: 2
        scale_grad_by_freq: divide each row's gradient by its index's frequency in the
            input, as torch's CPU kernel counts it
        mode: ``'sum'``, ``'mean'`` or ``'max'``. Default: ``'mean'``
        sparse: sparse gradients (glasstorch has no sparse tensors: backward refuses)
        include_last_offset: the last offset ends the last bag
        padding_idx: entries equal to it are left out of their bag (its row starts zero)
        device, dtype: those of `weight`

    Shape:
        - Input: :math:`(B, N)`, or :math:`(L)` with 1-D `offsets`
        - Output: :math:`(B, \text{embedding\_dim})`

    Example::

        >>> bag = nn.EmbeddingBag(10, 3, mode="sum")
        >>> bag(torch.tensor([1, 2, 4, 5]), torch.tensor([0, 2])).shape
        torch.Size([2, 3])
    """

    def __init__(self, num_embeddings: int, embedding_dim: int, max_norm: float | None = None,
                 norm_type: float = 2.0, scale_grad_by_freq: bool = False, mode: str = "mean",
                 sparse: bool = False, _weight=None, include_last_offset: bool = False,
                 padding_idx: int | None = None, device=None, dtype=None) -> None:
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        self.padding_idx = _padding_row(padding_idx, num_embeddings)
        if _weight is None:
            self.weight = Parameter(torch.empty((num_embeddings, embedding_dim), device=device,
                                                dtype=dtype))
            self.reset_parameters()
        else:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise AssertionError("Shape of weight does not match num_embeddings and "
                                     "embedding_dim")
            self.weight = Parameter(_weight)
        self.mode = mode
        self.sparse = sparse
        self.include_last_offset = include_last_offset

    reset_parameters = Embedding.reset_parameters
    _fill_padding_idx_with_zero = Embedding._fill_padding_idx_with_zero

    def forward(self, input: torch.Tensor, offsets: torch.Tensor | None = None,
                per_sample_weights: torch.Tensor | None = None) -> torch.Tensor:
        return F.embedding_bag(input, self.weight, offsets, self.max_norm, self.norm_type,
                               self.scale_grad_by_freq, self.mode, self.sparse,
                               per_sample_weights, self.include_last_offset, self.padding_idx)

    def extra_repr(self) -> str:
        text = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.max_norm is not None:
            text += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            text += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq is not False:
            text += f", scale_grad_by_freq={self.scale_grad_by_freq}"
        text += f", mode='{self.mode}'"
        if self.padding_idx is not None:
            text += f", padding_idx={self.padding_idx}"
        return text

    @classmethod
    def from_pretrained(cls, embeddings, freeze: bool = True, max_norm: float | None = None,
                        norm_type: float = 2.0, scale_grad_by_freq: bool = False,
                        mode: str = "mean", sparse: bool = False,
                        include_last_offset: bool = False,
                        padding_idx: int | None = None) -> "EmbeddingBag":
        """An EmbeddingBag whose table is `embeddings` (2-D), frozen unless
        `freeze=False`.

        Example::

            >>> bag = nn.EmbeddingBag.from_pretrained(torch.tensor([[1., 2.], [3., 4.]]))
            >>> bag(torch.tensor([[0, 1]]))
            tensor([[2., 3.]])
        """
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        bag = cls(num_embeddings=rows, embedding_dim=cols, _weight=embeddings,
                  max_norm=max_norm, norm_type=norm_type,
                  scale_grad_by_freq=scale_grad_by_freq, mode=mode, sparse=sparse,
                  include_last_offset=include_last_offset, padding_idx=padding_idx)
        bag.weight.requires_grad = not freeze
        return bag
