"""torch.testing.make_tensor: seeded test tensors, the same values torch makes.

The values come from the generator exactly as torch draws them (``randint`` for bool
and integers, ``uniform_`` for floats, on the real view of complex tensors), so a
seeded call gives torch's tensor bit for bit.
"""
from __future__ import annotations

import math
import warnings
from typing import Any

import glasstorch as torch

_INTEGRAL = (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.uint16,
             torch.uint32, torch.uint64)
_FLOATING = (torch.float16, torch.bfloat16, torch.float32, torch.float64)
_COMPLEX = (torch.complex32, torch.complex64, torch.complex128)
_FLOAT8 = tuple(getattr(torch, name) for name in ("float8_e4m3fn", "float8_e5m2",
                                                    "float8_e4m3fnuz", "float8_e5m2fnuz")
                if hasattr(torch, name))


def _bounds(low, high, dtype, lowest: float, highest: float, default_low: float,
            default_high: float) -> tuple:
    """`low` and `high` (or the defaults), checked and clamped into the dtype's range.

    Integer bounds are rounded up: ``randint``'s upper bound is exclusive.
    """
    low = default_low if low is None else low
    high = default_high if high is None else high
    if any(isinstance(v, float) and math.isnan(v) for v in (low, high)):
        raise ValueError(f"`low` and `high` cannot be NaN, but got low={low} and high={high}")
    if low == high and dtype in _FLOATING + _COMPLEX:
        warnings.warn("Passing `low==high` to `torch.testing.make_tensor` for floating or "
                      "complex types is deprecated since 2.1 and will be removed in 2.3. "
                      "Use `torch.full(...)` instead.", FutureWarning, stacklevel=4)
    elif low >= high:
        raise ValueError(f"`low` must be less than `high`, but got {low} >= {high}")
    elif high < lowest or low >= highest:
        raise ValueError(f"The value interval specified by `low` and `high` is [{low}, {high}), "
                         f"but {dtype} only supports [{lowest}, {highest})")
    low, high = min(max(low, lowest), highest), min(max(high, lowest), highest)
    if dtype is torch.bool or dtype in _INTEGRAL:
        return math.ceil(low), math.ceil(high)
    return low, high


def _uniform_(tensor, low: float, high: float):
    # A range wider than the dtype's largest value would overflow: draw half and double.
    if high - low >= torch.finfo(tensor.dtype).max:
        return tensor.uniform_(low / 2, high / 2).mul_(2)
    return tensor.uniform_(low, high)


def _draw(shape: tuple, dtype, device, low, high):
    if dtype is torch.bool:
        low, high = _bounds(low, high, dtype, 0, 2, 0, 2)
        return torch.randint(low, high, shape, device=device, dtype=dtype)
    if dtype in _INTEGRAL:
        info = torch.iinfo(dtype)
        # randint takes int64 bounds: int64's largest value cannot be an exclusive bound
        highest = info.max + (1 if dtype is not torch.int64 else 0)
        low, high = _bounds(low, high, dtype, info.min, highest, -9, 10)
        return torch.randint(low, high, shape, device=device, dtype=dtype)
    if dtype in _FLOATING + _COMPLEX + _FLOAT8:
        info = torch.finfo(dtype)
        low, high = _bounds(low, high, dtype, info.min, info.max, -9, 9)
        if dtype in _FLOAT8:
            result = torch.empty(shape, device=device, dtype=torch.float32)
            return _uniform_(result, low, high).to(dtype)
        result = torch.empty(shape, device=device, dtype=dtype)
        _uniform_(torch.view_as_real(result) if dtype in _COMPLEX else result, low, high)
        return result
    raise TypeError(f"The requested dtype '{dtype}' is not supported by "
                    "torch.testing.make_tensor(). To request support, file an issue at: "
                    "https://github.com/pytorch/pytorch/issues")


def make_tensor(*shape: Any, dtype: torch.dtype, device: Any, low: float | None = None,
                high: float | None = None, requires_grad: bool = False,
                noncontiguous: bool = False, exclude_zero: bool = False,
                memory_format: Any = None) -> torch.Tensor:
    """A tensor of `shape` filled with values drawn uniformly from ``[low, high)``.

    Default ranges: ``[-9, 9)`` for floating and complex dtypes, ``[-9, 10)`` for
    integers (clamped to the dtype: ``[0, 10)`` for uint8), ``[0, 2)`` for bool; given
    bounds outside the dtype's finite range are clamped to it.

    Args:
        *shape (int or sequence of ints): the shape.
        dtype (torch.dtype): the dtype.
        device (str or torch.device): the device.
        low (float, optional): inclusive lower bound.
        high (float, optional): exclusive upper bound.
        requires_grad (bool): floating and complex only. Default: ``False``
        noncontiguous (bool): return a non-contiguous view (tensors of 2+ elements).
        exclude_zero (bool): replace zeros by 1 (integers) or the dtype's ``tiny``.
        memory_format (torch.memory_format, optional): not with `noncontiguous`.

    Example::

        >>> torch.manual_seed(0)
        >>> torch.testing.make_tensor(3, dtype=torch.int64, device="cpu")
        tensor([-5,  0, -6])
    """
    if len(shape) == 1 and isinstance(shape[0], (list, tuple, torch.Size)):
        shape = shape[0]
    shape = tuple(shape)
    if noncontiguous and memory_format is not None:
        raise ValueError("The parameters `noncontiguous` and `memory_format` are mutually "
                         f"exclusive, but got noncontiguous={noncontiguous} and "
                         f"memory_format={memory_format}")
    if requires_grad and (dtype is torch.bool or dtype in _INTEGRAL):
        raise ValueError("`requires_grad=True` is not supported for boolean and integral "
                         f"dtypes, but got dtype={dtype}")
    noncontiguous = noncontiguous and math.prod(shape) > 1
    if noncontiguous:               # twice the last dimension, then every other element
        shape = (*shape[:-1], 2 * shape[-1])
    result = _draw(shape, dtype, device, low, high)
    if noncontiguous:
        result = result[..., 1::2]
    elif memory_format is not None:
        result = result.clone(memory_format=memory_format)
    if exclude_zero:
        integral = dtype is torch.bool or dtype in _INTEGRAL
        result[result == 0] = 1 if integral else torch.finfo(dtype).tiny
    if dtype in _FLOATING + _COMPLEX:
        result.requires_grad = requires_grad
    return result
