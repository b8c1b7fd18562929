"""F.linear_cross_entropy and nn.LinearCrossEntropyLoss against torch: values and
gradients (class indices and probabilities, K-dimensional logits, bias, class weights,
label smoothing), refusals, the module's parameters, initialisation and repr."""
import numpy as np
import pytest

import glasstorch as gt
from nn_compare import assert_close, same_outcome

torch = pytest.importorskip("torch")


def _data(seed: int, shape: tuple):
    return np.random.default_rng([seed, *shape]).standard_normal(shape)


CASES = {
    "indices": ((3, 4), (5, 4), None, [0, 4, 2], {}),
    "bias_weight": ((3, 4), (5, 4), (5,), [0, 4, 2], {"weight": [1., 2., 0.5, 1., 3.]}),
    "unbatched": ((4,), (5, 4), (5,), 3, {"label_smoothing": 0.2}),
    "ignored": ((3, 4), (5, 4), None, [0, 1, 1], {"ignore_index": 1, "reduction": "sum"}),
    "k_dim": ((3, 4), (5, 2, 4), (5, 2), [[0, 1], [4, 4], [2, 3]], {"reduction": "none"}),
    "probabilities": ((3, 4), (5, 4), None, "probabilities", {}),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_linear_cross_entropy_matches_torch(case):
    input_shape, weight_shape, bias_shape, target, options = CASES[case]
    if isinstance(target, str):
        target = np.random.default_rng(3).dirichlet(np.ones(5), 3)
    results = {}
    for lib in (gt, torch):
        leaves = [lib.tensor(_data(1, input_shape), requires_grad=True),
                  lib.tensor(_data(2, weight_shape), requires_grad=True)]
        if bias_shape:
            leaves.append(lib.tensor(_data(3, bias_shape), requires_grad=True))
        extra = {k: lib.tensor(v, dtype=lib.float64) if k == "weight" else v
                 for k, v in options.items()}
        loss = lib.nn.functional.linear_cross_entropy(
            leaves[0], leaves[1], lib.tensor(target),
            linear_bias=leaves[2] if bias_shape else None, **extra)
        results[lib] = (loss, *lib.autograd.grad(loss.sum(), leaves))
    for ours, theirs in zip(results[gt], results[torch]):
        assert_close(ours, theirs, rtol=1e-7, atol=1e-9)


REFUSALS = {
    "input_rank": lambda lib: lib.nn.functional.linear_cross_entropy(
        lib.zeros(2, 3, 4), lib.zeros(5, 4), lib.zeros(2, dtype=lib.long)),
    "weight_rank": lambda lib: lib.nn.functional.linear_cross_entropy(
        lib.zeros(2, 4), lib.zeros(5), lib.zeros(2, dtype=lib.long)),
    "in_features": lambda lib: lib.nn.functional.linear_cross_entropy(
        lib.zeros(2, 4), lib.zeros(5, 3), lib.zeros(2, dtype=lib.long)),
    "bias_shape": lambda lib: lib.nn.functional.linear_cross_entropy(
        lib.zeros(2, 4), lib.zeros(5, 4), lib.zeros(2, dtype=lib.long),
        linear_bias=lib.zeros(4)),
    "k_dim_unbatched": lambda lib: lib.nn.functional.linear_cross_entropy(
        lib.zeros(4), lib.zeros(5, 2, 4), lib.zeros(2, dtype=lib.long)),
    "ignore_with_probabilities": lambda lib: lib.nn.functional.linear_cross_entropy(
        lib.zeros(2, 4), lib.zeros(5, 4), lib.zeros(2, 5), ignore_index=1),
    "module_weight": lambda lib: lib.nn.LinearCrossEntropyLoss(4, 5, weight=lib.ones(4)),
    "module_smoothing": lambda lib: lib.nn.LinearCrossEntropyLoss(4, 5, label_smoothing=2),
}


@pytest.mark.parametrize("name", sorted(REFUSALS))
def test_refusals_match_torch(name):
    same_outcome(REFUSALS[name])


@pytest.mark.parametrize("options", [{}, {"bias": True, "ignore_index": 2},
                                     {"out_features": (2,), "bias": True,
                                      "reduction": "none"}])
def test_module_matches_torch(options):
    def build(lib):
        lib.manual_seed(0)
        return lib.nn.LinearCrossEntropyLoss(4, 5, **options)
    ours, theirs = build(gt), build(torch)
    assert repr(ours) == repr(theirs)
    assert sorted(ours.state_dict()) == sorted(theirs.state_dict())
    for name, value in theirs.state_dict().items():
        assert_close(ours.state_dict()[name], value)
    target = [[0, 1], [4, 4], [2, 3]] if options.get("out_features") else [0, 4, 2]
    assert_close(ours(gt.tensor(_data(1, (3, 4)), dtype=gt.float32), gt.tensor(target)),
                 theirs(torch.tensor(_data(1, (3, 4)), dtype=torch.float32),
                        torch.tensor(target)), rtol=1e-5, atol=1e-6)


def test_chunked_options_read_the_class_weights_as_constants():
    """With torch's chunking options the class weights may require grad (they get
    none); without, cross_entropy refuses them."""
    from torch.nn.modules.linear_cross_entropy_options import LinearCrossEntropyOptions

    def scenario(lib, options):
        x = lib.tensor(_data(1, (6, 3)), requires_grad=True)
        w = lib.tensor(_data(2, (4, 3)), requires_grad=True)
        weight = lib.tensor([1., 2., 0.5, 3.], dtype=lib.float64, requires_grad=True)
        loss = lib.nn.functional.linear_cross_entropy(
            x, w, lib.tensor([0, 1, 3, 3, -100, 2]), weight=weight, options=options)
        return loss, *lib.autograd.grad(loss, [x, w, weight], allow_unused=True)
    options = LinearCrossEntropyOptions(batch_chunk_size=2)
    ours, theirs = scenario(gt, options), scenario(torch, options)
    assert ours[3] is None and theirs[3] is None
    for mine, its in zip(ours[:3], theirs[:3]):
        assert_close(mine, its, rtol=1e-7, atol=1e-9)
    same_outcome(lambda lib: scenario(lib, None))
