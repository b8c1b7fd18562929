"""OpInfo entries for `aten/native/shape/combine.py` (meshgrid, broadcast_tensors,
cartesian_prod, combinations, block_diag, kron) and `aten/native/shape/resize.py` (resize_,
resize_as_, narrow_copy). References are NumPy's meshgrid, broadcast_arrays, kron, ...
"""
import itertools

import numpy as np

import glasstorch as gt
from glasstorch.c10.dtype import from_numpy_dtype
from glasstorch.c10.promotion import result_type

from ..core import ErrorInput, OpInfo, SampleInput, make_tensor, tensors
from ..convert import numpy_dtype
from .db_join import promoted


class _Operand:
    """An array as torch's promotion sees it (dtype, 0-dim or not), for the references."""

    def __init__(self, array) -> None:
        self.dtype = from_numpy_dtype(array.dtype)
        self.ndim = array.ndim

    def dim(self) -> int:
        return self.ndim


def _x(*shape, dtype=gt.float32, seed=0):
    return make_tensor(shape, dtype, seed=seed)


# ----- meshgrid, broadcast_tensors, cartesian_prod ------------------------------------
def sample_meshgrid(dtype):
    for x in tensors(dtype, ((), (0,), (5,))):
        yield SampleInput([x, _x(3, dtype=dtype, seed=1)])
    yield SampleInput([_x(2, dtype=dtype), _x(3, dtype=dtype), _x(dtype=dtype)])
    yield SampleInput([_x(4, dtype=dtype)])


def sample_meshgrid_indexing(dtype):
    for sample in sample_meshgrid(dtype):
        for indexing in ("ij", "xy"):
            yield SampleInput(*sample.args, indexing=indexing)


def _meshgrid(arrays, indexing="ij"):
    return list(np.meshgrid(*[a.reshape(-1) for a in arrays], indexing=indexing))


def errors_meshgrid():
    yield ErrorInput(SampleInput([]), RuntimeError, r"^meshgrid expects a non-empty TensorList$")
    yield ErrorInput(SampleInput([_x(2), _x(2, dtype=gt.float64)]), RuntimeError,
                     r"^meshgrid expects all tensors to have the same dtype$")


def errors_meshgrid_indexing():
    yield ErrorInput(SampleInput([_x(2), _x(3)], indexing="foo"), RuntimeError,
                     r"^torch\.meshgrid: indexing must be one of \"xy\" or \"ij\", but "
                     r"received: foo$")


# torch.broadcast_tensors, cartesian_prod and block_diag are variadic Python functions
# over the operators' tensor lists (tests/test_join.py checks those): the entries call
# the operators, which take the list, so every variant agrees on the samples.
def sample_broadcast_tensors(dtype):
    yield SampleInput([_x(3, dtype=dtype), _x(2, 1, dtype=dtype)])
    yield SampleInput([_x(2, 3, dtype=dtype), _x(dtype=gt.float64), _x(1, 3, dtype=dtype)])
    yield SampleInput([_x(4, 0, 2, dtype=dtype)])
    yield SampleInput([])


def errors_broadcast_tensors():
    yield ErrorInput(SampleInput([_x(3), _x(2)]), RuntimeError,
                     r"^The size of tensor a \(3\) must match the size of tensor b \(2\) at "
                     r"non-singleton dimension 0$")


def sample_cartesian_prod(dtype):
    yield SampleInput([_x(3, dtype=dtype), _x(2, dtype=dtype, seed=1)])
    yield SampleInput([_x(2, dtype=dtype), _x(0, dtype=dtype), _x(2, dtype=dtype)])
    yield SampleInput([_x(2, dtype=dtype), _x(3, dtype=dtype), _x(2, dtype=dtype, seed=2)])
    yield SampleInput([_x(4, dtype=dtype)])


def _cartesian_prod(arrays):
    if len(arrays) == 1:
        return arrays[0]
    rows = list(itertools.product(*[a.tolist() for a in arrays]))
    return np.array(rows, dtype=arrays[0].dtype).reshape(len(rows), len(arrays))


def errors_cartesian_prod():
    yield ErrorInput(SampleInput([_x(2, 2)]), RuntimeError,
                     r"^Expect a 1D vector, but got shape \[2, 2\]$")


# ----- combinations -------------------------------------------------------------------
def sample_combinations(dtype):
    for x in tensors(dtype, ((0,), (5,))):
        yield SampleInput(x)
        yield SampleInput(x, 3, True)
        yield SampleInput(x, 1)
        yield SampleInput(x, 0)
    yield SampleInput(_x(3, dtype=dtype), 4)


def _combinations(a, r=2, with_replacement=False):
    if r == 0:
        return np.empty((0,), a.dtype)
    pick = itertools.combinations_with_replacement if with_replacement else \
        itertools.combinations
    rows = list(pick(a.tolist(), r))
    return np.array(rows, dtype=a.dtype).reshape(len(rows), r)


def errors_combinations():
    yield ErrorInput(SampleInput(_x(2, 2)), RuntimeError,
                     r"^Expect a 1D vector, but got shape \[2, 2\]$")
    yield ErrorInput(SampleInput(_x(3), -1), RuntimeError,
                     r"^Expect a non-negative number, but got -1$")


# ----- block_diag, kron ---------------------------------------------------------------
def sample_block_diag(dtype):
    yield SampleInput([_x(2, 3, dtype=dtype), _x(dtype=dtype), _x(2, dtype=dtype)])
    yield SampleInput([_x(2, 2, dtype=dtype).t(), _x(1, 2, dtype=gt.int64),
                       _x(dtype=gt.float64)])
    yield SampleInput([_x(2, 0, dtype=dtype), _x(0, 3, dtype=dtype)])
    yield SampleInput([_x(3, dtype=dtype)])


def _block_diag(arrays):
    if not arrays:
        return np.empty((1, 0), np.float32)
    dtype = numpy_dtype(result_type(*[_Operand(a) for a in arrays]))
    blocks = [a.reshape(1, -1) if a.ndim < 2 else a for a in arrays]
    rows, columns = sum(b.shape[0] for b in blocks), sum(b.shape[1] for b in blocks)
    result = np.zeros((rows, columns), dtype)
    row = column = 0
    for b in blocks:
        result[row:row + b.shape[0], column:column + b.shape[1]] = b
        row, column = row + b.shape[0], column + b.shape[1]
    return result


def errors_block_diag():
    yield ErrorInput(SampleInput([_x(2, 2, 2)]), RuntimeError,
                     r"^torch\.block_diag: Input tensors must have 2 or fewer dimensions\. "
                     r"Input 0 has 3 dimensions$")


def sample_kron(dtype):
    for x in tensors(dtype, ((), (0,), (3,), (2, 3), (1, 3, 1))):
        if x.is_contiguous() or x.dim() < 2:    # see errors_kron
            yield SampleInput(x, _x(2, 2, dtype=dtype, seed=1))
    yield SampleInput(_x(2, 3, dtype=dtype), _x(3, dtype=gt.float64))


def errors_kron():
    """torch views its product of the interleaved inputs as the result; for a transposed
    matrix that product is laid out so that no view can do it."""
    yield ErrorInput(SampleInput(_x(3, 2).t(), _x(2, 2)), RuntimeError,
                     r"^view size is not compatible with input tensor's size and stride")


def _kron(a, b):
    dtype = promoted(a, b)
    return np.kron(a.astype(dtype), b.astype(dtype)).astype(dtype)


# ----- resize_, resize_as_, narrow_copy -----------------------------------------------
def sample_resize(dtype):
    for x in tensors(dtype, ((5,), (3, 4), (2, 3, 4))):
        x = x.clone()           # resize_ writes its input's geometry
        yield SampleInput(x, (x.numel() // 2,))
        yield SampleInput(x.clone(), (1,) + tuple(x.shape))
    yield SampleInput(_x(3, 4, 5, dtype=dtype), (2, 3, 2, 2), memory_format=gt.channels_last)


def _resize(a, size, memory_format=None):
    """The leading elements in memory order (resize_ keeps the storage, not the order
    of the indices), laid out in the new size row-major or channels-last."""
    flat = a.ravel(order="K")[:int(np.prod(size))].copy()
    if memory_format is not gt.channels_last:
        return flat.reshape(size)
    batch, channels, height, width = size
    return flat.reshape(batch, height, width, channels).transpose(0, 3, 1, 2)


def errors_resize():
    yield ErrorInput(SampleInput(_x(2, 3), (2, -3)), RuntimeError,
                     r"^numel: integer multiplication overflow$")
    yield ErrorInput(SampleInput(_x(6), (2, 3), memory_format=gt.channels_last), RuntimeError,
                     r"^required rank 4 tensor to use channels_last format$")
    yield ErrorInput(SampleInput(_x(6), (2, 3), memory_format=gt.preserve_format),
                     RuntimeError, r"^Unsupported memory formatPreserve$")


def sample_resize_as(dtype):
    for x in tensors(dtype, ((5,), (3, 4))):
        yield SampleInput(x.clone(), _x(2, 2, dtype=gt.float64))
    channels_last = _x(1, 2, 2, 2).contiguous(memory_format=gt.channels_last)
    yield SampleInput(_x(8, dtype=dtype), channels_last, memory_format=gt.preserve_format)


def _resize_as(a, template, memory_format=None):
    channels_last = memory_format is gt.preserve_format and template.ndim == 4 and \
        template.strides[1] == template.itemsize
    return _resize(a, template.shape, gt.channels_last if channels_last else None)


def sample_narrow_copy(dtype):
    for x in tensors(dtype):
        if x.dim() and x.shape[0]:
            yield SampleInput(x, 0, 0, 1)
            yield SampleInput(x, -1, -1, 1) if x.shape[-1] else SampleInput(x, -1, 0, 0)


def _narrow_copy(a, dim, start, length):
    dim = dim % a.ndim
    start = start + a.shape[dim] if start < 0 else start
    return a[(slice(None),) * dim + (slice(start, start + length),)].copy()


def errors_narrow_copy():
    x = _x(2, 3)
    yield ErrorInput(SampleInput(x, 1, 4, 1), IndexError,
                     r"^start out of range \(expected to be in range of \[-3, 3\], but got 4\)$")
    yield ErrorInput(SampleInput(x, 1, 2, 2), RuntimeError,
                     r"^start \(2\) \+ length \(2\) exceeds dimension size \(3\)\.$")
    yield ErrorInput(SampleInput(_x(), 0, 0, 1), RuntimeError,
                     r"^narrow\(\) cannot be applied to a 0-dim tensor\.$")


OPS = [
    OpInfo("meshgrid", variants=("meshgrid",), ref=_meshgrid, sample_inputs=sample_meshgrid,
           error_inputs=errors_meshgrid),
    OpInfo("meshgrid.indexing", variants=("meshgrid",), ref=_meshgrid,
           sample_inputs=sample_meshgrid_indexing, error_inputs=errors_meshgrid_indexing),
    OpInfo("broadcast_tensors", variants=("ops.aten.broadcast_tensors",),
           ref=lambda arrays: list(np.broadcast_arrays(*arrays)),
           sample_inputs=sample_broadcast_tensors, error_inputs=errors_broadcast_tensors),
    OpInfo("cartesian_prod", variants=("ops.aten.cartesian_prod",), ref=_cartesian_prod,
           sample_inputs=sample_cartesian_prod, error_inputs=errors_cartesian_prod),
    OpInfo("combinations", variants=("combinations",), ref=_combinations,
           sample_inputs=sample_combinations, error_inputs=errors_combinations),
    OpInfo("block_diag", variants=("ops.aten.block_diag",), ref=_block_diag,
           sample_inputs=sample_block_diag, error_inputs=errors_block_diag,
           out="ops.aten.block_diag.out"),
    OpInfo("kron", variants=("kron", "Tensor.kron"), ref=_kron, sample_inputs=sample_kron,
           error_inputs=errors_kron, out="kron"),
    OpInfo("resize_", variants=("Tensor.resize_",), ref=_resize, sample_inputs=sample_resize,
           error_inputs=errors_resize, mutates_input=True, inplace_view=True,
           layout_sensitive=True),
    OpInfo("resize_as_", variants=("Tensor.resize_as_", "resize_as_"), ref=_resize_as,
           sample_inputs=sample_resize_as, mutates_input=True, inplace_view=True,
           layout_sensitive=True),
    OpInfo("narrow_copy", variants=("narrow_copy", "Tensor.narrow_copy"), ref=_narrow_copy,
           sample_inputs=sample_narrow_copy, error_inputs=errors_narrow_copy,
           out="narrow_copy", out_warns_on_resize=False),
]
