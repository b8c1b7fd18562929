"""torch.lobpcg: the eigenpairs, the steps and the tracker's view of them, the batch, the
refusals and the backward pass, each against torch's for the same seed and inputs."""
import re

import numpy as np
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")


def spd(seed: int, m: int, batch: tuple = ()) -> np.ndarray:
    M = np.random.default_rng(seed).standard_normal(batch + (m, m))
    return M @ np.swapaxes(M, -1, -2) + m * np.eye(m)


def run_both(A, **kwargs):
    """(torch's (E, X, steps), ours) for one seeded call; numpy arrays become tensors."""
    results = []
    for lib in (torch, gt):
        lib.manual_seed(5)
        steps = []
        args = {k: lib.tensor(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}
        tracker = lambda w: steps.append((w.ivars["istep"], w.ivars["converged_count"]))
        E, X = lib.lobpcg(lib.tensor(A), tracker=tracker, **args)
        results.append((E.detach().numpy(), X.detach().numpy(), steps))
    return results


def assert_same_pairs(theirs, ours):
    """Equal eigenvalues; eigenvectors equal up to each one's sign (eigh's choice of sign
    differs between LAPACK builds, and torch calls it arbitrary)."""
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-10)
    sign = np.sign((theirs[1] * ours[1]).sum(-2, keepdims=True))
    np.testing.assert_allclose(ours[1] * sign, theirs[1], atol=1e-9)


@pytest.mark.parametrize("kwargs", [
    {}, {"largest": False}, {"method": "basic"}, {"B": spd(1, 15)},
    {"B": spd(1, 15), "method": "basic", "largest": False},
    {"iK": np.linalg.inv(spd(0, 15))}, {"ortho_bparams": {"ortho_use_drop": True}},
    {"niter": 2}, {"tol": 1e-3}, {"X": np.eye(15)[:, :3] + 0.1}])
def test_matches_torch_step_for_step(kwargs):
    kwargs = {"k": 2, "n": 3, **kwargs}
    theirs, ours = run_both(spd(0, 15), **kwargs)
    assert ours[2] == theirs[2]
    assert_same_pairs(theirs, ours)


def test_a_batch_is_solved_problem_by_problem():
    theirs, ours = run_both(spd(2, 12, (2, 1)), k=2)
    assert ours[0].shape == (2, 1, 2) and ours[1].shape == (2, 1, 12, 2)
    assert_same_pairs(theirs, ours)


def test_the_tracker_may_stop_the_iteration():
    def stop(worker):
        worker.bvars["force_stop"] = worker.ivars["istep"] >= 3
        assert set(worker.tvars) == {"rerr"} and "ortho_VBU_rerr[0]" in worker.fvars
    gt.lobpcg(gt.tensor(spd(0, 15)), k=2, tracker=stop)
    stopped = []
    gt.lobpcg(gt.tensor(spd(0, 15)), k=2, tracker=lambda w: (stop(w), stopped.append(w)))
    assert len(stopped) == 3 and "istep" in str(stopped[-1])


def test_basic_writes_the_first_ritz_vectors_into_the_given_x():
    X = [gt.eye(15)[:, :3] + 0.1, torch.eye(15)[:, :3] + 0.1]
    gt.lobpcg(gt.tensor(spd(0, 15)).float(), k=2, X=X[0], method="basic")
    torch.lobpcg(torch.tensor(spd(0, 15)).float(), k=2, X=X[1], method="basic")
    np.testing.assert_allclose(abs(X[0].numpy()), abs(X[1].numpy()), atol=1e-5)
    assert abs(X[0].numpy() - 0.1).max() > 0.1


@pytest.mark.parametrize("call", [
    lambda lib: lib.lobpcg(lib.ones(3, 4)),
    lambda lib: lib.lobpcg(lib.eye(5), k=2),
    lambda lib: lib.lobpcg(lib.eye(9), B=lib.eye(8)),
    lambda lib: lib.lobpcg(lib.eye(9), X=lib.ones(8, 2)),
    lambda lib: lib.lobpcg(lib.eye(9, dtype=lib.float16)),
    lambda lib: lib.lobpcg(lib.eye(9, requires_grad=True), B=lib.eye(9))[0].sum().backward()])
def test_refuses_as_torch(call):
    with pytest.raises(Exception) as theirs:
        call(torch)
    with pytest.raises(type(theirs.value), match=re.escape(str(theirs.value))):
        call(gt)


@pytest.mark.parametrize("largest, batch", [(True, ()), (False, ()), (True, (2,))])
def test_gradient_of_the_symmetrized_matrix(largest, batch):
    grads = []
    for lib in (torch, gt):
        lib.manual_seed(5)
        A = lib.tensor(spd(3, 12, batch), requires_grad=True)
        E, X = lib.lobpcg(A, k=2, largest=largest)
        (E.sum() + (X ** 4).sum()).backward()        # X**4: blind to the vectors' signs
        grads.append(A.grad.numpy())
    np.testing.assert_allclose(grads[1], grads[0], atol=1e-6)   # both off by ~tol
    np.testing.assert_allclose(grads[1], np.swapaxes(grads[1], -1, -2))


def test_gradient_is_that_of_the_exact_eigenpairs():
    """Converged tightly, lobpcg's gradient is eigh's through the same pairs."""
    A = gt.tensor(spd(4, 9), requires_grad=True)
    weights = gt.arange(9.0, dtype=gt.float64).reshape(9, 1)
    E, V = gt.lobpcg(A, k=2, X=gt.eye(9, dtype=gt.float64)[:, :2] + 0.1, tol=1e-13,
                     largest=False)
    (E.sum() + (V ** 2 * weights).sum()).backward()
    B = gt.tensor(spd(4, 9), requires_grad=True)
    E, V = gt.linalg.eigh((B + B.mT) / 2)
    (E[:2].sum() + (V[:, :2] ** 2 * weights).sum()).backward()
    np.testing.assert_allclose(A.grad.numpy(), B.grad.numpy(), atol=1e-10)
