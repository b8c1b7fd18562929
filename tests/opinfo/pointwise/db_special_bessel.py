"""OpInfo entries for the Bessel functions of torch.special
(`aten/native/pointwise/special_bessel.py`).

References are SciPy's. torch's J0, J1, Y0 and Y1 differ from SciPy's by up to ~1e-6
relatively below |x| of about 6 (Note [torch's Bessel functions J and Y]): their float64
samples keep above 7, and `tests/aten/native/pointwise/test_special_functions.py` holds
the whole line to torch.
"""
import numpy as np

import glasstorch as gt

from ..core import BOOL, INTEGRAL, OpInfo, SampleInput, tensors
from .db_special import EXTREMES, _out_differs, _values, marks, quiet, sample_special, sc
from .db_unary import no_kernel

# float and double kernels only: integers and bool compute in float32
FLOAT_DOUBLE = BOOL + INTEGRAL + (gt.float32, gt.float64)
REDUCED_TOO = FLOAT_DOUBLE + (gt.float16, gt.bfloat16)


def _float_result(function):
    """`function` in float64, rounded to the result dtype (float32 for integers)."""
    @quiet
    def ref(x):
        x = np.asarray(x)
        result = x.dtype if x.dtype.kind in "fV" else np.dtype(np.float32)
        return np.asarray(function(x.astype(np.float64))).astype(result)
    return ref


def sample_far(dtype):
    """float64 samples beyond |x| = 7 (where torch's J and Y agree with SciPy's); other
    dtypes as `sample_special`."""
    if dtype is not gt.float64:
        yield from sample_special(dtype)
        return
    for x in tensors(dtype, low=7, high=40):
        yield SampleInput(x)
    yield SampleInput(_values([float("nan"), float("inf"), -float("inf"), 0.0, 30.0], dtype))


def _spherical_j0(x):
    value = np.where(x == 0, 1.0, np.sin(x) / np.where(x == 0, 1.0, x))
    return np.where(np.isinf(x), 0.0, value)


def _airy_ai(x):
    """SciPy's Ai, with torch's NaN at ±inf and 0 above 103.892."""
    value = np.where(x > 103.892, 0.0, sc.airy(x)[0])
    return np.where(np.isinf(x), np.nan, value)


# Seen only through out= of a wider dtype, where float64 tolerances apply to a result
# torch computes in float32 arithmetic of its own.
FLOAT32_ULPS = _out_differs("special: torch's float32 Bessel kernels run Cephes' series in "
                            "float32; glasstorch's run SciPy's in float64, or differ in a "
                            "last bit of log / sin (1-2 float32 ulp apart)")


def bessel(name: str, function, samples=sample_special, dtypes=FLOAT_DOUBLE,
           float32_ulps: bool = False):
    refused = (gt.complex64,) if gt.float16 in dtypes else (gt.float16, gt.complex64)
    return OpInfo(f"special_{name}", variants=(f"special.{name}",),
                  ref=_float_result(function), dtypes=dtypes, sample_inputs=samples,
                  error_inputs=no_kernel(f"{name}_cpu", refused), out=f"special.{name}",
                  marks=marks(True, **(FLOAT32_ULPS if float32_ulps else {})))


def _scipy(name):
    return lambda x: getattr(sc, name)(x)


# airy_ai: torch's (so glasstorch's) asymptotic form differs from SciPy's in [-2.6, -2.09]
# (float64); test_special_functions.py holds that range to torch
AIRY_EXTREMES = [v for v in EXTREMES if v != -2.5]


def sample_airy(dtype):
    yield from sample_special(dtype, AIRY_EXTREMES, low=-2, high=9)


OPS = [
    bessel("bessel_j0", _scipy("j0"), sample_far),
    bessel("bessel_j1", _scipy("j1"), sample_far),
    bessel("bessel_y0", _scipy("y0"), sample_far, float32_ulps=True),
    bessel("bessel_y1", _scipy("y1"), sample_far, float32_ulps=True),
    bessel("modified_bessel_i0", _scipy("i0"), float32_ulps=True),
    bessel("modified_bessel_i1", _scipy("i1"), float32_ulps=True),
    bessel("modified_bessel_k0", _scipy("k0")),
    bessel("modified_bessel_k1", _scipy("k1")),
    bessel("scaled_modified_bessel_k0", _scipy("k0e"), float32_ulps=True),
    bessel("scaled_modified_bessel_k1", _scipy("k1e")),
    bessel("spherical_bessel_j0", _spherical_j0),
    bessel("airy_ai", _airy_ai, sample_airy),
    bessel("i0e", _scipy("i0e"), dtypes=REDUCED_TOO, float32_ulps=True),
    bessel("i1", _scipy("i1"), dtypes=REDUCED_TOO, float32_ulps=True),
    bessel("i1e", _scipy("i1e"), dtypes=REDUCED_TOO, float32_ulps=True),
]
