"""OpInfo entries for advanced indexing and masks (`aten/native/indexing/advanced.py`, `masked.py`):
index, index_put, take, put, take_along_dim, masked_fill, masked_scatter, masked_select,
nonzero, nonzero_numpy, argwhere.

References are written element by element (Python loops over small samples), so they
share nothing with the kernels but NumPy's arithmetic.
"""
import itertools

import numpy as np
import pytest

import glasstorch as gt

from ..core import (ErrorInput, OpInfo, SampleInput, make_tensor,
                   tensors)

NO_META = "data-dependent result shape: torch refuses meta tensors too"


def writable(dtype, shapes=((5,), (3, 4), (2, 3, 4))):
    """Standard tensors of some shapes that an in-place op may write (no stride-0 dims)."""
    for x in tensors(dtype, shapes):
        if not any(st == 0 and n > 1 for n, st in zip(x.shape, x.stride())):
            yield x


def long(values, dtype=gt.int64):
    return gt.tensor(values, dtype=dtype)


def cast_like(value, a: np.ndarray):
    """A Python number as torch converts a Scalar to a's dtype (floats truncate)."""
    return np.array(value).astype(a.dtype)


def _positions(index, size: int) -> list:
    return [int(i) % size if size else int(i) for i in np.ravel(index)]


# ----- index / index_put -------------------------------------------------------------
def ref_index(a, indices):
    where = tuple(slice(None) if i is None else
                  (i.astype(bool) if i.dtype == np.uint8 else i) for i in indices)
    return np.array(a[where])


def ref_index_put(a, indices, values, accumulate=False):
    result = np.array(a)
    where = tuple(slice(None) if i is None else (i.astype(bool) if i.dtype == np.uint8 else i)
                  for i in indices)
    if accumulate:
        np.add.at(result, where, values)
    else:
        result[where] = values
    return result


def sample_index(dtype):
    for x in tensors(dtype, ((5,), (3, 4), (2, 3, 4))):
        n = x.shape[0]
        yield SampleInput(x, [long([0, n - 1, -1, 0])])
        yield SampleInput(x, [long([[1], [0]])])
        yield SampleInput(x, [make_tensor(x.shape[:1], gt.bool, seed=3)])
        if x.dim() >= 2:
            yield SampleInput(x, [None, long([2, 0, -3])])
            yield SampleInput(x, [long([1, 0]), long([[0], [2], [1]])])
            yield SampleInput(x, [long([1, 0], gt.int32), None])
            yield SampleInput(x, [make_tensor(x.shape[:2], gt.bool, seed=4)])
        if x.dim() == 3:
            yield SampleInput(x, [long([1, 0]), None, long([3, 0])])      # separated
            yield SampleInput(x, [None, long([[0, 2]]), long([[1], [3]])])
    yield SampleInput(make_tensor((0, 3), dtype), [None, long([2, 0])])
    yield SampleInput(make_tensor((3, 0), dtype), [long([], gt.int64)])


def sample_index_put(dtype):
    for x in writable(dtype):
        n = x.shape[0]
        rest = tuple(x.shape[1:])
        values = make_tensor((3,) + rest, dtype, seed=5)
        yield SampleInput(x, (long([0, n - 1, 1]),), values)
        yield SampleInput(x, (long([0, 0, -1]),), values, True)
        yield SampleInput(x, (long([1, 1]),), make_tensor(rest, dtype, seed=6), True)
        yield SampleInput(x, (make_tensor((n,), gt.bool, seed=3),), make_tensor((), dtype))
        if x.dim() >= 2:
            yield SampleInput(x, (long([[0], [n - 1]]), long([[2, 0]])),
                              make_tensor((2, 2) + rest[1:], dtype, seed=7), True)
            yield SampleInput(x, (long([0, 1]), long([1, 1])), make_tensor((), dtype), True)


def errors_index():
    x = make_tensor((2, 3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, [long([0]), long([0]), long([0]), long([0])]), IndexError,
                     r"^too many indices for tensor of dimension 3 \(got 4\)$")
    yield ErrorInput(SampleInput(x, [gt.tensor([0.5])]), IndexError,
                     r"^tensors used as indices must be long, int, byte or bool tensors$")
    yield ErrorInput(SampleInput(x, [long([0, 1]), long([0, 1, 2])]), IndexError,
                     r"^shape mismatch: indexing tensors could not be broadcast together with "
                     r"shapes \[2\], \[3\]$",
                     known_bug_on_meta="indexing owner: torch's meta function words a "
                                       "broadcast failure its own way")
    yield ErrorInput(SampleInput(x, [gt.ones(3, dtype=gt.bool)]), IndexError,
                     r"^The shape of the mask \[3\] at index 0 does not match the shape of the "
                     r"indexed tensor \[2, 3, 4\] at index 0$")
    yield ErrorInput(SampleInput(x, [None, long([3])]), IndexError,
                     r"^index 3 is out of bounds for dimension 0 with size 3$")
    yield ErrorInput(SampleInput(x, [None, None, long([0, -5])]), IndexError,
                     r"^index -5 is out of bounds for dimension 0 with size 4$")


def errors_index_put():
    x = make_tensor((3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, (long([0, 5]),), gt.tensor(1.0)), IndexError,
                     r"^index 5 is out of bounds for dimension 0 with size 3$")
    yield ErrorInput(SampleInput(x, (long([0, 2]),), gt.ones(3)), RuntimeError,
                     r"^shape mismatch: value tensor of shape \[3\] cannot be broadcast to "
                     r"indexing result of shape \[2, 4\]$")
    yield ErrorInput(SampleInput(x, (long([0, 2]),), gt.ones(4, dtype=gt.float64)), RuntimeError,
                     r"^Index put requires the source and destination dtypes match, got Float "
                     r"for the destination and Double for the source\.$")


# ----- take / put / take_along_dim ---------------------------------------------------
def ref_take(a, index):
    flat = np.ravel(a)
    return np.array([flat[i] for i in _positions(index, flat.size)],
                    dtype=a.dtype).reshape(np.shape(index))


def ref_put(a, index, source, accumulate=False):
    result = np.array(a, order="C")
    flat = result.reshape(-1)                 # a view of the row-major copy
    for i, v in zip(_positions(index, flat.size), np.ravel(source)):
        flat[i] = flat[i] + v if accumulate else v
    return result


def sample_take(dtype):
    for x in tensors(dtype, ((), (5,), (3, 4), (2, 3, 4))):
        n = x.numel()
        yield SampleInput(x, long([0, n - 1, -n, 0]))
        yield SampleInput(x, long([[0, -1], [n // 2, 0]]).t())
    yield SampleInput(make_tensor((0,), dtype), long([], gt.int64))


def sample_put(dtype):
    for x in writable(dtype, ((), (5,), (3, 4), (2, 3, 4))):
        n = x.numel()
        yield SampleInput(x, long([0, n - 1, -1]), make_tensor((3,), dtype, seed=8))
        yield SampleInput(x, long([[0, 0], [n // 2, -n]]), make_tensor((2, 2), dtype, seed=9),
                          True)


def errors_take():
    x = make_tensor((3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, long([12])), IndexError,
                     r"^out of range: tried to access index 12 on a tensor of 12 elements\.$")
    yield ErrorInput(SampleInput(x, long([0], gt.int32)), RuntimeError,
                     r"^take\(\): Expected a long tensor for index, but got Int$")
    yield ErrorInput(SampleInput(make_tensor((0,), gt.float32), long([0])), IndexError,
                     r"^take\(\): tried to take from an empty tensor$")


def errors_put():
    x = make_tensor((3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, long([-13]), gt.ones(1)), IndexError,
                     r"^out of range: tried to access index -13 on a tensor of 12 elements\.$")
    yield ErrorInput(SampleInput(x, long([1, 2]), gt.ones(3)), IndexError,
                     r"^put_\(\): Expected source and index to have the same number of "
                     r"elements, but got source\.numel\(\) = 3, index\.numel\(\) = 2$")
    yield ErrorInput(SampleInput(x, long([1, 2]), gt.ones(2, dtype=gt.float64)), RuntimeError,
                     r"^put_\(\): self and source expected to have the same dtype, but got "
                     r"self\.dtype = Float and source\.dtype = Double$")


def ref_take_along_dim(a, indices, dim=None):
    if dim is None:
        return ref_take(a, np.ravel(indices)).reshape(-1)
    d = dim % a.ndim
    shape = np.broadcast_shapes(a.shape[:d] + (1,) + a.shape[d + 1:],
                                indices.shape[:d] + (1,) + indices.shape[d + 1:])
    source = np.broadcast_to(a, shape[:d] + (a.shape[d],) + shape[d + 1:])
    where = np.broadcast_to(indices, shape[:d] + (indices.shape[d],) + shape[d + 1:])
    result = np.empty(where.shape, a.dtype)
    for position in itertools.product(*(range(n) for n in where.shape)):
        at = list(position)
        at[d] = int(where[position]) % a.shape[d]
        result[position] = source[tuple(at)]
    return result


def sample_take_along_dim(dtype):
    for x in tensors(dtype, ((5,), (3, 4), (2, 3, 4))):
        yield SampleInput(x, long([0, -1, 2]).reshape((3,) + (1,) * (x.dim() - 1)), 0)
        yield SampleInput(x, long([[1], [0]]).reshape(-1)[: x.shape[-1]].reshape(
            (1,) * (x.dim() - 1) + (-1,)), -1)
        if x.is_contiguous():                # torch flattens with view(-1)
            yield SampleInput(x, long([1, 0, 4, 7]) % x.numel(), None)
    yield SampleInput(make_tensor((3, 1), dtype), long([[0, 1, 2, -1]]), 0)


def errors_take_along_dim():
    x = make_tensor((2, 3), gt.float32)
    yield ErrorInput(SampleInput(x, gt.tensor([[0.0]]), 0), RuntimeError,
                     r"^torch\.take_along_dim\(\): dtype of indices should be Long but got "
                     r"Float$")
    yield ErrorInput(SampleInput(x, long([0]), 0), RuntimeError,
                     r"^torch\.take_along_dim\(\): input and indices should have the same number "
                     r"of dimensions, but got 2 dimensions for input, and 1 dimensions for "
                     r"indices$")
    yield ErrorInput(SampleInput(x, long([[7]])), RuntimeError,
                     r"^index 7 is out of bounds for dimension 0 with size 6$")
    yield ErrorInput(SampleInput(x.t(), long([[0]])), RuntimeError,
                     r"^view size is not compatible with input tensor's size and stride \(at "
                     r"least one dimension spans across two contiguous subspaces\)\. Use "
                     r"\.reshape\(\.\.\.\) instead\.$")


# ----- masks -------------------------------------------------------------------------
def ref_masked_fill(a, mask, value):
    shape = np.broadcast_shapes(a.shape, mask.shape)
    fill = np.asarray(value).astype(a.dtype) if isinstance(value, np.ndarray) else \
        cast_like(value, a)
    return np.where(np.broadcast_to(mask, shape), fill, np.broadcast_to(a, shape))


def ref_masked_scatter(a, mask, source):
    shape = np.broadcast_shapes(a.shape, mask.shape)
    result = np.array(np.broadcast_to(a, shape))
    taken = iter(np.ravel(source))
    for position in itertools.product(*(range(n) for n in shape)):
        if np.broadcast_to(mask, shape)[position]:
            result[position] = next(taken)
    return result


def ref_masked_select(a, mask):
    shape = np.broadcast_shapes(a.shape, mask.shape)
    return np.array(np.broadcast_to(a, shape)[np.broadcast_to(mask, shape)]).reshape(-1)


def _masks(x):
    yield make_tensor(tuple(x.shape), gt.bool, seed=11)
    if x.dim():
        yield make_tensor(tuple(x.shape[-1:]), gt.bool, seed=12)       # broadcast
        yield make_tensor((), gt.bool, seed=2)


def sample_masked_fill(dtype):
    value = {gt.bool: True}.get(dtype, 3)
    for x in writable(dtype, ((), (5,), (3, 4), (2, 3, 4))):
        for mask in _masks(x):
            yield SampleInput(x, mask, value)
    x = make_tensor((3, 4), dtype)
    yield SampleInput(x, make_tensor((2, 3, 4), gt.bool, seed=5), value)   # result grows
    if dtype.is_floating_point or dtype.is_complex:
        yield SampleInput(x, make_tensor((3, 4), gt.bool, seed=6), 2.5)


def sample_masked_fill_tensor(dtype):
    for sample in sample_masked_fill(dtype):
        yield SampleInput(sample.args[0], sample.args[1], make_tensor((), dtype, seed=13))
    x = make_tensor((3, 4), dtype)
    yield SampleInput(x, make_tensor((3, 4), gt.bool, seed=6), gt.tensor(2.0))


def sample_masked_scatter(dtype):
    for x in writable(dtype, ((), (5,), (3, 4), (2, 3, 4))):
        for mask in _masks(x):
            yield SampleInput(x, mask, make_tensor((30,), dtype, seed=14))
    yield SampleInput(make_tensor((4,), dtype), make_tensor((3, 4), gt.bool, seed=5),
                      make_tensor((3, 5), dtype, seed=15))


def sample_masked_select(dtype):
    for x in tensors(dtype, ((), (0,), (5,), (3, 4), (2, 3, 4))):
        for mask in _masks(x):
            yield SampleInput(x, mask)
    yield SampleInput(make_tensor((4,), dtype), make_tensor((3, 4), gt.bool, seed=5))


def errors_masked_fill():
    x = make_tensor((3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, gt.zeros(3, 4), 1.0), RuntimeError,
                     r"^masked_fill_ only supports boolean masks, but got mask with dtype float$")
    yield ErrorInput(SampleInput(x, gt.zeros(3, 4, dtype=gt.uint8), 1.0), RuntimeError,
                     r"^masked_fill_ only supports boolean masks, but got mask with dtype "
                     r"unsigned char$")
    yield ErrorInput(SampleInput(x, gt.zeros(3, dtype=gt.bool), 1.0), RuntimeError,
                     r"^The size of tensor a \(3\) must match the size of tensor b \(4\) at "
                     r"non-singleton dimension 1$",
                     known_bug_on_meta="indexing owner: torch's meta function words a "
                                       "broadcast failure its own way ('Attempting to "
                                       "broadcast a dimension of length 4 at -1! ...')")
    yield ErrorInput(SampleInput(make_tensor((2,), gt.int8), gt.ones(2, dtype=gt.bool), 300),
                     RuntimeError, r"^value cannot be converted to type int8_t without overflow$")


def errors_masked_fill_tensor():
    x = make_tensor((3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, gt.zeros(3, 4, dtype=gt.bool), gt.ones(1)), RuntimeError,
                     r"^masked_fill_ only supports a 0-dimensional value tensor, but got tensor "
                     r"with 1 dimension\(s\)\.$")


def errors_masked_scatter():
    x = make_tensor((3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, gt.zeros(3, 4), x), RuntimeError,
                     r"^masked_scatter_ only supports boolean masks, but got mask with dtype "
                     r"Float$")
    yield ErrorInput(SampleInput(x, gt.ones(3, 4, dtype=gt.bool), gt.ones(3, 4, dtype=gt.float64)),
                     RuntimeError, r"^masked_scatter: expected self and source to have same "
                                   r"dtypes but gotFloat and Double$")
    yield ErrorInput(SampleInput(x, gt.ones(3, 4, dtype=gt.bool), gt.ones(2)), RuntimeError,
                     r"^Number of elements of source < number of ones in mask$")


def errors_masked_select():
    x = make_tensor((3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, gt.zeros(3, 4)), RuntimeError,
                     r"^masked_select: expected BoolTensor for mask$")
    yield ErrorInput(SampleInput(x, gt.zeros(3, dtype=gt.bool)), RuntimeError,
                     r"^The size of tensor a \(3\) must match the size of tensor b \(4\) at "
                     r"non-singleton dimension 1$")


# ----- nonzero -----------------------------------------------------------------------
def ref_nonzero(a):
    if a.ndim == 0:
        return np.zeros((int(a != 0), 0), np.int64)
    return np.argwhere(a).astype(np.int64)


def ref_nonzero_numpy(a):
    return [i.astype(np.int64) for i in np.nonzero(np.atleast_1d(a))]


def sample_nonzero(dtype):
    for x in tensors(dtype, ((), (0,), (5,), (3, 4), (2, 3, 4))):
        yield SampleInput(x)
    yield SampleInput(gt.zeros((3, 2), dtype=dtype))


def ref_nonzero_static(a, size, fill_value=-1):
    found = ref_nonzero(a)[:size]
    padding = np.full((size - len(found), a.ndim), fill_value, np.int64)
    return np.concatenate([found, padding]) if a.ndim else np.zeros((size, 0), np.int64)


def sample_nonzero_static(dtype):
    for sample in sample_nonzero(dtype):
        for size in (0, 2, 30):
            yield SampleInput(sample.input, size=size)
    yield SampleInput(make_tensor((3, 4), dtype), size=5, fill_value=7)


def errors_nonzero_static():
    yield ErrorInput(SampleInput(make_tensor((3,), gt.float32), size=-1), RuntimeError,
                     r"^nonzero_static: 'size' must be an non-negative integer$",
                     known_bug_on_meta="indexing owner: torch's meta function fails later, "
                                       "making a tensor of negative size")


_META = {"test_meta": pytest.mark.skip(reason=NO_META)}

OPS = [
    OpInfo("index.Tensor", variants=("ops.aten.index",), ref=ref_index,
           sample_inputs=sample_index, error_inputs=errors_index, out="ops.aten.index",
           marks=_META),
    OpInfo("index_put", variants=("index_put", "Tensor.index_put"), ref=ref_index_put,
           sample_inputs=sample_index_put, error_inputs=errors_index_put,
           inplace="Tensor.index_put_", out="ops.aten.index_put.out", marks=_META),
    OpInfo("take", variants=("take", "Tensor.take"), ref=ref_take, sample_inputs=sample_take,
           error_inputs=errors_take, out="take"),
    OpInfo("put", variants=("put", "Tensor.put"), ref=ref_put, sample_inputs=sample_put,
           error_inputs=errors_put, inplace="Tensor.put_", out="ops.aten.put.out"),
    OpInfo("take_along_dim", variants=("take_along_dim", "Tensor.take_along_dim"),
           ref=ref_take_along_dim, sample_inputs=sample_take_along_dim,
           error_inputs=errors_take_along_dim, out="take_along_dim"),
    OpInfo("masked_fill.Scalar", variants=("masked_fill", "Tensor.masked_fill"),
           ref=ref_masked_fill, sample_inputs=sample_masked_fill, error_inputs=errors_masked_fill,
           inplace="Tensor.masked_fill_", out="ops.aten.masked_fill.Scalar_out"),
    OpInfo("masked_fill.Tensor", variants=("masked_fill", "Tensor.masked_fill"),
           ref=ref_masked_fill, sample_inputs=sample_masked_fill_tensor,
           error_inputs=errors_masked_fill_tensor, inplace="Tensor.masked_fill_",
           out="ops.aten.masked_fill.Tensor_out"),
    OpInfo("masked_scatter", variants=("masked_scatter", "Tensor.masked_scatter"),
           ref=ref_masked_scatter, sample_inputs=sample_masked_scatter,
           error_inputs=errors_masked_scatter, inplace="Tensor.masked_scatter_",
           out="ops.aten.masked_scatter.out"),
    OpInfo("masked_select", variants=("masked_select", "Tensor.masked_select"),
           ref=ref_masked_select, sample_inputs=sample_masked_select,
           error_inputs=errors_masked_select, out="masked_select", marks=_META),
    OpInfo("nonzero", variants=("nonzero", "Tensor.nonzero"), ref=ref_nonzero,
           sample_inputs=sample_nonzero, out="nonzero", marks=_META),
    OpInfo("nonzero_static", variants=("nonzero_static", "Tensor.nonzero_static"),
           ref=ref_nonzero_static, sample_inputs=sample_nonzero_static,
           error_inputs=errors_nonzero_static, out="nonzero_static",
           marks={"test_meta": pytest.mark.skip(reason="torch's meta function lays the "
                                                       "result out by columns, its CPU "
                                                       "kernel by rows")}),
    OpInfo("nonzero_numpy", variants=("ops.aten.nonzero_numpy",), ref=ref_nonzero_numpy,
           sample_inputs=sample_nonzero, marks=_META),
    OpInfo("argwhere", variants=("argwhere", "Tensor.argwhere"), ref=ref_nonzero,
           sample_inputs=sample_nonzero, marks=_META),
]
