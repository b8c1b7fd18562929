"""A ratchet on the Python frames of common calls (architecture 5f, "Where an operator's
time goes"): a frame costs about 0.05-0.1 us, and unlike a time the count does not depend
on the machine's load. A change that adds a frame to one of these calls fails here; one
that removes frames lowers the budget."""
import pathlib
import sys

import pytest

import glasstorch as torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))   # the checkout
from bench.layers import frames  # noqa: E402

# call -> most Python frames it may enter (its own not counted), measured once warm
BUDGET = {
    "a + b": 2, "a * b": 2, "a + 1": 5, "torch.add(a, b)": 3, "x.exp()": 3, "x.relu()": 3,
    "x.sum()": 8, "x.mean()": 9, "x[1:3]": 4, "x.view(-1)": 3, "ga + gb": 13,
    "ga.sum()": 17, "(ga * gb).sum().backward()": 91, "F.mse_loss(a, b)": 37,
    "ga.relu()": 14, "ga.view(2, 5)": 13, "F.mse_loss(ga.relu(), gb).backward()": 176,
    "F.linear(ga.view(2, 5), gb.view(2, 5), gb[:2]).sum().backward()": 434,
}


@pytest.mark.parametrize("call", BUDGET)
def test_common_calls_stay_within_their_frames(call):
    names = {"torch": torch, "F": torch.nn.functional, "a": torch.rand(10),
             "b": torch.rand(10), "x": torch.rand(10),
             "ga": torch.rand(10, requires_grad=True), "gb": torch.rand(10, requires_grad=True)}
    function = eval(f"lambda: {call}", names)
    assert frames(function) <= BUDGET[call]
