"""OpInfo entries for `aten/native/linalg/ldl.py` (linalg_ldl_factor_ex, linalg_ldl_factor,
linalg_ldl_solve). References: SciPy's LAPACK wrappers on float64 (complex128) copies,
rounded to the sample's dtype."""
import numpy as np
import pytest
import scipy.linalg

import glasstorch as gt

from ..core import ErrorInput, OpInfo, SampleInput, make_tensor
from .matrices import LINALG_DTYPES, as_tensor, rounded, values, wide

SEVERAL_RESULTS = {test: pytest.mark.skip(reason="out= of several results: torch's LD and "
                                          "pivots layouts are checked by test_differential")
                   for test in ("test_out", "test_out_matches_torch")}


def _symmetric(shape, dtype, seed=0):
    a = values(shape, dtype, seed)
    return as_tensor(a + np.swapaxes(a, -1, -2), dtype)


def sample_ldl(dtype):
    yield SampleInput(_symmetric((3, 3), dtype))
    yield SampleInput(_symmetric((2, 4, 4), dtype, seed=1))
    if dtype.is_complex:
        a = values((3, 3), dtype, seed=2)
        yield SampleInput(as_tensor(a + np.swapaxes(a, -1, -2).conj(), dtype), hermitian=True)


def _factor(a, hermitian=False):
    w = wide(a)
    kind = "he" if hermitian and w.dtype.kind == "c" else "sy"
    routine = scipy.linalg.get_lapack_funcs(kind + "trf", (w,))
    LD, pivots = np.empty_like(w), np.empty(a.shape[:-1], np.int32)
    for index in np.ndindex(*a.shape[:-2]):
        found, found_pivots, _ = routine(w[index], lower=1)[:3]
        LD[index], pivots[index] = np.tril(found), found_pivots
    return [rounded(LD, a), pivots, np.zeros(a.shape[:-2], np.int32)]


def sample_ldl_solve(dtype):
    for sample in sample_ldl(dtype):
        LD, pivots, _ = gt.linalg.ldl_factor_ex(*sample.args, **sample.kwargs)
        B = as_tensor(values(tuple(LD.shape[:-1]) + (2,), dtype, seed=5), dtype)
        yield SampleInput(LD, pivots, B, **sample.kwargs)


def _solve(LD, pivots, B, hermitian=False):
    w = wide(LD)
    kind = "he" if hermitian and w.dtype.kind == "c" else "sy"
    routine = scipy.linalg.get_lapack_funcs(kind + "trs", (w,))
    out = np.empty(B.shape, w.dtype)
    for index in np.ndindex(*B.shape[:-2]):
        out[index] = routine(w[index], pivots[index], wide(B)[index], lower=1)[0]
    return rounded(out, LD)


def errors_ldl():
    yield ErrorInput(SampleInput(make_tensor((3,), gt.float32)), RuntimeError,
                     r"^torch\.linalg\.ldl_factor_ex: The input tensor A must have at least 2 "
                     r"dimensions\.$")
    yield ErrorInput(SampleInput(make_tensor((2, 3), gt.float32)), RuntimeError,
                     r"^torch\.linalg\.ldl_factor_ex: A must be batches of square matrices, "
                     r"but they are 2 by 3 matrices$")


OPS = [
    OpInfo("linalg_ldl_factor_ex", variants=("linalg.ldl_factor_ex",), ref=_factor,
           sample_inputs=sample_ldl, error_inputs=errors_ldl, dtypes=LINALG_DTYPES,
           out="linalg.ldl_factor_ex", marks=SEVERAL_RESULTS),
    OpInfo("linalg_ldl_factor", variants=("linalg.ldl_factor",),
           ref=lambda a, hermitian=False: _factor(a, hermitian)[:2], sample_inputs=sample_ldl,
           error_inputs=errors_ldl, dtypes=LINALG_DTYPES),
    OpInfo("linalg_ldl_solve", variants=("linalg.ldl_solve",), ref=_solve,
           sample_inputs=sample_ldl_solve, dtypes=LINALG_DTYPES, out="linalg.ldl_solve"),
]
