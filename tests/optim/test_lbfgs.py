"""LBFGS against torch: iterates, closure calls and state counters on small fitting
problems (fixed step and strong-Wolfe line search, short histories, complex
parameters), checkpoints in both directions, and the refusals.

The closures compute loss and gradient in NumPy float64 (then cast to the parameters'
dtype), so that both optimizers see the same values at the same points. Iterates are
compared within torch.testing's tolerances: the dot products and (in float64)
``add_(alpha=)`` round in the last bit differently from torch's BLAS and fused kernels.
"""
import io

import numpy as np
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(3)
A = RNG.standard_normal((20, 5))
B = RNG.standard_normal(20)


def least_squares(v):
    """A ridge regression's loss and gradient (a convex, well-conditioned problem)."""
    residual = A @ v - B
    return 0.5 * residual @ residual + 0.1 * v @ v, A.T @ residual + 0.2 * v


def rosenbrock(v):
    x, y = v[0::2], v[1::2]
    grad = np.empty_like(v)
    grad[0::2] = -2 * (1 - x) - 400 * x * (y - x * x)
    grad[1::2] = 200 * (y - x * x)
    return ((1 - x) ** 2 + 100 * (y - x * x) ** 2).sum(), grad


def fit(lib, problem, start, dtype="float64", steps=3, **options):
    """Step LBFGS `steps` times; the parameters and closure calls after each, and the
    optimizer."""
    param = lib.tensor(start, dtype=getattr(lib, dtype), requires_grad=True)
    opt = lib.optim.LBFGS([param], **options)
    calls = [0]

    def closure():
        calls[0] += 1
        opt.zero_grad()
        loss, grad = problem(param.detach().numpy().astype(np.float64))
        param.grad = lib.tensor(grad, dtype=param.dtype)
        return lib.tensor(loss, dtype=param.dtype)
    seen = []
    for _ in range(steps):
        opt.step(closure)
        seen.append((param.detach().numpy().copy(), calls[0]))
    return seen, opt


def assert_same_run(mine, theirs, dtype):
    (seen, opt), (their_seen, their_opt) = mine, theirs
    assert [calls for _, calls in seen] == [calls for _, calls in their_seen]
    for (values, _), (expected, _) in zip(seen, their_seen):
        torch.testing.assert_close(torch.from_numpy(values), torch.from_numpy(expected))
    state = next(iter(opt.state.values()))
    their_state = next(iter(their_opt.state.values()))
    assert (state["func_evals"], state["n_iter"]) == (their_state["func_evals"],
                                                      their_state["n_iter"])
    assert len(state["old_dirs"]) == len(their_state["old_dirs"])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("options", [
    dict(), dict(line_search_fn="strong_wolfe"),
    dict(lr=0.5, history_size=2, max_iter=7), dict(line_search_fn="strong_wolfe", max_eval=6),
    dict(line_search_fn="strong_wolfe", history_size=1, tolerance_change=1e-5),
    dict(lr=0.01, max_iter=4, tolerance_grad=1e-3)], ids=str)
def test_least_squares_matches_torch(dtype, options):
    start = np.zeros(5)
    assert_same_run(fit(gt, least_squares, start, dtype, **options),
                    fit(torch, least_squares, start, dtype, **options), dtype)


@pytest.mark.parametrize("options", [dict(line_search_fn="strong_wolfe", max_iter=6),
                                     dict(history_size=3, max_iter=7, lr=0.5)], ids=str)
def test_rosenbrock_matches_torch(options):
    start = np.array([-1.2, 1.0, -0.5, 2.0])
    assert_same_run(fit(gt, rosenbrock, start, steps=2, **options),
                    fit(torch, rosenbrock, start, steps=2, **options), "float64")


def test_strong_wolfe_fits_to_the_minimum():
    (values, calls), = fit(gt, least_squares, np.zeros(5), steps=1, max_iter=50,
                           line_search_fn="strong_wolfe")[0][-1:]
    exact = np.linalg.solve(A.T @ A + 0.2 * np.eye(5), A.T @ B)
    np.testing.assert_allclose(values, exact, atol=1e-6)
    assert calls < 50


def test_complex_parameter_matches_torch():
    def run(lib):
        z = lib.tensor([1 + 2j, -0.5 + 0.3j], dtype=lib.complex128, requires_grad=True)
        opt = lib.optim.LBFGS([z], line_search_fn="strong_wolfe")
        target = lib.tensor([0.2 - 1j, 1.5 + 0.5j], dtype=lib.complex128)

        def closure():
            opt.zero_grad()
            loss = ((z - target).abs() ** 2).sum() + (z.real ** 4).sum()
            loss.backward()
            return loss
        for _ in range(2):
            opt.step(closure)
        return z.detach().numpy()
    np.testing.assert_allclose(run(gt), run(torch), rtol=1e-9)


def test_missing_gradient_counts_as_zero():
    counts = []
    for lib in (gt, torch):
        used = lib.tensor([1.0, 2.0], requires_grad=True)
        unused = lib.tensor([3.0], requires_grad=True)
        opt = lib.optim.LBFGS([used, unused], max_iter=3)

        def closure():
            opt.zero_grad()
            loss = (used ** 2).sum()
            loss.backward()
            return loss
        assert opt.step(closure).item() == 5.0
        assert unused.tolist() == [3.0]
        counts.append((opt.state[used]["n_iter"], opt.state[used]["func_evals"], used.tolist()))
    assert counts[0] == counts[1]


@pytest.mark.parametrize("direction", ["torch to glasstorch", "glasstorch to torch"])
def test_checkpoint_continues_the_same_trajectory(direction):
    """Two steps, a checkpoint saved with one library's torch.save and loaded by the
    other's torch.load, then two more steps: the same as four steps in one run."""
    first, second = (torch, gt) if direction == "torch to glasstorch" else (gt, torch)
    options = dict(line_search_fn="strong_wolfe", max_iter=3, history_size=4)
    start = np.array([-1.2, 1.0, -0.5, 2.0])
    seen, opt = fit(first, rosenbrock, start, steps=2, **options)
    buffer = io.BytesIO()
    first.save(opt.state_dict(), buffer)
    buffer.seek(0)
    resumed = seen[-1][0]
    param = second.tensor(resumed, dtype=second.float64, requires_grad=True)
    opt2 = second.optim.LBFGS([param], **options)
    opt2.load_state_dict(second.load(buffer))

    def closure():
        opt2.zero_grad()
        loss, grad = rosenbrock(param.detach().numpy().astype(np.float64))
        param.grad = second.tensor(grad, dtype=second.float64)
        return second.tensor(loss, dtype=second.float64)
    for _ in range(2):
        opt2.step(closure)
    reference, _ = fit(first, rosenbrock, start, steps=4, **options)
    np.testing.assert_allclose(param.detach().numpy(), reference[-1][0], rtol=1e-9)


@pytest.mark.parametrize("make,error,message", [
    (lambda L, p: L.optim.LBFGS([p], lr=-1.0), ValueError, "Invalid learning rate: -1.0"),
    (lambda L, p: L.optim.LBFGS([p], lr=L.tensor([1.0, 2.0])), ValueError,
     "Tensor lr must be 1-element"),
    (lambda L, p: L.optim.LBFGS([{"params": [p]}, {"params": [L.zeros(1)]}]), ValueError,
     "LBFGS doesn't support per-parameter options (parameter groups)"),
    (lambda L, p: L.optim.LBFGS([p], line_search_fn="armijo").step(
        lambda: (p ** 2).sum().backward() or (p ** 2).sum()), RuntimeError,
     "only 'strong_wolfe' is supported"),
    (lambda L, p: L.optim.LBFGS([p]).step(), TypeError, "missing 1 required positional"),
])
def test_errors_match_torch(make, error, message):
    for lib in (gt, torch):
        param = lib.tensor([1.0, 2.0], requires_grad=True)
        with pytest.raises(error) as info:
            make(lib, param)
        assert message in str(info.value)


def test_defaults_and_state_keys_match_torch():
    opts = []
    for lib in (gt, torch):
        seen, opt = fit(lib, least_squares, np.zeros(5), steps=1,
                        line_search_fn="strong_wolfe")
        opts.append(opt)
    assert opts[0].defaults == opts[1].defaults
    mine, theirs = (next(iter(o.state.values())) for o in opts)
    assert sorted(mine) == sorted(theirs)
    assert repr(opts[0]) == repr(opts[1])
