"""OpInfo entries for repeating and reordering (`aten/native/shape/repeat.py`): repeat, tile,
repeat_interleave, roll, flip, fliplr, flipud, rot90. References are NumPy's tile,
repeat, roll, flip and rot90."""
import numpy as np
import pytest

import glasstorch as gt

from ..core import ErrorInput, OpInfo, SampleInput, make_tensor, tensors


# The result's size is the sum of the counts: a meta tensor has none to read, and torch
# refuses such calls on meta too ("cannot repeat_interleave a meta tensor without
# output_size"; the error inputs compare that).
DATA_DEPENDENT = pytest.mark.skip(reason="size depends on the counts' values")


def _x(*shape, dtype=gt.float32):
    return make_tensor(shape, dtype)


def _dim_error(dim: int, ndim: int) -> str:
    low, high = (-ndim, ndim - 1) if ndim else (-1, 0)
    return (rf"^Dimension out of range \(expected to be in range of \[{low}, {high}\], "
            rf"but got {dim}\)$")


# ----- repeat, tile -------------------------------------------------------------------
def sample_repeat(dtype):
    for x in tensors(dtype):
        yield SampleInput(x, (2,) * x.dim())
        yield SampleInput(x, (2, 1) + (3,) * x.dim())
    yield SampleInput(_x(2, 3, dtype=dtype), (0, 2))


def _repeat(a, repeats):
    return np.tile(a, repeats) if repeats else a.copy()


def errors_repeat():
    yield ErrorInput(SampleInput(_x(2, 3), (2,)), RuntimeError,
                     r"^Number of dimensions of repeat dims can not be smaller than number of "
                     r"dimensions of tensor$")
    yield ErrorInput(SampleInput(_x(2, 3), (2, -1)), RuntimeError,
                     r"^Trying to create tensor with negative dimension -3: \[4, -3\]$")


def sample_tile(dtype):
    for x in tensors(dtype):
        yield SampleInput(x, (2,))
        yield SampleInput(x, (1, 2) + (1,) * x.dim())
    yield SampleInput(_x(2, 3, dtype=dtype), ())


# ----- repeat_interleave --------------------------------------------------------------
def _counts(*values, dtype=gt.int64):
    return gt.tensor(list(values), dtype=dtype)


def sample_interleave_indices(dtype):
    for counts in ((1, 2, 0, 3), (), (4,)):
        yield SampleInput(_counts(*counts, dtype=gt.int32 if len(counts) == 1 else gt.int64))
    yield SampleInput(_counts(2, 1), output_size=3)


def _interleave_indices(counts, output_size=None):
    return np.repeat(np.arange(counts.size, dtype=counts.dtype), counts)


def errors_interleave_indices():
    yield ErrorInput(SampleInput(gt.tensor(3)), RuntimeError,
                     r"^repeat_interleave only accept 1D vector as repeat$")
    yield ErrorInput(SampleInput(_counts(1, -2)), RuntimeError, r"^repeats can not be negative$")
    yield ErrorInput(SampleInput(_counts(1, 2), output_size=4), RuntimeError,
                     r"^allocated size does not match required size$")
    yield ErrorInput(SampleInput(_counts(1, 2, dtype=gt.int16)), NotImplementedError,
                     r"^\"repeat_interleave_cpu\" not implemented for 'Short'$")


def sample_interleave_tensor(dtype):
    for x in tensors(dtype):
        yield SampleInput(x, _counts(2))
        if x.dim() and x.shape[0]:
            counts = np.arange(x.shape[0]) % 3
            yield SampleInput(x, gt.tensor(counts.tolist()), 0)
            yield SampleInput(x, _counts(3), -1, output_size=3 * x.shape[-1])
    yield SampleInput(_x(2, 3, dtype=dtype), _counts(1, 0, 2), dim=1)


def _interleave(a, repeats, dim=None, output_size=None):
    if isinstance(repeats, np.ndarray):
        repeats = repeats.reshape(-1) if repeats.size > 1 else int(repeats.flat[0])
    return np.repeat(a, repeats, axis=dim)


def errors_interleave_tensor():
    x = _x(2, 3)
    yield ErrorInput(SampleInput(x, _counts(1, 2), 1), RuntimeError,
                     r"^repeats must have the same size as input along dim, but got "
                     r"repeats\.size\(0\) = 2 and input\.size\(1\) = 3$")
    yield ErrorInput(SampleInput(x, gt.tensor([[2]]), 1), RuntimeError,
                     r"^repeats must be 0-dim or 1-dim tensor$")
    yield ErrorInput(SampleInput(x, _counts(2), 2), IndexError, _dim_error(2, 2))


def sample_interleave_int(dtype):
    for x in tensors(dtype):
        yield SampleInput(x, 2)
        if x.dim():
            yield SampleInput(x, 3, -1)
            yield SampleInput(x, 0, 0, output_size=0)


def errors_interleave_int():
    x = _x(2, 3)
    yield ErrorInput(SampleInput(x, -1, 1), RuntimeError, r"^Repeats must be non-negative$")
    yield ErrorInput(SampleInput(x, 2, 1, output_size=11), RuntimeError,
                     r"^repeat_interleave: Invalid output_size, expected 6 but got 11$")


# ----- roll ---------------------------------------------------------------------------
def sample_roll(dtype):
    for x in tensors(dtype):
        yield SampleInput(x, 1)
        yield SampleInput(x, (-7,))
        if x.dim():
            yield SampleInput(x, 2, 0)
        if x.dim() >= 2:
            yield SampleInput(x, (1, -2), (-1, 0))
            yield SampleInput(x, (1, 3), (1, 1))


def _roll(a, shifts, dims=()):
    if dims == ():
        return np.roll(a.reshape(-1), shifts).reshape(a.shape)
    return np.roll(a, shifts, dims)


def errors_roll():
    x = _x(2, 3)
    yield ErrorInput(SampleInput(x, ()), RuntimeError, r"^`shifts` required$")
    yield ErrorInput(SampleInput(x, (1, 2)), RuntimeError,
                     r"^shifts and dimensions must align\. shifts: 2, dims:0$")
    yield ErrorInput(SampleInput(x, 1, 2), IndexError, _dim_error(2, 2))


# ----- flip, fliplr, flipud, rot90 ----------------------------------------------------
def sample_flip(dtype):
    for x in tensors(dtype):
        yield SampleInput(x, ())
        yield SampleInput(x, (0,))
        if x.dim() >= 2:
            yield SampleInput(x, (-1, 0))


def _flip(a, dims):
    return np.flip(a, dims).copy() if a.ndim else a.copy()


def errors_flip():
    x = _x(2, 3)
    yield ErrorInput(SampleInput(x, (0, 0)), RuntimeError,
                     r"^dim 0 appears multiple times in the list of dims$")
    yield ErrorInput(SampleInput(x, (2,)), IndexError, _dim_error(2, 2))


def sample_min_dims(ndim: int):
    def samples(dtype):
        for x in tensors(dtype):
            if x.dim() >= ndim:
                yield SampleInput(x)
    return samples


def _min_dims_error(ndim: int, below):
    def errors():
        yield ErrorInput(SampleInput(below), RuntimeError, rf"^Input must be >= {ndim}-d\.$")
    return errors


def sample_rot90(dtype):
    for x in tensors(dtype):
        if x.dim() >= 2:
            for k in (1, 2, 3, 4, -1):
                yield SampleInput(x, k)
            yield SampleInput(x, 1, (-1, 0))


def errors_rot90():
    x = _x(2, 3)
    yield ErrorInput(SampleInput(x, 1, (0,)), RuntimeError,
                     r"^expected total rotation dims == 2, but got dims = 1$")
    yield ErrorInput(SampleInput(_x(3), 1), RuntimeError,
                     r"^expected total dims >= 2, but got total dims = 1$")
    yield ErrorInput(SampleInput(x, 1, (0, -2)), RuntimeError,
                     r"^expected rotation dims to be different, but got dim0 = 0 and dim1 = -2$")
    yield ErrorInput(SampleInput(x, 1, (0, 2)), IndexError, _dim_error(2, 2))


OPS = [
    OpInfo("repeat", variants=("Tensor.repeat",), ref=_repeat, sample_inputs=sample_repeat,
           error_inputs=errors_repeat, out="ops.aten.repeat.out"),
    OpInfo("tile", variants=("tile", "Tensor.tile"), ref=np.tile, sample_inputs=sample_tile),
    OpInfo("repeat_interleave.Tensor", variants=("repeat_interleave",),
           ref=_interleave_indices, dtypes=(gt.int64,),
           sample_inputs=sample_interleave_indices, error_inputs=errors_interleave_indices,
           marks={"test_meta": DATA_DEPENDENT}),
    OpInfo("repeat_interleave.self_Tensor",
           variants=("repeat_interleave", "Tensor.repeat_interleave"), ref=_interleave,
           sample_inputs=sample_interleave_tensor, error_inputs=errors_interleave_tensor,
           marks={"test_meta": DATA_DEPENDENT}),
    OpInfo("repeat_interleave.self_int",
           variants=("repeat_interleave", "Tensor.repeat_interleave"), ref=_interleave,
           sample_inputs=sample_interleave_int, error_inputs=errors_interleave_int),
    OpInfo("roll", variants=("roll", "Tensor.roll"), ref=_roll, sample_inputs=sample_roll,
           error_inputs=errors_roll),
    OpInfo("flip", variants=("flip", "Tensor.flip"), ref=_flip, sample_inputs=sample_flip,
           error_inputs=errors_flip),
    OpInfo("fliplr", variants=("fliplr", "Tensor.fliplr"), ref=lambda a: np.fliplr(a).copy(),
           sample_inputs=sample_min_dims(2), error_inputs=_min_dims_error(2, _x(3))),
    OpInfo("flipud", variants=("flipud", "Tensor.flipud"), ref=lambda a: np.flipud(a).copy(),
           sample_inputs=sample_min_dims(1), error_inputs=_min_dims_error(1, _x())),
    OpInfo("rot90", variants=("rot90", "Tensor.rot90"),
           ref=lambda a, k=1, dims=(0, 1): np.rot90(a, k, dims).copy(),
           sample_inputs=sample_rot90, error_inputs=errors_rot90),
]
