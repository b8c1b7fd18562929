"""Embedding bags: the sum, mean or maximum of each bag of table rows (`_embedding_bag`,
the front ends `embedding_bag` and `embedding_bag.padding_idx`), and their gradients.

Note [Embedding bag results]
    Bag ``b`` holds the indices ``indices[offsets[b]:offsets[b+1]]``; the last bag runs to
    the end of `indices`. `_embedding_bag` returns four tensors, as torch's CPU kernel
    does; the last three are what its backward reads:

    - offset2bag: each index's bag. In sum mode, on the path torch's kernel takes without
      it (a float32/float16/bfloat16 table with unit row stride, no padding index), it is
      empty, and the backward rebuilds it from the offsets.
    - bag_size: how many indices of each bag count (those equal to the padding index do
      not); zeros in sum mode.
    - max_indices: in max mode, the table row each maximum came from (0 for an empty
      bag); otherwise bag_size again.

    With `include_last_offset` the last offset closes the last bag, yet the indices past
    it still belong to that bag in offset2bag and bag_size: torch's max takes them, its
    sum and mean do not (the mean still divides by a size that counts them).
    `_embedding_bag_forward_only` is the same kernel; in sum mode its bag_size has one
    entry per offset. A maximum is taken as a scan keeping the first largest value: a
    NaN wins only as a bag's first row (no later value is larger than it). A sum adds its
    rows one after another, as torch's loops do (a sparse-matrix product does so; half
    tables in float32), so the forward results are torch's bit for bit, but for sample
    weights on torch's fast path, which fuses each multiply-add.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dispatch_key import FORWARD_AD
from ....c10.dtype import scalar_type_name, type_meta_name
from ...backends import register_meta
from ...registry import TensorMeta, composite, op
from .activation_smooth import _grad_mode
from .embedding import _check_indices

SUM, MEAN, MAX = 0, 1, 2
_TABLE_TYPES = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64)
_FAST_PATH_TYPES = (dtypes.float16, dtypes.bfloat16, dtypes.float32)
_BFLOAT16 = dtypes.bfloat16._np
_ENFORCE = "  (Could this error message be improved?  If so, please report an enhancement " \
           "request to PyTorch.)"


def _legacy(dtype) -> str:
    return f"torch.{scalar_type_name(dtype)}Tensor"


# ----------------------------------------------------------------------------------
# Checks and result shapes
# ----------------------------------------------------------------------------------
def _check_weights(weight, indices, mode, per_sample_weights) -> None:
    if weight._dtype not in _TABLE_TYPES:
        raise RuntimeError(f"Expected tensor for argument #1 'weight' to have one of the "
                           f"following scalar types: Half, BFloat16, Float, Double; but got "
                           f"{_legacy(weight._dtype)} instead (while checking arguments for "
                           f"embedding_bag)")
    if per_sample_weights is None:
        return
    if mode != SUM:
        raise RuntimeError("embedding_bag: per_sample_weights only supported with mode='sum'")
    if per_sample_weights._dtype != weight._dtype:
        raise RuntimeError(f"Expected tensor for argument #1 'weight' to have the same type as "
                           f"tensor for argument #1 'per_sample_weights'; but type "
                           f"{_legacy(weight._dtype)} does not equal "
                           f"{_legacy(per_sample_weights._dtype)} (while checking arguments "
                           f"for embedding_bag)")
    if per_sample_weights.dim() != 1:
        raise RuntimeError("Expected per_sample_weights.value().dim() == 1 to be true, but got "
                           "false." + _ENFORCE)
    if per_sample_weights.numel() != indices.numel():
        raise RuntimeError("Expected per_sample_weights.value().numel() == indices.numel() to "
                           "be true, but got false." + _ENFORCE)


def _check_bag_arguments(weight, indices, offsets, mode, per_sample_weights,
                         include_last_offset) -> None:
    """torch's checks of the arguments' kinds, before any value is read."""
    _check_indices(indices, 1, "embedding_bag")
    _check_indices(offsets, 1, "embedding_bag")
    if weight.dim() != 2:
        raise RuntimeError(f"weight has to be a 2D Tensor, but got Tensor of dimension "
                           f"{weight.dim()}")
    if offsets.dim() != 1:
        raise RuntimeError(f"offsets has to be a 1D Tensor, but got Tensor of dimension "
                           f"{offsets.dim()}")
    _check_weights(weight, indices, mode, per_sample_weights)
    if mode not in (SUM, MEAN, MAX):
        raise RuntimeError("`mode` must be sum, mean, or max.")
    if include_last_offset and offsets._size[0] < 1:
        raise RuntimeError("include_last_offset: number of offset should be at least 1")


def _fast_path(fast_type: bool, row_stride: int, weights_stride, padding_idx: int) -> bool:
    """Whether torch's kernel takes its fast path (a float32/float16/bfloat16 table with
    unit row stride, sample weights if any with unit stride, no padding index): in sum
    mode it computes no offset2bag, and with `include_last_offset` its sums and means
    leave the indices past the last offset out."""
    return padding_idx < 0 and fast_type and row_stride == 1 and weights_stride in (None, 1)


def _fast_path_of(weight, per_sample_weights, padding_idx: int) -> bool:
    """`_fast_path` of the tensors (the meta rule)."""
    return _fast_path(weight._dtype in _FAST_PATH_TYPES, weight._stride[1],
                      None if per_sample_weights is None else per_sample_weights._stride[0],
                      padding_idx)


def _fast_path_of_arrays(weight, per_sample_weights, padding_idx: int) -> bool:
    """`_fast_path` of the kernel's arrays (a table is floating: 2 bytes is half)."""
    return _fast_path(weight.itemsize == 2 or weight.dtype == np.float32,
                      weight.strides[1] // weight.itemsize,
                      None if per_sample_weights is None
                      else per_sample_weights.strides[0] // per_sample_weights.itemsize,
                      padding_idx)


def _bag_meta(weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False,
              per_sample_weights=None, include_last_offset=False, padding_idx=-1,
              forward_only=False):
    _check_bag_arguments(weight, indices, offsets, mode, per_sample_weights,
                         include_last_offset)
    bags = offsets._size[0] - include_last_offset
    index_type = dtypes.int32 if indices._dtype == offsets._dtype == dtypes.int32 \
        else dtypes.int64
    skipped = mode == SUM and _fast_path_of(weight, per_sample_weights, padding_idx)
    sizes = (offsets._size[0],) if forward_only and mode == SUM else (bags,)
    maxima = (bags, weight._size[1]) if mode == MAX else sizes
    return (TensorMeta((bags, weight._size[1]), weight._dtype),
            TensorMeta((0 if skipped else indices.numel(),), index_type),
            TensorMeta(sizes, index_type), TensorMeta(maxima, index_type))


def _bag_meta_on_meta(weight, indices, offsets, scale_grad_by_freq=False, mode=0,
                      sparse=False, per_sample_weights=None, include_last_offset=False,
                      padding_idx=-1):
    """torch's Python meta function: its own checks and words, and its shapes, which do
    not follow the CPU kernel's."""
    for name, tensor in (("indices", indices), ("offsets", offsets)):
        if tensor._dtype not in (dtypes.int64, dtypes.int32):
            raise RuntimeError(f"expected {name} to be long or int, got {tensor._dtype}")
    if not weight._dtype.is_floating_point:
        raise RuntimeError(f"expected weight to be floating point type, got {weight._dtype}")
    bags = offsets._size[0] - include_last_offset
    if bags < 0:
        raise RuntimeError("include_last_offset: numBags should be at least 1")
    if per_sample_weights is not None:
        _check_sample_weights_on_meta(indices, mode, per_sample_weights)
    if weight.dim() < 2:
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[-{max(weight.dim(), 1)}, {max(weight.dim(), 1) - 1}], but got 1)")
    rows = (bags, weight._size[1])
    return (TensorMeta(rows, weight._dtype), TensorMeta((indices._size[0],), indices._dtype),
            TensorMeta(offsets._size, indices._dtype),
            TensorMeta(rows if mode == MAX else (0,), indices._dtype))


def _check_sample_weights_on_meta(indices, mode, per_sample_weights) -> None:
    if mode != SUM:
        raise RuntimeError("embedding_bag: per_sample_weights only supported with mode='sum'")
    if per_sample_weights.dim() != 1:
        raise RuntimeError(f"expected per_sample_weights to be 1D tensor, got "
                           f"{per_sample_weights.dim()}D")
    if per_sample_weights.numel() != indices.numel():
        raise RuntimeError(f"expected per_sample_weights.numel() ({per_sample_weights.numel()} "
                           f"to be the same as indices.numel() ({indices.numel()})")


# ----------------------------------------------------------------------------------
# The kernel (Note [Embedding bag results])
# ----------------------------------------------------------------------------------
def _check_bag_values(weight, indices, offsets) -> None:
    """torch's checks that read the offsets and indices."""
    n = len(indices)
    if len(offsets) and offsets[0] != 0:
        kind = "Long" if offsets.dtype == np.int64 else "Int"    # printed as a 0-d tensor
        raise RuntimeError(f"offsets[0] has to be 0, i.e., the first sequence in the "
                           f"mini-batch has to start from position 0. However, got "
                           f"{offsets[0]}\n[ torch.{kind}Tensor{{}} ]")
    if len(offsets) and offsets[-1] > n:
        raise RuntimeError(f"offsets[-1] can not be greater than input's length {n} but got "
                           f"offsets[-1] of {offsets[-1]}")
    if len(offsets) and offsets.min() < 0:
        raise IndexError("index out of range in self")
    bad = np.flatnonzero((indices < 0) | (indices >= weight.shape[0]))
    if len(bad):
        raise RuntimeError(f"Index {bad[0]} of input takes value {indices[bad[0]]} which is "
                           f"not in the valid range [0, {weight.shape[0]})")


def _offset2bag(offsets: np.ndarray, n: int, bags: int) -> np.ndarray:
    """Each index's bag: how many of the first `bags` offsets are at or before it, less one."""
    starts = np.bincount(offsets[:bags], minlength=n + 1)[:n]
    return np.cumsum(starts) - 1


def _bag_sizes(offsets, padding_bags, n: int, bags: int) -> np.ndarray:
    """Each bag's length from its offsets (the last runs to the end), less its padding
    (`padding_bags`: the bag of each padding index)."""
    sizes = np.diff(np.append(offsets[:bags], n))
    return sizes - np.bincount(padding_bags, minlength=bags)[:bags]


def _sparse_sums(data, columns, targets, count: int, matrix: np.ndarray) -> np.ndarray:
    """``out[t] = sum of data[k] * matrix[columns[k]]`` over the entries k of each target
    t (`targets` sorted), added one after another in their order, as torch's loops add:
    one sparse-matrix product (np.add.reduceat would pair the terms up)."""
    from scipy import sparse                     # its first use loads it
    bounds = np.concatenate(([0], np.cumsum(np.bincount(targets, minlength=count))))
    weights = sparse.csr_matrix((data, columns, bounds), shape=(count, matrix.shape[0]))
    return np.asarray(weights @ matrix)


def _weighted_sums(weight, rows, bag, bags: int, factors) -> np.ndarray:
    """Each bag's sum of its table rows (times its factors): in float32 for a half table,
    whose picked rows are widened first (scipy has no half precision)."""
    table = weight
    if weight.itemsize == 2:
        table, rows = _gather(weight, rows).astype(np.float32), np.arange(len(rows))
    data = np.ones(len(rows), table.dtype) if factors is None else factors.astype(table.dtype)
    return _sparse_sums(data, rows, bag, bags, table)


def _first_of_runs(bag: np.ndarray) -> np.ndarray:
    """The position where each run of equal bags starts (`bag` sorted)."""
    return np.flatnonzero(np.append(True, bag[1:] != bag[:-1])) if len(bag) else bag


def _gather(weight: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """The rows `indices` pick (checked in range: np.take's "clip" skips its own check,
    and gathers several times faster than fancy indexing)."""
    return np.take(weight, indices, axis=0, mode="clip")


def _bag_maxima(rows, bag, table_rows, out, max_indices) -> None:
    """Each bag's first largest value per column and the table row it came from."""
    firsts = _first_of_runs(bag)
    if not len(firsts):
        return
    leading = rows[firsts]
    maxima = np.where(np.isnan(leading), leading, np.fmax.reduceat(rows, firsts, axis=0))
    out[bag[firsts]] = maxima
    found = out[bag]
    hits = rows == found
    if np.isnan(maxima).any():                       # a NaN maximum is its bag's first row
        hits |= np.isnan(found) & np.isnan(rows)
    positions = np.where(hits, np.arange(len(rows))[:, None], len(rows))
    max_indices[bag[firsts]] = table_rows[np.minimum.reduceat(positions, firsts, axis=0)]


def _bfloat16_half_away(sums: np.ndarray) -> np.ndarray:
    """float32 sums rounded to bfloat16 with ties away from zero, as torch's fast path
    rounds them (not to even): the top 16 bits after adding half of the bottom's range."""
    bits = np.ascontiguousarray(sums).view(np.uint32) + np.uint32(0x8000)
    return (bits & np.uint32(0xFFFF0000)).view(np.float32)


def _embedding_bag_kernel(weight, indices, offsets, scale_grad_by_freq, mode, sparse,
                          per_sample_weights, include_last_offset, padding_idx, *, out) -> None:
    result, offset2bag_out, bag_size_out, max_indices_out = out
    fast = _fast_path_of_arrays(weight, per_sample_weights, padding_idx)
    _check_bag_values(weight, indices, offsets)
    n, bags = len(indices), len(offsets) - include_last_offset
    offset2bag = _offset2bag(offsets, n, bags)
    in_bag = offset2bag >= 0                      # -1: there are no offsets, nor bags
    padding = (indices == padding_idx) & in_bag
    counted = ~padding & in_bag
    if offset2bag_out.size:
        offset2bag_out[...] = offset2bag
    bag_size_out.fill(0)
    if mode != SUM:
        bag_size_out[...] = _bag_sizes(offsets, offset2bag[padding], n, bags)
    if mode == MAX:
        max_indices_out.fill(0)
        result.fill(0)
        _bag_maxima(_gather(weight, indices[counted]), offset2bag[counted], indices[counted],
                    result, max_indices_out)
        return
    max_indices_out[...] = bag_size_out
    if include_last_offset and bags > 0 and fast:
        counted &= np.arange(n) < offsets[-1]
    sums = _weighted_sums(weight, indices[counted], offset2bag[counted], bags,
                          None if per_sample_weights is None else per_sample_weights[counted])
    result[...] = _bfloat16_half_away(sums) if fast and result.dtype == _BFLOAT16 else sums
    if mode == MEAN:                  # torch divides the sums rounded to the result's type
        sizes = bag_size_out[:, None]
        result[...] = np.where(sizes != 0, result.astype(sums.dtype) / sizes, result)


# ----------------------------------------------------------------------------------
# Gradients
# ----------------------------------------------------------------------------------
def _bags_of(indices, offsets, offset2bag, bags: int) -> np.ndarray:
    """offset2bag, rebuilt from the offsets where the forward left it empty."""
    if offset2bag.size or not indices.size:
        return offset2bag
    return _offset2bag(offsets, len(indices), bags)


def _frequencies(indices, rows: int) -> np.ndarray:
    """The divisor of each row's gradient with `scale_grad_by_freq`, as torch's CPU kernel
    reads it: the ``k``-th smallest distinct index is divided by the frequency of the
    ``k``-th smallest index (counting repeats), which is its own frequency only while
    the indices before it occur once each."""
    distinct = np.unique(indices)
    found = np.ones(rows, np.int64)
    found[distinct] = np.bincount(indices, minlength=rows)[np.sort(indices)[:len(distinct)]]
    return found


def _dense_backward(grad, indices, offset2bag, bag_size, max_indices, scale_grad_by_freq,
                    mode, per_sample_weights, padding_idx, out) -> None:
    """Add each index's share of its bag's gradient into its table row."""
    accumulate = np.float32 if grad.dtype.itemsize == 2 else grad.dtype
    table = np.zeros(out.shape, accumulate)
    if mode == MAX:
        filled = bag_size > 0
        rows, columns = np.nonzero(np.broadcast_to(filled[:, None], grad.shape))
        np.add.at(table, (max_indices[rows, columns], columns), grad[rows, columns])
    elif indices.size:
        counted = np.flatnonzero(indices != padding_idx)
        counted = counted[np.argsort(indices[counted], kind="stable")]    # by row, in order
        bag, rows = offset2bag[counted], indices[counted]
        share = np.ones(len(counted), accumulate)
        if per_sample_weights is not None:
            share *= per_sample_weights[counted].astype(accumulate)
        if mode == MEAN:
            share /= bag_size[bag].astype(accumulate)
        if scale_grad_by_freq:
            share /= _frequencies(indices, out.shape[0])[rows].astype(accumulate)
        table = _sparse_sums(share, bag, rows, out.shape[0], grad.astype(accumulate))
    if 0 <= padding_idx < out.shape[0]:
        table[padding_idx] = 0
    out[...] = table


def _refuse_out_dtype(grad, out) -> None:
    """An out= of another dtype than the gradient's (torch's kernels are not structured)."""
    if out is not None and out._dtype != grad._dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {type_meta_name(grad._dtype)}, "
                           f"but got {type_meta_name(out._dtype)} instead")


def _dense_backward_meta(grad, indices, offset2bag, bag_size, maximum_indices, num_weights,
                         scale_grad_by_freq, mode, per_sample_weights, padding_idx=-1,
                         out=None):
    _refuse_out_dtype(grad, out)
    return TensorMeta((num_weights, grad._size[1]), grad._dtype)


@op("_embedding_bag_dense_backward(Tensor grad, Tensor indices, Tensor offset2bag, "
    "Tensor bag_size, Tensor maximum_indices, SymInt num_weights, bool scale_grad_by_freq, "
    "int mode, Tensor? per_sample_weights, int padding_idx=-1) -> Tensor",
    meta=_dense_backward_meta, out=True, function=False,
    grad={"grad": "not_implemented('_embedding_bag_dense_backward')",
          "indices": "non_differentiable", "offset2bag": "non_differentiable",
          "bag_size": "non_differentiable", "maximum_indices": "non_differentiable",
          "per_sample_weights": "non_differentiable"})
def _embedding_bag_dense_backward(grad, indices, offset2bag, bag_size, maximum_indices,
                                  num_weights, scale_grad_by_freq, mode, per_sample_weights,
                                  padding_idx, *, out):
    """The table's gradient of `_embedding_bag` from its saved results (Note [Embedding
    bag results]): each counted index adds its bag's gradient (times its sample weight,
    over its bag's size in mean mode, over its frequency with `scale_grad_by_freq`) to
    its row; in max mode each bag's gradient goes to the rows its maxima came from."""
    _dense_backward(grad, indices, offset2bag, bag_size, maximum_indices, scale_grad_by_freq,
                    mode, per_sample_weights, padding_idx, out)


def _backward_meta(grad, indices, offsets, offset2bag, bag_size, maximum_indices, num_weights,
                   scale_grad_by_freq, mode, sparse, per_sample_weights, padding_idx=-1):
    if sparse:
        raise NotImplementedError("embedding_bag: sparse=True gradients need sparse tensors, "
                                  "which glasstorch does not have; use sparse=False")
    return TensorMeta((num_weights, grad._size[1]), grad._dtype)


@op("_embedding_bag_backward(Tensor grad, Tensor indices, Tensor offsets, Tensor offset2bag, "
    "Tensor bag_size, Tensor maximum_indices, SymInt num_weights, bool scale_grad_by_freq, "
    "int mode, bool sparse, Tensor? per_sample_weights, int padding_idx=-1) -> Tensor",
    meta=_backward_meta, function=False,
    grad={"grad": "not_implemented('_embedding_bag_backward')",
          "indices": "non_differentiable", "offsets": "non_differentiable",
          "offset2bag": "non_differentiable", "bag_size": "non_differentiable",
          "maximum_indices": "non_differentiable", "per_sample_weights": "non_differentiable"})
def _embedding_bag_backward(grad, indices, offsets, offset2bag, bag_size, maximum_indices,
                            num_weights, scale_grad_by_freq, mode, sparse, per_sample_weights,
                            padding_idx, *, out):
    """The table's gradient of `_embedding_bag` (dense: glasstorch has no sparse tensors),
    as `_embedding_bag_dense_backward` computes it, offset2bag rebuilt from the offsets
    where the forward left it empty."""
    offset2bag = _bags_of(indices, offsets, offset2bag, grad.shape[0])
    _dense_backward(grad, indices, offset2bag, bag_size, maximum_indices, scale_grad_by_freq,
                    mode, per_sample_weights, padding_idx, out)


def _sample_weights_meta(grad, weight, indices, offsets, offset2bag, mode, padding_idx=-1,
                         out=None):
    _refuse_out_dtype(grad, out)
    if mode != SUM:
        raise RuntimeError("embedding_bag_backward: per_sample_weights only supported for "
                           "mode='sum'")
    return TensorMeta((indices.numel(),), grad._dtype)


@op("_embedding_bag_per_sample_weights_backward(Tensor grad, Tensor weight, Tensor indices, "
    "Tensor offsets, Tensor offset2bag, int mode, int padding_idx=-1) -> Tensor",
    meta=_sample_weights_meta, out=True, function=False)
def _embedding_bag_per_sample_weights_backward(grad, weight, indices, offsets, offset2bag, mode,
                                               padding_idx, *, out):
    """The gradient of each sample weight: its bag's gradient dotted with its row (0 for
    the padding index)."""
    offset2bag = _bags_of(indices, offsets, offset2bag, grad.shape[0])
    accumulate = np.float32 if grad.dtype.itemsize == 2 else grad.dtype
    found = np.einsum("ij,ij->i", grad[offset2bag].astype(accumulate),
                      weight[indices].astype(accumulate))
    out[...] = np.where(indices == padding_idx, 0, found)


# ----------------------------------------------------------------------------------
# The operators
# ----------------------------------------------------------------------------------
_BAG_SCHEMA = ("(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq=False, "
               "int mode=0, bool sparse=False, Tensor? per_sample_weights=None, "
               "bool include_last_offset=False, int padding_idx=-1) -> "
               "(Tensor, Tensor, Tensor, Tensor)")
_BAG_GRAD = {
    "weight": "_embedding_bag_backward(grad, indices, offsets, result1, result2, result3, "
              "weight_sym_sizes[0], scale_grad_by_freq, mode, sparse, per_sample_weights, "
              "padding_idx)",
    "per_sample_weights": "_embedding_bag_per_sample_weights_backward(grad, weight, indices, "
                          "offsets, result1, mode, padding_idx)",
    "indices": "non_differentiable", "offsets": "non_differentiable",
    "output_differentiability": (True, False, False, False),
    "result0": "forward_ad_not_implemented('_embedding_bag')"}
_OUT_NAMES = ("out0", "out1", "out2", "out3")


@op("_embedding_bag" + _BAG_SCHEMA, meta=_bag_meta, out=True, out_names=_OUT_NAMES,
    bind_out=False, grad=_BAG_GRAD)
def _embedding_bag(weight, indices, offsets, scale_grad_by_freq, mode, sparse,
                   per_sample_weights, include_last_offset, padding_idx, *, out):
    """Reduce bags of rows of `weight` (Note [Embedding bag results]): returns the
    reduced rows and offset2bag, bag_size, max_indices.

    Args:
        weight (Tensor): the table, ``(num_embeddings, embedding_dim)``, floating.
        indices (Tensor): 1-D int64 or int32 row numbers, the bags one after another.
        offsets (Tensor): 1-D, where each bag starts (the first at 0).
        scale_grad_by_freq (bool): divide each row's gradient by its index's count.
        mode (int): 0 sum, 1 mean, 2 max.
        sparse (bool): a sparse gradient (not supported by glasstorch's backward).
        per_sample_weights (Tensor, optional): a factor per index (sum mode).
        include_last_offset (bool): the last offset closes the last bag.
        padding_idx (int): the row left out of every bag (-1: none).

    Example::

        >>> weight = torch.tensor([[1., 2.], [3., 4.], [5., 6.]])
        >>> torch._embedding_bag(weight, torch.tensor([0, 1, 2]), torch.tensor([0, 2]), mode=1)[0]
        tensor([[2., 3.],
                [5., 6.]])
    """
    _embedding_bag_kernel(weight, indices, offsets, scale_grad_by_freq, mode, sparse,
                          per_sample_weights, include_last_offset, padding_idx, out=out)


@op("_embedding_bag_forward_only" + _BAG_SCHEMA,
    meta=lambda *args: _bag_meta(*args, forward_only=True), out=True, out_names=_OUT_NAMES,
    bind_out=False)
def _embedding_bag_forward_only(weight, indices, offsets, scale_grad_by_freq, mode, sparse,
                                per_sample_weights, include_last_offset, padding_idx, *, out):
    """`_embedding_bag` where no gradient is wanted (in sum mode its bag_size has one
    entry per offset).

    Example::

        >>> weight = torch.tensor([[1., 2.], [3., 4.]])
        >>> torch._embedding_bag_forward_only(weight, torch.tensor([0, 1]), torch.tensor([0]))[0]
        tensor([[4., 6.]])
    """
    _embedding_bag_kernel(weight, indices, offsets, scale_grad_by_freq, mode, sparse,
                          per_sample_weights, include_last_offset, padding_idx, out=out)


register_meta(_embedding_bag, _bag_meta_on_meta)
register_meta(_embedding_bag_forward_only, _bag_meta_on_meta)


def _wants_derivatives(weight, per_sample_weights) -> bool:
    """Whether a gradient is recorded or a tangent carried: then `_embedding_bag` runs,
    whose forward AD refuses as torch's does."""
    inputs = (weight,) if per_sample_weights is None else (weight, per_sample_weights)
    return any(t._keys & FORWARD_AD for t in inputs) or (
        _grad_mode() and any(t.requires_grad for t in inputs))


@composite("embedding_bag.padding_idx(Tensor weight, Tensor indices, Tensor offsets, "
           "bool scale_grad_by_freq, int mode, bool sparse, Tensor? per_sample_weights, "
           "bool include_last_offset, int? padding_idx) -> (Tensor, Tensor, Tensor, Tensor)")
def embedding_bag_padding_idx(weight, indices, offsets, scale_grad_by_freq, mode, sparse,
                              per_sample_weights, include_last_offset, padding_idx):
    """`_embedding_bag` with `padding_idx` None (no padding) or counted from the end when
    negative; `_embedding_bag_forward_only` when no gradient is wanted."""
    rows = weight.size(0)
    if padding_idx is None:
        padding_idx = -1
    elif not -rows <= padding_idx < rows:
        raise RuntimeError(f"padding_idx must be within the number of embeddings, -{rows} "
                           f"through {rows - 1}, but got {padding_idx}")
    elif padding_idx < 0:
        padding_idx += rows
    run = _embedding_bag if _wants_derivatives(weight, per_sample_weights) \
        else _embedding_bag_forward_only
    return run.call(weight, indices, offsets, scale_grad_by_freq, mode, sparse,
                    per_sample_weights, include_last_offset, padding_idx)


@composite("embedding_bag(Tensor weight, Tensor indices, Tensor offsets, "
           "bool scale_grad_by_freq=False, int mode=0, bool sparse=False, "
           "Tensor? per_sample_weights=None, bool include_last_offset=False) -> "
           "(Tensor, Tensor, Tensor, Tensor)")
def embedding_bag(weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False,
                  per_sample_weights=None, include_last_offset=False):
    """Reduce bags of rows of `weight`: `_embedding_bag` without a padding index (see
    `torch.nn.functional.embedding_bag`, the usual front end).

    Example::

        >>> weight = torch.tensor([[1., 2.], [3., 4.]])
        >>> torch.embedding_bag(weight, torch.tensor([0, 1]), torch.tensor([0]))[0]
        tensor([[4., 6.]])
    """
    return embedding_bag_padding_idx.call(weight, indices, offsets, scale_grad_by_freq, mode,
                                          sparse, per_sample_weights, include_last_offset, None)
