"""Double backward of the embedding's dense gradient, re-exported by `manual.py` where
formulas look names up."""
from __future__ import annotations


def embedding_dense_double_backward(grad, indices, padding_idx: int):
    """`embedding_dense_backward` is linear in its gradient: differentiating it picks
    rows of `grad` again (``grad[indices]``), the padding index's rows zero. The
    first backward already divided by the index counts, so no scaling here (torch's
    formula does the same)."""
    picked = grad.index_select(0, indices.reshape(-1))
    if padding_idx >= 0:
        picked = picked.masked_fill((indices == padding_idx).reshape(-1, 1), 0)
    return picked.view(tuple(indices.shape) + (-1,))     # torch's -1: refused when empty
