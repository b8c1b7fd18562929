"""OpInfo entries for `aten/native/linalg/determinant.py` (linalg_det, _linalg_det, det,
linalg_slogdet, _linalg_slogdet, slogdet, logdet) and `eigh.py` (_linalg_eigh,
linalg_eigh, linalg_eigvalsh).

References compute with NumPy in float64 / complex128 and round to the sample's dtype.
Eigenvectors are compared as NumPy's LAPACK returns them (the same routine as torch's);
tests/aten/native/linalg/test_eigh.py checks them up to sign, as a property.
"""
import numpy as np
import pytest
import scipy.linalg

import glasstorch as gt

from ..core import ErrorInput, OpInfo, SampleInput, make_tensor
from .matrices import BATCHES, LINALG_DTYPES, as_tensor, general, hermitian, real_of, \
    rounded, values, wide

SEVERAL_RESULTS = {test: pytest.mark.skip(reason="out= of several results: "
                                          "tests/aten/native/linalg/test_determinants.py")
                   for test in ("test_out", "test_out_matches_torch")}
_SQUARE = r"A must be batches of square matrices, but they are 2 by 3 matrices$"


def _x(*shape, dtype=gt.float32):
    return make_tensor(shape, dtype)


def sample_det(dtype):
    for i, batch in enumerate(BATCHES):
        layout = ("contiguous", "transposed", "expanded", "contiguous")[i]
        yield SampleInput(general(batch + (3, 3), dtype, layout))
        yield SampleInput(as_tensor(values(batch + (2, 2), dtype, seed=i), dtype))
    yield SampleInput(general((1, 1), dtype))
    yield SampleInput(general((0, 0), dtype))


def _det(a):
    return rounded(np.asarray(np.linalg.det(wide(a))) if a.size else
                   np.ones(a.shape[:-2]), a)


def _slogdet(a):
    if a.size == 0:
        return [np.ones(a.shape[:-2], a.dtype), np.zeros(a.shape[:-2], real_of(a))]
    sign, log = np.linalg.slogdet(wide(a))
    return [np.asarray(sign).astype(a.dtype), np.asarray(log).astype(real_of(a))]


def _lu(a):
    """A's LU factorization as torch's determinants report it: of A^T for a real row-major
    A (the sample arrays keep the tensors' layout)."""
    n = a.shape[-1]
    if a.size == 0:
        return [a.copy(), np.broadcast_to(np.arange(1, n + 1, dtype=np.int32),
                                          a.shape[:-1]).copy()]
    if a.dtype.kind != "c" and a.flags.c_contiguous:
        a = np.swapaxes(a, -1, -2)
    factors, pivots = [], []
    for m in a.reshape((-1, n, n)):
        lu, piv = scipy.linalg.lu_factor(wide(m)) if m.size else (wide(m), np.zeros(0, int))
        factors.append(lu)
        pivots.append(piv + 1)
    return [np.array(factors).reshape(a.shape).astype(a.dtype),
            np.array(pivots, np.int32).reshape(a.shape[:-1])]


def _logdet(a):
    sign, log = _slogdet(a)
    if a.dtype.kind == "c":
        return (np.log(sign.astype(np.complex128)) + log).astype(a.dtype)
    return np.where(sign == -1, np.nan, log).astype(a.dtype)


def errors_det(name="linalg.det", low_precision=True):
    def errors():
        yield ErrorInput(SampleInput(_x(3)), RuntimeError,
                         rf"^{name}: The input tensor A must have at least 2 dimensions\.$")
        yield ErrorInput(SampleInput(_x(2, 3)), RuntimeError, rf"^{name}: {_SQUARE}")
        yield ErrorInput(SampleInput(_x(2, 2, dtype=gt.int64)), RuntimeError,
                         rf"^{name}: Expected a floating point or complex tensor as input\. "
                         r"Got Long$")
        if low_precision:
            yield ErrorInput(SampleInput(_x(2, 2, dtype=gt.float16)), NotImplementedError,
                             r"^\"lu_cpu\" not implemented for 'Half'$")
        else:
            yield ErrorInput(SampleInput(_x(2, 2, dtype=gt.float16)), RuntimeError,
                             rf"^{name}: Low precision dtypes not supported\. Got Half$")
    return errors


# ----- eigh ----------------------------------------------------------------------------------
def sample_eigh(dtype):
    for i, batch in enumerate(BATCHES):
        layout = ("contiguous", "transposed", "expanded", "contiguous")[i]
        yield SampleInput(hermitian(batch + (3, 3), dtype, layout, seed=i))
        yield SampleInput(hermitian(batch + (2, 2), dtype, seed=i + 5), "U")
    yield SampleInput(hermitian((1, 1), dtype))


def _eigh(a, UPLO="L"):
    if a.size == 0:
        return [np.zeros(a.shape[:-1], real_of(a)), a.copy()]
    w, v = np.linalg.eigh(wide(a), UPLO=UPLO)
    return [w.astype(real_of(a)), v.astype(a.dtype)]


def errors_eigh(name="linalg.eigh"):
    yield ErrorInput(SampleInput(_x(3)), RuntimeError,
                     rf"^{name}: The input tensor A must have at least 2 dimensions\.$")
    yield ErrorInput(SampleInput(_x(2, 3)), RuntimeError, rf"^{name}: {_SQUARE}")
    yield ErrorInput(SampleInput(_x(2, 2, dtype=gt.int64)), NotImplementedError,
                     r"^\"linalg_eigh_cpu\" not implemented for 'Long'$")
    yield ErrorInput(SampleInput(_x(2, 2), "X"), RuntimeError,
                     r"^Expected UPLO argument to be 'L' or 'U', but got X$")


OPS = [
    OpInfo("linalg_det", variants=("linalg.det",), ref=_det, sample_inputs=sample_det,
           error_inputs=errors_det(), dtypes=LINALG_DTYPES, out="linalg.det"),
    # the LU factorization these report is of A^T for a row-major real A: layout-sensitive
    OpInfo("_linalg_det", variants=("ops.aten._linalg_det",),
           ref=lambda a: [_det(a)] + _lu(a), sample_inputs=sample_det, error_inputs=errors_det(),
           dtypes=LINALG_DTYPES, out="ops.aten._linalg_det.result", marks=SEVERAL_RESULTS,
           layout_sensitive=True),
    OpInfo("det", variants=("det", "Tensor.det"), ref=_det, sample_inputs=sample_det,
           error_inputs=errors_det(), dtypes=LINALG_DTYPES),
    OpInfo("linalg_slogdet", variants=("linalg.slogdet",), ref=_slogdet, sample_inputs=sample_det,
           error_inputs=errors_det("linalg.slogdet", False), dtypes=LINALG_DTYPES,
           out="linalg.slogdet", marks=SEVERAL_RESULTS),
    OpInfo("_linalg_slogdet", variants=("ops.aten._linalg_slogdet",),
           ref=lambda a: _slogdet(a) + _lu(a), sample_inputs=sample_det,
           error_inputs=errors_det("linalg.slogdet", False), dtypes=LINALG_DTYPES,
           out="ops.aten._linalg_slogdet.sign", marks=SEVERAL_RESULTS,
           layout_sensitive=True),
    OpInfo("slogdet", variants=("slogdet", "Tensor.slogdet"), ref=_slogdet,
           sample_inputs=sample_det, error_inputs=errors_det("linalg.slogdet", False),
           dtypes=LINALG_DTYPES, out="slogdet", marks=SEVERAL_RESULTS),
    OpInfo("logdet", variants=("logdet", "Tensor.logdet"), ref=_logdet, sample_inputs=sample_det,
           error_inputs=errors_det("logdet", False), dtypes=LINALG_DTYPES),
    OpInfo("_linalg_eigh", variants=("ops.aten._linalg_eigh",), ref=_eigh,
           sample_inputs=sample_eigh, error_inputs=errors_eigh, dtypes=LINALG_DTYPES,
           out="ops.aten._linalg_eigh.eigenvalues", marks=SEVERAL_RESULTS),
    OpInfo("linalg_eigh", variants=("linalg.eigh",), ref=_eigh, sample_inputs=sample_eigh,
           error_inputs=errors_eigh, dtypes=LINALG_DTYPES, out="linalg.eigh",
           marks=SEVERAL_RESULTS),
    OpInfo("linalg_eigvalsh", variants=("linalg.eigvalsh",), ref=lambda a, UPLO="L": _eigh(a)[0],
           sample_inputs=sample_eigh, error_inputs=errors_eigh, dtypes=LINALG_DTYPES,
           out="linalg.eigvalsh"),
]
