"""OpInfo entries for `aten/native/linalg/qr.py` (geqrf, linalg_qr, qr,
linalg_householder_product, orgqr, ormqr) and `eig.py` (linalg_eig, _linalg_eigvals,
linalg_eigvals). References: NumPy in float64 (complex128), rounded to the sample's
dtype; tests/aten/native/linalg/test_more_linalg.py compares gradients with torch."""
import numpy as np
import pytest

import glasstorch as gt

from ..core import ErrorInput, OpInfo, SampleInput, make_tensor
from .matrices import LINALG_DTYPES, as_tensor, general, rounded, values, wide

SEVERAL_RESULTS = {test: pytest.mark.skip(reason="out= of several results: "
                                          "tests/aten/native/linalg/test_more_linalg.py")
                   for test in ("test_out", "test_out_matches_torch")}
_SHAPES = ((3, 3), (2, 4, 3), (2, 3, 4), (0, 2))


def _rect(dtype):
    for i, shape in enumerate(_SHAPES):
        yield as_tensor(values(shape, dtype, seed=i), dtype, "transposed" if i == 1 else
                        "contiguous")


def _geqrf(a):
    if a.size == 0:
        return [a.copy(), np.zeros(a.shape[:-2] + (min(a.shape[-2:]),), a.dtype)]
    h, tau = np.linalg.qr(wide(a), mode="raw")
    return [rounded(np.swapaxes(h, -1, -2), a), rounded(tau, a)]


def _qr(a, mode="reduced"):
    m, n = a.shape[-2:]
    if a.size == 0:
        k = m if mode == "complete" else min(m, n)
        Q = np.broadcast_to(np.eye(m, k), a.shape[:-2] + (m, k)).astype(a.dtype)
        return [np.zeros(0, a.dtype) if mode == "r" else Q, np.zeros(a.shape[:-2] + (k, n),
                                                                      a.dtype)]
    if mode == "r":
        return [np.zeros(0, a.dtype), rounded(np.linalg.qr(wide(a), mode="r"), a)]
    Q, R = np.linalg.qr(wide(a), mode=mode)
    return [rounded(Q, a), rounded(R, a)]


def sample_householder(dtype):
    for a in _rect(dtype):
        if a.shape[-2] >= a.shape[-1]:
            yield SampleInput(*gt.geqrf(a))


def _householder(a, tau):
    m, n = a.shape[-2:]
    Q = np.broadcast_to(np.eye(m, n), a.shape).astype(np.complex128)
    for i in reversed(range(tau.shape[-1])):
        v = np.concatenate([np.zeros(a.shape[:-2] + (i,)), np.ones(a.shape[:-2] + (1,)),
                            wide(a)[..., i + 1:, i]], -1)
        Q = Q - wide(tau)[..., i, None, None] * v[..., :, None] * (v.conj()[..., None, :] @ Q)
    return Q.astype(a.dtype) if a.dtype.kind == "c" else Q.real.astype(a.dtype)


def sample_ormqr(dtype):
    for sample in sample_householder(dtype):
        a, tau = sample.args
        m = a.shape[-2]
        C = as_tensor(values(a.shape[:-2] + (m, 2), dtype, seed=4), dtype)
        yield SampleInput(a, tau, C)
        yield SampleInput(a, tau, C, True, True)
        yield SampleInput(a, tau, C.mT.contiguous(), False, False)
        yield SampleInput(a, tau, C.mT.contiguous(), False, True)


def _ormqr(a, tau, C, left=True, transpose=False):
    m = a.shape[-2]
    full = np.concatenate([wide(a), np.zeros(a.shape[:-1] + (m - a.shape[-1],))], -1)
    taus = np.concatenate([wide(tau), np.zeros(tau.shape[:-1] + (m - tau.shape[-1],))], -1)
    Q = _householder(full.astype(np.complex128), taus.astype(np.complex128))
    Q = np.swapaxes(Q, -1, -2).conj() if transpose else Q
    result = Q @ wide(C) if left else wide(C) @ Q
    return result.astype(C.dtype) if C.dtype.kind == "c" else result.real.astype(C.dtype)


def _eig(a):
    complex_dtype = np.result_type(a.dtype, np.complex64)
    if a.size == 0:
        return [np.zeros(a.shape[:-1], complex_dtype), np.zeros(a.shape, complex_dtype)]
    w, v = np.linalg.eig(wide(a))
    return [w.astype(complex_dtype), v.astype(complex_dtype)]


def sample_eig(dtype):
    """Triangular matrices with distinct eigenvalues: eigenvectors whose signs every LAPACK
    build agrees on. General matrices' eigenvectors (signs per build) are compared up to
    phase with torch in tests/aten/native/linalg/test_more_linalg.py."""
    for i, batch in enumerate(((), (2,), (0,))):
        upper = np.triu(values(batch + (3, 3), dtype, seed=i), 1) + np.diag([1.0, 2.0, 3.0])
        yield SampleInput(as_tensor(upper, dtype))


def _x(*shape, dtype=gt.float32):
    return make_tensor(shape, dtype)


OPS = [
    OpInfo("geqrf", variants=("geqrf", "Tensor.geqrf"), ref=_geqrf,
           sample_inputs=lambda dtype: (SampleInput(a) for a in _rect(dtype)),
           error_inputs=lambda: [ErrorInput(SampleInput(_x(3)), RuntimeError,
                                            r"^torch\.geqrf: input must have at least 2 "
                                            r"dimensions\.$", known_bug_on_meta=(
                                                "linalg: torch has no meta kernel for geqrf "
                                                "(NotImplementedError); glasstorch's meta rule "
                                                "checks the input"))],
           dtypes=LINALG_DTYPES, out="geqrf", marks=SEVERAL_RESULTS),
    OpInfo("linalg_qr", variants=("linalg.qr",), ref=_qr, sample_inputs=lambda dtype: (
        SampleInput(a, *mode) for a in _rect(dtype) for mode in ((), ("complete",), ("r",))),
        error_inputs=lambda: [ErrorInput(SampleInput(_x(2, 2), "x"), RuntimeError,
                                         r"^qr received unrecognized mode 'x' but expected one "
                                         r"of 'reduced' \(default\), 'r', or 'complete'$")],
        dtypes=LINALG_DTYPES, out="linalg.qr", marks=SEVERAL_RESULTS),
    OpInfo("qr", variants=("qr", "Tensor.qr"),
           ref=lambda a, some=True: _qr(a, "reduced" if some else "complete"),
           sample_inputs=lambda dtype: (SampleInput(a, *some) for a in _rect(dtype)
                                        for some in ((), (False,))), dtypes=LINALG_DTYPES,
           out="qr", marks=SEVERAL_RESULTS),
    OpInfo("linalg_householder_product", variants=("linalg.householder_product",),
           ref=_householder, sample_inputs=sample_householder, dtypes=LINALG_DTYPES,
           out="linalg.householder_product"),
    OpInfo("orgqr", variants=("orgqr", "Tensor.orgqr"), ref=_householder,
           sample_inputs=sample_householder, dtypes=LINALG_DTYPES, out="orgqr"),
    OpInfo("ormqr", variants=("ormqr", "Tensor.ormqr"), ref=_ormqr, sample_inputs=sample_ormqr,
           dtypes=LINALG_DTYPES, out="ormqr"),
    OpInfo("linalg_eig", variants=("linalg.eig",), ref=_eig, sample_inputs=sample_eig,
           dtypes=LINALG_DTYPES, out="linalg.eig", marks=SEVERAL_RESULTS),
    OpInfo("_linalg_eigvals", variants=("ops.aten._linalg_eigvals",),
           ref=lambda a: _eig(a)[0], sample_inputs=sample_eig, dtypes=LINALG_DTYPES),
    OpInfo("linalg_eigvals", variants=("linalg.eigvals",), ref=lambda a: _eig(a)[0],
           sample_inputs=sample_eig, dtypes=LINALG_DTYPES, out="linalg.eigvals"),
]
