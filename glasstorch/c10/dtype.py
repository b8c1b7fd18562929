"""The dtypes: every torch scalar type, its NumPy twin and its properties.

A `dtype` is a small immutable record. Each one knows the NumPy dtype that holds its
elements in a Storage (bfloat16 and the float8 types come from ml_dtypes), and the
properties torch exposes (`is_floating_point`, `is_complex`, `is_signed`, `itemsize`,
`abbr`, `to_real()`, `to_complex()`). Promotion between dtypes lives in `promotion.py`.

Note [complex32 as float16 pairs]
    torch.complex32 (torch.chalf) holds two float16 halves, 4 bytes an element. NumPy
    has no complex type of that size, and ml_dtypes none either, so glasstorch stores
    it as NumPy's structured pair ``(real: float16, imag: float16)``: the same bytes
    as torch's, so storage sharing, strides, views (`view_as_real` gives the float16
    pairs) and saved files are exact. NumPy has no arithmetic on that type, so nothing
    computes in it: every conversion goes through complex64 (`pairs_to_complex64`,
    `complex_to_pairs`: each part rounded once to float16), and elementwise kernels
    compute complex32 in complex64, torch's "opmath" for it too. torch's quantized
    and bit-packed dtypes (qint8, uint1..7, int1..7, bits8, float4_e2m1fn_x2, ...) are
    absent.
"""
from __future__ import annotations

import warnings

import ml_dtypes
import numpy as np

_PUBLIC_ATTRIBUTES = frozenset(
    ("is_floating_point", "is_complex", "is_signed", "itemsize", "abbr"))


class dtype:
    """A tensor element type, printed and compared like `torch.dtype`.

    Instances are singletons created in this module (`torch.dtype()` cannot make
    more); compare with `is` or `==`. Their attributes are read-only.

    Example::

        >>> torch.float32, torch.float32.itemsize, torch.float is torch.float32
        (torch.float32, 4, True)
    """

    __slots__ = ("_name", "abbr", "itemsize", "is_floating_point", "is_complex",
                 "is_signed", "_np", "_kind")

    def __new__(cls, *args, **kwargs):
        raise TypeError("cannot create 'torch.dtype' instances")

    def __setattr__(self, name, value):
        if name in _PUBLIC_ATTRIBUTES:
            raise AttributeError(f"attribute '{name}' of 'torch.dtype' objects is not writable")
        raise AttributeError(f"'torch.dtype' object has no attribute '{name}'")

    def __repr__(self) -> str:
        return "torch." + self._name

    def __reduce__(self):
        return (_dtype_by_name, (self._name,))

    def to_real(self) -> "dtype":
        """The real counterpart of a complex dtype; other dtypes map to themselves.

        Example::

            >>> torch.complex64.to_real(), torch.int8.to_real()
            (torch.float32, torch.int8)
        """
        return _COMPLEX_TO_REAL.get(self, self)

    def to_complex(self) -> "dtype":
        """The complex dtype whose parts have this dtype's precision.

        Complex dtypes map to themselves; bfloat16 maps to complex64.

        Raises:
            RuntimeError: for dtypes without a complex counterpart (bool, integers, float8).

        Example::

            >>> torch.float16.to_complex(), torch.float64.to_complex()
            (torch.complex32, torch.complex128)
        """
        if self.is_complex:
            return self
        try:
            return _REAL_TO_COMPLEX[self]
        except KeyError:
            raise RuntimeError(
                f"Unknown Complex ScalarType for {_SCALAR_TYPE_NAMES[self]}") from None


def _make(name: str, abbr: str, np_dtype, kind: str, is_signed: bool,
          itemsize: int = 0) -> dtype:
    """Create one dtype singleton; `kind` is 'b' bool, 'i' integer, 'f' floating, 'c' complex."""
    new = object.__new__(dtype)
    np_type = np.dtype(np_dtype) if np_dtype is not None else None
    fields = {"_name": name, "abbr": abbr, "_np": np_type, "_kind": kind,
              "itemsize": np_type.itemsize if np_type is not None else itemsize,
              "is_floating_point": kind == "f", "is_complex": kind == "c",
              "is_signed": is_signed}
    for field, value in fields.items():
        object.__setattr__(new, field, value)
    return new


bool = _make("bool", "b8", np.bool_, "b", False)
uint8 = _make("uint8", "u8", np.uint8, "i", False)
int8 = _make("int8", "i8", np.int8, "i", True)
int16 = _make("int16", "i16", np.int16, "i", True)
int32 = _make("int32", "i32", np.int32, "i", True)
int64 = _make("int64", "i64", np.int64, "i", True)
uint16 = _make("uint16", "u16", np.uint16, "i", False)
uint32 = _make("uint32", "u32", np.uint32, "i", False)
uint64 = _make("uint64", "u64", np.uint64, "i", False)
float16 = _make("float16", "f16", np.float16, "f", True)
bfloat16 = _make("bfloat16", "bf16", ml_dtypes.bfloat16, "f", True)
float32 = _make("float32", "f32", np.float32, "f", True)
float64 = _make("float64", "f64", np.float64, "f", True)
# Note [complex32 as float16 pairs]
COMPLEX32_PAIR = np.dtype([("real", np.float16), ("imag", np.float16)])
complex32 = _make("complex32", "c32", COMPLEX32_PAIR, "c", True)
complex64 = _make("complex64", "c64", np.complex64, "c", True)
complex128 = _make("complex128", "c128", np.complex128, "c", True)
float8_e4m3fn = _make("float8_e4m3fn", "f8e4m3fn", ml_dtypes.float8_e4m3fn, "f", True)
float8_e5m2 = _make("float8_e5m2", "f8e5m2", ml_dtypes.float8_e5m2, "f", True)
float8_e4m3fnuz = _make("float8_e4m3fnuz", "f8e4m3fnuz", ml_dtypes.float8_e4m3fnuz, "f", True)
float8_e5m2fnuz = _make("float8_e5m2fnuz", "f8e5m2fnuz", ml_dtypes.float8_e5m2fnuz, "f", True)
float8_e8m0fnu = _make("float8_e8m0fnu", "f8e8m0fnu", ml_dtypes.float8_e8m0fnu, "f", False)

# torch's alternative spellings; each name is the very same object.
float = float32
double = float64
half = float16
cfloat = complex64
cdouble = complex128
chalf = complex32
long = int64
int = int32
short = int16

# Tensor's dtype shorthand methods: `x.float()` is `x.to(torch.float32)`.
TENSOR_SHORTHANDS = {"float": float32, "double": float64, "half": float16,
                     "bfloat16": bfloat16, "long": int64, "int": int32, "short": int16,
                     "char": int8, "byte": uint8, "bool": bool, "cfloat": complex64,
                     "cdouble": complex128, "chalf": complex32}

# The dtypes the operator tests cover (complex32, which torch's CPU kernels mostly
# refuse, is tested by itself).
ALL_DTYPES = (bool, uint8, int8, int16, int32, int64, uint16, uint32, uint64,
              float16, bfloat16, float32, float64, complex64, complex128,
              float8_e4m3fn, float8_e5m2, float8_e4m3fnuz, float8_e5m2fnuz, float8_e8m0fnu)
FLOAT8_DTYPES = (float8_e4m3fn, float8_e5m2, float8_e4m3fnuz, float8_e5m2fnuz, float8_e8m0fnu)
# Every dtype object this module defines.
EVERY_DTYPE = ALL_DTYPES + (complex32,)

# c10's ScalarType names, used in torch's error messages ("expected scalar type Float").
_SCALAR_TYPE_NAMES = {
    bool: "Bool", uint8: "Byte", int8: "Char", int16: "Short", int32: "Int", int64: "Long",
    uint16: "UInt16", uint32: "UInt32", uint64: "UInt64", float16: "Half",
    bfloat16: "BFloat16", float32: "Float", float64: "Double", complex32: "ComplexHalf",
    complex64: "ComplexFloat", complex128: "ComplexDouble",
    float8_e4m3fn: "Float8_e4m3fn", float8_e5m2: "Float8_e5m2",
    float8_e4m3fnuz: "Float8_e4m3fnuz", float8_e5m2fnuz: "Float8_e5m2fnuz",
    float8_e8m0fnu: "Float8_e8m0fnu",
}
# c10's TypeMeta names: some of torch's messages print these instead ("expected dtype
# float for `end` but got dtype long int").
_TYPE_META_NAMES = {
    bool: "bool", uint8: "unsigned char", int8: "signed char", int16: "short int",
    int32: "int", int64: "long int", float16: "c10::Half", bfloat16: "c10::BFloat16",
    float32: "float", float64: "double", complex64: "c10::complex<float>",
    complex128: "c10::complex<double>",
}
_COMPLEX_TO_REAL = {complex32: float16, complex64: float32, complex128: float64}
_REAL_TO_COMPLEX = {float16: complex32, bfloat16: complex64, float32: complex64,
                    float64: complex128}
_BY_NAME = {t._name: t for t in EVERY_DTYPE}
_FROM_NUMPY = {t._np: t for t in EVERY_DTYPE}


def _dtype_by_name(name: str) -> dtype:
    """Unpickling hook: the singleton called `name` (so pickling keeps identity)."""
    return _BY_NAME[name]


def scalar_type_name(d: dtype) -> str:
    """c10's name for a dtype (`Float`, `Long`, ...), as torch's messages print it.

    Example::

        >>> scalar_type_name(torch.int8)
        'Char'
    """
    return _SCALAR_TYPE_NAMES[d]


def type_meta_name(d: dtype) -> str:
    """c10's TypeMeta name of a dtype (``long int``, ``c10::Half``), as some messages print it."""
    return _TYPE_META_NAMES[d]


def from_numpy_dtype(np_dtype: np.dtype) -> dtype:
    """The torch dtype whose elements NumPy stores as `np_dtype`.

    Raises:
        TypeError: for NumPy dtypes torch has no counterpart for (object, strings, ...).
    """
    try:
        return _FROM_NUMPY[np_dtype]
    except KeyError:
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{np_dtype.type.__name__}. The only "
            "supported types are: "
            "float64, float32, float16, complex64, complex128, int64, int32, int16, int8, "
            "uint64, uint32, uint16, uint8, and bool.") from None


_EXPERIMENTAL_WARNED: set = set()


def warn_complex32_experimental() -> None:
    """torch's warning, once a process, on making its first complex32 tensor."""
    if not _EXPERIMENTAL_WARNED:
        _EXPERIMENTAL_WARNED.add(complex32)
        warnings.warn("ComplexHalf support is experimental and many operators don't support "
                      "it yet.", UserWarning, stacklevel=3)


def pairs_to_complex64(pairs: np.ndarray) -> np.ndarray:
    """complex32 elements (float16 pairs) as complex64 values (exact)."""
    values = np.empty(pairs.shape, np.complex64)
    values.real = pairs["real"]
    values.imag = pairs["imag"]
    return values


def complex_to_pairs(values: np.ndarray) -> np.ndarray:
    """complex64 values as complex32 elements: each part rounded once to float16."""
    warn_complex32_experimental()
    values = np.asarray(values)
    pairs = np.empty(values.shape, COMPLEX32_PAIR)
    pairs["real"] = values.real
    pairs["imag"] = values.imag
    return pairs
