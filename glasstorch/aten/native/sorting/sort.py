"""Sorting and selection along a dimension: sort, argsort, msort, topk.

The helpers here (`order_keys`, `stable_order`, `select_kth`, `top_k`, `along_last`)
are shared with the order statistics (`order_statistics.py`: kthvalue, median, mode)
and `unique.py`.

Note [Order keys]
    torch sorts NaN above every number (NaN counts as the largest value, and all NaNs
    are equal) and treats -0.0 and 0.0 as equal, keeping their order. NumPy's fast sort
    (SIMD quicksort) is not stable and its stable sort is several times slower, so
    every element is first mapped to an unsigned integer key whose natural order is
    torch's order: a float through its IEEE bits (negative ones flipped, positive ones
    given the sign bit) after -0.0 has become 0.0 and every NaN one positive quiet NaN;
    an integer through its offset from the smallest one. A key of at most 32 bits is
    packed with the element's position into one uint64 (key above, position below):
    the packed values are distinct, so any sort of them is the stable sort, and the
    positions come back out of the low bits, the sorted values out of the high ones.
    Descending order sorts the inverted keys, so equal elements still keep their
    order, as torch's stable sort does. Wider keys (float64, int64 spanning more than
    2**32) are sorted as two 32-bit digits, each pass a packed sort (a radix sort).

    torch's own sort with ``stable=False`` (the default) is an introsort: on rows of
    more than 16 elements it leaves equal elements in an order of its own, which no
    stable sort reproduces; with ``stable=True`` the results are the same.
"""
from __future__ import annotations

import sys

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import type_meta_name
from ....c10.tensor_impl import contiguous_strides
from ...meta.reduction import reduction_dim
from ...registry import TensorMeta, op
from ..pointwise.comparison import NOT_DIFFERENTIABLE
from ..creation.copy import strides_like
from ..reduction.extrema import value_selecting_reduction_backward  # noqa: F401  (a formula's)

# which uint32 half of a packed uint64 holds the low bits (the position)
_POSITION_WORD = 0 if sys.byteorder == "little" else 1
_SELECT_GRAD = "value_selecting_reduction_backward(grad, dim, indices, self_sym_sizes, {})"
_LONG_ROW = 65536           # a single row at least this long takes `_top_k_of_long_row`


# ----------------------------------------------------------------------------------
# Order keys (Note [Order keys])
# ----------------------------------------------------------------------------------
def order_keys(a: np.ndarray, descending: bool = False) -> np.ndarray:
    """Unsigned integer keys (a new row-major array) ordered as torch orders `a`.

    Args:
        a: a real or bool array (float16 and bfloat16 are widened exactly).
        descending: invert the order (NaN then comes first).

    Returns:
        ndarray: uint32 keys where they fit, else uint64; equal elements get equal keys.
    """
    if a.size == 0:
        return np.zeros(a.shape, np.uint32)
    if a.dtype.kind == "V" or a.dtype == np.float16:      # bfloat16, float16
        a = a.astype(np.float32)
    if a.dtype.kind == "f":
        keys = _float_keys(a)
    elif a.dtype.kind == "b":
        keys = a.astype(np.uint32, order="C")
    else:
        keys = _integer_keys(a)
    if descending:
        np.invert(keys, out=keys)
    return keys


def _float_keys(a: np.ndarray) -> np.ndarray:
    unsigned, signed = (np.uint32, np.int32) if a.itemsize == 4 else (np.uint64, np.int64)
    values = np.add(a, a.dtype.type(0), order="C")      # -0.0 + 0.0 is +0.0
    nan = np.isnan(values)
    if nan.any():
        values[nan] = np.nan                            # one NaN, positive and quiet
    bits = values.view(unsigned)
    sign_bit = unsigned(1) << unsigned(8 * a.itemsize - 1)
    # all ones for negative numbers (arithmetic shift), else only the sign bit
    flip = (values.view(signed) >> signed(8 * a.itemsize - 1)).view(unsigned)
    flip |= sign_bit
    bits ^= flip
    return bits


def _integer_keys(a: np.ndarray) -> np.ndarray:
    low, high = int(a.min()), int(a.max())
    if high - low < 2 ** 32:
        # the difference is exact modulo 2**64, so uint64 values wrap harmlessly
        shifted = a.astype(np.int64, order="C")
        shifted -= np.array(low % 2 ** 64, dtype=np.uint64).view(np.int64)
        return shifted.astype(np.uint32)
    if a.dtype.kind == "u":
        return a.astype(np.uint64, order="C")
    keys = a.astype(np.int64, order="C").view(np.uint64)
    keys ^= np.uint64(1 << 63)
    return keys


def sort_keys(keys: np.ndarray) -> tuple:
    """Sort `keys` along the last axis, stably: (the int64 positions, the sorted keys,
    or None for 64-bit keys).

    uint32 keys travel packed with their positions (Note [Order keys]). 64-bit keys
    are sorted as two 32-bit digits, least significant first: each pass is stable,
    so the second keeps the first's order among equal high digits (a radix sort).
    """
    if keys.dtype == np.uint32:
        return _packed_sort(keys)
    low_first, _ = _packed_sort((keys & np.uint64(0xFFFFFFFF)).astype(np.uint32))
    high = np.take_along_axis((keys >> np.uint64(32)).astype(np.uint32), low_first, -1)
    high_then, _ = _packed_sort(high)
    return np.take_along_axis(low_first, high_then, -1), None


def _packed_sort(keys: np.ndarray) -> tuple:
    """Stable sort of uint32 `keys`: (int64 positions, sorted keys)."""
    packed = np.empty(keys.shape, np.uint64)
    words = packed.view(np.uint32).reshape(keys.shape + (2,))
    words[..., _POSITION_WORD] = np.arange(keys.shape[-1], dtype=np.uint32)
    words[..., 1 - _POSITION_WORD] = keys
    packed.sort(axis=-1)
    return words[..., _POSITION_WORD].astype(np.int64), words[..., 1 - _POSITION_WORD]


def stable_order(keys: np.ndarray) -> np.ndarray:
    """The int64 positions along the last axis that sort `keys` stably."""
    return sort_keys(keys)[0]


def sorted_values(a: np.ndarray, order: np.ndarray, ordered_keys: np.ndarray,
                  descending: bool) -> np.ndarray:
    """The elements of `a` (last axis) in `order`, read back from their sorted 32-bit
    keys where that is exact (a sequential pass, where gathering jumps around memory);
    zeros and NaN, whose sign and payload the keys dropped, are gathered."""
    if ordered_keys is None or a.dtype.kind not in "biufV" or a.size == 0:
        return np.take_along_axis(a, order, -1)
    keys = ~ordered_keys if descending else ordered_keys
    if a.dtype.kind == "b":
        return keys.astype(bool)
    if a.dtype.kind in "iu":
        low = np.array(int(a.min()) % 2 ** 64, dtype=np.uint64).view(np.int64)
        return (keys.astype(np.int64) + low).astype(a.dtype)
    # undo the key: positive numbers had only the sign bit flipped, negative ones all bits
    flip = (keys >> np.uint32(31)) - np.uint32(1)
    flip |= np.uint32(0x80000000)
    values = (keys ^ flip).view(np.float32)
    lost = (values == 0) | np.isnan(values)
    if lost.any():
        values[lost] = np.take_along_axis(a, order, -1)[lost]
    return values.astype(a.dtype, copy=False)


def _plain(a: np.ndarray) -> bool:
    """Whether NumPy's own order of `a` is torch's: integers, or floats without NaN.
    Partitions and comparisons then run on the values, without building keys."""
    return a.dtype.kind in "iu" or (a.dtype.kind == "f" and not np.isnan(a).any())


def _kth_from(a: np.ndarray, k: int, largest: bool) -> tuple:
    """The `k`-th element of each row counted from the wanted end, and the mask of
    the elements strictly before it in that order. Keys stand in for the values
    where NumPy's order is not torch's (NaN, bool, bfloat16)."""
    n = a.shape[-1]
    if _plain(a):
        index = n - k if largest else k - 1
        kth = np.partition(a, index, axis=-1)[..., index:index + 1]
        return kth, (a > kth if largest else a < kth), a
    keys = order_keys(a, largest)
    kth = np.partition(keys, k - 1, axis=-1)[..., k - 1:k]
    return kth, keys < kth, keys


def _first_ties(equal: np.ndarray, count) -> np.ndarray:
    """Keep, in each row, only the first `count` True entries of `equal` (in place)."""
    if np.any(np.count_nonzero(equal, axis=-1, keepdims=True) != count):
        equal &= np.cumsum(equal, axis=-1) <= count
    return equal


def select_kth(a: np.ndarray, k: int) -> np.ndarray:
    """The position along the last axis of the `k`-th smallest element (1-based) of
    each row; among equal elements, the one a stable sort would put there.

    Linear time: a partition finds the k-th element, then the equal ones are counted
    off in position order.
    """
    kth, before, compared = _kth_from(a, k, False)
    wanted = k - np.count_nonzero(before, axis=-1, keepdims=True)
    equal = _first_ties(compared == kth, wanted)
    return equal.shape[-1] - 1 - np.argmax(equal[..., ::-1], axis=-1)     # the last kept


def top_k(a: np.ndarray, k: int, largest: bool) -> np.ndarray:
    """Positions of the `k` largest (or smallest) elements of each row, in stable
    sorted order: a partition, then a sort of the `k` chosen only."""
    n = a.shape[-1]
    if k == 0:
        return np.zeros(a.shape[:-1] + (0,), np.int64)
    if 4 * k >= n:
        return stable_order(order_keys(a, largest))[..., :k]
    if a.size == n >= _LONG_ROW and k * 256 <= n and a.dtype.kind in "iuf":
        positions = _top_k_of_long_row(a.reshape(n), k, largest)
        if positions is not None:
            return positions.reshape(a.shape[:-1] + (k,))
    kth, chosen, compared = _kth_from(a, k, largest)
    missing = k - np.count_nonzero(chosen, axis=-1, keepdims=True)
    chosen |= _first_ties(compared == kth, missing)
    positions = (np.flatnonzero(chosen) % n).reshape(a.shape[:-1] + (k,))
    picked = order_keys(np.take_along_axis(a, positions, -1), largest)
    return np.take_along_axis(positions, stable_order(picked), -1)


def _top_k_of_long_row(row: np.ndarray, k: int, largest: bool):
    """`top_k` of one long row, through a few candidates: each of ``m >= k`` blocks of
    the row has an extreme element, so the `k`-th most extreme of those ``m`` is a
    bound every chosen element reaches, and for most rows few others do (a pass of
    reductions and one of comparisons, where a partition moves the whole row). None
    when the row holds NaN (NumPy's comparisons do not order it as torch does) or too
    many candidates pass the bound (many equal elements)."""
    n = row.size
    count = max(1024, 16 * k)
    width = n // count
    extreme = np.max if largest else np.min
    heads = extreme(row[:count * width].reshape(count, width), axis=1)
    if n > count * width:                       # the leftover elements: one more block
        heads = np.append(heads, extreme(row[count * width:]))
    if heads.dtype.kind == "f" and np.isnan(heads).any():
        return None
    bound = np.partition(heads, heads.size - k if largest else k - 1)[
        heads.size - k if largest else k - 1]
    candidates = np.flatnonzero(row >= bound if largest else row <= bound)
    if candidates.size > n // 8:
        return None
    return candidates[top_k(row[candidates], k, largest)]   # kept in position order


def along_last(a: np.ndarray, dim: int) -> np.ndarray:
    """`a` with `dim` moved last (a view); a 0-dim array becomes one of shape (1,)."""
    return a.reshape(1) if a.ndim == 0 else np.moveaxis(a, dim, -1)


# ----------------------------------------------------------------------------------
# Meta rules
# ----------------------------------------------------------------------------------
def check_out_dtypes(out, values_dtype) -> None:
    """torch's structured kernels want out= tensors of exactly the result dtypes."""
    if out is None:
        return
    wanted = (values_dtype, dtypes.int64) if isinstance(out, tuple) else (values_dtype,)
    outs = out if isinstance(out, tuple) else (out,)
    for tensor, dtype in zip(outs, wanted):
        if tensor._dtype is not dtype:
            raise RuntimeError(f"Expected out tensor to have dtype {type_meta_name(dtype)}, "
                               f"but got {type_meta_name(tensor._dtype)} instead")


def _sort_meta(self, dim=-1, descending=False, out=None):
    reduction_dim(dim, self.dim())
    check_out_dtypes(out, self._dtype)
    stride = strides_like(self, None)
    return (TensorMeta(self._size, self._dtype, stride),
            TensorMeta(self._size, dtypes.int64, stride))


def _sort_stable_meta(self, stable, dim=-1, descending=False, out=None):
    return _sort_meta(self, dim, descending, out)


def _argsort_meta(self, dim=-1, descending=False, out=None):
    reduction_dim(dim, self.dim())
    check_out_dtypes(out, dtypes.int64)
    return TensorMeta(self._size, dtypes.int64, strides_like(self, None))


def _argsort_stable_meta(self, stable, dim=-1, descending=False, out=None):
    return _argsort_meta(self, dim, descending, out)


def _refuse_complex(array: np.ndarray, name: str) -> None:
    if array.dtype.kind == "c" or array.dtype == dtypes.COMPLEX32_PAIR:
        raise RuntimeError(f" {name} does not support complex dtypes on CPU")


# ----------------------------------------------------------------------------------
# sort, argsort, msort
# ----------------------------------------------------------------------------------
def _sort_into(self: np.ndarray, dim: int, descending: bool, values, indices) -> None:
    """Write the sorted values and/or their positions (either may be None)."""
    _refuse_complex(self, "Sort")
    dim = reduction_dim(dim, self.ndim)
    a = along_last(self, dim)
    order, ordered_keys = sort_keys(order_keys(a, descending))
    if indices is not None:
        along_last(indices, dim)[...] = order
    if values is not None:
        along_last(values, dim)[...] = sorted_values(a, order, ordered_keys, descending)


@op("sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)",
    meta=_sort_meta, out=True, out_overload="values", method=True,
    grad={"self": _SELECT_GRAD.format(True)})
def sort(self, dim, descending, *, out):
    """Sort the elements of `input` along `dim`.

    NaN counts as larger than every number; equal elements keep their order (torch
    only promises this with ``stable=True``; glasstorch's sort is always stable).

    Args:
        input (Tensor): the tensor to sort (real or bool).
        dim (int): the dimension to sort along (default: the last).
        descending (bool): largest first.
        stable (bool, keyword): keep the order of equal elements.

    Returns:
        A named tuple ``(values, indices)``: the sorted elements, and their positions
        along `dim` in `input`.

    Example::

        >>> torch.sort(torch.tensor([3., float('nan'), 1.]))
        torch.return_types.sort(
        values=tensor([1., 3., nan]),
        indices=tensor([2, 0, 1]))
    """
    _sort_into(self, dim, descending, *out)


@op("sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> "
    "(Tensor values, Tensor indices)", meta=_sort_stable_meta, out=True,
    out_overload="values_stable", method=True, grad={"self": _SELECT_GRAD.format(True)})
def sort_stable(self, stable, dim, descending, *, out):
    """`sort` with the `stable` keyword."""
    _sort_into(self, dim, descending, *out)


@op("argsort(Tensor self, int dim=-1, bool descending=False) -> Tensor", meta=_argsort_meta,
    method=True, grad={"self": NOT_DIFFERENTIABLE})
def argsort(self, dim, descending, *, out):
    """The positions that sort `input` along `dim`: ``torch.sort(input).indices``.

    Args:
        input (Tensor): the tensor to sort.
        dim (int): the dimension to sort along (default: the last).
        descending (bool): largest first.
        stable (bool, keyword): keep the order of equal elements (always kept here).

    Example::

        >>> torch.argsort(torch.tensor([[3, 1, 2], [0, 5, 4]]), dim=1)
        tensor([[1, 2, 0],
                [0, 2, 1]])
    """
    _sort_into(self, dim, descending, None, out)


@op("argsort.stable(Tensor self, *, bool stable, int dim=-1, bool descending=False) -> Tensor",
    meta=_argsort_stable_meta, out=True, out_overload="stable_out", method=True,
    grad={"self": NOT_DIFFERENTIABLE})
def argsort_stable(self, stable, dim, descending, *, out):
    """`argsort` with the `stable` keyword."""
    _sort_into(self, dim, descending, None, out)


def _msort_meta(self, out=None):
    check_out_dtypes(out, self._dtype)
    return TensorMeta(self._size, self._dtype, strides_like(self, None))


@op("msort(Tensor self) -> Tensor", meta=_msort_meta, out=True, method=True,
    grad={"self": "value_selecting_reduction_backward(grad, 0, sort(self, 0).indices, "
                  "self.shape, True)"})
def msort(self, *, out):
    """Sort along the first dimension: ``torch.sort(input, dim=0).values``.

    Example::

        >>> torch.msort(torch.tensor([[2, 1], [0, 3]]))
        tensor([[0, 1],
                [2, 3]])
    """
    _sort_into(self, 0, False, out, None)


# ----------------------------------------------------------------------------------
# topk
# ----------------------------------------------------------------------------------
def _topk_meta(self, k, dim=-1, largest=True, sorted=True, out=None):
    dim = reduction_dim(dim, self.dim())
    length = self._size[dim] if self._size else 1
    if k < 0 or k > length:
        raise RuntimeError("selected index k out of range")
    check_out_dtypes(out, self._dtype)
    shape = self._size[:dim] + (k,) + self._size[dim + 1:] if self._size else ()
    return (TensorMeta(shape, self._dtype, contiguous_strides(shape)),
            TensorMeta(shape, dtypes.int64, contiguous_strides(shape)))


@op("topk(Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True) -> "
    "(Tensor values, Tensor indices)", meta=_topk_meta, out=True, out_overload="values",
    method=True, grad={"self": _SELECT_GRAD.format(True)})
def topk(self, k, dim, largest, sorted, *, out):
    """The `k` largest (or smallest) elements of `input` along `dim`.

    Linear in the length of `dim` for small `k` (a partition, then a sort of the `k`
    chosen). NaN counts as the largest value. Among equal elements at the cut, the
    first ones are chosen; the results come largest first (smallest first with
    ``largest=False``) whatever `sorted` says.

    Args:
        input (Tensor): a real tensor.
        k (int): how many elements to keep.
        dim (int): the dimension to choose along (default: the last).
        largest (bool): the largest elements, else the smallest.
        sorted (bool): return them in order.

    Returns:
        A named tuple ``(values, indices)``.

    Example::

        >>> torch.topk(torch.tensor([1., 5., 3., 4.]), 2)
        torch.return_types.topk(
        values=tensor([5., 4.]),
        indices=tensor([1, 3]))
    """
    values, indices = out
    _refuse_complex(self, "topk")
    if self.dtype.kind == "b":
        raise RuntimeError("topk does not support bool dtypes on CPU")
    if self.ndim == 0:
        values[...] = self
        indices[...] = 0
        return
    dim = reduction_dim(dim, self.ndim)
    a = along_last(self, dim)
    positions = top_k(a, k, largest)
    along_last(indices, dim)[...] = positions
    along_last(values, dim)[...] = np.take_along_axis(a, positions, -1)
