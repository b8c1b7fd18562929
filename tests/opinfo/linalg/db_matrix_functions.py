"""OpInfo entries for `aten/native/linalg/matrix_functions.py` (matrix_power, matrix_exp,
pinv, pinverse, matrix_rank, lstsq, vander, vecdot, diagonal, tensorinv, tensorsolve) and
`matrix_norms.py` (matrix_norm with a numeric order, norm, cond). References: NumPy /
SciPy in float64 (complex128), rounded to the sample's dtype."""
import numpy as np
import pytest
import scipy.linalg

import glasstorch as gt

from ..core import OpInfo, SampleInput
from .matrices import LINALG_DTYPES, as_tensor, general, real_of, rounded, values, wide

SEVERAL_RESULTS = {test: pytest.mark.skip(reason="out= of several results: "
                                          "tests/aten/native/linalg/test_more_linalg.py")
                   for test in ("test_out", "test_out_matches_torch")}
REAL = (gt.float32, gt.float64)


def _squares(dtype):
    yield general((3, 3), dtype)
    yield general((2, 3, 3), dtype, "transposed", seed=1)


def _rect(dtype):
    yield as_tensor(values((3, 3), dtype), dtype)
    yield as_tensor(values((2, 4, 3), dtype, seed=1), dtype)
    yield as_tensor(values((2, 3, 5), dtype, seed=2), dtype)


def _power(a, n):
    w = wide(a)
    result = np.broadcast_to(np.eye(a.shape[-1]), a.shape) if n == 0 else None
    if n:
        base = np.linalg.inv(w) if n < 0 else w
        result = base
        for _ in range(abs(n) - 1):
            result = result @ base
    return rounded(np.asarray(result), a)


def _pinv(a, atol=None, rtol=None, hermitian=False):
    if hasattr(atol, "shape") or hasattr(rtol, "shape"):
        atol, rtol = (None if t is None else np.asarray(t) for t in (atol, rtol))
    U, S, Vh = np.linalg.svd(wide(a), full_matrices=False)
    eps = np.finfo(a.dtype).eps
    if rtol is None:
        rtol = eps * max(a.shape[-2:]) if atol is None else 0.0
    cut = np.maximum(0.0 if atol is None else atol, rtol * S.max(-1, keepdims=True))
    inverse = np.where(S > cut, 1 / np.where(S > cut, S, 1), 0)
    return rounded(np.swapaxes(Vh, -1, -2).conj() @ (inverse[..., None] *
                                                     np.swapaxes(U, -1, -2).conj()), a)


def _lstsq(a, b, rcond=None, driver=None):
    solution = np.stack([np.linalg.lstsq(wide(x), wide(y), rcond=None)[0]
                         for x, y in zip(a.reshape((-1,) + a.shape[-2:]),
                                         b.reshape((-1,) + b.shape[-2:]))])
    solution = solution.reshape(a.shape[:-2] + (a.shape[-1], b.shape[-1]))
    rank = np.full(a.shape[:-2], min(a.shape[-2:]), np.int64)
    return [rounded(solution, a), np.zeros(0, real_of(a)), rank, np.zeros(0, real_of(a))]


def _matrix_norm(a, ord, dim=(-2, -1), keepdim=False, dtype=None):
    return np.linalg.norm(wide(a), ord, axis=tuple(dim), keepdims=keepdim).astype(real_of(a))


def _cond(a, p=None):
    return np.asarray(np.linalg.cond(wide(a), p)).astype(real_of(a))


OPS = [
    OpInfo("linalg_matrix_power", variants=("linalg.matrix_power",), ref=_power,
           sample_inputs=lambda dtype: (SampleInput(a, n) for a in _squares(dtype)
                                        for n in (0, 1, 3, -2)),
           dtypes=LINALG_DTYPES, out="linalg.matrix_power"),
    OpInfo("matrix_power", variants=("matrix_power", "Tensor.matrix_power"), ref=_power,
           sample_inputs=lambda dtype: (SampleInput(a, 2) for a in _squares(dtype)),
           dtypes=LINALG_DTYPES, out="matrix_power"),
    OpInfo("linalg_matrix_exp", variants=("linalg.matrix_exp",),
           ref=lambda a: rounded(scipy.linalg.expm(wide(a)), a),
           sample_inputs=lambda dtype: (SampleInput(a * 0.3) for a in _squares(dtype)),
           dtypes=LINALG_DTYPES, out="ops.aten.linalg_matrix_exp.out"),
    OpInfo("matrix_exp", variants=("matrix_exp", "Tensor.matrix_exp"),
           ref=lambda a: rounded(scipy.linalg.expm(wide(a)), a),
           sample_inputs=lambda dtype: (SampleInput(a * 0.3) for a in _squares(dtype)),
           dtypes=LINALG_DTYPES),
    OpInfo("linalg_pinv.atol_rtol_tensor", variants=("linalg.pinv",), ref=_pinv,
           sample_inputs=lambda dtype: (SampleInput(a, atol=gt.tensor(0.1)) for a in _rect(dtype)),
           dtypes=LINALG_DTYPES, out="linalg.pinv",
           marks={"test_out_matches_torch": pytest.mark.xfail(strict=True, reason=(
               "linalg: a float32 pseudo-inverse written into a float64 out= keeps the "
               "float32 rounding, which differs from torch's (MKL's SVD) by an ulp, beyond "
               "float64's tolerance"))}),
    OpInfo("linalg_pinv.atol_rtol_float", variants=("linalg.pinv",), ref=_pinv,
           sample_inputs=lambda dtype: (SampleInput(a, **kw) for a in _rect(dtype)
                                        for kw in ({}, {"rtol": 0.2})), dtypes=LINALG_DTYPES,
           out="linalg.pinv", marks={"test_out_matches_torch": (
               pytest.mark.xfail(strict=True, reason="as linalg_pinv.atol_rtol_tensor's"))}),
    OpInfo("linalg_pinv", variants=("linalg.pinv",), ref=lambda a, rcond: _pinv(a, 0.0, rcond),
           sample_inputs=lambda dtype: (SampleInput(a, 0.1) for a in _rect(dtype)),
           dtypes=LINALG_DTYPES, out="linalg.pinv", marks={"test_out_matches_torch": (
               pytest.mark.xfail(strict=True, reason="as linalg_pinv.atol_rtol_tensor's"))}),
    OpInfo("linalg_pinv.rcond_tensor", variants=("linalg.pinv",),
           ref=lambda a, rcond: _pinv(a, 0.0, 0.1),
           sample_inputs=lambda dtype: (SampleInput(a, gt.tensor(0.1)) for a in _rect(dtype)),
           dtypes=LINALG_DTYPES, out="linalg.pinv", marks={"test_out_matches_torch": (
               pytest.mark.xfail(strict=True, reason="as linalg_pinv.atol_rtol_tensor's"))}),
    OpInfo("pinverse", variants=("pinverse", "Tensor.pinverse"),
           ref=lambda a, rcond=1e-15: _pinv(a, 0.0, rcond),
           sample_inputs=lambda dtype: (SampleInput(a) for a in _rect(dtype)),
           dtypes=LINALG_DTYPES),
    OpInfo("linalg_matrix_rank.atol_rtol_float", variants=("linalg.matrix_rank",),
           ref=lambda a, **kw: np.linalg.matrix_rank(wide(a)).astype(np.int64),
           sample_inputs=lambda dtype: (SampleInput(a) for a in _rect(dtype)),
           dtypes=LINALG_DTYPES, out="linalg.matrix_rank"),
    OpInfo("linalg_matrix_rank.atol_rtol_tensor", variants=("linalg.matrix_rank",),
           ref=lambda a, **kw: np.linalg.matrix_rank(wide(a), tol=0.5).astype(np.int64),
           sample_inputs=lambda dtype: (SampleInput(a, atol=gt.tensor(0.5)) for a in _rect(dtype)),
           dtypes=LINALG_DTYPES, out="linalg.matrix_rank"),
    OpInfo("linalg_matrix_rank", variants=("linalg.matrix_rank",),
           ref=lambda a, tol: np.linalg.matrix_rank(wide(a), tol=tol).astype(np.int64),
           sample_inputs=lambda dtype: (SampleInput(a, 0.5) for a in _rect(dtype)),
           dtypes=LINALG_DTYPES, out="linalg.matrix_rank"),
    OpInfo("linalg_matrix_rank.tol_tensor", variants=("linalg.matrix_rank",),
           ref=lambda a, tol: np.linalg.matrix_rank(wide(a), tol=0.5).astype(np.int64),
           sample_inputs=lambda dtype: (SampleInput(a, gt.tensor(0.5)) for a in _rect(dtype)),
           dtypes=LINALG_DTYPES, out="linalg.matrix_rank"),
    OpInfo("linalg_lstsq", variants=("linalg.lstsq",), ref=_lstsq,
           sample_inputs=lambda dtype: (SampleInput(general((2, 3, 3), dtype),
                                                    as_tensor(values((2, 3, 2), dtype), dtype)),),
           dtypes=LINALG_DTYPES, out="linalg.lstsq", marks=SEVERAL_RESULTS),
    OpInfo("linalg_vander", variants=("linalg.vander",),
           ref=lambda x, N=None: (np.vander(x, N or x.shape[-1], increasing=True)
                                  if x.ndim == 1 else
                                  np.stack([np.vander(r, N or x.shape[-1], increasing=True)
                                            for r in x])).astype(x.dtype),
           sample_inputs=lambda dtype: (SampleInput(as_tensor(values(s, dtype), dtype), **kw)
                                        for s in ((3,), (2, 4)) for kw in ({}, {"N": 5})),
           dtypes=LINALG_DTYPES),
    OpInfo("vander", variants=("vander",),
           ref=lambda x, N=None, increasing=False: np.vander(x, N, increasing).astype(x.dtype),
           sample_inputs=lambda dtype: (SampleInput(as_tensor(values((3,), dtype), dtype), *a)
                                        for a in ((), (4,), (2, True))),
           dtypes=LINALG_DTYPES),
    OpInfo("linalg_vecdot", variants=("linalg.vecdot",),
           ref=lambda x, y, dim=-1: np.sum(x.conj() * y, axis=dim).astype(x.dtype),
           sample_inputs=lambda dtype: (SampleInput(as_tensor(values((2, 3), dtype), dtype),
                                                    as_tensor(values((3,), dtype, seed=1),
                                                              dtype)),),
           dtypes=LINALG_DTYPES, out="linalg.vecdot"),
    OpInfo("linalg_diagonal", variants=("linalg.diagonal",),
           ref=lambda a, offset=0, dim1=-2, dim2=-1: np.diagonal(a, offset, dim1, dim2),
           sample_inputs=lambda dtype: (SampleInput(as_tensor(values((2, 3, 4), dtype), dtype),
                                                    **kw)
                                        for kw in ({}, {"offset": 1, "dim1": 0, "dim2": 2})),
           dtypes=LINALG_DTYPES),
    OpInfo("linalg_tensorinv", variants=("linalg.tensorinv",),
           ref=lambda a, ind=2: rounded(np.linalg.tensorinv(wide(a), ind), a),
           sample_inputs=lambda dtype: (SampleInput(general((4, 4), dtype).reshape(4, 2, 2),
                                                    ind=1),),
           dtypes=LINALG_DTYPES, out="linalg.tensorinv"),
    OpInfo("linalg_tensorsolve", variants=("linalg.tensorsolve",),
           ref=lambda a, b, dims=None: rounded(np.linalg.tensorsolve(wide(a), wide(b)), a),
           sample_inputs=lambda dtype: (SampleInput(general((6, 6), dtype).reshape(2, 3, 6),
                                                    as_tensor(values((2, 3), dtype), dtype)),),
           dtypes=LINALG_DTYPES, out="linalg.tensorsolve"),
    OpInfo("linalg_matrix_norm", variants=("linalg.matrix_norm",), ref=_matrix_norm,
           sample_inputs=lambda dtype: (SampleInput(a, o) for a in _squares(dtype)
                                        for o in (1, -1, 2, -2, float("inf"))),
           dtypes=LINALG_DTYPES, out="linalg.matrix_norm"),
    OpInfo("linalg_norm", variants=("linalg.norm",),
           ref=lambda a, ord=None, dim=None, keepdim=False: np.asarray(np.linalg.norm(
               wide(a), ord, axis=None if dim is None else tuple(dim))).astype(real_of(a)),
           sample_inputs=lambda dtype: (SampleInput(a, *args) for a in _squares(dtype)
                                        for args in ((), (1, (-2, -1)), (3, (1,)))),
           dtypes=LINALG_DTYPES, out="linalg.norm"),
    OpInfo("linalg_norm.ord_str", variants=("linalg.norm",),
           ref=lambda a, ord, dim=None: np.asarray(np.linalg.norm(
               wide(a), ord, axis=tuple(dim))).astype(real_of(a)),
           sample_inputs=lambda dtype: (SampleInput(a, o, (-2, -1)) for a in _squares(dtype)
                                        for o in ("fro", "nuc")),
           dtypes=LINALG_DTYPES),
    OpInfo("linalg_cond", variants=("linalg.cond",), ref=_cond,
           sample_inputs=lambda dtype: (SampleInput(a, *p) for a in _squares(dtype)
                                        for p in ((), (1,), (-2,))),
           dtypes=LINALG_DTYPES, out="linalg.cond"),
    OpInfo("linalg_cond.p_str", variants=("linalg.cond",), ref=_cond,
           sample_inputs=lambda dtype: (SampleInput(a, "fro") for a in _squares(dtype)),
           dtypes=LINALG_DTYPES),
    OpInfo("frobenius_norm.dim", variants=("frobenius_norm",),
           ref=lambda a, dim, keepdim=False: np.sqrt(np.sum(np.abs(wide(a)) ** 2, axis=tuple(
               dim), keepdims=keepdim)).astype(real_of(a)),
           sample_inputs=lambda dtype: (SampleInput(a, d) for a in _squares(dtype)
                                        for d in ((0,), (-2, -1))),
           dtypes=LINALG_DTYPES, out="frobenius_norm"),
    OpInfo("nuclear_norm", variants=("nuclear_norm",),
           ref=lambda a, keepdim=False: np.asarray(np.linalg.norm(wide(a), "nuc")).astype(
               real_of(a)),
           sample_inputs=lambda dtype: (SampleInput(general((3, 3), dtype)),),
           dtypes=LINALG_DTYPES, out="nuclear_norm"),
    OpInfo("nuclear_norm.dim", variants=("nuclear_norm",),
           ref=lambda a, dim, keepdim=False: np.linalg.norm(wide(a), "nuc", axis=tuple(
               dim)).astype(real_of(a)),
           sample_inputs=lambda dtype: (SampleInput(general((2, 3, 3), dtype), (1, 2)),),
           dtypes=LINALG_DTYPES, out="nuclear_norm"),
]
