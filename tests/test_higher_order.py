"""torch.cond and torch.while_loop, eager, against torch: results and refusals."""
import pytest

import glasstorch as gt


def _outcome(lib, case):
    try:
        result = case(lib)
    except Exception as e:          # noqa: BLE001 (the test compares any error)
        return type(e).__name__, str(e).replace("glasstorch", "torch")
    return repr(result)


CASES = {
    "cond tensor true": lambda t: t.cond(t.tensor(True), lambda x: x + 1, lambda x: x - 1, (t.ones(2),)),
    "cond tensor false": lambda t: t.cond(t.tensor([False]), lambda x: x + 1, lambda x: x - 1, [t.ones(2)]),
    "cond from a reduction": lambda t: t.cond(t.arange(3.0).sum() > 5, lambda x: x * 2,
                                              lambda x: x * 3, (t.arange(3.0),)),
    "cond python constant": lambda t: t.cond(0, lambda: 1, lambda: 2),
    "cond two operands": lambda t: t.cond(t.tensor(True), lambda a, b: a @ b, lambda a, b: a - b,
                                          (t.eye(2), t.ones(2, 2))),
    "cond many-element pred": lambda t: t.cond(t.tensor([True, False]), lambda x: x, lambda x: x, (t.ones(1),)),
    "cond string pred": lambda t: t.cond("yes", lambda x: x, lambda x: x, (t.ones(1),)),
    "cond branch not callable": lambda t: t.cond(t.tensor(True), 3, lambda x: x, (t.ones(1),)),
    "cond operand not a tensor": lambda t: t.cond(t.tensor(True), lambda x: x, lambda x: x, (1,)),
    "while counting": lambda t: t.while_loop(lambda i, x: i < 3, lambda i, x: (i + 1, x * 2),
                                             (t.tensor(0), t.ones(2))),
    "while never": lambda t: t.while_loop(lambda i, x: i < 0, lambda i, x: (i + 1, x.clone()),
                                          (t.tensor(0), t.ones(2))),
    "while not callable": lambda t: t.while_loop(3, lambda x: (x,), (t.ones(1),)),
    "while bad leaves": lambda t: t.while_loop(lambda x: x < 1, lambda x: (x,), ("a",)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_outcome_matches_torch(name):
    torch = pytest.importorskip("torch")
    assert _outcome(gt, CASES[name]) == _outcome(torch, CASES[name])


def test_while_loop_checks_the_body_and_predicate():
    with pytest.raises(AssertionError, match="body_fn should return a tuple but got"):
        gt.while_loop(lambda x: x.sum() < 3, lambda x: x + 1, (gt.zeros(1),))
    with pytest.raises(AssertionError, match="same number of elements as carried_inputs, got 2 vs 1"):
        gt.while_loop(lambda x: x.sum() < 3, lambda x: (x + 1, x), (gt.zeros(1),))
    with pytest.raises(RuntimeError, match="cond_fn must return a boolean scalar tensor"):
        gt.while_loop(lambda x: x + 1, lambda x: (x,), (gt.zeros(2),))


def test_while_loop_clones_when_the_body_never_runs():
    x = gt.ones(2)
    (out,) = gt.while_loop(lambda x: x.sum() < 0, lambda x: (x,), (x,))
    assert gt.equal(out, x) and out is not x
