"""OpInfo entries for embeddings (`aten/native/nn/embedding.py`): embedding, its gradient
embedding_dense_backward (embedding_backward reaches it), embedding_renorm_ and one_hot."""
import numpy as np
import pytest

import glasstorch as gt

from ..core import FLOATING, ErrorInput, OpInfo, SampleInput, make_tensor

INDEX_SHAPES = ((4,), (2, 3), (), (0,), (3, 0, 2))


# ----- references --------------------------------------------------------------------
def _np_embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    return weight[indices]


def _np_dense_backward(grad, indices, num_weights, padding_idx, scale_grad_by_freq):
    flat = indices.reshape(-1)
    rows = grad.reshape(flat.size, grad.shape[-1]).astype(np.float64)
    total = np.zeros((num_weights, rows.shape[1]))
    np.add.at(total, flat, rows)
    if scale_grad_by_freq:
        counts = np.bincount(flat, minlength=num_weights)
        total /= np.maximum(counts, 1)[:, None]
    if padding_idx >= 0:
        total[padding_idx] = 0
    return total.astype(grad.dtype)


def _np_renorm(weight, indices, max_norm, norm_type):
    result = weight.astype(np.float64)
    for row in np.unique(indices):
        norm = np.linalg.norm(result[row], ord=norm_type)
        if norm > max_norm:
            result[row] *= max_norm / (norm + 1e-7)
    return result.astype(weight.dtype)


def _np_one_hot(x, num_classes=-1):
    if num_classes == -1:
        num_classes = int(x.max()) + 1
    return (x[..., None] == np.arange(num_classes)).astype(np.int64)


# ----- samples -----------------------------------------------------------------------
def _indices(shape, rows, dtype=gt.int64, seed=0):
    return make_tensor(shape, dtype, low=0, high=rows, seed=seed)


def sample_embedding(dtype):
    weight = make_tensor((6, 3), dtype)
    for shape in INDEX_SHAPES:
        yield SampleInput(weight, _indices(shape, 6))
    yield SampleInput(weight, _indices((5,), 6, gt.int32), 2)
    yield SampleInput(make_tensor((6, 3), dtype, "transposed"), _indices((2, 2), 6), 1, True)
    yield SampleInput(make_tensor((6, 3), dtype, "strided"), make_tensor((4,), gt.int64,
                                                                         "strided", low=0,
                                                                         high=6))


def errors_embedding():
    weight = make_tensor((5, 3), gt.float32)
    yield ErrorInput(SampleInput(weight, gt.tensor([1., 2.])), RuntimeError,
                     r"^Expected tensor for argument #1 'indices' to have one of the following "
                     r"scalar types: Long, Int; but got torch\.FloatTensor instead \(while "
                     r"checking arguments for embedding\)$")
    yield ErrorInput(SampleInput(make_tensor((5,), gt.float32), gt.tensor([1])), RuntimeError,
                     r"^'weight' must be 2-D$")
    yield ErrorInput(SampleInput(weight, gt.tensor([1, 5])), IndexError,
                     r"^index out of range in self$")
    yield ErrorInput(SampleInput(weight, gt.tensor([-1])), IndexError,
                     r"^index out of range in self$")


def sample_dense_backward(dtype):
    for shape in INDEX_SHAPES:
        indices = _indices(shape, 6)
        grad = make_tensor(tuple(shape) + (3,), dtype, seed=1)
        yield SampleInput(grad, indices, 6, -1, False)
        yield SampleInput(grad, indices, 6, 2, True)
    repeated = gt.tensor([[1, 1, 4], [4, 1, 0]])
    yield SampleInput(make_tensor((2, 3, 5), dtype, seed=2), repeated, 7, 4, True)
    yield SampleInput(make_tensor((2, 3, 5), dtype, "transposed", seed=2), repeated, 7, -1,
                      False)


def sample_renorm(dtype):
    for norm_type in (2.0, 1.0, 3.5):
        weight = make_tensor((6, 4), dtype, low=-2, high=2)
        yield SampleInput(weight, gt.tensor([0, 2, 2, 5]), 1.5, norm_type)
    yield SampleInput(make_tensor((3, 2), dtype), gt.tensor([[0, 1]], dtype=gt.int32), 100.0,
                      2.0)


def sample_one_hot(dtype):
    yield SampleInput(gt.tensor([0, 2, 1, 2]))
    yield SampleInput(gt.tensor([[0, 3], [1, 1]]), 5)
    yield SampleInput(gt.tensor(2), 3)
    yield SampleInput(gt.tensor([], dtype=gt.int64), 3)
    yield SampleInput(_indices((3, 0, 2), 4), 4)


def errors_one_hot():
    yield ErrorInput(SampleInput(gt.tensor([1, -2])), RuntimeError,
                     r"^Class values must be non-negative\.$")
    yield ErrorInput(SampleInput(gt.tensor([1, 2]), 2), RuntimeError,
                     r"^Class values must be smaller than num_classes\.$")
    yield ErrorInput(SampleInput(gt.tensor([1., 2.]), 3), RuntimeError,
                     r"^one_hot is only applicable to index tensor of type LongTensor\.$")
    yield ErrorInput(SampleInput(gt.tensor([1, 2], dtype=gt.int32), 3), RuntimeError,
                     r"^one_hot is only applicable to index tensor of type LongTensor\.$")
    yield ErrorInput(SampleInput(gt.tensor([], dtype=gt.int64)), RuntimeError,
                     r"^Can not infer total number of classes from empty tensor\.$")


OPS = [
    OpInfo("embedding", variants=("embedding",), ref=_np_embedding, dtypes=FLOATING,
           sample_inputs=sample_embedding, error_inputs=errors_embedding),
    OpInfo("embedding_dense_backward", variants=("ops.aten.embedding_dense_backward",),
           ref=_np_dense_backward, dtypes=FLOATING, sample_inputs=sample_dense_backward,
           covers=("embedding_backward",)),
    OpInfo("embedding_renorm_", variants=("embedding_renorm_",), ref=_np_renorm,
           dtypes=FLOATING, sample_inputs=sample_renorm, mutates_input=True),
    OpInfo("one_hot", variants=("nn.functional.one_hot",), ref=_np_one_hot,
           dtypes=(gt.int64,), sample_inputs=sample_one_hot, error_inputs=errors_one_hot,
           marks={"test_meta": pytest.mark.skip(reason=(
               "one_hot without num_classes reads the largest value: torch's meta raises "
               "too (Tensor.item()), checked by test_errors_on_meta_match_torch"))}),
]
