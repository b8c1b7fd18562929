"""Embeddings: rows of a table picked by index, their gradient, max-norm renormalization,
and one_hot (the same picking, from an identity table).

Note [Embedding backward]
    ``embedding(weight, indices)`` is ``weight[indices]``; its weight gradient adds each
    row of the incoming gradient into the table row its index picked. The fused kernel
    (`embedding_dense_backward`) sorts the indices once (stable, so each row's terms are
    summed in their order of appearance), gathers the gradient rows in that order and
    sums each run of equal indices (`_run_sums`), never scattering one row at a time
    (`np.add.at` is several times slower). The padding
    row gets no gradient; with `scale_grad_by_freq` each row's sum is divided by how
    often its index occurs.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name
from ...binding import get_binding
from ...derivatives import derivative_helper
from ...backends import register_meta
from ...meta.shape import holds_data
from ...registry import TensorMeta, composite, op
from ..indexing.advanced import take_rows

_INDEX_TYPES = (dtypes.int64, dtypes.int32)


def _check_indices(indices, argument: int, name: str, python_words: bool = False) -> None:
    """int64 or int32 indices; worded as torch's C++ check, or (`python_words`, for the
    Meta registrations) as its Python meta function words it."""
    if indices._dtype not in _INDEX_TYPES:
        if python_words:
            raise RuntimeError(f"Expected tensor for argument #{argument} 'indices' to have one "
                               f"of the following scalar types: Long, Int; but got "
                               f"{indices._dtype} instead")
        legacy = scalar_type_name(indices._dtype) + "Tensor"
        raise RuntimeError(f"Expected tensor for argument #{argument} 'indices' to have one of "
                           f"the following scalar types: Long, Int; but got torch.{legacy} "
                           f"instead (while checking arguments for {name})")


def _in_range(indices: np.ndarray, rows: int) -> None:
    """torch's kernel check (a kernel's: it reads values)."""
    if indices.size and (indices.min() < 0 or indices.max() >= rows):
        raise IndexError("index out of range in self")


# ----------------------------------------------------------------------------------
# embedding
# ----------------------------------------------------------------------------------
def _embedding_meta(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    if weight.dim() != 2:
        raise RuntimeError("'weight' must be 2-D")
    _check_indices(indices, 1, "embedding")
    return TensorMeta(indices._size + (weight._size[1],), weight._dtype)


def _embedding_meta_key(weight, indices, padding_idx=-1, scale_grad_by_freq=False,
                        sparse=False):
    """torch's Python meta function: its own words and exception type."""
    if weight.dim() != 2:
        raise AssertionError(f"'weight' must be 2-D, got {weight.dim()}-D")
    _check_indices(indices, 1, "embedding", python_words=True)
    return TensorMeta(indices._size + (weight._size[1],), weight._dtype)


@op("embedding(Tensor weight, Tensor indices, SymInt padding_idx=-1, bool scale_grad_by_freq="
    "False, bool sparse=False) -> Tensor", meta=_embedding_meta,
    grad={"weight": "embedding_backward(grad, indices, weight_sym_sizes[0], padding_idx, "
                    "scale_grad_by_freq, sparse)", "indices": "non_differentiable",
          # torch's tangent picks the padding row's tangent too (Note [Forward formulas])
          "result": "embedding(weight_t, indices, padding_idx, scale_grad_by_freq, sparse)"})
def embedding(weight, indices, padding_idx, scale_grad_by_freq, sparse, *, out):
    """The rows of `weight` that `indices` pick: ``weight[indices]``.

    `padding_idx` and `scale_grad_by_freq` only change the gradient (see Note
    [Embedding backward]); `torch.nn.functional.embedding` is the usual front end.

    Args:
        weight (Tensor): the table, ``(num_embeddings, embedding_dim)``.
        indices (Tensor): int64 or int32 row numbers, any shape.
        padding_idx (int): the row that gets no gradient (-1: none).
        scale_grad_by_freq (bool): divide each row's gradient by its index's count.
        sparse (bool): a sparse gradient (not supported by glasstorch's backward).

    Example::

        >>> torch.embedding(torch.tensor([[0., 1.], [2., 3.]]), torch.tensor([1, 1, 0]))
        tensor([[2., 3.],
                [2., 3.],
                [0., 1.]])
    """
    _in_range(indices, weight.shape[0])
    take_rows(weight, indices, out)


register_meta(embedding, _embedding_meta_key)


@composite("embedding_backward(Tensor grad, Tensor indices, SymInt num_weights, SymInt "
           "padding_idx, bool scale_grad_by_freq, bool sparse) -> Tensor", function=False)
def embedding_backward(grad, indices, num_weights, padding_idx, scale_grad_by_freq, sparse):
    """The gradient of `embedding`'s table: dense (see Note [Embedding backward])."""
    if sparse:
        raise NotImplementedError("embedding: sparse=True gradients need sparse tensors, "
                                  "which glasstorch does not have; use sparse=False")
    return embedding_dense_backward.call(grad, indices, num_weights, padding_idx,
                                         scale_grad_by_freq)


def _dense_backward_meta(grad_output, indices, num_weights, padding_idx, scale_grad_by_freq,
                         python_words: bool = False):
    _check_indices(indices, 2, "embedding_backward", python_words)
    return TensorMeta((num_weights, grad_output._size[-1]), grad_output._dtype)


@derivative_helper
def embedding_dense_double_backward(grad, indices, padding_idx: int):
    """`embedding_dense_backward` is linear in its gradient: differentiating it picks
    rows of `grad` again (``grad[indices]``), the padding index's rows zero. The
    first backward already divided by the index counts, so no scaling here (torch's
    formula does the same)."""
    picked = grad.index_select(0, indices.reshape(-1))
    if padding_idx >= 0:
        picked = picked.masked_fill((indices == padding_idx).reshape(-1, 1), 0)
    return picked.view(tuple(indices.shape) + (-1,))     # torch's -1: refused when empty


def _dense_backward_meta_key(grad_output, indices, num_weights, padding_idx,
                             scale_grad_by_freq):
    return _dense_backward_meta(grad_output, indices, num_weights, padding_idx,
                                scale_grad_by_freq, python_words=True)


@op("embedding_dense_backward(Tensor grad_output, Tensor indices, SymInt num_weights, SymInt "
    "padding_idx, bool scale_grad_by_freq) -> Tensor", meta=_dense_backward_meta,
    function=False,
    grad={"grad_output": "embedding_dense_double_backward(grad, indices, padding_idx)",
          "indices": "non_differentiable",
          # linear in grad_output: torch's tangent keeps the frequency division, which
          # the double backward above leaves out
          "result": "embedding_dense_backward(grad_output_t, indices, num_weights, "
                    "padding_idx, scale_grad_by_freq)"})
def embedding_dense_backward(grad_output, indices, num_weights, padding_idx,
                             scale_grad_by_freq, *, out):
    """Sum the gradient rows into the table rows their indices picked (Note [Embedding
    backward])."""
    out.fill(0)
    flat = indices.reshape(-1)
    if flat.size == 0:
        return
    rows = grad_output.reshape(flat.size, grad_output.shape[-1])
    order = np.argsort(flat, kind="stable")
    ordered = flat[order]
    starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
    targets = ordered[starts]
    accumulate = np.float32 if rows.dtype.itemsize == 2 else rows.dtype
    ordered_rows = np.empty_like(rows)
    take_rows(rows, order, ordered_rows)
    sums = _run_sums(ordered_rows, starts, accumulate)
    if scale_grad_by_freq:
        counts = np.diff(np.append(starts, flat.size))
        sums /= counts[:, None].astype(sums.dtype)
    keep = targets != padding_idx
    out[targets[keep]] = sums[keep]


register_meta(embedding_dense_backward, _dense_backward_meta_key)


def _run_sums(ordered_rows: np.ndarray, starts: np.ndarray, dtype) -> np.ndarray:
    """The sum of each run of rows beginning at `starts`. Long runs (a small vocabulary)
    are summed one run at a time, each a contiguous block added row-wise, which is
    three times faster than `np.add.reduceat` over axis 0; many short runs go to
    reduceat, one call for all."""
    if len(starts) * 32 > len(ordered_rows):
        return np.add.reduceat(ordered_rows, starts, axis=0, dtype=dtype)
    bounds = np.append(starts, len(ordered_rows))
    sums = np.empty((len(starts), ordered_rows.shape[1]), dtype)
    for run in range(len(starts)):
        np.add.reduce(ordered_rows[bounds[run]:bounds[run + 1]], axis=0, dtype=dtype,
                      out=sums[run])
    return sums


@op("embedding_renorm_(Tensor(a!) self, Tensor indices, float max_norm, float norm_type) -> "
    "Tensor(a!)", meta=lambda self, indices, max_norm, norm_type: (
        _check_indices(indices, 2, "embedding_renorm_"), TensorMeta(self._size, self._dtype))[1])
def embedding_renorm_(self, indices, max_norm, norm_type, *, out):
    """Scale the rows `indices` pick, in place, so that their `norm_type`-norm is at most
    `max_norm` (rows within the bound stay as they are).

    Args:
        self (Tensor): the table, ``(num_embeddings, embedding_dim)``.
        indices (Tensor): int64 or int32 row numbers (each row is renormalized once).
        max_norm (float): the largest norm a row may keep.
        norm_type (float): the p of the p-norm.

    Example::

        >>> torch.embedding_renorm_(torch.tensor([[3., 4.], [0.3, 0.4]]), torch.tensor([0, 1]), 1.0, 2.0)
        tensor([[0.6000, 0.8000],
                [0.3000, 0.4000]])
    """
    _in_range(indices, out.shape[0])
    rows = np.unique(indices)
    norms = np.linalg.norm(out[rows].astype(np.float64), ord=norm_type, axis=1)
    over = norms > max_norm
    # torch's guard against dividing by a zero norm (1e-7 added)
    scale = (max_norm / (norms[over] + 1e-7)).astype(out.dtype)
    out[rows[over]] *= scale[:, None]


# ----------------------------------------------------------------------------------
# one_hot
# ----------------------------------------------------------------------------------
@composite("one_hot(Tensor self, int num_classes=-1) -> Tensor", python_module="nn")
def one_hot(self, num_classes=-1):
    """One row per index, all zeros but a 1 at the index: ``eq(x.unsqueeze(-1),
    arange(num_classes))`` as int64.

    Args:
        tensor (LongTensor): class indices, any shape.
        num_classes (int): the length of each row; -1 infers it as the largest index + 1.

    Returns:
        LongTensor: of shape ``(*tensor.shape, num_classes)``.

    Example::

        >>> torch.nn.functional.one_hot(torch.tensor([0, 2]), 3)
        tensor([[1, 0, 0],
                [0, 0, 1]])
    """
    if self._dtype is not dtypes.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if not holds_data(self):
        if num_classes == -1:        # the largest value decides, and there are no values
            raise RuntimeError("Tensor.item() cannot be called on meta tensors")
    else:
        if self.numel() == 0:
            if num_classes <= 0:
                raise RuntimeError("Can not infer total number of classes from empty tensor.")
        else:
            if int(self.min()) < 0:
                raise RuntimeError("Class values must be non-negative.")
            largest = int(self.max())
            if num_classes == -1:
                num_classes = largest + 1
            elif largest >= num_classes:
                raise RuntimeError("Class values must be smaller than num_classes.")
    classes = get_binding("function", "arange")(num_classes, device=self.device)
    return self.unsqueeze(-1).eq(classes).to(dtypes.int64)
