"""OpInfo entries for the factories of `aten/native/factory.py`.

A factory has no tensor input: its samples are sizes and options, the `dtype`
parametrization is the `dtype=` argument, and the meta test passes ``device='meta'``.
"""
import numpy as np
import pytest

import glasstorch as gt

from .core import SHAPES, ErrorInput, OpInfo, SampleInput, numpy_dtype


def _result_dtype(dtype):
    return numpy_dtype(dtype or gt.get_default_dtype())


def sample_sized(dtype):
    """Every standard size; once per dtype without `dtype=` (the default dtype)."""
    for shape in SHAPES:
        yield SampleInput(shape, dtype=dtype)
    yield SampleInput((2, 3))


def sample_empty(dtype):
    yield from sample_sized(dtype)
    yield SampleInput((2, 3, 4, 5), dtype=dtype, memory_format=gt.channels_last)
    yield SampleInput((2, 3, 1, 4, 5), dtype=dtype, memory_format=gt.channels_last_3d)
    yield SampleInput((2, 3), dtype=dtype, memory_format=gt.contiguous_format)


def sample_empty_strided(dtype):
    for shape, stride in (((), ()), ((0,), (1,)), ((5,), (2,)), ((2, 3), (1, 2)),
                          ((2, 3), (6, 2)), ((2, 3), (0, 1)), ((4, 0, 2), (1, 1, 1))):
        yield SampleInput(shape, stride, dtype=dtype)


def _fill_value(dtype):
    if dtype is gt.bool:
        return True
    if dtype.is_complex:
        return 1.5 - 2j
    return 2.5 if dtype.is_floating_point else 3


def _inferred_dtype(value):
    if isinstance(value, bool):
        return gt.bool
    if isinstance(value, int):
        return gt.int64
    return gt.complex64 if isinstance(value, complex) else gt.get_default_dtype()


def sample_full(dtype):
    value = _fill_value(dtype)
    for shape in SHAPES:
        yield SampleInput(shape, value, dtype=dtype)
    yield SampleInput((2, 3), value)            # dtype inferred from the value



def errors_empty():
    yield ErrorInput(SampleInput((2, -1)), RuntimeError,
                     r"^Trying to create tensor with negative dimension -1: \[2, -1\]$")
    yield ErrorInput(SampleInput((2, 3, 4), memory_format=gt.channels_last), RuntimeError,
                     r"^required rank 4 tensor to use channels_last format$")
    yield ErrorInput(SampleInput((2, 3, 4, 5), memory_format=gt.channels_last_3d),
                     RuntimeError, r"^required rank 5 tensor to use channels_last_3d format$")


def errors_empty_strided():
    yield ErrorInput(SampleInput((2, 3), (1,)), RuntimeError,
                     r"^dimensionality of sizes \(2\) must match dimensionality of strides "
                     r"\(1\)$")
    yield ErrorInput(SampleInput((-2,), (1,)), RuntimeError,
                     r"^Trying to create tensor with negative dimension -2: \[-2\]$")


def errors_zeros():
    yield ErrorInput(SampleInput((-1,)), RuntimeError,
                     r"^zeros: Dimension size must be non-negative\.$")


def errors_ones():
    yield ErrorInput(SampleInput((3, -2)), RuntimeError,
                     r"^Trying to create tensor with negative dimension -2: \[3, -2\]$")


def errors_full():
    yield ErrorInput(SampleInput((-1,), 2), RuntimeError,
                     r"^Trying to create tensor with negative dimension -1: \[-1\]$")
    yield ErrorInput(SampleInput((2,), 1 + 2j, dtype=gt.float32), RuntimeError,
                     r"^value cannot be converted to type float without overflow$")
    yield ErrorInput(SampleInput((2,), 300, dtype=gt.uint8), RuntimeError,
                     r"^value cannot be converted to type uint8_t without overflow$")


_FACTORY = dict(is_factory=True, out_warns_on_resize=False)

OPS = [
    OpInfo("empty.memory_format", variants=("empty",), sample_inputs=sample_empty,
           ref=lambda size, dtype=None, **options: np.empty(size, _result_dtype(dtype)),
           error_inputs=errors_empty, out="empty", values_defined=False,
           **{**_FACTORY, "marks": {"test_out_matches_torch": pytest.mark.xfail(
               strict=True, reason="registry (out=): torch refuses memory_format with out= "
                                   "('memory_format' argument is incompatible with 'out' "
                                   "tensor argument)")}}),
    OpInfo("empty_strided", variants=("empty_strided",), sample_inputs=sample_empty_strided,
           ref=lambda size, stride, dtype=None: np.empty(size, _result_dtype(dtype)),
           error_inputs=errors_empty_strided, out="ops.aten.empty_strided",
           values_defined=False, **{**_FACTORY, "marks": {
               "test_out_matches_torch": pytest.mark.xfail(
                   strict=True, reason="registry._out_schema: torch's empty_strided.out "
                                       "takes no dtype/layout/device/pin_memory")}}),
    OpInfo("zeros", variants=("zeros",), sample_inputs=sample_sized,
           ref=lambda size, dtype=None: np.zeros(size, _result_dtype(dtype)),
           error_inputs=errors_zeros, out="zeros", **_FACTORY),
    OpInfo("ones", variants=("ones",), sample_inputs=sample_sized,
           ref=lambda size, dtype=None: np.ones(size, _result_dtype(dtype)),
           error_inputs=errors_ones, out="ones", **_FACTORY),
    OpInfo("full", variants=("full",), sample_inputs=sample_full,
           ref=lambda size, value, dtype=None: np.full(
               size, value, numpy_dtype(dtype or _inferred_dtype(value))),
           error_inputs=errors_full, out="full", **_FACTORY),
]
