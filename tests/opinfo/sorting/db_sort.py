"""OpInfo entries for sorting and selection (`aten/native/sorting/sort.py`): sort, argsort,
msort, topk. NumPy references follow torch's order: NaN is the largest value, -0.0
equals 0.0, equal elements keep their order (NumPy's stable argsort)."""
import numpy as np
import pytest

import glasstorch as gt

from ..core import (BOOL, FLOATING, INTEGRAL, ErrorInput, OpInfo, SampleInput, make_tensor,
                   tensors)

REAL = BOOL + INTEGRAL + FLOATING
NUMBERS = INTEGRAL + FLOATING
NAN, INF = float("nan"), float("inf")
# The generic out= tests handle one result; two-result out= is tested in tests/test_sort.py.
TWO_RESULT_OUT = pytest.mark.skip(reason="out= of two results: tests/test_sort.py")
TWO_OUT = {"test_out": TWO_RESULT_OUT, "test_out_matches_torch": TWO_RESULT_OUT}


# ----- references --------------------------------------------------------------------
def _orderable(a: np.ndarray) -> np.ndarray:
    """float16 / bfloat16 widened exactly, so that NumPy can sort them."""
    return a.astype(np.float32) if a.dtype.kind == "V" or a.dtype == np.float16 else a


def stable_argsort(a: np.ndarray, dim: int = -1, descending: bool = False) -> np.ndarray:
    """torch's stable sort order: ascending with NaN last, or descending with NaN
    first; ties in their original order both ways."""
    a = _orderable(np.asarray(a))
    if a.ndim == 0:
        return np.zeros((), np.int64)
    moved = np.moveaxis(a, dim, -1)
    if descending:      # sort the reversed row ascending, then read it backwards
        order = np.argsort(moved[..., ::-1], axis=-1, kind="stable")[..., ::-1]
        order = moved.shape[-1] - 1 - order
    else:
        order = np.argsort(moved, axis=-1, kind="stable")
    return np.moveaxis(order, -1, dim).astype(np.int64)


def _sort(a, dim=-1, descending=False, stable=None):
    order = stable_argsort(a, dim, descending)
    values = a.copy() if a.ndim == 0 else np.take_along_axis(a, order, dim)
    return [values, order]


def _topk(a, k, dim=-1, largest=True, sorted=True):
    values, order = _sort(a, dim, largest)
    if a.ndim == 0:
        return [values, order]
    keep = [slice(None)] * a.ndim
    keep[dim] = slice(0, k)
    return [values[tuple(keep)], order[tuple(keep)]]


# ----- samples -----------------------------------------------------------------------
def special_values(dtype) -> gt.Tensor:
    """NaN, infinities, signed zeros and repeats, for floating dtypes."""
    return gt.tensor([3.0, NAN, 1.0, 3.0, -0.0, 0.0, NAN, 1.0, -INF, INF], dtype=dtype)


def distinct(shape: tuple, dtype, layout: str = "contiguous", seed: int = 0) -> gt.Tensor:
    """A tensor whose elements all differ (selection results then have one answer)."""
    count = int(np.prod(shape))
    values = np.random.default_rng([seed, count]).permutation(count)
    if dtype not in (gt.uint8,):
        values = values - count // 2
    array = values.reshape(shape).astype(np.float64) * (0.5 if dtype.is_floating_point else 1)
    x = gt.from_numpy(np.array(array)).to(dtype)
    return x.mT.contiguous().mT if layout == "transposed" and x.dim() >= 2 else x


def sample_sort(dtype, stable: bool = False):
    """Every standard tensor along the last and the first dim, both orders; repeats."""
    extra = {"stable": True} if stable else {}
    for x in tensors(dtype, low=-3, high=3):
        yield SampleInput(x, **extra)
        if x.dim():
            yield SampleInput(x, dim=0, descending=True, **extra)
    yield SampleInput(make_tensor((2, 3, 4), dtype, "transposed", low=-2, high=2), dim=1,
                      descending=False, **extra)
    if dtype.is_floating_point:
        yield SampleInput(special_values(dtype), **extra)
        yield SampleInput(special_values(dtype), descending=True, **extra)


def sample_msort(dtype):
    for x in tensors(dtype, low=-3, high=3):
        yield SampleInput(x)


def sample_topk(dtype):
    """k of 0, 1 and all, both ends, first and last dim; distinct values."""
    for shape in ((5,), (3, 4), (2, 3, 4)):
        for layout in ("contiguous", "transposed"):
            x = distinct(shape, dtype, layout)
            yield SampleInput(x, 2)
            yield SampleInput(x, 1, 0, False)
            yield SampleInput(x, x.shape[-1], -1, True, True)
            yield SampleInput(x, 0, -1)
    yield SampleInput(distinct((), dtype), 1)
    yield SampleInput(distinct((4, 0, 2), dtype), 0, 1)
    yield SampleInput(distinct((4, 0, 2), dtype), 2, 0)
    if dtype.is_floating_point:
        yield SampleInput(gt.tensor([1.0, NAN, 3.0, -INF, 2.0], dtype=dtype), 2)
        yield SampleInput(gt.tensor([1.0, NAN, 3.0, -INF, 2.0], dtype=dtype), 2, largest=False)


# ----- error inputs -------------------------------------------------------------------
# On meta tensors torch runs its Python meta functions (torch._meta_registrations),
# which check less, or word it otherwise, than its CPU kernels; glasstorch's meta
# rules are the CPU ones.
META_SORT_DIM = "sort: on meta, torch's Python meta function does not check dim"
META_TOPK_K = "sort: on meta, torch's Python meta function words the k check otherwise"


def errors_sort():
    x = make_tensor((3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, 2), IndexError,
                     r"^Dimension out of range \(expected to be in range of \[-2, 1\], "
                     r"but got 2\)$", known_bug_on_meta=META_SORT_DIM)
    yield ErrorInput(SampleInput(make_tensor((3,), gt.complex64)), RuntimeError,
                     r"^ Sort does not support complex dtypes on CPU$")


def errors_topk():
    x = make_tensor((3, 4), gt.float32)
    for k in (5, -1):
        yield ErrorInput(SampleInput(x, k), RuntimeError, r"^selected index k out of range$",
                         known_bug_on_meta=META_TOPK_K)
    yield ErrorInput(SampleInput(x, 1, 2), IndexError, r"^Dimension out of range")
    yield ErrorInput(SampleInput(make_tensor((3,), gt.complex64), 1), RuntimeError,
                     r"^ topk does not support complex dtypes on CPU$")
    yield ErrorInput(SampleInput(make_tensor((3,), gt.bool), 1), RuntimeError,
                     r"^topk does not support bool dtypes on CPU$")


OPS = [
    OpInfo("sort", variants=("sort", "Tensor.sort"), ref=_sort, dtypes=REAL,
           sample_inputs=sample_sort, error_inputs=errors_sort, out="sort", marks=TWO_OUT),
    OpInfo("sort.stable", variants=("sort", "Tensor.sort"), ref=_sort, dtypes=REAL,
           sample_inputs=lambda dtype: sample_sort(dtype, stable=True), out="sort",
           marks=TWO_OUT),
    OpInfo("argsort", variants=("argsort", "Tensor.argsort"),
           ref=lambda a, dim=-1, descending=False: stable_argsort(a, dim, descending),
           dtypes=REAL, sample_inputs=sample_sort),
    OpInfo("argsort.stable", variants=("argsort", "Tensor.argsort"),
           ref=lambda a, dim=-1, descending=False, stable=True: stable_argsort(a, dim,
                                                                               descending),
           dtypes=REAL, sample_inputs=lambda dtype: sample_sort(dtype, stable=True),
           out="argsort"),
    OpInfo("msort", variants=("msort", "Tensor.msort"), ref=lambda a: _sort(a, 0)[0],
           dtypes=REAL, sample_inputs=sample_msort, out="msort"),
    OpInfo("topk", variants=("topk", "Tensor.topk"), ref=_topk, dtypes=NUMBERS,
           sample_inputs=sample_topk, error_inputs=errors_topk, out="topk", marks=TWO_OUT),
]
