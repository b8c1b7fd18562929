"""OpInfo entries for the aten operators under torch.unique / torch.unique_consecutive
(`aten/native/sorting/unique.py`). The Python functions themselves are compared with torch in
tests/test_sort.py. NumPy references: `np.unique` (NaNs kept apart), and runs of
equal neighbours for the consecutive forms."""
import numpy as np
import pytest

import glasstorch as gt

from ..core import BOOL, FLOATING, INTEGRAL, ErrorInput, OpInfo, SampleInput, make_tensor
from .db_sort import NAN, stable_argsort

REAL = BOOL + INTEGRAL + FLOATING
EMPTY = np.empty(0, np.int64)


# ----- references --------------------------------------------------------------------
def _runs(ordered_equal: np.ndarray) -> tuple:
    """Run numbers and run lengths from "equal to the previous item" flags."""
    starts = np.concatenate([[True], ~ordered_equal])
    run = np.cumsum(starts) - 1
    return starts, run, np.bincount(run) if run.size else EMPTY


def _unique_all(a, consecutive=False):
    flat = a.reshape(-1)
    order = np.arange(flat.size) if consecutive else stable_argsort(flat)
    ordered = flat[order]
    wide = ordered.astype(np.float64) if ordered.dtype.kind == "V" else ordered
    starts, run, counts = _runs(wide[1:] == wide[:-1]) if flat.size else (
        np.zeros(0, bool), EMPTY, EMPTY)
    inverse = np.empty(flat.size, np.int64)
    inverse[order] = run
    return ordered[starts], inverse.reshape(a.shape), counts.astype(np.int64)


def _unique_slices(a, dim, consecutive=False):
    moved = np.moveaxis(a, dim, 0)
    rows = [tuple(r.reshape(-1).astype(np.float64)) for r in moved]
    order = list(range(len(rows))) if consecutive else sorted(range(len(rows)),
                                                              key=lambda i: rows[i])
    equal = np.array([rows[order[i]] == rows[order[i - 1]] for i in range(1, len(rows))],
                     bool)
    starts, run, counts = _runs(equal) if rows else (np.zeros(0, bool), EMPTY, EMPTY)
    inverse = np.empty(len(rows), np.int64)
    inverse[order] = run
    values = moved[np.array(order, np.int64)[starts]] if rows else moved
    return np.moveaxis(values, 0, dim), inverse, counts.astype(np.int64)


def _unique2(a, sorted=True, return_inverse=False, return_counts=False):
    values, inverse, counts = _unique_all(a)
    return [values, inverse if return_inverse else EMPTY, counts if return_counts else EMPTY]


def _unique_consecutive(a, return_inverse=False, return_counts=False, dim=None):
    if dim is not None:
        return list(_unique_slices(a, dim, True))
    values, inverse, counts = _unique_all(a, True)
    return [values, inverse if return_inverse else EMPTY, counts if return_counts else EMPTY]


# ----- samples -----------------------------------------------------------------------
def _repeats(shape, dtype, layout="contiguous"):
    return make_tensor(shape, dtype, layout, low=-2, high=2)


def sample_unique(dtype):
    for shape in ((8,), (3, 4), (2, 3, 4), (), (0,)):
        x = _repeats(shape, dtype)
        yield SampleInput(x)
        yield SampleInput(x, True, True, True)
    yield SampleInput(_repeats((3, 4), dtype, "transposed"), True, True, False)
    if dtype.is_floating_point:
        special = gt.tensor([3.0, NAN, 1.0, 3.0, -0.0, 0.0, NAN, 1.0], dtype=dtype)
        yield SampleInput(special, True, True, True)


def sample_unique_dim(dtype, consecutive: bool = False):
    rows = gt.tensor([[1, 0, 1], [0, 1, 1], [1, 0, 1], [1, 0, 1], [0, 0, 0]], dtype=dtype)
    for x, dim in ((rows, 0), (rows, 1), (rows.t(), 1), (rows.reshape(5, 3, 1), -3),
                   (_repeats((0, 3), dtype), 0)):
        if consecutive:
            yield SampleInput(x, dim, True, True)
        else:
            yield SampleInput(x, dim, True, True, True)


def sample_unique_consecutive(dtype):
    for x in (_repeats((8,), dtype), _repeats((3, 4), dtype), _repeats((), dtype),
              _repeats((0,), dtype)):
        yield SampleInput(x)
        yield SampleInput(x, True, True)
    for sample in sample_unique_dim(dtype, consecutive=True):
        yield SampleInput(*sample.args[:1], *sample.args[2:], dim=sample.args[1])


# ----- error inputs ------------------------------------------------------------------
def errors_unique_dim():
    yield ErrorInput(SampleInput(gt.zeros(2, 0), 0), RuntimeError,
                     r"^There are 0 sized dimensions, and they aren't selected, so unique "
                     r"cannot be applied$")
    yield ErrorInput(SampleInput(gt.tensor(3.0), 0), IndexError,
                     r"^Dimension specified as 0 but tensor has no dimensions$")
    yield ErrorInput(SampleInput(gt.zeros(2, 3), 2), IndexError, r"^Dimension out of range")


def errors_unique2():
    yield ErrorInput(SampleInput(gt.tensor([1j])), NotImplementedError,
                     r"^\"unique\" not implemented for 'ComplexFloat'$")


# The results' sizes depend on the data: meta tensors are refused (as torch does).
NO_META = {"test_meta": pytest.mark.skip(reason="unique: data-dependent sizes, no meta")}


def _entry(name: str, variants: tuple, ref, samples, errors=lambda: ()) -> OpInfo:
    return OpInfo(name, variants=variants, ref=ref, dtypes=REAL, sample_inputs=samples,
                  error_inputs=errors, marks=NO_META)


OPS = [
    _entry("_unique2", ("_unique2",), _unique2, sample_unique, errors_unique2),
    _entry("_unique", ("_unique",),
           lambda a, sorted=True, return_inverse=False, return_counts=False:
           _unique2(a, sorted, return_inverse)[:2],
           lambda dtype: (SampleInput(*s.args[:3]) for s in sample_unique(dtype))),
    _entry("unique_dim", ("ops.aten.unique_dim",),
           lambda a, dim, sorted=True, return_inverse=False, return_counts=False:
           list(_unique_slices(a, dim)), sample_unique_dim, errors_unique_dim),
    _entry("unique_consecutive", ("ops.aten.unique_consecutive",), _unique_consecutive,
           sample_unique_consecutive),
    _entry("unique_dim_consecutive", ("ops.aten.unique_dim_consecutive",),
           lambda a, dim, return_inverse=False, return_counts=False:
           list(_unique_slices(a, dim, True)),
           lambda dtype: sample_unique_dim(dtype, consecutive=True)),
]
