"""OpInfo entries for the Gaussian functions of torch.special and its binary functions
(`aten/native/pointwise/special_gaussian.py`, `special_binary.py`): ndtr, ndtri,
log_ndtr, erfcx; xlog1py, zeta. References are SciPy's, in float64 rounded once."""
import numpy as np

import glasstorch as gt

from ..core import ErrorInput, FLOATING, OpInfo, SampleInput, make_tensor, tensor_pairs
from .db_special import EXTREMES, REAL, _out_differs, marks, quiet, sample_erfinv, sample_special, sc
from .db_special_bessel import FLOAT_DOUBLE, _float_result
from .db_unary import TORCH_NAMES, no_kernel

FLOAT32_ULPS = _out_differs("special: torch's float32 kernel runs its series in float32; "
                            "glasstorch's SciPy one in float64, rounded once (1 ulp apart)")


def sample_probability(dtype):
    """ndtri's domain [0, 1] and around it (the ends and outside: ±inf, NaN)."""
    yield from (SampleInput(s.input.abs() if s.input.dtype is not gt.bool else s.input)
                for s in sample_erfinv(dtype))


def sample_erfcx(dtype):
    """From -4 up: below, torch's float32 erfcx magnifies the rounding of x**2 in
    exp(x**2) past float32's tolerance of SciPy's value (held to torch elsewhere)."""
    yield from sample_special(dtype, [v for v in EXTREMES if v > -4], low=-4)


def _binary_result(function):
    """`function(a, b)` in float64, rounded to the promoted float dtype (numbers take no
    part in it, as in torch)."""
    @quiet
    def ref(a, b):
        tensors = [v for v in (a, b) if isinstance(v, np.ndarray)]
        result = np.result_type(*tensors)
        result = result if result.kind in "fV" else np.dtype(np.float32)
        return np.asarray(function(np.asarray(a, np.float64),
                                   np.asarray(b, np.float64))).astype(result)
    return ref


@quiet
def _ndtr(x):
    """``(1 + erf(x / sqrt(2))) / 2`` step by step in the result dtype (a composite in
    torch: each step rounds; erf computed in float32 at least)."""
    x = np.asarray(x)
    dtype = x.dtype if x.dtype.kind in "fV" else np.dtype(np.float32)
    opmath = np.promote_types(dtype, np.float32)
    scaled = (x.astype(opmath) * opmath.type(np.sqrt(0.5))).astype(dtype)
    erf = sc.erf(scaled.astype(opmath)).astype(dtype)
    return ((1 + erf.astype(opmath)).astype(dtype).astype(opmath) * 0.5).astype(dtype)


def _xlog1py(x, y):
    value = np.where(x == 0, 0.0, x * np.log1p(y))
    return np.where(np.isnan(y), np.nan, value)


def _zeta(x, q):
    return np.where(np.isposinf(q), np.nan, sc.zeta(x, q))


def sample_binary(dtype, low=None, high=None):
    for a, b in tensor_pairs(dtype, low=low, high=high):
        yield SampleInput(a, b)
    yield SampleInput(make_tensor((4,), dtype, low=low, high=high), 2)
    yield SampleInput(3, make_tensor((4,), dtype, low=low, high=high))


def sample_zeta(dtype):
    """Exponents and shifts from 1 up (integers as they come), and across the poles."""
    floating = dtype.is_floating_point
    yield from sample_binary(dtype, low=1 if floating else None, high=6 if floating else None)
    if floating:
        nan, inf = float("nan"), float("inf")
        x = gt.tensor([1.0, 0.5, 2.0, 2.0, 2.0, inf, 2.0, nan, 3.0], dtype=dtype)
        q = gt.tensor([1.0, 1.0, 0.0, -1.0, -1.5, 1.0, inf, 1.0, 2.5], dtype=dtype)
        yield SampleInput(x, q)


def errors_binary(name: str, refused: tuple):
    def errors():
        for dtype in refused:
            x = make_tensor((3,), dtype)
            yield ErrorInput(SampleInput(x, x), NotImplementedError,
                             rf"^\"{name}_cpu\" not implemented for '{TORCH_NAMES[dtype]}'$")
        yield ErrorInput(SampleInput(2, 3), TypeError, rf"^special_{name}\(\) received an "
                                                       r"invalid combination of arguments")
    return errors


def unary(name: str, function, samples=sample_special, dtypes=FLOAT_DOUBLE, errors=None,
          **extra_marks):
    refused = (gt.complex64,) if gt.float16 in dtypes else (gt.float16, gt.complex64)
    return OpInfo(f"special_{name}", variants=(f"special.{name}",),
                  ref=_float_result(function), dtypes=dtypes, sample_inputs=samples,
                  error_inputs=errors or no_kernel(f"{name}_cpu", refused),
                  out=f"special.{name}", marks=marks(True, **extra_marks))


OPS = [
    OpInfo("special_ndtr", variants=("special.ndtr",), ref=_ndtr, dtypes=REAL + tuple(d for d in FLOATING if d not in REAL),
           sample_inputs=sample_special, error_inputs=no_kernel("erf_vml_cpu", (gt.complex64,)),
           out="special.ndtr", marks=marks(scipy=True)),
    unary("ndtri", sc.ndtri, sample_probability),
    unary("log_ndtr", sc.log_ndtr, **FLOAT32_ULPS),
    unary("erfcx", sc.erfcx, sample_erfcx),
    OpInfo("special_xlog1py", variants=("special.xlog1py",), ref=_binary_result(_xlog1py),
           dtypes=REAL + (gt.float16, gt.bfloat16), sample_inputs=sample_binary,
           error_inputs=errors_binary("xlog1py", (gt.complex64,)), out="special.xlog1py",
           marks=marks()),
    OpInfo("special_zeta", variants=("special.zeta",), ref=_binary_result(_zeta),
           dtypes=FLOAT_DOUBLE, sample_inputs=sample_zeta,
           error_inputs=errors_binary("zeta", (gt.float16, gt.complex64)), out="special.zeta",
           marks=marks(scipy=True)),
]
