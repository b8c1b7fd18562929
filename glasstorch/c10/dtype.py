"""The dtypes: every torch scalar type, its NumPy twin and its properties.

A `dtype` is a small immutable record. Each one knows the NumPy dtype that holds its
elements in a Storage (bfloat16 and the float8 types come from ml_dtypes), and the
properties torch exposes (`is_floating_point`, `is_complex`, `is_signed`, `itemsize`).
Promotion between dtypes lives in `promotion.py`.
"""
from __future__ import annotations

import ml_dtypes
import numpy as np


class dtype:
    """A tensor element type, printed and compared like `torch.dtype`.

    Instances are singletons created in this module; compare with `is` or `==`.
    """

    __slots__ = ("_name", "itemsize", "is_floating_point", "is_complex", "is_signed",
                 "_np", "_kind")

    def __init__(self, name: str, np_dtype, kind: str, is_signed: bool) -> None:
        self._name = name
        self._np = np.dtype(np_dtype) if np_dtype is not None else None
        self.itemsize = self._np.itemsize if self._np is not None else 4
        self._kind = kind                      # 'b' bool, 'i' integer, 'f' floating, 'c' complex
        self.is_floating_point = kind == "f"
        self.is_complex = kind == "c"
        self.is_signed = is_signed

    def __repr__(self) -> str:
        return "torch." + self._name

    def __reduce__(self):
        return (_dtype_by_name, (self._name,))

    def to_real(self) -> "dtype":
        """The real counterpart of a complex dtype; other dtypes map to themselves."""
        return _COMPLEX_TO_REAL.get(self, self)

    def to_complex(self) -> "dtype":
        """The complex dtype whose parts have this dtype's precision.

        Raises:
            RuntimeError: for dtypes without a complex counterpart (integers, bool).
        """
        if self.is_complex:
            return self
        try:
            return _REAL_TO_COMPLEX[self]
        except KeyError:
            raise RuntimeError(f"Unsupported ScalarType {_SCALAR_TYPE_NAMES.get(self, self._name)}") from None


def _dtype_by_name(name: str) -> dtype:
    return globals()[name]


bool = dtype("bool", np.bool_, "b", False)
uint8 = dtype("uint8", np.uint8, "i", False)
int8 = dtype("int8", np.int8, "i", True)
int16 = dtype("int16", np.int16, "i", True)
int32 = dtype("int32", np.int32, "i", True)
int64 = dtype("int64", np.int64, "i", True)
uint16 = dtype("uint16", np.uint16, "i", False)
uint32 = dtype("uint32", np.uint32, "i", False)
uint64 = dtype("uint64", np.uint64, "i", False)
float16 = dtype("float16", np.float16, "f", True)
bfloat16 = dtype("bfloat16", ml_dtypes.bfloat16, "f", True)
float32 = dtype("float32", np.float32, "f", True)
float64 = dtype("float64", np.float64, "f", True)
complex64 = dtype("complex64", np.complex64, "c", True)
complex128 = dtype("complex128", np.complex128, "c", True)
float8_e4m3fn = dtype("float8_e4m3fn", ml_dtypes.float8_e4m3fn, "f", True)
float8_e5m2 = dtype("float8_e5m2", ml_dtypes.float8_e5m2, "f", True)
float8_e4m3fnuz = dtype("float8_e4m3fnuz", ml_dtypes.float8_e4m3fnuz, "f", True)
float8_e5m2fnuz = dtype("float8_e5m2fnuz", ml_dtypes.float8_e5m2fnuz, "f", True)
float8_e8m0fnu = dtype("float8_e8m0fnu", ml_dtypes.float8_e8m0fnu, "f", False)

# torch's alternative spellings; each name is the very same object.
float = float32
double = float64
half = float16
cfloat = complex64
cdouble = complex128
long = int64
int = int32
short = int16

ALL_DTYPES = (bool, uint8, int8, int16, int32, int64, uint16, uint32, uint64,
              float16, bfloat16, float32, float64, complex64, complex128,
              float8_e4m3fn, float8_e5m2, float8_e4m3fnuz, float8_e5m2fnuz, float8_e8m0fnu)
FLOAT8_DTYPES = ALL_DTYPES[15:]

# c10's ScalarType names, used in torch's error messages ("expected scalar type Float").
_SCALAR_TYPE_NAMES = {
    bool: "Bool", uint8: "Byte", int8: "Char", int16: "Short", int32: "Int", int64: "Long",
    uint16: "UInt16", uint32: "UInt32", uint64: "UInt64", float16: "Half",
    bfloat16: "BFloat16", float32: "Float", float64: "Double", complex64: "ComplexFloat",
    complex128: "ComplexDouble", float8_e4m3fn: "Float8_e4m3fn", float8_e5m2: "Float8_e5m2",
    float8_e4m3fnuz: "Float8_e4m3fnuz", float8_e5m2fnuz: "Float8_e5m2fnuz",
    float8_e8m0fnu: "Float8_e8m0fnu",
}
_COMPLEX_TO_REAL = {complex64: float32, complex128: float64}
_REAL_TO_COMPLEX = {float16: complex64, bfloat16: complex64, float32: complex64,
                    float64: complex128}
_FROM_NUMPY = {d._np: d for d in ALL_DTYPES}


def scalar_type_name(d: dtype) -> str:
    """c10's name for a dtype (`Float`, `Long`, ...), as torch's messages print it."""
    return _SCALAR_TYPE_NAMES[d]


def from_numpy_dtype(np_dtype: np.dtype) -> dtype:
    """The torch dtype whose elements NumPy stores as `np_dtype`.

    Raises:
        TypeError: for NumPy dtypes torch has no counterpart for (object, strings, ...).
    """
    try:
        return _FROM_NUMPY[np_dtype]
    except KeyError:
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{np_dtype}. The only supported types are: "
            "float64, float32, float16, complex64, complex128, int64, int32, int16, int8, "
            "uint64, uint32, uint16, uint8, and bool.") from None
