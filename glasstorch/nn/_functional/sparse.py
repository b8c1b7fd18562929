"""torch.nn.functional's embedding: the Python front end of `torch.embedding`
(`aten/native/nn/embedding.py`), with torch's argument order, padding_idx normalization and
max_norm renormalization. `one_hot` is bound from its declaration (python_module="nn")."""
from __future__ import annotations

import glasstorch as torch

__all__ = ["embedding"]


def embedding(input: torch.Tensor, weight: torch.Tensor, padding_idx: int | None = None,
              max_norm: float | None = None, norm_type: float = 2.0,
              scale_grad_by_freq: bool = False, sparse: bool = False) -> torch.Tensor:
    """Look up the rows of `weight` that `input` names: ``weight[input]``.

    Args:
        input (LongTensor or IntTensor): row numbers, any shape.
        weight (Tensor): the table, ``(num_embeddings, embedding_dim)``.
        padding_idx (int, optional): a row that gets no gradient (negative counts from
            the end).
        max_norm (float, optional): rows picked with a larger `norm_type`-norm are scaled
            down to it first, in place in `weight`.
        norm_type (float): the p of that norm. Default: 2.
        scale_grad_by_freq (bool): divide each row's gradient by its index's count in
            the batch. Default: False.
        sparse (bool): ask for a sparse gradient (glasstorch's backward refuses it).

    Returns:
        Tensor: of shape ``(*input.shape, embedding_dim)``.

    Example::

        >>> F.embedding(torch.tensor([2, 0]), torch.tensor([[0., 1.], [2., 3.], [4., 5.]]))
        tensor([[4., 5.],
                [0., 1.]])
    """
    if padding_idx is None:
        padding_idx = -1
    elif padding_idx > 0:
        if padding_idx >= weight.size(0):
            raise AssertionError("Padding_idx must be within num_embeddings")
    elif padding_idx < 0:
        if padding_idx < -weight.size(0):
            raise AssertionError("Padding_idx must be within num_embeddings")
        padding_idx = weight.size(0) + padding_idx
    if max_norm is not None:
        input = input.contiguous()
        with torch.no_grad():
            torch.embedding_renorm_(weight, input, max_norm, norm_type)
    return torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)
