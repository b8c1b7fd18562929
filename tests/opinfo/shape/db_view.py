"""OpInfo entries for the view operators of `aten/native/shape/view.py`.

Every view is checked against NumPy's own views (`swapaxes`, `transpose`, `diagonal`,
`as_strided`, ...), which compute the same elements from the same geometry.
"""
import numpy as np

import glasstorch as gt

from ..core import (ALL_DTYPES, COMPLEX, ErrorInput, OpInfo, SampleInput, make_tensor,
                   numpy_dtype, tensors)


def _x(*shape):
    return make_tensor(shape, gt.float32)


def _wrap(dim: int, ndim: int) -> int:
    return dim + ndim if dim < 0 else dim


# ----- view, view.dtype ------------------------------------------------------------
def sample_view(dtype):
    """Shapes every layout can take, and flattening / splitting for contiguous inputs."""
    for x in tensors(dtype):
        shape = tuple(x.shape)
        yield SampleInput(x, shape)
        yield SampleInput(x, (1,) + shape)
        if x.is_contiguous():
            yield SampleInput(x, (-1,))
            if x.numel() and shape:
                yield SampleInput(x, (-1, shape[-1], 1))


def errors_view():
    x = _x(3, 4)
    yield ErrorInput(SampleInput(x.t(), (-1,)), RuntimeError,
                     r"^view size is not compatible with input tensor's size and stride \(at "
                     r"least one dimension spans across two contiguous subspaces\)\. Use "
                     r"\.reshape\(\.\.\.\) instead\.$")
    yield ErrorInput(SampleInput(x, (5,)), RuntimeError,
                     r"^shape '\[5\]' is invalid for input of size 12$")
    yield ErrorInput(SampleInput(x, (-1, -1)), RuntimeError,
                     r"^only one dimension can be inferred$")
    yield ErrorInput(SampleInput(x, (-2, 6)), RuntimeError,
                     r"^invalid shape dimension -2 at index 0 of shape \[-2, 6\]$")
    yield ErrorInput(SampleInput(_x(0, 2), (-1, 0)), RuntimeError,
                     r"^cannot reshape tensor of 0 elements into shape \[-1, 0\] because the "
                     r"unspecified dimension size -1 can be any value and is ambiguous$")


def _view_dtype_ok(x, dtype) -> bool:
    """Whether torch can view `x` as `dtype` (the rules error_inputs checks)."""
    old, new = x.element_size(), dtype.itemsize
    if old == new:
        return True
    if x.dim() == 0 or x.stride(-1) != 1:
        return False
    ratio = new // old
    if new > old:
        return (x.shape[-1] % ratio == 0 and x.storage_offset() % ratio == 0
                and all(s % ratio == 0 for s in x.stride()[:-1]))
    return True


def sample_view_dtype(dtype):
    """Every target dtype the input's layout allows (bool only from bool: other bytes
    are not valid bools)."""
    targets = [t for t in ALL_DTYPES if t is not gt.bool or dtype is gt.bool]
    for x in tensors(dtype):
        for target in targets:
            if _view_dtype_ok(x, target):
                yield SampleInput(x, target)


def errors_view_dtype():
    def message(what):
        return f"^{what} to view Float as Double \\(different element sizes\\)"
    yield ErrorInput(SampleInput(_x(), gt.float64), RuntimeError,
                     message(r"self\.dim\(\) cannot be 0") + "$")
    yield ErrorInput(SampleInput(_x(3, 4).t(), gt.float64), RuntimeError,
                     message(r"self\.size\(-1\) must be divisible by 2") + ", but got 3$")
    yield ErrorInput(SampleInput(_x(3, 3), gt.float64), RuntimeError,
                     message(r"self\.size\(-1\) must be divisible by 2") + ", but got 3$")
    yield ErrorInput(SampleInput(_x(5).as_strided((4,), (1,), 1), gt.float64), RuntimeError,
                     message(r"self\.storage_offset\(\) must be divisible by 2") + ", but got 1$")
    yield ErrorInput(SampleInput(_x(2, 6).as_strided((2, 2), (3, 1)), gt.float64),
                     RuntimeError,
                     message(r"self\.stride\(0\) must be divisible by 2") + ", but got 3$")


# ----- t, transpose, permute -------------------------------------------------------
def sample_t(dtype):
    for x in tensors(dtype):
        if x.dim() <= 2:
            yield SampleInput(x)


def sample_transpose(dtype):
    for x in tensors(dtype):
        pairs = ((0, -1), (-1, 0)) if x.dim() else ((0, -1),)
        if x.dim() == 3:
            pairs += ((1, 2), (0, 0))
        for d0, d1 in pairs:
            yield SampleInput(x, d0, d1)


def _swapaxes(a, d0, d1):
    return np.swapaxes(a, d0, d1) if a.ndim else a


def errors_transpose():
    x = _x(3, 4)
    yield ErrorInput(SampleInput(x, 0, 2), IndexError,
                     r"^Dimension out of range \(expected to be in range of \[-2, 1\], "
                     r"but got 2\)$")
    yield ErrorInput(SampleInput(x, -3, 0), IndexError,
                     r"^Dimension out of range \(expected to be in range of \[-2, 1\], "
                     r"but got -3\)$")


def sample_permute(dtype):
    for x in tensors(dtype):
        n = x.dim()
        yield SampleInput(x, tuple(range(n - 1, -1, -1)))
        if n >= 2:
            yield SampleInput(x, tuple(range(1, n)) + (-n,))


def errors_permute():
    x = _x(3, 4)
    yield ErrorInput(SampleInput(x, (0,)), RuntimeError,
                     r"^permute\(sparse_coo\): number of dimensions in the tensor input does "
                     r"not match the length of the desired ordering of dimensions i\.e\. "
                     r"input\.dim\(\) = 2 is not equal to len\(dims\) = 1$")
    yield ErrorInput(SampleInput(x, (0, 0)), RuntimeError,
                     r"^permute\(\): duplicate dims are not allowed\.$")
    yield ErrorInput(SampleInput(x, (0, 2)), IndexError,
                     r"^Dimension out of range \(expected to be in range of \[-2, 1\], "
                     r"but got 2\)$")


# ----- expand ----------------------------------------------------------------------
def sample_expand(dtype):
    for x in tensors(dtype):
        shape = tuple(x.shape)
        yield SampleInput(x, (2,) + shape)
        yield SampleInput(x, tuple(3 if s == 1 else -1 for s in shape))


def errors_expand():
    x = _x(3, 4)
    yield ErrorInput(SampleInput(x, (4,)), RuntimeError,
                     r"^expand\(torch\.FloatTensor\{\[3, 4\]\}, size=\[4\]\): the number of "
                     r"sizes provided \(1\) must be greater or equal to the number of "
                     r"dimensions in the tensor \(2\)$")
    yield ErrorInput(SampleInput(x, (3, 5)), RuntimeError,
                     r"^The expanded size of the tensor \(5\) must match the existing size "
                     r"\(4\) at non-singleton dimension 1\.  Target sizes: \[3, 5\]\.  Tensor "
                     r"sizes: \[3, 4\]$")
    yield ErrorInput(SampleInput(x, (-1, 3, 4)), RuntimeError,
                     r"^The expanded size of the tensor \(-1\) isn't allowed in a leading, "
                     r"non-existing dimension 0$")


# ----- select, slice ---------------------------------------------------------------
def sample_select(dtype):
    for x in tensors(dtype):
        for dim in (0, -1):
            if x.dim() and x.shape[dim]:
                yield SampleInput(x, dim, 0)
                yield SampleInput(x, dim, -1)


def errors_select():
    x = _x(3, 4)
    yield ErrorInput(SampleInput(_x(), 0, 0), IndexError,
                     r"^select\(\) cannot be applied to a 0-dim tensor\.$")
    yield ErrorInput(SampleInput(x, 0, 3), IndexError,
                     r"^select\(\): index 3 out of range for tensor of size \[3, 4\] at "
                     r"dimension 0$")
    yield ErrorInput(SampleInput(x, 1, -5), IndexError,
                     r"^select\(\): index -5 out of range for tensor of size \[3, 4\] at "
                     r"dimension 1$")
    yield ErrorInput(SampleInput(x, 2, 0), IndexError,
                     r"^Dimension out of range \(expected to be in range of \[-2, 1\], "
                     r"but got 2\)$")


def sample_slice(dtype):
    for x in tensors(dtype):
        if x.dim():
            for bounds in ((None, None, 1), (1, None, 2), (-2, 100, 1), (3, 1, 1)):
                yield SampleInput(x, 0, *bounds)
                yield SampleInput(x, -1, *bounds)


def _slice(a, dim, start, end, step):
    return a[(slice(None),) * _wrap(dim, a.ndim) + (slice(start, end, step),)]


def errors_slice():
    x = _x(3, 4)
    yield ErrorInput(SampleInput(_x(), 0, 0, 1, 1), IndexError,
                     r"^slice\(\) cannot be applied to a 0-dim tensor\.$")
    yield ErrorInput(SampleInput(x, 0, 0, 1, 0), RuntimeError,
                     r"^slice step must be positive$")
    yield ErrorInput(SampleInput(x, 0, 0, 1, -1), RuntimeError,
                     r"^slice step must be positive$")
    yield ErrorInput(SampleInput(x, 2, 0, 1, 1), IndexError,
                     r"^Dimension out of range \(expected to be in range of \[-2, 1\], "
                     r"but got 2\)$")


# ----- unsqueeze, squeeze ----------------------------------------------------------
def sample_unsqueeze(dtype):
    for x in tensors(dtype):
        for dim in sorted({0, -1, x.dim(), -x.dim() - 1}):
            yield SampleInput(x, dim)


def errors_unsqueeze():
    x = _x(3, 4)
    yield ErrorInput(SampleInput(x, 3), IndexError,
                     r"^Dimension out of range \(expected to be in range of \[-3, 2\], "
                     r"but got 3\)$")
    yield ErrorInput(SampleInput(x, -4), IndexError,
                     r"^Dimension out of range \(expected to be in range of \[-3, 2\], "
                     r"but got -4\)$")


def sample_squeeze(dtype):
    for x in tensors(dtype):
        yield SampleInput(x)


def sample_squeeze_dim(dtype):
    for x in tensors(dtype):
        yield SampleInput(x, 0)
        yield SampleInput(x, -1)


def _squeeze_dims(a, dims):
    dims = (dims,) if isinstance(dims, int) else dims
    axes = tuple({_wrap(d, a.ndim) for d in dims if a.ndim and a.shape[d] == 1})
    return np.squeeze(a, axis=axes)


def sample_squeeze_dims(dtype):
    for x in tensors(dtype):
        yield SampleInput(x, (0, -1) if x.dim() >= 2 else (0,))
        yield SampleInput(x, ())


def errors_squeeze():
    x = _x(3, 4)
    yield ErrorInput(SampleInput(x, 2), IndexError,
                     r"^Dimension out of range \(expected to be in range of \[-2, 1\], "
                     r"but got 2\)$")


def errors_squeeze_dims():
    x = _x(3, 4)
    yield ErrorInput(SampleInput(x, (0, 0)), RuntimeError,
                     r"^dim 0 appears multiple times in the list of dims$")
    yield ErrorInput(SampleInput(x, (0, 5)), IndexError,
                     r"^Dimension out of range \(expected to be in range of \[-2, 1\], "
                     r"but got 5\)$")


# ----- as_strided, diagonal, alias -------------------------------------------------
def sample_as_strided(dtype):
    """Contiguous inputs only: the reference reads the storage through the array."""
    for shape in ((5,), (3, 4), (2, 3, 4)):
        x = make_tensor(shape, dtype)
        count = x.numel()
        yield SampleInput(x, (count,), (1,))
        yield SampleInput(x, (2, 2), (1, 2), 1)
        yield SampleInput(x, (3, 2), (0, 2))
        yield SampleInput(x, (0, 2), (1, 1), count)
        yield SampleInput(x, (), (), count - 1)


def _as_strided(a, size, stride, storage_offset=None):
    flat = a.reshape(-1)[storage_offset or 0:]
    return np.lib.stride_tricks.as_strided(flat, size, [s * a.itemsize for s in stride])


def errors_as_strided():
    x = _x(3, 4)
    yield ErrorInput(SampleInput(x, (2,), (1, 1)), RuntimeError,
                     r"^mismatch in length of strides and shape$")
    yield ErrorInput(SampleInput(x, (-1,), (1,)), RuntimeError,
                     r"^Storage size calculation overflowed with sizes=\[-1\] and "
                     r"strides=\[1\]$")
    yield ErrorInput(SampleInput(x, (2,), (-1,)), RuntimeError,
                     r"^as_strided: Negative strides are not supported at the moment, got "
                     r"strides: \[-1\]$")
    yield ErrorInput(SampleInput(x, (2,), (1,), -1), RuntimeError,
                     r"^Tensor: invalid storage offset -1$")
    yield ErrorInput(SampleInput(x, (4, 4), (4, 1)), RuntimeError,
                     r"^setStorage: sizes \[4, 4\], strides \[4, 1\], storage offset 0, and "
                     r"itemsize 4 requiring a storage size of 64 are out of bounds for storage "
                     r"of size 48$")


def sample_diagonal(dtype):
    for x in tensors(dtype):
        if x.dim() >= 2:
            for offset in (0, 1, -1, 5):
                yield SampleInput(x, offset)
                yield SampleInput(x, offset, -1, 0)


def errors_diagonal():
    x = _x(3, 4)
    yield ErrorInput(SampleInput(x, 0, 1, 1), RuntimeError,
                     r"^diagonal dimensions cannot be identical 1, 1$")
    yield ErrorInput(SampleInput(x, 0, 1, -1), RuntimeError,
                     r"^diagonal dimensions cannot be identical 1, -1$")
    yield ErrorInput(SampleInput(x, 0, 0, 2), IndexError,
                     r"^Dimension out of range \(expected to be in range of \[-2, 1\], "
                     r"but got 2\)$")
    yield ErrorInput(SampleInput(_x(3)), IndexError,
                     r"^Dimension out of range \(expected to be in range of \[-1, 0\], "
                     r"but got 1\)$")


def sample_alias(dtype):
    for x in tensors(dtype):
        yield SampleInput(x)



# ----- unfold, view_as_real, view_as_complex ----------------------------------------
def sample_unfold(dtype):
    for x in tensors(dtype):
        if not x.dim():
            yield SampleInput(x, 0, 1, 1)
        elif x.shape[-1] >= 2:
            yield SampleInput(x, -1, 2, 1)
            yield SampleInput(x, 0, 1, 2)


def _unfold(a, dimension, size, step):
    if a.ndim == 0:
        return a.reshape(1)
    windows = np.lib.stride_tricks.sliding_window_view(a, size, axis=dimension)
    return windows[(slice(None),) * _wrap(dimension, a.ndim) + (slice(None, None, step),)]


def errors_unfold():
    x = _x(3, 4)
    yield ErrorInput(SampleInput(x, 1, 5, 1), RuntimeError,
                     r"^maximum size for tensor at dimension 1 is 4 but size is 5$")
    yield ErrorInput(SampleInput(x, 1, 2, 0), RuntimeError, r"^step is 0 but must be > 0$")
    yield ErrorInput(SampleInput(x, 1, -1, 1), RuntimeError, r"^size is -1 but must be >= 0$")


def sample_view_as_real(dtype):
    for x in tensors(dtype):
        yield SampleInput(x)


def _view_as_real(a):
    return np.stack([a.real, a.imag], axis=-1)


def sample_view_as_complex(dtype):
    for shape in ((2,), (3, 2), (2, 3, 2)):
        yield SampleInput(make_tensor(shape, dtype))
    yield SampleInput(make_tensor((3, 4), dtype)[:, 2:])      # strides (4, 1), offset 2
    yield SampleInput(make_tensor((2, 2), dtype)[:0])         # empty, strides kept


def _view_as_complex(a):
    return (a[..., 0] + 1j * a[..., 1]).astype(np.complex64 if a.dtype == np.float32
                                              else np.complex128)


def errors_view_as_complex():
    yield ErrorInput(SampleInput(_x(3, 3)), RuntimeError,
                     r"^Tensor must have a last dimension of size 2$")
    yield ErrorInput(SampleInput(_x(2, 3).t()), RuntimeError,
                     r"^Tensor must have a last dimension with stride 1$")
    yield ErrorInput(SampleInput(_x(5)[1:].view(2, 2)), RuntimeError,
                     r"^Tensor must have a storage_offset divisible by 2$")
    yield ErrorInput(SampleInput(make_tensor((3, 2), gt.int64)), RuntimeError,
                     r"^view_as_complex is only supported for half, float and double tensors, "
                     r"but got a tensor of scalar type: Long$")
    yield ErrorInput(SampleInput(_x()), RuntimeError,
                     r"^Input tensor must have one or more dimensions$")


# ----- unbind, split, split_with_sizes (several views) ------------------------------
def sample_unbind(dtype):
    for x in tensors(dtype):
        if x.dim():
            yield SampleInput(x, 0)
            yield SampleInput(x, -1)


def _unbind(a, dim=0):
    return [np.take(a, i, axis=dim) for i in range(a.shape[dim])]


def sample_split(dtype):
    for x in tensors(dtype):
        if x.dim():
            yield SampleInput(x, 2, -1) if x.shape[-1] else SampleInput(x, 0, -1)
            yield SampleInput(x, 7, 0)


def _split(a, split_size, dim=0):
    length = a.shape[dim]
    return np.split(a, list(range(split_size, length, split_size)) if split_size else [],
                    axis=dim)


def errors_split():
    x = _x(3, 4)
    yield ErrorInput(SampleInput(x, 0, 1), RuntimeError,
                     r"^split_size can only be 0 if dimension size is 0, but got dimension "
                     r"size of 4$")
    yield ErrorInput(SampleInput(x, -1, 1), RuntimeError,
                     r"^split expects split_size be non-negative, but got split_size=-1$")
    yield ErrorInput(SampleInput(_x(), 1, 0), RuntimeError,
                     r"^split expects at least a 1-dimensional tensor$")


def sample_split_with_sizes(dtype):
    for x in tensors(dtype):
        if x.dim():
            n = x.shape[-1]
            yield SampleInput(x, (n // 2, 0, n - n // 2), -1)
            yield SampleInput(x, (x.shape[0],), 0)


def _split_with_sizes(a, split_sizes, dim=0):
    return np.split(a, np.cumsum(split_sizes)[:-1].tolist(), axis=dim)


def errors_split_with_sizes():
    x = _x(3, 4)
    yield ErrorInput(SampleInput(x, (1, 2), -1), RuntimeError,
                     r"^split_with_sizes expects split_sizes to sum exactly to 4 \(input "
                     r"tensor's size at dimension -1\), but got split_sizes=\[1, 2\]$")
    yield ErrorInput(SampleInput(x, (5, -1), 1), RuntimeError,
                     r"^split_with_sizes expects split_sizes have only non-negative entries, "
                     r"but got split_sizes=\[5, -1\]$")

OPS = [
    OpInfo("view", variants=("Tensor.view",), sample_inputs=sample_view,
           ref=lambda a, size: a.reshape(size),
           error_inputs=errors_view, is_view=True, layout_sensitive=True),
    OpInfo("view.dtype", variants=("Tensor.view",), sample_inputs=sample_view_dtype,
           ref=lambda a, dtype: a.view(numpy_dtype(dtype)),
           error_inputs=errors_view_dtype, is_view=True, layout_sensitive=True,
           view_has_base=False),               # torch: shares storage and version, no _base
    OpInfo("t", variants=("t", "Tensor.t"), sample_inputs=sample_t, ref=lambda a: a.T,
           error_inputs=lambda: [ErrorInput(SampleInput(_x(2, 3, 4)), RuntimeError,
                                            r"^t\(\) expects a tensor with <= 2 dimensions, "
                                            r"but self is 3D$")],
           is_view=True),
    OpInfo("transpose.int", variants=("transpose", "Tensor.transpose"),
           sample_inputs=sample_transpose, ref=_swapaxes, error_inputs=errors_transpose,
           is_view=True),
    OpInfo("permute", variants=("permute", "Tensor.permute"), sample_inputs=sample_permute,
           ref=np.transpose, error_inputs=errors_permute, is_view=True),
    OpInfo("expand", variants=("Tensor.expand",), sample_inputs=sample_expand,
           ref=lambda a, size: np.broadcast_to(a, [
               a.shape[i - (len(size) - a.ndim)] if s == -1 else s
               for i, s in enumerate(size)]),
           error_inputs=errors_expand, is_view=True),
    OpInfo("select.int", variants=("select", "Tensor.select"), sample_inputs=sample_select,
           ref=lambda a, dim, index: np.take(a, index, axis=dim),
           error_inputs=errors_select, is_view=True),
    OpInfo("slice.Tensor", variants=("ops.aten.slice.Tensor",), sample_inputs=sample_slice,
           ref=_slice, error_inputs=errors_slice, is_view=True),
    OpInfo("unsqueeze", variants=("unsqueeze", "Tensor.unsqueeze"),
           sample_inputs=sample_unsqueeze, ref=np.expand_dims,
           error_inputs=errors_unsqueeze, is_view=True),
    OpInfo("squeeze", variants=("squeeze", "Tensor.squeeze"), sample_inputs=sample_squeeze,
           ref=np.squeeze, is_view=True),
    OpInfo("squeeze.dim", variants=("squeeze", "Tensor.squeeze"),
           sample_inputs=sample_squeeze_dim, ref=_squeeze_dims, error_inputs=errors_squeeze,
           is_view=True),
    OpInfo("squeeze.dims", variants=("squeeze", "Tensor.squeeze"),
           sample_inputs=sample_squeeze_dims, ref=_squeeze_dims,
           error_inputs=errors_squeeze_dims, is_view=True),
    OpInfo("as_strided", variants=("as_strided", "Tensor.as_strided"),
           sample_inputs=sample_as_strided, ref=_as_strided, error_inputs=errors_as_strided,
           is_view=True, layout_sensitive=True),
    OpInfo("diagonal", variants=("diagonal", "Tensor.diagonal"),
           sample_inputs=sample_diagonal, ref=np.diagonal, error_inputs=errors_diagonal,
           is_view=True),
    OpInfo("alias", variants=("ops.aten.alias.default",), sample_inputs=sample_alias,
           ref=lambda a: a, is_view=True),
    OpInfo("unfold", variants=("Tensor.unfold",), sample_inputs=sample_unfold, ref=_unfold,
           error_inputs=errors_unfold, is_view=True),
    OpInfo("view_as_real", variants=("view_as_real",), sample_inputs=sample_view_as_real,
           ref=_view_as_real, dtypes=COMPLEX, is_view=True,
           error_inputs=lambda: [ErrorInput(SampleInput(_x(3)), RuntimeError,
                                            r"^view_as_real is only supported for complex "
                                            r"tensors$")]),
    OpInfo("unbind.int", variants=("unbind", "Tensor.unbind"), sample_inputs=sample_unbind,
           ref=_unbind, is_view=True,
           error_inputs=lambda: [ErrorInput(SampleInput(_x(), 0), IndexError,
                                            r"^Dimension specified as 0 but tensor has no "
                                            r"dimensions$")]),
    OpInfo("split.Tensor", variants=("Tensor.split", "split"), sample_inputs=sample_split,
           ref=_split, error_inputs=errors_split, is_view=True),
    OpInfo("split_with_sizes", variants=("split_with_sizes", "Tensor.split_with_sizes"),
           sample_inputs=sample_split_with_sizes, ref=_split_with_sizes,
           error_inputs=errors_split_with_sizes, is_view=True),
    OpInfo("view_as_complex", variants=("view_as_complex",),
           sample_inputs=sample_view_as_complex, ref=_view_as_complex,
           dtypes=(gt.float32, gt.float64), error_inputs=errors_view_as_complex, is_view=True,
           layout_sensitive=True),
]
