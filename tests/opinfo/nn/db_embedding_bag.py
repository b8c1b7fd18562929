"""OpInfo entries for embedding bags (`aten/native/nn/embedding_bag.py`): _embedding_bag,
_embedding_bag_forward_only, embedding_bag (both overloads) and the three gradients.
The references loop over bags in float64, one bag at a time."""
import numpy as np
import pytest

import glasstorch as gt

from ..core import ErrorInput, OpInfo, SampleInput, make_tensor

DTYPES = (gt.float32, gt.float64)
INDICES = (1, 2, 4, 5, 4, 3, 2, 0, 1, 1)
# offsets, include_last_offset
BAGS = (((0, 2, 2, 5), False), ((0, 10), False), ((0, 3, 3, 10), True), ((0,), False))
FOUR_OUT = pytest.mark.skip(reason="out= of four results: tests/nn/test_embedding_bag.py")
META = pytest.mark.skip(reason="torch's Meta results have other shapes than its CPU kernel's "
                               "(Note [Embedding bag results]): the differential tests hold "
                               "each to torch's")
MARKS = {"test_out": FOUR_OUT, "test_out_matches_torch": FOUR_OUT, "test_meta": META}


# ----- references --------------------------------------------------------------------
def _bag_ranges(offsets, n, include_last_offset):
    bags = len(offsets) - include_last_offset
    ends = list(offsets[1:bags]) + [n]
    return [(int(offsets[b]), int(ends[b])) for b in range(bags)]


def _fast(weight, per_sample_weights, padding_idx):
    return padding_idx < 0 and weight.dtype == np.float32


def _np_embedding_bag(weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False,
                      per_sample_weights=None, include_last_offset=False, padding_idx=-1,
                      forward_only=False):
    n, dim = len(indices), weight.shape[1]
    ranges = _bag_ranges(offsets, n, include_last_offset)
    fast = _fast(weight, per_sample_weights, padding_idx)
    result = np.zeros((len(ranges), dim))
    offset2bag = np.zeros(n, np.int64)
    sizes = np.zeros(len(ranges), np.int64)
    maxima = np.zeros((len(ranges), dim), np.int64)
    for b, (start, end) in enumerate(ranges):
        offset2bag[start:end] = b
        kept = [i for i in range(start, end) if indices[i] != padding_idx]
        sizes[b] = len(kept)
        summed = [i for i in kept if not (fast and include_last_offset and i >= offsets[-1])]
        scale = 1.0 if per_sample_weights is None else per_sample_weights
        rows = weight[indices[summed]].astype(np.float64) * (
            scale if np.isscalar(scale) else scale[summed, None])
        if mode == 2 and kept:
            picked = weight[indices[kept]].astype(np.float64)
            maxima[b] = indices[kept][picked.argmax(axis=0)]
            result[b] = picked.max(axis=0)
        elif mode != 2:
            result[b] = rows.sum(axis=0) / (sizes[b] if mode == 1 and sizes[b] else 1)
    if mode == 0:
        sizes[:] = 0
        if forward_only:
            sizes = np.zeros(len(offsets), np.int64)
    found = [offset2bag[:0] if mode == 0 and fast else offset2bag, sizes,
             maxima if mode == 2 else sizes]
    narrow = indices.dtype == offsets.dtype == np.int32
    return [result.astype(weight.dtype)] + [a.astype(np.int32) if narrow else a for a in found]


def _np_forward_only(*args, **kwargs):
    return _np_embedding_bag(*args, **kwargs, forward_only=True)


def _np_front_end(weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False,
                  per_sample_weights=None, include_last_offset=False, padding_idx=None):
    if padding_idx is not None and padding_idx < 0:
        padding_idx += weight.shape[0]
    return _np_forward_only(weight, indices, offsets, scale_grad_by_freq, mode, sparse,
                            per_sample_weights, include_last_offset,
                            -1 if padding_idx is None else padding_idx)


def _np_dense_backward(grad, indices, offset2bag, bag_size, maximum_indices, num_weights,
                       scale_grad_by_freq, mode, per_sample_weights, padding_idx=-1):
    table = np.zeros((num_weights, grad.shape[1]))
    if mode == 2:
        for b in range(grad.shape[0]):
            for c in range(grad.shape[1]):
                if bag_size[b] > 0:
                    table[maximum_indices[b, c], c] += grad[b, c]
        return table.astype(grad.dtype)
    for i, index in enumerate(indices):
        if index == padding_idx:
            continue
        share = grad[offset2bag[i]].astype(np.float64)
        if per_sample_weights is not None:
            share = share * per_sample_weights[i]
        if mode == 1:
            share = share / bag_size[offset2bag[i]]
        if scale_grad_by_freq:        # torch's divisor: see _frequencies in the family file
            rank = list(np.unique(indices)).index(index)
            share = share / np.count_nonzero(indices == np.sort(indices)[rank])
        table[index] += share
    return table.astype(grad.dtype)


def _np_backward(grad, indices, offsets, offset2bag, bag_size, maximum_indices, num_weights,
                 scale_grad_by_freq, mode, sparse, per_sample_weights, padding_idx=-1):
    return _np_dense_backward(grad, indices, offset2bag, bag_size, maximum_indices,
                              num_weights, scale_grad_by_freq, mode, per_sample_weights,
                              padding_idx)


def _np_sample_weights_backward(grad, weight, indices, offsets, offset2bag, mode,
                                padding_idx=-1):
    found = np.array([0.0 if index == padding_idx else
                      np.dot(grad[offset2bag[i]].astype(np.float64), weight[index])
                      for i, index in enumerate(indices)])
    return found.astype(grad.dtype)


# ----- samples -----------------------------------------------------------------------
def _bag_samples(dtype, padding=-1):
    indices = gt.tensor(INDICES)
    for mode in (0, 1, 2):
        for offsets, last in BAGS:
            weight = make_tensor((6, 3), dtype, seed=mode)
            yield SampleInput(weight, indices, gt.tensor(offsets), False, mode, False, None,
                              last, padding)
    weight = make_tensor((6, 3), dtype)
    yield SampleInput(weight, indices.int(), gt.tensor((0, 4), dtype=gt.int32), False, 1,
                      False, None, False, padding)
    yield SampleInput(weight, indices, gt.tensor((0, 3, 7)), False, 0, False,
                      make_tensor((10,), dtype, seed=3), False, padding)
    yield SampleInput(weight, indices, gt.tensor((0, 3, 7)), False, 2, False, None, True, 2)


def sample_embedding_bag(dtype):
    yield from _bag_samples(dtype)
    yield from _bag_samples(dtype, padding=2)


def sample_front_end(dtype):
    for sample in _bag_samples(dtype):
        yield SampleInput(*sample.args[:8])


def sample_padding_idx(dtype):
    for sample in sample_front_end(dtype):
        yield SampleInput(*sample.args, None)
    weight = make_tensor((6, 3), dtype)
    yield SampleInput(weight, gt.tensor(INDICES), gt.tensor((0, 5)), False, 1, False, None,
                      False, -4)


def errors_embedding_bag():
    weight, indices, offsets = make_tensor((4, 2), gt.float32), gt.tensor(INDICES[:4]), \
        gt.tensor([0, 2])

    def refused(args, message, error=RuntimeError):
        return ErrorInput(SampleInput(*args), error, message)
    yield refused((weight, indices.float(), offsets), r"^Expected tensor for argument #1 "
                  r"'indices' to have one of the following scalar types: Long, Int; but got "
                  r"torch\.FloatTensor instead \(while checking arguments for embedding_bag\)$")
    yield refused((weight[0], indices, offsets), r"^weight has to be a 2D Tensor, but got "
                  r"Tensor of dimension 1$")
    yield refused((weight, indices, offsets[None]), r"^offsets has to be a 1D Tensor, but got "
                  r"Tensor of dimension 2$")
    yield refused((weight, indices, offsets, False, 3), r"^`mode` must be sum, mean, or max\.$")
    yield refused((weight, indices, offsets, False, 1, False, gt.ones(4)),
                  r"^embedding_bag: per_sample_weights only supported with mode='sum'$")
    yield refused((weight, indices, offsets, False, 0, False, gt.ones(4, dtype=gt.float64)),
                  r"^Expected tensor for argument #1 'weight' to have the same type as tensor "
                  r"for argument #1 'per_sample_weights'; but type torch\.FloatTensor does not "
                  r"equal torch\.DoubleTensor")
    yield refused((weight, indices, offsets, False, 0, False, gt.ones(3)),
                  r"^Expected per_sample_weights\.value\(\)\.numel\(\) == indices\.numel\(\)")
    yield refused((weight, indices, gt.tensor([1, 2]), False, 1), r"^offsets\[0\] has to be 0, "
                  r"i\.e\., the first sequence in the mini-batch has to start from position 0\. "
                  r"However, got 1\n\[ torch\.LongTensor\{\} \]$")
    yield refused((weight, indices, gt.tensor([0, 9]), False, 1), r"^offsets\[-1\] can not be "
                  r"greater than input's length 4 but got offsets\[-1\] of 9$")
    yield refused((weight, gt.tensor([0, 7]), offsets, False, 1), r"^Index 1 of input takes "
                  r"value 7 which is not in the valid range \[0, 4\)$")
    yield refused((weight.long(), indices, offsets), r"^Expected tensor for argument #1 "
                  r"'weight' to have one of the following scalar types: Half, BFloat16, Float, "
                  r"Double; but got torch\.LongTensor instead")
    yield refused((weight, indices, offsets[:0], False, 0, False, None, True),
                  r"^include_last_offset: number of offset should be at least 1$")


def errors_padding_idx():
    weight = make_tensor((4, 2), gt.float32)
    yield ErrorInput(SampleInput(weight, gt.tensor([0, 1]), gt.tensor([0]), False, 0, False,
                                 None, False, 4), RuntimeError,
                     r"^padding_idx must be within the number of embeddings, -4 through 3, "
                     r"but got 4$")


def _saved(dtype, padding=-1):
    """(sample of _embedding_bag, its results): what the backward operators read."""
    for sample in _bag_samples(dtype, padding):
        results = gt.ops.aten._embedding_bag(*sample.args)
        yield sample, results


def sample_dense_backward(dtype):
    for padding in (-1, 2):
        for sample, (out, offset2bag, sizes, maxima) in _saved(dtype, padding):
            weight, indices, offsets, _, mode, _, weights, _, _ = sample.args
            if not offset2bag.numel() and indices.numel():
                continue                   # the dense backward needs offset2bag
            grad = make_tensor(tuple(out.shape), dtype, seed=5)
            for scaled in (False, True) if mode != 2 else (False,):
                yield SampleInput(grad, indices, offset2bag, sizes, maxima, 6, scaled, mode,
                                  weights, padding)


def sample_backward(dtype):
    for padding in (-1, 2):
        for sample, (out, offset2bag, sizes, maxima) in _saved(dtype, padding):
            weight, indices, offsets, _, mode, _, weights, _, _ = sample.args
            grad = make_tensor(tuple(out.shape), dtype, seed=5)
            yield SampleInput(grad, indices, offsets, offset2bag, sizes, maxima, 6, mode == 0,
                              mode, False, weights, padding)


def _np_backward_rebuilt(grad, indices, offsets, offset2bag, *rest):
    if not offset2bag.size and indices.size:
        offset2bag = np.cumsum(np.bincount(offsets[:grad.shape[0]],
                                           minlength=len(indices) + 1)[:len(indices)]) - 1
    return _np_backward(grad, indices, offsets, offset2bag, *rest)


def sample_sample_weights_backward(dtype):
    for padding in (-1, 2):
        for sample, (out, offset2bag, _, _) in _saved(dtype, padding):
            weight, indices, offsets, _, mode, _, weights, _, _ = sample.args
            if mode == 0:
                yield SampleInput(make_tensor(tuple(out.shape), dtype, seed=6), weight,
                                  indices, offsets, offset2bag, 0, padding)


def _np_sample_weights_rebuilt(grad, weight, indices, offsets, offset2bag, mode,
                               padding_idx=-1):
    if not offset2bag.size and indices.size:
        offset2bag = np.cumsum(np.bincount(offsets[:grad.shape[0]],
                                           minlength=len(indices) + 1)[:len(indices)]) - 1
    return _np_sample_weights_backward(grad, weight, indices, offsets, offset2bag, mode,
                                       padding_idx)


def errors_sample_weights_backward():
    grad, weight = make_tensor((1, 2), gt.float32), make_tensor((4, 2), gt.float32)
    yield ErrorInput(SampleInput(grad, weight, gt.tensor([0, 1]), gt.tensor([0]),
                                 gt.tensor([0, 0]), 1), RuntimeError,
                     r"^embedding_bag_backward: per_sample_weights only supported for "
                     r"mode='sum'$")


OPS = [
    OpInfo("_embedding_bag", variants=("_embedding_bag", "ops.aten._embedding_bag.default"),
           ref=_np_embedding_bag, dtypes=DTYPES, sample_inputs=sample_embedding_bag,
           error_inputs=errors_embedding_bag, layout_sensitive=True,
           out="ops.aten._embedding_bag", marks=MARKS),
    OpInfo("_embedding_bag_forward_only", variants=("_embedding_bag_forward_only",),
           ref=_np_forward_only, dtypes=DTYPES, sample_inputs=sample_embedding_bag,
           layout_sensitive=True, out="ops.aten._embedding_bag_forward_only", marks=MARKS),
    OpInfo("embedding_bag", variants=("embedding_bag",), ref=_np_front_end, dtypes=DTYPES,
           sample_inputs=sample_front_end, layout_sensitive=True, marks={"test_meta": META}),
    OpInfo("embedding_bag.padding_idx", variants=("ops.aten.embedding_bag.padding_idx",),
           ref=_np_front_end, dtypes=DTYPES, sample_inputs=sample_padding_idx,
           error_inputs=errors_padding_idx, layout_sensitive=True, marks={"test_meta": META}),
    OpInfo("_embedding_bag_dense_backward",
           variants=("ops.aten._embedding_bag_dense_backward",), ref=_np_dense_backward,
           dtypes=DTYPES, sample_inputs=sample_dense_backward, out="ops.aten."
           "_embedding_bag_dense_backward"),
    OpInfo("_embedding_bag_backward", variants=("ops.aten._embedding_bag_backward",),
           ref=_np_backward_rebuilt, dtypes=DTYPES, sample_inputs=sample_backward),
    OpInfo("_embedding_bag_per_sample_weights_backward",
           variants=("ops.aten._embedding_bag_per_sample_weights_backward",),
           ref=_np_sample_weights_rebuilt, dtypes=DTYPES,
           sample_inputs=sample_sample_weights_backward,
           error_inputs=errors_sample_weights_backward,
           out="ops.aten._embedding_bag_per_sample_weights_backward"),
]
