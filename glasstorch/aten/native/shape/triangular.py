"""Triangles of matrices: tril / triu (and in place), tril_indices / triu_indices.

A matrix here is the last two dims of a tensor; the dims before them are a batch.
Element ``(i, j)`` is in the lower triangle of diagonal `k` when ``j - i <= k`` and
in the upper one when ``j - i >= k`` (k > 0: above the main diagonal).

The kernels never compute a mask of the whole matrix: the outside of the triangle is a
strided view over one line of ``rows + cols`` bools (`outside_mask`). Blocks of rows are
copied and their outside zeroed over the thread pool (`parallel_for`).
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name, type_meta_name
from ...parallel import parallel_for
from ...registry import TensorMeta, op
from ..creation.factory import check_options

_GRAIN_ELEMENTS = 1 << 16        # the fewest elements worth a thread of their own


def exact_out_dtype(dtype, out) -> None:
    """Structured kernels with an out= of another dtype than the result: torch refuses
    rather than casts (its generated ``resize_out`` check)."""
    if out is not None and out._dtype is not dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {type_meta_name(dtype)}, but got "
                           f"{type_meta_name(out._dtype)} instead")


# ----------------------------------------------------------------------------------
# tril / triu
# ----------------------------------------------------------------------------------
def _triangle_meta(name: str):
    def meta(self, diagonal=0, out=None):
        if self.dim() < 2:
            raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
        exact_out_dtype(self._dtype, out)
        return TensorMeta(self._size, self._dtype)
    meta.__name__ = f"{name}_meta"
    return meta


def keep_triangle(self: np.ndarray, diagonal: int, lower: bool, out: np.ndarray) -> None:
    """Write into `out` the `lower` (or upper) triangle of `self` and zeros elsewhere.

    Args:
        self: the input, at least 2-D (may be `out` itself: then only zeros are written).
        diagonal: which diagonal bounds the triangle (it belongs to the triangle).
        lower: the lower triangle (tril) or the upper one (triu).
        out: the result, of `self`'s shape.
    """
    rows, cols = self.shape[-2:]
    if out.size == 0:
        return
    in_place = _same_memory(self, out)
    outside = outside_mask(rows, cols, diagonal, lower)
    zero = np.zeros((), out.dtype)

    def run(start: int, stop: int) -> None:
        target = out[..., start:stop, :]
        if not in_place:
            np.copyto(target, self[..., start:stop, :])
        np.copyto(target, zero, where=outside[start:stop])
    parallel_for(0, rows, max(1, _GRAIN_ELEMENTS // (out.size // rows)), run)


def outside_mask(rows: int, cols: int, diagonal: int, lower: bool) -> np.ndarray:
    """A read-only ``rows x cols`` bool view, True outside the triangle, built over one
    line of ``rows + cols`` bools.

    Element ``(i, j)`` is outside when ``j - i`` passes `diagonal`. With ``line[k] =
    (k - rows passes diagonal)``, the view reads ``line[rows + j - i]``: a row stride
    of -1 and a column stride of 1, so no 2-D mask is ever computed.
    """
    shifted = np.arange(-rows, cols)
    line = shifted > diagonal if lower else shifted < diagonal
    line.flags.writeable = False
    # np.ndarray over the line's buffer: NumPy's as_strided would cost ~10 us a call.
    return np.ndarray((rows, cols), line.dtype, line, rows, (-1, 1))


def _same_memory(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two arrays are the same elements (in place: the kernel reads what it writes)."""
    return (a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
            and a.strides == b.strides)


@op("tril(Tensor self, SymInt diagonal=0) -> Tensor", meta=_triangle_meta("tril"),
    inplace=True, out=True, method=True, grad={"self": "grad.tril(diagonal)"})
def tril(self, diagonal, *, out):
    """The lower triangle of the matrices in `input`; elements above it become zero.

    Element ``(i, j)`` of each matrix (the last two dims) is kept when
    ``j - i <= diagonal``.

    Args:
        input (Tensor): a tensor of at least 2 dims.
        diagonal (int): the diagonal bounding the triangle: 0 the main one, a positive
            value one above it, a negative value one below.

    Keyword args:
        out (Tensor, optional): the output tensor.

    Example::

        >>> torch.tril(torch.ones(3, 3), diagonal=-1)
        tensor([[0., 0., 0.],
                [1., 0., 0.],
                [1., 1., 0.]])
    """
    keep_triangle(self, diagonal, True, out)


@op("triu(Tensor self, SymInt diagonal=0) -> Tensor", meta=_triangle_meta("triu"),
    inplace=True, out=True, method=True, grad={"self": "grad.triu(diagonal)"})
def triu(self, diagonal, *, out):
    """The upper triangle of the matrices in `input`; elements below it become zero.

    Element ``(i, j)`` of each matrix (the last two dims) is kept when
    ``j - i >= diagonal``.

    Args:
        input (Tensor): a tensor of at least 2 dims.
        diagonal (int): the diagonal bounding the triangle: 0 the main one, a positive
            value one above it, a negative value one below.

    Keyword args:
        out (Tensor, optional): the output tensor.

    Example::

        >>> torch.triu(torch.ones(2, 3), diagonal=1)
        tensor([[0., 1., 1.],
                [0., 0., 1.]])
    """
    keep_triangle(self, diagonal, False, out)


# ----------------------------------------------------------------------------------
# tril_indices / triu_indices
# ----------------------------------------------------------------------------------
def _row_spans(row: int, col: int, offset: int, lower: bool) -> tuple:
    """Per row of a ``row x col`` matrix, the first column in the triangle and how many
    columns it has (the triangle's columns in each row are contiguous)."""
    i = np.arange(row, dtype=np.int64)
    if lower:
        first = np.zeros(row, dtype=np.int64)
        count = np.clip(i + offset + 1, 0, col)
    else:
        first = np.clip(i + offset, 0, col)
        count = col - first
    return first, count


def _indices_meta(name: str, lower: bool):
    def meta(row, col, offset=0, dtype=None, layout=None, device=None, pin_memory=None):
        dtype = dtypes.int64 if dtype is None else dtype
        check_options(layout, pin_memory)
        if row < 0:
            raise RuntimeError(f"row must be non-negative, got{row}")
        if col < 0:
            raise RuntimeError(f"col must be non-negative, got{col}")
        if dtype not in (dtypes.int32, dtypes.int64):
            raise NotImplementedError(f'"{name}" not implemented for '
                                      f"'{scalar_type_name(dtype)}'")
        count = int(_row_spans(row, col, offset, lower)[1].sum())
        return TensorMeta((2, count), dtype)
    meta.__name__ = f"{name}_meta"
    return meta


def triangle_indices(row: int, col: int, offset: int, lower: bool, out: np.ndarray) -> None:
    """The (row, column) coordinates of a triangle, row by row, into ``out`` of shape
    ``(2, count)``: rows repeat as many times as they have columns in the triangle, and
    columns count up from each row's first one."""
    first, count = _row_spans(row, col, offset, lower)
    out[0] = np.repeat(np.arange(row), count)
    starts = np.cumsum(count) - count               # where each row's run begins
    out[1] = np.arange(out.shape[1]) - np.repeat(starts - first, count)


@op("tril_indices(int row, int col, int offset=0, *, ScalarType? dtype=long, "
    "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
    meta=_indices_meta("tril_indices", True))
def tril_indices(row, col, offset, dtype, layout, device, pin_memory, *, out):
    """The coordinates of the lower triangle of a ``row x col`` matrix, as a ``2 x N``
    tensor: row indices in the first row, column indices in the second, ordered by row
    and then by column.

    Args:
        row (int): the number of rows of the matrix.
        col (int): the number of columns.
        offset (int): the diagonal bounding the triangle, as `tril`'s `diagonal`.

    Keyword args:
        dtype (torch.dtype, optional): ``torch.long`` (the default) or ``torch.int``.
        device (torch.device, optional): where to make the result.

    Example::

        >>> torch.tril_indices(3, 3)
        tensor([[0, 1, 1, 2, 2, 2],
                [0, 0, 1, 0, 1, 2]])
    """
    triangle_indices(row, col, offset, True, out)


@op("triu_indices(int row, int col, int offset=0, *, ScalarType? dtype=long, "
    "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
    meta=_indices_meta("triu_indices", False))
def triu_indices(row, col, offset, dtype, layout, device, pin_memory, *, out):
    """The coordinates of the upper triangle of a ``row x col`` matrix, as a ``2 x N``
    tensor: row indices in the first row, column indices in the second, ordered by row
    and then by column.

    Args:
        row (int): the number of rows of the matrix.
        col (int): the number of columns.
        offset (int): the diagonal bounding the triangle, as `triu`'s `diagonal`.

    Keyword args:
        dtype (torch.dtype, optional): ``torch.long`` (the default) or ``torch.int``.
        device (torch.device, optional): where to make the result.

    Example::

        >>> torch.triu_indices(3, 3, 1)
        tensor([[0, 0, 1],
                [1, 2, 2]])
    """
    triangle_indices(row, col, offset, False, out)
