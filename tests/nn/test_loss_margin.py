"""The margin, embedding and likelihood losses (`aten/native/nn/loss_embedding.py`,
`nn/_functional/loss_margin.py`, their modules), run on glasstorch and on torch alike:
values, gradients, refusals with torch's exception types and messages, module options."""
import warnings

import numpy as np
import pytest

import glasstorch as gt
from nn_compare import assert_close, same_outcome

torch = pytest.importorskip("torch")
REDUCTIONS = ("none", "mean", "sum")


def _data(seed: int, shape: tuple, kind: str = "normal"):
    rng = np.random.default_rng([seed, *shape])
    if kind == "normal":
        return rng.standard_normal(shape)
    if kind == "positive":
        return rng.uniform(0.1, 3.0, shape)
    if kind == "counts":
        return rng.integers(0, 6, shape).astype(np.float64)
    return np.where(rng.random(shape) < 0.5, -1.0, 1.0)            # signs


def _leaves(lib, arrays, dtype="float64"):
    return [lib.tensor(a, dtype=getattr(lib, dtype), requires_grad=True) for a in arrays]


def _same_values_and_gradients(call, arrays, dtype="float64", rtol=1e-6, atol=1e-7):
    """``call(lib, *leaves)`` in both libraries: equal results and equal gradients of
    their sum for every leaf."""
    results = {}
    for lib in (gt, torch):
        leaves = _leaves(lib, arrays, dtype)
        result = call(lib, *leaves)
        grads = lib.autograd.grad(result.sum(), leaves, allow_unused=True)
        results[lib] = result, grads
    (ours, our_grads), (theirs, their_grads) = results[gt], results[torch]
    assert_close(ours, theirs, rtol, atol)
    for mine, its in zip(our_grads, their_grads):
        assert (mine is None) == (its is None)
        if its is not None:
            assert_close(mine, its, rtol, atol)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("shape", [(6,), (3, 4), ()])
def test_margin_ranking_loss(reduction, shape):
    _same_values_and_gradients(
        lambda lib, a, b, y: lib.nn.functional.margin_ranking_loss(
            a, b, y.detach().sign(), margin=0.3, reduction=reduction),
        [_data(1, shape), _data(2, shape), _data(3, shape, "signs")])


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_hinge_embedding_loss(reduction):
    """Targets of 1, -1 and (as torch's two masks read it) neither."""
    signs = _data(3, (4, 5), "signs")
    signs[0, 0] = 0.5
    _same_values_and_gradients(
        lambda lib, x, y: lib.nn.functional.hinge_embedding_loss(
            x, y.detach(), margin=0.7, reduction=reduction),
        [_data(1, (4, 5)), signs])


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("shapes", [((5, 3), (5,)), ((3,), ())])
def test_cosine_embedding_loss(reduction, shapes):
    inputs, target = shapes
    _same_values_and_gradients(
        lambda lib, a, b, y: lib.nn.functional.cosine_embedding_loss(
            a, b, y.detach(), margin=0.2, reduction=reduction),
        [_data(1, inputs), _data(2, inputs), _data(3, target, "signs")])


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("log_input", [True, False])
@pytest.mark.parametrize("full", [True, False])
def test_poisson_nll_loss(reduction, log_input, full):
    _same_values_and_gradients(
        lambda lib, x, y: lib.nn.functional.poisson_nll_loss(
            x, y, log_input=log_input, full=full, reduction=reduction),
        [_data(1, (4, 3), "positive"), _data(2, (4, 3), "counts")])


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("var_shape", [(4, 3), (4,), (4, 1)])
@pytest.mark.parametrize("full", [True, False])
def test_gaussian_nll_loss(reduction, var_shape, full):
    _same_values_and_gradients(
        lambda lib, x, y, v: lib.nn.functional.gaussian_nll_loss(
            x, y, v, full=full, reduction=reduction),
        [_data(1, (4, 3)), _data(2, (4, 3)), _data(3, var_shape, "positive")])


def test_gaussian_nll_loss_float_variance_and_floor():
    """A float variance, and variances under `eps` clamped without gradient."""
    _same_values_and_gradients(
        lambda lib, x, y: lib.nn.functional.gaussian_nll_loss(x, y, 0.5),
        [_data(1, (4, 3)), _data(2, (4, 3))])
    _same_values_and_gradients(
        lambda lib, x, v: lib.nn.functional.gaussian_nll_loss(x, x.detach() + 1, v, eps=0.5),
        [_data(1, (5,)), _data(3, (5,), "positive")])


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("p, swap", [(2.0, False), (1.0, True), (3.0, False)])
@pytest.mark.parametrize("shape", [(4, 3), (3,)])
def test_triplet_margin_loss(reduction, p, swap, shape):
    _same_values_and_gradients(
        lambda lib, a, pos, neg: lib.nn.functional.triplet_margin_loss(
            a, pos, neg, margin=1.5, p=p, swap=swap, reduction=reduction),
        [_data(1, shape), _data(2, shape), _data(3, shape)])


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("swap", [False, True])
def test_triplet_margin_with_distance_loss(reduction, swap):
    _same_values_and_gradients(
        lambda lib, a, pos, neg: lib.nn.functional.triplet_margin_with_distance_loss(
            a, pos, neg, distance_function=lambda u, v: (u - v).abs().sum(-1),
            margin=0.5, swap=swap, reduction=reduction),
        [_data(1, (4, 3)), _data(2, (4, 3)), _data(3, (4, 3))])


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
def test_multilabel_soft_margin_loss(reduction, weighted):
    weight = _data(4, (5,), "positive")
    _same_values_and_gradients(
        lambda lib, x, y: lib.nn.functional.multilabel_soft_margin_loss(
            x, y.detach().clamp(0, 1).round(), reduction=reduction,
            weight=lib.tensor(weight) if weighted else None),
        [_data(1, (3, 5)), _data(2, (3, 5)) + 0.5])


def test_float32_composites_round_as_torch():
    """The composites run torch's chain of float32 operations: equal to a few ulps."""
    _same_values_and_gradients(
        lambda lib, a, b, y: lib.cosine_embedding_loss(a, b, y.detach(), 0.1, 0),
        [_data(1, (6, 4)), _data(2, (6, 4)), _data(3, (6,), "signs")], dtype="float32",
        rtol=1e-6, atol=1e-6)


def test_legacy_flags():
    _same_values_and_gradients(
        lambda lib, a, b, y: lib.nn.functional.margin_ranking_loss(
            a, b, y.detach(), size_average=False),
        [_data(1, (6,)), _data(2, (6,)), _data(3, (6,), "signs")])


# ----------------------------------------------------------------------------------
# Refusals: torch's exception types and messages
# ----------------------------------------------------------------------------------
REFUSALS = {
    "margin_ranking_rank": lambda lib: lib.nn.functional.margin_ranking_loss(
        lib.zeros(3), lib.zeros(3), lib.zeros(1, 3)),
    "cosine_target_rank": lambda lib: lib.cosine_embedding_loss(
        lib.zeros(2, 3), lib.zeros(2, 3), lib.zeros(2, 1)),
    "cosine_1d_target": lambda lib: lib.cosine_embedding_loss(
        lib.zeros(3), lib.zeros(3), lib.zeros(3)),
    "cosine_0d_target": lambda lib: lib.cosine_embedding_loss(
        lib.zeros(2, 3), lib.zeros(2, 3), lib.tensor(1.)),
    "poisson_reduction": lambda lib: lib.nn.functional.poisson_nll_loss(
        lib.zeros(3), lib.zeros(3), reduction="max"),
    "gaussian_negative_var": lambda lib: lib.nn.functional.gaussian_nll_loss(
        lib.zeros(3), lib.zeros(3), lib.tensor([1., -1., 1.])),
    "gaussian_negative_float": lambda lib: lib.nn.functional.gaussian_nll_loss(
        lib.zeros(3), lib.zeros(3), -1.0),
    "gaussian_var_size": lambda lib: lib.nn.functional.gaussian_nll_loss(
        lib.zeros(4, 3), lib.zeros(4, 3), lib.ones(2, 2)),
    "gaussian_reduction": lambda lib: lib.nn.functional.gaussian_nll_loss(
        lib.zeros(3), lib.zeros(3), 1.0, reduction="max"),
    "triplet_margin": lambda lib: lib.nn.functional.triplet_margin_loss(
        lib.zeros(3), lib.zeros(3), lib.zeros(3), margin=0),
    "triplet_ranks": lambda lib: lib.triplet_margin_loss(
        lib.zeros(2, 3), lib.zeros(3), lib.zeros(3), 1., 2., 1e-6, False, 1),
    "triplet_distance_ranks": lambda lib: lib.nn.functional.triplet_margin_with_distance_loss(
        lib.zeros(2, 3), lib.zeros(3), lib.zeros(3), distance_function=lambda u, v: u - v),
    "triplet_distance_reduction": lambda lib:
        lib.nn.functional.triplet_margin_with_distance_loss(
            lib.zeros(3), lib.zeros(3), lib.zeros(3), reduction="max"),
    "multilabel_soft_reduction": lambda lib: lib.nn.functional.multilabel_soft_margin_loss(
        lib.zeros(2, 3), lib.zeros(2, 3), reduction="max"),
    "triplet_module_margin": lambda lib: lib.nn.TripletMarginLoss(margin=-1.0),
    "triplet_distance_module_margin": lambda lib: lib.nn.TripletMarginWithDistanceLoss(
        margin=0.0),
}


@pytest.mark.parametrize("name", sorted(REFUSALS))
def test_refusals_match_torch(name):
    same_outcome(REFUSALS[name])


# ----------------------------------------------------------------------------------
# Modules
# ----------------------------------------------------------------------------------
MODULES = {
    "MarginRankingLoss": ((0.4,), 3),
    "HingeEmbeddingLoss": ((0.6,), 2),
    "CosineEmbeddingLoss": ((0.1,), 3),
    "PoissonNLLLoss": ((False, True), 2),
    "TripletMarginLoss": ((0.8, 1.0), 3),
    "MultiLabelSoftMarginLoss": ((), 2),
}


def _module_inputs(lib, name: str, count: int):
    if name == "CosineEmbeddingLoss":
        arrays = [_data(1, (4, 3)), _data(2, (4, 3)), _data(3, (4,), "signs")]
    elif name == "PoissonNLLLoss":
        arrays = [_data(1, (4, 3), "positive"), _data(2, (4, 3), "counts")]
    elif name == "MultiLabelSoftMarginLoss":
        arrays = [_data(1, (4, 3)), np.clip(_data(2, (4, 3), "signs"), 0, 1)]
    else:
        arrays = [_data(seed, (4, 3)) for seed in range(count - 1)] + [_data(9, (4, 3), "signs")]
    return [lib.tensor(a) for a in arrays[:count]]


@pytest.mark.parametrize("name", sorted(MODULES))
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_modules_match_torch(name, reduction):
    options, count = MODULES[name]
    ours = getattr(gt.nn, name)(*options, reduction=reduction)
    theirs = getattr(torch.nn, name)(*options, reduction=reduction)
    assert repr(ours) == repr(theirs)
    assert_close(ours(*_module_inputs(gt, name, count)),
                 theirs(*_module_inputs(torch, name, count)))


def test_module_options_and_legacy_flags():
    loss = gt.nn.PoissonNLLLoss(log_input=False, full=True, eps=1e-3, size_average=False)
    assert (loss.log_input, loss.full, loss.eps, loss.reduction) == (False, True, 1e-3, "sum")
    assert gt.nn.TripletMarginLoss(swap=True, p=1.0, reduce=False).reduction == "none"
    gaussian = gt.nn.GaussianNLLLoss(full=True, eps=0.1)
    assert (gaussian.full, gaussian.eps) == (True, 0.1)
    with pytest.raises(TypeError):
        gt.nn.GaussianNLLLoss(True)                      # keyword-only, as torch's
    assert gt.nn.MultiLabelSoftMarginLoss(weight=gt.ones(3)).state_dict()["weight"].shape == (3,)


def test_gaussian_module_and_distance_module():
    args = [_data(1, (4, 3)), _data(2, (4, 3)), _data(3, (4, 1), "positive")]
    ours = gt.nn.GaussianNLLLoss(full=True)(*[gt.tensor(a) for a in args])
    theirs = torch.nn.GaussianNLLLoss(full=True)(*[torch.tensor(a) for a in args])
    assert_close(ours, theirs)
    triplets = [_data(seed, (4, 3)) for seed in range(3)]
    distance = gt.nn.TripletMarginWithDistanceLoss(
        distance_function=lambda u, v: (u - v).abs().sum(-1), swap=True)
    expected = torch.nn.TripletMarginWithDistanceLoss(
        distance_function=lambda u, v: (u - v).abs().sum(-1), swap=True)
    assert_close(distance(*[gt.tensor(a) for a in triplets]),
                 expected(*[torch.tensor(a) for a in triplets]))


def test_nll_loss2d_is_a_deprecated_nll_loss():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        loss = gt.nn.NLLLoss2d(ignore_index=1)
    assert caught[0].category is FutureWarning and "`NLLLoss2d` has been deprecated" in str(
        caught[0].message)
    assert caught[0].filename == __file__
    assert isinstance(loss, gt.nn.NLLLoss) and loss.ignore_index == 1
    x = np.ascontiguousarray(np.log(
        np.random.default_rng(0).dirichlet(np.ones(3), (2, 4, 5)).transpose(0, 3, 1, 2)))
    target = np.random.default_rng(1).integers(0, 3, (2, 4, 5))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = torch.nn.NLLLoss2d(ignore_index=1)(torch.tensor(x), torch.tensor(target))
    assert_close(loss(gt.tensor(x), gt.tensor(target)), expected)


# ----------------------------------------------------------------------------------
# multi_margin_loss: torch's kernel, to the bit
# ----------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("p", [1, 2])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("shape, target", [((5, 7), [0, 6, 3, 3, 1]), ((7,), [2]), ((7,), 2),
                                           ((), 0)])
def test_multi_margin_loss_bitwise(dtype, p, weighted, reduction, shape, target):
    x = _data(1, shape)
    weight = _data(2, (shape[-1] if shape else 1,), "positive") if weighted else None
    results = {}
    for lib in (gt, torch):
        leaf = lib.tensor(x, dtype=getattr(lib, dtype), requires_grad=True)
        w = None if weight is None else lib.tensor(weight, dtype=getattr(lib, dtype))
        loss = lib.nn.functional.multi_margin_loss(leaf, lib.tensor(target), p=p, margin=0.8,
                                                   weight=w, reduction=reduction)
        grad, = lib.autograd.grad(loss, leaf, lib.ones_like(loss) * 0.7)
        results[lib] = loss, grad
    for ours, theirs in zip(results[gt], results[torch]):
        assert_close(ours, theirs, rtol=0, atol=0)


MULTI_MARGIN_REFUSALS = {
    "p": lambda lib: lib.nn.functional.multi_margin_loss(lib.zeros(2, 3), lib.tensor([0, 1]),
                                                         p=3),
    "weight_rank": lambda lib: lib.nn.functional.multi_margin_loss(
        lib.zeros(2, 3), lib.tensor([0, 1]), weight=lib.ones(1, 3)),
    "module_weight_rank": lambda lib: lib.nn.MultiMarginLoss(weight=lib.ones(1, 3)),
    "module_p": lambda lib: lib.nn.MultiMarginLoss(p=0),
    "empty_classes": lambda lib: lib.nn.functional.multi_margin_loss(
        lib.zeros(2, 0), lib.tensor([0, 1])),
    "rank_3": lambda lib: lib.nn.functional.multi_margin_loss(
        lib.zeros(2, 3, 4), lib.tensor([0, 1])),
    "target_size": lambda lib: lib.nn.functional.multi_margin_loss(
        lib.zeros(3, 4), lib.tensor([0, 1])),
    "target_rank": lambda lib: lib.nn.functional.multi_margin_loss(
        lib.zeros(3, 4), lib.tensor([[0, 1, 1]])),
    "weight_size": lambda lib: lib.nn.functional.multi_margin_loss(
        lib.zeros(3, 4), lib.tensor([0, 1, 1]), weight=lib.ones(3)),
    "target_range": lambda lib: lib.nn.functional.multi_margin_loss(
        lib.zeros(3, 4), lib.tensor([0, 4, 1])),
    "target_negative": lambda lib: lib.nn.functional.multi_margin_loss(
        lib.zeros(3, 4), lib.tensor([0, -1, 1])),
    "target_dtype": lambda lib: lib.nn.functional.multi_margin_loss(
        lib.zeros(3, 4), lib.tensor([0., 1., 1.])),
    "weight_dtype": lambda lib: lib.nn.functional.multi_margin_loss(
        lib.zeros(3, 4), lib.tensor([0, 1, 1]), weight=lib.ones(4, dtype=lib.float64)),
    "integer_input": lambda lib: lib.nn.functional.multi_margin_loss(
        lib.zeros(3, 4, dtype=lib.int32), lib.tensor([0, 1, 1])),
    "half_input": lambda lib: lib.nn.functional.multi_margin_loss(
        lib.zeros(3, 4, dtype=lib.float16), lib.tensor([0, 1, 1])),
    "weight_requires_grad": lambda lib: lib.nn.functional.multi_margin_loss(
        lib.zeros(3, 4), lib.tensor([0, 1, 1]), weight=lib.ones(4, requires_grad=True)),
}


@pytest.mark.parametrize("name", sorted(MULTI_MARGIN_REFUSALS))
def test_multi_margin_refusals_match_torch(name):
    same_outcome(MULTI_MARGIN_REFUSALS[name])


def test_multi_margin_double_backward_is_refused_as_torch():
    def scenario(lib):
        x = lib.tensor(_data(1, (3, 4)), requires_grad=True)
        loss = lib.nn.functional.multi_margin_loss(x, lib.tensor([0, 1, 2]), p=2)
        grad, = lib.autograd.grad(loss, x, create_graph=True)
        return lib.autograd.grad(grad.sum(), x)
    same_outcome(scenario)


def test_multi_margin_module_matches_torch():
    weight = _data(2, (4,), "positive")
    ours = gt.nn.MultiMarginLoss(p=2, margin=0.5, weight=gt.tensor(weight))
    theirs = torch.nn.MultiMarginLoss(p=2, margin=0.5, weight=torch.tensor(weight))
    assert repr(ours) == repr(theirs)
    assert sorted(ours.state_dict()) == ["weight"]
    x, target = _data(1, (3, 4)), [0, 3, 1]
    assert_close(ours(gt.tensor(x), gt.tensor(target)), theirs(torch.tensor(x),
                                                               torch.tensor(target)))


# ----------------------------------------------------------------------------------
# multilabel_margin_loss
# ----------------------------------------------------------------------------------
MULTILABEL_CASES = {
    "rows": ((3, 4), [[3, 0, -1, 1], [1, 2, 3, -1], [-1, 0, 0, 0]]),
    "full_rows": ((2, 3), [[0, 1, 2], [2, 0, 1]]),
    "repeated": ((2, 5), [[1, 1, -1, 2, 2], [4, -1, -1, -1, -1]]),
    "vector": ((4,), [3, 0, -1, 1]),
    "scalar": ((), 0),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("case", sorted(MULTILABEL_CASES))
def test_multilabel_margin_loss(dtype, reduction, case):
    shape, target = MULTILABEL_CASES[case]
    results = {}
    for lib in (gt, torch):
        leaf = lib.tensor(_data(1, shape), dtype=getattr(lib, dtype), requires_grad=True)
        loss = lib.nn.functional.multilabel_margin_loss(leaf, lib.tensor(target),
                                                        reduction=reduction)
        grad, = lib.autograd.grad(loss, leaf, lib.ones_like(loss) * 0.7)
        results[lib] = loss, grad
    for ours, theirs in zip(results[gt], results[torch]):
        assert_close(ours, theirs, rtol=1e-6, atol=1e-7)


def test_multilabel_margin_forward_marks_the_targets():
    x, target = _data(1, (3, 4)), MULTILABEL_CASES["rows"][1]
    ours = gt.ops.aten.multilabel_margin_loss_forward(gt.tensor(x), gt.tensor(target), 0)
    theirs = torch.ops.aten.multilabel_margin_loss_forward(torch.tensor(x),
                                                          torch.tensor(target), 0)
    for mine, its in zip(ours, theirs):
        assert_close(mine, its)


MULTILABEL_REFUSALS = {
    "target_rows": lambda lib: lib.nn.functional.multilabel_margin_loss(
        lib.zeros(3, 4), lib.zeros(2, 4, dtype=lib.long)),
    "vector_target": lambda lib: lib.nn.functional.multilabel_margin_loss(
        lib.zeros(4), lib.zeros(3, 4, dtype=lib.long)),
    "empty_classes": lambda lib: lib.nn.functional.multilabel_margin_loss(
        lib.zeros(2, 0), lib.zeros(2, 0, dtype=lib.long)),
    "rank_3": lambda lib: lib.nn.functional.multilabel_margin_loss(
        lib.zeros(2, 3, 4), lib.zeros(2, 3, 4, dtype=lib.long)),
    "too_large": lambda lib: lib.nn.functional.multilabel_margin_loss(
        lib.zeros(3, 4), lib.tensor([[4, 0, -1, 1]] * 3)),
    "below_minus_one": lambda lib: lib.nn.functional.multilabel_margin_loss(
        lib.zeros(3, 4), lib.tensor([[-2, 0, -1, 1]] * 3)),
    "after_the_end": lambda lib: lib.nn.functional.multilabel_margin_loss(
        lib.zeros(3, 4), lib.tensor([[-1, 5, 0, 0]] * 3)),
    "target_dtype": lambda lib: lib.nn.functional.multilabel_margin_loss(
        lib.zeros(3, 4), lib.zeros(3, 4)),
    "integer_input": lambda lib: lib.nn.functional.multilabel_margin_loss(
        lib.zeros(3, 4, dtype=lib.int32), lib.zeros(3, 4, dtype=lib.long)),
}


@pytest.mark.parametrize("name", sorted(MULTILABEL_REFUSALS))
def test_multilabel_margin_refusals_match_torch(name):
    same_outcome(MULTILABEL_REFUSALS[name])


def test_multilabel_margin_module_matches_torch():
    x, target = _data(1, (3, 4)), MULTILABEL_CASES["rows"][1]
    ours, theirs = gt.nn.MultiLabelMarginLoss(reduction="sum"), torch.nn.MultiLabelMarginLoss(
        reduction="sum")
    assert repr(ours) == repr(theirs)
    assert_close(ours(gt.tensor(x), gt.tensor(target)), theirs(torch.tensor(x),
                                                               torch.tensor(target)))
