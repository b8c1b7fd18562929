"""`segment_reduce`: reducing consecutive runs (segments) of a tensor along one dim.

The segments along `axis` are given by their `lengths` or by the `offsets` where they
start (one more than the segments, the last one the end); lengths or offsets of more
than one dim give each row of the leading dims its own segments (`axis` is then their
last dim). Each segment reduces to one value by sum, prod, mean, max or min; an empty
segment gives `initial` when given, else the reduction's identity (0, 1, NaN for mean,
-inf, inf). `initial` also takes part in every non-empty segment's reduction (mean
divides by the segment's length only). NaN propagates through max and min.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name
from ...derivatives import derivative_helper
from ...meta.shape import wrap_dim
from ...registry import TensorMeta, op
from ..pointwise.unary import refuse

# name -> (NumPy reduction of a non-empty segment, identity of an empty one)
_REDUCTIONS = {"sum": (np.sum, 0.0), "prod": (np.prod, 1.0), "mean": (np.sum, np.nan),
               "max": (np.max, -np.inf), "min": (np.min, np.inf)}
_ALIASES = {"amax": "max", "amin": "min"}
# `initial` joins a non-empty segment's reduction by this
_WITH_INITIAL = {"sum": np.add, "mean": np.add, "prod": np.multiply, "max": np.maximum,
                 "min": np.minimum}


def _reduction(reduce: str) -> str:
    name = _ALIASES.get(reduce, reduce)
    if name not in _REDUCTIONS:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, "
                           f"got {reduce}")
    return name


def _segment_meta(data, reduce, lengths=None, indices=None, offsets=None, axis=0,
                  unsafe=False, initial=None):
    _reduction(reduce)
    axis = wrap_dim(axis, data.dim())
    if indices is not None:
        raise RuntimeError("segment_reduce(): indices based reduction is not supported yet.")
    given = offsets if offsets is not None else lengths
    if given is None:
        raise RuntimeError("segment_reduce(): Either lengths or offsets must be defined.")
    if data.dim() < given.dim():
        raise RuntimeError("Expected data.dim() >= lengths_value.dim() to be true, but got "
                           "false.  (Could this error message be improved?  If so, please "
                           "report an enhancement request to PyTorch.)")
    if axis != given.dim() - 1:
        raise RuntimeError(f"segment_reduce(): Expected axis to be the last dimension of "
                           f"lengths but got {axis}.")
    segments = given._size[-1] - (1 if offsets is not None else 0)
    return TensorMeta(data._size[:axis] + (segments,) + data._size[axis + 1:], data._dtype)


def _starts_and_ends(lengths, offsets, data, axis: int, unsafe: bool):
    """Each segment's start and end along `axis`, per row of the leading dims."""
    given = offsets if offsets is not None else lengths
    if given.dtype.kind not in "iu":
        kernel = "_segment_reduce_offsets_cpu_kernel1" if offsets is not None else \
            "_segment_reduce_lengths_cpu_kernel1"
        refuse(given, kernel, frozenset({given.dtype}))
    if offsets is not None:
        starts, ends = offsets[..., :-1], offsets[..., 1:]
        if np.any(ends < starts):
            raise RuntimeError("Expected segment_length >= 0 to be true, but got false.  (Could "
                               "this error message be improved?  If so, please report an "
                               "enhancement request to PyTorch.)")
        return starts, ends
    if not unsafe:
        if np.any(lengths < 0):
            raise RuntimeError("lengths contains negative value!")
        if np.any(lengths.sum(-1) != data.shape[axis]):
            raise RuntimeError("segment_reduce(): Expected all rows of lengths along axis to sum "
                               "to data.size(lengths.dim()-1) when !unsafe.")
    ends = np.cumsum(lengths, -1)
    return ends - lengths, ends


# ----------------------------------------------------------------------------------
# the gradient
# ----------------------------------------------------------------------------------
def _backward_meta(grad, output, data, reduce, lengths=None, offsets=None, axis=0,
                   initial=None):
    return TensorMeta(data._size, data._dtype)


@op("_segment_reduce_backward(Tensor grad, Tensor output, Tensor data, str reduce, *, "
    "Tensor? lengths=None, Tensor? offsets=None, int axis=0, Scalar? initial=None) -> Tensor",
    meta=_backward_meta, method=False, function=False)
def segment_reduce_backward(grad, output, data, reduce, lengths, offsets, axis, initial, *,
                            out):
    """`segment_reduce`'s gradient for `data`: each segment's gradient spread over its
    elements (evenly for mean; to the elements equal to the result, ties sharing, for
    max and min; times the product of the others for prod)."""
    name = _reduction(reduce)
    axis = wrap_dim(axis, data.ndim)
    starts, ends = _starts_and_ends(lengths, offsets, data, axis, True)
    moved, grads = np.moveaxis(data, axis, 0), np.moveaxis(grad, axis, 0)
    outputs, result = np.moveaxis(output, axis, 0), np.moveaxis(out, axis, 0)
    result[...] = 0
    for row in np.ndindex(starts.shape[:-1]):
        for s in range(starts.shape[-1]):
            part = (slice(int(starts[row + (s,)]), int(ends[row + (s,)])),) + row
            if moved[part].shape[0]:
                result[part] = _spread(moved[part], grads[(s,) + row], outputs[(s,) + row],
                                       name, initial)


def _spread(values: np.ndarray, grad, output, name: str, initial) -> np.ndarray:
    if name == "sum":
        return np.broadcast_to(grad, values.shape)
    if name == "mean":
        return np.broadcast_to(grad / values.shape[0], values.shape)
    if name in ("max", "min"):
        chosen = values == output
        return chosen * grad / np.maximum(chosen.sum(0), 1)     # initial may win: no tie
    zeros = values == 0                   # prod: a lone zero gets the others' product
    count = zeros.sum(0)
    others = np.prod(np.where(zeros, 1, values), 0) * (1 if initial is None else initial)
    with np.errstate(all="ignore"):
        return np.where(count == 0, grad * output / np.where(zeros, 1, values),
                        np.where((count == 1) & zeros, grad * others, 0))


@derivative_helper
def segment_reduce_grad(grad, result, data, reduce, lengths, offsets, axis, initial):
    return segment_reduce_backward.call(grad, result, data, reduce, lengths, offsets, axis,
                                        initial)


@op("segment_reduce(Tensor data, str reduce, *, Tensor? lengths=None, Tensor? indices=None, "
    "Tensor? offsets=None, int axis=0, bool unsafe=False, Scalar? initial=None) -> Tensor",
    meta=_segment_meta, method=False,
    grad={"data": "segment_reduce_grad(grad, result, data, reduce, lengths, offsets, axis, "
                  "initial)"})
def segment_reduce(data, reduce, lengths, indices, offsets, axis, unsafe, initial, *, out):
    """Reduce each segment of `data` along `axis` to one value.

    Args:
        data (Tensor): floating point values.
        reduce (str): ``'sum'``, ``'prod'``, ``'mean'``, ``'max'`` (``'amax'``) or
            ``'min'`` (``'amin'``).
        lengths (Tensor, optional): each segment's length (integers).
        offsets (Tensor, optional): where each segment starts, then the end.
        axis (int): the dim to segment: the last dim of `lengths` / `offsets`.
        unsafe (bool): skip the checks that the lengths are non-negative and cover `axis`.
        initial (Scalar, optional): the value of an empty segment, and a part of every
            other segment's reduction.

    Example::

        >>> torch.segment_reduce(torch.tensor([1., 2., 3., 4.]), "sum",
        ...                      lengths=torch.tensor([1, 0, 3]))
        tensor([1., 0., 9.])
    """
    name = _reduction(reduce)
    if data.dtype.kind not in "fV":          # ml_dtypes' floats (bfloat16) are kind "V"
        name_of = scalar_type_name(dtypes.from_numpy_dtype(data.dtype))
        raise NotImplementedError(f"\"_segment_reduce_cpu\" not implemented for '{name_of}'")
    axis = wrap_dim(axis, data.ndim)
    starts, ends = _starts_and_ends(lengths, offsets, data, axis, unsafe)
    moved, result = np.moveaxis(data, axis, 0), np.moveaxis(out, axis, 0)
    for row in np.ndindex(starts.shape[:-1]):
        for s in range(starts.shape[-1]):
            start, end = int(starts[row + (s,)]), int(ends[row + (s,)])
            result[(s,) + row] = _reduce_segment(moved[(slice(start, end),) + row], name,
                                                 initial)


def _reduce_segment(values: np.ndarray, name: str, initial) -> np.ndarray:
    function, identity = _REDUCTIONS[name]
    count = values.shape[0]
    if count == 0:
        return np.full(values.shape[1:], identity if initial is None else initial)
    with np.errstate(all="ignore"):
        reduced = function(values.astype(np.float64), axis=0)
        if initial is not None:
            reduced = _WITH_INITIAL[name](reduced, initial)
        return reduced / count if name == "mean" else reduced
