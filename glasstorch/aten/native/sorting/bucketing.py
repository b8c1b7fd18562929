"""Locating values among others: searchsorted, bucketize, isin.

`searchsorted` finds, for each value, the index at which it would be inserted into a
sorted sequence (a 1-D one shared by all values, or one per row of the values'
leading dims). The sequence and the values are compared in their common dtype, as
a binary operator would promote them. torch's binary search treats a comparison
with NaN as false, so a NaN among the boundaries sends every search past it; NumPy's
`searchsorted` orders NaN last instead, so sequences holding NaN (and rows of
boundaries) take a vectorised binary search that makes torch's comparisons.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import from_numpy_dtype, scalar_type_name
from ....c10.promotion import result_type_of, result_type_with_scalar
from ...registry import TensorMeta, op
from ..pointwise.comparison import NOT_DIFFERENTIABLE
from .sort import check_out_dtypes
from ..pointwise.unary import BOOL, COMPLEX, refuse

_SEARCH_GRAD = {"sorted_sequence": NOT_DIFFERENTIABLE, "self": NOT_DIFFERENTIABLE}


# ----------------------------------------------------------------------------------
# searchsorted and bucketize
# ----------------------------------------------------------------------------------
def _check_side(right: bool, side) -> bool:
    """Whether to search from the right: `side` ('left' / 'right') or `right`."""
    if side is None:
        return right
    if side not in ("left", "right"):
        raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but "
                           f"got {side}")
    if right and side != "right":
        raise RuntimeError(f"torch.searchsorted(): side and right can't be set to opposites, "
                           f"got side of {side} while right was True")
    return side == "right"


def _check_sorter(sorter, boundaries) -> None:
    if sorter._size != boundaries._size:
        raise RuntimeError(f"torch.searchsorted(): boundary and sorter must have the same size, "
                           f"but got boundary tensor {list(boundaries._size)}and got sorter "
                           f"tensor {list(sorter._size)}")
    if sorter._dtype is not dtypes.int64:
        raise RuntimeError(f"torch.searchsorted(): sorter must be a tensor of long dtype but "
                           f"got dtype {scalar_type_name(sorter._dtype)}")


def _check_shapes(boundaries, value_size: tuple) -> None:
    if not value_size and boundaries.dim() != 1:
        raise RuntimeError(f"torch.searchsorted(): input value can be a scalar only when "
                           f"boundaries tensor dimension is 1, but we got boundaries tensor "
                           f"dim({boundaries.dim()}) and input value's dim(0) numel(1)")
    if boundaries.dim() == 0:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should have positive "
                           "dimension, but got 0 dimension")
    rows_match = (len(value_size) == boundaries.dim()
                  and value_size[:-1] == boundaries._size[:-1])
    if boundaries.dim() != 1 and not rows_match:
        raise RuntimeError(f"torch.searchsorted(): boundaries tensor should be 1 dimension or "
                           f"the first N-1 dimensions of boundaries tensor and input value "
                           f"tensor must match, but we got boundaries tensor "
                           f"{list(boundaries._size)} and input value tensor {list(value_size)}")


def _searchsorted_meta(sorted_sequence, self, out_int32=False, right=False, side=None,
                       sorter=None, out=None):
    _check_side(right, side)
    if sorter is not None:
        _check_sorter(sorter, sorted_sequence)
    value_size = self._size if hasattr(self, "_size") else ()
    _check_shapes(sorted_sequence, value_size)
    wanted = dtypes.int32 if out_int32 else dtypes.int64
    if out is not None and out._dtype is not wanted:
        raise RuntimeError(f"torch.searchsorted(): output tensor's dtype is wrong, it can only "
                           f"be Int(int32) or Long(int64) depending on whether out_int32 flag "
                           f"is True, but we got output tensor's dtype "
                           f"{scalar_type_name(out._dtype)} and out_int32 flag is {out_int32}")
    return TensorMeta(value_size, wanted)


def _binary_search(boundaries: np.ndarray, values: np.ndarray, right: bool) -> np.ndarray:
    """torch's lower/upper bound, for all values at once: rows of `boundaries` (last axis)
    against the matching rows of `values`; a comparison with NaN counts as false."""
    length = boundaries.shape[-1]
    start = np.zeros(values.shape, np.int64)
    end = np.full(values.shape, length, np.int64)
    rows = np.broadcast_to(boundaries, values.shape[:-1] + (length,))
    active = start < end
    while active.any():
        middle = start + ((end - start) >> 1)
        probe = np.take_along_axis(rows, np.minimum(middle, length - 1), -1)
        with np.errstate(invalid="ignore"):
            beyond = ~(probe > values) if right else ~(probe >= values)
        start = np.where(active & beyond, middle + 1, start)
        end = np.where(active & ~beyond, middle, end)
        active = start < end
    return start


def search(boundaries: np.ndarray, values, right: bool, sorter=None) -> np.ndarray:
    """Insertion indices of `values` (an array or a number) in sorted `boundaries`."""
    values = np.asarray(values)
    if sorter is not None:
        if sorter.size and (sorter.min() < 0 or sorter.max() >= sorter.shape[-1]):
            raise RuntimeError("torch.searchsorted(): sorter index out of range")
        boundaries = np.take_along_axis(boundaries, sorter, -1)
    side = "right" if right else "left"
    if boundaries.ndim == 1 and not (boundaries.dtype.kind == "f" and np.isnan(boundaries).any()):
        return np.searchsorted(boundaries, values, side=side)
    if values.ndim == 0:
        return _binary_search(boundaries, values.reshape(1), right).reshape(())
    return _binary_search(boundaries, values, right)


def in_common_dtype(a, b, kernel: str | None = None) -> tuple:
    """`a` and `b` (arrays, or one of them a number) as arrays of their common dtype,
    as a binary operator promotes them; float16 / bfloat16 compare in float32 (exactly).
    With `kernel`, bool and complex are refused in that kernel's words."""
    if not isinstance(a, np.ndarray):
        b, a = in_common_dtype(b, a, kernel)
        return a, b
    if isinstance(b, np.ndarray):
        common = result_type_of(from_numpy_dtype(a.dtype), a.ndim == 0,
                                from_numpy_dtype(b.dtype), b.ndim == 0)
    else:
        common = result_type_with_scalar(from_numpy_dtype(a.dtype), b)
    if kernel is not None:
        refuse(np.empty(0, common._np), kernel, BOOL | COMPLEX)
    compute = np.float32 if common in (dtypes.float16, dtypes.bfloat16) else common._np
    return a.astype(compute, copy=False), np.asarray(b).astype(compute, copy=False)


def _searchsorted_kernel(sorted_sequence, self, out_int32, right, side, sorter, *, out):
    boundaries, values = in_common_dtype(sorted_sequence, self, "searchsorted_out_cpu")
    out[...] = search(boundaries, values, _check_side(right, side), sorter)


@op("searchsorted.Tensor(Tensor sorted_sequence, Tensor self, *, bool out_int32=False, "
    "bool right=False, str? side=None, Tensor? sorter=None) -> Tensor",
    meta=_searchsorted_meta, out=True, out_overload="Tensor_out", grad=_SEARCH_GRAD)
def searchsorted(sorted_sequence, self, out_int32, right, side, sorter, *, out):
    """Where each value of `input` would go in `sorted_sequence` to keep it sorted.

    Args:
        sorted_sequence (Tensor): ascending along its last dim: 1-D, or with the leading
            dims of `input` (one sequence per row of values).
        input (Tensor or Scalar): the values to place.
        out_int32 (bool): return int32 indices instead of int64.
        right (bool): place a value after equal elements (before them by default).
        side (str, optional): ``'left'`` or ``'right'``, the same as `right`.
        sorter (LongTensor, optional): the order that sorts an unsorted sequence
            (``argsort``'s result).

    Example::

        >>> torch.searchsorted(torch.tensor([1, 3, 5, 7]), torch.tensor([3, 6]))
        tensor([1, 3])
        >>> torch.searchsorted(torch.tensor([1, 3, 5, 7]), 3, right=True)
        tensor(2)
    """
    _searchsorted_kernel(sorted_sequence, self, out_int32, right, side, sorter, out=out)


@op("searchsorted.Scalar(Tensor sorted_sequence, Scalar self, *, bool out_int32=False, "
    "bool right=False, str? side=None, Tensor? sorter=None) -> Tensor",
    meta=_searchsorted_meta, out=True, out_overload="Scalar_out",
    grad={"sorted_sequence": NOT_DIFFERENTIABLE})
def searchsorted_scalar(sorted_sequence, self, out_int32, right, side, sorter, *, out):
    """`searchsorted` of one number: a 0-dim result."""
    _searchsorted_kernel(sorted_sequence, self, out_int32, right, side, sorter, out=out)


def _bucketize_meta(self, boundaries, out_int32=False, right=False, out=None):
    if boundaries.dim() != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got "
                           f"dim({boundaries.dim()})")
    return _searchsorted_meta(boundaries, self, out_int32, right, None, None, out)


def _bucketize_scalar_meta(self, boundaries, out_int32=False, right=False, out=None):
    return _bucketize_meta(self, boundaries, out_int32, right, out)


@op("bucketize.Tensor(Tensor self, Tensor boundaries, *, bool out_int32=False, "
    "bool right=False) -> Tensor", meta=_bucketize_meta, out=True, out_overload="Tensor_out",
    grad={"self": NOT_DIFFERENTIABLE, "boundaries": NOT_DIFFERENTIABLE})
def bucketize(self, boundaries, out_int32, right, *, out):
    """The bucket of each value of `input` among ascending 1-D `boundaries`: the index
    `i` with ``boundaries[i-1] < x <= boundaries[i]`` (``<= x <`` with ``right=True``).

    Example::

        >>> torch.bucketize(torch.tensor([1, 5, 9]), torch.tensor([1, 3, 5, 7]))
        tensor([0, 2, 4])
    """
    _searchsorted_kernel(boundaries, self, out_int32, right, None, None, out=out)


@op("bucketize.Scalar(Scalar self, Tensor boundaries, *, bool out_int32=False, "
    "bool right=False) -> Tensor", meta=_bucketize_scalar_meta,
    grad={"boundaries": NOT_DIFFERENTIABLE})
def bucketize_scalar(self, boundaries, out_int32, right, *, out):
    """`bucketize` of one number: a 0-dim result."""
    _searchsorted_kernel(boundaries, self, out_int32, right, None, None, out=out)


# ----------------------------------------------------------------------------------
# isin
# ----------------------------------------------------------------------------------
def _isin_meta(elements, test_elements, assume_unique=False, invert=False, out=None):
    for operand in (elements, test_elements):
        kind = getattr(operand, "_dtype", None)
        if kind is not None and (kind.is_complex or kind is dtypes.bool):
            raise RuntimeError(f"Unsupported input type encountered for isin(): "
                               f"{scalar_type_name(kind)}")
    check_out_dtypes(out, dtypes.bool)
    return TensorMeta(getattr(elements, "_size", ()), dtypes.bool)


def _isin_kernel(elements, test_elements, assume_unique, invert, *, out) -> None:
    elements, test_elements = in_common_dtype(elements, test_elements)
    out[...] = np.isin(elements, test_elements, assume_unique=assume_unique, invert=invert)


def _declare_isin(overload: str, signature: str, doc: str):
    def kernel(elements, test_elements, assume_unique, invert, *, out):
        _isin_kernel(elements, test_elements, assume_unique, invert, out=out)
    kernel.__name__ = kernel.__qualname__ = "isin"
    kernel.__doc__ = doc
    return op(f"isin.{overload}({signature}, *, bool assume_unique=False, bool invert=False) "
              f"-> Tensor", meta=_isin_meta, out=True, out_overload=f"{overload}_out",
              grad={"elements": NOT_DIFFERENTIABLE, "test_elements": NOT_DIFFERENTIABLE,
                    "element": NOT_DIFFERENTIABLE, "test_element": NOT_DIFFERENTIABLE})(kernel)


isin = _declare_isin("Tensor_Tensor", "Tensor elements, Tensor test_elements", """\
Whether each element of `elements` occurs in `test_elements` (a bool tensor shaped
    like `elements`). Either argument may be a single number.

    Args:
        elements (Tensor or Scalar): the values to look up.
        test_elements (Tensor or Scalar): the values to look among.
        assume_unique (bool): both hold distinct values (a faster search).
        invert (bool): answer "does not occur" instead.

    Example::

        >>> torch.isin(torch.tensor([[1, 2], [3, 4]]), torch.tensor([2, 3]))
        tensor([[False,  True],
                [ True, False]])
    """)
# before Scalar_Tensor: a 0-dim tensor first is `elements`, not a number
isin_tensor_scalar = _declare_isin("Tensor_Scalar", "Tensor elements, Scalar test_element",
                                   "`isin` against one number.")
isin_scalar_tensor = _declare_isin("Scalar_Tensor", "Scalar element, Tensor test_elements",
                                   "`isin` of one number: a 0-dim result.")
