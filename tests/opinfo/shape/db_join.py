"""OpInfo entries for joining tensors (`aten/native/shape/join.py`): cat and its aliases,
stack, the NumPy-style stacks and atleast_1d/2d/3d.

References are NumPy's concatenate / stack family, with torch's dtype promotion
(`promoted`); samples mix layouts, dtypes and torch's legacy empty (0,) tensors.
"""
import numpy as np

import glasstorch as gt
from glasstorch.c10.dtype import from_numpy_dtype

from ..convert import numpy_dtype
from ..core import ErrorInput, OpInfo, SampleInput, make_tensor, tensors

JOIN_SHAPES = ((0,), (5,), (3, 4), (2, 3, 4), (1, 3, 1), (4, 0, 2))


def promoted(*arrays) -> np.dtype:
    """The NumPy dtype of torch's promotion of all the arrays' dtypes."""
    dtype = from_numpy_dtype(arrays[0].dtype)
    for a in arrays[1:]:
        dtype = gt.promote_types(dtype, from_numpy_dtype(a.dtype))
    return numpy_dtype(dtype)


def _x(*shape, dtype=gt.float32):
    return make_tensor(shape, dtype)


# ----- cat, concat, concatenate ------------------------------------------------------
def sample_cat(dtype):
    for x in tensors(dtype, JOIN_SHAPES):
        yield SampleInput([x, x], 0)
        if x.dim() >= 2:
            longer = make_tensor(x.shape[:-1] + (2,), dtype, seed=1)
            yield SampleInput([x, longer, x], -1)
    yield SampleInput([_x(2, 3, dtype=dtype)], 1)
    yield SampleInput([make_tensor((0,), gt.float64), _x(2, 3, dtype=dtype)], 1)
    yield SampleInput([_x(3, 2, dtype=dtype), _x(1, 2, dtype=gt.int32)])
    yield SampleInput([_x(2, 2, dtype=gt.bool), _x(2, 1, dtype=dtype)], dim=1)
    yield SampleInput([make_tensor((0,), dtype), make_tensor((0,), gt.int8)], 3)


def _cat(arrays, dim=0):
    kept = [a for a in arrays if a.shape != (0,)]
    dtype = promoted(*arrays)
    if not kept:
        return np.empty((0,), dtype)
    return np.concatenate([a.astype(dtype) for a in kept], axis=dim)


def errors_cat():
    yield ErrorInput(SampleInput([]), ValueError,
                     r"^torch\.cat\(\): expected a non-empty list of Tensors$")
    yield ErrorInput(SampleInput([_x(3), _x()]), RuntimeError,
                     r"^zero-dimensional tensor \(at position 1\) cannot be concatenated$")
    yield ErrorInput(SampleInput([_x(2, 3), _x(2, 3, 4)]), RuntimeError,
                     r"^Tensors must have same number of dimensions: got 2 and 3$")
    yield ErrorInput(SampleInput([_x(2, 3), _x(0), _x(2, 4)]), RuntimeError,
                     r"^Sizes of tensors must match except in dimension 0\. Expected size 3 "
                     r"but got size 4 for tensor number 2 in the list\.$")
    yield ErrorInput(SampleInput([_x(0), _x(2, 3)], 2), IndexError,
                     r"^Dimension out of range \(expected to be in range of \[-2, 1\], but "
                     r"got 2\)$")
    yield ErrorInput(SampleInput([_x(2, 0), _x(2, 3)]), RuntimeError,
                     r"^Sizes of tensors must match except in dimension 0\. Expected size 0 "
                     r"but got size 3 for tensor number 1 in the list\.$")


def _cat_entry(name: str) -> OpInfo:
    return OpInfo(name, variants=(name,), ref=_cat, sample_inputs=sample_cat,
                  error_inputs=errors_cat, out=name)


# ----- stack -------------------------------------------------------------------------
def sample_stack(dtype):
    for x in tensors(dtype, ((),) + JOIN_SHAPES):
        yield SampleInput([x, x], 0)
        yield SampleInput([x, x, x], -1)
    yield SampleInput([_x(2, 3, dtype=dtype), _x(2, 3, dtype=gt.float64)], 1)
    channels_last = _x(2, 3, 4, 5, dtype=dtype).contiguous(memory_format=gt.channels_last)
    yield SampleInput([channels_last, channels_last], 1)


def _stack(arrays, dim=0):
    dtype = promoted(*arrays)
    return np.stack([a.astype(dtype) for a in arrays], axis=dim)


def errors_stack():
    yield ErrorInput(SampleInput([]), RuntimeError, r"^stack expects a non-empty TensorList$")
    yield ErrorInput(SampleInput([_x(2, 3), _x(2, 4)]), RuntimeError,
                     r"^stack expects each tensor to be equal size, but got \[2, 3\] at entry "
                     r"0 and \[2, 4\] at entry 1$")
    yield ErrorInput(SampleInput([_x(2, 3), _x(2, 3)], 3), IndexError,
                     r"^Dimension out of range \(expected to be in range of \[-3, 2\], but "
                     r"got 3\)$")


# ----- hstack, vstack, row_stack, dstack, column_stack --------------------------------
def _stack_samples(dtype):
    for x in tensors(dtype, ((), (5,), (3, 4), (2, 3, 4), (1, 3, 1))):
        yield SampleInput([x, x])
    yield SampleInput([_x(dtype=dtype), _x(1, dtype=gt.float64)])
    yield SampleInput([_x(2, 3, dtype=dtype)])


def sample_hstack(dtype):
    yield from _stack_samples(dtype)
    yield SampleInput([_x(2, 3, dtype=dtype), _x(2, 1, dtype=dtype)])


def sample_vstack(dtype):
    yield from _stack_samples(dtype)
    yield SampleInput([_x(2, 3, dtype=dtype), _x(3, dtype=dtype)])


def sample_dstack(dtype):
    yield from _stack_samples(dtype)
    yield SampleInput([_x(2, 3, dtype=dtype), _x(2, 3, 2, dtype=dtype)])


def sample_column_stack(dtype):
    yield from _stack_samples(dtype)
    yield SampleInput([_x(3, dtype=dtype), _x(3, 2, dtype=dtype), _x(3, 1, dtype=dtype)])


def _numpy_stack(function):
    def ref(arrays):
        dtype = promoted(*arrays)
        return function([a.astype(dtype) for a in arrays])
    return ref


def _stack_errors(name: str, mismatch=None):
    said = "vstack" if name == "row_stack" else name      # row_stack is vstack, by name too
    def errors():
        yield ErrorInput(SampleInput([]), RuntimeError,
                         rf"^{said} expects a non-empty TensorList$")
        if mismatch is not None:
            yield ErrorInput(SampleInput(mismatch), RuntimeError,
                             r"^Sizes of tensors must match except in dimension")
    return errors


def _stack_entry(name, function, samples, mismatch=None) -> OpInfo:
    return OpInfo(name, variants=(name,), ref=_numpy_stack(function), sample_inputs=samples,
                  error_inputs=_stack_errors(name, mismatch), out=name)


# ----- atleast_1d / 2d / 3d -----------------------------------------------------------
def sample_atleast(dtype):
    for x in tensors(dtype, ((), (0,), (5,), (3, 4), (2, 3, 4))):
        yield SampleInput(x)


def sample_atleast_sequence(dtype):
    yield SampleInput([_x(dtype=dtype), _x(3, dtype=dtype), _x(2, 3, dtype=dtype)])
    yield SampleInput([_x(2, 3, 4, dtype=dtype)])


def _atleast_entries(ndim: int, function) -> list:
    name = f"atleast_{ndim}d"
    return [OpInfo(name, variants=(name,), ref=function, sample_inputs=sample_atleast),
            OpInfo(f"{name}.Sequence", variants=(name,),
                   ref=lambda arrays: [function(a) for a in arrays],
                   sample_inputs=sample_atleast_sequence)]


OPS = [
    _cat_entry("cat"),
    _cat_entry("concat"),
    _cat_entry("concatenate"),
    OpInfo("stack", variants=("stack",), ref=_stack, sample_inputs=sample_stack,
           error_inputs=errors_stack, out="stack"),
    _stack_entry("hstack", np.hstack, sample_hstack, [_x(2, 3), _x(3, 3)]),
    _stack_entry("vstack", np.vstack, sample_vstack, [_x(2, 3), _x(2, 4)]),
    _stack_entry("row_stack", np.vstack, sample_vstack, [_x(2, 3), _x(2, 4)]),
    _stack_entry("dstack", np.dstack, sample_dstack, [_x(2, 3), _x(3, 3)]),
    _stack_entry("column_stack", np.column_stack, sample_column_stack, [_x(3), _x(4)]),
    *_atleast_entries(1, np.atleast_1d),
    *_atleast_entries(2, np.atleast_2d),
    *_atleast_entries(3, np.atleast_3d),
]
