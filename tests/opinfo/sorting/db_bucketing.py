"""OpInfo entries for searchsorted, bucketize and isin (`aten/native/sorting/bucketing.py`).
NumPy references: `np.searchsorted` row by row, `np.isin`, in the operands' common
dtype."""
import numpy as np
import pytest

import glasstorch as gt

from ..core import FLOATING, INTEGRAL, ErrorInput, OpInfo, SampleInput, make_tensor
from .db_sort import NAN

NUMBERS = INTEGRAL + FLOATING


# ----- references --------------------------------------------------------------------
def _common(a, b):
    """Both operands in torch's common dtype (float16/bfloat16 compared in float32)."""
    to_tensor = lambda v: gt.from_numpy(np.asarray(v)) if isinstance(v, np.ndarray) else v  # noqa: E731
    dtype = gt.result_type(to_tensor(a), to_tensor(b))
    wide = np.float32 if dtype in (gt.float16, gt.bfloat16) else np.dtype(str(dtype)[6:])
    return np.asarray(a).astype(wide), np.asarray(b).astype(wide)


def _torch_bound(row: np.ndarray, value, right: bool) -> int:
    """torch's binary search, where a comparison with NaN is false."""
    start, end = 0, row.size
    while start < end:
        middle = (start + end) // 2
        if not (row[middle] > value if right else row[middle] >= value):
            start = middle + 1
        else:
            end = middle
    return start


def _searchsorted(boundaries, values, out_int32=False, right=False, side=None, sorter=None):
    boundaries, values = _common(boundaries, values)
    if sorter is not None:
        boundaries = np.take_along_axis(boundaries, sorter, -1)
    side = side or ("right" if right else "left")
    if np.isnan(boundaries.astype(np.float64)).any():
        found = [_torch_bound(boundaries, v, side == "right") for v in values.reshape(-1)]
        return np.array(found, np.int32 if out_int32 else np.int64).reshape(values.shape)
    if boundaries.ndim == 1:
        found = np.searchsorted(boundaries, values, side=side)
    else:
        rows = [np.searchsorted(b, v, side=side) for b, v in
                zip(boundaries.reshape(-1, boundaries.shape[-1]),
                    values.reshape(-1, values.shape[-1]))]
        found = np.array(rows).reshape(values.shape)
    return np.asarray(found).astype(np.int32 if out_int32 else np.int64)


def _bucketize(values, boundaries, out_int32=False, right=False):
    return _searchsorted(boundaries, values, out_int32, right)


def _isin(elements, test_elements, assume_unique=False, invert=False):
    elements, test_elements = _common(elements, test_elements)
    return np.isin(elements, test_elements, invert=invert)


# ----- samples -----------------------------------------------------------------------
def _sorted(shape, dtype, seed=0, layout="contiguous"):
    x = make_tensor(shape, dtype, layout, low=-5, high=5, seed=seed)
    return x.sort(dim=-1).values if x.dim() else x


def sample_searchsorted(dtype, scalar: bool = False):
    """1-D and per-row boundaries, both sides, int32 results, a sorter, repeats."""
    boundaries = _sorted((6,), dtype)
    for values in ((3, 4), (5,), (), (0,)):
        v = 2 if scalar else make_tensor(values, dtype, low=-6, high=6, seed=1)
        yield SampleInput(boundaries, v)
        yield SampleInput(boundaries, v, right=True, out_int32=True)
        yield SampleInput(boundaries, v, side="right")
        if scalar:
            break
    if not scalar:
        yield SampleInput(_sorted((3, 5), dtype), make_tensor((3, 4), dtype, low=-6, high=6))
        yield SampleInput(_sorted((2, 3, 5), dtype), make_tensor((2, 3, 2), dtype), right=True)
        yield SampleInput(_sorted((3, 5), dtype, layout="transposed"),
                          make_tensor((3, 4), dtype, "transposed", low=-6, high=6))
    unsorted = make_tensor((6,), dtype, low=-5, high=5, seed=2)
    yield SampleInput(unsorted, 1 if scalar else make_tensor((4,), dtype, seed=3),
                      sorter=unsorted.argsort())
    if dtype.is_floating_point and not scalar:
        yield SampleInput(gt.tensor([1.0, 2.0, NAN], dtype=dtype),
                          gt.tensor([NAN, 1.5, 3.0], dtype=dtype))


def sample_bucketize(dtype, scalar: bool = False):
    boundaries = _sorted((6,), dtype)
    for shape in ((3, 4), (5,), (), (0,)):
        v = 2 if scalar else make_tensor(shape, dtype, low=-6, high=6, seed=1)
        yield SampleInput(v, boundaries)
        yield SampleInput(v, boundaries, right=True, out_int32=True)
        if scalar:
            break


def sample_isin(dtype, kind: str = "Tensor_Tensor"):
    for shape, test_shape in (((3, 4), (5,)), ((5,), (2, 3)), ((), (4,)), ((0,), (3,))):
        x = make_tensor(shape, dtype, low=-4, high=4)
        test = make_tensor(test_shape, dtype, low=-4, high=4, seed=1)
        if kind == "Scalar_Tensor":
            x = 2
        elif kind == "Tensor_Scalar":
            test = 2
        yield SampleInput(x, test)
        yield SampleInput(x, test, invert=True)
    if kind == "Tensor_Tensor":
        distinct = gt.tensor([1, 3, 5], dtype=dtype)
        yield SampleInput(distinct, gt.tensor([3, 4], dtype=dtype), assume_unique=True)
        yield SampleInput(make_tensor((4,), gt.int64), make_tensor((3,), gt.float32))


# ----- error inputs ------------------------------------------------------------------
META_UNCHECKED = "bucketing: torch's meta function checks fewer arguments"
def errors_searchsorted():
    s = gt.tensor([1.0, 3.0, 5.0])
    v = gt.tensor([2.0])
    yield ErrorInput(SampleInput(s, v, side="foo"), RuntimeError,
                     r"^torch\.searchsorted\(\): side can only be 'left' or 'right' but got foo$",
                     known_bug_on_meta=META_UNCHECKED)
    yield ErrorInput(SampleInput(s, v, right=True, side="left"), RuntimeError,
                     r"^torch\.searchsorted\(\): side and right can't be set to opposites, got "
                     r"side of left while right was True$")
    yield ErrorInput(SampleInput(s, v, sorter=gt.tensor([1.0, 0.0, 2.0])), RuntimeError,
                     r"^torch\.searchsorted\(\): sorter must be a tensor of long dtype but got "
                     r"dtype Float$",
                     known_bug_on_meta=META_UNCHECKED)
    yield ErrorInput(SampleInput(s, v, sorter=gt.tensor([[0, 1]])), RuntimeError,
                     r"^torch\.searchsorted\(\): boundary and sorter must have the same size",
                     known_bug_on_meta=META_UNCHECKED)
    yield ErrorInput(SampleInput(s, v, sorter=gt.tensor([0, 1, 5])), RuntimeError,
                     r"^torch\.searchsorted\(\): sorter index out of range$")
    yield ErrorInput(SampleInput(gt.tensor(5.0), v), RuntimeError,
                     r"^torch\.searchsorted\(\): boundaries tensor should have positive "
                     r"dimension, but got 0 dimension$",
                     known_bug_on_meta=META_UNCHECKED)
    yield ErrorInput(SampleInput(gt.tensor([[1.0, 3.0], [2.0, 4.0]]), v), RuntimeError,
                     r"^torch\.searchsorted\(\): boundaries tensor should be 1 dimension or "
                     r"the first N-1 dimensions")
    yield ErrorInput(SampleInput(gt.tensor([[1.0, 3.0], [2.0, 4.0]]), gt.tensor(2.0)),
                     RuntimeError, r"^torch\.searchsorted\(\): input value can be a scalar "
                                   r"only when boundaries tensor dimension is 1",
                     known_bug_on_meta=META_UNCHECKED)
    yield ErrorInput(SampleInput(gt.tensor([1 + 1j]), gt.tensor([1j])), NotImplementedError,
                     r"^\"searchsorted_out_cpu\" not implemented for 'ComplexFloat'$")


def errors_bucketize():
    yield ErrorInput(SampleInput(gt.tensor([3.0]), gt.tensor([[1.0, 2.0]])), RuntimeError,
                     r"^boundaries tensor must be 1 dimension, but got dim\(2\)$",
                     known_bug_on_meta=META_UNCHECKED)


def errors_isin():
    for bad in (gt.tensor([True]), gt.tensor([1j])):
        name = "Bool" if bad.dtype is gt.bool else "ComplexFloat"
        yield ErrorInput(SampleInput(bad, bad), RuntimeError,
                         rf"^Unsupported input type encountered for isin\(\): {name}$",
                         known_bug_on_meta="bucketing: torch's meta isin names the dtype "
                                           "'torch.bool'")


# torch resizes the out= of isin(number, tensor) to [0] first (with the resize warning
# whatever its shape), then to the 0-dim result.
ISIN_SCALAR_OUT = pytest.mark.xfail(strict=True, reason=(
    "bucketing: torch's isin.Scalar_Tensor_out warns that it resized out to [0]"))


def _isin_entry(kind: str) -> OpInfo:
    marks = {"test_out_matches_torch": ISIN_SCALAR_OUT} if kind == "Scalar_Tensor" else {}
    return OpInfo(f"isin.{kind}", variants=("isin",), ref=_isin, dtypes=NUMBERS,
                  sample_inputs=lambda dtype: sample_isin(dtype, kind), out="isin",
                  error_inputs=errors_isin if kind == "Tensor_Tensor" else lambda: (),
                  marks=marks)


OPS = [
    OpInfo("searchsorted.Tensor", variants=("searchsorted",), ref=_searchsorted,
           dtypes=NUMBERS, sample_inputs=sample_searchsorted, error_inputs=errors_searchsorted,
           out="searchsorted"),
    OpInfo("searchsorted.Scalar", variants=("searchsorted",), ref=_searchsorted,
           dtypes=NUMBERS, sample_inputs=lambda dtype: sample_searchsorted(dtype, True),
           out="searchsorted"),
    OpInfo("bucketize.Tensor", variants=("bucketize",), ref=_bucketize, dtypes=NUMBERS,
           sample_inputs=sample_bucketize, error_inputs=errors_bucketize, out="bucketize"),
    OpInfo("bucketize.Scalar", variants=("bucketize",), ref=_bucketize, dtypes=NUMBERS,
           sample_inputs=lambda dtype: sample_bucketize(dtype, True)),
    _isin_entry("Tensor_Tensor"),
    _isin_entry("Scalar_Tensor"),
    _isin_entry("Tensor_Scalar"),
]
