"""OpInfo entries for `aten/native/linalg/cholesky.py`: linalg_cholesky_ex, linalg_cholesky,
cholesky, cholesky_solve, cholesky_inverse, _linalg_check_errors.

References factor with NumPy in float64 / complex128 and round to the sample's dtype.
Factorizations that fail (a matrix not positive-definite) are checked as error inputs
(LinAlgError) and, for the ``_ex`` form, as values: the partial factor and `info`.
"""
import warnings

import numpy as np
import pytest

import glasstorch as gt

from ..core import ErrorInput, OpInfo, SampleInput, make_tensor
from .matrices import BATCHES, LINALG_DTYPES, hermitian, rhs, rounded, wide

# torch.linalg.LinAlgError is a RuntimeError; tests/aten/native/linalg checks the class.
SEVERAL_RESULTS = {test: pytest.mark.skip(reason="out= of two results: "
                                          "tests/aten/native/linalg/test_factorizations.py")
                   for test in ("test_out", "test_out_matches_torch")}
_SQUARE = r"A must be batches of square matrices, but they are 2 by 3 matrices$"


def _factor(a, upper=False):
    L = np.linalg.cholesky(wide(a))
    return rounded(np.swapaxes(L, -1, -2).conj() if upper else L, a)


def sample_cholesky(dtype):
    for i, batch in enumerate(BATCHES):
        layout = ("contiguous", "transposed", "expanded", "contiguous")[i]
        yield SampleInput(hermitian(batch + (3, 3), dtype, layout))
        yield SampleInput(hermitian(batch + (2, 2), dtype, seed=i), upper=True)
    yield SampleInput(hermitian((0, 0), dtype))
    yield SampleInput(hermitian((1, 1), dtype), upper=False)


def sample_cholesky_ex(dtype):
    yield from sample_cholesky(dtype)
    # a batch holding a matrix that is not positive-definite: its partial factor and code
    failing = hermitian((2, 2, 2), dtype).clone()
    failing[1] = gt.tensor([[1.0, 2.0], [2.0, 1.0]], dtype=dtype)
    yield SampleInput(failing)


def _cholesky_ex_ref(a, upper=False, check_errors=False):
    if a.size == 0:
        return [a.copy(), np.zeros(a.shape[:-2], np.int32)]
    factors, info = [], []
    for m in wide(a).reshape((-1,) + a.shape[-2:]):
        code = _failing_minor(m)
        if code:
            # LAPACK stops at the first failing pivot: 1x1 and 2x2 cases only here
            partial = np.tril(m) if not upper else np.triu(m)
            partial[0, 0] = np.sqrt(m[0, 0]) if code > 1 else m[0, 0]
            if code > 1:
                if upper:
                    partial[0, 1] = m[0, 1] / partial[0, 0]
                    partial[1, 1] = m[1, 1] - abs(partial[0, 1]) ** 2
                else:
                    partial[1, 0] = m[1, 0] / partial[0, 0]
                    partial[1, 1] = m[1, 1] - abs(partial[1, 0]) ** 2
            factors.append(partial)
        else:
            factors.append(_factor(m, upper) if m.size else m)
        info.append(code)
    L = np.array(factors).reshape(a.shape).astype(a.dtype)
    return [L, np.array(info, np.int32).reshape(a.shape[:-2])]


def _failing_minor(m) -> int:
    """The order of the first leading minor that is not positive (0: none)."""
    for k in range(1, m.shape[-1] + 1):
        if np.linalg.det(m[:k, :k]).real <= 0:
            return k
    return 0


def errors_cholesky(name="linalg.cholesky"):
    def errors():
        yield ErrorInput(SampleInput(make_tensor((3,), gt.float32)), RuntimeError,
                         rf"^{name}: The input tensor A must have at least 2 dimensions\.$")
        yield ErrorInput(SampleInput(make_tensor((2, 3), gt.float32)), RuntimeError,
                         rf"^{name}: {_SQUARE}")
        yield ErrorInput(SampleInput(make_tensor((2, 2), gt.int64)), RuntimeError,
                         rf"^{name}: Expected a floating point or complex tensor as input\. "
                         r"Got Long$")
        yield ErrorInput(SampleInput(make_tensor((2, 2), gt.float16)), NotImplementedError,
                         r"^\"cholesky_cpu\" not implemented for 'Half'$")
    return errors


def _not_positive_definite(name):
    def errors():
        yield from errors_cholesky("linalg.cholesky")()
        yield ErrorInput(SampleInput(gt.tensor([[1.0, 2.0], [2.0, 1.0]])), RuntimeError,
                         rf"^{name}: The factorization could not be completed because the "
                         r"input is not positive-definite \(the leading minor of order 2 is "
                         r"not positive-definite\)\.$")
        batch = gt.stack([gt.eye(2), -gt.eye(2)])
        yield ErrorInput(SampleInput(batch), RuntimeError,
                         rf"^{name}: \(Batch element 1\): The factorization could not be "
                         r"completed because the input is not positive-definite \(the leading "
                         r"minor of order 1 is not positive-definite\)\.$")
    return errors


def _cholesky_deprecated(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return gt.cholesky(*args, **kwargs)


# ----- cholesky_solve, cholesky_inverse -----------------------------------------------------
def sample_cholesky_solve(dtype):
    for i, (batch_b, batch_a) in enumerate((((), ()), ((2,), (2,)), ((2,), ()), ((), (3,)),
                                            ((2, 1), (3,)), ((0,), ()))):
        upper = bool(i % 2)
        factor = gt.linalg.cholesky(hermitian(batch_a + (3, 3), dtype, seed=i), upper=upper)
        layout = "transposed" if i == 2 else "contiguous"
        yield SampleInput(rhs(batch_b + (3, 2), dtype, layout), factor, upper)


def _cholesky_solve_ref(b, factor, upper=False):
    f = wide(factor)
    lower = np.swapaxes(f, -1, -2).conj() if upper else f
    a = lower @ np.swapaxes(lower, -1, -2).conj()
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    x = np.linalg.solve(np.broadcast_to(a, batch + a.shape[-2:]),
                        np.broadcast_to(wide(b), batch + b.shape[-2:]))
    return rounded(x, b)


def errors_cholesky_solve():
    x = make_tensor((2, 2), gt.float32)
    yield ErrorInput(SampleInput(make_tensor((2,), gt.float32), x), RuntimeError,
                     r"^b should have at least 2 dimensions, but has 1 dimensions instead$")
    yield ErrorInput(SampleInput(x, make_tensor((2,), gt.float32)), RuntimeError,
                     r"^u should have at least 2 dimensions, but has 1 dimensions instead$")
    yield ErrorInput(SampleInput(x, make_tensor((2, 3), gt.float32)), RuntimeError,
                     rf"^{_SQUARE}")
    yield ErrorInput(SampleInput(make_tensor((2, 1), gt.float32), make_tensor((3, 3), gt.float32)),
                     RuntimeError, r"^Incompatible matrix sizes for cholesky_solve: each A "
                                   r"matrix is 3 by 3 but each b matrix is 2 by 1$")
    yield ErrorInput(SampleInput(x, make_tensor((2, 2), gt.float64)), RuntimeError,
                     r"^Expected b and A to have the same dtype, but found b of type Float and "
                     r"A of type Double instead\.$")
    yield ErrorInput(SampleInput(make_tensor((2, 2), gt.int64), make_tensor((2, 2), gt.int64)),
                     NotImplementedError, r"^\"cholesky_solve_cpu\" not implemented for 'Long'$")
    yield ErrorInput(SampleInput(make_tensor((3, 2, 2), gt.float32),
                                 make_tensor((2, 2, 2), gt.float32)), RuntimeError,
                     r"^The size of tensor a \(3\) must match the size of tensor b \(2\) at "
                     r"non-singleton dimension 0$")


def sample_cholesky_inverse(dtype):
    for i, batch in enumerate(BATCHES[:-1]):      # an empty batch: out= quirks, not covered
        upper = bool(i % 2)
        layout = "transposed" if i == 1 else "contiguous"
        factor = gt.linalg.cholesky(hermitian(batch + (3, 3), dtype, seed=i), upper=upper)
        yield SampleInput(factor.contiguous() if layout == "contiguous" else
                          factor.mT.contiguous().mT, upper)


def _cholesky_inverse_ref(factor, upper=False):
    f = wide(factor)
    lower = np.swapaxes(f, -1, -2).conj() if upper else f
    a = lower @ np.swapaxes(lower, -1, -2).conj()
    return rounded(np.linalg.inv(a) if a.size else a, factor)


def errors_cholesky_inverse():
    yield ErrorInput(SampleInput(make_tensor((3,), gt.float32)), RuntimeError,
                     r"^cholesky_inverse: The input tensor A must have at least 2 dimensions\.$")
    yield ErrorInput(SampleInput(make_tensor((2, 3), gt.float32)), RuntimeError,
                     rf"^cholesky_inverse: {_SQUARE}")
    yield ErrorInput(SampleInput(make_tensor((2, 2), gt.int64)), NotImplementedError,
                     r"^\"cholesky_inverse_out_cpu\" not implemented for 'Long'$")
    yield ErrorInput(SampleInput(gt.zeros(2, 2)), RuntimeError,
                     r"^cholesky_inverse: The diagonal element 1 is zero, the inversion could "
                     r"not be completed because the input matrix is singular\.$")


# ----- _linalg_check_errors -------------------------------------------------------------------
def sample_check_errors(dtype):
    yield SampleInput(gt.zeros(3, dtype=gt.int32), "linalg.inv", is_matrix=False)
    yield SampleInput(gt.zeros((), dtype=gt.int32), "linalg.cholesky", is_matrix=True)


def errors_check_errors():
    codes = gt.tensor([0, 2], dtype=gt.int32)
    yield ErrorInput(SampleInput(codes, "linalg.inv", is_matrix=False), RuntimeError,
                     r"^linalg\.inv: \(Batch element 1\): The diagonal element 2 is zero, the "
                     r"inversion could not be completed because the input matrix is singular\.$")
    yield ErrorInput(SampleInput(codes, "linalg.eigh", is_matrix=False), RuntimeError,
                     r"^linalg\.eigh: \(Batch element 1\): The algorithm failed to converge "
                     r"because the input matrix is ill-conditioned or has too many repeated "
                     r"eigenvalues \(error code: 2\)\.$")
    yield ErrorInput(SampleInput(codes, "linalg.svd", is_matrix=False), RuntimeError,
                     r"^linalg\.svd: \(Batch element 1\): The algorithm failed to converge "
                     r"because the input matrix is ill-conditioned or has too many repeated "
                     r"singular values \(error code: 2\)\.$")
    yield ErrorInput(SampleInput(codes[1], "linalg.lstsq", is_matrix=True), RuntimeError,
                     r"^linalg\.lstsq: The least squares solution could not be computed because "
                     r"the input matrix does not have full rank \(error code: 2\)\.$")


OPS = [
    OpInfo("linalg_cholesky_ex", variants=("linalg.cholesky_ex",), ref=_cholesky_ex_ref,
           sample_inputs=sample_cholesky_ex, error_inputs=errors_cholesky("linalg.cholesky"),
           dtypes=LINALG_DTYPES, out="linalg.cholesky_ex",
           marks=SEVERAL_RESULTS),
    OpInfo("linalg_cholesky", variants=("linalg.cholesky",),
           ref=lambda a, upper=False: _factor(a, upper) if a.size else a.copy(),
           sample_inputs=sample_cholesky, error_inputs=_not_positive_definite("linalg.cholesky"),
           dtypes=LINALG_DTYPES, out="linalg.cholesky"),
    OpInfo("cholesky", variants=("ops.aten.cholesky", "Tensor.cholesky"),
           ref=lambda a, upper=False: _factor(a, upper) if a.size else a.copy(),
           sample_inputs=sample_cholesky, dtypes=LINALG_DTYPES, out="ops.aten.cholesky"),
    OpInfo("cholesky_solve", variants=("cholesky_solve", "Tensor.cholesky_solve"),
           ref=_cholesky_solve_ref, sample_inputs=sample_cholesky_solve,
           error_inputs=errors_cholesky_solve, dtypes=LINALG_DTYPES, out="cholesky_solve"),
    OpInfo("cholesky_inverse", variants=("cholesky_inverse", "Tensor.cholesky_inverse"),
           ref=_cholesky_inverse_ref, sample_inputs=sample_cholesky_inverse,
           error_inputs=errors_cholesky_inverse, dtypes=LINALG_DTYPES, out="cholesky_inverse"),
    OpInfo("_linalg_check_errors", variants=("ops.aten._linalg_check_errors",),
           ref=lambda info, api_name, is_matrix: None, sample_inputs=sample_check_errors,
           error_inputs=errors_check_errors, dtypes=(gt.int32,),
           marks={"test_meta": pytest.mark.skip(reason="returns nothing: the meta call's "
                                                "silence is checked by test_errors_on_meta")}),
]
