"""Cholesky, triangular and general solves, inverses, determinants and eigh against torch:
what the OpInfo entries cannot say (LinAlgError's class, the ``_ex`` forms' codes on a
batch holding a failing matrix, out= of several results, gradients through broadcast
batches and complex inputs, tangents, eigh's gauge), on small inputs.
"""
import warnings

import numpy as np
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(7)


def _hermitian(shape, dtype=np.float64):
    x = RNG.standard_normal(shape)
    if dtype == np.complex128:
        x = x + 1j * RNG.standard_normal(shape)
    return x @ np.swapaxes(x, -1, -2).conj() + shape[-1] * np.eye(shape[-1])


def _both(fn, *arrays, requires_grad=False):
    """fn's results on torch and on glasstorch, as ndarrays (each a list)."""
    found = []
    for lib in (torch, gt):
        tensors = [lib.tensor(a, requires_grad=requires_grad) for a in arrays]
        result = fn(lib, *tensors)
        results = result if isinstance(result, tuple) else (result,)
        found.append(([r.detach().resolve_conj().numpy() for r in results], tensors, results))
    return found


def _gradients_agree(fn, *arrays):
    """Values and gradients of a weighted sum of fn's floating results agree."""
    grads = []
    for (values, tensors, results), lib in zip(_both(fn, *arrays, requires_grad=True),
                                              (torch, gt)):
        loss = sum(((r.abs() ** 2) if r.is_complex() else r).sum() * (i + 1)
                   for i, r in enumerate(results) if r.dtype.is_floating_point or r.is_complex())
        grads.append([g.resolve_conj().numpy() for g in lib.autograd.grad(loss, tensors)])
        grads[-1].append(values)
    (torch_grads, gt_grads) = grads
    for expected, actual in zip(torch_grads[:-1], gt_grads[:-1]):
        np.testing.assert_allclose(actual, expected, rtol=1e-7, atol=1e-9)
    for expected, actual in zip(torch_grads[-1], gt_grads[-1]):
        np.testing.assert_allclose(actual, expected, rtol=1e-7, atol=1e-9)


def test_linalg_error_is_torchs():
    assert issubclass(gt.linalg.LinAlgError, RuntimeError)
    assert gt.linalg.LinAlgError.__name__ == torch.linalg.LinAlgError.__name__
    with pytest.raises(gt.linalg.LinAlgError, match=r"^linalg\.inv: The diagonal element 1"):
        gt.linalg.inv(gt.zeros(2, 2))
    with pytest.raises(gt.linalg.LinAlgError, match=r"^torch\.linalg\.solve: The solver"):
        gt.linalg.solve(gt.zeros(2, 2), gt.ones(2))
    with pytest.raises(gt.linalg.LinAlgError, match=r"^linalg\.cholesky_ex: \(Batch element 1"):
        gt.linalg.cholesky_ex(gt.stack([gt.eye(2), -gt.eye(2)]), check_errors=True)


@pytest.mark.parametrize("name", ["cholesky_ex", "inv_ex", "solve_ex"])
def test_ex_forms_report_each_failing_matrix(name):
    """A batch holding a matrix that cannot be factored: the others are solved, the failing
    one gets its code (and, as in torch, its partial or infinite values)."""
    batch = _hermitian((3, 3, 3))
    batch[1] = [[1.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 0.0]]
    args = (batch, np.ones((3, 3, 1))) if name == "solve_ex" else (batch,)
    (expected, _, _), (actual, _, _) = _both(
        lambda lib, *t: getattr(lib.linalg, name)(*t), *args)
    np.testing.assert_array_equal(actual[1], expected[1])          # the codes
    np.testing.assert_allclose(actual[0][[0, 2]], expected[0][[0, 2]], rtol=1e-10)
    if name == "cholesky_ex":                                   # the partial factor
        np.testing.assert_allclose(actual[0][1], expected[0][1])


@pytest.mark.parametrize("call", [
    lambda lib, A, out: lib.linalg.cholesky_ex(A, out=out),
    lambda lib, A, out: lib.linalg.inv_ex(A, out=out),
    lambda lib, A, out: lib.linalg.slogdet(A, out=out),
    lambda lib, A, out: lib.linalg.eigh(A, out=out),
], ids=["cholesky_ex", "inv_ex", "slogdet", "eigh"])
def test_out_of_several_results(call):
    A = _hermitian((2, 3, 3))
    found = []
    for lib in (torch, gt):
        result = call(lib, lib.tensor(A), None)
        out = tuple(lib.empty(0, dtype=r.dtype) for r in result)
        returned = call(lib, lib.tensor(A), out)
        assert all(r is o for r, o in zip(returned, out))
        found.append([(tuple(o.shape), o.stride(), o.numpy()) for o in out])
    for (shape, stride, value), (gt_shape, gt_stride, gt_value) in zip(*found):
        assert (gt_shape, gt_stride) == (shape, stride)
        if value.dtype.kind in "fc" and value.ndim > 1 and value.shape[-1] > 1 and \
                call.__code__.co_names[-1] == "eigh":
            value, gt_value = np.abs(value), np.abs(gt_value)        # eigenvectors' signs
        np.testing.assert_allclose(gt_value, value, rtol=1e-10)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=["real", "complex"])
@pytest.mark.parametrize("case", [
    ("cholesky upper", lambda lib, A: lib.linalg.cholesky(A, upper=True), ((2, 3, 3),)),
    ("solve broadcast", lambda lib, A, B: lib.linalg.solve(A, B), ((3, 3), (2, 3, 2))),
    ("solve vectors", lambda lib, A, B: lib.linalg.solve(A, B), ((2, 3, 3), (2, 3))),
    ("solve left=False", lambda lib, A, B: lib.linalg.solve(A, B, left=False),
     ((2, 3, 3), (2, 4, 3))),
    ("solve_triangular broadcast", lambda lib, A, B: lib.linalg.solve_triangular(
        A, B, upper=False, unitriangular=True), ((3, 3), (2, 3, 2))),
    ("cholesky_solve", lambda lib, B, A: lib.cholesky_solve(B, lib.linalg.cholesky(A)),
     ((2, 3, 2), (3, 3))),
    ("cholesky_inverse upper", lambda lib, A: lib.cholesky_inverse(
        lib.linalg.cholesky(A, upper=True), upper=True), ((3, 3),)),
    ("inv", lambda lib, A: lib.linalg.inv(A), ((2, 3, 3),)),
    ("det", lambda lib, A: lib.linalg.det(A), ((2, 3, 3),)),
    ("slogdet", lambda lib, A: lib.linalg.slogdet(A), ((2, 3, 3),)),
    ("logdet", lambda lib, A: lib.logdet(A), ((3, 3),)),
    ("eigh", lambda lib, A: (lib.linalg.eigh(A)[0], lib.linalg.eigh(A)[1].abs()), ((2, 3, 3),)),
    ("eigvalsh", lambda lib, A: lib.linalg.eigvalsh(A, UPLO="U"), ((3, 3),)),
], ids=lambda case: case[0] if isinstance(case, tuple) else None)
def test_gradients_match_torch(case, dtype):
    name, fn, shapes = case
    arrays = []
    for shape in shapes:
        if shape[-1] == shape[-2] and len(arrays) == 0 or name.startswith("cholesky_solve") \
                and len(arrays) == 1:
            arrays.append(_hermitian(shape, dtype))
        else:
            arrays.append(RNG.standard_normal(shape).astype(dtype))
    _gradients_agree(fn, *arrays)


def test_cholesky_tangent_of_a_hermitian_direction_is_torchs():
    """The tangent derived from the backward formula equals torch's forward formula on
    the tangents a Hermitian input can have."""
    A = _hermitian((3, 3))
    direction = RNG.standard_normal((3, 3))
    direction = direction + direction.T
    found = []
    for lib in (torch, gt):
        fw = lib.autograd.forward_ad
        with fw.dual_level():
            dual = fw.make_dual(lib.tensor(A), lib.tensor(direction))
            found.append(fw.unpack_dual(lib.linalg.cholesky(dual)).tangent.numpy())
    np.testing.assert_allclose(found[1], found[0], rtol=1e-10)


def test_eigh_refuses_a_loss_that_reads_the_eigenvectors_phase():
    A = _hermitian((3, 3), np.complex128)
    for lib in (torch, gt):
        x = lib.tensor(A, requires_grad=True)
        loss = lib.linalg.eigh(x).eigenvectors[0, 0].imag * 10
        with pytest.raises(RuntimeError, match=r"^linalg_eigh_backward: The eigenvectors in the "
                                               r"complex case are specified up to"):
            loss.backward()


def test_triangular_solve_warns_once_and_copies_A(monkeypatch):
    from glasstorch.aten.native.shape import shape
    monkeypatch.setattr(shape, "_WARNED", set())     # once per process: maybe already
    A, B = np.triu(_hermitian((3, 3))), RNG.standard_normal((3, 2))
    with pytest.warns(UserWarning, match="torch.triangular_solve is deprecated"):
        result = gt.triangular_solve(gt.tensor(B), gt.tensor(A))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gt.triangular_solve(gt.tensor(B), gt.tensor(A))          # the second call is quiet
    expected = torch.triangular_solve(torch.tensor(B), torch.tensor(A))
    assert type(result).__name__ == "triangular_solve"
    np.testing.assert_allclose(result.solution.numpy(), expected.solution.numpy())
    np.testing.assert_array_equal(result.cloned_coefficient.numpy(), A)
