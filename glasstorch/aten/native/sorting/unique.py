"""Distinct elements: unique and unique_consecutive, and the aten operators beneath
them (`_unique`, `_unique2`, `unique_dim`, `unique_consecutive`,
`unique_dim_consecutive`).

torch finds distinct elements by sorting and comparing neighbours with ``!=``: -0.0
and 0.0 are one value (the first in sorted order is kept), and every NaN is a value
of its own. Slices along a dim are distinct when any of their elements differ. The
sort is always done here (torch's CPU kernels sort even with ``sorted=False``).

The size of the results depends on the data, so these operators compute the results
once in their body (composites with their own derivative entry, which run below
autograd as a backend kernel does); a meta tensor has no data, and torch refuses it
too.

`unique` and `unique_consecutive` themselves are Python functions in torch (they pick
the results asked for); they are here too, and `torch.unique` / `Tensor.unique` are
bound to them.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.tensor_impl import TensorBase, make_tensor, wrap_array
from ...backends import no_meta_kernel
from ...meta.shape import wrap_dim
from ...registry import composite
from .sort import order_keys, stable_order
from ..pointwise.unary import COMPLEX, refuse

_THREE = "(Tensor, Tensor, Tensor)"


def _no_grad(name: str) -> dict:
    """torch records a node for these, whose backward refuses (derivatives.yaml)."""
    return {"self": f"not_implemented('{name}')"}


# ----------------------------------------------------------------------------------
# The computations, on arrays
# ----------------------------------------------------------------------------------
def _data(self, name: str) -> np.ndarray:
    """The tensor's array, refusing complex dtypes as torch does."""
    array = self._np
    refuse(array, "unique", COMPLEX)
    return array


def _runs(starts: np.ndarray, length: int) -> tuple:
    """From the first-of-a-run flags of `length` sorted items: each item's run number,
    and each run's length."""
    run = np.cumsum(starts) - 1
    first = np.flatnonzero(starts)
    return run, np.diff(np.append(first, length))


def _sorted_flat(flat: np.ndarray, want_order: bool) -> tuple:
    """(the elements in torch's sorted order, the order or None). Without the order
    (no inverse asked for) NumPy's fast value sort does: its order differs from the
    stable one only among equal elements, and of those only the zeros' signs show (the
    first zero in `flat` is the one kept)."""
    if want_order or flat.dtype.kind not in "biuf":
        order = stable_order(order_keys(flat))
        return flat[order], order
    ordered = np.sort(flat)
    if flat.dtype.kind == "f":
        zeros = ordered == 0
        if zeros.any():
            ordered[zeros] = flat[np.argmax(flat == 0)]
    return ordered, None


def _unique_flat(array: np.ndarray, consecutive: bool, want_inverse: bool) -> tuple:
    """(values, inverse, counts) of all elements, sorted unless `consecutive`."""
    flat = array.reshape(-1)
    ordered, order = (flat, None) if consecutive else _sorted_flat(flat, want_inverse)
    starts = np.ones(ordered.shape, bool)
    starts[1:] = ordered[1:] != ordered[:-1]          # NaN != NaN: every NaN stays
    run, counts = _runs(starts, ordered.size)
    inverse = run
    if order is not None:
        inverse = np.empty_like(run)
        inverse[order] = run
    return ordered[starts], inverse.reshape(array.shape), counts


def _unique_slices(array: np.ndarray, dim: int, consecutive: bool) -> tuple:
    """(values, inverse, counts) of the slices of `array` along `dim`; the values have
    `dim` first."""
    moved = np.moveaxis(array, dim, 0)
    rows = moved.reshape(moved.shape[0], int(np.prod(moved.shape[1:])))
    if consecutive:
        order = np.arange(rows.shape[0])
    else:      # lexicographic, stable; the first column is the most significant key
        wide = rows.astype(np.float32) if rows.dtype.kind == "V" else rows
        order = np.lexsort(wide.T[::-1]) if rows.shape[1] else np.arange(rows.shape[0])
    ordered = rows[order]
    starts = np.ones(rows.shape[0], bool)
    starts[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
    run, counts = _runs(starts, rows.shape[0])
    inverse = np.empty_like(run)
    inverse[order] = run
    return moved[order[starts]], inverse, counts


def _check_dim(self, dim: int) -> int:
    if self.dim() == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    dim = wrap_dim(dim, self.dim())
    if any(n == 0 for d, n in enumerate(self._size) if d != dim):
        raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique "
                           "cannot be applied")
    return dim


def _tensors(values, inverse, counts, want_inverse: bool, want_counts: bool) -> tuple:
    """The values tensor with the inverse and counts as tensors; those not asked for are
    empty (as torch's)."""
    nothing = np.empty(0, np.int64)
    return (values,
            wrap_array(np.array(inverse if want_inverse else nothing, order="C"),
                       dtypes.int64),
            wrap_array(np.array(counts if want_counts else nothing, order="C"),
                       dtypes.int64))


def _moved_back(moved: np.ndarray, dim: int, dtype) -> TensorBase:
    """A tensor over the row-major `moved` (`dim` first) with `dim` put back in its
    place, not copied: torch's results of unique along a dim have these strides."""
    base = wrap_array(np.array(moved, order="C"), dtype)
    order = list(range(1, moved.ndim))
    order.insert(dim, 0)
    return make_tensor(base._storage, tuple(base._size[d] for d in order),
                       tuple(base._stride[d] for d in order), 0, dtype)


def _all_elements(self, name: str, consecutive: bool, want_inverse: bool,
                  want_counts: bool) -> tuple:
    values, inverse, counts = _unique_flat(_data(self, name), consecutive, want_inverse)
    values = wrap_array(np.array(values, order="C"), self._dtype)
    return _tensors(values, inverse, counts, want_inverse, want_counts)


def _along(self, name: str, dim: int, consecutive: bool) -> tuple:
    dim = _check_dim(self, dim)
    values, inverse, counts = _unique_slices(_data(self, name), dim, consecutive)
    return _tensors(_moved_back(values, dim, self._dtype), inverse, counts, True, True)


# ----------------------------------------------------------------------------------
# The aten operators
# ----------------------------------------------------------------------------------
@composite(f"_unique2(Tensor self, bool sorted=True, bool return_inverse=False, "
           f"bool return_counts=False) -> {_THREE}", grad=_no_grad("_unique2"))
def _unique2(self, sorted=True, return_inverse=False, return_counts=False):
    """The distinct elements of `input`, sorted; with each element's index among them
    (shaped like `input`) and how often each occurs, when asked (else empty)."""
    return _all_elements(self, "_unique2", False, return_inverse, return_counts)


no_meta_kernel(_unique2)


@composite("_unique(Tensor self, bool sorted=True, bool return_inverse=False) -> "
           "(Tensor, Tensor)", grad=_no_grad("_unique"))
def _unique(self, sorted=True, return_inverse=False):
    """`_unique2` without the counts."""
    return _all_elements(self, "_unique", False, return_inverse, False)[:2]


no_meta_kernel(_unique)


@composite(f"unique_dim(Tensor self, int dim, bool sorted=True, bool return_inverse=False, "
           f"bool return_counts=False) -> {_THREE}", function=False,
           grad=_no_grad("unique_dim"))
def unique_dim(self, dim, sorted=True, return_inverse=False, return_counts=False):
    """The distinct slices of `input` along `dim`, in lexicographic order, with each
    slice's index among them and their counts (always computed)."""
    return _along(self, "unique_dim", dim, False)


no_meta_kernel(unique_dim)


@composite(f"unique_consecutive(Tensor self, bool return_inverse=False, "
           f"bool return_counts=False, int? dim=None) -> {_THREE}", function=False,
           grad=_no_grad("unique_consecutive"))
def unique_consecutive_op(self, return_inverse=False, return_counts=False, dim=None):
    """The first element of each run of equal neighbours (of all elements, or of the
    slices along `dim`), with the inverse and the counts when asked."""
    if dim is not None:
        return _along(self, "unique_consecutive", dim, True)
    return _all_elements(self, "unique_consecutive", True, return_inverse, return_counts)


no_meta_kernel(unique_consecutive_op)


@composite(f"unique_dim_consecutive(Tensor self, int dim, bool return_inverse=False, "
           f"bool return_counts=False) -> {_THREE}", function=False,
           grad=_no_grad("unique_dim_consecutive"))
def unique_dim_consecutive(self, dim, return_inverse=False, return_counts=False):
    """`unique_consecutive` of the slices along `dim`."""
    return _along(self, "unique_dim_consecutive", dim, True)


# ----------------------------------------------------------------------------------
# torch.unique, torch.unique_consecutive
# ----------------------------------------------------------------------------------
def _chosen(results: tuple, return_inverse: bool, return_counts: bool):
    """The values alone, or a tuple with the inverse and/or the counts as asked."""
    values, inverse, counts = results
    picked = (values,) + ((inverse,) if return_inverse else ()) + \
        ((counts,) if return_counts else ())
    return picked[0] if len(picked) == 1 else picked


def unique(input, sorted: bool = True, return_inverse: bool = False,
           return_counts: bool = False, dim: int | None = None):
    """The distinct elements of `input` (or its distinct slices along `dim`), sorted.

    -0.0 and 0.0 count as one value; every NaN counts as a value of its own.

    Args:
        input (Tensor): the tensor (not complex).
        sorted (bool): sort the result (it always is, on CPU).
        return_inverse (bool): also return, for each element (slice), the index of its
            value in the result.
        return_counts (bool): also return how often each value occurs.
        dim (int, optional): find distinct slices along this dim instead.

    Returns:
        Tensor, or a tuple ``(output, inverse_indices, counts)`` of what was asked.

    Example::

        >>> torch.unique(torch.tensor([3, 1, 3, 2]), return_counts=True)
        (tensor([1, 2, 3]), tensor([1, 1, 2]))
    """
    if dim is not None:
        results = unique_dim.call(input, dim, sorted, return_inverse, return_counts)
    else:
        results = _unique2.call(input, sorted, return_inverse, return_counts)
    return _chosen(results, return_inverse, return_counts)


def unique_consecutive(input, return_inverse: bool = False, return_counts: bool = False,
                       dim: int | None = None):
    """Keep the first element of each run of equal neighbours (of all elements, or of
    the slices along `dim`), like the Unix ``uniq``.

    Args:
        input (Tensor): the tensor (not complex).
        return_inverse (bool): also return each element's index in the result.
        return_counts (bool): also return the length of each run.
        dim (int, optional): compare slices along this dim instead.

    Example::

        >>> torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1]))
        tensor([1, 2, 3, 1])
    """
    results = unique_consecutive_op.call(input, return_inverse, return_counts, dim)
    return _chosen(results, return_inverse, return_counts)
