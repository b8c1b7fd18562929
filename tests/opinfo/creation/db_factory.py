"""OpInfo entries for the factories of `aten/native/creation/factory.py`.

A factory has no tensor input: its samples are sizes and options, the `dtype`
parametrization is the `dtype=` argument, and the meta test passes ``device='meta'``.
"""
import numpy as np
import pytest

import glasstorch as gt

from ..core import SHAPES, ErrorInput, OpInfo, SampleInput, make_tensor, numpy_dtype, tensors


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


def sample_empty_permuted(dtype):
    for shape, order in (((), ()), ((0,), (0,)), ((2, 3), (1, 0)), ((2, 0, 3), (1, 0, 2)),
                         ((2, 3, 5, 7), (0, 2, 3, 1))):
        yield SampleInput(shape, order, dtype=dtype)


def errors_empty_permuted():
    yield ErrorInput(SampleInput((2, 3), (0,)), RuntimeError,
                     r"^Number of dimensions in size does not match the length of the "
                     r"physical_layout; i\.e\. len\(size\) = 2 is not equal to "
                     r"len\(physical_layout\) = 1$")
    yield ErrorInput(SampleInput((2, 3), (0, 0)), RuntimeError, r"^Duplicate dim not allowed$")
    yield ErrorInput(SampleInput((2, 3), (-1, 0)), RuntimeError,
                     r"^Dimension out of range \(expected to be between 0 and 1, but got -1 at "
                     r"index 0\)\.  NB: negative dims not currently supported")
    yield ErrorInput(SampleInput((2, -3), (1, 0)), RuntimeError,
                     r"^Trying to create tensor with negative dimension -3: \[-3, 2\]$")


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


# ----- eye, scalar_tensor -----------------------------------------------------------
def sample_eye(dtype):
    for n in (0, 1, 3):
        yield SampleInput(n, dtype=dtype)
    yield SampleInput(4)


def sample_eye_m(dtype):
    for n, m in ((2, 3), (3, 2), (0, 4), (3, 0)):
        yield SampleInput(n, m, dtype=dtype)
    yield SampleInput(2, 2)


def errors_eye():
    yield ErrorInput(SampleInput(-1), RuntimeError, r"^n must be greater or equal to 0, got -1$")


def errors_eye_m():
    yield ErrorInput(SampleInput(2, -3), RuntimeError,
                     r"^m must be greater or equal to 0, got -3$")


def sample_scalar_tensor(dtype):
    yield SampleInput(_fill_value(dtype), dtype=dtype)
    yield SampleInput(3)
    yield SampleInput(True)


def errors_scalar_tensor():
    yield ErrorInput(SampleInput(1j), RuntimeError,
                     r"^value cannot be converted to type float without overflow$")
    yield ErrorInput(SampleInput(300, dtype=gt.uint8), RuntimeError,
                     r"^value cannot be converted to type uint8_t without overflow$")


# ----- *_like and new_* (composites over the factories) --------------------------------
def sample_like(dtype):
    """Every standard tensor; a dtype override; a channels_last request."""
    for x in tensors(dtype):
        yield SampleInput(x)
    x = make_tensor((2, 3), dtype, "transposed")
    yield SampleInput(x, dtype=gt.float64)
    yield SampleInput(x, memory_format=gt.contiguous_format)
    yield SampleInput(make_tensor((2, 3, 4, 5), dtype), memory_format=gt.channels_last)


def sample_full_like(dtype):
    for sample in sample_like(dtype):
        value = _fill_value(sample.kwargs.get("dtype", dtype))
        yield SampleInput(*sample.args, value, **sample.kwargs)


def _like_ref(fill):
    def ref(a, *value, dtype=None, memory_format=None):
        result = numpy_dtype(dtype) if dtype is not None else a.dtype
        return np.full(a.shape, value[0] if value else fill, result)
    return ref


def errors_full_like():
    yield ErrorInput(SampleInput(make_tensor((2,), gt.int64), 1j), RuntimeError,
                     r"^value cannot be converted to type int64_t without overflow$")
    yield ErrorInput(SampleInput(make_tensor((2, 3), gt.float32), 1,
                                 memory_format=gt.channels_last), RuntimeError,
                     r"^required rank 4 tensor to use channels_last format$")


def sample_new(dtype):
    """New sizes from tensors of every layout, with and without a dtype override."""
    for x in tensors(dtype, shapes=((), (3, 4), (2, 0, 3))):
        yield SampleInput(x, (2, 3))
        yield SampleInput(x, (0,), dtype=gt.int32)


def sample_new_full(dtype):
    for sample in sample_new(dtype):
        value = _fill_value(sample.kwargs.get("dtype", dtype))
        yield SampleInput(sample.args[0], sample.args[1], value, **sample.kwargs)


def sample_new_empty_strided(dtype):
    for x in tensors(dtype, shapes=((3, 4),)):
        yield SampleInput(x, (2, 3), (1, 2))


def _new_ref(fill):
    def ref(a, size, *rest, dtype=None):
        value = rest[-1] if rest and fill is None else fill
        return np.full(size, 0 if value is None else value,
                       numpy_dtype(dtype) if dtype is not None else a.dtype)
    return ref


def errors_new():
    yield ErrorInput(SampleInput(make_tensor((2,), gt.float32), (2, -1)), RuntimeError,
                     r"^Trying to create tensor with negative dimension -1: \[2, -1\]$")


_FACTORY = dict(is_factory=True, out_warns_on_resize=False)
# test_noncontiguous compares the values of two calls, which are garbage for empty results
_UNDEFINED_VALUES = {"test_noncontiguous": pytest.mark.skip(reason="values undefined (empty)")}

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
    OpInfo("empty_permuted", variants=("empty_permuted",), sample_inputs=sample_empty_permuted,
           ref=lambda size, order, dtype=None: np.empty(size, _result_dtype(dtype)),
           error_inputs=errors_empty_permuted, values_defined=False, **_FACTORY),
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
    OpInfo("eye", variants=("eye",), sample_inputs=sample_eye, error_inputs=errors_eye,
           ref=lambda n, dtype=None: np.eye(n, dtype=_result_dtype(dtype)), out="eye",
           **_FACTORY),
    OpInfo("eye.m", variants=("eye",), sample_inputs=sample_eye_m, error_inputs=errors_eye_m,
           ref=lambda n, m, dtype=None: np.eye(n, m, dtype=_result_dtype(dtype)), out="eye",
           **_FACTORY),
    OpInfo("scalar_tensor", variants=("scalar_tensor",), sample_inputs=sample_scalar_tensor,
           error_inputs=errors_scalar_tensor,
           ref=lambda s, dtype=None: np.asarray(s, _result_dtype(dtype)), **_FACTORY),
    OpInfo("empty_like", variants=("empty_like",), sample_inputs=sample_like,
           ref=_like_ref(0), values_defined=False, marks=_UNDEFINED_VALUES),
    OpInfo("zeros_like", variants=("zeros_like",), sample_inputs=sample_like,
           ref=_like_ref(0)),
    OpInfo("ones_like", variants=("ones_like",), sample_inputs=sample_like,
           ref=_like_ref(1)),
    OpInfo("full_like", variants=("full_like",), sample_inputs=sample_full_like,
           ref=_like_ref(None), error_inputs=errors_full_like),
    OpInfo("new_empty", variants=("Tensor.new_empty",), sample_inputs=sample_new,
           ref=_new_ref(0), error_inputs=errors_new, values_defined=False,
           marks=_UNDEFINED_VALUES),
    OpInfo("new_empty_strided", variants=("Tensor.new_empty_strided",),
           sample_inputs=sample_new_empty_strided, ref=_new_ref(0), values_defined=False,
           marks=_UNDEFINED_VALUES),
    OpInfo("new_zeros", variants=("Tensor.new_zeros",), sample_inputs=sample_new,
           ref=_new_ref(0), error_inputs=errors_new),
    OpInfo("new_ones", variants=("Tensor.new_ones",), sample_inputs=sample_new,
           ref=_new_ref(1), error_inputs=errors_new),
    OpInfo("new_full", variants=("Tensor.new_full",), sample_inputs=sample_new_full,
           ref=_new_ref(None)),
]
