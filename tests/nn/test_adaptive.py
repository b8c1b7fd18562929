"""nn.AdaptiveLogSoftmaxWithLoss against torch: seeded parameters, outputs, loss and
parameter gradients, log_prob, predict (shortlist, rare and mixed rows), refusals."""
import numpy as np
import pytest

import glasstorch as gt
from nn_compare import assert_close, same_outcome

torch = pytest.importorskip("torch")


def _build(lib, **options):
    lib.manual_seed(0)
    return lib.nn.AdaptiveLogSoftmaxWithLoss(8, 10, **{"cutoffs": [3, 6], **options})


def _input(lib, rows=5):
    return lib.tensor(np.random.default_rng(rows).standard_normal((rows, 8)),
                      dtype=lib.float32)


@pytest.mark.parametrize("options", [{}, {"div_value": 2.0, "head_bias": True},
                                     {"cutoffs": [5]}])
@pytest.mark.parametrize("target", [[0, 5, 9, 2, 7], [1, 1, 0, 2, 2], [9, 8, 7, 6, 9]])
def test_output_loss_and_gradients(options, target):
    results = {}
    for lib in (gt, torch):
        module = _build(lib, **options)
        output, loss = module(_input(lib), lib.tensor(target))
        grads = lib.autograd.grad(loss, list(module.parameters()), allow_unused=True)
        results[lib] = (repr(module), output, loss, *grads)
    assert results[gt][0] == results[torch][0]
    for ours, theirs in zip(results[gt][1:], results[torch][1:]):
        assert (ours is None) == (theirs is None)      # clusters no target reaches
        if theirs is not None:
            assert_close(ours, theirs)


def test_unbatched_log_prob_and_predict():
    ours, theirs = _build(gt), _build(torch)
    single = [lib.tensor(np.random.default_rng(1).standard_normal(8), dtype=lib.float32)
              for lib in (gt, torch)]
    mine, its = ours(single[0], gt.tensor(7)), theirs(single[1], torch.tensor(7))
    assert_close(mine.output, its.output)
    assert_close(mine.loss, its.loss)
    assert_close(ours.log_prob(_input(gt)), theirs.log_prob(_input(torch)))
    for rows in (5, 40):            # mixed rows, and enough for every kind of row
        assert ours.predict(_input(gt, rows)).tolist() == \
            theirs.predict(_input(torch, rows)).tolist()


def test_predict_of_rows_all_rare_or_all_frequent():
    """The head set to pick the second cluster for every row, then the first class."""
    ours, theirs = _build(gt), _build(torch)
    x = [lib.ones(3, 8) for lib in (gt, torch)]
    for favoured in (4, 0):
        with gt.no_grad(), torch.no_grad():
            for module in (ours, theirs):
                module.head.weight.zero_()
                module.head.weight[favoured] += 5.0
        assert ours.predict(x[0]).tolist() == theirs.predict(x[1]).tolist()
    assert ours.predict(x[0]).tolist() == [0, 0, 0]


REFUSALS = {
    "no_cutoffs": lambda lib: lib.nn.AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs=[]),
    "unsorted": lambda lib: lib.nn.AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs=[5, 3]),
    "too_large": lambda lib: lib.nn.AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs=[10]),
    "batch": lambda lib: _build(lib)(lib.zeros(3, 8), lib.tensor([0, 1])),
    "rank_for_1d": lambda lib: _build(lib)(lib.zeros(2, 2, 8), lib.tensor([0, 1])),
    "rank_for_0d": lambda lib: _build(lib)(lib.zeros(2, 8), lib.tensor(1)),
    "multi_target": lambda lib: _build(lib)(lib.zeros(2, 8), lib.zeros(2, 1, dtype=lib.long)),
    "target_range": lambda lib: _build(lib)(lib.zeros(2, 8), lib.tensor([0, 10])),
}


@pytest.mark.parametrize("name", sorted(REFUSALS))
def test_refusals_match_torch(name):
    same_outcome(REFUSALS[name])
