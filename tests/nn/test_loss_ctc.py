"""The CTC loss against torch: F.ctc_loss and nn.CTCLoss values and gradients through
log_softmax (padded and concatenated targets, every reduction, zero_infinity, unbatched),
the forward variables where torch defines them, out=, the gradient nodes, and training."""
import numpy as np
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")


def _values(t):
    return t.detach().numpy().copy()


def _inputs(lib, seed=0, steps=8, batch=3, labels=6, width=4):
    rng = np.random.default_rng(seed)
    logits = lib.tensor(rng.standard_normal((steps, batch, labels)), requires_grad=True)
    targets = lib.tensor(rng.integers(1, labels, (batch, width)))
    return logits, targets


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("layout", ["padded", "concatenated", "tuples", "unbatched"])
def test_functional_matches_torch(reduction, layout):
    found = []
    for lib in (gt, torch):
        logits, targets = _inputs(lib)
        input_lengths, target_lengths = [8, 6, 5], [4, 3, 1]
        log_probs = logits.log_softmax(2)
        if layout == "concatenated":
            targets = lib.cat([targets[b, :n] for b, n in enumerate(target_lengths)])
        if layout == "unbatched":
            log_probs, targets = log_probs[:, 0], targets[0]
            input_lengths, target_lengths = [8], [4]
        lengths = (tuple(input_lengths), tuple(target_lengths)) if layout == "tuples" else \
            (lib.tensor(input_lengths), lib.tensor(target_lengths))
        loss = lib.nn.functional.ctc_loss(log_probs, targets, *lengths, reduction=reduction)
        loss.sum().backward()
        found.append((_values(loss), _values(logits.grad), loss.shape))
    (loss_a, grad_a, shape_a), (loss_b, grad_b, shape_b) = found
    assert tuple(shape_a) == tuple(shape_b)
    np.testing.assert_allclose(loss_a, loss_b, rtol=1e-12)
    np.testing.assert_allclose(grad_a, grad_b, rtol=1e-9, atol=1e-12)


def test_zero_infinity_and_blank():
    found = []
    for lib in (gt, torch):
        logits, targets = _inputs(lib, seed=1, steps=3, width=4)
        ctc = lib.nn.CTCLoss(blank=5, reduction="sum", zero_infinity=True)
        targets = targets % 5            # labels 0..4: 5 is the blank
        loss = ctc(logits.log_softmax(2), targets, lib.tensor([3, 3, 2]), lib.tensor([4, 1, 2]))
        loss.backward()
        found.append((_values(loss), _values(logits.grad), repr(ctc)))
    np.testing.assert_allclose(found[0][0], found[1][0], rtol=1e-12)
    np.testing.assert_allclose(found[0][1], found[1][1], rtol=1e-9, atol=1e-12)
    assert found[0][2] == found[1][2]


def test_log_alpha_where_torch_defines_it():
    found = []
    for lib in (gt, torch):
        logits, targets = _inputs(lib, seed=2)
        nll, alpha = lib._ctc_loss(logits.log_softmax(2), targets, [8, 6, 5], [4, 3, 1])
        found.append((_values(nll), _values(alpha), nll.grad_fn.name()))
    (nll_a, alpha_a, node_a), (nll_b, alpha_b, node_b) = found
    np.testing.assert_allclose(nll_a, nll_b, rtol=1e-12)
    assert node_a == node_b == "CtcLossBackward0" and alpha_a.shape == alpha_b.shape
    for b, (steps, length) in enumerate(zip([8, 6, 5], [4, 3, 1])):
        defined = alpha_b[b, :steps, :2 * length + 1]
        np.testing.assert_allclose(alpha_a[b, :steps, :2 * length + 1], defined, rtol=1e-12)


def test_out_overloads():
    logits, targets = _inputs(gt)
    lp = logits.detach().log_softmax(2)
    nll, alpha = gt.empty(0, dtype=gt.float64), gt.empty(0, dtype=gt.float64)
    result = gt.ops.aten._ctc_loss.out(lp, targets, [8, 6, 5], [4, 3, 1], out0=nll, out1=alpha)
    assert result[0] is nll and result[1] is alpha
    expected = gt._ctc_loss(lp, targets, [8, 6, 5], [4, 3, 1])
    assert gt.equal(nll, expected[0]) and tuple(alpha.shape) == tuple(expected[1].shape)
    grad = gt.empty(0, dtype=gt.float64)
    gt.ops.aten._ctc_loss_backward.out(gt.ones(3, dtype=gt.float64), lp, targets, [8, 6, 5],
                                       [4, 3, 1], nll, alpha, 0, out=grad)
    direct = gt.ops.aten._ctc_loss_backward(gt.ones(3, dtype=gt.float64), lp, targets,
                                            [8, 6, 5], [4, 3, 1], nll, alpha, 0)
    assert gt.equal(grad, direct)


def test_second_derivative_is_refused_as_torch():
    logits, targets = _inputs(gt)
    loss = gt.nn.functional.ctc_loss(logits.log_softmax(2), targets, [8, 6, 5], [4, 3, 1])
    grad, = gt.autograd.grad(loss, logits, create_graph=True)
    with pytest.raises(RuntimeError, match="^derivative for aten::_ctc_loss_backward is not "
                                           "implemented$"):
        grad.sum().backward()


def test_training_a_tiny_recognizer_matches_torch():
    """A linear layer over features trained with CTC: the same losses step by step."""
    losses = []
    for lib in (gt, torch):
        lib.manual_seed(0)
        model = lib.nn.Linear(4, 5).double()
        opt = lib.optim.Adam(model.parameters(), lr=0.05)
        features = lib.linspace(-1, 1, 10 * 2 * 4, dtype=lib.float64).reshape(10, 2, 4).sin()
        targets = lib.tensor([[1, 2, 3], [4, 4, 0]])
        ctc = lib.nn.CTCLoss()
        run = []
        for _ in range(5):
            opt.zero_grad()
            loss = ctc(model(features).log_softmax(2), targets, lib.tensor([10, 9]),
                       lib.tensor([3, 2]))
            loss.backward()
            opt.step()
            run.append(loss.item())
        losses.append(run)
    np.testing.assert_allclose(losses[0], losses[1], rtol=1e-10)
