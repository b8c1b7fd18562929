"""A ratchet on the Python frames of common calls (architecture 5f, "Where an operator's
time goes"): a frame costs about 0.05-0.1 us, and unlike a time the count does not depend
on the machine's load. A change that adds a frame to one of these calls fails here; one
that removes frames lowers the budget.

The calls are counted in a fresh interpreter, each with fresh tensors: what the tests
before these left behind (a kernel registered on an operator, a cache filled) cannot
change a count."""
import json
import pathlib
import subprocess
import sys

import pytest

CHECKOUT = pathlib.Path(__file__).resolve().parent.parent

# call -> most Python frames it may enter (its own not counted), measured once warm
BUDGET = {
    "a + b": 2, "a * b": 2, "a + 1": 5, "torch.add(a, b)": 3, "x.exp()": 3, "x.relu()": 3,
    "x.sum()": 8, "x.mean()": 9, "x[1:3]": 4, "x.view(-1)": 3, "ga + gb": 13,
    "ga.sum()": 17, "(ga * gb).sum().backward()": 91, "F.mse_loss(a, b)": 37,
    "ga.relu()": 14, "ga.view(2, 5)": 13, "F.mse_loss(ga.relu(), gb).backward()": 176,
    "F.linear(ga.view(2, 5), gb.view(2, 5), gb[:2]).sum().backward()": 434,
}


_COUNT = """
import json, sys
sys.path.insert(0, sys.argv[1])
from bench.layers import frames
import glasstorch as torch
counts = {}
for call in json.loads(sys.argv[2]):
    names = {"torch": torch, "F": torch.nn.functional, "a": torch.rand(10),
             "b": torch.rand(10), "x": torch.rand(10),
             "ga": torch.rand(10, requires_grad=True), "gb": torch.rand(10, requires_grad=True)}
    counts[call] = frames(eval(f"lambda: {call}", names))
print(json.dumps(counts))
"""


@pytest.fixture(scope="module")
def counts() -> dict:
    done = subprocess.run([sys.executable, "-c", _COUNT, str(CHECKOUT), json.dumps(list(BUDGET))],
                          capture_output=True, text=True, check=True, cwd=CHECKOUT)
    return json.loads(done.stdout)


@pytest.mark.parametrize("call", BUDGET)
def test_common_calls_stay_within_their_frames(call, counts):
    assert counts[call] <= BUDGET[call]
