"""QR, eig, pinv, lstsq, matrix functions and norms against torch: what the OpInfo entries
leave out (general matrices' eigenvectors up to phase, gradients through every output,
out= of several results, the removed functions' messages), on small inputs."""
import numpy as np
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(11)


def _array(shape, dtype=np.float64):
    a = RNG.standard_normal(shape)
    return a + 1j * RNG.standard_normal(shape) if dtype == np.complex128 else a


def _grads(fn, *arrays):
    found = []
    for lib in (torch, gt):
        tensors = [lib.tensor(a, requires_grad=True) for a in arrays]
        results = fn(lib, *tensors)
        results = results if isinstance(results, tuple) else (results,)
        loss = sum(((r.abs() ** 2) if r.is_complex() else r).sum() * (i + 1)
                   for i, r in enumerate(results) if r.requires_grad)
        found.append([g.resolve_conj().numpy() for g in lib.autograd.grad(loss, tensors)])
    return found


@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=["real", "complex"])
@pytest.mark.parametrize("case", [
    ("qr tall", lambda lib, A: lib.linalg.qr(A), (2, 4, 3)),
    ("qr wide", lambda lib, A: lib.linalg.qr(A), (3, 5)),
    ("qr complete wide", lambda lib, A: lib.linalg.qr(A, mode="complete"), (3, 5)),
    ("eig, gauge-invariant", lambda lib, A: (lib.linalg.eig(A)[0], lib.linalg.eig(A)[1].abs()),
     (2, 3, 3)),
    ("eigvals", lambda lib, A: lib.linalg.eigvals(A), (3, 3)),
    ("pinv", lambda lib, A: lib.linalg.pinv(A), (2, 4, 3)),
    ("pinv hermitian", lambda lib, A: lib.linalg.pinv(A @ A.mH, hermitian=True), (3, 3)),
    ("matrix_exp", lambda lib, A: lib.linalg.matrix_exp(0.3 * A), (2, 3, 3)),
    ("matrix_power -2", lambda lib, A: lib.linalg.matrix_power(A, -2), (3, 3)),
    ("matrix_norm 2", lambda lib, A: lib.linalg.matrix_norm(A, 2), (2, 3, 3)),
    ("matrix_norm nuc", lambda lib, A: lib.linalg.matrix_norm(A, "nuc"), (2, 3, 4)),
    ("tensorsolve", lambda lib, A: lib.linalg.tensorsolve(A, A[..., 0]), (3, 3)),
], ids=lambda case: case[0] if isinstance(case, tuple) else None)
def test_gradients_match_torch(case, dtype):
    expected, actual = _grads(case[1], _array(case[2], dtype))
    for e, a in zip(expected, actual):
        np.testing.assert_allclose(a, e, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("driver", [None, "gels", "gelsy", "gelsd", "gelss"])
def test_lstsq_every_driver(driver):
    A, B = _array((2, 5, 3)), _array((2, 5, 2))
    expected = torch.linalg.lstsq(torch.tensor(A), torch.tensor(B), driver=driver)
    actual = gt.linalg.lstsq(gt.tensor(A), gt.tensor(B), driver=driver)
    for e, a in zip(expected, actual):
        assert tuple(a.shape) == tuple(e.shape) and a.dtype == getattr(gt, str(e.dtype)[6:])
        np.testing.assert_allclose(a.numpy(), e.numpy(), rtol=1e-10, atol=1e-12)
    expected, actual = _grads(lambda lib, a, b: lib.linalg.lstsq(a, b, driver=driver).solution,
                              A, B)
    for e, a in zip(expected, actual):
        np.testing.assert_allclose(a, e, rtol=1e-7, atol=1e-9)


def test_eigenvectors_of_a_general_matrix_agree_up_to_phase():
    A = _array((2, 4, 4))
    values, vectors = (t.numpy() for t in gt.linalg.eig(gt.tensor(A)))
    t_values, t_vectors = (t.numpy() for t in torch.linalg.eig(torch.tensor(A)))
    np.testing.assert_allclose(values, t_values, rtol=1e-10)
    phase = np.sum(vectors.conj() * t_vectors, axis=-2, keepdims=True)
    np.testing.assert_allclose(vectors * phase / np.abs(phase), t_vectors, atol=1e-10)


@pytest.mark.parametrize("call", [
    lambda lib, A: lib.linalg.qr(A, out=(lib.empty(0, dtype=A.dtype),) * 0 + (
        lib.empty(0, dtype=A.dtype), lib.empty(0, dtype=A.dtype))),
    lambda lib, A: lib.geqrf(A, out=(lib.empty(0, dtype=A.dtype), lib.empty(0, dtype=A.dtype))),
    lambda lib, A: lib.linalg.eig(A, out=(lib.empty(0, dtype=lib.complex128),
                                          lib.empty(0, dtype=lib.complex128)))[0],
], ids=["qr", "geqrf", "eig"])
def test_out_of_several_results(call):
    A = np.triu(_array((2, 3, 3))) + np.diag([1.0, 2.0, 3.0])
    expected, actual = call(torch, torch.tensor(A)), call(gt, gt.tensor(A))
    for e, a in zip(expected if isinstance(expected, tuple) else (expected,),
                    actual if isinstance(actual, tuple) else (actual,)):
        assert a.stride() == e.stride()
        np.testing.assert_allclose(a.numpy(), e.numpy(), atol=1e-12)


@pytest.mark.parametrize("name", ["eig", "lstsq", "matrix_rank", "solve", "symeig"])
def test_removed_functions_say_what_replaces_them(name):
    args = (gt.eye(2),) if name in ("eig", "matrix_rank", "symeig") else (gt.eye(2), gt.eye(2))
    with pytest.raises(RuntimeError) as found:
        getattr(gt, name)(*args)
    with pytest.raises(RuntimeError) as expected:
        getattr(torch, name)(*(torch.eye(2) for _ in args))
    assert str(found.value) == str(expected.value)


def test_vander_of_top_level():
    x = [1.0, 2.0, 3.0]
    assert gt.vander(gt.tensor(x)).tolist() == torch.vander(torch.tensor(x)).tolist()
    assert gt.vander(gt.tensor(x), 2, True).tolist() == torch.vander(torch.tensor(x), 2,
                                                                       True).tolist()


@pytest.mark.parametrize("call", [
    lambda lib, A: lib.svd_lowrank(A, q=3),
    lambda lib, A: lib.svd_lowrank(A.mT, q=3, niter=1),
    lambda lib, A: lib.svd_lowrank(A, q=3, M=A[..., :1, :]),
    lambda lib, A: lib.pca_lowrank(A),
], ids=["tall", "wide", "M", "pca"])
def test_lowrank_draws_torchs_sketch(call):
    """Seeded alike, the same sketch: S equal, U and V equal up to each column's sign."""
    A = _array((2, 8, 5))
    found = []
    for lib in (torch, gt):
        lib.manual_seed(0)
        found.append([t.numpy() for t in call(lib, lib.tensor(A))])
    (tU, tS, tV), (U, S, V) = found
    np.testing.assert_allclose(S, tS, rtol=1e-10)
    signs = np.sign(np.sum(U * tU, axis=-2, keepdims=True))
    np.testing.assert_allclose(U * signs, tU, atol=1e-10)
    np.testing.assert_allclose(V * signs, tV, atol=1e-10)
