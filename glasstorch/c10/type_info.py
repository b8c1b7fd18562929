"""`torch.finfo` and `torch.iinfo`: the numeric limits of floating and integer dtypes."""
from __future__ import annotations

import math

import ml_dtypes
import numpy as np

from . import dtype as dtypes
from .promotion import get_default_dtype


# c10's numeric limits give float8_e5m2fnuz half the epsilon ml_dtypes computes (the gap
# after 1.0, 0.25); torch reports c10's value.
_EPS_AS_TORCH = {dtypes.float8_e5m2fnuz: 0.125}


class _TypeInfo:
    """What finfo and iinfo share: equality and hashing by the dtype they describe."""

    dtype: str

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and self.dtype == other.dtype

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.dtype))


class finfo(_TypeInfo):
    """Limits of a floating point dtype (a complex dtype reports its real part's).

    Args:
        type: a floating point or complex dtype; the default dtype when omitted.

    Attributes: `bits`, `eps`, `max`, `min`, `tiny` (= `smallest_normal`),
    `resolution` (the decimal resolution, ``10 ** -floor(-log10(eps))``), `dtype`
    (the dtype's name).

    Example::

        >>> torch.finfo(torch.float16).max
        65504.0
    """

    def __init__(self, type: dtypes.dtype | None = None) -> None:
        if type is None:
            type = get_default_dtype()
        if not isinstance(type, dtypes.dtype):
            raise TypeError(f"finfo(): argument 'type' (position 1) must be torch.dtype, not "
                            f"{builtin_type_name(type)}")
        if type.is_complex:
            type = type.to_real()
        if not type.is_floating_point:
            raise TypeError("torch.finfo() requires a floating point input type. Use "
                            "torch.iinfo to handle 'torch.finfo'")
        info = ml_dtypes.finfo(type._np)
        self.bits = type.itemsize * 8
        self.eps = _EPS_AS_TORCH.get(type, float(info.eps))
        self.max = float(info.max)
        self.min = float(info.min)
        self.tiny = float(info.smallest_normal)
        self.smallest_normal = self.tiny
        self.resolution = 10.0 ** -math.floor(-math.log10(self.eps))
        self.dtype = repr(type)[len("torch."):]

    def __repr__(self) -> str:
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
                f"eps={self.eps:g}, smallest_normal={self.smallest_normal:g}, "
                f"tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo(_TypeInfo):
    """Limits of an integer dtype: `bits`, `min`, `max`, `dtype` (the dtype's name).

    Example::

        >>> torch.iinfo(torch.int8).min
        -128
    """

    def __init__(self, type: dtypes.dtype) -> None:
        if not isinstance(type, dtypes.dtype):
            raise TypeError(f"iinfo(): argument 'type' (position 1) must be torch.dtype, not "
                            f"{builtin_type_name(type)}")
        if type is dtypes.bool:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if type.is_floating_point or type.is_complex:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to "
                            "handle 'torch.iinfo'")
        info = np.iinfo(type._np)
        self.bits = type.itemsize * 8
        self.min = int(info.min)
        self.max = int(info.max)
        self.dtype = repr(type)[len("torch."):]

    def __repr__(self) -> str:
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"


def builtin_type_name(value) -> str:
    return type(value).__name__
