"""OpInfo entries for `aten/native/shape/triangular.py` and `aten/native/shape/diagonal.py`:
tril / triu and their indices, diag, diag_embed, diagflat, trace, fill_diagonal_ and
the scatter twins of views (diagonal_scatter, select_scatter, slice_scatter,
as_strided_scatter).

References are NumPy's own `tril`, `diag`, `trace`, ...; the scatter references write
into a copy of the input's whole storage, which is what torch's result holds (see
Note [Scatter copies keep the input's layout] in diagonal.py).
"""
import numpy as np
import pytest

import glasstorch as gt

from ..convert import numpy_dtype
from ..core import (ALL_DTYPES, ErrorInput, OpInfo, SampleInput, make_tensor,
                   tensors)

NOT_BOOL = tuple(d for d in ALL_DTYPES if d is not gt.bool)


def _x(*shape, dtype=gt.float32):
    return make_tensor(shape, dtype)


def _dim_error(dim: int, ndim: int) -> str:
    low, high = (-ndim, ndim - 1) if ndim else (-1, 0)
    return (rf"^Dimension out of range \(expected to be in range of \[{low}, {high}\], "
            rf"but got {dim}\)$")


# ----- tril / triu --------------------------------------------------------------------
def sample_triangle(dtype):
    for x in tensors(dtype):
        if x.dim() >= 2:
            yield SampleInput(x, 1)
            yield SampleInput(x, -1)
    x = make_tensor((3, 4), dtype)
    for diagonal in (0, 5, -5):                             # main; all kept; none kept
        yield SampleInput(x, diagonal)
    yield SampleInput(make_tensor((5, 5), dtype))           # the default diagonal


def _triangle(fn):
    def ref(a, diagonal=0):
        return fn(a, diagonal) if a.size else a.copy()
    return ref


def _triangle_errors(name: str):
    def errors():
        yield ErrorInput(SampleInput(_x(3), 0), RuntimeError,
                         rf"^{name}: input tensor must have at least 2 dimensions$")
        yield ErrorInput(SampleInput(_x(), 0), RuntimeError,
                         rf"^{name}: input tensor must have at least 2 dimensions$")
    return errors


# ----- tril_indices / triu_indices ----------------------------------------------------
def sample_indices(dtype):
    for args in ((3, 3), (3, 4, -1), (4, 3, 2), (0, 0), (3, 4, 10), (3, 4, -10), (1, 5)):
        yield SampleInput(*args, dtype=dtype)
    yield SampleInput(4, 4, 1)


def _indices_ref(numpy_fn):
    def ref(row, col, offset=0, dtype=None):
        rows, cols = numpy_fn(row, offset, col)
        return np.stack([rows, cols]).astype(numpy_dtype(dtype or gt.int64)).reshape(2, -1)
    return ref


def _indices_errors(name: str):
    def errors():
        yield ErrorInput(SampleInput(-1, 4), RuntimeError, r"^row must be non-negative, got-1$")
        yield ErrorInput(SampleInput(3, -4), RuntimeError, r"^col must be non-negative, got-4$")
        yield ErrorInput(SampleInput(3, 3, dtype=gt.float32), NotImplementedError,
                         rf"^\"{name}\" not implemented for 'Float'$")
        yield ErrorInput(SampleInput(3, 3, dtype=gt.int8), NotImplementedError,
                         rf"^\"{name}\" not implemented for 'Char'$")
    return errors


# ----- diag, diag_embed, diagflat -----------------------------------------------------
def sample_diag(dtype):
    for x in tensors(dtype):
        if x.dim() in (1, 2):
            for diagonal in (0, 1, -2, 7):
                yield SampleInput(x, diagonal)
    yield SampleInput(make_tensor((3,), dtype))


def _diag(a, diagonal=0):
    if a.ndim == 1:
        side = a.shape[0] + abs(diagonal)
        result = np.zeros((side, side), a.dtype)
        rows = np.arange(a.shape[0]) + max(-diagonal, 0)
        result[rows, rows + diagonal] = a
        return result
    return np.diagonal(a, diagonal).copy()


def errors_diag():
    yield ErrorInput(SampleInput(_x(2, 3, 4)), RuntimeError,
                     r"^diag\(\): Supports 1D or 2D tensors\. Got 3D$")
    yield ErrorInput(SampleInput(_x()), RuntimeError,
                     r"^diag\(\): Supports 1D or 2D tensors\. Got 0D$")


def sample_diag_embed(dtype):
    for x in tensors(dtype):
        if x.dim():
            yield SampleInput(x)
            yield SampleInput(x, 1, 0, -1)
            yield SampleInput(x, -2, -1, 0)


def _diag_embed(a, offset=0, dim1=-2, dim2=-1):
    ndim = a.ndim + 1
    d1, d2 = dim1 % ndim, dim2 % ndim
    side = a.shape[-1] + abs(offset)
    # Build with the diagonal planes last, then move them where they belong.
    result = np.zeros(a.shape[:-1] + (side, side), a.dtype)
    index = np.arange(a.shape[-1])
    result[..., index + max(-offset, 0), index + max(offset, 0)] = a
    low, high = min(d1, d2), max(d1, d2)
    result = np.moveaxis(result, (-2, -1), (low, high))
    return result if d1 < d2 else np.swapaxes(result, d1, d2)


def errors_diag_embed():
    yield ErrorInput(SampleInput(_x(2, 3), 1, 0, 0), RuntimeError,
                     r"^diagonal dimensions cannot be identical 0, 0$")
    yield ErrorInput(SampleInput(_x(2, 3), 0, 0, 5), IndexError, _dim_error(5, 3))
    yield ErrorInput(SampleInput(_x()), IndexError, _dim_error(-2, 1))


def sample_diagflat(dtype):
    for x in tensors(dtype):
        yield SampleInput(x)
        yield SampleInput(x, -1)


def _diagflat(a, offset=0):
    return _diag(a.reshape(-1), offset)


# ----- trace, fill_diagonal_ -------------------------------------------------------------
def sample_trace(dtype):
    for x in tensors(dtype):
        if x.dim() == 2:
            yield SampleInput(x)
    yield SampleInput(make_tensor((0, 0), dtype))


def _trace(a):
    if a.dtype.kind in "biu":
        return np.asarray(np.trace(a, dtype=np.int64))
    return np.asarray(np.trace(a.astype(np.float64 if a.dtype.kind != "c" else a.dtype))
                      ).astype(a.dtype)


def errors_trace():
    yield ErrorInput(SampleInput(_x(3)), RuntimeError,
                     r"^trace: expected a matrix, but got tensor with dim 1$")
    yield ErrorInput(SampleInput(_x(3, dtype=gt.bool)), NotImplementedError,
                     r"^\"trace\" not implemented for 'Bool'$")


def sample_fill_diagonal(dtype):
    value = True if dtype is gt.bool else 3
    for x in tensors(dtype):
        if x.dim() == 2:
            yield SampleInput(x.clone(), value)
    for shape in ((7, 3), (3, 7), (4, 3), (8, 3)):
        yield SampleInput(make_tensor(shape, dtype), value, True)
        yield SampleInput(make_tensor(shape, dtype, "transposed"), value, True)
    yield SampleInput(make_tensor((3, 3, 3), dtype), value)
    yield SampleInput(make_tensor((8, 3), dtype, "strided"), value, True)


def _fill_diagonal(a, value, wrap=False):
    """torch's arithmetic: the diagonal is one stride (the sum of all strides) from the
    offset; wrapped rows restart every ``width + 1`` rows of dim 0's stride."""
    buffer, stride, start = _buffer_twin(a)
    item = a.dtype.itemsize
    result = _strided_in(buffer, a.dtype, a.shape, stride, start)
    height, width = a.shape[:2]
    size = min(height, width)
    _strided_in(buffer, a.dtype, (size,), (sum(stride),), start)[...] = value
    if wrap and a.ndim == 2 and height > width + 1:
        count = (a.size + width) // (width + 1) - size
        _strided_in(buffer, a.dtype, (count,), (sum(stride),),
                    start + stride[0] * (width + 1) * item)[...] = value
    return result.copy()


def errors_fill_diagonal():
    yield ErrorInput(SampleInput(_x(3), 1), RuntimeError, r"^dimensions must larger than 1$")
    yield ErrorInput(SampleInput(_x(3, 3, 4), 1), RuntimeError,
                     r"^all dimensions of input must be of equal length$")
    yield ErrorInput(SampleInput(_x(3, 3, dtype=gt.int8), 1000), RuntimeError,
                     r"^value cannot be converted to type int8_t without overflow$")


# ----- diagonal_scatter, select_scatter, slice_scatter, as_strided_scatter -----------------
def _src(shape, dtype):
    return make_tensor(shape, dtype, seed=7)


def sample_diagonal_scatter(dtype):
    for x in tensors(dtype):
        if x.dim() >= 2:
            for args in ((), (1,), (-1, 1, 0)):
                yield SampleInput(x, _src(tuple(x.diagonal(*args).shape), dtype), *args)
    x = make_tensor((3, 4), dtype)
    yield SampleInput(x, _src((3,), gt.float64 if dtype is not gt.float64 else gt.int64))


def _storage_copy(a):
    """The input's values in a fresh array with its layout: a writable twin of `a`."""
    return np.array(a, copy=True)


def _diagonal_scatter(a, src, offset=0, dim1=0, dim2=1):
    result = _storage_copy(a)
    planes = np.moveaxis(result, (dim1 % a.ndim, dim2 % a.ndim), (-2, -1))   # a view
    index = np.arange(src.shape[-1])
    planes[..., index + max(-offset, 0), index + max(offset, 0)] = src.astype(a.dtype)
    return result


def _size_error(src, part):
    return (rf"^expected src to have a size equal to the slice of self\. src size = "
            rf"\[{src}\], slice size = \[{part}\]$")


def errors_diagonal_scatter():
    yield ErrorInput(SampleInput(_x(3, 4), _x(2)), RuntimeError, _size_error("2", "3"))
    yield ErrorInput(SampleInput(_x(3, 4), _x(3), 0, 0, 0), RuntimeError,
                     r"^diagonal dimensions cannot be identical 0, 0$")


def sample_select_scatter(dtype):
    for x in tensors(dtype):
        if x.dim() and x.shape[0]:
            yield SampleInput(x, _src(tuple(x.shape[1:]), dtype), 0, -1)
        if x.dim() >= 2 and x.shape[-1]:
            yield SampleInput(x, _src(tuple(x.shape[:-1]), dtype), -1, 0)


def _select_scatter(a, src, dim, index):
    result = _storage_copy(a)
    np.moveaxis(result, dim, 0)[index] = src
    return result


def errors_select_scatter():
    yield ErrorInput(SampleInput(_x(3, 4), _x(3), 0, 1), RuntimeError, _size_error("3", "4"))
    yield ErrorInput(SampleInput(_x(3, 4), _x(4), 0, 5), IndexError,
                     r"^select\(\): index 5 out of range for tensor of size \[3, 4\] at "
                     r"dimension 0$")
    yield ErrorInput(SampleInput(_x(3, 4), _x(4), 2, 0), IndexError, _dim_error(2, 2))
    yield ErrorInput(SampleInput(_x(), _x(), 0, 0), IndexError,
                     r"^select\(\) cannot be applied to a 0-dim tensor\.$")


def sample_slice_scatter(dtype):
    for x in tensors(dtype):
        if not x.dim():
            continue
        for dim, start, end, step in ((0, None, None, 1), (0, 1, None, 1), (-1, 0, -1, 2),
                                      (-1, -3, 10, 1)):
            part = x.narrow(0, 0, x.shape[0])                 # a view to size the source
            size = len(range(*slice(start, end, step).indices(x.shape[dim])))
            shape = list(part.shape)
            shape[dim] = size
            yield SampleInput(x, _src(tuple(shape), dtype), dim, start, end, step)


def _slice_scatter(a, src, dim=0, start=None, end=None, step=1):
    result = _storage_copy(a)
    np.moveaxis(result, dim, 0)[start:end:step] = np.moveaxis(src, dim, 0)
    return result


def errors_slice_scatter():
    yield ErrorInput(SampleInput(_x(3, 4), _x(3, 4), 0, 1), RuntimeError,
                     _size_error("3, 4", "2, 4"))
    yield ErrorInput(SampleInput(_x(3, 4), _x(3, 2), 1, None, None, 0), RuntimeError,
                     r"^slice step must be positive$")


def sample_as_strided_scatter(dtype):
    x = make_tensor((3, 4), dtype)
    yield SampleInput(x, _src((2, 2), dtype), (2, 2), (1, 2))
    yield SampleInput(x, _src((3,), dtype), (3,), (5,), 1)
    yield SampleInput(make_tensor((4, 3), dtype, "transposed"), _src((2, 2), dtype), (2, 2),
                      (1, 2))
    yield SampleInput(make_tensor((3, 4), dtype)[1:], _src((2, 2), dtype), (2, 2), (1, 2))
    yield SampleInput(make_tensor((3, 4), dtype)[1:], _src((2, 2), dtype), (2, 2), (1, 2), 0)
    yield SampleInput(make_tensor((3, 3), dtype, "expanded"), _src((2, 2), dtype), (2, 2),
                      (1, 2))
    yield SampleInput(make_tensor((0,), dtype), _src((0,), dtype), (0,), (1,))


def _buffer_twin(a) -> tuple:
    """A copy of the whole memory `a` views (dense first when `a` overlaps itself, as
    torch's clone does), as a flat byte-for-byte array; and `a`'s strides (in elements)
    and byte offset in it."""
    if 0 in a.strides and a.size > 1:
        a = np.ascontiguousarray(a)
    root = a
    while isinstance(root.base, np.ndarray):
        root = root.base
    buffer = np.array(root, copy=True, order="K").ravel(order="K")
    stride = [s // a.dtype.itemsize for s in a.strides]
    return buffer, stride, a.__array_interface__["data"][0] - root.__array_interface__["data"][0]


def _strided_in(buffer, dtype, shape, stride, start):
    """An ndarray over `buffer` at byte `start`, strides in elements."""
    item = np.dtype(dtype).itemsize
    return np.ndarray(tuple(shape), dtype, buffer, start, tuple(s * item for s in stride))


def _as_strided_scatter(a, src, size, stride, storage_offset=None):
    """Write `src` into a copy of `a`'s whole buffer, at offsets counted in that buffer."""
    buffer, a_stride, start = _buffer_twin(a)
    item = a.dtype.itemsize
    result = _strided_in(buffer, a.dtype, a.shape, a_stride, start)
    offset = start if storage_offset is None else storage_offset * item
    np.copyto(_strided_in(buffer, a.dtype, size, stride, offset), src.astype(a.dtype))
    return result


def errors_as_strided_scatter():
    yield ErrorInput(SampleInput(_x(3, 4), _x(2, 3), (2, 2), (1, 2)), RuntimeError,
                     _size_error("2, 3", "2, 2"))
    yield ErrorInput(SampleInput(_x(3, 4), _x(2, 2), (2, 2), (1, 2), 100), RuntimeError,
                     r"^setStorage: sizes \[2, 2\], strides \[1, 2\], storage offset 100, and "
                     r"itemsize 4 requiring a storage size of 416 are out of bounds for storage "
                     r"of size 48$")


def _entry(name, sample, ref, errors=lambda: (), method=True, **flags):
    function = name.split(".")[0]
    variants = (function, f"Tensor.{function}") if method else (function,)
    return OpInfo(name, variants=variants, sample_inputs=sample, ref=ref,
                  error_inputs=errors, **flags)


OPS = [
    _entry("tril", sample_triangle, _triangle(np.tril), _triangle_errors("tril"), out="tril",
           inplace="Tensor.tril_"),
    _entry("triu", sample_triangle, _triangle(np.triu), _triangle_errors("triu"), out="triu",
           inplace="Tensor.triu_"),
    _entry("tril_indices", sample_indices, _indices_ref(np.tril_indices),
           _indices_errors("tril_indices"), method=False, dtypes=(gt.int64, gt.int32),
           is_factory=True),
    _entry("triu_indices", sample_indices, _indices_ref(np.triu_indices),
           _indices_errors("triu_indices"), method=False, dtypes=(gt.int64, gt.int32),
           is_factory=True),
    _entry("diag", sample_diag, _diag, errors_diag, out="diag"),
    _entry("diag_embed", sample_diag_embed, _diag_embed, errors_diag_embed,
           out="ops.aten.diag_embed.out"),
    _entry("diagflat", sample_diagflat, _diagflat),
    _entry("trace", sample_trace, _trace, errors_trace, dtypes=NOT_BOOL,
           out="ops.aten.trace.out"),
    OpInfo("fill_diagonal_", variants=("Tensor.fill_diagonal_",),
           sample_inputs=sample_fill_diagonal, ref=_fill_diagonal,
           error_inputs=errors_fill_diagonal, mutates_input=True,
           marks={"test_inplace": pytest.mark.skip(
               reason="a wrapped fill_diagonal_ writes twice and bumps the version twice, as "
                      "torch's does (tests/test_triangular.py checks the counts)")}),
    _entry("diagonal_scatter", sample_diagonal_scatter, _diagonal_scatter, errors_diagonal_scatter,
           out="ops.aten.diagonal_scatter.out"),
    _entry("select_scatter", sample_select_scatter, _select_scatter, errors_select_scatter,
           out="ops.aten.select_scatter.out"),
    _entry("slice_scatter", sample_slice_scatter, _slice_scatter, errors_slice_scatter,
           out="slice_scatter"),
    _entry("as_strided_scatter", sample_as_strided_scatter, _as_strided_scatter,
           errors_as_strided_scatter, layout_sensitive=True,
           out="ops.aten.as_strided_scatter.out"),
]

