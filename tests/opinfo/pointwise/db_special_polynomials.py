"""OpInfo entries for the orthogonal polynomials of torch.special
(`aten/native/pointwise/special_polynomials.py`).

References are SciPy's ``eval_*`` functions in float64 (V and W from U: ``V_n = U_n -
U_{n-1}``, ``W_n = U_n + U_{n-1}``), at the degree truncated to an integer, 0 for a
negative degree, as torch takes it. The samples keep degrees below 10 and points where
float32 rounding stays within its tolerance; the ends of the intervals and the
trigonometric forms are held to torch in `tests/aten/native/pointwise/test_special_functions.py`.
"""
import numpy as np

import glasstorch as gt

from ..core import ErrorInput, OpInfo, SampleInput, make_tensor, tensor_pairs
from .db_special import marks, quiet, sc
from .db_special_bessel import FLOAT_DOUBLE
from .db_unary import TORCH_NAMES


def _u(n, x):
    return np.where(n < 0, 0.0, sc.eval_chebyu(np.maximum(n, 0), x))


def _v(n, x):
    return _u(n, x) - _u(n - 1, x)


def _w(n, x):
    return _u(n, x) + _u(n - 1, x)


def _shifted(function):
    return lambda n, x: function(n, 2 * x - 1)


REFERENCES = {
    "chebyshev_polynomial_t": lambda n, x: sc.eval_chebyt(n, x),
    "chebyshev_polynomial_u": _u,
    "chebyshev_polynomial_v": _v,
    "chebyshev_polynomial_w": _w,
    "shifted_chebyshev_polynomial_t": lambda n, x: sc.eval_sh_chebyt(n, x),
    "shifted_chebyshev_polynomial_u": lambda n, x: sc.eval_sh_chebyu(n, x),
    "shifted_chebyshev_polynomial_v": _shifted(_v),
    "shifted_chebyshev_polynomial_w": _shifted(_w),
    "hermite_polynomial_h": lambda n, x: sc.eval_hermite(n, x),
    "hermite_polynomial_he": lambda n, x: sc.eval_hermitenorm(n, x),
    "laguerre_polynomial_l": lambda n, x: sc.eval_laguerre(n, x),
    "legendre_polynomial_p": lambda n, x: sc.eval_legendre(n, x),
}


def _reference(name: str):
    function = REFERENCES[name]

    @quiet
    def ref(x, n):
        tensors = [np.asarray(v) for v in (x, n) if isinstance(v, np.ndarray)]
        x, n = np.asarray(x), np.asarray(n)
        result = np.result_type(*tensors)           # a number takes no part (as torch)
        result = result if result.kind == "f" else np.dtype(np.float32)
        degree = np.trunc(n.astype(np.float64)).astype(np.int64)
        value = function(np.maximum(degree, 0), x.astype(np.float64))
        return np.where(degree < 0, 0.0, value).astype(result)
    return ref


def sample_polynomial(dtype):
    """Points in [-2, 2], degrees in [-2, 9] (the float ones truncated; no negative ones
    unsigned), every broadcast and layout; a number for either argument."""
    if dtype is gt.bool:
        pairs = tensor_pairs(dtype)
    else:
        low = 0 if dtype is gt.uint8 else -2
        pairs = ((x, make_tensor(tuple(n.shape), dtype, low=low, high=9))
                 for x, n in tensor_pairs(dtype, low=low, high=2))
    for x, n in pairs:
        yield SampleInput(x, n)
    yield SampleInput(make_tensor((4,), dtype), 3)
    yield SampleInput(0.5, make_tensor((4,), gt.int64, low=0, high=9))


def errors_polynomial(name: str):
    def errors():
        for dtype in (gt.float16, gt.complex64):
            x = make_tensor((3,), dtype)
            yield ErrorInput(SampleInput(x, x), NotImplementedError,
                             rf"^\"{name}_cpu\" not implemented for '{TORCH_NAMES[dtype]}'$")
        yield ErrorInput(SampleInput(2, 3), TypeError, rf"^special_{name}\(\) received an "
                                                       r"invalid combination of arguments")
    return errors


def polynomial(name: str) -> OpInfo:
    return OpInfo(f"special_{name}", variants=(f"special.{name}",), ref=_reference(name),
                  dtypes=FLOAT_DOUBLE, sample_inputs=sample_polynomial,
                  error_inputs=errors_polynomial(name), out=f"special.{name}",
                  marks=marks(scipy=True))


OPS = [polynomial(name) for name in REFERENCES]
