"""Linear algebra against torch where the op_db records found differences: the out= forms
of the decompositions (svd.U, linalg_svd.U, qr.Q, slogdet.out, lu_solve.out), the older
tolerance overloads (matrix_rank's `tol`, pinv's tensor `rcond`), lstsq's residuals'
gradient, ormqr's refusals, vander of a number, the norms' tangents at zero."""
import warnings

import numpy as np
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(5)


def _both(fn):
    """fn(library) for torch and glasstorch: (result, None) or (None, exception)."""
    found = []
    for lib in (torch, gt):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")          # torch.qr / lu_solve's deprecations
            try:
                found.append((fn(lib), None))
            except Exception as exc:             # the refusal being compared
                found.append((None, exc))
    return found


def _close(theirs, mine, **tol):
    np.testing.assert_allclose(mine.detach().resolve_conj().numpy(),
                               theirs.detach().resolve_conj().numpy(), **tol)


def _outs(lib, dtypes):
    return tuple(lib.empty(0, dtype=getattr(lib, d)) for d in dtypes)


A = RNG.standard_normal((4, 3))


@pytest.mark.parametrize("call, dtypes", [
    (lambda lib, a, out: lib.svd(a, out=out), ("float64",) * 3),
    (lambda lib, a, out: lib.svd(a, some=False, compute_uv=False, out=out), ("float64",) * 3),
    (lambda lib, a, out: lib.linalg.svd(a, out=out), ("float64",) * 3),
    (lambda lib, a, out: lib.qr(a, out=out), ("float64",) * 2),
    (lambda lib, a, out: lib.slogdet(a[:3], out=out), ("float64",) * 2),
])
def test_out_forms_of_several_results(call, dtypes):
    """Written into the given tensors (torch's shapes and strides), which are returned."""
    for (theirs, _), (mine, _) in [_both(lambda lib: (call(lib, lib.tensor(A), outs := _outs(
            lib, dtypes)), outs))]:
        for t, m, out in zip(theirs[0], mine[0], mine[1]):
            assert m is out and m.stride() == t.stride()
            if m.numel():
                _close(t.abs(), m.abs(), rtol=1e-10, atol=1e-12)   # vectors up to sign


@pytest.mark.parametrize("call", [
    lambda lib, a: lib.svd(a, out=_outs(lib, ("float32", "float64", "float64"))),
    lambda lib, a: lib.linalg.svd(a, out=_outs(lib, ("float64", "int64", "float64"))),
    lambda lib, a: lib.qr(a, out=_outs(lib, ("float64", "float32"))),
    lambda lib, a: lib.slogdet(a[:3], out=_outs(lib, ("float32", "float64"))),
])
def test_out_forms_refuse_another_dtype(call):
    (_, theirs), (_, mine) = _both(lambda lib: call(lib, lib.tensor(A)))
    assert type(mine) is type(theirs) and str(mine) == str(theirs)


def test_lu_solve_out():
    B = RNG.standard_normal((3, 2))

    def solve(lib):
        LU, pivots = lib.linalg.lu_factor(lib.tensor(A[:3]))
        out = lib.empty(0, dtype=lib.float64)
        return lib.lu_solve(lib.tensor(B), LU, pivots, out=out), out
    (theirs, _), (mine, _) = _both(solve)
    assert mine[0] is mine[1]
    _close(theirs[0], mine[0], rtol=1e-12)


@pytest.mark.parametrize("call", [
    lambda lib, a: lib.linalg.matrix_rank(a, tol=0.01),
    lambda lib, a: lib.linalg.matrix_rank(a, 0.01, hermitian=True),
    lambda lib, a: lib.linalg.matrix_rank(a, lib.tensor([1e-5, 0.01])),
    lambda lib, a: lib.linalg.matrix_rank(a, tol=lib.tensor(0.01),
                                          out=lib.empty(0, dtype=lib.int32)),
    lambda lib, a: lib.linalg.matrix_rank(a, 0.01, out=lib.empty(0, dtype=lib.bool)),
    lambda lib, a: lib.linalg.pinv(a, lib.tensor(0.01)),
    lambda lib, a: lib.linalg.pinv(a, rcond=lib.tensor([0.01, 1e-9]), hermitian=True),
    lambda lib, a: lib.linalg.pinv(a, 0.01, out=lib.empty(0, dtype=lib.float64)),
    lambda lib, a: lib.linalg.pinv(a, lib.tensor(0.01), out=lib.empty(0, dtype=lib.int64)),
])
def test_tolerance_overloads(call):
    """`tol` is an absolute tolerance, `rcond` a relative one, numbers or tensors."""
    nearly_singular = np.array([[[1.0, 2.0], [2.0, 4.001]], [[3.0, 1.0], [1.0, 2.0]]])
    (theirs, error), (mine, mine_error) = _both(lambda lib: call(lib, lib.tensor(nearly_singular)))
    if error is not None:
        assert type(mine_error) is type(error) and str(mine_error) == str(error)
        return
    assert mine.dtype == getattr(gt, str(theirs.dtype).removeprefix("torch."))
    _close(theirs, mine, rtol=1e-9)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
@pytest.mark.parametrize("driver, shape", [("gels", (4, 3)), ("gelsd", (2, 5, 3)),
                                           ("gelss", (5, 2))])
def test_lstsq_residuals_carry_their_gradient(dtype, driver, shape):
    """The residuals of a tall full-rank problem are differentiable, as in torch."""
    a = RNG.standard_normal(shape) + (1j * RNG.standard_normal(shape) if dtype is np.complex128
                                      else 0)
    b = RNG.standard_normal(shape[:-1] + (2,)).astype(dtype)
    found = []
    for lib in (torch, gt):
        A, B = lib.tensor(a, requires_grad=True), lib.tensor(b, requires_grad=True)
        solution, residuals = lib.linalg.lstsq(A, B, driver=driver)[:2]
        loss = residuals.sum() + (solution.abs() ** 2).sum() * 0.5
        found.append(lib.autograd.grad(loss, (A, B)))
    for theirs, mine in zip(*found):
        _close(theirs, mine, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("shapes, left", [
    (((5, 0), (5,), (5, 5)), True), (((5, 3), (2,), (2, 5)), False),
    (((5, 7), (6,), (5, 7)), True), (((5, 3), (3,), (5, 2)), False),
    (((3,), (4,), (7, 5)), False), (((5, 3), (3,), (5,)), False)])
def test_ormqr_refusals(shapes, left):
    (_, theirs), (_, mine) = _both(lambda lib: lib.ormqr(*(lib.zeros(s) for s in shapes), left))
    assert type(mine) is type(theirs) and str(mine) == str(theirs)


def test_ormqr_of_an_empty_batch_has_no_gradient_but_other_s():
    found = []
    for lib in (torch, gt):
        leaves = [lib.zeros(s, dtype=lib.float64, requires_grad=True)
                  for s in ((0, 5, 5), (0, 5), (0, 5, 5))]
        result = lib.ormqr(*leaves)
        found.append(lib.autograd.grad(result, leaves, lib.zeros_like(result),
                                       allow_unused=True))
    assert [g is None for g in found[1]] == [g is None for g in found[0]] == [True, True, False]


def test_vander_of_a_number():
    (theirs, _), (mine, _) = _both(lambda lib: lib.linalg.vander(lib.tensor(3.0), N=3))
    _close(theirs, mine)
    (_, theirs), (_, mine) = _both(lambda lib: lib.linalg.vander(lib.tensor(3.0)))
    assert type(mine) is type(theirs) and str(mine) == str(theirs)


@pytest.mark.parametrize("ord, shape", [(2, (0,)), (3, (0,)), (0.5, (0,)), (2, (5,)),
                                        (3, (5,)), (0.5, (5,)), (-0.5, (5,)), (1.5, (5,))])
def test_norm_tangent_at_zero(ord, shape):
    """The norms' tangents at the zero vector (and of an empty one) are 0, not 0/0."""
    found = []
    for lib in (torch, gt):
        fwAD = lib.autograd.forward_ad
        with fwAD.dual_level():
            x = fwAD.make_dual(lib.zeros(shape, dtype=lib.float64),
                               lib.ones(shape, dtype=lib.float64))
            found.append(fwAD.unpack_dual(lib.linalg.vector_norm(x, ord)).tangent)
    theirs, mine = found
    _close(theirs if theirs is not None else torch.zeros(()),
           mine if mine is not None else gt.zeros(()))


@pytest.mark.parametrize("call", [
    lambda lib, a: lib.linalg.matrix_rank(a, atol=0.1, out=lib.empty(0, dtype=lib.int32)),
    lambda lib, a: lib.linalg.matrix_rank(a, rtol=lib.tensor(0.1),
                                          out=lib.empty(0, dtype=lib.int64)),
    lambda lib, a: lib.linalg.pinv(a, atol=0.1, out=lib.empty(0, dtype=lib.float64)),
    lambda lib, a: lib.linalg.pinv(a, rtol=0.1, out=lib.empty(0, dtype=lib.bool)),
])
def test_tolerance_keywords_with_out(call):
    (theirs, error), (mine, mine_error) = _both(lambda lib: call(lib, lib.tensor(A)))
    if error is not None:
        assert type(mine_error) is type(error) and str(mine_error) == str(error)
        return
    assert mine.dtype == getattr(gt, str(theirs.dtype).removeprefix("torch."))
    _close(theirs, mine, rtol=1e-9)
