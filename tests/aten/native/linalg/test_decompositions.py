"""LU and SVD against torch: what the OpInfo entries leave out (tall matrices' singular
vectors, compared up to sign; gradients through every output; out= of several results;
torch.lu), on small inputs."""
import warnings

import numpy as np
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(3)


def _array(shape, dtype=np.float64):
    a = RNG.standard_normal(shape)
    return a + 1j * RNG.standard_normal(shape) if dtype == np.complex128 else a


def _grads(fn, *arrays):
    """Each library's input gradients of a weighted sum of fn's floating results."""
    found = []
    for lib in (torch, gt):
        tensors = [lib.tensor(a, requires_grad=True) for a in arrays]
        results = fn(lib, *tensors)
        results = results if isinstance(results, tuple) else (results,)
        loss = sum(((r.abs() ** 2) if r.is_complex() else r).sum() * (i + 1)
                   for i, r in enumerate(results) if r.requires_grad)
        found.append([g.resolve_conj().numpy() for g in lib.autograd.grad(loss, tensors)])
    return found


@pytest.mark.parametrize("shape", [(5, 3), (2, 4, 2), (3, 3)])
def test_tall_singular_vectors_agree_up_to_sign(shape):
    A = _array(shape)
    U, S, Vh = (t.numpy() for t in gt.linalg.svd(gt.tensor(A), full_matrices=False))
    tU, tS, tVh = (t.numpy() for t in torch.linalg.svd(torch.tensor(A), full_matrices=False))
    np.testing.assert_allclose(S, tS, rtol=1e-12)
    signs = np.sign(np.sum(U * tU, axis=-2, keepdims=True))       # one per column
    np.testing.assert_allclose(U * signs, tU, atol=1e-12)
    np.testing.assert_allclose(Vh * np.swapaxes(signs, -1, -2), tVh, atol=1e-12)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=["real", "complex"])
@pytest.mark.parametrize("shape", [(3, 3), (2, 5, 3), (3, 5)], ids=str)
@pytest.mark.parametrize("case", [
    ("svd, gauge-invariant", lambda lib, A: (
        lib.linalg.svd(A, full_matrices=False).U.abs(), lib.linalg.svdvals(A),
        lib.linalg.svd(A, full_matrices=False).Vh.abs())),
    ("svd projector", lambda lib, A: (lambda U, S, Vh: U @ Vh)(*lib.linalg.svd(A, False))),
    ("lu", lambda lib, A: lib.linalg.lu(A)),
    ("lu_factor", lambda lib, A: lib.linalg.lu_factor(A).LU),
    ("lu_unpack", lambda lib, A: lib.lu_unpack(*lib.linalg.lu_factor(A))),
], ids=lambda case: case[0] if isinstance(case, tuple) else None)
def test_gradients_match_torch(case, shape, dtype):
    expected, actual = _grads(case[1], _array(shape, dtype))
    for e, a in zip(expected, actual):
        np.testing.assert_allclose(a, e, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("adjoint", [True, False])
def test_lu_solve_gradients_match_torch(left, adjoint):
    A, B = _array((2, 3, 3), np.complex128), _array((2, 3, 2) if left else (2, 2, 3),
                                                     np.complex128)
    expected, actual = _grads(lambda lib, a, b: lib.linalg.lu_solve(
        *lib.linalg.lu_factor(a), b, left=left, adjoint=adjoint), A, B)
    for e, a in zip(expected, actual):
        np.testing.assert_allclose(a, e, rtol=1e-7, atol=1e-9)


def test_det_of_a_singular_matrix_differentiates_through_the_svd():
    """Recorded backward (create_graph): the cofactors of a rank-deficient matrix, not 0."""
    A = np.ones((3, 3)) + np.diag([1.0, 0.0, 0.0])
    found = []
    for lib in (torch, gt):
        a = lib.tensor(A, requires_grad=True)
        (grad,) = lib.autograd.grad(lib.linalg.det(a), a, create_graph=True)
        found.append(grad.detach().numpy())
    np.testing.assert_allclose(found[1], found[0], atol=1e-12)


def test_svd_refuses_a_loss_that_reads_the_phase():
    A = _array((3, 3), np.complex128)
    for lib in (torch, gt):
        a = lib.tensor(A, requires_grad=True)
        with pytest.raises(RuntimeError, match=r"^svd_backward: The singular vectors in the "
                                               r"complex case are specified up to"):
            lib.linalg.svd(a).U[0, 0].imag.backward()


def test_out_of_several_results():
    A = _array((2, 4, 3))
    found = []
    for lib in (torch, gt):
        out = (lib.empty(0), lib.empty(0, dtype=lib.int32), lib.empty(0, dtype=lib.int32))
        out = tuple(o.double() if i == 0 else o for i, o in enumerate(out))
        lib.linalg.lu_factor_ex(lib.tensor(A), out=out)
        found.append([(o.numpy(), o.stride()) for o in out])
    for (e, e_stride), (a, a_stride) in zip(*found):
        np.testing.assert_allclose(a, e)
        assert a_stride == e_stride


def test_torch_lu_is_lu_factor():
    A = _array((2, 3, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        expected = torch.lu(torch.tensor(A), get_infos=True)
        actual = gt.lu(gt.tensor(A), get_infos=True)
    assert isinstance(actual, tuple) and len(actual) == 3
    for e, a in zip(expected, actual):
        np.testing.assert_allclose(a.numpy(), e.numpy())
