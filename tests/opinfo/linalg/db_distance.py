"""OpInfo entries for `aten/native/linalg/distance.py` (cdist and its kernels, renorm, cross,
linalg_cross) and `aten/native/reduction/statistics.py` (cov, corrcoef).

References compute in float64 (complex128) with NumPy and round to torch's result
dtype. cdist's samples stay on the direct road unless they say otherwise (more than 25
rows take the matmul road, see Note [cdist's two roads]); compute_mode strings and the
deprecated dim-less cross are tested in tests/test_distance.py, since the aten
overloads take neither a string nor (for the warning's once-per-process) a repeat.
"""
import warnings

import numpy as np
import pytest

import glasstorch as gt

from ..convert import numpy_dtype
from ..core import (COMPLEX, ErrorInput, FLOATING, INTEGRAL, OpInfo, SampleInput,
                   make_tensor, tensors)

REAL_FLOATS = (gt.float32, gt.float64)
NOT_BOOL = INTEGRAL + FLOATING + COMPLEX
# cov / corrcoef round float16 and bfloat16 at every step of their composite: compared
# with torch in tests/test_distance.py, not with a float64 reference here.
WIDE = INTEGRAL + REAL_FLOATS + COMPLEX


def _x(*shape, dtype=gt.float32, **value_range):
    return make_tensor(shape, dtype, **value_range)


def _dim_error(dim: int, ndim: int) -> str:
    return (rf"^Dimension out of range \(expected to be in range of \[{-ndim}, {ndim - 1}\], "
            rf"but got {dim}\)$")


# ----- cdist, _cdist_forward, _euclidean_dist ---------------------------------------------
_CDIST_SHAPES = (((5, 3), (4, 3)), ((2, 5, 3), (2, 4, 3)), ((3, 5, 3), (1, 4, 3)),
                 ((2, 1, 4, 2), (3, 5, 2)), ((0, 3), (4, 3)), ((5, 0), (4, 0)), ((1, 1), (1, 1)))


def sample_cdist(dtype):
    for shape1, shape2 in _CDIST_SHAPES:
        x1, x2 = make_tensor(shape1, dtype), make_tensor(shape2, dtype, seed=1)
        for p in (2.0, 0.0, 1.0, 3.0, float("inf"), 0.5):
            yield SampleInput(x1, x2, p)
    x1 = make_tensor((6, 4), dtype, "transposed")
    yield SampleInput(x1, make_tensor((4, 5), dtype, "transposed", seed=1).t(), 2.0)
    yield SampleInput(make_tensor((30, 4), dtype), make_tensor((7, 4), dtype, seed=1))
    yield SampleInput(make_tensor((2, 30, 4), dtype), make_tensor((1, 7, 4), dtype, seed=1))


def _cdist(x1, x2, p=2.0, compute_mode=None):
    batch = np.broadcast_shapes(x1.shape[:-2], x2.shape[:-2])
    a = np.broadcast_to(x1, batch + x1.shape[-2:]).astype(np.float64)
    b = np.broadcast_to(x2, batch + x2.shape[-2:]).astype(np.float64)
    diff = np.abs(a[..., :, None, :] - b[..., None, :, :])
    if p == 0:
        result = (diff != 0).sum(-1)
    elif np.isinf(p):
        result = diff.max(-1, initial=0.0)
    else:
        result = (diff ** p).sum(-1) ** (1 / p)
    return result.astype(x1.dtype)


def errors_cdist():
    yield ErrorInput(SampleInput(_x(3), _x(3, 3)), RuntimeError,
                     r"^cdist only supports at least 2D tensors, X1 got: 1D$")
    yield ErrorInput(SampleInput(_x(3, 3), _x(3)), RuntimeError,
                     r"^cdist only supports at least 2D tensors, X2 got: 1D$")
    yield ErrorInput(SampleInput(_x(2, 3), _x(2, 2)), RuntimeError,
                     r"^X1 and X2 must have the same number of columns\. X1: 3 X2: 2$")
    yield ErrorInput(SampleInput(_x(2, 3), _x(2, 3), -1.0), RuntimeError,
                     r"^cdist only supports non-negative p values$")
    yield ErrorInput(SampleInput(_x(2, 3, dtype=gt.int64), _x(2, 3, dtype=gt.int64)),
                     RuntimeError, r"^cdist only supports floating-point dtypes, X1 got: Long$")
    # the matmul road: the words of torch's cdist composite, on meta tensors too (where
    # the direct road's _cdist_forward has its meta function's words)
    yield ErrorInput(SampleInput(_x(30, 3, dtype=gt.int64), _x(2, 3, dtype=gt.int64)),
                     RuntimeError, r"^cdist only supports floating-point dtypes, X1 got: Long$")
    yield ErrorInput(SampleInput(_x(2, 3, dtype=gt.float16), _x(2, 3, dtype=gt.float16)),
                     NotImplementedError, r"^\"cdist\" not implemented for 'Half'$")
    yield ErrorInput(SampleInput(_x(2, 3, dtype=gt.float64), _x(2, 3)), RuntimeError,
                     r"^expected scalar type Double but found Float$")


def sample_cdist_forward(dtype):
    for sample in sample_cdist(dtype):
        yield SampleInput(*sample.args, *((2.0,) if len(sample.args) == 2 else ()), None)
    yield SampleInput(make_tensor((5, 3), dtype), make_tensor((4, 3), dtype, seed=1), 2.0, 1)
    yield SampleInput(make_tensor((30, 3), dtype), make_tensor((4, 3), dtype, seed=1), 2.0, 2)


def errors_cdist_forward():
    yield ErrorInput(SampleInput(_x(2, 3), _x(2, 3), 2.0, 5), RuntimeError,
                     r"^possible modes: 0, 1, 2, but was: 5$")


def sample_euclidean_dist(dtype):
    for shape1, shape2 in _CDIST_SHAPES[:4]:
        yield SampleInput(make_tensor(shape1, dtype), make_tensor(shape2, dtype, seed=1))


def errors_euclidean_dist():
    yield ErrorInput(SampleInput(_x(2, 3, dtype=gt.float64), _x(2, 3)), RuntimeError,
                     r"^expected m1 and m2 to have the same dtype, but got: double != float$")


# ----- renorm ---------------------------------------------------------------------------------
def sample_renorm(dtype):
    for x in tensors(dtype):
        if x.dim() >= 2:
            yield SampleInput(x, 2, 0, 5)
            yield SampleInput(x, 1, -1, 3.0)
            yield SampleInput(x, float("inf"), 1, 4)
            yield SampleInput(x, 3, 0, 0)
    yield SampleInput(make_tensor((3, 4), dtype), True, 0, 1)


def _renorm(a, p, dim, maxnorm):
    axes = tuple(d for d in range(a.ndim) if d != dim % a.ndim)
    magnitude = np.abs(a.astype(np.complex128 if a.dtype.kind == "c" else np.float64))
    if np.isinf(p):
        norm = magnitude.max(axis=axes, keepdims=True, initial=0.0)
    else:
        norm = (magnitude ** float(p)).sum(axis=axes, keepdims=True) ** (1 / float(p))
    factor = np.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0)
    return (a * factor).astype(a.dtype)


def errors_renorm():
    x = _x(3, 3)
    for args, message in (((0, 0, 5), r"^renorm: non-positive-norm not supported$"),
                          ((2, 0, -1), r"^renorm: expected maxnorm to be >= 0 but got -1$"),
                          ((2 + 1j, 0, 2), r"^renorm: p must be real-valued$"),
                          ((2, 0, 2 + 1j), r"^renorm: maxnorm must be real-valued$")):
        yield ErrorInput(SampleInput(x, *args), RuntimeError, message)
    yield ErrorInput(SampleInput(x, 2, 2, 5), IndexError, _dim_error(2, 2))
    yield ErrorInput(SampleInput(_x(3), 2, 0, 1), RuntimeError,
                     r"^renorm: input needs at least 2 dimensions, got 1 dimensions$")
    yield ErrorInput(SampleInput(_x(3, 3, dtype=gt.int64), 2, 0, 1), RuntimeError,
                     r"^linalg\.vector_norm: Expected a floating point or complex tensor as "
                     r"input\. Got Long$")


# ----- cross, linalg_cross ------------------------------------------------------------------
def sample_cross(dtype):
    for shape, other, dim in (((4, 3), (4, 3), 1), ((4, 3), (1, 3), -1), ((3, 4), (3, 4), 0),
                              ((2, 3, 3), (2, 3, 3), 1), ((3,), (3,), 0), ((0, 3), (0, 3), 1)):
        for layout in ("contiguous", "transposed"):
            yield SampleInput(make_tensor(shape, dtype, layout if len(shape) > 1 else
                                          "contiguous"),
                              make_tensor(other, dtype, seed=1), dim)


def sample_linalg_cross(dtype):
    for sample in sample_cross(dtype):
        x, other, dim = sample.args
        yield SampleInput(x, other, dim=dim)


def _cross(a, b, dim=-1):
    """In the operands' own dtype: float16 rounds after each product and difference,
    integers wrap, as torch's kernel does."""
    shape = np.broadcast_shapes(a.shape, b.shape)
    return np.cross(np.broadcast_to(a, shape), np.broadcast_to(b, shape), axis=dim)


def errors_cross():
    yield ErrorInput(SampleInput(_x(3, 3, dtype=gt.bool), _x(3, 3, dtype=gt.bool), 1),
                     NotImplementedError, r"^\"cross\" not implemented for 'Bool'$")
    yield ErrorInput(SampleInput(_x(4, 3), _x(3), 1), RuntimeError,
                     r"^linalg\.cross: inputs must have the same number of dimensions\.$")
    yield ErrorInput(SampleInput(_x(3, 4), _x(3, 4), 1), RuntimeError,
                     r"^linalg\.cross: inputs dimension 1 must have length 3\. Got 4 and 4$")
    yield ErrorInput(SampleInput(_x(3, 4), _x(3, 4), 5), IndexError, _dim_error(5, 2))
    yield ErrorInput(SampleInput(_x(4, 3), _x(4, 3, dtype=gt.float64), 1), RuntimeError,
                     r"^expected scalar type Float but found Double$")


def errors_linalg_cross():
    yield ErrorInput(SampleInput(_x(4, 2), _x(4, 2), dim=-1), RuntimeError,
                     r"^linalg\.cross: inputs dimension -1 must have length 3\. Got 2 and 2$")
    yield ErrorInput(SampleInput(_x(), _x()), IndexError,
                     r"^Dimension specified as -1 but tensor has no dimensions$")


# ----- cov, corrcoef ------------------------------------------------------------------------
def sample_cov(dtype):
    for x in tensors(dtype):
        if 1 <= x.dim() <= 2:
            yield SampleInput(x)
            yield SampleInput(x, correction=0)
    x = make_tensor((3, 5), dtype)
    yield SampleInput(x, correction=2, fweights=_x(5, dtype=gt.int64, low=0, high=4))
    yield SampleInput(x, aweights=_x(5, dtype=gt.float64, low=0.1, high=2))
    yield SampleInput(x, fweights=_x(5, dtype=gt.int32, low=1, high=4),
                      aweights=_x(5, dtype=gt.float64, low=0.1, high=2))
    yield SampleInput(make_tensor((4,), dtype), correction=0, aweights=_x(4, low=0, high=1))


def _statistics_dtype(a, *weights):
    """The result dtype torch's cov composite arrives at (torch's promotion of the input
    and the weights; integers average to float32)."""
    dtype = gt.from_numpy(np.zeros(0, a.dtype)).dtype
    for w in weights:
        if w is not None:
            dtype = gt.promote_types(dtype, gt.from_numpy(np.zeros(0, w.dtype)).dtype)
    if not (dtype.is_floating_point or dtype.is_complex):
        dtype = gt.float32
    return numpy_dtype(dtype)


def _precision(a, *weights):
    """Floating inputs in the result's precision (a float32 mean of equal values need not
    be exact, as in torch); integers in float64."""
    return _statistics_dtype(a, *weights) if a.dtype.kind in "fc" else np.dtype(np.float64)


def _cov(a, correction=1, fweights=None, aweights=None):
    wide = _precision(a, fweights, aweights)
    with np.errstate(all="ignore"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = np.cov(a.astype(wide), ddof=correction, fweights=fweights,
                            aweights=aweights, dtype=wide)
    return np.asarray(result).astype(_statistics_dtype(a, fweights, aweights))


_READS_VALUES = ("statistics.py owner: cov reads weights on meta; glasstorch's item() raises "
                 "RuntimeError where torch's aten::equal raises NotImplementedError")
_NO_META = {"test_meta": pytest.mark.skip(reason="cov reads values (weights, degrees of "
                                                "freedom): torch has no meta form either")}


def errors_cov():
    x = _x(2, 3)
    messages = (
        ((_x(2, 2, 2),), {}, r"^cov\(\): expected input to have two or fewer dimensions but "
                             r"got an input with 3 dimensions$"),
        ((_x(2, 3, dtype=gt.bool),), {}, r"^cov\(\): bool dtype is not supported for input$"),
        ((x,), {"fweights": _x(3)}, r"^cov\(\): expected fweights to have integral dtype but "
                                    r"got fweights with Float dtype$"),
        ((x,), {"fweights": gt.tensor([1, -2, 3])}, r"^cov\(\): fweights cannot be negative$"),
        ((x,), {"fweights": gt.tensor([1, 2])},
         r"^cov\(\): expected fweights to have the same numel as there are observations in the "
         r"input but got 2 != 3$"),
        ((x,), {"fweights": gt.tensor([[1, 2, 3]])},
         r"^cov\(\): expected fweights to have one or fewer dimensions but got fweights with 2 "
         r"dimensions$"),
        ((x,), {"aweights": gt.tensor([1, 2, 3])},
         r"^cov\(\): expected aweights to have floating point dtype but got aweights with Long "
         r"dtype$"),
        ((x,), {"aweights": gt.tensor([1.0, -2.0, 3.0])},
         r"^cov\(\): aweights cannot be negative$"),
        ((x,), {"aweights": gt.zeros(3)}, r"^cov\(\): weights sum to zero, can't be normalized$"),
    )
    for args, kwargs, message in messages:
        reads_values = "negative" in message or "sum to zero" in message
        yield ErrorInput(SampleInput(*args, **kwargs), RuntimeError, message,
                         known_bug_on_meta=_READS_VALUES if reads_values else None)


def sample_corrcoef(dtype):
    for x in tensors(dtype):
        constant = x.dim() == 1 and x.stride(0) == 0      # 0 / 0 up to rounding: noise
        if 1 <= x.dim() <= 2 and x.numel() and not constant:
            yield SampleInput(x)


def _corrcoef(a):
    wide = _precision(a)
    with np.errstate(all="ignore"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = np.corrcoef(a.astype(wide), dtype=wide)
    return np.asarray(result).astype(_statistics_dtype(a))


def errors_corrcoef():
    yield ErrorInput(SampleInput(_x(2, 2, 2)), RuntimeError,
                     r"^corrcoef\(\): expected input to have two or fewer dimensions but got an "
                     r"input with 3 dimensions$")


OPS = [
    OpInfo("cdist", variants=("cdist",), sample_inputs=sample_cdist, ref=_cdist,
           error_inputs=errors_cdist, dtypes=REAL_FLOATS,
           covers=("_euclidean_dist",)),
    OpInfo("_cdist_forward", variants=("ops.aten._cdist_forward.default",),
           sample_inputs=sample_cdist_forward, ref=_cdist, error_inputs=errors_cdist_forward,
           dtypes=REAL_FLOATS, out="ops.aten._cdist_forward.out"),
    OpInfo("_euclidean_dist", variants=("_euclidean_dist",),
           sample_inputs=sample_euclidean_dist, ref=lambda a, b: _cdist(a, b, 2.0),
           error_inputs=errors_euclidean_dist, dtypes=REAL_FLOATS,
           out="ops.aten._euclidean_dist.out"),
    OpInfo("renorm", variants=("renorm", "Tensor.renorm"), sample_inputs=sample_renorm,
           ref=_renorm, error_inputs=errors_renorm, dtypes=FLOATING + COMPLEX, out="renorm",
           inplace="Tensor.renorm_"),
    OpInfo("cross", variants=("cross", "Tensor.cross"), sample_inputs=sample_cross, ref=_cross,
           error_inputs=errors_cross, dtypes=NOT_BOOL, out="cross"),
    OpInfo("linalg_cross", variants=("linalg.cross",), sample_inputs=sample_linalg_cross,
           ref=_cross, error_inputs=errors_linalg_cross, dtypes=NOT_BOOL, out="linalg.cross"),
    OpInfo("cov", variants=("cov", "Tensor.cov"), sample_inputs=sample_cov, ref=_cov,
           error_inputs=errors_cov, dtypes=WIDE, marks=_NO_META),
    OpInfo("corrcoef", variants=("corrcoef", "Tensor.corrcoef"), sample_inputs=sample_corrcoef,
           ref=_corrcoef, error_inputs=errors_corrcoef, dtypes=WIDE, marks=_NO_META),
]

