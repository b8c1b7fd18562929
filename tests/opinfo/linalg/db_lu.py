"""OpInfo entries for `aten/native/linalg/lu_decomposition.py` (linalg_lu_factor_ex,
linalg_lu_factor, _lu_with_info, linalg_lu, lu_unpack, linalg_lu_solve, lu_solve) and
`svd.py` (_linalg_svd, linalg_svd, linalg_svdvals, svd).

References factor with SciPy / NumPy in float64 (complex128) and round to the sample's
dtype. Singular vectors are compared as LAPACK's gesdd returns them (torch's driver too).
"""
import numpy as np
import pytest
import scipy.linalg

import glasstorch as gt

from ..core import ErrorInput, OpInfo, SampleInput, make_tensor
from .matrices import LINALG_DTYPES, as_tensor, general, real_of, rhs, rounded, values, wide

SEVERAL_RESULTS = {test: pytest.mark.skip(reason="out= of several results: "
                                          "tests/aten/native/linalg/test_decompositions.py")
                   for test in ("test_out", "test_out_matches_torch")}
_SHAPES = ((3, 3), (2, 4, 3), (2, 3, 4), (1, 1), (0, 2), (2, 0, 0))


def _x(*shape, dtype=gt.float32):
    return make_tensor(shape, dtype)


def sample_rectangular(dtype):
    for i, shape in enumerate(_SHAPES):
        layout = "transposed" if i == 1 else "contiguous"
        yield SampleInput(as_tensor(values(shape, dtype, seed=i), dtype, layout))


def _lu_parts(a):
    """(LU, pivots, P, L, U) of every matrix, from SciPy."""
    m, n = a.shape[-2:]
    k = min(m, n)
    batch = a.shape[:-2]
    LU = np.zeros(a.shape, np.complex128 if a.dtype.kind == "c" else np.float64)
    piv = np.broadcast_to(np.arange(1, k + 1, dtype=np.int32), batch + (k,)).copy()
    P = np.broadcast_to(np.eye(m), batch + (m, m)).astype(LU.dtype)
    L = np.broadcast_to(np.eye(m, k), batch + (m, k)).astype(LU.dtype)
    U = np.zeros(batch + (k, n), LU.dtype)
    for index in np.ndindex(*batch):
        if a.size == 0:
            break
        x = wide(a[index])
        lu, p, _ = scipy.linalg.lapack.get_lapack_funcs("getrf", (x,))(x)
        LU[index], piv[index] = lu, p + 1
        P[index], L[index], U[index] = scipy.linalg.lu(x)
    return LU, piv, P, L, U


def _lu_factor_ex(a, pivot=True, check_errors=False):
    LU, piv, *_ = _lu_parts(a)
    return [rounded(LU, a), piv, np.zeros(a.shape[:-2], np.int32)]


def _lu(a, pivot=True):
    _, _, P, L, U = _lu_parts(a)
    return [rounded(P, a), rounded(L, a), rounded(U, a)]


def errors_lu_factor():
    yield ErrorInput(SampleInput(_x(3)), RuntimeError,
                     r"^torch\.lu_factor: Expected tensor with 2 or more dimensions\. Got size: "
                     r"\[3\] instead$")
    yield ErrorInput(SampleInput(_x(2, 2), pivot=False), RuntimeError,
                     r"^linalg\.lu_factor: LU without pivoting is not implemented on the CPU$")
    yield ErrorInput(SampleInput(_x(2, 2, dtype=gt.int64)), NotImplementedError,
                     r"^\"lu_cpu\" not implemented for 'Long'$")


def errors_lu_factor_singular():
    yield from errors_lu_factor()
    yield ErrorInput(SampleInput(gt.zeros(2, 2)), RuntimeError,
                     r"^torch\.linalg\.lu_factor: U\[1,1\] is zero and using it on lu_solve would "
                     r"result in a division by zero\. If you still want to perform the "
                     r"factorization, consider calling linalg\.lu\(A, pivot\) or "
                     r"linalg\.lu_factor_ex\(A, pivot\)$")


def sample_lu_unpack(dtype):
    for sample in sample_rectangular(dtype):
        LU, pivots, _ = gt.linalg.lu_factor_ex(sample.input)
        yield SampleInput(LU, pivots)
        yield SampleInput(LU, pivots, False)
        yield SampleInput(LU, pivots, True, False)


def _lu_unpack(LU, pivots, unpack_data=True, unpack_pivots=True):
    m, n = LU.shape[-2:]
    k = min(m, n)
    L = np.tril(LU[..., :k], -1) + np.eye(m, k)
    U = np.triu(LU[..., :k, :])
    order = np.broadcast_to(np.arange(m), LU.shape[:-2] + (m,)).copy()
    for index in np.ndindex(*LU.shape[:-2]):
        for i, p in enumerate(pivots[index]):
            order[index][[i, p - 1]] = order[index][[p - 1, i]]
    P = np.swapaxes(np.eye(m)[order], -1, -2)
    empty = np.zeros(0, LU.dtype)
    return [P.astype(LU.dtype) if unpack_pivots else empty,
            L.astype(LU.dtype) if unpack_data else empty,
            U.astype(LU.dtype) if unpack_data else empty]


_CONJUGATE_RESULT = ("linalg: torch returns a complex left=False solution with the conjugate "
                     "bit set (it solves the adjoint system); glasstorch's has the same values, "
                     "resolved")


# torch's meta function lays out V^H (svd: U's zeros) unlike its CPU kernel
META_LAYOUT = {"test_meta": pytest.mark.skip(reason="torch's meta function lays out one result "
                                             "unlike its CPU kernel; test_differential holds "
                                             "glasstorch to each")}


def sample_vectors(dtype, *argument_lists):
    """The rectangular samples with each argument list, but for tall matrices' singular
    vectors: their signs follow the LAPACK build (NumPy's OpenBLAS gesdd and torch's MKL
    one choose differently for some real tall matrices, not for all), so
    tests/aten/native/linalg/test_decompositions.py compares those up to sign."""
    for sample in sample_rectangular(dtype):
        m, n = sample.input.shape[-2:]
        for args in argument_lists:
            computes_vectors = not (len(args) > 1 and args[1] is False)
            if m <= n or not computes_vectors:
                yield SampleInput(sample.input, *args)


def sample_lu_solve(dtype):
    for i, (batch, b_shape, left, adjoint) in enumerate((
            ((), (3, 2), True, False), ((2,), (2, 3, 4), True, True),
            ((2,), (4, 3), False, False), ((), (2, 5, 3), False, True),
            ((2, 1), (3, 3, 1), True, False), ((0,), (3, 2), True, True))):
        LU, pivots = gt.linalg.lu_factor(general(batch + (3, 3), dtype, seed=i))
        sample = SampleInput(LU, pivots, rhs(b_shape, dtype), left=left, adjoint=adjoint)
        yield sample.known(_CONJUGATE_RESULT) if dtype.is_complex and not left else sample


def _lu_solve(LU, pivots, B, left=True, adjoint=False):
    P, L, U = _lu_unpack(LU, pivots)
    A = wide(P) @ wide(L) @ wide(U)
    A = np.swapaxes(A, -1, -2).conj() if adjoint else A
    Bw = wide(B)
    if not left:
        A, Bw = np.swapaxes(A, -1, -2), np.swapaxes(Bw, -1, -2)
    batch = np.broadcast_shapes(A.shape[:-2], Bw.shape[:-2])
    A = np.broadcast_to(A, batch + A.shape[-2:])
    Bw = np.broadcast_to(Bw, batch + Bw.shape[-2:])
    X = np.linalg.solve(A, Bw) if A.size and Bw.size else np.zeros(Bw.shape)
    return rounded(X if left else np.swapaxes(X, -1, -2), LU)


def errors_lu_solve():
    LU, pivots = gt.linalg.lu_factor(general((3, 3), gt.float32))
    yield ErrorInput(SampleInput(LU, pivots, _x(4, 2)), RuntimeError,
                     r"^linalg\.lu_solve: Incompatible shapes of A and B for the equation AX = B "
                     r"\(3x3 and 4x2\)$")
    yield ErrorInput(SampleInput(LU, pivots.long(), _x(3, 2)), RuntimeError,
                     r"^linalg\.lu_solve: pivots should be a Tensor of scalar type torch\.int32$")
    yield ErrorInput(SampleInput(_x(2, 3), pivots[:2], _x(2, 1)), RuntimeError,
                     r"^torch\.linalg\.lu_solve: A must be batches of square matrices, but they "
                     r"are 2 by 3 matrices$")


# ----- svd ----------------------------------------------------------------------------------
def _svd(a, full_matrices=False, compute_uv=True, driver=None):
    m, n = a.shape[-2:]
    k = min(m, n)
    real = real_of(a)
    if a.size == 0:
        S = np.zeros(a.shape[:-2] + (k,), real)
        U = np.broadcast_to(np.eye(m, m if full_matrices else k), a.shape[:-2] +
                            (m, m if full_matrices else k)).astype(a.dtype)
        Vh = np.broadcast_to(np.eye(n if full_matrices else k, n), a.shape[:-2] +
                             (n if full_matrices else k, n)).astype(a.dtype)
    else:
        U, S, Vh = np.linalg.svd(wide(a), full_matrices=full_matrices)
        U, S, Vh = U.astype(a.dtype), S.astype(real), Vh.astype(a.dtype)
    if not compute_uv:
        return [np.zeros(0, a.dtype), S, np.zeros(0, a.dtype)]
    return [U, S, Vh]


def errors_svd(kernel=True):
    def errors():
        yield ErrorInput(SampleInput(_x(3)), RuntimeError,
                         r"^linalg\.svd: The input tensor A must have at least 2 dimensions\.$")
        yield ErrorInput(SampleInput(_x(2, 2, dtype=gt.int64)), RuntimeError,
                         r"^linalg\.svd: Expected a floating point or complex tensor as input\. "
                         r"Got Long$")
        if kernel:
            yield ErrorInput(SampleInput(_x(2, 2, dtype=gt.float16)), NotImplementedError,
                             r"^\"linalg_svd_cpu\" not implemented for 'Half'$")
    return errors


def _svd_top(a, some=True, compute_uv=True):
    if not compute_uv:
        m, n = a.shape[-2:]
        batch = a.shape[:-2]
        return [np.zeros(batch + (m, m), a.dtype), _svd(a)[1], np.zeros(batch + (n, n), a.dtype)]
    U, S, Vh = _svd(a, not some)
    return [U, S, np.swapaxes(Vh, -1, -2).conj()]


OPS = [
    OpInfo("linalg_lu_factor_ex", variants=("linalg.lu_factor_ex",), ref=_lu_factor_ex,
           sample_inputs=sample_rectangular, error_inputs=errors_lu_factor,
           dtypes=LINALG_DTYPES, out="linalg.lu_factor_ex", marks=SEVERAL_RESULTS),
    OpInfo("linalg_lu_factor", variants=("linalg.lu_factor",),
           ref=lambda a, pivot=True: _lu_factor_ex(a)[:2], sample_inputs=sample_rectangular,
           error_inputs=errors_lu_factor_singular, dtypes=LINALG_DTYPES),
    OpInfo("_lu_with_info", variants=("ops.aten._lu_with_info",), ref=
           lambda a, pivot=True, check_errors=True: _lu_factor_ex(a),
           sample_inputs=sample_rectangular, dtypes=LINALG_DTYPES),
    OpInfo("linalg_lu", variants=("linalg.lu",), ref=_lu, sample_inputs=sample_rectangular,
           error_inputs=lambda: [ErrorInput(SampleInput(_x(3)), RuntimeError,
                                            r"^linalg\.lu: Expected tensor with 2 or more "
                                            r"dimensions\. Got size: \[3\] instead$")],
           dtypes=LINALG_DTYPES, out="linalg.lu", marks=SEVERAL_RESULTS),
    OpInfo("lu_unpack", variants=("lu_unpack",), ref=_lu_unpack, sample_inputs=sample_lu_unpack,
           dtypes=LINALG_DTYPES, out="lu_unpack", marks=SEVERAL_RESULTS),
    OpInfo("linalg_lu_solve", variants=("linalg.lu_solve",), ref=_lu_solve,
           sample_inputs=sample_lu_solve, error_inputs=errors_lu_solve, dtypes=LINALG_DTYPES,
           out="linalg.lu_solve"),
    OpInfo("lu_solve", variants=("lu_solve", "Tensor.lu_solve"),
           ref=lambda b, LU, piv: _lu_solve(LU, piv, b),
           sample_inputs=lambda dtype: (SampleInput(s.args[2], s.args[0], s.args[1])
                                        for s in sample_lu_solve(dtype)
                                        if s.kwargs == {"left": True, "adjoint": False}),
           dtypes=LINALG_DTYPES, out="lu_solve"),
    OpInfo("_linalg_svd", variants=("ops.aten._linalg_svd",), ref=_svd,
           sample_inputs=lambda dtype: sample_vectors(dtype, (), (True,), (False, False)),
           error_inputs=errors_svd(), dtypes=LINALG_DTYPES, out="ops.aten._linalg_svd.U",
           marks={**SEVERAL_RESULTS, **META_LAYOUT}),
    OpInfo("linalg_svd", variants=("linalg.svd",),
           ref=lambda a, full_matrices=True: _svd(a, full_matrices),
           sample_inputs=lambda dtype: sample_vectors(dtype, (), (False,)),
           error_inputs=errors_svd(), dtypes=LINALG_DTYPES, out="linalg.svd",
           marks={**META_LAYOUT, **SEVERAL_RESULTS}),
    OpInfo("linalg_svdvals", variants=("linalg.svdvals",), ref=lambda a: _svd(a)[1],
           sample_inputs=sample_rectangular, error_inputs=errors_svd(), dtypes=LINALG_DTYPES,
           out="linalg.svdvals"),
    OpInfo("svd", variants=("svd", "Tensor.svd"), ref=_svd_top,
           sample_inputs=lambda dtype: sample_vectors(dtype, (), (False,), (True, False)),
           dtypes=LINALG_DTYPES, out="svd", marks={**META_LAYOUT, **SEVERAL_RESULTS}),
]
