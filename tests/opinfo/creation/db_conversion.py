"""OpInfo entries for the `to` overloads of `aten/native/creation/conversion.py`.

`Tensor.to` returns its input itself when nothing would change; the generic tests
see that as a result equal to the input, the differential test checks that torch
returns its input in exactly the same cases.
"""
import pytest

import glasstorch as gt

from ..core import OpInfo, SampleInput, make_tensor, tensors
from .db_copy import _to_copy

TARGETS = (gt.float64, gt.int32, gt.bool, gt.complex64, gt.complex128)


def _targets(dtype):
    """The dtype itself and the others; complex inputs stay complex (torch warns once per
    process when it drops an imaginary part, which a sample-by-sample comparison cannot
    follow; test_conversion.py checks that warning)."""
    targets = (dtype,) + tuple(t for t in TARGETS if t is not dtype)
    return tuple(t for t in targets if t.is_complex) if dtype.is_complex else targets


def sample_to_dtype(dtype):
    for x in tensors(dtype, low=0):
        for target in _targets(dtype):
            yield SampleInput(x, target)
    target = gt.complex128 if dtype.is_complex else gt.float64
    yield SampleInput(make_tensor((2, 3), dtype, "transposed", low=0), target, copy=True)


def sample_to_device(dtype):
    for x in tensors(dtype, low=0):
        for target in _targets(dtype)[:2]:
            yield SampleInput(x, "cpu", target)


def sample_to_other(dtype):
    for x in tensors(dtype, low=0):
        for target in _targets(dtype):
            yield SampleInput(x, make_tensor((1,), target))


def sample_to_options(dtype):
    for x in tensors(dtype, low=0):
        yield SampleInput(x, dtype=_targets(dtype)[1])
        yield SampleInput(x, dtype=dtype, copy=True)
        yield SampleInput(x, memory_format=gt.contiguous_format)
    yield SampleInput(make_tensor((2, 3, 4, 5), dtype, low=0), memory_format=gt.channels_last)


def _to_ref(a, target=None, *rest, dtype=None, memory_format=None, copy=False,
            non_blocking=False):
    """`to(dtype)`, `to(device, dtype)` or `to(other)`: the elements converted."""
    if isinstance(target, str):                     # to(device, dtype)
        target = rest[0]
    elif target is not None and not isinstance(target, gt.dtype):
        target = getattr(gt, target.dtype.name)     # to(other): other's dtype (an ndarray)
    return _to_copy(a, target or dtype)


OPS = [
    OpInfo("to.dtype", variants=("Tensor.to",), sample_inputs=sample_to_dtype, ref=_to_ref),
    OpInfo("to.device", variants=("Tensor.to",), sample_inputs=sample_to_device, ref=_to_ref,
           marks={"test_meta": pytest.mark.skip(reason="to('cpu') copies data: a meta input "
                                                       "has none (torch refuses too)")}),
    OpInfo("to.other", variants=("Tensor.to",), sample_inputs=sample_to_other, ref=_to_ref),
    OpInfo("to.dtype_layout", variants=("Tensor.to",), sample_inputs=sample_to_options,
           ref=_to_ref),
    OpInfo("type_as", variants=("Tensor.type_as",), sample_inputs=sample_to_other,
           ref=_to_ref),
]
