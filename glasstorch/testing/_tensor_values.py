"""Comparing two tensors: their attributes, then their values (torch.testing's rules)."""
from __future__ import annotations

import glasstorch as torch
from . import _messages
from ._tolerances import ComparisonError

_WIDE_UNSIGNED = (torch.uint16, torch.uint32, torch.uint64)


def _check_attributes(actual, expected, path, options) -> None:
    def mismatch(name, actual_value, expected_value):
        raise ComparisonError(AssertionError, f"The values for attribute '{name}' do not "
                              f"match: {actual_value} != {expected_value}.", path)
    if actual.shape != expected.shape:
        mismatch("shape", actual.shape, expected.shape)
    if actual.layout != expected.layout:
        if options["check_layout"]:
            mismatch("layout", actual.layout, expected.layout)
    elif (actual.layout == torch.strided and options["check_stride"]
          and actual.stride() != expected.stride()):
        mismatch("stride()", actual.stride(), expected.stride())
    if options["check_device"] and actual.device != expected.device:
        mismatch("device", actual.device, expected.device)
    if options["check_dtype"] and actual.dtype != expected.dtype:
        mismatch("dtype", actual.dtype, expected.dtype)


def _equalize(actual, expected) -> tuple:
    """Bring both to one device, one dtype (promoted; wide unsigned as int64), strided."""
    if actual.device != expected.device:
        actual, expected = actual.cpu(), expected.cpu()
    if actual.dtype != expected.dtype:
        dtypes = [torch.int64 if d in _WIDE_UNSIGNED else d for d in (actual.dtype, expected.dtype)]
        dtype = torch.promote_types(*dtypes)
        actual, expected = actual.to(dtype), expected.to(dtype)
    if actual.layout != expected.layout:
        actual, expected = (t if t.layout == torch.strided else t.to_dense()
                            for t in (actual, expected))
    return actual, expected


def compare_tensors(actual, expected, rtol: float, atol: float, path: tuple, options: dict) -> None:
    """Raise a ComparisonError unless the tensors agree (attributes) and are close (values)."""
    _check_attributes(actual, expected, path, options)
    if actual.device.type == "meta" or expected.device.type == "meta":
        return
    actual, expected = _equalize(actual, expected)
    if actual.dtype.is_floating_point and actual.dtype.itemsize == 1 and (rtol or atol):
        raise ComparisonError(AssertionError, f"Rtol={rtol} and atol={atol} are not supported "
                              "for bitwise comparison of low dimensional floats. Please use "
                              "rtol=0.0 and atol=0.0.")
    matches = torch.isclose(actual, expected, rtol=rtol, atol=atol, equal_nan=options["equal_nan"])
    if torch.all(matches):
        return
    if actual.shape == torch.Size([]):
        message = _messages.scalar_mismatch(actual.item(), expected.item(), rtol=rtol, atol=atol)
    else:
        message = _messages.tensor_mismatch(actual, expected, matches, rtol=rtol, atol=atol)
    raise ComparisonError(AssertionError, message, path)
