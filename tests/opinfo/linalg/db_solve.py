"""OpInfo entries for `aten/native/linalg/triangular.py` (linalg_solve_triangular,
triangular_solve) and `solve.py` (linalg_inv_ex, linalg_inv, inverse, linalg_solve_ex,
_linalg_solve_ex, linalg_solve).

References solve with NumPy in float64 / complex128 and round to the sample's dtype. A
singular matrix is an error input (LinAlgError, a RuntimeError) for the checked forms and
a value (infinities, the code in `info`) for the ``_ex`` forms, in
tests/aten/native/linalg/test_solvers.py.
"""
import warnings

import numpy as np
import pytest

import glasstorch as gt

from ..core import ErrorInput, OpInfo, SampleInput, make_tensor
from .matrices import BATCHES, LINALG_DTYPES, general, rhs, rounded, wide

SEVERAL_RESULTS = {test: pytest.mark.skip(reason="out= of several results: "
                                          "tests/aten/native/linalg/test_solvers.py")
                   for test in ("test_out", "test_out_matches_torch")}
_SQUARE = r"A must be batches of square matrices, but they are 2 by 3 matrices$"


def _broadcast(a, b):
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    return (np.broadcast_to(a, batch + a.shape[-2:]), np.broadcast_to(b, batch + b.shape[-2:]))


def _x(*shape, dtype=gt.float32):
    return make_tensor(shape, dtype)


# ----- linalg_solve_triangular, triangular_solve --------------------------------------------
_TRIANGULAR_CASES = (((), (3, 2), True, True, False), ((2,), (3, 4), False, True, False),
                     ((2,), (4, 3), True, False, True), ((), (2, 3, 1), False, True, True),
                     ((3,), (3, 1), True, True, False), ((0,), (3, 2), False, True, False),
                     ((2, 1), (2, 3, 2), True, True, False))


def sample_solve_triangular(dtype):
    for i, (batch, b_shape, upper, left, unit) in enumerate(_TRIANGULAR_CASES):
        layout = ("contiguous", "transposed", "expanded")[i % 3]
        A = general(batch + (3, 3), dtype, layout)
        yield SampleInput(A, rhs(b_shape, dtype), upper=upper, left=left, unitriangular=unit)


def _triangle(a, upper, unit):
    t = np.triu(wide(a)) if upper else np.tril(wide(a))
    if unit:
        np.einsum("...ii->...i", t)[...] = 1
    return t


def _solve_triangular_ref(a, b, upper, left=True, unitriangular=False):
    t, rhs_ = _triangle(a, upper, unitriangular), wide(b)
    if not left:
        t, rhs_ = np.swapaxes(t, -1, -2), np.swapaxes(rhs_, -1, -2)
    t, rhs_ = _broadcast(t, rhs_)
    x = np.linalg.solve(t, rhs_) if t.size and rhs_.size else np.zeros(rhs_.shape)
    return rounded(x if left else np.swapaxes(x, -1, -2), a)


def errors_solve_triangular():
    name = "linalg.solve_triangular"
    yield ErrorInput(SampleInput(_x(2, 2), _x(2), upper=True), RuntimeError,
                     rf"^{name}: The input tensor B must have at least 2 dimensions\.$")
    yield ErrorInput(SampleInput(_x(2, 3), _x(2, 2), upper=True), RuntimeError,
                     rf"^{name}: {_SQUARE}")
    yield ErrorInput(SampleInput(_x(2, 2), _x(3, 1), upper=True), RuntimeError,
                     rf"^{name}: Incompatible shapes of A and B for the equation AX = B "
                     r"\(2x2 and 3x1\)$")
    yield ErrorInput(SampleInput(_x(2, 2), _x(3, 3), upper=True, left=False), RuntimeError,
                     rf"^{name}: Incompatible shapes of A and B for the equation XA = B "
                     r"\(2x2 and 3x3\)$")
    yield ErrorInput(SampleInput(_x(2, 2, dtype=gt.int64), _x(2, 2, dtype=gt.int64), upper=True),
                     NotImplementedError, r"^\"triangular_solve_cpu\" not implemented for 'Long'$")


def sample_triangular_solve(dtype):
    for i, (batch, b_shape, upper, left, unit) in enumerate(_TRIANGULAR_CASES):
        if left:
            yield SampleInput(rhs(b_shape, dtype), general(batch + (3, 3), dtype), upper,
                              bool(i % 2), unit)


def _triangular_solve_ref(b, a, upper=True, transpose=False, unitriangular=False):
    t = _triangle(a, upper, unitriangular)
    t = np.swapaxes(t, -1, -2) if transpose else t
    t, rhs_ = _broadcast(t, wide(b))
    x = np.linalg.solve(t, rhs_) if t.size and rhs_.size else np.zeros(rhs_.shape)
    return [rounded(x, b), np.broadcast_to(a, t.shape).copy()]


def _triangular_solve(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return gt.triangular_solve(*args, **kwargs)


def errors_triangular_solve():
    yield ErrorInput(SampleInput(_x(2), _x(2, 2)), RuntimeError,
                     r"^torch\.triangular_solve: Expected b to have at least 2 dimensions, but it "
                     r"has 1 dimensions instead$")
    yield ErrorInput(SampleInput(_x(2, 2), _x(2, 3)), RuntimeError, rf"^{_SQUARE}")
    yield ErrorInput(SampleInput(_x(2, 2), _x(2, 2, dtype=gt.float64)), RuntimeError,
                     r"^Expected b and A to have the same dtype, but found b of type Float and A "
                     r"of type Double instead\.$")
    yield ErrorInput(SampleInput(_x(3, 1), _x(2, 2)), RuntimeError,
                     r"^Incompatible matrix sizes for triangular_solve: each A matrix is 2 by 2 "
                     r"but each b matrix is 3 by 1$")
    yield ErrorInput(SampleInput(_x(3, 2, 1), _x(2, 2, 2)), RuntimeError,
                     r"^The size of tensor a \(3\) must match the size of tensor b \(2\) at "
                     r"non-singleton dimension 0$")


# ----- linalg_inv_ex, linalg_inv, inverse ----------------------------------------------------
def sample_inv(dtype):
    for i, batch in enumerate(BATCHES):
        yield SampleInput(general(batch + (3, 3), dtype, ("contiguous", "transposed",
                                                          "expanded", "contiguous")[i]))
    yield SampleInput(general((1, 1), dtype))
    yield SampleInput(general((0, 0), dtype))


def _inv(a):
    return rounded(np.linalg.inv(wide(a)) if a.size else wide(a), a)


def errors_inv(name="linalg.inv", singular=True):
    def errors():
        yield ErrorInput(SampleInput(_x(3)), RuntimeError,
                         rf"^{name}: The input tensor A must have at least 2 dimensions\.$")
        yield ErrorInput(SampleInput(_x(2, 3)), RuntimeError, rf"^{name}: {_SQUARE}")
        yield ErrorInput(SampleInput(_x(2, 2, dtype=gt.int64)), RuntimeError,
                         rf"^{name}: Expected a floating point or complex tensor as input\. "
                         r"Got Long$")
        yield ErrorInput(SampleInput(_x(2, 2, dtype=gt.float16)), RuntimeError,
                         rf"^{name}: Low precision dtypes not supported\. Got Half$")
        if singular:
            yield ErrorInput(SampleInput(gt.zeros(3, 2, 2)), RuntimeError,
                             rf"^{name}: \(Batch element 0\): The diagonal element 1 is zero, the "
                             r"inversion could not be completed because the input matrix is "
                             r"singular\.$")
    return errors


# ----- linalg_solve_ex, _linalg_solve_ex, linalg_solve --------------------------------------
_SOLVE_CASES = (((), (3, 2), True), ((2,), (2, 3, 4), True), ((), (3,), True),
                ((2,), (2, 3), True), ((2,), (4, 3), False), ((), (2, 5, 3), False),
                ((2, 1), (3, 3, 1), True), ((0,), (3, 2), True), ((), (3, 0), True))


_CONJUGATE_RESULT = ("linalg: torch returns a complex left=False solution with the conjugate "
                     "bit set (it solves A^H X^H = B^H); glasstorch's has the same values, "
                     "resolved")


def sample_solve(dtype):
    for i, (batch, b_shape, left) in enumerate(_SOLVE_CASES):
        layout = ("contiguous", "transposed", "expanded")[i % 3]
        sample = SampleInput(general(batch + (3, 3), dtype, layout), rhs(b_shape, dtype),
                             left=left)
        yield sample.known(_CONJUGATE_RESULT) if dtype.is_complex and not left else sample


def _solve_ref(a, b, left=True, check_errors=False):
    A, B = wide(a), wide(b)
    vector = b.ndim == 1 or (b.ndim == a.ndim - 1 and b.shape == a.shape[:-1])
    if vector:
        B = B[..., None]
    if not left:
        A, B = np.swapaxes(A, -1, -2), np.swapaxes(B, -1, -2)
    A, B = _broadcast(A, B)
    x = np.linalg.solve(A, B) if A.size and B.size else np.zeros(B.shape)
    x = x if left else np.swapaxes(x, -1, -2)
    return rounded(x[..., 0] if vector else x, a)


def _solve_ex_ref(a, b, left=True, check_errors=False):
    return [_solve_ref(a, b, left), np.zeros(a.shape[:-2], np.int32)]


def errors_solve(name="linalg.solve", singular_name="torch.linalg.solve"):
    def errors():
        yield ErrorInput(SampleInput(_x(3), _x(3)), RuntimeError,
                         rf"^{name}: The input tensor A must have at least 2 dimensions\.$")
        yield ErrorInput(SampleInput(_x(2, 3), _x(2)), RuntimeError, rf"^{name}: {_SQUARE}")
        yield ErrorInput(SampleInput(_x(2, 2, dtype=gt.int64), _x(2, dtype=gt.int64)),
                         RuntimeError, rf"^{name}: Expected a floating point or complex tensor "
                                       r"as input\. Got Long$")
        yield ErrorInput(SampleInput(_x(2, 2), _x(2, dtype=gt.float64)), RuntimeError,
                         rf"^{name}: Expected A and B to have the same dtype, but found A of type "
                         r"Float and B of type Double instead$")
        yield ErrorInput(SampleInput(_x(2, 2), _x(3, 1)), RuntimeError,
                         rf"^{name}: Incompatible shapes of A and B for the equation AX = B "
                         r"\(2x2 and 3x1\)$")
        yield ErrorInput(SampleInput(_x(1, 1), _x(1), left=False), RuntimeError,
                         rf"^{name}: Vector broadcasting of the left hand side is not supported "
                         r"for left=False\. In this case linalg\.solve is equivalent to B / "
                         r"A\.squeeze\(-1\)$")
        yield ErrorInput(SampleInput(_x(2, 2, 2), _x(3, 2, 1)), RuntimeError,
                         r"^The size of tensor a \(3\) must match the size of tensor b \(2\) at "
                         r"non-singleton dimension 0$")
        if singular_name:
            yield ErrorInput(SampleInput(gt.zeros(2, 2), gt.ones(2)), RuntimeError,
                             rf"^{singular_name}: The solver failed because the input matrix is "
                             r"singular\.$")
    return errors


OPS = [
    OpInfo("linalg_solve_triangular", variants=("linalg.solve_triangular",),
           ref=_solve_triangular_ref, sample_inputs=sample_solve_triangular,
           error_inputs=errors_solve_triangular, dtypes=LINALG_DTYPES,
           out="linalg.solve_triangular"),
    OpInfo("triangular_solve", variants=("triangular_solve", "Tensor.triangular_solve"),
           ref=_triangular_solve_ref, sample_inputs=sample_triangular_solve,
           error_inputs=errors_triangular_solve, dtypes=LINALG_DTYPES, out="triangular_solve",
           marks=SEVERAL_RESULTS),
    OpInfo("linalg_inv_ex", variants=("linalg.inv_ex",),
           ref=lambda a, check_errors=False: [_inv(a), np.zeros(a.shape[:-2], np.int32)],
           sample_inputs=sample_inv, error_inputs=errors_inv(singular=False),
           dtypes=LINALG_DTYPES, out="linalg.inv_ex", marks=SEVERAL_RESULTS),
    OpInfo("linalg_inv", variants=("linalg.inv",), ref=_inv, sample_inputs=sample_inv,
           error_inputs=errors_inv(), dtypes=LINALG_DTYPES, out="linalg.inv"),
    OpInfo("inverse", variants=("inverse", "Tensor.inverse"), ref=_inv, sample_inputs=sample_inv,
           error_inputs=errors_inv(), dtypes=LINALG_DTYPES, out="inverse"),
    OpInfo("linalg_solve_ex", variants=("linalg.solve_ex",), ref=_solve_ex_ref,
           sample_inputs=sample_solve, error_inputs=errors_solve(singular_name=None),
           dtypes=LINALG_DTYPES, out="linalg.solve_ex", marks=SEVERAL_RESULTS),
    OpInfo("_linalg_solve_ex", variants=("ops.aten._linalg_solve_ex",),
           ref=lambda a, b, left=True, check_errors=False: _solve_ex_lu_ref(a, b, left),
           sample_inputs=sample_solve, error_inputs=errors_solve(singular_name=None),
           dtypes=LINALG_DTYPES, out="ops.aten._linalg_solve_ex.result", marks=SEVERAL_RESULTS),
    OpInfo("linalg_solve", variants=("linalg.solve",), ref=_solve_ref, sample_inputs=sample_solve,
           error_inputs=errors_solve(), dtypes=LINALG_DTYPES, out="linalg.solve"),
]


def _solve_ex_lu_ref(a, b, left):
    import scipy.linalg
    x, info = _solve_ex_ref(a, b, left)
    batch = info.shape
    A = a.reshape((-1,) + a.shape[-2:])
    factors, pivots = [], []
    for m in A:
        if m.size:
            lu, piv = scipy.linalg.lu_factor(wide(m))
        else:
            lu, piv = wide(m), np.zeros(0, np.int32)
        factors.append(lu)
        pivots.append(piv + 1)
    n = a.shape[-1]
    return [x, np.array(factors).reshape(batch + (n, n)).astype(a.dtype),
            np.array(pivots, np.int32).reshape(batch + (n,)), info]
